// The entry page: reads the entry's spec, sends the reader's raw inputs to Python in a worker,
// shows results, per-field messages, stale marks and the Python status; keeps the address bar
// a shareable link to the computation.  The page is complete without this script: results for
// the defaults are in the HTML.
import { boot, booted, runner } from "./python.js";
import { setupPractice } from "./practice.js";
import { setupInputs, showEchoes } from "./inputs.js";

const script = document.getElementById("page-script");
const spec = JSON.parse(document.getElementById("entry-spec").textContent);
const form = document.getElementById("inputs");
const status = document.getElementById("py-status");
const outputs = document.getElementById("outputs");
const notice = document.getElementById("notice");
const names = new Set(spec.inputs.map((i) => i.name));
const PAGE_PARAMS = new Set(["embed", "units"]);
const WATCHDOG_MS = 3000;   // a formula that has not answered by then is stopped
const unitMenus = [...document.querySelectorAll(".unit-menus select")];
let charts = null;   // drawn from the build's points once the worker is on its way
// Charts are drawn on the main thread, which Python's start needs too: they wait until Python
// is ready, or until the reader scrolls them into view, whichever comes first.
function chartsWhenSeen() {
  const section = document.getElementById("plots");
  if (!section || !spec.plots.length) return;
  const seen = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    seen.disconnect();
    startCharts();
  });
  seen.observe(section);
}
function startCharts() {
  if (charts || !spec.plots.length) return;
  charts = import("./plots.js").then(({ Charts }) => {
    const c = new Charts(script.dataset.uplot, spec);
    c.draw(spec.sweeps);
    return c;
  });
}

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

function units() {
  const chosen = {};
  for (const menu of unitMenus) if (menu.value) chosen[menu.dataset.family] = menu.value;
  return chosen;
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
}

// The address bar and the citation follow the inputs once typing pauses (browsers throttle
// history updates, and a citation per keystroke is work nobody reads).
let shareTimer = null;
function scheduleShare(delay = 300) {
  clearTimeout(shareTimer);
  shareTimer = setTimeout(updateShare, delay);
}

async function updateShare() {
  const accessed = new Date().toISOString().slice(0, 10);
  let reply;
  try {
    reply = await runner.call("run", { entry: spec.id, raw: rawInputs(), accessed, units: units() }, WATCHDOG_MS);
  } catch (err) {
    return;
  }
  if (!reply.ok) return;
  const share = reply.value.share;
  if (share) {
    const query = new URLSearchParams(share.query);
    const chosen = Object.entries(units()).map(([family, choice]) => `${family}:${choice}`).join(",");
    if (chosen) query.set("units", chosen);
    if (document.documentElement.classList.contains("embed")) query.set("embed", "1");
    const local = location.pathname + (query.toString() ? `?${query}` : "") + location.hash;
    history.replaceState(null, "", local);
    shareUrl = new URL(local, location.href).href;
    document.getElementById("cite-run-text").textContent = share.text;
    document.getElementById("cite-run-bibtex").textContent = share.bibtex;
    document.dispatchEvent(new CustomEvent("share-link"));
  }
}

async function recompute() {
  if (!ready) return;
  const seq = ++sent;
  let reply;
  try {
    reply = await runner.call("run", { entry: spec.id, raw: rawInputs(), units: units() }, WATCHDOG_MS);
  } catch (err) {
    if (seq === sent && ready) setStatus("failed", `Python failed: ${err.message}`);
    return;
  }
  if (seq < applied) return;
  applied = seq;
  document.documentElement.dataset.replies = String(seq);
  if (reply.ok) {
    showErrors({});
    showResult(reply.value);
    showEchoes(form, reply.value.echo, names);
    scheduleShare();
    scheduleExtras(reply.value);
    setStatus("ready", "Computed by Python in your browser.");
  } else {
    showErrors(reply.errors);
    showEchoes(form, {}, Object.keys(reply.errors));
    if (!reply.errors.inputs) setStatus("stale", "Showing the last valid results, marked stale, until the inputs are fixed.");
  }
}

// ---- charts, scaling and feed links follow the results once typing pauses
let extrasTimer = null;
function scheduleExtras(value) {
  clearTimeout(extrasTimer);
  extrasTimer = setTimeout(() => updateExtras(value), 120);
}

// The chart's points as a table, written by Python like every other number on the page.
function showPoints(sweep, i) {
  const body = document.querySelector(`#plot-${i} .plot-data tbody`);
  if (!body) return;
  const names = spec.plots[i].y;
  body.replaceChildren(...sweep.text.x.map((x, k) => {
    const row = document.createElement("tr");
    for (const text of [x, ...names.map((name) => sweep.text.y[name][k])]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  }));
}

async function updateExtras(value) {
  spec.feeds.forEach((feed, i) => {
    const query = new URLSearchParams();
    for (const [target, origin] of Object.entries(feed.inputs)) query.set(target, value.typed[origin]);
    document.getElementById(`feed-${i}`).href = `${feed.url}?${query}`;
  });
  const raw = rawInputs();
  if (document.getElementById("scaling-table")) {
    const reply = await runner.call("elasticity", { entry: spec.id, raw }, 2 * WATCHDOG_MS).catch(() => ({ ok: false }));
    if (reply.ok) {
      for (const [input, row] of Object.entries(reply.value)) {
        for (const [output, e] of Object.entries(row)) {
          const cell = document.getElementById(`el-${input}-${output}`);
          if (cell) cell.textContent = e === null ? "—" : e.toFixed(2).replace("-", "−");
        }
      }
    }
  }
  if (charts) {
    const sweeps = [];
    for (let i = 0; i < spec.plots.length; i++) {
      const reply = await runner.call("sweep", { entry: spec.id, raw, index: i }, 2 * WATCHDOG_MS).catch(() => ({ ok: false }));
      if (!reply.ok) return;
      sweeps.push(reply.value);
    }
    (await charts).draw(sweeps);
    sweeps.forEach(showPoints);
    document.documentElement.dataset.charts = String(Number(document.documentElement.dataset.charts || 0) + 1);
  }
}

// ---- units the reader chose, kept in the link
const chosenUnits = new URLSearchParams(location.search).get("units") || "";
for (const pair of chosenUnits.split(",")) {
  const [family, choice] = pair.split(":");
  const menu = unitMenus.find((m) => m.dataset.family === family);
  if (menu && [...menu.options].some((o) => o.value === choice)) menu.value = choice;
  else if (pair) addNotice(`Ignored the link's unit choice “${pair.slice(0, 40)}”.`);
}
for (const menu of unitMenus) menu.addEventListener("change", () => recompute());

setupPractice(spec);
setupInputs(form);

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
  let reply;
  try {
    reply = await runner.call("run", { entry: spec.id, raw: linked }, WATCHDOG_MS);
  } catch (err) {
    // The watchdog restarted Python: these values never finish, so none of them is kept.
    await runner.restarting;
    reply = { ok: false, errors: Object.fromEntries(Object.keys(linked).map((n) => [n, "the formula did not finish for this value"])) };
  }
  if (reply.ok) return;
  for (const [name, message] of Object.entries(reply.errors)) {
    if (!(name in linked)) continue;
    addNotice(`Ignored the link's value for ${name}: ${message}`);
    const input = spec.inputs.find((i) => i.name === name);
    form.elements[name].value = document.getElementById(`in-${name}`).defaultValue ?? String(input.default);
  }
}

async function loadPython(restarted = false) {
  const python = await (restarted ? boot(runner) : booted);
  document.documentElement.dataset.stdlib = python.stdlib;
  await runner.call("load", { spec });
}

async function restartPython(error) {
  // The watchdog stopped a formula that did not answer: say so, keep the last valid results.
  ready = false;
  clearTimeout(shareTimer);
  clearTimeout(extrasTimer);
  outputs.classList.add("stale");
  setStatus("loading", `The formula did not finish (${error.message}), so Python was stopped; restarting it…`);
  document.documentElement.dataset.watchdog = String(Number(document.documentElement.dataset.watchdog || 0) + 1);
  try {
    await loadPython(true);
    ready = true;
    setStatus("error", "The formula did not finish for these inputs and was stopped; Python restarted. "
      + "The last valid results are shown, marked stale: change an input to compute again.");
  } catch (err) {
    setStatus("failed", `Python failed to restart: ${err.message}.`);
  }
}

async function startPython() {
  setStatus("loading", "Loading Python…");
  try {
    if (!runner) await booted;   // the worker could not be created: say why
    runner.onrestart = restartPython;
    chartsWhenSeen();
    await loadPython();
    await checkLinked();
    ready = true;
    performance.mark("python-ready");
    setStatus("ready", `Python ready in ${(performance.now() / 1000).toFixed(1)} s. Change any input.`);
    document.documentElement.dataset.python = "ready";
    startCharts();
    await recompute();
  } catch (err) {
    startCharts();
    setStatus("failed", `Python failed to load: ${err.message}. The results shown are for the defaults.`);
    document.documentElement.dataset.python = "failed";
  }
}

form.addEventListener("input", () => recompute());
form.addEventListener("submit", (event) => event.preventDefault());

document.getElementById("copy-link").addEventListener("click", async () => {
  const feedback = document.getElementById("copy-feedback");
  if (ready) {
    clearTimeout(shareTimer);
    await updateShare();
  }
  const url = new URL(shareUrl);
  url.searchParams.delete("embed");
  try {
    await navigator.clipboard.writeText(url.href);
    feedback.textContent = "Link copied.";
  } catch (err) {
    feedback.textContent = `Copy this link: ${url.href}`;
  }
});

// Python starts loading at once: the worker downloads and compiles on its own thread while the
// page paints (the results for the defaults are already in the HTML).
startPython();
