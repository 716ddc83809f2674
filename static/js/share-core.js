/* prefscore's share sheet, its rules without a page (docs/design.md, "Sharing a result"):
   whether the system share sheet takes the card as a file (navigator.canShare({files})),
   and what it is given: the card, the title, the result as text and the public link.
   Where it does not (desktop Firefox, plain http), the page offers its fallbacks:
   download the card, copy the link, copy the result as text. share.js (the page) uses
   it through window.prefscoreShareCore; the tests (tests/js/, node --test) require it. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.prefscoreShareCore = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // "files": the system share sheet takes the card; "fallback": the page's own buttons.
  // ``probe`` is a File of the card's name and type (canShare reads those, not the bytes).
  function mode(nav, probe) {
    if (!nav || typeof nav.share !== "function" || typeof nav.canShare !== "function") return "fallback";
    try {
      return nav.canShare({ files: [probe] }) ? "files" : "fallback";
    } catch (e) {
      return "fallback";
    }
  }

  // What navigator.share is given: the card as a file, the title, the text and the link
  // (the link once: not again at the end of the text, where some apps would show it twice).
  function payload(data, file) {
    var shared = { title: data.title, text: withoutLink(data.text, data.url), files: [file] };
    if (data.url) shared.url = data.url;
    return shared;
  }

  function withoutLink(text, url) {
    if (!url) return text;
    var lines = String(text).split("\n");
    if (lines[lines.length - 1] === url) lines.pop();
    return lines.join("\n");
  }

  // What a copy button copies: the link, or the whole text (the link included).
  function copied(data, what) {
    return what === "link" ? data.url : data.text;
  }

  // A share the person cancelled is no failure (AbortError): nothing is said.
  function cancelled(error) {
    return !!error && error.name === "AbortError";
  }

  return { mode: mode, payload: payload, copied: copied, cancelled: cancelled };
});
