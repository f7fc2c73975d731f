// Builds the start-up standard library: the stdlib modules that Pyodide's boot, the site's
// runtime and the formula allow-list import, compiled to .pyc by Pyodide's own Python.
// stdin: {"runtime": {"name.py": source}, "allowed": [module]}
// stdout: the zip, base64.  It depends on nothing else, so the build caches it by those inputs.
import { loadPyodide } from "pyodide";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { runtime, allowed } = JSON.parse(input);

const py = await loadPyodide();
py.FS.mkdirTree("/home/pyodide/site_runtime");
for (const [name, source] of Object.entries(runtime)) py.FS.writeFile(`/home/pyodide/site_runtime/${name}`, source);
py.globals.set("allowed", py.toPy(allowed));
let zip;
try {
zip = py.runPython(`
import base64, importlib, importlib.util, io, json, marshal, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
from modulefinder import ModuleFinder

if '/home/pyodide' not in sys.path:
    sys.path.insert(0, '/home/pyodide')
STDLIB = '/lib/python314.zip/'
import site_runtime.calculator as calculator
for name in allowed:
    importlib.import_module(name)
probe_formula = "def compute(x):" + chr(10) + "    return {'y': x}"
calculator.load(json.dumps({"id": "probe", "formula": probe_formula,
                            "inputs": [{"name": "x", "domain": "[0, 1]", "default": 0.5}],
                            "outputs": [{"name": "y", "format": "sig:3", "unit": ""}],
                            "meta": {"id": "probe", "label": "p", "title": "p", "chapter": 1, "url": "/", "version": "0", "date": "2000-01-01"}}))
calculator.run_json("probe", '{"x": "0.25"}', "2000-01-01")

# Modules imported so far, and what their code (functions included) may import later.
wanted = {name for name, m in list(sys.modules.items()) if (getattr(m, '__file__', None) or '').startswith(STDLIB)}
finder = ModuleFinder(path=[STDLIB.rstrip('/')])
for name in sorted(wanted):
    try:
        finder.import_hook(name)
    except Exception:
        pass
wanted |= {name for name, m in finder.modules.items() if (m.__file__ or '').startswith(STDLIB)}

out = io.BytesIO()
stdlib = zipfile.ZipFile(STDLIB.rstrip('/'))
# Stored, not deflated: HTTP compression does better on the whole file, and zipimport reads faster.
with zipfile.ZipFile(out, 'w', zipfile.ZIP_STORED) as z:
    for name in sorted(wanted):
        spec = importlib.util.find_spec(name)
        origin = spec.origin or ''
        if not (origin.startswith(STDLIB) and origin.endswith('.py')):
            continue
        rel = origin[len(STDLIB):]
        source = stdlib.read(rel)
        code = compile(source, origin, 'exec', dont_inherit=True, optimize=2)
        pyc = _code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
        info = zipfile.ZipInfo(rel[:-3] + '.pyc', date_time=(1980, 1, 1, 0, 0, 0))
        z.writestr(info, bytes(pyc))
base64.b64encode(out.getvalue()).decode()
`);
} catch (err) {
  process.stderr.write(String(err.message || err).slice(-4000));
  process.exit(1);
}
process.stdout.write(zip);
