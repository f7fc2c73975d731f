// `serve` only, in place of the site's service worker: serve rebuilds pages as they are
// edited, so nothing may be answered from a cache.  This worker takes over from any earlier
// one and deletes its precache; it has no fetch handler, so every request goes to the server.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) await caches.delete(name);
    await self.clients.claim();
  })());
});
