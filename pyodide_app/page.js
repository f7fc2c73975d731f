// The entry page: reads the entry's spec, sends the reader's raw inputs to Python in a worker,
// shows results, per-field messages, stale marks and the Python status; keeps the address bar
// a shareable link to the computation.  The page is complete without this script: results for
// the defaults are in the HTML.
import { Runner } from "./runner.js";

const script = document.getElementById("page-script");
const spec = JSON.parse(document.getElementById("entry-spec").textContent);
const form = document.getElementById("inputs");
const status = document.getElementById("py-status");
const outputs = document.getElementById("outputs");
const notice = document.getElementById("notice");
const names = new Set(spec.inputs.map((i) => i.name));
const PAGE_PARAMS = new Set(["embed"]);

let runner = null;
let ready = false;
let sent = 0;      // sequence number of the newest request
let applied = 0;   // sequence number of the newest reply shown; older replies are dropped
let shareUrl = location.href;

function setStatus(state, text) {
  status.dataset.state = state;
  status.textContent = text;
}

function addNotice(text) {
  const line = document.createElement("p");
  line.textContent = text;   // never markup: parameters come from anyone's link
  notice.append(line);
  notice.hidden = false;
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
    box.hidden = !message;
    box.textContent = message || "";
    form.elements[input.name].setAttribute("aria-invalid", message ? "true" : "false");
  }
  outputs.classList.toggle("stale", Object.keys(errors).length > 0);
  if (errors.inputs) setStatus("error", `Not computed: ${errors.inputs}`);
}

function showResult(value) {
  for (const output of spec.outputs) {
    document.getElementById(`out-${output.name}`).textContent = value.outputs[output.name].text;
  }
  outputs.classList.remove("stale");
  const share = value.share;
  if (share) {
    const query = new URLSearchParams(share.query);
    if (document.documentElement.classList.contains("embed")) query.set("embed", "1");
    const local = location.pathname + (query.toString() ? `?${query}` : "") + location.hash;
    history.replaceState(null, "", local);
    shareUrl = new URL(local, location.href).href;
    document.getElementById("cite-run-text").textContent = share.text;
    document.getElementById("cite-run-bibtex").textContent = share.bibtex;
  }
}

async function recompute() {
  if (!ready) return;
  const seq = ++sent;
  let reply;
  try {
    const accessed = new Date().toISOString().slice(0, 10);
    reply = await runner.call("run", { entry: spec.id, raw: rawInputs(), accessed });
  } catch (err) {
    if (seq === sent) setStatus("failed", `Python failed: ${err.message}`);
    return;
  }
  if (seq < applied) return;
  applied = seq;
  if (reply.ok) {
    showErrors({});
    showResult(reply.value);
    setStatus("ready", "Computed by Python in your browser.");
  } else {
    showErrors(reply.errors);
    if (!reply.errors.inputs) setStatus("ready", "Showing the last valid results, marked stale, until the inputs are fixed.");
  }
}

// ---- a shared link: fill the form from the query string
const linked = {};
for (const [name, value] of new URLSearchParams(location.search)) {
  if (PAGE_PARAMS.has(name)) continue;
  if (!names.has(name)) {
    addNotice(`Ignored the link's parameter “${name.slice(0, 40)}”: this entry has no such input.`);
  } else if (value.length > 20000) {
    addNotice(`Ignored the link's value for ${name}: it is too long.`);
  } else {
    linked[name] = value;
    form.elements[name].value = value;
  }
}
if (Object.keys(linked).length) {
  outputs.classList.add("stale");
  setStatus("loading", "The link's inputs will be computed as soon as Python is ready.");
}

async function checkLinked() {
  // A linked value that Python rejects is ignored, with the reason, and its field keeps the default.
  if (!Object.keys(linked).length) return;
  const reply = await runner.call("run", { entry: spec.id, raw: linked });
  if (reply.ok) return;
  for (const [name, message] of Object.entries(reply.errors)) {
    if (!(name in linked)) continue;
    addNotice(`Ignored the link's value for ${name}: ${message}`);
    const input = spec.inputs.find((i) => i.name === name);
    form.elements[name].value = document.getElementById(`in-${name}`).defaultValue ?? String(input.default);
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
    await checkLinked();
    ready = true;
    setStatus("ready", `Python ready in ${((performance.now() - started) / 1000).toFixed(1)} s. Change any input.`);
    document.documentElement.dataset.python = "ready";
    await recompute();
  } catch (err) {
    setStatus("failed", `Python failed to load: ${err.message}. The results shown are for the defaults.`);
    document.documentElement.dataset.python = "failed";
  }
}

form.addEventListener("input", () => recompute());
form.addEventListener("submit", (event) => event.preventDefault());

document.getElementById("copy-link").addEventListener("click", async () => {
  const feedback = document.getElementById("copy-feedback");
  const url = new URL(shareUrl);
  url.searchParams.delete("embed");
  try {
    await navigator.clipboard.writeText(url.href);
    feedback.textContent = "Link copied.";
  } catch (err) {
    feedback.textContent = `Copy this link: ${url.href}`;
  }
});

// Python loads after first paint, never before it.
const later = window.requestIdleCallback || ((fn) => setTimeout(fn, 1));
if (document.readyState === "complete") later(startPython);
else window.addEventListener("load", () => later(startPython), { once: true });
