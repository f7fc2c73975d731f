// Builds the start-up standard library and the memory snapshot, with Pyodide's own Python.
//
// The start-up stdlib is a zip of .pyc: the stdlib modules Pyodide's boot imports, the ones
// the site's runtime and the formula allow-list import (with whatever their code may import
// later, found by modulefinder), and the runtime itself (package site_runtime).
// The snapshot is Pyodide's memory after booting from that zip and importing the runtime
// and every allowed module: restoring it skips Python's start-up altogether.
//
// stdin: {"runtime": {"name.py": source}, "allowed": [module], "zip": path, "snapshot": path or ""}
// Writes the files; prints nothing.  It depends on nothing else, so the build caches it by
// those inputs.
import { loadPyodide } from "pyodide";
import crypto from "node:crypto";
import fs from "node:fs";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { runtime, allowed, zip, snapshot } = JSON.parse(input);

try {
  const py = await loadPyodide({ packages: [] });
  py.runPython("import sys; booted = set(sys.modules)");
  // Exercise what pages do: run code, import the runtime and the allowed modules, compute,
  // and let an exception cross into JavaScript (that formats a traceback).
  py.FS.mkdirTree("/home/pyodide/site_runtime");
  for (const [name, source] of Object.entries(runtime)) py.FS.writeFile(`/home/pyodide/site_runtime/${name}`, source);
  py.globals.set("allowed", py.toPy(allowed));
  py.runPython(`
import importlib, json
sys.path.insert(0, '/home/pyodide')
import site_runtime.api as api
for name in allowed:
    importlib.import_module(name)
probe_formula = "def compute(x):" + chr(10) + "    return {'y': x}"
api.load(json.dumps({"id": "probe", "formula": probe_formula,
                            "inputs": [{"name": "x", "domain": "[0, 1]", "default": 0.5}],
                            "outputs": [{"name": "y", "format": "sig:3", "unit": ""}],
                            "meta": {"id": "probe", "label": "p", "title": "p", "chapter": 1, "url": "/", "version": "0", "date": "2000-01-01", "entry_version": 1, "release": 1}}))
api.run_json("probe", '{"x": "0.25"}', "2000-01-01")
api.run_json("probe", '{"x": "7"}', "2000-01-01")
`);
  try { py.runPython("raise ValueError('probe')"); } catch { /* expected */ }
  py.runPython("imported = set(sys.modules)");   // before this script's own tools below
  py.globals.set("runtime_sources", py.toPy(runtime));
  const data = py.runPython(`
import importlib.util, io, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
from modulefinder import ModuleFinder

STDLIB = '/lib/python314.zip/'
def in_stdlib(module):
    return (getattr(module, '__file__', None) or '').startswith(STDLIB)

used = {name for name in imported if in_stdlib(sys.modules.get(name))}
# What the runtime's and the allowed modules' functions may import later.  Pyodide's own boot
# modules are taken as imported: their lazy imports serve features the site does not use.
finder = ModuleFinder(path=[STDLIB.rstrip('/')])
for name in sorted(used - booted):
    try:
        finder.import_hook(name)
    except Exception:
        pass
wanted = used | {name for name, module in finder.modules.items() if in_stdlib(module)}

def pyc(source, filename):
    code = compile(source, filename, 'exec', dont_inherit=True, optimize=2)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))

out = io.BytesIO()
stock = zipfile.ZipFile(STDLIB.rstrip('/'))
# Stored: the whole zip is xz-compressed for far pages (0.8 MB, against 1.2 MB with each .pyc
# deflated), and Python reads stored members without inflating them at each import.
with zipfile.ZipFile(out, 'w', zipfile.ZIP_STORED) as z:
    def add(name, data):
        z.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data, compress_type=zipfile.ZIP_STORED)
    for name in sorted(wanted):
        origin = importlib.util.find_spec(name).origin or ''
        if origin.startswith(STDLIB) and origin.endswith('.py'):
            rel = origin[len(STDLIB):]
            add(rel[:-3] + '.pyc', pyc(stock.read(rel), origin))
    for name in sorted(runtime_sources):
        add('site_runtime/' + name[:-3] + '.pyc', pyc(runtime_sources[name].encode(), STDLIB + 'site_runtime/' + name))
out.getvalue()
`);
  const bytes = data.toJs();
  data.destroy();
  fs.writeFileSync(zip, bytes);

  if (snapshot) {
    // The same inputs give the same snapshot, byte for byte: Python's entropy (its string hash
    // secret, random's seed) comes from a fixed sequence while the snapshot is made.  A page
    // reseeds random from the system's entropy after restoring it (string hashes stay fixed:
    // nothing here hashes strings an attacker could choose in bulk).
    let state = 0x9e3779b9;
    const fill = (view) => {
      const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
      for (let i = 0; i < bytes.length; i++) {
        state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
        bytes[i] = state >>> 24;
      }
      return view;
    };
    crypto.randomFillSync = fill;
    globalThis.crypto.getRandomValues = fill;
    // A clock that reads the same in every build (file times, time.time() at import), and no
    // path of this machine (Emscripten keeps the script's path as the program's name).
    process.argv[1] = "stdlib.mjs";
    let tick = 0;
    Date.now = () => 946684800000 + tick++;
    performance.now = () => tick++;
    const fresh = await loadPyodide({ packages: [], stdLibURL: zip, _makeSnapshot: true });
    fresh.globals.set("allowed", fresh.toPy(allowed));
    fresh.runPython(`
import importlib, random, sys
import site_runtime.api
for name in allowed:
    importlib.import_module(name)
random.seed(0)
del importlib, random, sys, name, allowed
`);
    fs.writeFileSync(snapshot, fresh.makeMemorySnapshot());
  }
} catch (err) {
  process.stderr.write(String(err && err.message || err).slice(-4000));
  process.exit(1);
}
