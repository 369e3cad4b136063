// The arbiter's offline worker: served as /arbitro/sw.js after offline-queue.js (tables/offline_views.py).
// Pages and static files: network first, the last copy when the network is away. Result forms sent
// while the network is away are queued (offline-queue.js) and the arbiter is sent to the round's page.
"use strict";
const CACHE = "torneo-arbiter-v1";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

// The arbiter's page lists what to keep: itself, every table of the round, the scripts and styles.
self.addEventListener("message", function (event) {
  const data = event.data || {};
  if (data.type === "keep") {
    event.waitUntil(caches.open(CACHE).then(function (cache) {
      return Promise.all(data.urls.map(function (url) {
        return fetch(url, { credentials: "same-origin" }).then(function (response) {
          if (response.ok) { return cache.put(url, response); }
          return null;
        }).catch(function () { return null; });
      }));
    }).then(function () {
      if (event.source) { event.source.postMessage({ type: "kept", count: data.urls.length }); }
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
    if (response.ok && request.method === "GET" && response.type === "basic") {
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
      event.respondWith(fetch(request).catch(function () { return queueForm(copy); }));
    }
    return;
  }
  if (request.method !== "GET") { return; }
  event.respondWith(fromNetwork(request).catch(function () {
    return caches.match(request, { ignoreSearch: request.mode === "navigate", ignoreVary: true }).then(function (hit) {
      return hit || new Response("offline", { status: 503, headers: { "Content-Type": "text/plain" } });
    });
  }));
});
