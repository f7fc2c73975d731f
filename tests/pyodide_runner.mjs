// Runs the site's Python runtime in real Pyodide (the npm package, under Node), booted the two
// ways pages boot: from the start-up stdlib (the runtime precompiled inside it) and from the
// memory snapshot made from it (read back by the pages' own pyodide_app/snapshot.js).
// stdin: {"stdlib": path, "snapshot": path, "allowed": [module], "configs": [{"key", "text", "mapping"}],
//         "entries": [{"spec": {...}, "runs": [{"key", "raw"}], "solves": [{"key", "raw", "question"}]}],
//         "plans": [the same, with a plan's spec (optional)]}
// stdout: {"<way>": {"python": "3.x", "imports": {module: "ok" | error}, "results": {"key": <run_json reply>},
//                    "solves": {"key": <solve_json reply>}, "solve_ms": {"key": milliseconds},
//                    "configs": {"key": <hfconfig.fill_json reply>}}}
import fs from "node:fs";
import zlib from "node:zlib";
import { loadPyodide } from "pyodide";
import { AFTER_RESTORE, expandSnapshot } from "../pyodide_app/snapshot.js";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { stdlib, snapshot, allowed, entries, configs = [], plans = [] } = JSON.parse(input);

async function run(options) {
  const py = await loadPyodide({ packages: [], stdLibURL: stdlib, ...options });
  if (options._loadSnapshot) py.runPython(AFTER_RESTORE);   // as the worker does
  const calculator = py.pyimport("site_runtime.api");
  const imports = {};
  for (const name of allowed) {
    try { py.pyimport(name); imports[name] = "ok"; } catch (err) { imports[name] = String(err.message).slice(-300); }
  }
  const results = {};
  const solves = {};
  const solveMs = {};
  for (const { spec, runs, solves: questions = [] } of entries) {
    calculator.load(JSON.stringify(spec));
    for (const { key, raw } of runs) results[key] = JSON.parse(calculator.run_json(spec.id, JSON.stringify(raw)));
    for (const { key, raw, question } of questions) {
      const started = performance.now();
      solves[key] = JSON.parse(calculator.solve_json(spec.id, JSON.stringify(raw), JSON.stringify(question)));
      solveMs[key] = performance.now() - started;
    }
  }
  // Plans (runtime/plan.py): {"spec", "runs", "solves"} as entries, keyed in the same tables.
  const plan = py.pyimport("site_runtime.plan");
  for (const { spec, runs, solves: questions = [] } of plans) {
    plan.load(JSON.stringify(spec));
    for (const { key, raw } of runs) results[key] = JSON.parse(plan.run_json(spec.id, JSON.stringify(raw)));
    for (const { key, raw, question } of questions) {
      solves[key] = JSON.parse(plan.solve_json(spec.id, JSON.stringify(raw), JSON.stringify(question)));
    }
  }
  // Pasted config.json files, read as the page's worker reads them (runtime/hfconfig.py).
  const hfconfig = py.pyimport("site_runtime.hfconfig");
  const configReplies = {};
  for (const { key, text, mapping } of configs) configReplies[key] = JSON.parse(hfconfig.fill_json(text, JSON.stringify(mapping)));
  return { python: py.runPython("import sys; sys.version.split()[0]"), imports, results, solves, solve_ms: solveMs, configs: configReplies };
}

const out = {
  startup: await run({}),
  snapshot: await run({ _loadSnapshot: expandSnapshot(new Uint8Array(zlib.gunzipSync(fs.readFileSync(snapshot)))) }),
};
process.stdout.write(JSON.stringify(out));
