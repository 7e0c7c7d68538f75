// nonogen site: the service worker that lets the site be played offline once it has been opened over http(s).
// nonogen/export/site.py fills in the version and the files. Every path is relative to this file, so the site
// works in any folder of any host; the cache's name holds the worker's scope, so two sites on one host never
// drop each other's files.
"use strict";
const VERSION = /*VERSION*/null;
const FILES = /*FILES*/null;
const SCOPE = self.registration.scope;
const PREFIX = `nonogen-site ${SCOPE} `;
const CACHE = PREFIX + VERSION;

// Everything at once, past the browser's HTTP cache (a rebuilt site must not be cached from the old one).
self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(FILES.map((file) => new Request(new URL(file, SCOPE).href, { cache: "reload" }))))
    .then(() => self.skipWaiting()));
});

// The new version takes over at once, and the files of older versions of this site go.
self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

// The site's own files from the cache (the folder itself is its index.html), anything else from the network.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
  const url = new URL(request.url);
  url.search = "";
  url.hash = "";
  const wanted = url.href.endsWith("/") ? url.href + "index.html" : url.href;
  event.respondWith(caches.open(CACHE).then((cache) => cache.match(wanted)).then((hit) => hit || fetch(request)));
});
