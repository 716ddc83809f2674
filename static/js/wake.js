/* The table page keeps the screen awake while the pulka runs (the rules are
   wake-core.js's). The state is read from the page: the entry region says whether the
   pulka runs (data-running; htmx swaps it when the pulka ends), the switch whether the
   player wants it. Where the browser has no wake lock the switch is disabled and its
   hint says why; nothing else is shown. */
(function () {
  "use strict";
  var core = window.prefscoreWakeCore;
  var box = document.getElementById("wake-switch");
  if (!core || !box) return;
  var input = box.querySelector("input[type=checkbox]");
  var keeper = core.keeper(navigator);
  var storage = null;
  try { storage = window.localStorage; } catch (e) { storage = null; }

  function running() {
    var entry = document.getElementById("entry");
    return !!entry && entry.getAttribute("data-running") === "true";
  }

  function sync() {
    box.hidden = !running();
    return keeper.sync({
      running: running(),
      enabled: input.checked,
      visible: document.visibilityState === "visible",
    }).then(function (held) {
      box.setAttribute("data-held", held ? "true" : "false");
    });
  }

  if (!core.supported(navigator)) {
    input.checked = false;
    input.disabled = true;
    box.setAttribute("data-unsupported", "true");
    box.hidden = !running();
    return;
  }
  input.checked = core.enabled(storage);
  input.addEventListener("change", function () {
    core.remember(storage, input.checked);
    sync();
  });
  document.addEventListener("visibilitychange", sync);
  document.body.addEventListener("htmx:afterSettle", sync);
  sync();
})();
