// The export file of the reader's records and its import, checked whole before anything is
// written (records.js keeps the records; the chapters page's overview, progress.js, offers both).
import { FORMAT, KINDS, MAX_BYTES, VERSION, all, isDay } from "./records.js";

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
