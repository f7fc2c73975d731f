// The reader's records, kept in this browser only: per entry, the days they derived it in practice
// mode ("practised") and, for a protocol entry, the days they reproduced it ("protocol").  Each list
// is one localStorage item, derivation-bank:<kind>:<entry>, a JSON array of YYYY-MM-DD days.
// This module is the one place that reads or writes them: the entry page (practice.js), the
// chapters page's overview (progress.js), and the export file and its import (records_file.js,
// which the chapters page alone loads).
export const FORMAT = "derivation-bank-records";
export const VERSION = 1;
export const MAX_BYTES = 1_000_000;
export const KINDS = ["practised", "protocol"];
const PREFIX = "derivation-bank:";
const KIND_KEY = { practised: "practice", protocol: "protocol" };   // protocol's key predates this module
const key = (kind, id) => `${PREFIX}${KIND_KEY[kind]}:${id}`;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function today() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

export function isDay(text) {
  const m = typeof text === "string" && DAY.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

// Storage the reader can use: false when localStorage is off, blocked (a sandboxed frame throws
// on merely reading it) or refuses a write.
export function available() {
  try {
    const store = window.localStorage;
    const probe = `${PREFIX}probe`;
    store.setItem(probe, "1");
    store.removeItem(probe);
    return true;
  } catch (err) {
    return false;
  }
}
export const UNAVAILABLE = "This browser is not letting the site keep anything (its storage is off or blocked here), " +
  "so a record marked now would be lost: nothing can be recorded, exported or imported.";

// One entry's days of one kind, sorted; what is not a list of days is read as none.
export function days(kind, id) {
  try {
    const kept = JSON.parse(localStorage.getItem(key(kind, id)) || "[]");
    return Array.isArray(kept) ? [...new Set(kept.filter(isDay))].sort() : [];
  } catch (err) {
    return [];
  }
}

// Every record in this browser: {entry: {practised: [...], protocol: [...]}}, only lists with days.
export function all() {
  const found = {};
  let store;
  try { store = localStorage; } catch (err) { return found; }
  for (let k = 0; k < store.length; k++) {
    const name = store.key(k);
    for (const kind of KINDS) {
      const head = `${PREFIX}${KIND_KEY[kind]}:`;
      if (!name || !name.startsWith(head)) continue;
      const id = name.slice(head.length);
      const list = days(kind, id);
      if (list.length) (found[id] ||= {})[kind] = list;
    }
  }
  return found;
}

// The raw items, to put back exactly as they were (undo, or a write that failed half-way).
export function snapshot() {
  const items = {};
  try {
    for (let k = 0; k < localStorage.length; k++) {
      const name = localStorage.key(k);
      if (KINDS.some((kind) => name.startsWith(`${PREFIX}${KIND_KEY[kind]}:`))) items[name] = localStorage.getItem(name);
    }
  } catch (err) { /* nothing readable: nothing to keep */ }
  return items;
}
export function restore(items) {
  const now = snapshot();
  for (const name of Object.keys(now)) if (!(name in items)) localStorage.removeItem(name);
  for (const [name, value] of Object.entries(items)) localStorage.setItem(name, value);
}

// The Undo button for the last change: the returned function arms it with the items a write
// returned; a click puts them back and says `undone` (or `refused`, keeping them), then `after()`.
export function undoable(button, message, { refused, undone, after }) {
  let before = null;
  button.addEventListener("click", () => {
    if (!before) return;
    try {
      restore(before);
    } catch (err) {
      message.textContent = refused;
      return;
    }
    before = null;
    button.hidden = true;
    message.textContent = undone;
    after();
  });
  return (items) => { before = items; button.hidden = false; };
}

// Make the records `records` ({entry: {kind: days}}; a kind absent is left as it is, an empty list
// removes it).  All or nothing: a write the browser refuses puts every item back and throws.
export function write(records, { replace = false } = {}) {
  const before = snapshot();
  try {
    if (replace) for (const name of Object.keys(before)) localStorage.removeItem(name);
    for (const [id, kinds] of Object.entries(records)) {
      for (const [kind, list] of Object.entries(kinds)) {
        if (list.length) localStorage.setItem(key(kind, id), JSON.stringify([...new Set(list)].sort()));
        else localStorage.removeItem(key(kind, id));
      }
    }
  } catch (err) {
    try { restore(before); } catch (again) { /* the browser refuses even that */ }
    throw new Error("The browser refused to store the records (its storage may be full); nothing was changed.");
  }
  return before;
}
