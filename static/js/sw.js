// The arbiter's offline worker: served as /arbitro/sw.js after offline-queue.js (tables/offline_views.py).
// It keeps only what offline result entry needs: the round's page, its tables' result forms, scripts
// and styles. Penalty, dispute and organiser pages are never kept: offline they do not open. Logging
// out empties the kept pages (static/js/logout.js sends "forget"). Result forms sent while the network
// is away, or answered with a server error, are queued (offline-queue.js) and the arbiter is sent to
// the round's page.
"use strict";
const CACHE = "torneo-arbiter-v2";

// What may be kept: /arbitro/t/<id>/, /arbitro/t/<id>/turni/<n>/, .../tavoli/<n>/ (and its Firenze
// sheet), and the static scripts and styles.
const KEEPABLE = [
  /^\/arbitro\/t\/\d+\/$/,
  /^\/arbitro\/t\/\d+\/turni\/\d+\/$/,
  /^\/arbitro\/t\/\d+\/turni\/\d+\/tavoli\/\d+\/(firenze\/)?$/,
  /^\/static\/.+\.(js|css)$/,
];

function keepable(url) {
  const parsed = new URL(url, self.location.origin);
  return parsed.origin === self.location.origin && KEEPABLE.some(function (re) { return re.test(parsed.pathname); });
}
self.TorneoKeepable = keepable;

self.addEventListener("install", function () { self.skipWaiting(); });
// Copies kept by an earlier worker (which kept every page it saw) are dropped.
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

// The arbiter's page lists what to keep: itself, every table of the round, the scripts and styles.
self.addEventListener("message", function (event) {
  const data = event.data || {};
  if (data.type === "keep") {
    const urls = (data.urls || []).filter(keepable);
    event.waitUntil(caches.open(CACHE).then(function (cache) {
      return Promise.all(urls.map(function (url) {
        return fetch(url, { credentials: "same-origin" }).then(function (response) {
          if (response.ok && !response.redirected) { return cache.put(url, response); }
          return null;
        }).catch(function () { return null; });
      }));
    }).then(function () {
      if (event.source) { event.source.postMessage({ type: "kept", count: urls.length }); }
    }));
  } else if (data.type === "forget") {
    event.waitUntil(caches.keys().then(function (keys) {
      return Promise.all(keys.map(function (k) { return caches.delete(k); }));
    }).then(function () {
      if (event.source) { event.source.postMessage({ type: "forgotten" }); }
    }));
  } else if (data.type === "flush") {
    event.waitUntil(self.TorneoQueue.flush().then(tellSent));
  }
});

// Saves sent by the worker (background sync): the open pages say so and show the tables anew.
function tellSent(sent) {
  if (!sent || !sent.length) { return null; }
  return self.clients.matchAll({ type: "window" }).then(function (pages) {
    pages.forEach(function (page) { page.postMessage({ type: "sent", sent: sent }); });
  });
}

self.addEventListener("sync", function (event) {
  if (event.tag === "torneo-results") { event.waitUntil(self.TorneoQueue.flush().then(tellSent)); }
});

function fromNetwork(request) {
  return fetch(request).then(function (response) {
    if (response.ok && !response.redirected && response.type === "basic") {
      const copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  });
}

function queueForm(request) {
  return request.formData().then(function (form) {
    const path = new URL(request.url).pathname;
    return self.TorneoQueue.keepForm(path, form, path);
  }).then(function (home) { return Response.redirect(home + "?in-attesa=1", 303); });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.method === "POST") {
    if (/\/tavoli\/\d+\/$/.test(url.pathname) && !request.headers.get("X-Torneo-Sync")) {
      const copy = request.clone();
      // No answer, or a server error (the database restarting, a server gone behind the proxy): the
      // result stays on the phone and is sent again; its submission id makes the server apply it
      // once even when the first send was saved before the error.
      event.respondWith(fetch(request).then(function (response) {
        return response.status >= 500 ? queueForm(copy) : response;
      }).catch(function () { return queueForm(copy); }));
    }
    return;
  }
  // Anything else (penalties, disputes, organiser pages): the network alone, never a kept copy.
  if (request.method !== "GET" || !keepable(request.url)) { return; }
  event.respondWith(fromNetwork(request).catch(function () {
    return caches.match(request, { ignoreSearch: request.mode === "navigate", ignoreVary: true }).then(function (hit) {
      return hit || new Response("offline", { status: 503, headers: { "Content-Type": "text/plain" } });
    });
  }));
});
