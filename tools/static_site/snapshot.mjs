// A build step of tools/static_site: Python's memory snapshot for the kernel's worker (start.js).
//   node snapshot.mjs make  PYODIDE_DIR SETTINGS_JSON OUT   the snapshot, as start.js reads it
//   node snapshot.mjs check PYODIDE_DIR SETTINGS_JSON OUT   restored as a page restores it, and used
//
// make: Pyodide (under Node, as compile.mjs) loads every package of the site's lock, imports
// what the kernel imports as it starts and what the course's pages import (in_snapshot.py),
// then its memory is saved, with the files that loading wrote (the snapshot holds no files):
// one gzip file, written to OUT.
// check: that file restored with start.js's own code in a fresh Pyodide, the kernel's start
// played as its worker plays it, and a lesson's cell run: it must run with no package loaded.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { runInThisContext } from "node:vm";
import { gunzipSync, gzipSync } from "node:zlib";

const [mode, core, settingsFile, out] = process.argv.slice(2);
const settings = JSON.parse(readFileSync(settingsFile, "utf-8"));
const indexURL = `${resolve(core)}/`;
const { loadPyodide } = await import(pathToFileURL(`${indexURL}pyodide.mjs`).href);
const lock = JSON.parse(readFileSync(`${indexURL}pyodide-lock.json`, "utf-8"));
const packages = Object.keys(lock.packages).sort();
const env = { HOME: "/home/pyodide" }; // as the page's, but for its link (start.js sets that)

function fail(message) {
  console.error(`snapshot: ${message}`);
  process.exit(1);
}

// Every file, folder and link of Pyodide's file system (but /dev and /proc).
function listing(FS) {
  const found = new Map();
  const walk = (path) => {
    if (path === "/dev" || path === "/proc") return;
    const stat = FS.lstat(path);
    if (FS.isDir(stat.mode)) {
      found.set(path, ["d"]);
      for (const name of FS.readdir(path)) {
        if (name !== "." && name !== "..") walk(path === "/" ? `/${name}` : `${path}/${name}`);
      }
    } else if (FS.isFile(stat.mode)) found.set(path, ["f", stat.size, +stat.mtime]);
    else if (FS.isLink(stat.mode)) found.set(path, ["l", FS.readlink(path)]);
    else found.set(path, ["?"]);
  };
  walk("/");
  return found;
}

async function make() {
  const pyodide = await loadPyodide({ indexURL, env, _makeSnapshot: true });
  const { FS } = pyodide;
  const before = listing(FS);
  await pyodide.loadPackage(packages, { messageCallback() {}, errorCallback: fail });
  pyodide.globals.set("SETTINGS", JSON.stringify(settings));
  const prepared = JSON.parse(pyodide.runPython(
    readFileSync(new URL("./in_snapshot.py", import.meta.url), "utf-8") + "\nprepare(SETTINGS)"));
  pyodide.runPython("del SETTINGS, prepare");
  const after = listing(FS);
  const gone = [...before.keys()].filter((path) => !after.has(path));
  if (gone.length) fail(`files removed while preparing, which a snapshot cannot say: ${gone.slice(0, 5)}`);
  const changed = [...after].filter(([path, what]) => JSON.stringify(before.get(path)) !== JSON.stringify(what))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // What Python will never read again is written back empty (its name kept, for a module
  // listing): the bytecode of the modules in memory, and the JupyterLab extensions that come
  // with some wheels (the page loads them from the site, never from Python's files).
  const imported = new Set(prepared.imported);
  delete prepared.imported;
  const unread = (path) => imported.has(path) || /\/share\/jupyter\/labextensions\//.test(path);
  let emptied = 0;
  const files = [];
  const chunks = [];
  let offset = 0;
  for (const [path, [kind, detail]] of changed) {
    if (kind === "d") files.push([path, "d"]);
    else if (kind === "l") files.push([path, "l", detail]);
    else if (kind === "f" && unread(path)) {
      files.push([path, "f", offset, 0]);
      emptied += detail;
    } else if (kind === "f") {
      const data = FS.readFile(path);
      files.push([path, "f", offset, data.length]);
      chunks.push(data);
      offset += data.length;
    } else fail(`${path} is neither a file, a folder nor a link`);
  }
  // Emptied, as Pyodide expects of its 7th JS object; start.js fills the page's own.
  for (const name of Object.keys(pyodide.loadedPackages)) delete pyodide.loadedPackages[name];
  // The few objects of Pyodide's API that Python holds, by name (start.js looks them up again).
  const named = (value) => {
    for (const [owner, object] of [["public", pyodide], ["api", pyodide._api]]) {
      for (const key of Object.getOwnPropertyNames(object)) {
        let found;
        try { found = object[key]; } catch { continue; }
        if (found === value) return [owner, key, typeof value];
      }
    }
    throw new Error(`Python holds a JavaScript object the snapshot cannot name: ${String(value).slice(0, 80)}`);
  };
  const memory = pyodide.makeMemorySnapshot({ serializer: named });
  const meta = new TextEncoder().encode(JSON.stringify({
    files, data: offset, snapshot: memory.length, packages, pyodide: pyodide.version }));
  const up = (n) => Math.ceil(n / 16) * 16;
  const bundle = new Uint8Array(16 + up(meta.length) + up(offset) + memory.length);
  bundle.set(new TextEncoder().encode("QDPY0001"));
  new DataView(bundle.buffer).setUint32(8, meta.length, true);
  bundle.set(meta, 16);
  let at = 16 + up(meta.length);
  for (const chunk of chunks) {
    bundle.set(chunk, at);
    at += chunk.length;
  }
  bundle.set(memory, 16 + up(meta.length) + up(offset));
  writeFileSync(out, gzipSync(bundle, { level: 9 }));
  console.log(JSON.stringify({ ...prepared, files: files.length, file_bytes: offset, emptied, memory: memory.length,
                               bytes: bundle.length }));
}

async function check() {
  globalThis.self = globalThis;
  runInThisContext(readFileSync(new URL("./start.js", import.meta.url), "utf-8"));
  const { qdPython } = globalThis;
  const bundle = qdPython.readBundle(gunzipSync(readFileSync(out)).buffer);
  const options = { indexURL, packages: packages.map((name) => name.replace(/-/g, "_")),
                    env: { HOME: "/home/pyodide", QUERY_STRING: "seed=5" } };
  const pyodide = await qdPython.restore(loadPyodide, options, bundle, {}, bundle.snapshot.length); // as pages do
  // The kernel's start (jupyterlite-pyodide-kernel's worker), then a lesson's cell.
  await pyodide.runPythonAsync("import piplite.piplite\npiplite.piplite._PIPLITE_DISABLE_PYPI = True");
  await pyodide.runPythonAsync("import pyodide_kernel");
  const kernel = pyodide.globals.get("pyodide_kernel").kernel_instance;
  const sent = [];
  kernel.interpreter.send_comm = (type, content) => sent.push(type);
  const loaded = JSON.stringify(pyodide.loadedPackages);
  const result = (await kernel.run(settings.check)).toJs({ dict_converter: Object.fromEntries });
  if (result.status !== "ok") fail(`a lesson's cell failed after the restore: ${JSON.stringify(result)}`);
  if (!sent.length) fail("a lesson's cell showed no widget after the restore");
  if (JSON.stringify(pyodide.loadedPackages) !== loaded) fail("a lesson's cell loaded packages after the restore");
  const query = pyodide.runPython("import os; os.environ['QUERY_STRING']");
  if (query !== "seed=5") fail(`the page's link did not reach Python: ${query}`);
  console.log(JSON.stringify({ checked: true, messages: sent.length }));
}

await (mode === "make" ? make() : mode === "check" ? check() : fail(`unknown mode ${mode}`));
