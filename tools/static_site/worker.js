// The kernel's worker, started by the page itself as soon as it opens (page.js) instead of by
// the kernel once the page's app has loaded (tools/static_site): Python starts at once
// (start.js: from the build's snapshot) while the app loads, and the kernel's own worker code
// (jupyterlite-pyodide-kernel's, unchanged) is loaded here to answer the kernel when it comes.
// When the kernel asks for its worker, page.js hands it this one (if it said it is ready), and
// the kernel's loadPyodide(options) takes the Python started here if its options are the same.
// The page gives the options and the kernel's worker script in its first message, {qdEarly}
// (not in this script's address: served by the site's service worker, a worker's address
// loses its #fragment).
(function () {
  "use strict";
  const began = performance.timeOrigin + performance.now();
  self.addEventListener("message", function first(event) {
    const given = event.data && event.data.qdEarly;
    if (!given) return;
    self.removeEventListener("message", first);
    importScripts(given.start); // start.js (the kernel's pyodideUrl: it imports it again, a no-op)
    self.qdPython.startEarly(given.options, { worker: began });
    importScripts(given.kernel); // the kernel's worker: it listens for the kernel from now on
    self.postMessage({ qdEarly: "ready" });
  });
})();
