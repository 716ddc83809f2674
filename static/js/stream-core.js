/* prefscore's event streams, their rules without a page (docs/push.md): where
   a page's stream is, which version it shows, when a version asks the poll, when the
   poll's timer may ask while the stream is up. push.js (the table pages), room-push.js
   (the room's screens) and stream.js use them through window.prefscoreStreamCore; the
   tests (tests/js/, node --test) require this file. No build step: one file, both ways. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.prefscoreStreamCore = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var FALLBACK_MS = 25000; // while the stream is up, the poll's timer asks this seldom

  // The table's stream: at the poll's address with /events/ for /poll/.
  function eventsUrl(pollUrl) {
    return pollUrl ? pollUrl.replace(/\/poll\/(\?|$)/, "/events/$1") : null;
  }

  // The version the page shows: the poll's ``v``.
  function shownVersion(pollUrl) {
    var found = /[?&]v=(\d+)/.exec(pollUrl || "");
    return found ? found[1] : null;
  }

  // A version heard asks the poll when it is the first after a (re)connect (a change may
  // have come while the stream was down) or when the page shows another.
  function asksPoll(version, fresh, shown) {
    return Boolean(fresh) || String(version) !== String(shown);
  }

  // The room's screens keep the version they last heard: [asks the poll, version now kept].
  function roomHeard(version, fresh, kept) {
    var changed = kept !== null && kept !== undefined && version !== kept;
    return [Boolean(fresh) || changed, version];
  }

  // Whether the poll's own timer may ask now: always without a stream; with one, only
  // as the fallback, ``FALLBACK_MS`` after the last poll. A poll asked by an event (the
  // stream, a return to the tab) always goes.
  function timerMayPoll(byTimer, up, now, lastPoll) {
    return !byTimer || !up || now - lastPoll >= FALLBACK_MS;
  }

  // What one of the stream's events does to it: [up, kept open, poll once]. "version":
  // up. "gone" (the server's check failed: signed out, removed, a revoked link, the
  // role taken away): closed for good, and the poll asked once, whose answer says why.
  // "error": down; kept only while the browser connects again by itself (``closed``:
  // the stream refused, 204 under WSGI or a 403; the page's timers poll as before).
  function afterEvent(kind, closed) {
    if (kind === "version") return [true, true, false];
    if (kind === "gone") return [false, false, true];
    return [false, !closed, false];
  }

  return {
    FALLBACK_MS: FALLBACK_MS,
    afterEvent: afterEvent,
    eventsUrl: eventsUrl,
    shownVersion: shownVersion,
    asksPoll: asksPoll,
    roomHeard: roomHeard,
    timerMayPoll: timerMayPoll,
  };
});
