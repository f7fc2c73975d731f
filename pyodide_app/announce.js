// What a screen reader hears when the results change, on an entry or a plan page: one polite
// summary a recompute, written to the results' one live region (#results-said), each value with
// its label and the answer or headline first: "KV cache size 1.342 GB; Cache per token (all layers) 327.7 kB; ...".  The
// values themselves are not live (their <output> would each be a status region of its own).
//
// Said once typing pauses, so "8192" typed is one summary, not four; said only after the reader
// has acted on this page: the first computation, and a linked question's solve, put on the
// page what it already shows or what the reader is about to read, and saying it over the page's
// first reading would be noise.  In practice mode the values stay covered: the summary says
// only that they were recomputed.  The region's data-said counts the summaries written.
const PAUSE_MS = 400;

let region = null;
let acted = false;   // the reader has changed something on this page
let timer = null;

// Any change the reader makes (typing, a menu, a button, a preset) arms the summary.
for (const type of ["input", "change", "click"]) {
  document.addEventListener(type, (event) => { if (event.isTrusted) acted = true; }, true);
}

export function setupAnnounce() {
  clearTimeout(timer);
  region = document.getElementById("results-said");
  acted = false;
}

// The results were recomputed: say them once the reader pauses.
export function announce() {
  if (!region || !acted) return;
  clearTimeout(timer);
  const mine = region;
  timer = setTimeout(() => { if (mine === region && mine.isConnected) say(mine); }, PAUSE_MS);
}

function say(into) {
  const results = into.closest(".outputs");
  if (results.classList.contains("stale")) return;   // an error came since: its alert speaks
  const text = document.documentElement.classList.contains("practice")
    ? "Results recomputed, covered for practice."
    : summary(results);
  into.textContent = text;
  into.dataset.said = String(Number(into.dataset.said || 0) + 1);
}

// The results as they are shown, in their order (a solve's answer, then the headline, then the
// rest): "label value" for each, joined by semicolons.
export function summary(results) {
  const parts = [];
  for (const row of results.querySelectorAll("dl > .result")) {
    if (row.hidden) continue;
    const label = row.querySelector("dt .label").textContent.trim();
    const output = row.querySelector("dd output");
    const value = (output.getAttribute("aria-label") || output.textContent).trim();   // a named index's values with it
    const where = row.id === "solved-result" ? row.querySelector("#solved-where").textContent.trim() : "";
    parts.push(`${label} ${value}${where ? `, ${where[0].toLowerCase()}${where.slice(1).replace(/\.$/, "")}` : ""}`);
  }
  return parts.join("; ");
}
