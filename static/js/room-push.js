/* prefscore room screens (dashboard, projector, "my table now"): see a change at once
   (docs/push.md; prefscore/tournaments/views/events.py).
   The screen's polled region carries data-events, its stream's address (the stream is
   kept by stream.js, loaded before this). The stream says only the tournament's version;
   when it is new, the page fires "prefscore:changed" on the region, whose hx-trigger
   lists it, so the region's ordinary poll fetches it. The projector's region also
   carries data-changed-get, its current page: a change shows it again rather than
   turning to the next page, which stays the timer's.
   Every (re)connect, a return to the tab and a page restored from the back/forward
   cache also poll once. The regions' timers stay as they are: the round's clock is
   rendered by the server, in minutes, and needs them (the projector's 10 s also turns
   its pages); "my table now" already asks only every 30 s. */
(function () {
  "use strict";

  // stream.js (and stream-core.js before it) did not load: the timers poll as before.
  if (!window.prefscoreStream || !window.prefscoreStreamCore) return;

  var shown = null;

  function region() {
    return document.querySelector("[data-events]");
  }

  function pollNow() {
    var found = region();
    if (found && window.htmx) window.htmx.trigger(found, "prefscore:changed");
  }

  window.prefscoreStream({
    url: function () {
      var found = region();
      return found ? found.getAttribute("data-events") : null;
    },
    pollNow: pollNow,
    onVersion: function (version, fresh) {
      var heard = window.prefscoreStreamCore.roomHeard(version, fresh, shown);
      shown = heard[1];
      if (heard[0]) pollNow();
    },
  });

  // A change shows the projector's current page again (see above).
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail || {};
    var trigger = detail.triggeringEvent;
    var elt = event.target;
    if (!trigger || trigger.type !== "prefscore:changed" || !elt.getAttribute) return;
    var same = elt.getAttribute("data-changed-get");
    if (same) detail.path = same;
  });
})();
