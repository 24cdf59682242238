{% load static %}// The site's service worker (core/install.py): static files from its cache, and the offline
// page when a page cannot be loaded. Nothing of a game runs here: moves and pages go to the server.
const CACHE = "yahtzee-static-{{ version }}";
const OFFLINE = "{% url 'offline' %}";
const FILES = [
  OFFLINE,
  "{% static 'css/site.css' %}",
  "{% static 'img/die.svg' %}",
  "{% static 'js/page.js' %}",
  "{% static 'js/game.js' %}",
];
const STATIC = "{% get_static_prefix %}";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Pages always come from the server; only when it cannot be reached, the offline page.
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  } else if (url.pathname.startsWith(STATIC)) {
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
  }
});
