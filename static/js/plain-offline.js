/* On plain http (a club's Wi-Fi under `make run`) the browser runs no service worker, so
   a page reloaded without the network is the browser's own error page, while the outbox
   still keeps every entry in the phone's storage (README, "Offline, and on a home
   screen"). When the network goes, this shows the page's #plain-offline note: do not
   reload, your entries are kept; when an answer comes again, it hides it. Nothing else:
   the outbox (outbox.js) and the forms (network.js) do the sending. Its words are the
   page's, translated there. */
(function () {
  "use strict";

  if (window.isSecureContext) return; // HTTPS or localhost: the service worker serves the page

  function show(lost) {
    var note = document.getElementById("plain-offline");
    if (note) note.hidden = !lost;
  }

  window.addEventListener("offline", function () { show(true); });
  window.addEventListener("online", function () { show(false); });
  // A request that got no answer at all: htmx's (the poll, a form) or the outbox's.
  document.addEventListener("htmx:sendError", function () { show(true); });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (xhr && xhr.status) show(false);
  });
  document.addEventListener("outbox:answer", function () { show(false); });
  document.addEventListener("DOMContentLoaded", function () {
    if (navigator.onLine === false) show(true);
  });
})();
