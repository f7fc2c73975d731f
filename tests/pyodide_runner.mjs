// Runs the site's Python runtime in real Pyodide (the npm package, under Node).
// stdin: {"runtime": {"file.py": "source"}, "stdlib": path or null, "allowed": [module],
//         "entries": [{"spec": {...}, "runs": [{"key", "raw"}]}]}
// stdout: {"python": "3.x", "imports": {module: "ok" | error}, "results": {"key": <run_json reply>}}
import { loadPyodide } from "pyodide";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { runtime, stdlib, allowed, entries } = JSON.parse(input);

const py = await loadPyodide(stdlib ? { stdLibURL: stdlib } : {});
py.FS.mkdirTree("/home/pyodide/site_runtime");
for (const [name, source] of Object.entries(runtime)) py.FS.writeFile(`/home/pyodide/site_runtime/${name}`, source);
py.runPython("import sys\nif '/home/pyodide' not in sys.path: sys.path.insert(0, '/home/pyodide')");
const calculator = py.pyimport("site_runtime.calculator");

const imports = {};
for (const name of allowed) {
  try { py.pyimport(name); imports[name] = "ok"; } catch (err) { imports[name] = String(err.message).slice(-300); }
}
const results = {};
for (const { spec, runs } of entries) {
  calculator.load(JSON.stringify(spec));
  for (const { key, raw } of runs) results[key] = JSON.parse(calculator.run_json(spec.id, JSON.stringify(raw)));
}
process.stdout.write(JSON.stringify({ python: py.runPython("import sys; sys.version.split()[0]"), imports, results }));
