// The site's own service worker (tools/static_site): it keeps every file of the site a page
// fetched, so that the next lesson and a later day cost almost nothing over the network on any
// host (whatever its cache headers), and a lesson opened once opens again offline.
//
// The files of one build never change, so a file kept is served as it was kept. A new build
// writes this script with another BUILD: the browser installs it as a new service worker, which
// starts a new cache and drops the old build's. Where the build wrote a gzip copy beside a file
// (GZIPPED: "<path>.gz"), that copy is fetched instead and unpacked here (a plain file server
// sends files as they are). The big files of Python's start (static/pyodide/*.gz, the snapshot)
// are kept by the kernel's worker itself (start.js), which fetches them whether or not a
// service worker is there yet: they are passed through here.
// JupyterLite's pages ask for "service-worker.js" at the site's root (for its file browser,
// which the course does not use): this is what they find there (page.js registers it).
"use strict";
const BUILD = "__QD_BUILD__";
const GZIPPED = new Set(__QD_GZIPPED__);
const CACHE = `qd-site-${BUILD}`;
const ROOT = new URL("./", self.location.href);
const TYPES = { js: "text/javascript", css: "text/css", html: "text/html; charset=utf-8", json: "application/json",
                svg: "image/svg+xml", wasm: "application/wasm" };

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("qd-site-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== ROOT.origin || !url.pathname.startsWith(ROOT.pathname)) return;
  const path = url.pathname.slice(ROOT.pathname.length);
  if (/\.(gz|bin|zip)$/.test(path)) return; // start.js's own (see above)
  event.respondWith(kept(request, url, path, event));
});

// A page opened before this service worker was there (a first visit) lists what it fetched
// until then (page.js): kept now, from the browser's HTTP cache where it still is; the page is
// told when.
self.addEventListener("message", (event) => {
  const urls = event.data && event.data.qdKeep;
  if (!Array.isArray(urls)) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(urls.map(async (address) => {
      const url = new URL(address, ROOT);
      const path = url.pathname.slice(ROOT.pathname.length);
      if (url.origin !== ROOT.origin || !url.pathname.startsWith(ROOT.pathname) || /\.(gz|bin|zip)$/.test(path)) return;
      const key = url.origin + url.pathname;
      if (await cache.match(key)) return;
      try { // as the page fetched it: from the browser's HTTP cache, not over the network again
        const response = await fetch(url.href.split("#")[0]);
        if (response.status === 200) await cache.put(key, response);
      } catch (failure) { /* offline: kept when next fetched */ }
    }));
    if (event.ports[0]) event.ports[0].postMessage({ qdKept: urls.length });
  })());
});

// The file from this build's cache, else from the site (kept for next time). A file is kept
// under its address without the query: within one build a query names no other file (a
// page's ?seed=… or ?lang=…, a script's ?v=<version>).
async function kept(request, url, path, event) {
  const cache = await caches.open(CACHE);
  const key = url.origin + url.pathname;
  const found = await cache.match(key);
  if (found) return found;
  let response;
  try {
    response = await fromSite(request, url, path);
  } catch (failure) { // offline, and not kept: the browser says so as it would
    return Response.error();
  }
  if (response.status === 200) {
    const copy = response.clone();
    event.waitUntil(copy.blob().then((body) => cache.put(key, new Response(body, {
      headers: { "Content-Type": copy.headers.get("Content-Type") || "" } }))).catch(() => {}));
  }
  return response;
}

async function fromSite(request, url, path) {
  const file = decodeURIComponent(path || "index.html");
  if (!GZIPPED.has(file)) return fetch(request);
  const packed = await fetch(new URL(`${path}.gz`, ROOT).href);
  if (packed.status !== 200) return fetch(request); // not there after all: the file as it is
  const type = TYPES[file.slice(file.lastIndexOf(".") + 1)] || "application/octet-stream";
  const body = await new Response(packed.body.pipeThrough(new DecompressionStream("gzip"))).blob();
  return new Response(body, { status: 200, headers: { "Content-Type": type } });
}
