/* prefscore table screen: the deal in as few taps as paper allows (docs/design.md,
   "Names, languages and taps"): the contract as one chip of a bidding box (level and suit at
   once), each player's tricks as a row of chips 0–10 whose last count left is filled
   with the rest, and the commonest outcomes filled in: once a defender whists, the
   other defenders pass and the declarer makes his contract exactly, until someone says
   otherwise; a running sum of the tricks; htmx swaps for the table's refusals. Without
   this file the page still works: the radios and number inputs as they are, and every
   form posts and redirects.
   On a keyboard each chip row is one stop, as a WAI-ARIA radio group: Tab goes from
   group to group, the arrows move within one and choose as they go (the bidding box is
   a grid: left and right the suit, up and down the level), a digit chooses that many
   tricks; the declarer's own word, always empty, is skipped. An ordinary deal takes 13
   keys (tests/browser/test_keyboard_browser.py).
   Event delegation, so that forms swapped in by htmx need nothing re-bound. */
(function () {
  "use strict";

  function reveal(root) {
    root.querySelectorAll("[data-tricks-sum][hidden]").forEach(function (el) {
      el.hidden = false;
    });
    // The talon's count (0–3) keeps its steppers: it has no chips.
    root.querySelectorAll(".entry__prikup [data-step][hidden]").forEach(function (el) {
      el.hidden = false;
    });
    root.querySelectorAll("form.entry").forEach(function (form) {
      buildBidbox(form);
      buildTrickChips(form);
      updateSum(form);
      showChosen(form);
    });
  }

  // --- the bidding box: one chip per contract, level and suit at once ----------------

  function radio(form, name, value) {
    return form.querySelector('input[name="' + name + '"][value="' + value + '"]');
  }

  function buildBidbox(form) {
    var group = form.querySelector(".entry__contract");
    if (!group || group.querySelector(".bidbox")) return;
    var levels = Array.prototype.filter.call(
      group.querySelectorAll('input[name="contract"]'),
      function (input) { return /^\d+$/.test(input.value); }
    );
    var suits = Array.prototype.filter.call(
      group.querySelectorAll('input[name="suit"]'),
      function (input) { return input.value !== ""; }
    );
    if (!levels.length || !suits.length) return;
    var box = document.createElement("div");
    box.className = "bidbox";
    box.setAttribute("role", "radiogroup");
    box.setAttribute("aria-label", group.querySelector("legend").textContent.trim());
    box.dataset.columns = String(suits.length + 1);
    levels.forEach(function (level) {
      suits.concat([null]).forEach(function (suit) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "bidbox__bid" + (suit ? " chip--" + suit.id : "");
        button.dataset.contract = level.value;
        button.dataset.suit = suit ? suit.value : "";
        var mark = suit ? form.querySelector('label[for="' + suit.id + '"]').textContent.trim() : "";
        button.textContent = level.value + mark;
        button.setAttribute("role", "radio");
        if (!suit) button.classList.add("bidbox__bid--bare");
        box.appendChild(button);
      });
    });
    // The misère and the all-pass, as chips of the same box: one group for the contract.
    ["misere", "allpass"].forEach(function (value) {
      var input = radio(form, "contract", value);
      if (!input) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "bidbox__bid bidbox__bid--word";
      button.dataset.contract = value;
      button.dataset.suit = "";
      button.setAttribute("role", "radio");
      button.textContent = form.querySelector('label[for="' + input.id + '"]').textContent.trim();
      box.appendChild(button);
    });
    var rows = group.querySelectorAll(".chips");
    group.insertBefore(box, rows[0]);
    form.classList.add("entry--bidbox");
  }

  function showChosen(form) {
    var contract = form.querySelector('input[name="contract"]:checked');
    var suit = form.querySelector('input[name="suit"]:checked');
    form.querySelectorAll(".bidbox__bid").forEach(function (button) {
      var on = !!contract && contract.value === button.dataset.contract
        && (suit ? suit.value : "") === button.dataset.suit;
      button.setAttribute("aria-checked", on ? "true" : "false");
    });
    form.querySelectorAll(".trick-chips").forEach(function (row) {
      var input = document.getElementById(row.dataset.for);
      row.querySelectorAll("button").forEach(function (button) {
        button.setAttribute("aria-checked", input && input.value === button.value ? "true" : "false");
      });
    });
    markMadeExactly(form);
    keyboardStops(form);
  }

  // --- the keyboard: one stop per group ----------------------------------------------

  function chipsOf(group) {
    return Array.prototype.slice.call(group.querySelectorAll(".bidbox__bid, .trick-chip"));
  }

  // The chosen chip of each group is its one stop (or the first, when none is chosen);
  // the declarer's own word row is no stop at all.
  function keyboardStops(form) {
    form.querySelectorAll(".bidbox, .trick-chips").forEach(function (group) {
      var chips = chipsOf(group);
      var stop = chips.filter(function (chip) { return chip.getAttribute("aria-checked") === "true"; })[0];
      if (!stop && group.contains(document.activeElement)) stop = document.activeElement;
      stop = stop || chips[0];
      chips.forEach(function (chip) { chip.tabIndex = chip === stop ? 0 : -1; });
    });
    var seat = declarerSeat(form);
    form.querySelectorAll(".entry__word").forEach(function (row) {
      var own = seat !== null && !!row.querySelector('input[name="word_' + seat + '"]');
      row.querySelectorAll("input").forEach(function (input) {
        if (own) input.tabIndex = -1;
        else input.removeAttribute("tabindex");
      });
    });
  }

  var typed = { at: 0, digits: "" };

  document.addEventListener("keydown", function (event) {
    var chip = event.target.closest && event.target.closest(".bidbox__bid, .trick-chip");
    if (!chip || event.altKey || event.ctrlKey || event.metaKey) return;
    var group = chip.parentNode;
    var chips = chipsOf(group);
    var at = chips.indexOf(chip);
    var next = null;
    if (/^[0-9]$/.test(event.key) && group.classList.contains("trick-chips")) {
      // A digit chooses that many tricks; "1" then "0" soon after it, ten.
      var now = Date.now();
      typed.digits = now - typed.at < 800 && typed.digits === "1" ? "1" + event.key : event.key;
      typed.at = now;
      next = chips.filter(function (each) { return each.value === typed.digits; })[0] || null;
    } else {
      var columns = group.classList.contains("bidbox") ? Number(group.dataset.columns) || 1 : 1;
      var step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns }[event.key];
      if (event.key === "Home") next = chips[0];
      else if (event.key === "End") next = chips[chips.length - 1];
      else if (step !== undefined) next = chips[Math.min(chips.length - 1, Math.max(0, at + step))];
    }
    if (!next) return;
    event.preventDefault();
    next.focus();
    if (next.getAttribute("aria-checked") !== "true") next.click(); // chosen as it is reached
  });

  function choose(input) {
    if (!input || input.checked) return;
    input.checked = true;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("click", function (event) {
    var bid = event.target.closest(".bidbox__bid");
    if (!bid) return;
    var form = bid.closest("form.entry");
    choose(radio(form, "contract", bid.dataset.contract));
    choose(radio(form, "suit", bid.dataset.suit));
    showChosen(form);
  });

  // --- tricks as chips ---------------------------------------------------------------

  function buildTrickChips(form) {
    form.querySelectorAll(".entry__tricks .stepper__input").forEach(function (input) {
      var stepper = input.closest(".stepper");
      if (stepper.nextElementSibling && stepper.nextElementSibling.classList.contains("trick-chips")) return;
      var row = document.createElement("div");
      row.className = "trick-chips";
      row.dataset.for = input.id;
      row.setAttribute("role", "radiogroup");
      input.tabIndex = -1; // the chips are the keyboard's way in: one stop, not two
      row.setAttribute("aria-label", stepper.querySelector("label").textContent.trim().replace(/\s+/g, " "));
      for (var n = Number(input.min || 0); n <= Number(input.max || 10); n++) {
        var chip = document.createElement("button");
        chip.type = "button";
        chip.className = "trick-chip";
        chip.setAttribute("role", "radio");
        chip.value = String(n);
        chip.textContent = String(n);
        row.appendChild(chip);
      }
      stepper.insertAdjacentElement("afterend", row);
    });
  }

  document.addEventListener("click", function (event) {
    var chip = event.target.closest(".trick-chip");
    if (!chip) return;
    var input = document.getElementById(chip.parentNode.dataset.for);
    if (!input) return;
    input.value = chip.value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  // --- the commonest outcomes --------------------------------------------------------

  function declarerSeat(form) {
    var declarer = form.querySelector('input[name="declarer"]:checked');
    return declarer ? declarer.value : null;
  }

  function level(form) {
    var contract = form.querySelector('input[name="contract"]:checked');
    return contract && /^\d+$/.test(contract.value) ? contract.value : null;
  }

  // The declarer's chip of his contract's level reads "made exactly" to a screen reader.
  function markMadeExactly(form) {
    var seat = declarerSeat(form), made = level(form);
    form.querySelectorAll(".trick-chip--made").forEach(function (chip) {
      chip.classList.remove("trick-chip--made");
      chip.removeAttribute("aria-label");
    });
    if (seat === null || made === null) return;
    var row = form.querySelector('.trick-chips[data-for="tricks_' + seat + '"]');
    var chip = row && row.querySelector('.trick-chip[value="' + made + '"]');
    if (!chip) return;
    chip.classList.add("trick-chip--made");
    chip.setAttribute("aria-label", made + " — " + (form.dataset.madeExactly || "="));
  }

  // A defender whists: the others who said nothing pass, and the declarer is taken to
  // make his contract exactly, both shown at once and changed with one tap.
  function whisted(form, changed) {
    var seat = declarerSeat(form), made = level(form);
    if (seat === null) return;
    form.querySelectorAll('.entry__word input[value="pass"]').forEach(function (pass) {
      if (pass.name === changed.name || pass.name === "word_" + seat) return;
      if (!form.querySelector('input[name="' + pass.name + '"]:checked:not([value=""])')) choose(pass);
    });
    var tricks = document.getElementById("tricks_" + seat);
    if (made !== null && tricks && tricks.value === "" && form.contains(tricks)) {
      tricks.value = made;
      updateSum(form);
    }
  }

  document.addEventListener("change", function (event) {
    var input = event.target;
    var form = input.closest && input.closest("form.entry");
    if (!form) return;
    if (/^word_/.test(input.name) && input.value === "whist" && input.checked) whisted(form, input);
    showChosen(form);
  });

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
    showChosen(form);
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
