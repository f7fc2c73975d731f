// The entry page: reads the entry's spec, sends the reader's raw inputs to Python in a worker,
// shows results, per-field messages, stale marks and the Python status; keeps the address bar
// a shareable link to the computation (link.js reads and writes it).  The page is complete without this script: results for
// the defaults are in the HTML.
//
// The module runs once per visit: links between pages swap the page's body in (Turbo Drive,
// site.js) and keep this document, its worker and its Python.  initPage() sets up each entry
// page, the first and every one after; the page's state below is that page's, and a reply that
// arrives for a page the reader has left is dropped (see `current`).
//
// What the reader uses on demand loads when first used, not with the page: asking backwards
// (solve.js), the preset menus (presets.js), the comparison (compare.js), "Every model"
// (every.js), the card's image (card.js), an older version's results (versions.js), the embed
// card's fit (embed.js), a pasted config (config.js), "Copy as Python" and the charts' code; a
// link that asks for one of them loads it at once, and the page's first computation waits for
// it (see ``needed``).  ondemand.js shows them meanwhile and keeps what the reader did.  Practice
// mode and the reader's record (practice.js) load on the first reach for the toggle or as the
// record comes near the screen, the comparison's stylesheet as its section does.
import { WATCHDOG_MS, reboot, running, runner } from "./python.js";
import { setupInputs, showEchoes } from "./inputs.js";
import { setupNotation } from "./notation.js";
import { announce, setupAnnounce } from "./announce.js";
import { TYPING_PAUSE_MS, carried, citedQuery, begin as beginLink, linkPairs, publish, readLink, shared } from "./link.js";
import { compareMenus, firstUse, heldChoices, linkStylesheet, loadCode, loadData, presetMenus, solvePanel, whenNear } from "./ondemand.js";

let script, spec, form, status, outputs, notice, names, unitMenus, linked;
let solve, presets, compare;   // this page's solve panel, preset menus and comparison (stand-ins until their code is in)
let needed = [];      // the code this page's link asks for: the first computation waits for it
// Stand-ins for the features whose code has not arrived: nothing asked, chosen or compared yet.
const NO_SOLVE = { ask: async () => {}, active: () => false, question: () => null, carriesFreed: () => false, input() {}, submit() {} };
const NO_PRESETS = { chosen: () => ({}), filled: () => ({}), settle() {}, fillFor: (kind, preset, raw) => ({ ...raw }) };
const NO_COMPARE = { list: () => [], refresh() {}, close() {} };
let every = null;     // every.js, once a reader has opened an "Every model" table
let card = null;      // the embed card's fit to its frame (embed.js), on an embed card
let shown = [];       // the outputs the embed card shows (?show=), known names only
let embedded = false; // the page is an embed card (?embed=1)
let defaults = {};    // input -> its text as the page was built (before any link filled it)
// A formula has WATCHDOG_MS (python.js) to answer, and a long list adds its own time: Python
// writes every one of its values (a 10,000-logit softmax is a real vocabulary) and the page shows
// them all: 5 ms an item, on a slow machine too.
function limit(raw, times = 1) {
  let items = 0;
  for (const value of Object.values(raw)) items += String(value).split(/[,;]/).length - 1;
  return times * WATCHDOG_MS + 5 * items;
}
let charts = null;   // drawn from the build's points once the worker is on its way
let seen = null;     // watches for the charts scrolling into view
let near = [];       // watch for the record and the comparison coming near the screen
let current = null;  // the page being shown: a token that async work checks after each wait
// The charts' code (plots.js, uPlot's code and stylesheet) loads, and they are drawn, when the
// reader brings them near the screen (half a screen before they show), not with the page: a
// reader who never scrolls to them never fetches it.  Until then each has its points as a table.
// When the page's Python is ready they are drawn from its sweeps, before that from the build's
// (sweeps.json beside the page, fetched only then).
function chartsWhenSeen() {
  const section = document.getElementById("plots");
  if (!section || !spec.plots.length) return;
  seen = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    seen.disconnect();
    startCharts();
  }, { rootMargin: "0px 0px 50% 0px" });
  seen.observe(section);
}
let chartsAsked = false;   // the charts were started once on this page: a load that failed is tried again
function startCharts() {
  if (charts || !spec.plots.length) return;
  chartsAsked = true;
  const mine = current;
  const early = ready ? null : loadData(spec.sweeps_src, "the charts", tellOnce("the charts"));
  charts = Promise.all([code("./plots.js", "the charts"), early]).then(([plots, sweeps]) => {
    if (mine !== current) return null;   // the reader has moved on
    if (!plots) { charts = null; return null; }   // the reader was told; the next change tries again
    // (uPlot's own code loads with the charts: one that fails says so in each chart, plots.js)
    const c = new plots.Charts(script.dataset.uplot, spec, script.dataset.uplotCss);
    c.units = units();   // the axes follow the unit menus
    if (ready) scheduleExtras();         // Python's sweeps of the inputs as they are now
    else if (sweeps) c.draw(sweeps);     // the build's, until Python is ready and draws its own
    return c;
  });
}

let ready = false;
let sent = 0;      // sequence number of the newest request
let applied = 0;   // sequence number of the newest reply shown; older replies are dropped
const root = document.documentElement;

// The code of a feature used on demand (ondemand.js): the module, or null once the reader has
// been told it could not be loaded (once a page, however often they try it again).
const told = new Set();
const tellOnce = (what) => (text) => { if (!told.has(what)) addNotice(text); told.add(what); };
const code = (url, what) => loadCode(url, what, tellOnce(what));

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

// Values of this entry's outputs written in the reader's units by Python ({output: [value]}):
// the "Every model" table's cells, once Python is ready (the build's texts until then).
function writeInUnits(values, chosen) {
  if (!ready) return Promise.resolve(null);
  return runner.call("write", { entry: spec.id, values, units: chosen });
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
  // The link never carries a value Python refuses: it stays the last computed page's, and says so.
  const shareStale = document.getElementById("share-stale");
  if (shareStale) shareStale.hidden = Object.keys(errors).length === 0;
  if (errors.inputs) setStatus("error", `Not computed: ${errors.inputs}`);
}

function showResult(value) {
  for (const output of spec.outputs) {
    const shown = value.outputs[output.name];
    const element = document.getElementById(`out-${output.name}`);
    // A result the inputs make meaningless is a sentence (the runtime's flag), never a number.
    element.textContent = shown.flag || shown.text;
    element.classList.toggle("flag", Boolean(shown.flag));
    showList(element, shown.flag ? null : shown.items, shown.items_unit, shown.rows, Boolean(shown.index));
  }
  for (const big of document.querySelectorAll(".result.headline output")) {   // a long value is set smaller, never cut
    const n = big.textContent.length;
    big.dataset.len = n > 20 ? "l" : n > 12 ? "m" : "s";
  }
  for (const mirror of document.querySelectorAll("#headline-bar output[data-mirror]")) {
    const mirrored = value.outputs[mirror.dataset.mirror];
    mirror.textContent = mirrored.flag || mirrored.text;
  }
  outputs.classList.remove("stale");
}

// A list output as a small table, one row a value, written by Python like the rest, each row
// headed as Python heads it (the statement's index, j = 2, or the place from 1); its text (the
// values in parentheses) stays for screen readers and the citation.
function showList(element, items, unit, rows, named = false) {
  let table = document.getElementById(`list-${element.id.slice(4)}`);
  element.classList.toggle("listed", Boolean(items));
  // The table is for the eye (aria-hidden): a screen reader hears the value's own text, and, when
  // the statement names the index (j = 3 ...), each value with it, as the table's rows say.
  if (items && named) element.setAttribute("aria-label", items.map((text, k) => `${rows[k]}: ${text}`).join("; "));
  else element.removeAttribute("aria-label");
  if (!items) {
    if (table) table.remove();
    return;
  }
  if (!table) {
    table = document.createElement("table");
    table.className = "list";
    table.id = `list-${element.id.slice(4)}`;
    table.setAttribute("aria-hidden", "true");
    table.append(document.createElement("tbody"));
    element.after(table);
  }
  table.classList.toggle("wide", items.some((text) => text.length > 9) || rows.some((text) => text.length > 3));
  if (table.caption) table.caption.remove();
  if (unit) table.createCaption().textContent = `in ${unit}`;   // said once, not on every row
  table.tBodies[0].replaceChildren(...items.map((text, k) => {
    const row = document.createElement("tr");
    const head = document.createElement("th");
    head.textContent = rows[k];
    const cell = document.createElement("td");
    cell.textContent = text;
    row.append(head, cell);
    return row;
  }));
}

// The page's link state (link.js writes it): what reopens the page as it is.  ``question``: the
// question asked (the solve panel's, by default).
function linkState(question = solve.active() ? solve.question() : null) {
  const chosen = presets.chosen();
  // The freed input is the answer, which the question gives again, unless no value met it or
  // the reader picked another of several (then the link carries it, and the question picks it).
  const freed = question && !solve.carriesFreed() ? question.input : null;
  return {
    question,
    presets: chosen,
    inputs: carried(spec, rawInputs(), defaults, chosen, freed),
    units: units(),
    show: shown,
    compare: compare ? compare.list() : [],
    embed: embedded,
    version: spec.versions ? spec.versions.current : null,   // the link names the version that computed it
  };
}

// The address bar and the citation follow the inputs once typing pauses (browsers throttle
// history updates): the run's reply carries the citation of the link it was asked with, and
// the link's state travels with the request, so both always say the same; only writing waits.
// A run asked by anything but typing (the page's first, a menu, a preset, a solve) writes at once,
// and so does typing the reader has finished: leaving the field or pressing Enter (its change).
let shareTimer = null;
let pendingShare = null;   // {share, state}: the newest run's citation and link, not yet written
let typed = false;         // the newest run was asked by typing in a text field
let committed = 0;         // the newest run asked before the reader's last change of a field
function scheduleShare(share, state, delay = TYPING_PAUSE_MS) {
  clearTimeout(shareTimer);
  pendingShare = share && state ? { share, state } : null;
  root.dataset.link = pendingShare ? "pending" : "written";
  shareTimer = setTimeout(writeShare, delay);
}

// The page's own signals of its link: data-asking, the runs and solves not yet answered;
// data-link, "pending" until the newest answer's link is in the address bar, then "written".
let asking = 0;
function tracked(promise) {
  root.dataset.asking = String(++asking);
  const done = () => { root.dataset.asking = String(--asking); };
  promise.then(done, done);
  return promise;
}

function writeShare() {
  clearTimeout(shareTimer);
  const pending = pendingShare;
  pendingShare = null;
  if (!pending) return;
  presets.settle();
  publish(pending.state);
  root.dataset.link = "written";
  document.getElementById("cite-run-text").textContent = pending.share.text;
  document.getElementById("cite-run-bibtex").textContent = pending.share.bibtex;
  const printed = document.getElementById("print-url");
  if (printed) printed.textContent = shared();   // print: the link carries the inputs
}

const today = () => new Date().toISOString().slice(0, 10);

async function recompute(first = false) {
  if (!ready) return;
  const seq = ++sent;
  const mine = current;
  const state = linkState();
  const byTyping = typed;
  typed = false;
  let reply;
  try {
    reply = await tracked(runner.call("run", { entry: spec.id, raw: rawInputs(), accessed: today(), units: units(), link: citedQuery(state) }, limit(rawInputs())));
  } catch (err) {
    if (seq === sent && ready && mine === current) setStatus("failed", `Python failed: ${err.message}`);
    return;
  }
  if (seq < applied || mine !== current) return;
  applied = seq;
  document.documentElement.dataset.replies = String(seq);
  if (reply.ok) {
    showRun(reply.value, state, first, byTyping && seq > committed);
  } else {
    showErrors(reply.errors);
    showEchoes(form, {}, Object.keys(reply.errors));
    if (!reply.errors.inputs) setStatus("stale", "Showing the last valid results, marked stale, until the inputs are fixed.");
  }
}

// One run's reply, complete: results, echoes, feed links, and (once typing pauses) the link and
// citation.  ``first``: the first computation keeps the "Python ready" message up: it is the one
// the reader waited for, and it stays until the reader changes something.
function showRun(value, state, first = false, byTyping = false) {
  showErrors({});
  showResult(value);
  showEchoes(form, value.echo, names);
  value.feeds.forEach((href, i) => { document.getElementById(`feed-${i}`).href = href; });
  // Each input as the card shows it for reading (Python's text: a plain number's digits grouped).
  for (const [name, text] of Object.entries(value.shown || {})) {
    const shownValue = document.getElementById(`shown-${name}`);
    if (!shownValue) continue;
    shownValue.textContent = text;
    shownValue.dataset.of = form.elements[name].value;   // the field's text it was written from
  }
  scheduleShare(value.share, state, byTyping ? TYPING_PAUSE_MS : 0);
  scheduleExtras();
  if (every) every.writeEvery(writeInUnits, units());   // an open "Every model" table follows the unit menus
  compare.refresh();   // the comparison keeps the reader's other inputs: computed again with them
  announce();   // one summary for a screen reader, once the reader pauses
  if (!first) setStatus("ready", "Computed by Python in your browser.");
}

// A run the solve panel computed (its answer's, asked with the link ``state``): the newest reply.
function showSolved(value, state) {
  const seq = ++sent;
  applied = seq;
  document.documentElement.dataset.replies = String(seq);
  showRun(value, state);
}

// ---- charts and scaling follow the results once typing pauses
let extrasTimer = null;
function scheduleExtras() {
  clearTimeout(extrasTimer);
  extrasTimer = setTimeout(updateExtras, 120);
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

async function updateExtras() {
  const mine = current;
  const raw = rawInputs();
  if (document.getElementById("scaling-table")) {
    const reply = await runner.call("elasticity", { entry: spec.id, raw }, limit(raw, 2)).catch(() => ({ ok: false }));
    if (mine !== current) return;
    if (reply.ok) {
      for (const [input, row] of Object.entries(reply.text)) {
        for (const [output, text] of Object.entries(row)) {
          const cell = document.getElementById(`el-${input}-${output}`);
          if (cell) cell.textContent = text;
        }
      }
    }
  }
  if (chartsAsked) startCharts();   // again, when their code failed to load
  if (charts) {
    const sweeps = [];
    for (let i = 0; i < spec.plots.length; i++) {
      const reply = await runner.call("sweep", { entry: spec.id, raw, index: i }, limit(raw, 2)).catch(() => ({ ok: false }));
      if (!reply.ok || mine !== current) return;
      sweeps.push(reply.value);
    }
    const drawn = await charts;
    if (!drawn || mine !== current) return;
    sweeps.forEach(showPoints);
    drawn.units = units();
    await drawn.draw(sweeps);   // data-charts only once they are really drawn
    if (mine !== current) return;
    document.documentElement.dataset.charts = String(Number(document.documentElement.dataset.charts || 0) + 1);
  }
}

async function checkLinked() {
  // A linked value that Python rejects is ignored, with the reason, and its field keeps the default.
  if (!Object.keys(linked).length) return;
  const mine = current;
  let reply;
  try {
    reply = await runner.call("run", { entry: spec.id, raw: linked }, limit(linked));
  } catch (err) {
    // The watchdog restarted Python: these values never finish, so none of them is kept.
    await runner.restarting;
    reply = { ok: false, errors: Object.fromEntries(Object.keys(linked).map((n) => [n, "the formula did not finish for this value"])) };
  }
  if (reply.ok || mine !== current) return;
  for (const [name, message] of Object.entries(reply.errors)) {
    if (!(name in linked)) continue;
    addNotice(`Ignored the link's value for ${name}: ${message}`);
    const input = spec.inputs.find((i) => i.name === name);
    form.elements[name].value = document.getElementById(`in-${name}`).defaultValue ?? String(input.default);
  }
}

async function loadPython(restarted = false) {
  const python = await (restarted ? reboot() : running());
  root.dataset.stdlib = python.stdlib;
  root.dataset.worker = String(runner.generation);   // the same on every page until a worker is restarted
  const early = preload;
  preload = null;
  if (!restarted && early && early.text === document.getElementById("entry-spec").textContent
      && early.worker === runner.generation && await early.loaded.then(() => true, () => false)) return;
  await runner.call("load", { spec });
}

// A link's page is fetched, then rendered: its formula is loaded from the response, while the
// page renders (the worker works on its own thread), so that it is ready when the page is in.
const SPEC_START = '<script type="application/json" id="entry-spec">';
// The formula is not in the spec: the page shows it, and it is read from there (in a fetched
// page's HTML, its text decoded as the page's own parser would).
const FORMULA = /<code id="formula-source">([^<]*)<\/code>/;
function withFormula(spec, html) {
  const found = FORMULA.exec(html);
  spec.formula = found ? new DOMParser().parseFromString(`<p>${found[1]}`, "text/html").body.textContent : "";
  return spec;
}
let preload = null;   // {text, worker, loaded}: the next page's spec, loading into that worker
document.addEventListener("turbo:before-fetch-response", async ({ detail }) => {
  if (!runner) return;
  const html = await detail.fetchResponse.responseHTML.catch(() => "");
  const start = html ? html.indexOf(SPEC_START) : -1;
  if (start < 0) return;
  const text = html.slice(start + SPEC_START.length, html.indexOf("</script>", start));
  const worker = runner.generation;
  const loaded = running().then(() => runner.call("load", { spec: withFormula(JSON.parse(text), html) }));
  loaded.catch(() => {});   // loadPython loads it again
  preload = { text, worker, loaded };
});

async function restartPython(error) {
  // The watchdog stopped a formula that did not answer: say so, keep the last valid results.
  // (Still loading: it was the page before's formula; startPython loads this one into a new worker.)
  const mine = current;
  document.documentElement.dataset.watchdog = String(Number(document.documentElement.dataset.watchdog || 0) + 1);
  if (!ready) return loadPython(true);
  ready = false;
  clearTimeout(shareTimer);
  clearTimeout(extrasTimer);
  outputs.classList.add("stale");
  setStatus("loading", `The formula did not finish (${error.message}), so Python was stopped; restarting it…`);
  try {
    await loadPython(true);
    if (mine !== current) return;
    ready = true;
    setStatus("error", "The formula did not finish for these inputs and was stopped; Python restarted. "
      + "The last valid results are shown, marked stale: change an input to compute again.");
  } catch (err) {
    setStatus("failed", `Python failed to restart: ${err.message}.`);
  }
}

async function startPython() {
  const mine = current;
  setStatus("loading", "Loading Python…");
  chartsWhenSeen();
  try {
    if (!runner) await running();   // the worker could not be created: say why
    runner.onrestart = restartPython;
    const generation = runner.generation;
    await loadPython().catch(async (err) => {
      // The page before left a formula running that the watchdog stopped: this page's Python
      // is loaded into the new worker by restartPython.
      if (runner.generation === generation) throw err;
      await runner.restarting;
    });
    if (mine !== current) return;
    await checkLinked();
    await Promise.all(needed);   // the link's question, presets, comparison, version: their code is in
    if (mine !== current) return;
    ready = true;
    performance.clearMarks("python-ready");   // one a page, not one a page visited
    performance.mark("python-ready");
    // Timed from this page's start: the click that brought it in, or the document's own load.
    const since = performance.getEntriesByName("page-visit").pop();
    setStatus("ready", `Python ready in ${((performance.now() - (since ? since.startTime : 0)) / 1000).toFixed(1)} s. Change any input.`);
    await recompute(true);
    // The page's signal: Python has computed the page as its link asks (not only loaded), so
    // what is shown from here on is Python's answer.
    if (mine !== current) return;
    root.dataset.python = "ready";
    await solve.ask();
  } catch (err) {
    if (mine !== current) return;
    setStatus("failed", `Python failed to load: ${err.message}. The results shown are for the defaults.`);
    root.dataset.python = "failed";
  }
}

// ---- back and forward: the inputs as the reader left them, as a browser shows a page it kept,
// even those typed after the address bar last followed them.  By history entry (Turbo's
// restoration id, one per entry), for as long as this document lives.
const left = new Map();
function historyEntry() {
  return history.state && history.state.turbo && history.state.turbo.restorationIdentifier;
}
function remember() {
  const key = historyEntry();
  if (key && current) left.set(key, { entry: spec.id, raw: rawInputs(), units: units() });
}
// A link to a part of the page (#inputs) makes a history entry of its own, with no state until
// Turbo gives it one (after this listener): it keeps the inputs too.
addEventListener("popstate", (event) => {
  if (!event.state && current && location.pathname === current.path) setTimeout(remember);
});

// ---- each entry page: the first, and each one a link brings in
const done = new WeakSet();   // the pages (their spec elements) set up already
function initPage() {
  const specElement = document.getElementById("entry-spec");
  if (!specElement || done.has(specElement)) return;
  done.add(specElement);
  leavePage();
  current = { path: location.pathname };
  script = document.getElementById("page-script");
  spec = JSON.parse(specElement.textContent);
  // What the page shows is not repeated in its spec: the formula, each input's label (its
  // field's), and the presets that fill the entry, by id (the preset menus' options).
  spec.formula = document.getElementById("formula-source")?.textContent ?? "";
  spec.labels = Object.fromEntries([
    ...spec.inputs.map((i) => [i.name, document.getElementById(`input-${i.name}`).querySelector(".label").textContent]),
    ...spec.outputs.map((o) => [o.name, o.label]),
  ]);
  if (spec.kinds) {
    spec.presets = Object.fromEntries(Object.keys(spec.kinds).map((kind) => [kind,
      [...document.querySelectorAll(`#preset-${kind} option`)].filter((o) => o.value).map((o) => ({ id: o.value }))]));
  }
  form = document.getElementById("inputs");
  status = document.getElementById("py-status");
  outputs = document.getElementById("outputs");
  notice = document.getElementById("notice");
  names = new Set(spec.inputs.map((i) => i.name));
  unitMenus = [...document.querySelectorAll(".unit-menus select")];
  ready = false;
  sent = applied = 0;
  beginLink();

  // ---- the page's link, read once (link.js): every notice says what it ignored, as text
  defaults = {};
  for (const input of spec.inputs) {
    const field = form.elements[input.name];
    defaults[input.name] = field.tagName === "SELECT"
      ? ([...field.options].find((o) => o.defaultSelected) || field.options[0]).value
      : field.defaultValue;
  }
  const link = readLink(location.search, spec, {
    units: Object.fromEntries(unitMenus.map((m) => [m.dataset.family, [...m.options].map((o) => o.value).filter(Boolean)])),
  });
  for (const text of link.notices) addNotice(text);
  embedded = link.embed;

  // ---- units the reader chose, kept in the link
  for (const menu of unitMenus) if (link.units[menu.dataset.family]) menu.value = link.units[menu.dataset.family];
  for (const menu of unitMenus) {
    menu.addEventListener("change", () => {
      remember();
      if (!ready) outputs.classList.add("stale");
      if (!solve.active()) recompute();   // an asked question is solved again there, its run shown
    });
  }

  // ---- the outputs an embed card shows (?show=), in the link's order
  shown = link.show;
  if (shown.length) {
    outputs.dataset.show = shown.join(",");
    const list = outputs.querySelector("dl");
    for (const name of shown) {
      const row = document.getElementById(`output-${name}`);
      row.classList.add("shown");
      list.append(row);   // in the link's order
    }
  }

  setupAnnounce();
  setupInputs(form);
  const page = current;   // an answer that arrives after the reader left is not shown on the next page
  const alive = () => page === current;

  // ---- practice mode and the record (practice.js): a press on the toggle before the code is in
  // is passed on once it is
  let practising = null;
  const loadPractice = () => (practising ||= code("./practice.js", "practice mode").then((module) => {
    if (!module) { practising = null; return null; }   // asked again on the next use
    return alive() ? module.setupPractice(spec) : null;
  }));
  const toggle = document.getElementById("practice-toggle");
  firstUse(toggle, loadPractice);
  toggle.addEventListener("click", () => loadPractice().then((practice) => practice && practice.toggle()));
  near.push(whenNear(document.getElementById("record"), loadPractice));
  // The comparison's stylesheet (compare.css): as its section comes near the screen.
  const compareStyles = () => linkStylesheet(script.dataset.compareCss);
  near.push(whenNear(document.getElementById("compare"), compareStyles));
  const touched = new Set();   // the inputs the reader changed on this page (a preset chosen later keeps them)
  needed = [];
  const need = (promise) => { needed.push(promise.catch(() => {})); };

  // ---- asking backwards: the panel at once, its code (solve.js) on first use or for the link's question
  solve = NO_SOLVE;
  const panel = solvePanel(spec);
  let solving = null;
  const loadSolve = () => (solving ||= code("./solve.js", "asking backwards").then((module) => {
    if (!module) { solving = null; return NO_SOLVE; }   // asked again on the next use
    if (!alive()) return NO_SOLVE;
    solve = module.setupSolve({
      spec, form, runner, rawInputs, units, recompute, addNotice, today, linkState, citedQuery, tracked,
      question: link.question,
      picked: link.question ? link.inputs[link.question.input] : undefined,
      showSolved: (run, state) => { if (alive()) showSolved(run, state); },
      ready: () => ready,
      watchdog: WATCHDOG_MS,
    }, panel);
    return solve;
  }));
  if (panel) {
    firstUse(panel.panel, loadSolve);
    panel.panel.addEventListener("submit", (event) => {
      event.preventDefault();
      loadSolve().then((s) => s.submit());   // asked as soon as the code is in
    });
    if (link.question) need(loadSolve());
  }

  // ---- the preset menus and the comparison: shown at once, their code on first use, or at once
  // for a link that names a preset or compares some (a shared link: a preset first; the link's inputs win)
  presets = NO_PRESETS;
  compare = NO_COMPARE;
  const presetBox = presetMenus(spec), compareBox = compareMenus(spec);
  const heldPresets = heldChoices(), heldCompare = heldChoices();
  let presetting = null, comparing = null;
  // The menus' code and the presets' values and sources (presets.json, which the page's spec
  // names by id only) arrive together.
  // (compare.css with them: it styles a preset's offer to compare it)
  const loadPresets = () => (presetting ||= Promise.all([
    code("./presets.js", "the preset menus"),
    spec.presets_src ? loadData(spec.presets_src, "the preset menus", tellOnce("the preset menus")) : spec.presets,
  ]).then(([module, full]) => {
    if (!module || !full) { presetting = null; return; }
    if (!alive() || !presetBox) return;
    compareStyles();
    spec.presets = full;
    presets = module.setupPresets(spec, form, link, touched);
    if (Object.keys(link.presets).length) restore();   // the reader's own values stay over the link's presets
    heldPresets.replay();
    loadCompare();   // a preset chosen can be compared ("Compare the current preset")
  }));
  const loadCompare = () => (comparing ||= compareBox ? loadPresets().then(() => code("./compare.js", "the comparison")).then((module) => {
    if (!module) { comparing = null; return; }
    if (!alive()) return;
    compare = module.setupCompare({
      spec, form, runner, rawInputs, units, presets, limit, alive,
      uplot: script.dataset.uplot,
      uplotCss: script.dataset.uplotCss,
      listed: link.compare,
      shown: () => shown,
      changed: () => { if (ready) form.dispatchEvent(new Event("input")); },   // computed again, so the link carries the list
    });
    heldCompare.replay();
  }) : Promise.resolve());
  // A choice held for its code is a question the page has not answered yet (data-asking), until
  // the code is in and the choice made again: its link is not yet the page's link.
  firstUse(presetBox, loadPresets, (menu) => { if (presets === NO_PRESETS) { heldPresets.hold(menu); tracked(loadPresets()); } });
  firstUse(compareBox, loadCompare, (menu) => { if (compare === NO_COMPARE) { heldCompare.hold(menu); tracked(loadCompare()); } });
  if (presetBox && Object.keys(link.presets).length) need(loadPresets());
  if (link.compare.length) need(loadCompare());

  linked = { ...link.inputs };
  for (const [name, value] of Object.entries(linked)) form.elements[name].value = value;
  // ?version=N: that version's results beside these (versions.js)
  if (link.version !== null) {
    const what = "the older version's results";
    need(code("./versions.js", what).then((module) => module && alive() && module.setupVersions({
      spec, form, addNotice, alive, asked: link.version, load: (url) => loadData(url, what, tellOnce(what)),
    })));
  }
  setupNotation();   // the statement's symbols and their fields light each other
  // "Every model": its code (every.js) loads when the reader first opens a table, which it fetches then.
  for (const box of document.querySelectorAll("details.every[data-src]")) {
    const open = () => code("./every.js", "the \u201cEvery model\u201d table").then((module) => {
      if (!module) { box.addEventListener("toggle", open, { once: true }); return; }   // tried again when opened again
      every = module;
      if (alive()) module.setupEvery({ write: writeInUnits, units });
    });
    if (box.open) open();   // open already (a link to #every-model, a restored page)
    else box.addEventListener("toggle", open, { once: true });
  }
  // "Paste a config.json": its code loads on first use (config.js), so the page's first load does not grow.
  const pasteBox = document.getElementById("presets");
  let configuring = null;
  const openConfig = () => (configuring ||= code("./config.js", "pasting a config.json").then((m) => {
    if (!m) { configuring = null; return null; }
    return m.setupConfig({ spec, form, runner, addNotice, box: pasteBox, raw: rawInputs });
  }));
  const pasteButton = document.getElementById("config-paste");
  const paste = () => openConfig().then((c) => { if (c) { c.open(); pasteButton.removeEventListener("click", paste); } });
  pasteButton?.addEventListener("click", paste);
  pasteBox?.addEventListener("dragover", (event) => event.preventDefault());
  pasteBox?.addEventListener("drop", (event) => { event.preventDefault(); openConfig().then((c) => c && c.drop(event.dataTransfer)); });
  if (Object.keys(linked).length) {
    outputs.classList.add("stale");
    setStatus("loading", "The link's inputs will be computed as soon as Python is ready.");
  }
  // Back or forward to this page: the inputs as the reader left them (again after the link's
  // presets, when their code arrives after this), but those changed since.
  const kept = left.get(historyEntry());
  function restore() {
    if (!kept || kept.entry !== spec.id) return;
    for (const [name, value] of Object.entries(kept.raw)) {
      if (!names.has(name) || touched.has(name)) continue;
      form.elements[name].value = value;
      delete linked[name];   // the reader's own value, computed as typed
    }
    outputs.classList.add("stale");   // until Python has computed them
  }
  restore();
  if (kept && kept.entry === spec.id) for (const menu of unitMenus) menu.value = kept.units[menu.dataset.family] || "";

  form.addEventListener("input", (event) => {
    solve.input(event);   // an asked question is solved again, or dropped when its freed input is typed over
    if (event.target !== form && event.target.name) touched.add(event.target.name);
    typed = event.target.tagName === "INPUT";   // a menu's choice is not typing
    remember();
    if (!ready) {
      // Python is still loading: every result shown is for other values from now on.
      outputs.classList.add("stale");
      if (status.dataset.state === "loading") setStatus("loading", "Loading Python… your values will be computed as soon as it is ready.");
    }
    if (!solve.active()) recompute();   // an asked question is solved again there, its run shown
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  form.addEventListener("change", (event) => {
    if (event.target.tagName !== "INPUT") return;   // a menu's run writes its link at once anyway
    committed = sent;   // runs asked until now: their link is written as soon as they answer
    if (pendingShare) writeShare();
  });

  document.getElementById("copy-link").addEventListener("click", async () => {
    const feedback = document.getElementById("copy-feedback");
    if (pendingShare) writeShare();   // the newest run's link, not the one typing left behind
    const url = shared();
    try {
      await navigator.clipboard.writeText(url);
      feedback.textContent = "Link copied.";
    } catch (err) {
      feedback.textContent = `Copy this link: ${url}`;
    }
  });

  document.getElementById("copy-python").addEventListener("click", () => {
    if (pendingShare) writeShare();   // the newest run's link, as Copy link has it
    code("./python_copy.js", "\u201cCopy as Python\u201d").then((m) => m && m.copyAsPython(runner, spec, linkPairs(shared())));
  });

  // The card as an image: its buttons at once, its code (card.js) on the first press.
  const cardBox = document.getElementById("card-actions");
  if (cardBox) {
    cardBox.hidden = false;
    cardBox.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-card]");
      if (button) code("./card.js", "the card's image").then((m) => m && m.handCard(button, { spec, shown: () => shown, link: () => shared({ card: true }) }));
    });
  }
  // On a slide: the inputs that matter, as many as fit whole under the headline (embed.js), once
  // the link's presets have filled them.
  if (root.classList.contains("embed")) {
    Promise.all(needed).then(() => code("./embed.js", "the embed card")).then((m) => {
      if (!m || !alive()) return;
      m.readOnlyInputs();
      card = m.setupEmbed({ spec, form, link, presets: { filled: () => presets.filled(), chosen: () => presets.chosen() }, page: () => shared() });
    });
  }

  // Python starts loading at once: the worker downloads and compiles on its own thread while the
  // page paints (the results for the defaults are already in the HTML).  On a page a link
  // brought in, it is running already: only this entry's formula is loaded.
  startPython();
}

// What the page left behind: timers, watchers and charts.
function leavePage() {
  current = null;
  clearTimeout(shareTimer);
  clearTimeout(extrasTimer);
  if (seen) seen.disconnect();
  for (const watcher of near) if (watcher) watcher.disconnect();
  near = [];
  if (charts) charts.then((c) => c && c.close(), () => {});
  seen = charts = null;
  chartsAsked = false;
  told.clear();
  if (runner) runner.onrestart = null;
  if (compare) compare.close();
  if (card) card.close();
  compare = card = null;
  for (const key of ["python", "replies", "charts", "watchdog", "link"]) delete root.dataset[key];
  root.classList.remove("practice");
}

initPage();
document.addEventListener("turbo:render", initPage);
document.addEventListener("turbo:before-render", leavePage);
// A visit to another page starts at the click, with that page's address in the bar while this
// one stays on screen: from then on "ready" would be said of the wrong page, until the page on
// its way says it of itself (as plan.js does).
document.addEventListener("turbo:visit", (event) => {
  const to = event.detail && event.detail.url;
  if (current && to && new URL(to, location.href).pathname !== current.path) delete root.dataset.python;
});
