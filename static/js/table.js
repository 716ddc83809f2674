/* prefscore table screen: −/+ steppers for trick counts that keep the total at 10 (the
   last count left is filled with the rest), a running sum of the tricks,
   and htmx swaps for the table's refusals. Without this file the page still works:
   the number inputs as they are, and every form posts and redirects.
   Event delegation, so that forms swapped in by htmx need nothing re-bound. */
(function () {
  "use strict";

  function reveal(root) {
    root.querySelectorAll("[data-step][hidden], [data-tricks-sum][hidden]").forEach(function (el) {
      el.hidden = false;
    });
    root.querySelectorAll("form.entry").forEach(updateSum);
  }

  function updateSum(form) {
    var out = form.querySelector("[data-tricks-sum]");
    if (!out) return;
    var total = 0;
    var any = false;
    form.querySelectorAll(".entry__tricks .stepper__input").forEach(function (input) {
      var stepper = input.closest(".stepper");
      if (stepper && stepper.offsetParent === null) return; // hidden talon field
      if (input.value !== "") {
        any = true;
        total += Number(input.value) || 0;
      }
    });
    out.textContent = any ? "Σ " + total + " / 10" : "";
    out.classList.toggle("entry__sum--off", any && total !== 10);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step]");
    if (!button) return;
    var input = document.getElementById(button.getAttribute("aria-controls"));
    if (!input) return;
    var min = Number(input.min || 0);
    var max = Number(input.max || 10);
    var step = Number(button.getAttribute("data-step"));
    var now = input.value === "" ? (step > 0 ? min - 1 : min) : Number(input.value);
    input.value = String(Math.min(max, Math.max(min, now + step)));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  function visibleTrickInputs(form) {
    return Array.prototype.filter.call(
      form.querySelectorAll(".entry__tricks .stepper__input"),
      function (input) {
        var stepper = input.closest(".stepper");
        return !(stepper && stepper.offsetParent === null);
      }
    );
  }

  // Keep the total at 10: once every count but one is given, the last one is the rest.
  // A count filled in this way follows the others until the player types it himself.
  function fillTheRest(form, changed) {
    var inputs = visibleTrickInputs(form);
    if (inputs.indexOf(changed) < 0) return;
    delete changed.dataset.auto;
    var open = inputs.filter(function (input) {
      return input !== changed && (input.value === "" || input.dataset.auto === "1");
    });
    if (open.length !== 1) return;
    var given = 0;
    inputs.forEach(function (input) {
      if (input !== open[0] && input.value !== "") given += Number(input.value) || 0;
    });
    var rest = Math.max(Number(open[0].min || 0), Math.min(Number(open[0].max || 10), 10 - given));
    open[0].value = String(rest);
    open[0].dataset.auto = "1";
  }

  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("form.entry");
    if (!form) return;
    fillTheRest(form, event.target);
    updateSum(form);
  });
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form.entry");
    if (form) updateSum(form);
  });

  // htmx 2 swaps only 2xx answers by default. The table's refusals (400 a bad request,
  // 403 pencil, 409 conflict, 422 wrong entry) carry regions too: the message beside the field and the
  // sheet as it stands. Every table request has hx-swap="none", so only those
  // out-of-band regions are put in place; a bare error page changes nothing.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (status === 400 || status === 403 || status === 409 || status === 422) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  document.addEventListener("htmx:afterSettle", function () { reveal(document); });
  if (document.readyState !== "loading") reveal(document);
})();
