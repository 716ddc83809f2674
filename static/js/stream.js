/* prefscore: one Server-Sent Events stream of a page's version, kept open (README, "See it
   at once"). The table pages (push.js) and the room screens (room-push.js) each say where
   their stream is and what a version means to them; this file keeps the stream itself.
   The stream sends "version" at connecting and at each change, and "gone" when the
   server's check fails (signed out, removed, a revoked link, the role taken away): the
   page's poll then says why. The browser connects again by itself after the stream's
   retry time; a return to the tab (visibilitychange) or a page restored from the
   back/forward cache (pageshow) connects again if the stream is down and polls once, so
   no change is lost while it was. Pages load this file before the one that uses it. */
(function () {
  "use strict";

  // options.url(): the stream's address, or null where the page has none.
  // options.onVersion(version, fresh): a version arrived; fresh is true for the first
  // after each (re)connect, when a change may have been missed.
  // options.pollNow(): ask the page's ordinary poll once.
  window.prefscoreStream = function (options) {
    var core = window.prefscoreStreamCore; // stream-core.js, loaded before this file
    var source = null;
    var triedUrl = null;
    var up = false;
    var reconnected = false;

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

    // An event's effect (stream-core.js, afterEvent): up or down, kept or closed, a poll.
    function heard(kind) {
      var closed = Boolean(source) && source.readyState === EventSource.CLOSED;
      var after = core.afterEvent(kind, closed);
      if (!after[1]) {
        if (kind === "gone") close();
        else source = null; // refused: the browser will not connect again
      }
      setUp(after[0]);
      if (after[2]) options.pollNow();
    }

    function connect() {
      var url = options.url();
      if (!url || !window.EventSource) return;
      close();
      triedUrl = url;
      reconnected = true;
      source = new EventSource(url);
      source.addEventListener("open", function () {
        reconnected = true;
      });
      source.addEventListener("version", function (event) {
        heard("version");
        options.onVersion(event.data, reconnected);
        reconnected = false;
      });
      source.addEventListener("gone", function () { heard("gone"); });
      source.addEventListener("error", function () { heard("error"); });
    }

    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState !== "visible") return;
      if (!source) connect();
      options.pollNow();
    });

    window.addEventListener("pageshow", function (event) {
      if (!event.persisted) return;
      connect();
      options.pollNow();
    });

    window.addEventListener("pagehide", function (event) {
      if (event.persisted) close(); // a page in the back/forward cache holds no stream
    });

    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", connect);
    } else {
      connect();
    }

    return {
      connect: connect,
      isOpen: function () {
        return source !== null;
      },
      isUp: function () {
        return up;
      },
      triedUrl: function () {
        return triedUrl;
      },
    };
  };
})();
