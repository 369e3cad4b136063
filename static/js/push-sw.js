// The players' worker (tables.push): served as /notifiche/sw.js, whose scope covers no page. It keeps
// nothing and answers no request: it shows the notification the site sends when a round is published
// ({"title", "body", "tag", "url"}) and opens (or brings forward) the player's page when it is tapped.
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = { body: event.data ? event.data.text() : "" };
  }
  const options = { body: data.body || "", data: { url: data.url || "/" } };
  if (data.tag) {
    // One notification per tournament: the next round's replaces the last one, and still rings.
    options.tag = data.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(data.title || "Torneo", options));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) { return; }
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (pages) {
    const open = pages.find(function (page) { return new URL(page.url).pathname === target.pathname; });
    if (open && "focus" in open) { return open.focus(); }
    return self.clients.openWindow(target.href);
  }));
});
