// The page: reads the entry's spec, sends the reader's raw inputs to Python in a worker,
// shows results, per-field messages, stale marks and the Python status.  The page is
// complete without this script: results for the defaults are in the HTML.
import { Runner } from "./runner.js";

const script = document.getElementById("page-script");
const spec = JSON.parse(document.getElementById("entry-spec").textContent);
const form = document.getElementById("inputs");
const status = document.getElementById("py-status");
const outputs = document.getElementById("outputs");

let runner = null;
let ready = false;
let sent = 0;      // sequence number of the newest request
let applied = 0;   // sequence number of the newest reply shown; older replies are dropped

function setStatus(state, text) {
  status.dataset.state = state;
  status.textContent = text;
}

function rawInputs() {
  const raw = {};
  for (const input of spec.inputs) raw[input.name] = form.elements[input.name].value;
  return raw;
}

function showErrors(errors) {
  for (const input of spec.inputs) {
    const message = errors[input.name];
    const box = document.getElementById(`err-${input.name}`);
    const field = form.elements[input.name];
    box.hidden = !message;
    box.textContent = message || "";
    field.setAttribute("aria-invalid", message ? "true" : "false");
  }
  const general = errors.inputs;
  outputs.classList.toggle("stale", Object.keys(errors).length > 0);
  if (general) setStatus("error", `Not computed: ${general}`);
}

function showOutputs(value) {
  for (const output of spec.outputs) {
    document.getElementById(`out-${output.name}`).textContent = value.outputs[output.name].text;
  }
  outputs.classList.remove("stale");
}

async function recompute() {
  if (!ready) return;
  const seq = ++sent;
  let reply;
  try {
    reply = await runner.call("run", { entry: spec.id, raw: rawInputs() });
  } catch (err) {
    if (seq === sent) setStatus("failed", `Python failed: ${err.message}`);
    return;
  }
  if (seq < applied) return;
  applied = seq;
  if (reply.ok) {
    showErrors({});
    showOutputs(reply.value);
    setStatus("ready", "Computed by Python in your browser.");
  } else {
    showErrors(reply.errors);
    if (!reply.errors.inputs) setStatus("ready", "Showing the last valid results, marked stale, until the inputs are fixed.");
  }
}

async function startPython() {
  setStatus("loading", "Loading Python…");
  const started = performance.now();
  try {
    runner = new Runner(new URL("./worker.js", import.meta.url));
    const runtimeUrls = script.dataset.runtime.split(" ").map((u) => new URL(u, location.href).href);
    const pyodideUrl = new URL(script.dataset.pyodide, location.href).href;
    await runner.call("init", { pyodideUrl, runtimeUrls });
    await runner.call("load", { spec });
    ready = true;
    setStatus("ready", `Python ready in ${((performance.now() - started) / 1000).toFixed(1)} s. Change any input.`);
    document.documentElement.dataset.python = "ready";
    if (form.dataset.dirty) recompute();
  } catch (err) {
    setStatus("failed", `Python failed to load: ${err.message}. The results shown are for the defaults.`);
    document.documentElement.dataset.python = "failed";
  }
}

form.addEventListener("input", () => {
  form.dataset.dirty = "1";
  recompute();
});
form.addEventListener("submit", (event) => event.preventDefault());

// Python loads after first paint, never before it.
const later = window.requestIdleCallback || ((fn) => setTimeout(fn, 1));
if (document.readyState === "complete") later(startPython);
else window.addEventListener("load", () => later(startPython), { once: true });
