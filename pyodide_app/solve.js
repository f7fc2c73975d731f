// Asking an entry backwards: the reader picks a numeric result, a target for it (=, ≤, ≥) in the
// units shown, and the input to free; Python solves for that input, which is filled in and marked
// solved, and every result is recomputed there.  The question lives in the address bar as
// ?solve=<input>&<output><=<target> (also >=, =), so it can be linked, embedded and cited: link.js
// reads and writes it, and Python cites the answer as the answer to it.
const SENSES = { "=": "=", "<=": "≤", ">=": "≥" };

function line(text, className = "") {
  const p = document.createElement("p");
  p.textContent = text;   // never markup: a target may come from anyone's link
  if (className) p.className = className;
  return p;
}

// ``page``: what page.js lends: spec, form, runner, rawInputs(), units(), recompute(),
// showSolved(run, state), addNotice(text), today(), watchdog (ms), linkState(question) (the
// page's link state, asking ``question``), citedQuery(state), tracked(promise) (counts a request
// until answered), ``question``: the one the link asks (link.js), and ``picked``: the freed
// input's value the link carries (which of several answers, or the value none met).  ``shown``:
// the panel as the page showed it before this code arrived (ondemand.js's solvePanel: its menus
// filled, the target's placeholder kept up to date).
// Returns the hooks page.js calls: ask() (the link's question), active(), question(),
// carriesFreed(), submit() (the panel's question, asked), input(event) (the page's inputs changed).
export function setupSolve(page, shown) {
  const { spec, form, runner } = page;
  const root = document.documentElement;
  const { panel, outputMenu, senseMenu, targetBox, inputMenu, error, reading, hint } = shown;
  const el = (id) => document.getElementById(id);
  const answer = el("solve-answer"), clear = el("solve-clear");
  const hooks = {};
  const echo = (text) => { reading.hidden = !text; reading.textContent = text || ""; };

  let active = null;   // the question applied to the page: {input, output, sense, target}
  let chosen = 0;      // which of several solutions the reader picked
  let last = null;     // the newest answer shown
  let asked = 0;       // sequence number of the newest question; older answers are dropped


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

  // The answer, first among the results and in the phone's bar: the freed input's value (or
  // that none meets the target) and the target it meets, as the results show it there.
  function headline(value, s) {
    const result = el("solved-result"), bar = el("bar-solved");
    if (!result) return;
    result.hidden = bar.hidden = !value;
    result.classList.remove("stale");
    if (!value) return;
    const label = spec.labels[active.input];
    const text = s ? s.shown : "None meets it";   // Python writes it, in the results' scale (268.4 GB)
    const met = s && s.run.outputs[active.output];
    el("solved-label").textContent = `Solved: ${label}`;
    el("bar-solved-label").textContent = `Solved: ${label}`;
    for (const out of [el("solved-value"), el("bar-solved-value")]) {
      out.textContent = text;
      out.classList.toggle("flag", !s);
    }
    el("solved-where").textContent = s
      ? `The value where ${describe(active)} (it is ${met.flag || met.text}).`
      : value.message;
  }

  function describe(q) {
    const label = spec.labels[q.output];   // "Bubble as a percentage" mid-sentence; "KV cache size" as it is
    return `${/^[A-Z][a-z]/.test(label) ? label[0].toLowerCase() + label.slice(1) : label} ${SENSES[q.sense]} ${q.target}`;
  }

  function staleMark() {
    if (!active) return;
    panel.classList.add("stale");
    mark(active, true);
    const result = el("solved-result");
    if (result && !result.hidden) result.classList.add("stale");
  }

  function stop() {
    active = null;
    last = null;
    mark(null);
    headline(null);
    echo("");
    answer.replaceChildren();
    clear.hidden = true;
    panel.classList.remove("asked", "stale");
  }

  // The answer as text: the solver's sentence, the value chosen, and for a whole number the
  // neighbour that misses; several solutions are offered as a choice.
  function showAnswer(value) {
    const solutions = value.solutions || [];
    const parts = [line(value.message, value.status === "none" ? "solve-none" : "")];
    if (solutions.length === 1) parts.unshift(line(`${value.input} = ${solutions[0].said}`, "solve-value"));
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
        radio.addEventListener("change", () => { chosen = i; apply(value, page.linkState(active)); });
        label.append(radio, ` ${value.input} = ${s.said}`);
        group.append(label);
      });
      parts.push(group);
    }
    const s = solutions[chosen];
    if (s && s.neighbour && !value.message.includes(`${value.input} = ${s.neighbour.said} gives`)) {
      parts.push(line(`${value.input} = ${s.said} meets it; ${value.input} = ${s.neighbour.said} gives ${s.neighbour.output_text}, which misses.`, "solve-neighbour"));
    }
    answer.replaceChildren(...parts);
  }

  // The answer's run is complete (results, link, citation): shown as it is, not computed again.
  async function apply(value, state) {
    const s = (value.solutions || [])[chosen];
    if (s) {
      form.elements[value.input].value = s.text;
      mark(active);
    } else {
      mark(null);
    }
    showAnswer(value);
    headline(value, s);
    echo([value.target_reading, value.target_note].filter(Boolean).join(". "));
    panel.classList.remove("stale");
    if (s) page.showSolved(s.run, state);
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
    const state = page.linkState(q);   // the link that asks it: the answer's citation cites it
    let reply;
    try {
      reply = await page.tracked(runner.call("solve", { entry: spec.id, raw, question: q, accessed: page.today(), units: page.units(), link: page.citedQuery(state) }, page.watchdog));
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
    if (linked && page.picked !== undefined) {   // the link's own pick among the answers
      const at = (last.solutions || []).findIndex((s) => s.text === page.picked.trim());
      if (at >= 0) chosen = at;
    }
    if (chosen >= (last.solutions || []).length) chosen = 0;
    clear.hidden = false;
    await apply(last, state);
  }

  // The panel's question, submitted (page.js hears the submit, which may come before this code).
  hooks.submit = () => {
    chosen = 0;
    const q = question();
    if (!q.target) { says("Type a target, e.g. the result as it reads now."); targetBox.focus(); return; }
    if (!page.ready()) { says("Python is still loading: solve again in a moment."); return; }
    ask(q);
  };
  // Once a question is asked, changing it asks again, as a forward input recomputes.
  panel.addEventListener("input", (event) => {
    if (active && event.target.name !== "solve-choice" && question().target && page.ready()) { chosen = 0; ask(question()); }
  });
  clear.addEventListener("click", () => { stop(); page.recompute(); targetBox.focus(); });
  // Another input changed (page.js hands each of its input events here first): the question
  // stands, so it is solved again there.  The freed input typed over by the reader: the question
  // is dropped, and the typed value computed.
  hooks.input = (event) => {
    if (!active) return;
    if (event.target.name === active.input) stop();
    else ask(active);
  };
  for (const menu of document.querySelectorAll(".unit-menus select")) {
    menu.addEventListener("change", () => { if (active) ask(active); });   // else the panel's hint follows (ondemand.js)
  }

  const linked = page.question;
  if (linked) fill(linked);
  hooks.ask = () => (linked ? ask(linked, true) : Promise.resolve());
  hooks.active = () => active !== null;
  hooks.question = () => active;
  // The freed input's value is not the first answer (none met the target, or the reader picked
  // another): the link carries it.
  hooks.carriesFreed = () => {
    const solutions = (last && last.solutions) || [];
    return !solutions.length || chosen !== 0;
  };
  return hooks;
}
