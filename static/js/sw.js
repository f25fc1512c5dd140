/* The table's service worker, served at /sw.js (tournaments.web.table.table_service_worker)
 * so that its scope is the whole site; it acts only on the table's pages (/mesa/<token>/ and
 * /mesa/<token>/anotador/) and the site's static files, and lets every other request through.
 *
 * Network first: online, a page or file comes from the server as always (and a copy is kept);
 * without connection, the copy kept is served, so reloading the table's page offline shows
 * the page instead of the browser's error. The page itself (static/js/table.js) stores its
 * first copies, made before this worker ran. Posts are passed to the server unchanged and
 * never kept: the results kept on the phone are sent again by static/js/site.js, with their
 * idempotency key.
 */
"use strict";
var CACHE = "amarrako-table-v1";
var TABLE_PAGE = /^\/mesa\/[^/]+\/(anotador\/)?$/;

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("amarrako-table-") === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function kept(url) {
  if (url.origin !== self.location.origin) return false;
  return TABLE_PAGE.test(url.pathname) || url.pathname.indexOf("/static/") === 0;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET") {
    // a table's post goes to the server as it is (never kept, never answered from a copy);
    // through the worker, so that it meets the same network as the worker's own requests
    if (url.origin === self.location.origin && url.pathname.indexOf("/mesa/") === 0) {
      event.respondWith(fetch(request));
    }
    return;
  }
  if (!kept(url)) return;
  event.respondWith(
    fetch(request).then(function (response) {
      if (response.ok && !response.redirected) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { return cache.put(url.href, copy); });
      }
      return response;
    }).catch(function () {
      return caches.match(url.href, { ignoreSearch: true, ignoreVary: true })
        .then(function (hit) { return hit || Response.error(); });
    })
  );
});
