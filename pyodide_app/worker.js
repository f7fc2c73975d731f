// The worker: loads Pyodide once, installs the shared Python runtime, and answers
// {id, type, ...} messages with {id, ok, value | error}.  Inputs arrive explicitly in
// each message; nothing is read from worker globals.
let py = null;
let runtime = null;

async function boot(loadPyodide, pyodideUrl, stdlibUrl, lockInfo, sources) {
  // Formulas use the standard library only: no package index to fetch and parse.
  const options = { indexURL: pyodideUrl, packages: [], lockFileContents: { info: lockInfo, packages: {} } };
  if (stdlibUrl) options.stdLibURL = stdlibUrl;
  const python = await loadPyodide(options);
  python.FS.mkdirTree("/home/pyodide/site_runtime");
  for (const [name, text] of sources) python.FS.writeFile(`/home/pyodide/site_runtime/${name}`, text);
  python.runPython("import sys\nif '/home/pyodide' not in sys.path: sys.path.insert(0, '/home/pyodide')");
  return [python, python.pyimport("site_runtime.calculator")];
}

async function init({ pyodideUrl, stdlibUrl, lockInfo, runtimeUrls }) {
  const [{ loadPyodide }, sources] = await Promise.all([
    import(`${pyodideUrl}pyodide.mjs`),
    Promise.all(runtimeUrls.map(async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      return [new URL(url, self.location.href).pathname.split("/").pop(), await response.text()];
    })),
  ]);
  let stdlib = "startup";
  try {
    // The precompiled start-up stdlib; anything wrong with it and Python boots the stock way.
    [py, runtime] = await boot(loadPyodide, pyodideUrl, stdlibUrl, lockInfo, sources);
  } catch (err) {
    stdlib = `stock (start-up stdlib failed: ${String(err && err.message || err).slice(0, 200)})`;
    [py, runtime] = await boot(loadPyodide, pyodideUrl, null, lockInfo, sources);
  }
  return { python: py.runPython("import sys; sys.version.split()[0]"), stdlib };
}

const handlers = {
  init,
  load: ({ spec }) => JSON.parse(runtime.load(JSON.stringify(spec))),
  run: ({ entry, raw, accessed, units }) =>
    JSON.parse(runtime.run_json(entry, JSON.stringify(raw), accessed || "", units ? JSON.stringify(units) : "")),
  sweep: ({ entry, raw, index }) => JSON.parse(runtime.sweep_json(entry, JSON.stringify(raw), index)),
  elasticity: ({ entry, raw }) => JSON.parse(runtime.elasticity_json(entry, JSON.stringify(raw))),
};

self.onmessage = async ({ data }) => {
  const { id, type } = data;
  try {
    const handler = handlers[type];
    if (!handler) throw new Error(`unknown message type ${type}`);
    if (type !== "init" && !runtime) throw new Error("Python is not loaded");
    self.postMessage({ id, ok: true, value: await handler(data) });
  } catch (err) {
    self.postMessage({ id, ok: false, error: String(err && err.message || err) });
  }
};
