// A plan's page: reads the plan's spec, sends the reader's raw inputs to the same Python worker
// as the entry pages (runtime/plan.py in Pyodide), shows every answer with the link to the entry
// that priced it (carrying the inputs the plan gave it), keeps the address bar a link with every
// changed input, fills inputs from presets, and asks the plan backwards.  The page is complete
// without this script: the answers for the defaults are in the HTML.
import { WATCHDOG_MS, running, runner } from "./python.js";
import { TYPING_PAUSE_MS, begin, publish, readLink, shared } from "./link.js";
import { announce, setupAnnounce } from "./announce.js";
import { firstUse, loadCode, loadData } from "./ondemand.js";

const done = new WeakSet();
let state = null;   // this page's: {spec, form, ...}; a reply for a page the reader left is dropped

// A reply is written where it differs from what is shown: an edit changes a few of the page's many
// figures and links, and a text or attribute written again, even unchanged, is laid out and
// painted again.
function text(el, value) { if (el && el.textContent !== value) el.textContent = value; }
function attribute(el, name, value) { if (el.getAttribute(name) !== value) el.setAttribute(name, value); }

function setStatus(status, state, message) {
  if (status.dataset.state !== state) status.dataset.state = state;
  text(status, message);
}

function notice(message) {
  const box = document.getElementById("notice");
  if (!box) return;
  const p = document.createElement("p");
  p.textContent = message;   // link text is never markup
  box.append(p);
  box.hidden = false;
}

function raw() {
  const values = {};
  for (const i of state.spec.inputs) {
    const field = document.getElementById(`in-${i.name}`);
    if (field) values[i.name] = field.value;
  }
  return values;
}

async function ready() {
  const mine = state;
  await running();
  if (mine.loadedIn !== runner.generation) {
    await runner.call("plan_load", { spec: mine.spec }, WATCHDOG_MS * 3);
    mine.loadedIn = runner.generation;
  }
  if (mine === state && !mine.ready) {   // the page's signal, as an entry page's: its plan loaded in Python
    mine.ready = true;
    performance.clearMarks("python-ready");   // one a page, not one a page visited
    performance.mark("python-ready");
    document.documentElement.dataset.python = "ready";
  }
}

function showErrors(errors) {
  for (const i of state.spec.inputs) {
    const box = document.getElementById(`err-${i.name}`);
    const message = errors[i.name];
    if (box) { if (box.hidden !== !message) box.hidden = !message; text(box, message || ""); }
    const field = document.getElementById(`in-${i.name}`);
    if (field && field.hasAttribute("aria-invalid") !== Boolean(message)) field.toggleAttribute("aria-invalid", Boolean(message));
  }
  if (errors.inputs) notice(errors.inputs);
}

// The address bar, the share link and the card's link are written at once after a run that was
// not asked by typing (the first, a menu, a preset, a solve); after typing, once the reader pauses,
// so that the browser's history is not written at every keystroke (link.js's TYPING_PAUSE_MS, as on
// an entry page).  The answers themselves are shown at once.  data-link: "pending" until the newest
// run's link is written.
let linkTimer = null;

function show(value, byTyping = false) {
  for (const [name, out] of Object.entries(value.outputs)) {
    const el = document.getElementById(`out-${name}`);
    text(el, out.flag || out.text);
    if (el) el.classList.toggle("flag", Boolean(out.flag));
  }
  for (const mirror of document.querySelectorAll("[data-mirror]")) {
    const out = value.outputs[mirror.dataset.mirror];
    if (out) text(mirror, out.text);
  }
  for (const link of document.querySelectorAll("a[data-step]")) {
    const step = value.steps[link.dataset.step];
    if (step) attribute(link, "href", step.href);   // an SVG link too (its href is read-only)
  }
  const presets = {};
  for (const kind of ["model", "hardware"]) {
    const menu = document.getElementById(`preset-${kind}`);
    if (menu && menu.value && state.filled[kind]) presets[kind] = { id: menu.value };
  }
  const mine = state;
  clearTimeout(linkTimer);
  mine.root.dataset.link = "pending";
  linkTimer = setTimeout(() => { if (mine === state) writeLink(value.query, presets); }, byTyping ? TYPING_PAUSE_MS : 0);
  state.root.dataset.planState = "computed";
}

function writeLink(query, presets) {
  // the link's grammar is link.js's, as on an entry; Python chose the inputs it carries (the
  // changed ones), and the plan's version computed it
  const embed = document.documentElement.classList.contains("embed");
  publish({ question: null, presets, inputs: linkInputs(query, presets), units: {}, show: [], version: state.spec.version || null, embed });
  const share = document.getElementById("plan-share");
  if (share) share.href = shared();
  if (embed) showCard(query, presets);
  state.written = { query, presets };
  state.root.dataset.link = "written";
}

// What the link set, to say on a card: each chosen preset by its name, then each changed input with
// its label, as typed; an input a preset filled is said by the preset's name alone.
function chosen(kind, presets) {
  return (state.spec.presets[kind] || []).find((p) => p.id === presets[kind].id);
}

// name -> the value the chosen presets give it, as the link would carry it.
function presetValues(presets) {
  const values = {};
  for (const kind of Object.keys(presets)) {
    for (const [name, [value]] of Object.entries((chosen(kind, presets) || {}).values || {})) values[name] = String(value);
  }
  return values;
}

// The link's inputs: those Python says changed from the plan's defaults, less those a chosen preset
// sets to the same value (its name in the link sets them again), as an entry's link does.
function linkInputs(query, presets) {
  const fromPreset = presetValues(presets);
  return Object.fromEntries(Object.entries(query).filter(([name, value]) => fromPreset[name] !== String(value)));
}

function linkSet(query, presets) {
  const labels = state.spec.labels || {};
  const named = Object.keys(presets).map((kind) => {
    const preset = chosen(kind, presets);
    const kindLabel = (state.spec.kinds || {})[kind] || kind;   // "model", "accelerator"
    return { label: kindLabel[0].toUpperCase() + kindLabel.slice(1), value: preset ? preset.name : presets[kind].id };
  });
  const typed = Object.entries(linkInputs(query, presets)).map(([name, value]) => ({ label: labels[name] || name, value: String(value) }));
  return [...named, ...typed];
}

// The embed card's line of what its link set, and its link to the full plan with the same inputs.
function showCard(query, presets) {
  const set = linkSet(query, presets).map((item, n) => (n < Object.keys(presets).length ? item.value : `${item.label} ${item.value}`));
  text(document.getElementById("plan-embed-set"), set.length ? set.join(" · ") : `${state.spec.title || "The plan"} at its defaults.`);
  const link = document.getElementById("plan-embed-link");
  if (link) link.href = shared();
}

// The card as an image (card.js draws it, loaded on the first click): the headline answers, what
// the link set, the link.
function cardContent() {
  const shownText = (el) => (el ? el.textContent.replace(/\s+/g, " ").trim() : "");
  const written = state.written || { query: {}, presets: {} };
  const results = (state.spec.headline || []).map((name) => ({
    label: shownText(document.querySelector(`#output-${name} dt .label`)) || name,
    value: shownText(document.getElementById(`out-${name}`)),
  }));
  // A yes or no ("Fits on each device") is said beside the kicker; the figures take the card's size.
  const yesNo = results.filter((r) => r.value === "yes" || r.value === "no");
  return {
    kicker: ["Plan · Derivation Bank", ...yesNo.map((r) => `${r.label}: ${r.value}`)].join(" · "),
    title: state.spec.title || shownText(document.querySelector("article.plan h1")),
    results: results.filter((r) => !yesNo.includes(r)),
    inputs: linkSet(written.query, written.presets),
    link: shared(),
    comparison: null,
  };
}

function setupCardImage() {
  const box = document.getElementById("card-actions");
  if (!box) return;
  box.hidden = false;
  box.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-card]");
    if (button) {
      if (state) loadCode("./card.js", "the card's image", notice).then((m) => m && state && m.handCard(button, { spec: state.spec, content: cardContent, name: `plan-${state.spec.id}` }));
    }
  });
}

async function recompute(byTyping = false) {
  const mine = state;
  if (!mine) return;   // a late event on a page being left
  const sent = ++mine.sent;
  const status = document.getElementById("py-status");
  try {
    await ready();
    const reply = await runner.call("plan_run", { plan: mine.spec.id, raw: raw() }, WATCHDOG_MS);
    if (mine !== state || sent !== mine.sent) return;   // a newer edit, or another page
    if (!reply.ok) {
      showErrors(reply.errors);
      mine.root.dataset.planState = "error";
      mine.root.dataset.replies = String(sent);   // the page's signal: this edit's reply is on screen
      setStatus(status, "error", "Some inputs need fixing; the answers shown are for the last valid inputs.");
      return;
    }
    showErrors({});
    show(reply.value, byTyping);
    mine.root.dataset.replies = String(sent);
    announce();   // one summary for a screen reader, once the reader pauses
    setStatus(status, "ready", "Answers computed in your browser by the entries' own Python.");
  } catch (err) {
    if (mine !== state) return;
    if (!mine.ready) document.documentElement.dataset.python = "failed";
    setStatus(status, "error", `Python could not compute: ${String(err.message || err).slice(0, 200)}`);
  }
}

// The presets' values and sources (presets.json beside the page; the spec names them by id),
// fetched on the reader's first reach into a preset menu, or at once for a link that names one.
// Resolves true once they are in the spec; false when they could not be fetched (said once).
function presetData(mine) {
  if (!mine.spec.presets_src) return Promise.resolve(true);
  return (mine.presetData ||= loadData(mine.spec.presets_src, "the preset menus", (text) => {
    if (!mine.told) notice(text);
    mine.told = true;
  }).then((full) => {
    if (!full) { mine.presetData = null; return false; }
    mine.spec.presets = full;
    return true;
  }));
}

function applyPreset(kind, id) {   // an id the menu offers, or one link.js found in the spec
  const preset = (state.spec.presets[kind] || []).find((p) => p.id === id);
  if (!preset) return false;
  for (const [name, [value, source, field]] of Object.entries(preset.values)) {
    const input = document.getElementById(`in-${name}`);
    if (!input) continue;
    input.value = value;
    const note = document.getElementById(`source-${name}`);
    const cite = preset.sources[source] || {};
    if (note) {
      note.hidden = false;
      note.textContent = `From ${preset.name}: ${field}${cite.title ? ` (${cite.title}, ${cite.where})` : ""}`;
    }
  }
  document.getElementById(`preset-${kind}`).value = id;
  state.filled[kind] = id;
  // Where an entry's own count of the model is not its architecture's, the page says so once.
  document.getElementById(`departs-${kind}`)?.remove();
  if (preset.departs) {
    const line = document.createElement("p");
    line.className = "preset-departs";
    line.id = `departs-${kind}`;
    line.textContent = preset.departs;
    document.getElementById("plan-presets")?.append(line);
  }
  return true;
}

// What the link asks, read by link.js (the one reader of a page's query): presets, inputs and
// the version; a choice's value must be one it offers.
// Resolves once the link's presets are filled in (their values fetched first) and its inputs over them.
async function applyLink() {
  const mine = state;
  const link = readLink(location.search, state.spec);
  if (Object.keys(link.presets).length && !(await presetData(mine))) link.presets = {};
  if (mine !== state) return;
  for (const [kind, id] of Object.entries(link.presets)) applyPreset(kind, id);
  if (link.version !== null) {   // a whole number up to the plan's own: the plan computes as it is now
    const current = state.spec.version || 1;
    const value = link.version;
    if (!/^[1-9][0-9]{0,5}$/.test(value) || Number(value) > current) {
      notice(`Ignored the link's version “${value.slice(0, 40)}”: this plan has version${current > 1 ? "s 1 to " : " "}${current}.`);
    } else if (Number(value) < current) {
      notice(`This link names version ${value} of the plan; it is now at version ${current} (see the change log), and computes with it.`);
    }
  }
  for (const [name, value] of Object.entries(link.inputs)) {
    const field = document.getElementById(`in-${name}`);
    if (!field) continue;
    if (field.tagName === "SELECT" && ![...field.options].some((o) => o.value === value)) {
      notice(`Ignored the link's value for ${state.spec.labels[name] || name}: “${value.slice(0, 40)}” is not one of its choices.`);
      continue;
    }
    field.value = value.slice(0, 200);   // shown as text; Python reads it or says what is wrong
  }
  for (const line of link.notices) notice(line);
}

async function solveBackwards(event) {
  event.preventDefault();
  const mine = state;
  if (!mine) return;
  const answer = document.getElementById("solve-answer");
  const question = {
    input: document.getElementById("solve-input").value,
    output: document.getElementById("solve-output").value,
    sense: document.getElementById("solve-sense").value,
    target: document.getElementById("solve-target").value,
  };
  answer.textContent = "Solving…";
  try {
    await ready();
    // a search runs the plan many times: on a loaded or slow machine it needs far longer than one run
    const reply = await runner.call("plan_solve", { plan: mine.spec.id, raw: raw(), question }, WATCHDOG_MS * 10);
    if (mine !== state) return;
    if (!reply.ok) { answer.textContent = Object.values(reply.errors).join(" "); return; }
    answer.textContent = reply.value.message;
    const found = reply.value.solutions[0];
    if (found) {
      document.getElementById(`in-${question.input}`).value = found.text.replace(/\u00a0/g, " ");
      mine.root.dataset.solved = question.input;
      await recompute();
    }
  } catch (err) {
    if (mine === state) answer.textContent = `Could not solve: ${String(err.message || err).slice(0, 200)}`;
  } finally {
    // the page's signal: the question's answer is on screen, and its results with it
    if (mine === state) mine.root.dataset.solves = String(Number(mine.root.dataset.solves || 0) + 1);
  }
}

function initPlan() {
  const specElement = document.getElementById("plan-spec");
  if (!specElement || done.has(specElement)) return;
  done.add(specElement);
  begin();   // the link starts from this page's own address
  state = {
    spec: JSON.parse(specElement.textContent),
    root: document.querySelector("article.plan"),
    path: location.pathname,
    sent: 0,
    loadedIn: -1,
    ready: false,
    filled: {},
    told: false,   // the presets' values could not be fetched, and the reader was told so
  };
  setupAnnounce();
  const form = document.getElementById("plan-inputs");
  // Typing computes at once (a run takes milliseconds; a newer reply supersedes an older one); a
  // menu is computed by its change event.
  form.addEventListener("input", (event) => { if (event.target.tagName !== "SELECT") recompute(true); });
  form.addEventListener("change", (event) => {
    if (!state) return;   // a late event on a page being left
    const menu = event.target, kind = menu.dataset && menu.dataset.kind;
    if (kind && menu.value) {   // filled once the presets' values are in (at once after the first time)
      const mine = state, id = menu.value;
      presetData(mine).then((ok) => {
        if (mine !== state || menu.value !== id) return;   // left, or another choice made since
        if (ok) applyPreset(kind, id);
        else menu.value = state.filled[kind] || "";   // not filled: the menu says what is
        recompute();
      });
      return;
    }
    if (kind) delete state.filled[kind];
    recompute();
  });
  firstUse(document.getElementById("plan-presets"), () => state && presetData(state));
  form.addEventListener("submit", (event) => event.preventDefault());
  document.getElementById("plan-solve-form").addEventListener("submit", solveBackwards);
  document.getElementById("plan-copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(shared()); } catch { /* the link is in the address bar */ }
  });
  setupCardImage();
  const mine = state;
  // the link's inputs, or the defaults once Python is ready (the HTML holds the build's)
  applyLink().then(() => { if (mine === state) recompute(); });
}

initPlan();
document.addEventListener("turbo:render", initPlan);
// Leaving (a visit starts at the click; the page stays on screen until the next one renders): this
// page's replies, its pending link and its signals are dropped, so that nothing it still had on
// its way writes the next page's address or its answers (whose ids are the same).  The page on
// its way says when its own Python is ready.
document.addEventListener("turbo:visit", (event) => {
  if (!state) return;
  if (state.root.isConnected && new URL(event.detail.url).pathname !== state.path) {
    delete document.documentElement.dataset.python;
  }
  clearTimeout(linkTimer);
  state = null;
});
