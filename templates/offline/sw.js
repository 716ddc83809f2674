/* prefscore's service worker, served as /sw.js (prefscore/offline.py). Release {{ release }}.

   - The static files are kept at install and served from here.
   - A page is asked of the network first; an answer that is late (TIMEOUT) or none
     gives the copy of that page kept while online, marked with the time it was kept
     (data-offline-as-of on its <body>: static/js/outbox.js says "offline — the sheet
     as of 20:14" and lists the entries waiting to be sent).
   - Only pages are kept, and only the signed-in account's (the X-Prefscore-Account
     header each page carries): an answer for another account, or for nobody (signed
     out), drops every page kept. Never kept: anything but GET, polls, event streams,
     exports, the admin, this worker and the outbox's token.
   - A new release waits until the page asks it to take over ("a new version is
     ready — reload"), so that a page is never served by two releases at once. */
"use strict";

var RELEASE = "{{ release }}";
var STATIC = "prefscore-static-" + RELEASE;
var PAGES = "prefscore-pages";
var PRECACHED = {{ precached|safe }};
var STATIC_PREFIX = {{ static_prefix|safe }};
var TIMEOUT = 3000; // ms a page may take before the kept copy is shown
var ACCOUNT = "X-Prefscore-Account";
var NEVER = [/\/poll\/?$/, /\/events\//, /\/export/, /^\/admin\//, /^\/sw\.js$/, /^\/outbox\//];

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC).then(function (cache) {
      return cache.addAll(PRECACHED);
    })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches
      .keys()
      .then(function (names) {
        return Promise.all(
          names
            .filter(function (name) { return name.indexOf("prefscore-static-") === 0 && name !== STATIC; })
            .map(function (name) { return caches.delete(name); })
        );
      })
      .then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "take-over") self.skipWaiting();
  if (data.type === "signed-out") event.waitUntil(caches.delete(PAGES));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return; // a POST goes straight out, never kept
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(fromStatic(request));
    return;
  }
  if (request.mode !== "navigate") return; // polls, streams, htmx's requests
  if (NEVER.some(function (pattern) { return pattern.test(url.pathname); })) return;
  event.respondWith(page(request));
});

function fromStatic(request) {
  return caches.match(request, { cacheName: STATIC }).then(function (kept) {
    return kept || fetch(request);
  });
}

function pageKey(request) {
  var url = new URL(request.url);
  url.hash = "";
  return url.href;
}

function page(request) {
  var fromNetwork = fetch(request).then(function (response) {
    return keep(request, response).then(function () { return response; });
  });
  var late = new Promise(function (resolve) {
    setTimeout(resolve, TIMEOUT);
  });
  return Promise.race([
    fromNetwork.catch(function () { return null; }),
    late.then(function () { return null; }),
  ]).then(function (response) {
    if (response) return response;
    return keptCopy(request).then(function (copy) {
      return copy || fromNetwork; // nothing kept: wait for the network, or fail as it fails
    });
  });
}

function keep(request, response) {
  var account = response.headers.get(ACCOUNT);
  if (account === null) return Promise.resolve(); // not one of the site's pages
  return caches.open(PAGES).then(function (cache) {
    return cache.match("/__account__").then(function (kept) {
      return kept ? kept.text() : "";
    }).then(function (owner) {
      if (account !== owner) {
        // Another account, or none: what was kept is not this one's to see.
        return caches.delete(PAGES).then(function () {
          if (!account) return null;
          return caches.open(PAGES).then(function (fresh) {
            return fresh.put("/__account__", new Response(account)).then(function () { return fresh; });
          });
        });
      }
      return cache;
    }).then(function (cache) {
      var type = response.headers.get("Content-Type") || "";
      if (!cache || !account || !response.ok || response.redirected || type.indexOf("text/html") !== 0) return null;
      return response.clone().text().then(function (body) {
        var headers = { "Content-Type": type, "X-Kept-At": new Date().toISOString() };
        return cache.put(pageKey(request), new Response(body, { headers: headers }));
      });
    });
  });
}

function keptCopy(request) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(pageKey(request));
  }).then(function (kept) {
    if (!kept) return null;
    var at = kept.headers.get("X-Kept-At") || "";
    return kept.text().then(function (body) {
      var marked = body.replace("<body", '<body data-offline-as-of="' + at + '"');
      return new Response(marked, { headers: { "Content-Type": kept.headers.get("Content-Type") } });
    });
  });
}
