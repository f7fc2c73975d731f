// The reader's records, kept in this browser only: per entry, the days they derived it in practice
// mode ("practised") and, for a protocol entry, the days they reproduced it ("protocol").  Each list
// is one localStorage item, derivation-bank:<kind>:<entry>, a JSON array of YYYY-MM-DD days.
// This module is the one place that reads or writes them: the entry page (practice.js), the
// chapters page's overview (progress.js), and the export file and its import, checked here.
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

function isDay(text) {
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

// ---- the export file
// Every entry of `bank` with a record, in the bank's order: what a file holds imports here again
// (a record left by an entry the bank no longer has, or no longer marks protocol, is not written).
export function exportText(bank, now = new Date()) {
  const entries = all();
  const sorted = {};
  for (const id of Object.keys(entries).sort(byEntry)) {
    if (!Object.hasOwn(bank, id)) continue;
    const { practised, protocol } = entries[id];
    const kept = {};
    if (practised) kept.practised = practised;
    if (protocol && bank[id].protocol) kept.protocol = protocol;
    if (Object.keys(kept).length) sorted[id] = kept;
  }
  return JSON.stringify({ format: FORMAT, version: VERSION, exported: now.toISOString(), entries: sorted }, null, 2) + "\n";
}
export function exportName(now = new Date()) {
  return `derivation-bank-records-${now.toISOString().slice(0, 10)}.json`;
}
// Bank entries by number, then toolkit entries by name.
export function byEntry(a, b) {
  const na = /^\d+$/.test(a), nb = /^\d+$/.test(b);
  if (na && nb) return Number(a) - Number(b);
  return na ? -1 : nb ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

const shown = (value) => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 37)}…` : text;
};
const kindOf = (value) => Array.isArray(value) ? "a list" : value === null ? "null" : typeof value === "object" ? "an object" : `the ${typeof value} ${shown(value)}`;
const list = (names) => names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;

// Check a file's text against the format, every part of it, before anything is written.
// `bank` is {entry id: {protocol: bool}}.  Returns {entries} or throws an Error whose message
// names what is wrong, where.
export function parse(text, bank) {
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error("The file is not JSON, so it is not a records file exported by this site.");
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) {
    throw new Error(`The file holds ${kindOf(data)}, not a records file (an object whose "format" is "${FORMAT}").`);
  }
  if (data.format !== FORMAT) {
    throw new Error(`The file is not a Derivation Bank records file: its "format" is ${data.format === undefined ? "missing" : shown(data.format)}, not "${FORMAT}".`);
  }
  if (data.version !== VERSION) {
    throw new Error(`The file's "version" is ${data.version === undefined ? "missing" : shown(data.version)}; this site reads version ${VERSION} records files.`);
  }
  const extra = Object.keys(data).filter((k) => !["format", "version", "exported", "entries"].includes(k));
  if (extra.length) throw new Error(`The file has ${extra.length === 1 ? "a key" : "keys"} a records file does not: ${list(extra.map(shown))}.`);
  if (typeof data.exported !== "string" || Number.isNaN(Date.parse(data.exported)) || !/^\d{4}-\d{2}-\d{2}T/.test(data.exported)) {
    throw new Error(`The file's "exported" is ${data.exported === undefined ? "missing" : shown(data.exported)}, not a date and time such as "2026-01-31T12:00:00.000Z".`);
  }
  const entries = data.entries;
  if (!entries || typeof entries !== "object" || Array.isArray(entries)) {
    throw new Error(`The file's "entries" is ${entries === undefined ? "missing" : kindOf(entries)}, not an object of entries' records.`);
  }
  const unknown = Object.keys(entries).filter((id) => !Object.hasOwn(bank, id));
  if (unknown.length) {
    throw new Error(`The file has records for ${unknown.length === 1 ? "an entry" : "entries"} this bank does not have: ${list(unknown.slice(0, 5).map(shown))}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ""}. Nothing was imported.`);
  }
  const checked = {};
  for (const [id, record] of Object.entries(entries)) {
    const at = `entries[${shown(id)}]`;
    if (!record || typeof record !== "object" || Array.isArray(record)) throw new Error(`${at} is ${kindOf(record)}, not an object of lists of days.`);
    for (const [kind, value] of Object.entries(record)) {
      if (!KINDS.includes(kind)) throw new Error(`${at} has ${shown(kind)}; an entry's record has only "practised" and "protocol".`);
      if (kind === "protocol" && !bank[id].protocol) throw new Error(`${at} has "protocol" days, but entry ${id} is not a protocol entry.`);
      if (!Array.isArray(value)) throw new Error(`${at}.${kind} is ${kindOf(value)}, not a list of days.`);
      const bad = value.find((d) => !isDay(d));
      if (bad !== undefined) throw new Error(`${at}.${kind} has ${shown(bad)}, not a day written YYYY-MM-DD.`);
      if (new Set(value).size !== value.length) throw new Error(`${at}.${kind} lists a day twice.`);
      (checked[id] ||= {})[kind] = [...value].sort();
    }
  }
  return { entries: checked, exported: data.exported };
}

// Read a picked file: its size is checked before a byte of it is read.
export async function readFile(file, bank) {
  if (file.size > MAX_BYTES) {
    throw new Error(`The file is ${(file.size / 1e6).toFixed(1)} MB; a records file is at most 1 MB, so it was not read.`);
  }
  return parse(await file.text(), bank);
}

// The records an import leaves: the file's alone (replace) or each list joined with this browser's (merge).
export function merged(incoming, { replace = false } = {}) {
  if (replace) return incoming;
  const current = all();
  const out = {};
  for (const [id, kinds] of Object.entries(incoming)) {
    for (const [kind, list] of Object.entries(kinds)) {
      (out[id] ||= {})[kind] = [...new Set([...((current[id] || {})[kind] || []), ...list])].sort();
    }
  }
  return out;
}

// What an import brought, in words: "2 entries: 3 days of practice and 1 protocol day".
export function describe(entries) {
  const ids = Object.keys(entries);
  let practised = 0, protocol = 0;
  for (const record of Object.values(entries)) {
    practised += (record.practised || []).length;
    protocol += (record.protocol || []).length;
  }
  const n = (k, one, many) => `${k} ${k === 1 ? one : many}`;
  return `${n(ids.length, "entry", "entries")}: ${n(practised, "day", "days")} of practice and ${n(protocol, "protocol day", "protocol days")}`;
}
