/* prefscore table pages: see a change at once (README, "See it at once").
   One Server-Sent Events stream per page, at the poll's address with /events/ for
   /poll/ (prefscore/games/views/events.py). The stream carries only the pulka's version;
   when it differs from the one shown, the page fires "prefscore:changed" on the #poll
   element, whose hx-trigger lists it, so the ordinary poll fetches the regions.
   Every (re)connect, a return to the tab (visibilitychange) and a page restored from the
   back/forward cache (pageshow) also poll once, so no change is lost while the stream
   was down. While the stream is up, the poll's own timer asks at most every 25 s (the
   fallback); without a stream (no EventSource, a WSGI server's 204, a refusal) it polls
   as before. Without this file the page polls as before. */
(function () {
  "use strict";

  var FALLBACK_MS = 25000;
  var source = null;
  var triedUrl = null;
  var up = false;
  var reconnected = false;
  var lastPoll = Date.now();

  function pollElement() {
    return document.getElementById("poll");
  }

  function pollUrl() {
    var poll = pollElement();
    return poll ? poll.getAttribute("hx-get") : null;
  }

  function eventsUrl() {
    var url = pollUrl();
    return url ? url.replace(/\/poll\/(\?|$)/, "/events/$1") : null;
  }

  function shownVersion() {
    var found = /[?&]v=(\d+)/.exec(pollUrl() || "");
    return found ? found[1] : null;
  }

  function pollNow() {
    var poll = pollElement();
    if (poll && window.htmx) window.htmx.trigger(poll, "prefscore:changed");
  }

  // On <html data-push="up|down">: whether changes arrive by the stream (tests read it).
  function setUp(value) {
    up = value;
    document.documentElement.setAttribute("data-push", value ? "up" : "down");
  }

  function close() {
    if (source) source.close();
    source = null;
    setUp(false);
  }

  function connect() {
    var url = eventsUrl();
    if (!url || !window.EventSource) return;
    close();
    triedUrl = url;
    reconnected = true;
    source = new EventSource(url);
    source.addEventListener("open", function () {
      reconnected = true;
    });
    source.addEventListener("version", function (event) {
      setUp(true);
      if (reconnected || event.data !== shownVersion()) pollNow();
      reconnected = false;
    });
    // The check failed (signed out, removed, a revoked link): the poll says why.
    source.addEventListener("gone", function () {
      close();
      pollNow();
    });
    source.addEventListener("error", function () {
      setUp(false);
      // CLOSED: refused (204 under WSGI, 403): poll as before. Otherwise the browser
      // connects again by itself after the stream's retry time.
      if (source && source.readyState === EventSource.CLOSED) source = null;
    });
  }

  // The poll's timer asks only as the fallback while the stream is up.
  document.addEventListener("htmx:confirm", function (event) {
    var detail = event.detail || {};
    if (!detail.elt || detail.elt.id !== "poll") return;
    var byTimer = !detail.triggeringEvent;
    if (byTimer && up && Date.now() - lastPoll < FALLBACK_MS) {
      event.preventDefault();
      return;
    }
    lastPoll = Date.now();
  });

  // A poll's answer renews #poll (a new ticket): a stream refused for a stale ticket
  // is tried again with the new one.
  document.addEventListener("htmx:load", function () {
    if (!source && eventsUrl() && eventsUrl() !== triedUrl) connect();
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
