// The worker: loads Pyodide once, with the site's Python runtime, and answers
// {id, type, ...} messages with {id, ok, value | error}.  Inputs arrive explicitly in
// each message; nothing is read from worker globals.
//
// Three ways to boot, fastest first; each falls back to the next if anything goes wrong:
//   snapshot  restore Pyodide's memory saved at build time (runtime already imported);
//             only when the page says bytes are cheap: it is 4 MB more to download;
//   startup   boot from the start-up stdlib: .pyc of what boot, runtime and formulas import;
//   stock     Pyodide's own stdlib, with the runtime's sources.
// On a far server the page asks for the WebAssembly and the start-up stdlib xz-compressed
// (config.xz, the URLs): this worker decodes them for Pyodide (xz.js).
let py = null;
let runtime = null;
// The plans' runtime module, imported once: a proxy made at every call would be kept at every call.
let plans = null;
const planRuntime = () => (plans ||= py.pyimport("site_runtime.plan"));

async function sources(urls) {
  return Promise.all(urls.map(async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return [new URL(url, self.location.href).pathname.split("/").pop(), await response.text()];
  }));
}

async function boot(loadPyodide, how, snapshot, { pyodideUrl, stdlibUrl, lockInfo, runtimeUrls }) {
  // Formulas use the standard library only: no package index to fetch and parse.
  const options = { indexURL: pyodideUrl, packages: [], lockFileContents: { info: lockInfo, packages: {} } };
  if (how !== "stock") options.stdLibURL = stdlibUrl;
  if (how === "snapshot") options._loadSnapshot = snapshot;
  const python = await loadPyodide(options);
  if (how === "snapshot") python.runPython((await import("./snapshot.js")).AFTER_RESTORE);
  if (how === "stock") {
    python.FS.mkdirTree("/home/pyodide/site_runtime");
    for (const [name, text] of await sources(runtimeUrls)) python.FS.writeFile(`/home/pyodide/site_runtime/${name}`, text);
    python.runPython("import sys\nif '/home/pyodide' not in sys.path: sys.path.insert(0, '/home/pyodide')");
  }
  return [python, python.pyimport("site_runtime.api")];
}

async function init(config) {
  // Everything starts at once: the snapshot's download (Pyodide waits for it before anything
  // else), the code that reads it, and Pyodide's JavaScript.
  let snapshot = null;
  if (config.snapshot) {
    const response = fetch(config.snapshotUrl);
    response.catch(() => {});   // read, and any failure reported, by fetchSnapshot
    snapshot = import("./snapshot.js").then(({ fetchSnapshot }) => fetchSnapshot(config.snapshotUrl, response));
    snapshot.catch(() => {});   // a failure is reported when the snapshot boot awaits it
  }
  const pyodide = import(`${config.pyodideUrl}pyodide.mjs`);
  pyodide.catch(() => {});   // reported where it is awaited
  const failed = [];
  const reason = (err) => String(err && err.message || err).slice(0, 200);
  let decoding = null;
  if (config.xz.length) {
    try {
      decoding = await (await import("./xz.js")).serveDecoded(config.xz, config.xzDecoderUrl, config.keptCache);
    } catch (err) {
      failed.push(`xz failed: ${reason(err)}`);   // Pyodide fetches the files as they are
    }
  }
  const { loadPyodide } = await pyodide;
  const ways = snapshot ? ["snapshot", "startup", "stock"] : ["startup", "stock"];
  for (const how of ways) {
    try {
      [py, runtime] = await boot(loadPyodide, how, snapshot, config);
      let xz = "";
      if (decoding && decoding.missed.length) failed.push(...decoding.missed);
      else if (decoding) xz = "+xz";
      const note = failed.length ? ` (${failed.join("; ")})` : "";
      return { python: py.runPython("import sys; sys.version.split()[0]"), stdlib: how + xz + note };
    } catch (err) {
      failed.push(`${how} failed: ${reason(err)}`);
      if (how === ways[ways.length - 1]) throw new Error(failed.join("; "));
    } finally {
      if (decoding) decoding.stop();   // a second way fetches what it needs as it is
      decoding = null;
    }
  }
}

const handlers = {
  init,
  load: ({ spec }) => JSON.parse(runtime.load(JSON.stringify(spec))),
  // ``link``: the page's query as link.js wrote it, which the citation cites (none: Python's own).
  run: ({ entry, raw, accessed, units, link }) =>
    JSON.parse(runtime.run_json(entry, JSON.stringify(raw), accessed || "", units ? JSON.stringify(units) : "",
                                typeof link === "string" ? link : null)),
  solve: ({ entry, raw, question, accessed, units, link }) =>
    JSON.parse(runtime.solve_json(entry, JSON.stringify(raw), JSON.stringify(question), accessed || "",
                                  units ? JSON.stringify(units) : "", typeof link === "string" ? link : null)),
  // A pasted config.json, read by the runtime's bounded parser (runtime/hfconfig.py): nothing in it is run.
  config: ({ entry, text, fill, raw }) => JSON.parse(runtime.config_json(entry, text, fill, JSON.stringify(raw || {}))),
  // Results written in the reader's units (the "Every model" table's cells): values -> texts.
  write: ({ entry, values, units }) => JSON.parse(runtime.write_json(entry, JSON.stringify(values), JSON.stringify(units || {}))),
  sweep: ({ entry, raw, index }) => JSON.parse(runtime.sweep_json(entry, JSON.stringify(raw), index)),
  python: ({ entry, pairs }) => JSON.parse(runtime.python_json(entry, JSON.stringify(pairs))),
  elasticity: ({ entry, raw }) => JSON.parse(runtime.elasticity_json(entry, JSON.stringify(raw))),
  // Plans (runtime/plan.py): the same Python composing the entries' calculators.
  plan_load: ({ spec }) => JSON.parse(planRuntime().load(JSON.stringify(spec))),
  plan_run: ({ plan, raw, units }) =>
    JSON.parse(planRuntime().run_json(plan, JSON.stringify(raw), units ? JSON.stringify(units) : "")),
  plan_solve: ({ plan, raw, question, units }) =>
    JSON.parse(planRuntime().solve_json(plan, JSON.stringify(raw), JSON.stringify(question), units ? JSON.stringify(units) : "")),
  // The worker's memory, as one worker serves page after page: WebAssembly heap and Python's objects.
  memory: () => ({ heap: py._module.HEAP8.length, objects: py.runPython("import gc; gc.collect(); len(gc.get_objects())") }),
};

self.onmessage = async ({ data }) => {
  const { id, type } = data;
  self.postMessage({ id, started: true });   // the page's watchdog times the call from here
  try {
    const handler = handlers[type];
    if (!handler) throw new Error(`unknown message type ${type}`);
    if (type !== "init" && !runtime) throw new Error("Python is not loaded");
    self.postMessage({ id, ok: true, value: await handler(data) });
  } catch (err) {
    self.postMessage({ id, ok: false, error: String(err && err.message || err) });
  }
};
