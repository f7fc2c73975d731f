// The service worker: Workbox precaches the whole site, Pyodide included, so every page
// loads and computes offline after a first visit.  The build writes the manifest of
// content revisions in place of self.__WB_MANIFEST.  A new deploy installs a new worker
// that waits until the page asks it to take over (the page offers a reload).
importScripts("/vendor/workbox/WORKBOX_VERSION/workbox-sw.js");
workbox.setConfig({ modulePathPrefix: "/vendor/workbox/WORKBOX_VERSION/", debug: false });

workbox.precaching.precacheAndRoute(self.__WB_MANIFEST, {
  ignoreURLParametersMatching: [/.*/],   // /35/?L=80 and /static/page.js?v=... are the cached files
  directoryIndex: "index.html",
  cleanURLs: false,
});

// Any other address goes to the network; offline, an address the site does not have gets
// the site's own "No such page" rather than the browser's error.  Pages a link fetches for the
// page to swap in (Turbo Drive, site.js: its requests carry X-Turbo-Request-Id) are navigations too.
const isPage = (request) => request.mode === "navigate" || request.headers.has("X-Turbo-Request-Id");
workbox.routing.registerRoute(({ request }) => isPage(request), new workbox.strategies.NetworkOnly());
workbox.routing.setCatchHandler(async ({ request }) =>
  isPage(request) ? (await workbox.precaching.matchPrecache("/404.html")) || Response.error() : Response.error());

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
});

// The first install takes control at once, so the first visit is already offline-ready.
// Pages under this worker take Pyodide's files from its precache: the decoded copies a far
// page kept before (the cache pyodide_app/python.js names) are no longer needed.
self.addEventListener("activate", (event) => event.waitUntil(
  Promise.all([self.clients.claim(), caches.delete("pyodide-decoded")])));
