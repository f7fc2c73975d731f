// The embed card (?embed=1) fitted to its frame: the headline keeps the room it needs, and the
// inputs are shown whole, as many as fit under it, the ones that matter first; the card's foot
// says how many more there are (a link to the full page) and which preset filled the card, once,
// instead of a source mark under every input it set.  Run again after every change of what the
// card shows (a run's results, a comparison's rows, a solved answer) and on every resize.
//
// Which inputs matter, when not all fit: a rank, then the entry's own order within a rank (the
// shown ones stay in the entry's order on the card).
//   0. inputs the link typed, and the input a solved question freed (its value is the answer);
//   1. inputs a preset of the link filled (presets.js's marks);
//   2. the other inputs, at the entry's defaults;
//   3. defaults that say little on a slide: a number left at 0 (this bank's "off" or "derive it"
//      value: no sliding window, key-value heads = heads) and, beside a comparison, an input that
//      a compared preset sets (its row takes its own value, not the one shown).
// The card shows the first k of that list, the largest k with which the whole card fits its frame;
// if even no input leaves room for a long comparison, its last rows go too (one always stays).

const OFF = "0";   // the bank's neutral value of a numeric input

// On a slide (?embed=1) the inputs are values to read, not fields: out of the tab order, not pointed at,
// and as wide as what they hold.  (The link's values stay in the form, so the page computes as ever.)
export function readOnlyInputs() {
  if (!document.documentElement.classList.contains("embed")) return;
  const form = document.getElementById("inputs");
  if (!form) return;
  for (const control of form.querySelectorAll("input, select")) {
    control.tabIndex = -1;
    control.setAttribute("aria-readonly", "true");
    if (control.tagName === "INPUT") control.size = Math.max(2, Math.min(40, control.value.length + 1));
  }
}

// ``deps``: spec, form, link (link.js's readLink), presets (setupPresets's), page(): the full
// entry page's link for this card (link.js's shared()).
export function setupEmbed({ spec, form, link, presets, page }) {
  const root = document.documentElement;
  if (!link.embed || !root.classList.contains("embed")) return { fit() {}, close() {} };
  const main = document.querySelector("main");
  const article = document.querySelector("article.entry");
  const foot = article.querySelector(".embed-link");
  const note = document.getElementById("embed-note");
  const offered = spec.presets || {};
  const fields = spec.inputs.map((input) => ({ input, field: document.getElementById(`input-${input.name}`) }))
    .filter((f) => f.field);

  // The inputs the compared presets set: the table's rows take their own values of those.
  function comparedSets() {
    const set = new Set();
    for (const { kind, id } of link.compare) {
      const preset = (offered[kind] || []).find((p) => p.id === id);
      if (preset) for (const name of Object.keys(preset.values)) set.add(name);
    }
    return (name) => set.has(name);
  }

  function rank({ input }, filled, everyRow) {
    const name = input.name;
    if (name in link.inputs || (link.question && link.question.input === name)) return 0;
    if (name in filled) return 1;
    const value = form.elements[name] ? String(form.elements[name].value).trim() : "";
    if ((input.type !== "choice" && input.type !== "list" && value === OFF) || everyRow(name)) return 3;
    return 2;
  }

  // The inputs, the ones that matter first (see above).
  function ranked() {
    const filled = presets.filled();
    const everyRow = comparedSets();
    return fields.map((f, order) => ({ ...f, order, rank: rank(f, filled, everyRow) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order);
  }

  // "Filled from Llama 3 70B and NVIDIA H100 SXM", each name a link to the source most of its
  // values cite; nothing when no preset set an input on the card.
  function filledLine() {
    const filled = presets.filled();
    const chosen = presets.chosen();
    const kinds = Object.keys(chosen).filter((kind) => Object.values(filled).includes(kind));
    if (!kinds.length) return null;
    const line = document.createElement("span");
    line.className = "embed-filled";
    line.append("Filled from ");
    kinds.forEach((kind, k) => {
      const preset = chosen[kind];
      if (k) line.append(" and ");
      const cited = {};
      for (const [name, value] of Object.entries(preset.values)) if (filled[name] === kind) cited[value[1]] = (cited[value[1]] || 0) + 1;
      const index = Object.keys(cited).map(Number).sort((a, b) => cited[b] - cited[a] || a - b)[0];
      const source = (preset.sources || [])[index];
      if (source && source.url) {
        const a = document.createElement("a");
        a.href = source.url;
        a.target = "_blank";
        a.rel = "noopener";
        a.title = source.title;
        a.textContent = preset.name;
        line.append(a);
      } else line.append(preset.name);
    });
    return line;
  }

  function moreLine(inputs, rows) {
    const said = [];
    if (inputs) said.push(`+${inputs} more input${inputs === 1 ? "" : "s"}`);
    if (rows) said.push(`+${rows} more compared`);
    if (!said.length) return null;
    const a = document.createElement("a");
    a.className = "embed-more";
    a.href = page();
    a.target = "_blank";
    a.rel = "noopener";
    a.dataset.inputs = String(inputs);
    a.dataset.rows = String(rows);
    a.textContent = said.join(", ");
    return a;
  }

  const shown = (el) => el.getClientRects().length > 0;

  // Does the whole card fit its frame?  Nothing in it shrinks (style.css): what does not fit
  // runs past the frame's foot, or past its side.
  function fits() {
    const box = main.getBoundingClientRect();
    const style = getComputedStyle(main);
    const bottom = box.bottom - parseFloat(style.paddingBottom) + 0.5;
    const right = box.right - parseFloat(style.paddingRight) + 0.5;
    for (const part of article.children) {
      if (!shown(part)) continue;
      const r = part.getBoundingClientRect();
      if (r.bottom > bottom || r.right > right) return false;
    }
    return true;
  }

  function setNote(inputs, rows, filled) {
    const parts = [filled, moreLine(inputs, rows)].filter(Boolean);
    const nodes = [];
    parts.forEach((p, k) => { if (k) nodes.push(" · "); nodes.push(p); });
    note.replaceChildren(...nodes);
    note.hidden = !parts.length;
  }

  // The largest k in [lo, hi] with which ``show(k)`` fits (show(lo) is taken if none does).
  function largest(lo, hi, show) {
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      show(mid);
      if (fits()) lo = mid;
      else hi = mid - 1;
    }
    show(lo);
    return lo;
  }

  // A headline value is one line (Python joins a number to its unit with a no-break space, so a
  // line too long for the card would break inside a word), set smaller until it fits the width;
  // one so long that it would then be under FLOOR of the frame's height wraps as before, at the
  // style's size.
  const FLOOR = 0.095;
  function fitHeadlines() {
    for (const out of document.querySelectorAll("#outputs .result.headline output, #outputs[data-show] .result.shown output")) {
      out.style.fontSize = "";
      out.classList.remove("one-line");
      if (!shown(out) || out.classList.contains("flag") || out.classList.contains("listed")) continue;
      out.classList.add("one-line");
      const room = out.parentElement.clientWidth;
      const width = out.getBoundingClientRect().width;
      if (width <= room) continue;
      const size = (parseFloat(getComputedStyle(out).fontSize) * room * 0.995) / width;
      if (size >= FLOOR * innerHeight) out.style.fontSize = `${size.toFixed(1)}px`;
      else out.classList.remove("one-line");
    }
  }

  let fitting = false;
  // A field whose text changed since Python wrote it for reading (a link's value before Python
  // runs): the card shows the text as it is until Python writes it again.
  function syncValues() {
    for (const { input } of fields) {
      const shownValue = document.getElementById(`shown-${input.name}`);
      const control = form.elements[input.name];
      if (shownValue && control && shownValue.dataset.of !== control.value) {
        shownValue.textContent = control.value;
        shownValue.dataset.of = control.value;
      }
    }
  }

  function fit() {
    if (fitting || !note) return;
    fitting = true;
    syncValues();
    fitHeadlines();
    const order = ranked();
    const rows = [...(document.getElementById("compare-table")?.tBodies[0]?.rows || [])];
    const filled = filledLine();
    let cutRows = 0;
    const showInputs = (k) => {
      order.forEach((f, i) => f.field.classList.toggle("embed-cut", i >= k));
      setNote(order.length - k, cutRows, filled);
    };
    const showRows = (k) => {
      rows.forEach((row, i) => row.classList.toggle("embed-cut", i >= k));
      cutRows = rows.length - k;
      showInputs(0);
    };
    showRows(rows.length);
    const k = largest(0, order.length, showInputs);
    if (k === 0 && rows.length > 1 && !fits()) largest(1, rows.length, showRows);
    root.dataset.embedFit = String(Number(root.dataset.embedFit || 0) + 1);
    fitting = false;
  }

  // Fitted again before the next paint whenever what the card shows changes.
  let frame = 0;
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(() => { frame = 0; fit(); });
  };
  const watched = new MutationObserver((records) => {
    if (records.every((r) => foot.contains(r.target))) return;   // the note fit() wrote
    schedule();
  });
  for (const id of ["calculator", "compare"]) {
    const el = document.getElementById(id);
    if (el) watched.observe(el, { childList: true, subtree: true, characterData: true });
  }
  addEventListener("resize", fit);
  document.fonts.ready.then(() => schedule());
  fit();
  return {
    fit,
    close() {
      watched.disconnect();
      removeEventListener("resize", fit);
      if (frame) cancelAnimationFrame(frame);
    },
  };
}
