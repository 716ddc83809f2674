/* prefscore's outbox: what a player sends from the table is kept on the phone until the
   server has answered it (docs/design.md, "Never lose a deal").

   - Each entry (record, change, undo, correction, consent, proposal…) is written to
     localStorage before it is sent, with a client id the server keeps with the deal: a
     replay of it is answered as its success, another device's deal of the same number
     is a 409 that shows both (games/views/sheet.py).
   - Entries are sent in order, one at a time, on load, on `online`, when the page is
     shown again and on a backoff timer, each with a CSRF token fetched just before
     (the token rotates at sign-in and its cookie is HttpOnly). An expired session
     keeps them: the page says "sign in to send 2 saved entries".
   - Only an answer counts: `navigator.onLine` saying false is no reason not to try (it
     can be wrong, and a failed try costs nothing), and a request with no answer after
     LATE is given up and tried again later (a stalled connection never holds the
     outbox; the server answers a repeated entry as its first: by its client id).
   - An answer: a success leaves the outbox; a 409 for a deal recorded elsewhere waits
     for the player's choice (and holds the pulka's later entries back); a refusal for
     good goes to the "not sent" list with its reason, to copy or discard.
   - It registers the service worker (/sw.js) where the browser allows one, and says
     when a new release is ready and when the page is the copy kept offline.
   - Signing out with entries still here says so first: they stay on this phone, and go
     when this account signs in again; the next person on the phone sees none of them.
   network.js puts the table's forms in here and shows the answers in the page. The
   rules (order, backoff, what an answer means) are outbox-core.js's, loaded before this.
   Words come from the page (#outbox, translated there): none are written here. */
(function () {
  "use strict";

  var core = window.prefscoreOutboxCore;
  var KEY = "prefscore.outbox";
  var LATE = core.LATE;
  var tries = 0;
  var timer = null;
  var sending = false;
  var expired = false; // the last try found the session gone
  var inFlight = {}; // ids htmx is sending from a form on this page right now

  function region() {
    return document.getElementById("outbox");
  }

  function words(key) {
    var el = region();
    return (el && el.dataset[key]) || "";
  }

  function me() {
    var el = region();
    return el ? el.dataset.user || "" : "";
  }

  // --- the stored list -------------------------------------------------------------------

  function load() {
    try {
      var list = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (error) {
      return [];
    }
  }

  function store(list) {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(list));
    } catch (error) {
      // Storage full or refused: the form on the page still holds the entry.
    }
    render();
  }

  function find(id) {
    return load().filter(function (entry) { return entry.id === id; })[0] || null;
  }

  function put(entry) {
    var done = core.upsert(load(), entry, me(), new Date().toISOString());
    store(done[0]);
    return done[1];
  }

  function update(id, changes) {
    store(load().map(function (entry) {
      return entry.id === id ? Object.assign({}, entry, changes) : entry;
    }));
  }

  function remove(id) {
    store(load().filter(function (entry) { return entry.id !== id; }));
  }

  function mine(list) {
    return core.mine(list, me());
  }

  function newId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes); // randomUUID needs HTTPS; this does not
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 0x100).toString(16).slice(1); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  // --- sending ---------------------------------------------------------------------------

  function schedule() {
    if (timer !== null) return;
    var wait = core.backoff(tries);
    tries += 1;
    timer = window.setTimeout(function () {
      timer = null;
      flush();
    }, wait);
  }

  // fetch, given up after LATE: its promise then fails as a network error does.
  function fetchOrGiveUp(url, options) {
    if (!window.AbortController) return fetch(url, options);
    var control = new AbortController();
    var timer = window.setTimeout(function () { control.abort(); }, LATE);
    function done() { window.clearTimeout(timer); }
    return fetch(url, Object.assign({ signal: control.signal }, options)).then(function (response) {
      done();
      return response;
    }, function (error) {
      done();
      throw error;
    });
  }

  function session() {
    return fetchOrGiveUp(words("sessionUrl"), { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (!response.ok) throw new Error("session " + response.status);
      return response.json();
    });
  }

  function loginPath() {
    return new URL(words("loginUrl") || "/login/", window.location.href).pathname;
  }

  function reasonOf(text, status) {
    var doc = new DOMParser().parseFromString(text || "", "text/html");
    var found = [];
    var said = "#entry .notice, .form__errors p, .form__error, .errorlist li, .error-page__reason";
    if (!doc.querySelector(said)) said = "#error-title"; // an error page that gives no reason
    doc.querySelectorAll(said).forEach(function (el) {
      var line = el.textContent.trim();
      if (line && found.indexOf(line) < 0) found.push(line);
    });
    return found.join(" ") || words("refusedStatus").replace("{status}", String(status));
  }

  function answered(entry, status, text) {
    var detail = { entry: entry, status: status, text: text, shown: false };
    document.dispatchEvent(new CustomEvent("outbox:answer", { detail: detail }));
    return detail.shown;
  }

  function send(entry, token) {
    var body = new URLSearchParams();
    entry.params.forEach(function (pair) { body.append(pair[0], pair[1]); });
    return fetchOrGiveUp(entry.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": token, "HX-Request": "true", "HX-Current-URL": window.location.href },
    }).then(function (response) {
      var signedOut = response.redirected && new URL(response.url).pathname === loginPath();
      var result = core.outcome({
        status: response.status,
        signedOut: signedOut,
        conflict: response.headers.get("X-Entry-Conflict"),
      });
      if (result === "expired" || result === "failed") return result;
      return response.text().then(function (text) {
        if (result === "sent") {
          remove(entry.id);
          online(); // the server answered: no longer the copy kept offline
          answered(entry, response.status, text);
        } else if (result === "conflict") {
          update(entry.id, { state: "conflict", number: response.headers.get("X-Entry-Conflict") });
          answered(find(entry.id) || entry, response.status, text);
        } else if (answered(entry, response.status, text)) {
          remove(entry.id); // the form shows why
        } else {
          update(entry.id, { state: "refused", reason: reasonOf(text, response.status) });
        }
        return result;
      });
    }, function () {
      return "failed";
    });
  }

  // The page is no longer the copy kept offline: its mark goes at once (the poll then
  // brings its regions up to date).
  function online() {
    if (!document.body.dataset.offlineAsOf) return;
    delete document.body.dataset.offlineAsOf;
    render();
  }

  // A choice to make is asked again where it can be shown, once per page (core.due).
  function due(entry, held) {
    var shown = entry.state === "conflict" &&
      Boolean(document.querySelector('[data-entry-conflict="' + entry.id + '"]'));
    return core.due(entry, held, inFlight, window.location.pathname, shown);
  }

  function flush() {
    if (sending || !me()) return Promise.resolve();
    var waiting = core.pending(load(), me());
    if (!waiting.length) return Promise.resolve();
    sending = true;
    if (timer !== null) window.clearTimeout(timer);
    timer = null;
    return session()
      .then(function (now) {
        expired = now.user === null;
        if (expired || String(now.user) !== me()) return "expired";
        return core.sendRound(waiting, find, due, function (entry) { return send(entry, now.csrf); });
      })
      .catch(function () { return "failed"; })
      .then(function (result) {
        sending = false;
        if (result === "expired") expired = true;
        if (result === "failed") schedule();
        else tries = 0;
        render();
        return result;
      });
  }

  // --- what the page shows ---------------------------------------------------------------

  function counted(key, count) {
    // data-KEY-one, -few, -many, -other: the language's plural forms, chosen here.
    var form = new Intl.PluralRules(document.documentElement.lang || "en").select(count);
    var el = region();
    var text = el.getAttribute("data-" + key + "-" + form) || el.getAttribute("data-" + key + "-other") || "";
    return text.replace("{count}", String(count));
  }

  function clock(iso) {
    var at = new Date(iso);
    if (isNaN(at.getTime())) return "";
    return at.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
  }

  function element(tag, className, text) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  }

  function button(label, data, value) {
    var el = element("button", "button button--small button--secondary", label);
    el.type = "button";
    el.setAttribute(data, value);
    return el;
  }

  function asText(entry) {
    return [entry.label, entry.url].concat(entry.params.map(function (pair) {
      return pair[0] + "=" + pair[1];
    })).join("\n");
  }

  function render() {
    var el = region();
    if (!el) return;
    var list = mine(load());
    var waiting = list.filter(function (entry) { return entry.state === "waiting"; });
    var choices = list.filter(function (entry) {
      return entry.state === "conflict" && !document.querySelector('[data-entry-conflict="' + entry.id + '"]');
    });
    var refused = list.filter(function (entry) { return entry.state === "refused"; });
    var body = element("div", "outbox__body");
    var offlineAt = document.body.dataset.offlineAsOf;
    if (offlineAt) {
      body.appendChild(element("p", "outbox__offline", words("offline").replace("{time}", clock(offlineAt))));
    }
    if ((!me() || expired) && (waiting.length || choices.length)) {
      var link = element("a", "button button--small", counted("signin", waiting.length + choices.length));
      var next = window.location.pathname === loginPath() ? "" : "?next=" + encodeURIComponent(window.location.pathname);
      link.href = words("loginUrl") + next;
      link.setAttribute("data-outbox-signin", "");
      body.appendChild(link);
    } else if (waiting.length) {
      var line = element("p", "outbox__count", counted("waiting", waiting.length));
      line.setAttribute("data-outbox-count", String(waiting.length));
      body.appendChild(line);
    }
    if (waiting.length) {
      var items = element("ul", "outbox__list");
      waiting.forEach(function (entry) {
        items.appendChild(element("li", "outbox__item", entry.label + " · " + clock(entry.at)));
      });
      body.appendChild(items);
      if (me() && !expired) body.appendChild(button(words("sendNow"), "data-outbox-send", ""));
    }
    choices.forEach(function (entry) {
      var choice = element("p", "outbox__choice");
      var go = element("a", "", words("choose").replace("{label}", entry.label));
      go.href = entry.pulka + "#entry";
      choice.appendChild(go);
      body.appendChild(choice);
    });
    if (refused.length) {
      var box = element("div", "outbox__refused");
      box.appendChild(element("h2", "outbox__title", words("notSent")));
      refused.forEach(function (entry) {
        var item = element("div", "outbox__item outbox__item--refused");
        item.setAttribute("data-outbox-refused", entry.id);
        item.appendChild(element("p", "outbox__label", entry.label + " · " + clock(entry.at)));
        item.appendChild(element("p", "outbox__reason", entry.reason || ""));
        var copy = element("textarea", "outbox__copy");
        copy.readOnly = true;
        copy.rows = 3;
        copy.value = asText(entry);
        copy.setAttribute("aria-label", words("copyLabel"));
        item.appendChild(copy);
        item.appendChild(button(words("copy"), "data-outbox-copy", entry.id));
        item.appendChild(button(words("discard"), "data-outbox-drop", entry.id));
        box.appendChild(item);
      });
      body.appendChild(box);
    }
    var update = document.getElementById("outbox-update");
    var warning = el.querySelector("[data-outbox-sign-out]");
    el.replaceChildren(body);
    if (warning) el.insertBefore(warning, body);
    if (update) el.appendChild(update);
    el.hidden = !body.childNodes.length && !update && !warning;
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("[data-outbox-send], [data-outbox-copy], [data-outbox-drop], [data-outbox-discard], [data-outbox-reload]");
    if (!target) return;
    if (target.hasAttribute("data-outbox-send")) flush();
    if (target.hasAttribute("data-outbox-drop")) remove(target.getAttribute("data-outbox-drop"));
    if (target.hasAttribute("data-outbox-discard")) remove(target.getAttribute("data-outbox-discard"));
    if (target.hasAttribute("data-outbox-copy")) {
      var box = target.parentNode.querySelector(".outbox__copy");
      box.select();
      var done = navigator.clipboard && window.isSecureContext
        ? navigator.clipboard.writeText(box.value)
        : Promise.resolve(document.execCommand("copy"));
      done.then(function () { target.textContent = words("copied"); }, function () {});
    }
    if (target.hasAttribute("data-outbox-reload")) takeOver();
  });

  // Once the sign-out is on its way, an answer to the page's own requests no longer
  // matters, and one must not act: a poll answered after the session ended says 403
  // with HX-Redirect to the sign-in page, back to this pulka, which would win over the
  // sign-out's own way home (seen in the browser tests on a loaded machine).
  var signingOut = false;
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    if (signingOut) event.preventDefault();
  });

  // Signing out with entries still here: said first, once (they stay on this phone and
  // go when this account signs in again); then the pages the worker kept, this
  // account's, are dropped.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-sign-out]")) return;
    var unsent = me() ? core.unsent(load(), me()) : 0;
    if (unsent && !form.dataset.outboxWarned) {
      event.preventDefault();
      warnSignOut(form, unsent);
      return;
    }
    signingOut = true;
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "signed-out" });
    }
  });

  function warnSignOut(form, unsent) {
    form.dataset.outboxWarned = "1";
    var note = element("div", "outbox__sign-out notice");
    note.setAttribute("role", "alert");
    note.setAttribute("data-outbox-sign-out", "");
    note.appendChild(element("p", "", counted("sign-out", unsent)));
    var go = element("button", "button button--small button--secondary", words("signOutAnyway"));
    go.type = "submit";
    go.setAttribute("form", form.id); // the sign-out form itself, with its token
    note.appendChild(go);
    var place = region();
    if (!place) return form.submit();
    place.hidden = false;
    place.insertBefore(note, place.firstChild);
    go.focus();
  }

  // --- the service worker ----------------------------------------------------------------

  var reloading = false;

  function offerUpdate(worker) {
    if (document.getElementById("outbox-update")) return;
    var note = element("p", "outbox__update");
    note.id = "outbox-update";
    note.setAttribute("role", "status");
    note.appendChild(element("span", "", words("updated") + " "));
    note.appendChild(button(words("reload"), "data-outbox-reload", ""));
    note.netWorker = worker;
    region().appendChild(note);
    region().hidden = false;
  }

  function takeOver() {
    var note = document.getElementById("outbox-update");
    var worker = note && note.netWorker;
    if (worker) worker.postMessage({ type: "take-over" });
    else window.location.reload();
  }

  function register() {
    var url = words("workerUrl");
    if (!url || !("serviceWorker" in navigator) || !window.isSecureContext) return;
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      // The new release took over at the player's word: one reload, never two.
      if (reloading || !document.getElementById("outbox-update")) return;
      reloading = true;
      window.location.reload();
    });
    navigator.serviceWorker.register(url, { scope: "/" }).then(function (registration) {
      function watch(worker) {
        worker.addEventListener("statechange", function () {
          if (worker.state === "installed" && navigator.serviceWorker.controller) offerUpdate(worker);
        });
      }
      if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration.waiting);
      if (registration.installing) watch(registration.installing);
      registration.addEventListener("updatefound", function () { watch(registration.installing); });
      document.addEventListener("visibilitychange", function () {
        if (document.visibilityState === "visible") registration.update().catch(function () {});
      });
    }, function () {});
  }

  // --- when it is sent -------------------------------------------------------------------

  window.addEventListener("online", function () { tries = 0; flush(); });
  // The server answered this page again (its poll, a form): no longer the copy kept
  // offline; the poll brings its regions up to date.
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status && xhr.status < 500) online();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") flush();
  });
  window.addEventListener("pageshow", function (event) { if (event.persisted) flush(); });

  window.prefscoreOutbox = {
    newId: newId,
    put: put,
    find: find,
    update: update,
    remove: remove,
    flush: flush,
    schedule: schedule,
    render: render,
    loginPath: loginPath,
    expire: function () { expired = true; render(); },
    sending: function (id, busy) {
      if (busy) inFlight[id] = true;
      else delete inFlight[id];
    },
    before: function (id, pulka) {
      // Older entries of this pulka still to be sent: this one waits its turn.
      return core.olderWaiting(load(), id, pulka, me(), inFlight);
    },
    sameDeal: function (pulka, url, number, exceptId) {
      return core.sameDeal(load(), pulka, url, number, me(), exceptId);
    },
    nextFreeNumber: function (pulka, url, number) {
      return core.nextFreeNumber(load(), pulka, url, number, me());
    },
  };

  function start() {
    render();
    register();
    flush();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
