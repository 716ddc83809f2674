/* The share panel of a finished pulka's settlement (the rules are share-core.js's): with a
   share sheet that takes files, one "Share" button gives it the card, the text and the
   link; otherwise the buttons to copy the link and the text appear beside the card's
   download, which works without JavaScript too. */
(function () {
  "use strict";
  var core = window.prefscoreShareCore;
  var box = document.querySelector("[data-share]");
  if (!core || !box) return;
  var status = document.querySelector("[data-share-status]");
  var data = {
    title: box.getAttribute("data-title"),
    text: box.getAttribute("data-text"),
    url: box.getAttribute("data-url") || "",
  };
  var name = box.getAttribute("data-file");
  var probe = new File([""], name, { type: "image/png" });
  var card = null; // the card as a File, fetched once the page is open

  function say(key) {
    if (status) status.textContent = key ? box.getAttribute(key) : "";
  }

  function fetchCard() {
    if (!card) {
      card = fetch(box.getAttribute("data-card"), { credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) throw new Error("card " + response.status);
          return response.blob();
        })
        .then(function (blob) { return new File([blob], name, { type: "image/png" }); });
      card.catch(function () { card = null; });
    }
    return card;
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    // Plain http has no clipboard API: the old way, through a selected text field.
    var field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.className = "visually-hidden";
    document.body.appendChild(field);
    field.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    field.remove();
    return done ? Promise.resolve() : Promise.reject(new Error("copy"));
  }

  if (core.mode(navigator, probe) === "files") {
    var button = box.querySelector("[data-share-native]");
    button.hidden = false;
    fetchCard();
    button.addEventListener("click", function () {
      say(null);
      fetchCard()
        .then(function (file) { return navigator.share(core.payload(data, file)); })
        .then(function () { say("data-shared"); }, function (error) {
          if (!core.cancelled(error)) say("data-not-copied");
        });
    });
  } else {
    box.querySelectorAll("[data-share-copy]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var what = button.getAttribute("data-share-copy");
        copy(core.copied(data, what)).then(
          function () { say(what === "link" ? "data-copied-link" : "data-copied-text"); },
          function () { say("data-not-copied"); }
        );
      });
    });
  }
})();
