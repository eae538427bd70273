// Python for the kernel's worker, from the build's memory snapshot (tools/static_site).
//
// The build points the Pyodide kernel's `pyodideUrl` at this script, beside Pyodide's own
// files. The kernel's worker imports it and calls `loadPyodide(options)` as it would Pyodide's:
// here that restores Python as the build left it — every package loaded, the kernel's and the
// course's modules imported, their files in site-packages — from one file
// (`options.qdSnapshotURL`, gzip; `options.qdSnapshotSize`, its memory's size), instead of
// starting Python and importing them one by one. On ANY failure (no file, a corrupt or stale
// one, another Pyodide) Python starts the usual way, with the same options. The page learns
// which way Python started on `options.qdChannel` (page.js: <html data-qd-python>).
// In the worker page.js starts as the page opens (worker.js), Python starts at once
// (`qdPython.startEarly`), and the kernel's `loadPyodide` takes it if its options are the same.
// Where the browser has a Cache Storage, the file is kept there unpacked for the next pages.
//
// The bundle (written by snapshot.mjs): "QDPY0001", the length of a JSON header (u32, little
// endian), 4 bytes 0, the header (padded to 16 bytes): {files: [[path, "d"] | [path, "f",
// offset, length] | [path, "l", target]], data, snapshot, packages, pyodide}, then the files'
// bytes (padded to 16), then Pyodide's memory snapshot.
(function () {
  "use strict";
  if (self.qdPython) return; // imported again: by the kernel, in the worker page.js started (worker.js)
  const MAGIC = "QDPY0001";
  const up = (n) => Math.ceil(n / 16) * 16;
  const now = () => performance.timeOrigin + performance.now();

  function readBundle(buffer) {
    const bytes = new Uint8Array(buffer);
    if (bytes.length < 16 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) {
      throw new Error("not a snapshot of the course's Python");
    }
    const length = new DataView(bytes.buffer, bytes.byteOffset, 16).getUint32(8, true);
    const meta = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + length)));
    const files = 16 + up(length);
    const snapshot = files + up(meta.data);
    if (snapshot + meta.snapshot !== bytes.length) {
      throw new Error(`the snapshot has ${bytes.length} bytes, not ${snapshot + meta.snapshot}`);
    }
    return { meta, files: bytes.subarray(files, files + meta.data), snapshot: bytes.subarray(snapshot) };
  }

  async function gunzip(buffer) { // into one buffer of the size gzip's trailer gives
    const size = new DataView(buffer).getUint32(buffer.byteLength - 4, true);
    const out = new Uint8Array(size);
    const reader = new Blob([buffer]).stream().pipeThrough(new DecompressionStream("gzip")).getReader();
    let at = 0;
    for (;;) {
      const { done, value } = await reader.read(); // gzip checks its CRC: a corrupt file fails here
      if (done) break;
      if (at + value.length > size) throw new Error("the snapshot is longer than gzip says");
      out.set(value, at);
      at += value.length;
    }
    if (at !== size) throw new Error("the snapshot is shorter than gzip says");
    return out.buffer;
  }

  // The bundle unpacked is kept in the browser's Cache Storage (where there is one: pages
  // served over https or from this machine) for the next pages: reading it is quicker than
  // reading and unpacking the gzip file each time.
  const KEPT = "qd-python";
  const keptAs = (url) => `${url}${url.includes("?") ? "&" : "?"}unpacked`;

  async function kept(url) {
    if (!self.caches) return null;
    try {
      const found = await (await caches.open(KEPT)).match(keptAs(url));
      return found ? await found.arrayBuffer() : null;
    } catch (failure) {
      return null;
    }
  }

  function keep(url, buffer) { // a second later, once the page is up
    if (!self.caches) return;
    keeping(new Promise((done) => setTimeout(done, 1000)).then(async () => {
      try {
        const cache = await caches.open(KEPT);
        for (const old of await cache.keys()) if (old.url !== new URL(keptAs(url), self.location.href).href) await cache.delete(old);
        await cache.put(keptAs(url), new Response(buffer, { headers: { "Content-Type": "application/octet-stream" } }));
      } catch (failure) {
        console.info("Python's snapshot is not kept unpacked in this browser:", failure);
      }
    }));
  }

  // What is being written to Cache Storage: once it is all written, the page is told (report:
  // {qdKept}), for a page says it opens again offline only when it does.
  const writes = [];
  function keeping(write) {
    writes.push(write.catch(() => {}));
  }
  async function allKept() {
    for (let seen = -1; seen !== writes.length;) {
      seen = writes.length;
      await Promise.all(writes.slice());
    }
  }

  async function forget(url) {
    try {
      if (self.caches) await (await caches.open(KEPT)).delete(keptAs(url));
    } catch (failure) { /* nothing kept */ }
  }

  async function fetchBundle(url, marks = {}) {
    const unpacked = await kept(url);
    if (unpacked) {
      try {
        const bundle = readBundle(unpacked);
        marks.downloaded = now();
        marks.kept = true;
        return bundle;
      } catch (failure) { // not as it was kept: forgotten, and fetched again
        console.warn("Python's snapshot kept in this browser is damaged.", failure);
        await forget(url);
      }
    }
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    let buffer = await response.arrayBuffer();
    marks.downloaded = now();
    const head = new Uint8Array(buffer, 0, Math.min(2, buffer.byteLength));
    if (head[0] === 0x1f && head[1] === 0x8b) buffer = await gunzip(buffer); // (a server may have unpacked it)
    return Object.assign(readBundle(buffer), { unpacked: buffer }); // kept once it worked
  }

  // The few objects of Pyodide's own API that Python held when the snapshot was made are
  // named by snapshot.mjs ([owner, key, type]); they are looked up on the new Pyodide when
  // used (they are used only once loadPyodide has returned).
  function deserializer(later) {
    return ([owner, key, type]) => {
      const of = () => {
        const found = owner === "public" ? later.public : later.api;
        if (!found) throw new Error(`Pyodide's ${key} used before Python started`);
        return found;
      };
      if (type === "function") return function (...args) { return of()[key].apply(of(), args); };
      return new Proxy({}, {
        get: (_, name) => Reflect.get(of()[key], name),
        has: (_, name) => Reflect.has(of()[key], name),
        set: (_, name, value) => Reflect.set(of()[key], name, value),
        ownKeys: () => Reflect.ownKeys(of()[key]),
        getOwnPropertyDescriptor: (_, name) => {
          const found = Reflect.getOwnPropertyDescriptor(of()[key], name);
          if (found) found.configurable = true;
          return found;
        },
      });
    };
  }

  // Python from the bundle (or a promise of it): `real` is Pyodide's loadPyodide. With the
  // snapshot's `size` known, Pyodide is given a buffer of that size at once and compiles and
  // starts its WebAssembly while the bundle is read; its file system hook (run before Python
  // is restored from that buffer) waits for the bundle, fills the buffer and writes the files.
  async function restore(real, options, bundled, marks, size = 0) {
    const later = {};
    let bundle = null;
    let failed = null;
    let target = size > 0 ? new Uint8Array(size) : null;
    let got = Promise.resolve(bundled).then((found) => {
      if (target && found.snapshot.length !== target.length) throw new Error(`the snapshot is not of ${size} bytes`);
      if (target) target.set(found.snapshot);
      bundle = found;
    });
    got.catch(() => {});
    // Pyodide keeps its options: what they hold of the bundle is let go once used (64 MB).
    let snapshot = target ? Promise.resolve(target) : got.then(() => bundle.snapshot);
    const once = { then(ok, fail) { const held = snapshot; snapshot = null; return held.then(ok, fail); } };
    let pyodide;
    try {
      pyodide = await real(Object.assign({}, options, {
        packages: [], // in the snapshot already
        _loadSnapshot: once,
        _snapshotDeserializer: deserializer(later),
        fsInit: async (FS) => { // the snapshot holds memory, not files: site-packages written back
          marks.instantiated = now();
          try {
            await got;
            for (const [path, kind, a, b] of bundle.meta.files) {
              if (kind === "d") FS.mkdirTree(path);
              else if (kind === "f") FS.writeFile(path, bundle.files.subarray(a, a + b));
              else if (kind === "l") FS.symlink(a, path);
              else throw new Error(`${path}: a file of kind ${kind}`);
            }
          } catch (failure) { // kept for below: Python then finds no snapshot in its buffer and stops
            failed = failure;
            if (target) target.fill(0, 0, 64);
          }
          marks.files = now();
        },
      }));
    } catch (failure) {
      throw failed || failure;
    }
    target = null;
    if (failed) throw failed;
    later.public = pyodide;
    later.api = pyodide._api;
    const { meta } = bundle;
    bundle = got = null;
    if (pyodide.version !== meta.pyodide) throw new Error(`Pyodide ${pyodide.version}, snapshot of ${meta.pyodide}`);
    // Python's pyodide_js.loadedPackages (the 7th JS object Python holds) was emptied when the
    // snapshot was made and is a stand-in now (Pyodide listed site-packages into it as it
    // started, the course's wheel among them): point it at Pyodide's own, and list there every
    // package the snapshot holds, as loadPackage would have, so that none is installed again.
    const held = pyodide._module.__hiwire_get(6);
    if (!held || typeof held !== "object" || held === pyodide.loadedPackages || !("qidong-tutor" in held)
        || Object.keys(pyodide.loadedPackages).length !== 0) {
      throw new Error("the snapshot's loadedPackages is not where it was");
    }
    pyodide._module.__hiwire_set(6, pyodide.loadedPackages);
    for (const name of meta.packages) pyodide.loadedPackages[name] = "default channel";
    // What is this page's, not the build's: its environment (the link), a fresh random seed.
    const scope = pyodide.toPy({ env: Object.assign({}, options.env || {}) }); // not the learner's namespace
    pyodide.runPython(`
import os, random, sys
import pyodide_js
os.environ.update(env)
random.seed()
sys.path[:] = list(dict.fromkeys(sys.path))
import pyodide_kernel
assert pyodide_kernel.kernel_instance is not None and "tutor" in sys.modules
assert pyodide_js.loadedPackages.to_py().get("qidong-tutor") == "default channel"
`, { globals: scope });
    scope.destroy();
    return pyodide;
  }

  // Pyodide's biggest files as the build packed them (`options.qdPacked`: {name: "<name>.gz?v=<its
  // hash>"}, beside Pyodide's): a plain file server sends files as they are, and gzip makes
  // pyodide.asm.wasm 10.1 MB → 3.2 MB and pyodide.asm.js 1.3 → 0.2 MB. Each is kept in the
  // browser's Cache Storage (where there is one) under its content-named address, so a page
  // opened once starts again without the network. Pyodide is handed them unpacked: its
  // WebAssembly from a stream (compiled as it arrives), its script already run.
  const FILES = "qd-python-files";

  async function siteFile(url) {
    let cache = null;
    try {
      cache = self.caches ? await caches.open(FILES) : null;
      const found = cache && await cache.match(url);
      if (found) return found;
    } catch (failure) { cache = null; }
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    if (cache) keeping(cache.put(url, response.clone()));
    return response;
  }

  const unpacked = (response) => response.body.pipeThrough(new DecompressionStream("gzip"));

  // A packed file, unpacked, and kept unpacked (under its address without ".gz"): from then on
  // it is Cache Storage's own response that Pyodide gets, and beside such a response the
  // browser keeps the WebAssembly it compiled, so the next page does not compile it again.
  async function unpackedFile(url, type) {
    const key = url.replace(/\.gz\?/, "?");
    let cache = null;
    try {
      cache = self.caches ? await caches.open(FILES) : null;
      const found = cache && await cache.match(key);
      if (found) return found;
    } catch (failure) { cache = null; }
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    const [mine, kept] = unpacked(response).tee();
    if (cache) keeping(cache.put(key, new Response(kept, { headers: { "Content-Type": type } })));
    return new Response(mine, { headers: { "Content-Type": type } });
  }

  async function usePacked(options) {
    const packed = options.qdPacked || {};
    const at = (name) => new URL(packed[name], options.indexURL).href;
    if (!self.qdPlainFetch) { // Pyodide's fetches of these files answered from the packed, kept copies
      const names = new Map(Object.keys(packed).map((name) => [new URL(name, options.indexURL).href, name]));
      const plain = self.qdPlainFetch = self.fetch;
      self.fetch = function (input, init) {
        const name = names.get(String(input && input.url || input));
        if (!name) return plain.call(this, input, init);
        const type = { wasm: "application/wasm", json: "application/json" }[name.split(".").pop()] || "application/octet-stream";
        const found = packed[name].split("?")[0].endsWith(".gz") ? unpackedFile(at(name), type)
          : siteFile(at(name)).then((response) => new Response(response.body, { headers: { "Content-Type": type } }));
        return found.catch(() => plain.call(this, input, init));
      };
    }
    if (packed["pyodide.asm.js"] && typeof self._createPyodideModule !== "function") {
      const script = await (await unpackedFile(at("pyodide.asm.js"), "text/javascript")).blob();
      const url = URL.createObjectURL(new Blob([script], { type: "text/javascript" }));
      try {
        importScripts(url); // Pyodide then finds _createPyodideModule and does not fetch the file
      } finally {
        URL.revokeObjectURL(url);
      }
    }
    // What the build no longer ships is forgotten (the files of an older build).
    if (self.caches) {
      caches.open(FILES).then(async (cache) => {
        const current = new Set(Object.keys(packed).flatMap((name) => [at(name), at(name).replace(/\.gz\?/, "?")]));
        for (const old of await cache.keys()) if (!current.has(old.url)) await cache.delete(old);
      }).catch(() => {});
    }
  }

  // Python for the kernel: from the snapshot, else the usual way. Returns {pyodide, how, ...}.
  async function start(real, options, marks = {}) {
    marks.start = now();
    const plain = Object.assign({}, options);
    const url = plain.qdSnapshotURL;
    const size = plain.qdSnapshotSize;
    for (const name of Object.keys(plain)) if (name.startsWith("qd")) delete plain[name];
    let error = url ? null : "no snapshot";
    try {
      await usePacked(options);
    } catch (failure) { // Pyodide fetches its own files as they are
      console.warn("Pyodide's packed files could not be used.", failure);
    }
    if (url) {
      try {
        const bundle = fetchBundle(url, marks).then((found) => { marks.fetched = now(); return found; });
        bundle.catch(() => {}); // a failure is restore's
        const pyodide = await restore(real, plain, bundle, marks, size);
        marks.ready = now();
        const { unpacked } = await bundle;
        if (unpacked) keep(url, unpacked);
        return { pyodide, how: "snapshot", marks };
      } catch (failure) {
        forget(url);
        error = String(failure && failure.stack || failure);
        console.warn("Python's snapshot could not be used; Python starts the usual way.", failure);
      }
    }
    const pyodide = await real(plain);
    marks.ready = now();
    return { pyodide, how: "usual", marks, error };
  }

  // The page is told how Python started ({qdPython}), then once its files are all kept ({qdKept}).
  function report(options, result) {
    const message = { how: result.how, early: !!result.early, marks: result.marks, error: result.error || null,
                      ms: Math.round(result.marks.ready - result.marks.start) };
    console.info(`Python started (${message.how}${message.early ? ", early" : ""}) in ${message.ms} ms`);
    if (!options.qdChannel || typeof BroadcastChannel !== "function") return;
    const tell = (said) => {
      const channel = new BroadcastChannel(options.qdChannel);
      channel.postMessage(said);
      channel.close();
    };
    tell({ qdPython: message });
    allKept().then(() => tell({ qdKept: true }));
  }

  // Pyodide's own loadPyodide (pyodide.js), this script's kept as the worker's.
  function pyodideLoader(indexURL) {
    const mine = self.loadPyodide;
    importScripts(indexURL + "pyodide.js");
    const real = self.loadPyodide;
    self.loadPyodide = mine;
    return real;
  }

  const key = (options) => JSON.stringify(Object.keys(options).sort().map((name) => [name, options[name]]));
  let early = null;

  const api = {
    MAGIC, readBundle, fetchBundle, restore, start,
    // worker.js: Python starts now, for a loadPyodide with these very options later.
    startEarly(options, marks = {}) {
      const started = start(pyodideLoader(options.indexURL), options, marks);
      started.catch(() => {}); // used, or not, by loadPyodide
      early = { key: key(options), started };
    },
  };
  self.qdPython = api;
  // The kernel's worker: `importScripts(pyodideUrl)`, then `loadPyodide(options)`.
  self.loadPyodide = async function loadPyodide(options) {
    const asked = now();
    let result = null;
    const waiting = early;
    early = null;
    if (waiting && waiting.key === key(options)) {
      try {
        result = Object.assign(await waiting.started, { early: true });
      } catch (failure) {
        console.warn("Python started early failed; it starts again.", failure);
      }
    } else if (waiting) {
      console.warn("The kernel's options are not those Python started early with; it starts again.");
    }
    if (!result) result = await start(pyodideLoader(options.indexURL), options);
    result.marks.asked = asked;
    report(options, result);
    return result.pyodide;
  };
})();
