/* prefscore table screen: never lose what a player entered to the network.

   - Each action a form sends (record, change, undo, correction, consent, proposal,
     manual entry) goes into the outbox (static/js/outbox.js) before it is sent, with a
     client id, and leaves it when the server has answered; from a reload, a closed tab
     or a restarted phone it is sent again from there.
   - In flight, an htmx form's submit buttons are disabled and the one tapped says it is
     saving. An entry with older ones of the table still waiting is not sent now: it
     waits its turn in the outbox, so the deals arrive in the order they were entered.
   - Failed (no connection, a timeout, a server error): the outbox keeps it and sends it
     again by itself; its answer is shown here as htmx would have (the regions swapped
     in). A deal's entry form then moves on to the next deal, saying that this one waits,
     so that the next tap of Record never replaces it; another form stays as it was
     typed, with a "not saved" line that offers to send it now.
   - An entry for a deal whose entry already waits on this phone asks first: record it
     as the next deal, or replace the one waiting.
   - Signed out meanwhile: the entry is kept, and the page says to sign in to send it.
   - An answer that brings the table's regions (the poll, another form's answer) does not
     wipe a half-filled entry form: the same deal is filled in again, a deal recorded
     elsewhere meanwhile is said so, with one tap to put the entry back as the next deal.
   Words come from the page (#net-strings, translated there): none are written here. */
(function () {
  "use strict";

  var KEPT_OUT = { csrfmiddlewaretoken: true, number: true, action: true, client_id: true };
  var outbox = window.prefscoreOutbox; // outbox.js, loaded by every page before this
  var swapSource = null; // the element whose answer htmx is swapping in
  var pending = null; // what to do with the entry form once a swap has put it in place

  function words(key) {
    var el = document.getElementById("net-strings");
    return (el && el.dataset[key]) || "";
  }

  function actionForm(elt) {
    return elt && elt.tagName === "FORM" && elt.hasAttribute("hx-post") ? elt : null;
  }

  // --- in flight -------------------------------------------------------------------------

  document.addEventListener(
    "click",
    function (event) {
      var button = event.target.closest && event.target.closest("button[type=submit], button:not([type])");
      if (button && button.form && actionForm(button.form)) button.form.netSubmitter = button;
    },
    true
  );

  function setBusy(form, busy) {
    form.querySelectorAll("button[type=submit], button:not([type])").forEach(function (button) {
      if (busy) {
        button.disabled = true;
        if (button === form.netSubmitter || !form.netSubmitter) {
          button.dataset.netLabel = button.textContent;
          button.textContent = words("saving");
        }
      } else {
        button.disabled = false;
        if (button.dataset.netLabel !== undefined) {
          button.textContent = button.dataset.netLabel;
          delete button.dataset.netLabel;
        }
      }
    });
    if (busy) {
      form.setAttribute("aria-busy", "true");
      form.dataset.netState = "busy";
    } else {
      form.removeAttribute("aria-busy");
      delete form.dataset.netState;
    }
  }

  // --- into the outbox, before it is sent --------------------------------------------------

  function labelOf(form) {
    if (form.id === "entry-form") {
      var heading = document.getElementById("entry-heading");
      if (heading) return heading.textContent.trim();
    }
    var line = form.closest("li[value]");
    var button = form.netSubmitter || form.querySelector("button[type=submit], button:not([type])");
    var action = button ? button.textContent.trim() : "";
    return line ? words("deal").replace("{number}", line.getAttribute("value")) + ": " + action : action;
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var form = actionForm(event.detail.elt);
    if (!form || !outbox || event.defaultPrevented) return; // asked first (below)
    var kept = form.querySelector("input[name=client_id]");
    var id = form.netOutboxId || (kept && kept.value) || outbox.newId();
    form.netOutboxId = id;
    var data = event.detail.formData;
    data.set("client_id", id);
    var params = [];
    data.forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") params.push([name, value]);
    });
    outbox.put({
      id: id,
      url: event.detail.path,
      params: params,
      label: labelOf(form),
      pulka: window.location.pathname,
      state: "waiting",
    });
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    // The poll waits while this phone's own change is on its way: that answer brings the
    // new regions, and a poll answered meanwhile would be one more full answer for the
    // server to render in a busy room, and could show the version before it again.
    if (event.detail.elt && event.detail.elt.id === "poll") {
      if (document.querySelector('form[data-net-state="busy"]')) event.preventDefault();
      return;
    }
    var form = actionForm(event.detail.elt);
    if (form && outbox && outbox.before(form.netOutboxId, window.location.pathname)) {
      event.preventDefault(); // older entries first: this one is sent after them
      showFailed(form, "queued");
      outbox.flush();
      return;
    }
    if (form) {
      setBusy(form, true);
      if (outbox) outbox.sending(form.netOutboxId, true);
    }
    var link = actionLink(event.detail.elt);
    if (link) {
      link.setAttribute("aria-busy", "true");
      var note = link.nextElementSibling;
      if (note && note.classList.contains("net-status--link")) note.parentNode.removeChild(note);
    }
  });

  // A link that asks for a form (change, correct, a forgotten deal, cancel): busy while
  // it loads, and a word beside it when it could not; it sends nothing, so it is tapped
  // again rather than sent again by itself.
  function actionLink(elt) {
    return elt && elt.tagName === "A" && elt.hasAttribute("hx-get") ? elt : null;
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var link = actionLink(event.detail.elt);
    if (!link || !document.body.contains(link)) return;
    link.removeAttribute("aria-busy");
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status !== 0 && status < 500) return;
    var note = document.createElement("span");
    note.className = "net-status net-status--link";
    note.setAttribute("role", "alert");
    note.textContent = words("unloaded");
    link.parentNode.insertBefore(note, link.nextSibling);
  });

  // --- the answer, or none ---------------------------------------------------------------

  function statusLine(form) {
    var line = form.querySelector(".net-status");
    if (line) return line;
    line = document.createElement("div");
    line.className = "net-status";
    line.setAttribute("role", "alert");
    var text = document.createElement("p");
    text.className = "net-status__text";
    line.appendChild(text);
    var actions = form.querySelector(".entry__actions");
    if (actions) actions.parentNode.insertBefore(line, actions.nextSibling);
    else form.appendChild(line);
    return line;
  }

  function clearStatus(form) {
    var line = form.querySelector(".net-status");
    if (line) line.parentNode.removeChild(line);
    delete form.dataset.netFailed;
  }

  function smallButton(label, data) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button button--small";
    button.setAttribute(data, "");
    button.textContent = label;
    return button;
  }

  function showFailed(form, why) {
    if (outbox) outbox.schedule();
    if (isDealEntry(form)) {
      nextDeal(form, why); // the entry waits in the outbox: the form moves on
      return;
    }
    var line = statusLine(form);
    line.classList.remove("net-status--refused");
    line.querySelector(".net-status__text").textContent = words(why || "failed");
    if (!line.querySelector("[data-net-retry]")) line.appendChild(smallButton(words("retry"), "data-net-retry"));
    form.dataset.netFailed = "1";
  }

  function isDealEntry(form) {
    return form.id === "entry-form" && form.dataset.mode === "record";
  }

  function showRefused(form) {
    delete form.dataset.netFailed;
    var line = statusLine(form);
    line.classList.add("net-status--refused");
    line.querySelector(".net-status__text").textContent = words("refused");
    var retry = line.querySelector("[data-net-retry]");
    if (retry) retry.parentNode.removeChild(retry);
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    swapSource = null;
    // The form that sent it: htmx names a parent still in the page when the answer
    // swapped the form out, so the request's own record of it is read first.
    var config = event.detail.requestConfig;
    var form = actionForm((config && config.elt) || event.detail.elt);
    if (!form) return;
    var xhr = event.detail.xhr;
    var status = xhr ? xhr.status : 0;
    var id = form.netOutboxId;
    var signedOut = status && xhr.responseURL && outbox &&
      new URL(xhr.responseURL).pathname === outbox.loginPath();
    // A 403 that brought no regions is the CSRF check (a page kept from before the
    // token rotated): the outbox sends it again with a fresh token.
    var stale = status === 403 && (xhr.responseText || "").indexOf("hx-swap-oob") < 0;
    if (outbox) {
      // The outbox first: the answer may have swapped the form out of the page already.
      outbox.sending(id, false);
      if (signedOut) outbox.expire(); // kept until the player signs in
      else if (stale) outbox.flush();
      else if (status && status < 500 && xhr.getResponseHeader("X-Entry-Conflict")) {
        outbox.update(id, { state: "conflict", number: xhr.getResponseHeader("X-Entry-Conflict") });
      } else if (status && status < 500) {
        outbox.remove(id); // answered, and the answer is on the page
        delete form.netOutboxId; // the form's next entry is another one
      }
    }
    if (!document.body.contains(form)) return;
    setBusy(form, false);
    if (signedOut) {
      showFailed(form, "signedOut");
    } else if (status === 0 || status >= 500 || stale) {
      showFailed(form); // nothing reached the server, or it failed: the outbox sends it again
    } else if (status >= 400 && (xhr.responseText || "").indexOf("hx-swap-oob") < 0) {
      showRefused(form); // a refusal that brought no regions to show why
    } else {
      clearStatus(form);
    }
  });

  // --- sending again: the outbox's answers, shown here -----------------------------------

  function ownerOf(id) {
    var owner = null;
    document.querySelectorAll("form[hx-post]").forEach(function (form) {
      if (form.netOutboxId === id) owner = form;
    });
    return owner;
  }

  document.addEventListener("outbox:answer", function (event) {
    var detail = event.detail;
    var form = ownerOf(detail.entry.id);
    if (form) {
      clearStatus(form);
      if (detail.entry.state !== "conflict") delete form.netOutboxId;
    }
    if (detail.entry.pulka !== window.location.pathname || !window.htmx) return;
    if ((detail.text || "").indexOf("hx-swap-oob") < 0) return;
    // As htmx would have swapped the form's own answer: its regions, out of band.
    swapSource = form;
    htmx.swap(document.body, detail.text, { swapStyle: "none" });
    swapSource = null;
    detail.shown = !!form;
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-net-retry]");
    if (button && outbox) outbox.flush();
  });

  // A deal saved but waiting in the outbox: the form again, empty, for the deal after
  // every one waiting, with a line that says this one waits. Its dealer and position are
  // the server's to check when it is sent. ``why``: the words of why it waits.
  function nextDeal(form, why) {
    var waited = dealNumber(form);
    var number = outbox
      ? outbox.nextFreeNumber(window.location.pathname, form.getAttribute("hx-post"), waited)
      : waited + 1;
    var next = form.cloneNode(true);
    next.querySelector("input[name=number]").value = String(number);
    next.querySelectorAll(".net-status, .form__errors, .form__error, .entry__facts, .net-offline-next").forEach(function (el) {
      el.parentNode.removeChild(el);
    });
    next.querySelectorAll("input").forEach(function (input) {
      if (input.type === "radio" || input.type === "checkbox") input.checked = false;
      else if (input.type !== "hidden") input.value = "";
      input.removeAttribute("aria-invalid");
      delete input.dataset.auto;
    });
    delete next.dataset.netFailed;
    delete next.dataset.netState;
    var note = document.createElement("div");
    note.className = "notice net-offline-next";
    note.setAttribute("role", "status");
    note.setAttribute("data-net-waiting", String(waited));
    var said = [words("waits").replace("{number}", String(waited))];
    if (why === "signedOut" || why === "queued") said.push(words(why));
    said.push(words("nextNote"));
    said.forEach(function (text) {
      var line = document.createElement("p");
      line.textContent = text;
      note.appendChild(line);
    });
    next.insertBefore(note, next.firstChild);
    var heading = document.getElementById("entry-heading");
    if (heading) heading.textContent = words("deal").replace("{number}", String(number));
    form.parentNode.replaceChild(next, form);
    document.querySelectorAll(".entry__subject, .entry__note").forEach(function (el) {
      if (el.parentNode && el.parentNode.id === "entry") el.parentNode.removeChild(el);
    });
    if (window.htmx) htmx.process(next);
    next.dispatchEvent(new Event("change", { bubbles: true }));
    var first = next.querySelector(".bidbox__bid, input:not([type=hidden])");
    if (first) first.focus();
  }

  // --- an entry for a deal already waiting: asked first ---------------------------------

  document.addEventListener("htmx:configRequest", function (event) {
    var form = actionForm(event.detail.elt);
    if (!form || !outbox || !isDealEntry(form)) return;
    var number = dealNumber(form);
    var same = outbox.sameDeal(window.location.pathname, event.detail.path, number, form.netOutboxId);
    if (!same || form.netAnswered === number) return;
    event.preventDefault(); // before the outbox keeps it: nothing is replaced unasked
    askFirst(form, number, outbox.nextFreeNumber(window.location.pathname, event.detail.path, number));
  }, true);

  function askFirst(form, number, free) {
    var line = statusLine(form);
    line.classList.add("net-status--ask");
    line.querySelector(".net-status__text").textContent = words("sameWaiting").replace("{number}", String(number));
    line.querySelectorAll("button").forEach(function (button) { button.parentNode.removeChild(button); });
    var asNext = smallButton(words("asNext").replace("{number}", String(free)), "data-net-as-next");
    asNext.value = String(free);
    line.appendChild(asNext);
    line.appendChild(smallButton(words("replace").replace("{number}", String(number)), "data-net-replace"));
    asNext.focus();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-net-as-next], [data-net-replace]");
    var form = button && button.form;
    if (!form || !outbox) return;
    var number = dealNumber(form);
    if (button.hasAttribute("data-net-as-next")) {
      number = Number(button.value);
      form.querySelector("input[name=number]").value = String(number);
      var heading = document.getElementById("entry-heading");
      if (heading) heading.textContent = words("deal").replace("{number}", String(number));
    } else {
      var same = outbox.sameDeal(window.location.pathname, form.getAttribute("hx-post"), number, form.netOutboxId);
      if (same) outbox.remove(same.id);
    }
    form.netAnswered = number;
    clearStatus(form);
    if (form.requestSubmit) form.requestSubmit();
    else htmx.trigger(form, "submit");
  });

  // --- answers that bring the regions: keep the entry form -------------------------------

  function entryValues(form) {
    var values = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || KEPT_OUT[el.name] || /^(hidden|submit|button)$/.test(el.type)) return;
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) return;
      values.push([el.name, el.value]);
    });
    return values;
  }

  function filledIn(values) {
    return values.some(function (pair) { return pair[1] !== ""; });
  }

  function fillIn(form, values) {
    values.forEach(function (pair) {
      form.querySelectorAll('[name="' + CSS.escape(pair[0]) + '"]').forEach(function (el) {
        if (el.type === "radio" || el.type === "checkbox") {
          if (el.value === pair[1]) el.checked = true;
        } else {
          el.value = pair[1];
        }
      });
    });
    form.dispatchEvent(new Event("change", { bubbles: true })); // the tricks' sum
  }

  function dealNumber(form) {
    var input = form && form.querySelector("input[name=number]");
    return input ? Number(input.value) : 0;
  }

  function sentFromEntry(source) {
    // The entry form's own answer, or a link that asks for another form (change,
    // correct, a forgotten deal, cancel): those mean to replace the form.
    if (!source) return false;
    if (source.closest && source.closest("#entry")) return true;
    return !actionForm(source) && source.id !== "poll";
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    swapSource = event.detail.elt;
  });

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || sentFromEntry(swapSource)) return;
    var busy = Array.prototype.some.call(
      target.querySelectorAll("form[data-net-state], form[data-net-failed]"),
      function (form) { return form !== swapSource; }
    );
    if (busy) {
      event.detail.shouldSwap = false; // a save in flight or waiting to be sent again
      return;
    }
    if (target.id !== "entry") return;
    var old = document.getElementById("entry-form");
    if (!old) return;
    var incoming = event.detail.fragment && event.detail.fragment.querySelector("#entry-form");
    if (incoming && isDealEntry(incoming) && outbox &&
        outbox.sameDeal(window.location.pathname, incoming.getAttribute("hx-post"), dealNumber(incoming), null)) {
      // The server's next deal waits on this phone already: the form stays past it.
      event.detail.shouldSwap = false;
      return;
    }
    if (old.dataset.mode !== "record") {
      // A correction, a change or a proposal being written: the poll leaves it be.
      if (swapSource && swapSource.id === "poll") event.detail.shouldSwap = false;
      return;
    }
    var values = entryValues(old);
    var fresh = event.detail.fragment && event.detail.fragment.querySelector("#entry-form");
    if (!filledIn(values) || !fresh || fresh.dataset.mode !== "record") return;
    var before = dealNumber(old);
    var after = dealNumber(fresh);
    pending = { values: values, before: before, after: after, refill: after <= before };
  });

  function offerBack(region, kept) {
    var note = document.createElement("div");
    note.className = "notice net-elsewhere";
    note.setAttribute("role", "alert");
    var text = document.createElement("p");
    text.textContent = words("elsewhere").replace("{number}", String(kept.before));
    note.appendChild(text);
    var back = document.createElement("button");
    back.type = "button";
    back.className = "button button--small button--secondary";
    back.setAttribute("data-net-restore", "");
    back.textContent = words("restore").replace("{number}", String(kept.after));
    back.netValues = kept.values;
    note.appendChild(back);
    region.insertBefore(note, region.firstChild);
  }

  document.addEventListener("htmx:afterSettle", function () {
    if (!pending) return;
    var kept = pending;
    pending = null;
    var form = document.getElementById("entry-form");
    var region = document.getElementById("entry");
    if (!form || !region || dealNumber(form) !== kept.after) return;
    if (kept.refill) fillIn(form, kept.values);
    else offerBack(region, kept);
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-net-restore]");
    if (!button) return;
    var form = document.getElementById("entry-form");
    if (form) fillIn(form, button.netValues || []);
    var note = button.closest(".net-elsewhere");
    if (note) note.parentNode.removeChild(note);
    var submit = form && form.querySelector("button[type=submit]");
    if (submit) submit.focus();
  });

  if (window.htmx) htmx.config.timeout = 15000; // a request unanswered this long has failed
})();
