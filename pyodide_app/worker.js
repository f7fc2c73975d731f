// The worker: loads Pyodide once, installs the shared Python runtime, and answers
// {id, type, ...} messages with {id, ok, value | error}.  Inputs arrive explicitly in
// each message; nothing is read from worker globals.
let py = null;
let runtime = null;

async function init({ pyodideUrl, runtimeUrls }) {
  const { loadPyodide } = await import(`${pyodideUrl}pyodide.mjs`);
  py = await loadPyodide({ indexURL: pyodideUrl, packages: [] });
  py.FS.mkdirTree("/home/pyodide/site_runtime");
  const sources = await Promise.all(runtimeUrls.map(async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return [new URL(url, self.location.href).pathname.split("/").pop(), await response.text()];
  }));
  for (const [name, text] of sources) py.FS.writeFile(`/home/pyodide/site_runtime/${name}`, text);
  py.runPython("import sys\nif '/home/pyodide' not in sys.path: sys.path.insert(0, '/home/pyodide')");
  runtime = py.pyimport("site_runtime.calculator");
  return { python: py.runPython("import sys; sys.version.split()[0]") };
}

const handlers = {
  init,
  load: ({ spec }) => JSON.parse(runtime.load(JSON.stringify(spec))),
  run: ({ entry, raw, accessed }) => JSON.parse(runtime.run_json(entry, JSON.stringify(raw), accessed || "")),
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
