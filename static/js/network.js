/* prefscore table screen: never lose what a player entered to the network.

   - In flight, an htmx form's submit buttons are disabled and the one tapped says it is
     saving.
   - Failed (no connection, a timeout, a server error): the form stays as it was typed,
     a "not saved" line offers to retry, and the form is sent again by itself when the
     connection comes back (the `online` event), or a few seconds after each failure. The deal number
     the entry form carries makes a repeat harmless: the server answers a repeat of one's
     own record as its success (prefscore/games/views/entry.py).
   - An answer that brings the table's regions (the poll, another form's answer) does not
     wipe a half-filled entry form: the same deal is filled in again, a deal recorded
     elsewhere meanwhile is said so, with one tap to put the entry back as the next deal.
   Words come from the page (#net-strings, translated there): none are written here. */
(function () {
  "use strict";

  var RETRY_EVERY = 5000; // ms between attempts while a form is not saved
  var KEPT_OUT = { csrfmiddlewaretoken: true, number: true, action: true };
  var failed = []; // forms whose last attempt failed, oldest first
  var timer = null; // the next attempt to send them again
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

  document.addEventListener("htmx:beforeRequest", function (event) {
    // The poll waits while this phone's own change is on its way: that answer brings the
    // new regions, and a poll answered meanwhile would be one more full answer for the
    // server to render in a busy room, and could show the version before it again.
    if (event.detail.elt && event.detail.elt.id === "poll") {
      if (document.querySelector('form[data-net-state="busy"]')) event.preventDefault();
      return;
    }
    var form = actionForm(event.detail.elt);
    if (form) setBusy(form, true);
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
    failed = failed.filter(function (f) { return f !== form; });
  }

  function showFailed(form) {
    var line = statusLine(form);
    line.classList.remove("net-status--refused");
    line.querySelector(".net-status__text").textContent = words("failed");
    if (!line.querySelector("[data-net-retry]")) {
      var retry = document.createElement("button");
      retry.type = "button";
      retry.className = "button button--small";
      retry.setAttribute("data-net-retry", "");
      retry.textContent = words("retry");
      line.appendChild(retry);
    }
    form.dataset.netFailed = "1";
    if (failed.indexOf(form) < 0) failed.push(form);
    if (timer === null) timer = window.setTimeout(retryAll, RETRY_EVERY);
  }

  function showRefused(form) {
    delete form.dataset.netFailed;
    failed = failed.filter(function (f) { return f !== form; });
    var line = statusLine(form);
    line.classList.add("net-status--refused");
    line.querySelector(".net-status__text").textContent = words("refused");
    var retry = line.querySelector("[data-net-retry]");
    if (retry) retry.parentNode.removeChild(retry);
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    swapSource = null;
    var form = actionForm(event.detail.elt);
    if (!form || !document.body.contains(form)) return;
    setBusy(form, false);
    var xhr = event.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if (status === 0 || status >= 500) {
      showFailed(form); // nothing reached the server, or it failed: send it again
    } else if (status >= 400 && (xhr.responseText || "").indexOf("hx-swap-oob") < 0) {
      showRefused(form); // a refusal that brought no regions to show why
    } else {
      delete form.dataset.netFailed;
      clearStatus(form);
    }
  });

  // --- sending again ---------------------------------------------------------------------

  function retry(form) {
    if (!document.body.contains(form)) {
      failed = failed.filter(function (f) { return f !== form; });
      return;
    }
    if (form.dataset.netState === "busy") return;
    var values = {};
    var submitter = form.netSubmitter;
    if (submitter && submitter.name && document.body.contains(submitter)) {
      values[submitter.name] = submitter.value;
    }
    form.netRetrying = true;
    var sent = htmx.ajax("POST", form.getAttribute("hx-post"), { source: form, values: values });
    form.netRetrying = false;
    if (sent && sent.catch) sent.catch(function () {}); // a failure is shown on the form
  }

  function retryAll() {
    if (timer !== null) window.clearTimeout(timer);
    timer = null;
    if (!failed.length) return;
    if (navigator.onLine === false) {
      timer = window.setTimeout(retryAll, RETRY_EVERY); // the online event may come first
      return;
    }
    failed.slice().forEach(retry);
  }

  // A retry sends what the player already confirmed: no second question.
  document.addEventListener("htmx:confirm", function (event) {
    var form = actionForm(event.detail.elt);
    if (form && form.netRetrying) {
      event.preventDefault();
      event.detail.issueRequest(true);
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-net-retry]");
    if (button && button.form) retry(button.form);
  });
  window.addEventListener("online", retryAll);

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
