// Practice mode, the book's own method: cover the results, derive them, then reveal.  The page's
// "Your record" keeps the days the reader derived the entry and, for a protocol entry, the days
// they reproduced it from nothing (records.js keeps them, in this browser only); a change can be
// undone, and a browser that keeps nothing says so beside the buttons.
//
// What practice covers is covered for a screen reader too: each covered formula and value is
// aria-hidden, with a short "covered" said in its place, and the reveal gives them all back.
//
// The page loads this code (page.js) on the reader's first reach for the toggle, or when the
// record comes near the screen; the toggle's presses are the page's to pass on (``toggle``).
import { UNAVAILABLE, available, days, today, undoable, write } from "./records.js";

export function setupPractice(spec) {
  const root = document.documentElement;
  const toggle = document.getElementById("practice-toggle");
  const banner = document.getElementById("practice-banner");
  const set = (on) => {
    root.classList.toggle("practice", on);
    toggle.setAttribute("aria-pressed", String(on));
    toggle.textContent = on ? "Leave practice mode" : "Practice mode";
    banner.hidden = !on;
    cover(on);
  };
  document.getElementById("practice-reveal").addEventListener("click", () => set(false));
  setupRecord(spec);
  return { toggle: () => set(!root.classList.contains("practice")) };
}

// What practice mode covers (style.css paints over the same): the statement's formulas, every
// result's value and symbol, and the headline bar's values.
const COVERED = ".statement .katex, .result output, .result dt .sym, #headline-bar output";

function cover(on) {
  const said = document.getElementById("results-said");   // the last summary said, now untrue
  if (said) said.textContent = "";
  for (const said of document.querySelectorAll(".practice-covered")) said.remove();
  for (const element of document.querySelectorAll(COVERED)) {
    if (!on) {
      element.removeAttribute("aria-hidden");
      continue;
    }
    element.setAttribute("aria-hidden", "true");
    if (element.matches(".result dt .sym")) continue;   // its result's value says "covered" once
    const said = document.createElement("span");
    said.className = "sr-only practice-covered";
    said.textContent = element.matches(".katex") ? "(formula covered)" : "covered";
    element.after(said);
  }
}

function setupRecord(spec) {
  const section = document.getElementById("record");
  if (!section) return;
  const id = spec.id;
  const done = document.getElementById("practice-done");
  const doneText = document.getElementById("practice-progress");
  const record = document.getElementById("protocol-record");   // protocol entries only
  const progress = document.getElementById("protocol-progress");
  const list = document.getElementById("protocol-days");
  const reset = document.getElementById("record-reset");
  const undo = document.getElementById("record-undo");
  const message = document.getElementById("record-message");
  const storage = document.getElementById("record-storage");

  const show = () => {
    const practised = days("practised", id);
    doneText.textContent = practised.length
      ? `Practised on ${practised.length === 1 ? "1 day" : `${practised.length} days`}, last on ${practised[practised.length - 1]}.`
      : "Not practised yet.";
    done.disabled = practised.includes(today());
    done.textContent = done.disabled ? "Practised today" : "I derived it today";
    let any = practised.length > 0;
    if (record) {
      const reproduced = days("protocol", id);
      progress.textContent = reproduced.length >= 3
        ? `Done: reproduced on ${reproduced.length} separate days.`
        : `Reproduced on ${reproduced.length} of 3 days.`;
      list.replaceChildren(...reproduced.map((d) => Object.assign(document.createElement("li"), { textContent: d })));
      record.disabled = reproduced.includes(today());
      record.textContent = record.disabled ? "Recorded for today" : "I reproduced it today";
      any ||= reproduced.length > 0;
    }
    reset.disabled = !any;
  };
  const keep = undoable(undo, message, {
    refused: "The browser refused to put the record back (its storage may be full).",
    undone: "Undone: the record is as it was.",
    after: () => {
      show();
      const next = [done, record, reset].find((button) => button && !button.disabled);   // Undo has gone: focus stays near
      if (next) next.focus();
    },
  });
  const change = (records, said) => {
    try {
      keep(write({ [id]: records }));
    } catch (err) {
      message.textContent = err.message;
      return;
    }
    message.textContent = said;
    show();
  };

  if (!available()) {
    storage.textContent = UNAVAILABLE;
    storage.hidden = false;
    for (const button of [done, record, reset]) if (button) button.disabled = true;
    section.dataset.record = "unavailable";
    return;
  }
  done.addEventListener("click", () => {
    const kept = days("practised", id);
    if (kept.includes(today())) return show();   // one a day counts
    change({ practised: [...kept, today()] }, `Recorded: practised on ${today()}.`);
  });
  if (record) record.addEventListener("click", () => {
    const kept = days("protocol", id);
    if (kept.includes(today())) return show();   // one reproduction per day counts
    change({ protocol: [...kept, today()] }, `Recorded: reproduced on ${today()}.`);
  });
  reset.addEventListener("click", () => {
    change(spec.protocol ? { practised: [], protocol: [] } : { practised: [] }, "This entry's record is cleared.");
  });
  show();
  section.dataset.record = "ready";
}
