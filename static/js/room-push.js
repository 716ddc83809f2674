/* prefscore room screens (dashboard, projector, "my table now"): see a change at once
   (README, "See it at once"; prefscore/tournaments/room_events.py).
   The screen's polled region carries data-events, its stream's address. The stream says
   only the tournament's version; when it is new, the page fires "prefscore:changed" on the
   region, whose hx-trigger lists it, so the region's ordinary poll fetches it. The
   projector's region also carries data-changed-get, its current page: a change shows it
   again rather than turning to the next page, which stays the timer's.
   Every (re)connect, a return to the tab (visibilitychange) and a page restored from the
   back/forward cache (pageshow) also poll once. The regions' timers stay as they are: the
   round's clock is rendered by the server, in minutes, and needs them (the projector's
   10 s also turns its pages); "my table now" already asks only every 30 s. */
(function () {
  "use strict";

  var source = null;
  var shown = null;
  var reconnected = false;

  function region() {
    return document.querySelector("[data-events]");
  }

  function pollNow() {
    var found = region();
    if (found && window.htmx) window.htmx.trigger(found, "prefscore:changed");
  }

  // On <html data-push="up|down">: whether changes arrive by the stream (tests read it).
  function setUp(value) {
    document.documentElement.setAttribute("data-push", value ? "up" : "down");
  }

  function close() {
    if (source) source.close();
    source = null;
    setUp(false);
  }

  function connect() {
    var found = region();
    if (!found || !window.EventSource) return;
    close();
    reconnected = true;
    source = new EventSource(found.getAttribute("data-events"));
    source.addEventListener("open", function () {
      reconnected = true;
    });
    source.addEventListener("version", function (event) {
      setUp(true);
      var changed = shown !== null && event.data !== shown;
      shown = event.data;
      if (reconnected || changed) pollNow();
      reconnected = false;
    });
    // The check failed (signed out, the role taken away): the poll says why.
    source.addEventListener("gone", function () {
      close();
      pollNow();
    });
    source.addEventListener("error", function () {
      setUp(false);
      // CLOSED: refused (204 under WSGI, 403): the timers poll as before.
      if (source && source.readyState === EventSource.CLOSED) source = null;
    });
  }

  // A change shows the projector's current page again (see above).
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail || {};
    var trigger = detail.triggeringEvent;
    var elt = event.target;
    if (!trigger || trigger.type !== "prefscore:changed" || !elt.getAttribute) return;
    var same = elt.getAttribute("data-changed-get");
    if (same) detail.path = same;
  });

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") return;
    if (!source) connect();
    pollNow();
  });

  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    connect();
    pollNow();
  });

  window.addEventListener("pagehide", function (event) {
    if (event.persisted) close(); // a page in the back/forward cache holds no stream
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", connect);
  } else {
    connect();
  }
})();
