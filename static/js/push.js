/* prefscore table pages: see a change at once (docs/push.md).
   One Server-Sent Events stream per page (kept by stream.js, loaded before this), at the
   poll's address with /events/ for /poll/ (prefscore/games/views/events.py). The stream
   carries only the pulka's version; when it differs from the one shown, the page fires
   "prefscore:changed" on the #poll element, whose hx-trigger lists it, so the ordinary
   poll fetches the regions. Every (re)connect, a return to the tab and a page restored
   from the back/forward cache also poll once, so no change is lost while the stream was
   down. While the stream is up, the poll's own timer asks at most every 25 s (the
   fallback); without a stream (no EventSource, a WSGI server's 204, a refusal) it polls
   as before. Without this file the page polls as before. */
(function () {
  "use strict";

  // stream.js (and stream-core.js before it) did not load: the page polls as before.
  if (!window.prefscoreStream || !window.prefscoreStreamCore) return;

  var core = window.prefscoreStreamCore; // stream-core.js, loaded before stream.js
  var lastPoll = Date.now();

  function pollElement() {
    return document.getElementById("poll");
  }

  function pollUrl() {
    var poll = pollElement();
    return poll ? poll.getAttribute("hx-get") : null;
  }

  function eventsUrl() {
    return core.eventsUrl(pollUrl());
  }

  function pollNow() {
    var poll = pollElement();
    if (poll && window.htmx) window.htmx.trigger(poll, "prefscore:changed");
  }

  var stream = window.prefscoreStream({
    url: eventsUrl,
    pollNow: pollNow,
    onVersion: function (version, fresh) {
      if (core.asksPoll(version, fresh, core.shownVersion(pollUrl()))) pollNow();
    },
  });

  // The poll's timer asks only as the fallback while the stream is up.
  document.addEventListener("htmx:confirm", function (event) {
    var detail = event.detail || {};
    if (!detail.elt || detail.elt.id !== "poll") return;
    var byTimer = !detail.triggeringEvent;
    if (!core.timerMayPoll(byTimer, stream.isUp(), Date.now(), lastPoll)) {
      event.preventDefault();
      return;
    }
    lastPoll = Date.now();
  });

  // A poll's answer renews #poll (a new ticket): a stream refused for a stale ticket
  // is tried again with the new one.
  document.addEventListener("htmx:load", function () {
    var url = eventsUrl();
    if (!stream.isOpen() && url && url !== stream.triedUrl()) stream.connect();
  });
})();
