/* prefscore's screen kept awake, its rules without a page (docs/design.md, "The screen
   kept awake"): while a pulka runs, the table page holds a Screen Wake Lock, so that the
   phone does not sleep through a long game. The browser lets a lock go whenever the page
   is hidden, so it is taken again when the page is shown again; it is let go when the
   pulka ends or the player turns the switch off (kept in localStorage). Where the browser
   has no wake lock (plain http on a LAN: the API is for secure pages only) nothing
   happens and nothing is said but the switch's hint. wake.js (the page) uses it through
   window.prefscoreWakeCore; the tests (tests/js/, node --test) require this file. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.prefscoreWakeCore = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var KEY = "prefscore.wake"; // "off": the player turned it off on this phone

  // Whether this browser can hold the screen awake here.
  function supported(nav) {
    return !!(nav && nav.wakeLock && typeof nav.wakeLock.request === "function");
  }

  // The player's choice, on unless turned off (a storage that throws: on).
  function enabled(storage) {
    try {
      return !storage || storage.getItem(KEY) !== "off";
    } catch (e) {
      return true;
    }
  }

  function remember(storage, on) {
    try {
      if (on) storage.removeItem(KEY);
      else storage.setItem(KEY, "off");
    } catch (e) { /* private mode: the choice lasts as long as the page */ }
  }

  // Whether a lock is wanted now: a running pulka, the switch on, the page shown.
  function wanted(state) {
    return !!(state.running && state.enabled && state.visible);
  }

  // A keeper of one lock: ``sync(state)`` takes it or lets it go so that it is held
  // exactly while wanted(state). Never throws: a refusal (battery saver, a hidden page)
  // leaves no lock and is tried again at the next sync.
  function keeper(nav) {
    var sentinel = null;
    var asking = null;
    var want = false;

    function held() {
      return !!(sentinel && !sentinel.released);
    }

    function release(lock) {
      return Promise.resolve().then(function () { return lock.release(); }).catch(function () {});
    }

    function take() {
      if (held()) return Promise.resolve(true);
      if (asking) return asking;
      asking = Promise.resolve()
        .then(function () { return nav.wakeLock.request("screen"); })
        .then(function (lock) {
          asking = null;
          if (!want) return release(lock).then(function () { return false; });
          sentinel = lock;
          if (lock && typeof lock.addEventListener === "function") {
            lock.addEventListener("release", function () {
              if (sentinel === lock) sentinel = null;
            });
          }
          return true;
        }, function () { asking = null; return false; });
      return asking;
    }

    function letGo() {
      var lock = sentinel;
      sentinel = null;
      // A request still out is let go when it is answered (take).
      return (lock ? release(lock) : Promise.resolve()).then(function () { return false; });
    }

    function sync(state) {
      if (!supported(nav)) return Promise.resolve(false);
      want = wanted(state);
      return want ? take() : letGo();
    }

    return { sync: sync, held: held };
  }

  return { KEY: KEY, supported: supported, enabled: enabled, remember: remember,
    wanted: wanted, keeper: keeper };
});
