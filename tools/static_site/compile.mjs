// A build step of tools/static_site: the site's wheels compiled to bytecode by Pyodide's
// own Python (3.12, which this machine may not have), run under Node.
//   node compile.mjs PYODIDE_DIR IN_DIR OUT_DIR
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [core, source, target] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(`${core}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${core}/`, lockFileURL: `${core}/pyodide-lock.json` });
const { FS } = pyodide;
for (const [dir, host] of [["/in", source], ["/out", target]]) {
  FS.mkdirTree(dir);
  FS.mount(FS.filesystems.NODEFS, { root: host }, dir);
}
pyodide.runPython(readFileSync(new URL("./in_pyodide.py", import.meta.url), "utf-8"));
