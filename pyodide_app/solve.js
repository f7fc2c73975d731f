// Asking an entry backwards: the reader picks a numeric result, a target for it (=, ≤, ≥) in the
// units shown, and the input to free; Python solves for that input, which is filled in and marked
// solved, and every result is recomputed there.  The question lives in the address bar as
// ?solve=<input>&<output><=<target> (also >=, =), so it can be linked, embedded and cited.
const SENSES = { "=": "=", "<=": "≤", ">=": "≥" };
const MAX_TARGET = 60;   // characters of a linked target: a number with a unit is far shorter

// The question a link asks, read once.  ``keys``: the query names it used, which the page's
// forward parameters leave alone; ``problems``: why it is ignored, for the notice.
function fromLink(params, spec) {
  const found = { question: null, keys: new Set(), problems: [] };
  const free = params.getAll("solve");
  if (!free.length) return found;
  found.keys.add("solve");
  const targets = [];
  for (const [key, value] of params) {
    const sense = /[<>]$/.test(key) ? `${key.slice(-1)}=` : "=";
    const name = sense === "=" ? key : key.slice(0, -1);
    if (sense !== "=" || spec.outputs.some((o) => o.name === name)) {
      found.keys.add(key);
      targets.push({ output: name, sense, target: value });
    }
  }
  const short = (text) => `“${text.slice(0, 40)}”`;
  const says = (why) => found.problems.push(`Ignored the link's question: ${why}`);
  const input = spec.inputs.find((i) => i.name === free[0]);
  if (free.length > 1) says("it frees more than one input; ask for one at a time.");
  else if (!spec.solve) says("this entry has no numeric input and result to solve with (list inputs cannot be freed).");
  else if (!input) says(`this entry has no input ${short(free[0])} to solve for.`);
  else if (!spec.solve.inputs.includes(input.name)) says(`${input.name} is a ${input.type} input, and only a numeric input can be freed.`);
  else if (targets.length !== 1) says(targets.length ? "it sets more than one target; ask one at a time." : "it names no target, e.g. total<=80GB.");
  else if (!spec.solve.outputs.includes(targets[0].output)) says(`this entry has no numeric result ${short(targets[0].output)}.`);
  else if (!targets[0].target.trim() || targets[0].target.length > MAX_TARGET) says(`the target for ${targets[0].output} is ${targets[0].target.trim() ? "too long" : "empty"}.`);
  else found.question = { input: input.name, ...targets[0] };
  return found;
}

function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}

function line(text, className = "") {
  const p = document.createElement("p");
  p.textContent = text;   // never markup: a target may come from anyone's link
  if (className) p.className = className;
  return p;
}

// ``page``: what page.js lends: spec, form, runner, rawInputs(), units(), recompute(),
// showSolved(run), addNotice(text), today(), watchdog (ms).  Returns the hooks page.js calls.
export function setupSolve(page) {
  const { spec, form, runner } = page;
  const root = document.documentElement;
  const panel = document.getElementById("solve");
  const link = fromLink(new URLSearchParams(location.search), spec);
  const hooks = { keys: link.keys, ask: async () => {}, active: () => false, share: (s) => s, search: (q) => String(q), pretty: (u) => u };
  for (const text of link.problems) page.addNotice(text);
  if (!panel || !spec.solve) return hooks;

  const el = (id) => document.getElementById(id);
  const [outputMenu, senseMenu, targetBox, inputMenu] = ["solve-output", "solve-sense", "solve-target", "solve-input"].map(el);
  const answer = el("solve-answer"), error = el("solve-err"), clear = el("solve-clear");
  for (const name of spec.solve.outputs) outputMenu.append(option(name, spec.labels[name]));
  for (const name of spec.solve.inputs) inputMenu.append(option(name, `${spec.labels[name]} (${name})`));
  outputMenu.value = spec.solve.output;
  inputMenu.value = spec.solve.input;
  panel.hidden = false;

  let active = null;   // the question applied to the page: {input, output, sense, target}
  let chosen = 0;      // which of several solutions the reader picked
  let last = null;     // the newest answer shown
  let asked = 0;       // sequence number of the newest question; older answers are dropped

  // The target box shows the result as it now reads, which is also how to type one.
  const hint = () => { targetBox.placeholder = el(`out-${outputMenu.value}`).textContent; };
  hint();

  function question() {
    return { input: inputMenu.value, output: outputMenu.value, sense: senseMenu.value, target: targetBox.value.trim() };
  }

  function fill(q) {
    inputMenu.value = q.input;
    outputMenu.value = q.output;
    senseMenu.value = q.sense;
    targetBox.value = q.target;
    hint();
  }

  function says(text) {
    error.hidden = !text;
    error.textContent = text || "";
    targetBox.setAttribute("aria-invalid", text ? "true" : "false");
  }

  // The freed input's mark: visible, and part of the field's description for screen readers.
  function mark(q, stale = false) {
    for (const field of form.querySelectorAll(".field.solved")) {
      field.classList.remove("solved", "stale");
      field.querySelector(".solved-note").remove();
      const box = form.elements[field.id.slice("input-".length)];
      box.setAttribute("aria-describedby", box.getAttribute("aria-describedby").replace(/ ?solved-note/, ""));
    }
    for (const r of document.querySelectorAll(".result.solve-aim")) r.classList.remove("solve-aim");
    if (!q) return;
    const field = el(`input-${q.input}`), box = form.elements[q.input];
    field.classList.add("solved");
    field.classList.toggle("stale", stale);
    const note = line(stale ? `Stale: solved for ${describe(q)} at the earlier inputs.` : `Solved: the value where ${describe(q)}.`, "solved-note");
    note.id = "solved-note";
    field.append(note);
    box.setAttribute("aria-describedby", `${box.getAttribute("aria-describedby")} solved-note`);
    el(`output-${q.output}`).classList.add("solve-aim");
  }

  function describe(q) {
    const label = spec.labels[q.output];   // "Bubble as a percentage" mid-sentence; "KV cache size" as it is
    return `${/^[A-Z][a-z]/.test(label) ? label[0].toLowerCase() + label.slice(1) : label} ${SENSES[q.sense]} ${q.target}`;
  }

  function staleMark() {
    if (!active) return;
    panel.classList.add("stale");
    mark(active, true);
  }

  function stop() {
    active = null;
    last = null;
    mark(null);
    answer.replaceChildren();
    clear.hidden = true;
    panel.classList.remove("asked", "stale");
  }

  // The answer as text: the solver's sentence, the value chosen, and for a whole number the
  // neighbour that misses; several solutions are offered as a choice.
  function showAnswer(value) {
    const solutions = value.solutions || [];
    const parts = [line(value.message, value.status === "none" ? "solve-none" : "")];
    if (solutions.length === 1) parts.unshift(line(`${value.input} = ${solutions[0].text}`, "solve-value"));
    if (value.status === "none") parts.unshift(line(`No ${value.input} gives it`, "solve-value"));
    if (solutions.length > 1) {
      const group = document.createElement("fieldset");
      group.className = "solve-choices";
      const legend = document.createElement("legend");
      legend.textContent = `${solutions.length} values of ${value.input} meet it; show the results at:`;
      group.append(legend);
      solutions.forEach((s, i) => {
        const label = document.createElement("label");
        const radio = Object.assign(document.createElement("input"), { type: "radio", name: "solve-choice", value: String(i), checked: i === chosen });
        radio.addEventListener("change", () => { chosen = i; apply(value); });
        label.append(radio, ` ${value.input} = ${s.text}`);
        group.append(label);
      });
      parts.push(group);
    }
    const s = solutions[chosen];
    if (s && s.neighbour && !value.message.includes(`${value.input} = ${s.neighbour.text} gives`)) {
      parts.push(line(`${value.input} = ${s.text} meets it; ${value.input} = ${s.neighbour.text} gives ${s.neighbour.output_text}, which misses.`, "solve-neighbour"));
    }
    answer.replaceChildren(...parts);
  }

  // The answer's run is complete (results, link, citation): shown as it is, not computed again.
  async function apply(value) {
    const s = (value.solutions || [])[chosen];
    if (s) {
      form.elements[value.input].value = s.text;
      mark(active);
    } else {
      mark(null);
    }
    showAnswer(value);
    panel.classList.remove("stale");
    if (s) page.showSolved(s.run);
    else await page.recompute();   // no value meets it: the results at the inputs as they are
    root.dataset.solves = String(Number(root.dataset.solves || 0) + 1);
  }

  // Solve the question ``q`` at the other inputs as they are.  ``linked``: it came from the
  // address bar, so a question Python rejects is ignored with a notice.
  async function ask(q, linked = false) {
    const seq = ++asked;
    const raw = page.rawInputs();
    delete raw[q.input];   // freed: its value is what is asked for
    panel.classList.add("asked");
    // An answer that takes a while shows the last one as stale meanwhile (a quick one, as most
    // are, would only make the mark flicker as the reader types).
    const slow = setTimeout(() => { if (seq === asked) staleMark(); }, 150);
    let reply;
    try {
      reply = await runner.call("solve", { entry: spec.id, raw, question: q, accessed: page.today(), units: page.units() }, page.watchdog);
    } catch (err) {
      clearTimeout(slow);
      if (seq !== asked) return;
      stop();
      says(`Not solved: ${err.message}.`);
      return;
    }
    clearTimeout(slow);
    if (seq !== asked) return;
    if (!reply.ok) {
      const other = Object.keys(reply.errors).filter((n) => n !== q.input && spec.inputs.some((i) => i.name === n));
      if (other.length && !linked) {
        // An input the reader is still typing: its field says what is wrong; the answer waits.
        active = q;
        mark(q, true);
        answer.replaceChildren(line(`Waiting for valid inputs (${other.join(", ")}) to solve again.`, "solve-wait"));
        page.recompute();   // its field says what is wrong
        return;
      }
      const why = Object.entries(reply.errors).map(([n, m]) => ([q.input, q.output, "solve"].includes(n) ? m : `${n}: ${m}`)).join("; ");
      if (linked) {
        stop();
        page.addNotice(`Ignored the link's question: ${why}`);
        return;
      }
      // A question being edited: the panel says what is wrong, and the last answer stays, marked
      // stale, until it is fixed (as the results do for a wrong input).
      says(why);
      staleMark();
      page.recompute();   // the results follow the inputs as they are (the page left them to the answer)
      return;
    }
    says("");
    active = q;
    last = reply.value;
    if (chosen >= (last.solutions || []).length) chosen = 0;
    clear.hidden = false;
    await apply(last);
  }

  panel.addEventListener("submit", (event) => {
    event.preventDefault();
    chosen = 0;
    const q = question();
    if (!q.target) { says("Type a target, e.g. the result as it reads now."); targetBox.focus(); return; }
    if (!page.ready()) { says("Python is still loading: solve again in a moment."); return; }
    ask(q);
  });
  // Once a question is asked, changing it asks again, as a forward input recomputes.
  panel.addEventListener("input", (event) => {
    if (event.target === targetBox || event.target === outputMenu) hint();
    if (active && event.target.name !== "solve-choice" && question().target && page.ready()) { chosen = 0; ask(question()); }
  });
  clear.addEventListener("click", () => { stop(); page.recompute(); targetBox.focus(); });
  // Another input changed: the question stands, so it is solved again there.  The freed input
  // typed over by the reader: the question is dropped, and the typed value computed.
  form.addEventListener("input", (event) => {
    if (!active) return;
    if (event.target.name === active.input) stop();
    else ask(active);
  });
  for (const menu of document.querySelectorAll(".unit-menus select")) {
    menu.addEventListener("change", () => { if (active) ask(active); else hint(); });
  }
  new MutationObserver(hint).observe(el("outputs"), { childList: true, subtree: true, characterData: true });

  if (link.question) fill(link.question);
  hooks.ask = () => (link.question ? ask(link.question, true) : Promise.resolve());
  hooks.active = () => active !== null;
  // The citation of an inverse question: the computation at the value shown (a run's ``share``),
  // cited by the link that asks the question again (the freed input's value is the answer, not a given).
  hooks.share = (share) => {
    if (!active || share.url.includes("solve=")) return share;
    const q = active;
    const url = hooks.pretty(`${spec.meta.url}?${hooks.search(share.query)}`);
    const asks = `solved for ${q.input} where ${describe(q)}, computed with`;
    const cite = (text) => text.split(share.url).join(url).replace("computed with", asks);
    return { ...share, url, text: cite(share.text), bibtex: cite(share.bibtex) };
  };
  // The address bar's query: the forward inputs the reader changed, less the freed one, and the
  // question written as it reads (solve=s&total<=80GB).
  hooks.search = (query) => {
    const q = new URLSearchParams(query);
    if (!active) return q.toString();
    for (const key of [...q.keys()]) {
      if (key === "solve" || key === active.input || /[<>]$/.test(key) || key === active.output) q.delete(key);
    }
    const asked = `solve=${encodeURIComponent(active.input)}&${encodeURIComponent(active.output)}${active.sense}${encodeURIComponent(active.target)}`;
    return [asked, q.toString()].filter(Boolean).join("&");
  };
  // A copied link reads as it was written: browsers keep < and > escaped in the address bar.
  hooks.pretty = (url) => url.replace(/%3C=/g, "<=").replace(/%3E=/g, ">=");
  return hooks;
}
