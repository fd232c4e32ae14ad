// attnlab's service worker: the app works offline after the first visit.
//
// The build (web/build/post-build.mjs, last) fills in the two placeholders below: VERSION
// with a hash of the built files, FILES with their list, so every release has its own
// cache, installed
// whole before it takes over; the previous release's cache is deleted when it does.
// Requests go to the network first (a new release is seen at once) and fall back to the
// cache when it fails. The real model's asset (model/) is left to the model worker, which
// keeps it in its own Cache API entry.

const VERSION = '__VERSION__';
const FILES = [__FILES__];
const CACHE = `attnlab-app-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(['./', ...FILES]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('attnlab-app-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.includes('/model/')) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      try {
        const response = await fetch(request);
        if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
        return response;
      } catch (offline) {
        const hit = await cache.match(request, { ignoreSearch: true });
        if (hit) return hit;
        if (request.mode === 'navigate') {
          const page = await cache.match('./');
          if (page) return page;
        }
        throw offline;
      }
    })(),
  );
});
