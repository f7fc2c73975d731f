// The reader's link: the one reader and writer of a page's query string (an entry's, a plan's).  Every other
// module asks this one what the link says (readLink) and hands it the page's state to write
// (writeLink, publish); none reads location.search or builds a query itself.  Python cites the
// query this module wrote (it never writes the browser's link) and JavaScript never edits
// Python's text.  The grammar is PARAMS below, one row per parameter: docs/architecture.md,
// "The link", says how to add one.
//
//   ?solve=s&total<=80GB   a question: the input freed, then its target (output, sense, target)
//   &model=llama-3-70b&hardware=h100-sxm   presets, by id (their inputs are not repeated)
//   &L=40&s=16k            inputs whose text differs from what the defaults and presets give
//   &units=bytes:GiB       unit choices, family:choice, comma-separated
//   &show=total,per_token  the outputs an embed card shows, in order
//   &compare=llama-3-70b,mixtral-8x7b   presets compared side by side (compare.js), by id, in order
//   &embed=1               the page as an embed card (not in a shared link)
//
// The link a reader shares (Copy link, QR code, embed card's image, citation) is the address bar's
// without embed=1, with a question's < and > as typed.  Values are text; nothing read here is
// ever markup.

const SENSE_KEY = { "=": "", "<=": "<", ">=": ">" };
const MAX_TARGET = 60;      // characters of a linked target: a number with a unit is far shorter
const MAX_VALUE = 20000;    // characters of a linked input
const MAX_SHOW = 50;        // outputs a show= list may name
const MAX_COMPARE = 8;      // presets a compare= list may name (compare.js's MAX_COMPARED)
const LISTED = 3;           // unknown names a notice lists one by one; more are summed up in one

const short = (text) => `“${String(text).slice(0, 40)}”`;

// Names a link got wrong, one notice for them all however many: one by one up to LISTED, else
// "Ignored 300 unknown parameters: “a”, “b”, “c”, … (297 more); ...".  ``one(name)`` words a
// single one's notice, ``many(count, list)`` all of them.
export function ignored(names, one, many) {
  if (names.length <= LISTED) return names.map(one);
  return [many(names.length, listing(names))];
}
const pairs = (list) => list.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);

// The one value the link gives ``key`` (undefined: none).  A name given twice with two values
// (?model=a&model=b, ?L=40&L=80) could be read either way: neither is taken, and the page says so
// and keeps its own; the same value twice is one value.
function one(params, key, link) {
  const values = [...new Set(params.filter(([k]) => k === key).map(([, v]) => v))];
  if (values.length < 2) return values[0];
  link.notices.push(`Ignored the link's ${values.length} values for ${short(key)}, ${listing(values)}: a link gives one, so the page keeps its own.`);
  return undefined;
}

// Values a notice names: “a”, “b” and “c”; past LISTED, “a”, “b”, “c”, … (2 more).
function listing(values) {
  const listed = values.slice(0, LISTED).map(short);
  return values.length > LISTED ? `${listed.join(", ")}, … (${values.length - LISTED} more)`
    : listed.length > 1 ? `${listed.slice(0, -1).join(", ")} and ${listed[listed.length - 1]}` : listed[0];
}

// A question: ?solve=<input> and one target, written <output>=, <output><= or <output>>= (a key
// ending in < or > is always a target; a plain key is one when it names an output).
function readQuestion(params, link, spec, claimed) {
  const free = [...new Set(params.filter(([k]) => k === "solve").map(([, v]) => v))];
  if (!free.length) return;
  claimed.add("solve");
  const targets = [];
  for (const [key, value] of params) {
    const sense = /[<>]$/.test(key) ? `${key.slice(-1)}=` : "=";
    const name = sense === "=" ? key : key.slice(0, -1);
    if (sense !== "=" || spec.outputs.some((o) => o.name === name)) {
      claimed.add(key);
      if (!targets.some((t) => t.output === name && t.sense === sense && t.target === value)) targets.push({ output: name, sense, target: value });
    }
  }
  const says = (why) => link.notices.push(`Ignored the link's question: ${why}`);
  const input = spec.inputs.find((i) => i.name === free[0]);
  if (free.length > 1) says("it frees more than one input; ask for one at a time.");
  else if (!spec.solve) says("this entry has no numeric input and result to solve with (list inputs cannot be freed).");
  else if (!input) says(`this entry has no input ${short(free[0])} to solve for.`);
  else if (!spec.solve.inputs.includes(input.name)) says(`${input.name} is a ${input.type} input, and only a numeric input can be freed.`);
  else if (targets.length !== 1) says(targets.length ? "it sets more than one target; ask one at a time." : "it names no target, e.g. total<=80GB.");
  else if (!spec.solve.outputs.includes(targets[0].output)) says(`this entry has no numeric result ${short(targets[0].output)}.`);
  else if (!targets[0].target.trim() || targets[0].target.length > MAX_TARGET) says(`the target for ${targets[0].output} is ${targets[0].target.trim() ? "too long" : "empty"}.`);
  else link.question = { input: input.name, ...targets[0], target: targets[0].target.trim() };
}

function writeQuestion(state) {
  const q = state.question;
  return q ? [["solve", q.input], [`${q.output}${SENSE_KEY[q.sense]}`, q.target]] : [];
}

// A preset by id: ?model=<id>, ?hardware=<id>; the kinds and how a sentence names them are the spec's.
function preset(kind) {
  return {
    key: kind,
    read(params, link, spec) {
      const id = one(params, kind, link);
      if (id === undefined || id === "") return;
      const offered = (spec.presets || {})[kind] || [];
      if (offered.some((p) => p.id === id)) link.presets[kind] = id;
      else link.notices.push(`Ignored the link's ${kind} ${short(id)}: no such ${(spec.kinds || {})[kind] || kind} fills this ${spec.noun || "entry"}.`);
    },
    write: (state) => (state.presets[kind] ? [[kind, state.presets[kind].id]] : []),
  };
}

// Unit choices: ?units=bytes:GiB,flop:sci, each one the page's menus offer (``page.units``).
function readUnits(params, link, spec, claimed, page) {
  const text = one(params, "units", link) || "";
  const wrong = [];
  const chosen = {};  // family -> the known choices the link names for it
  for (const pair of text.split(",")) {
    const [family, choice] = pair.split(":");
    if ((page.units[family] || []).includes(choice)) {
      if (!(chosen[family] ||= []).includes(choice)) chosen[family].push(choice);
    } else if (pair && !wrong.includes(pair)) wrong.push(pair);
  }
  for (const [family, choices] of Object.entries(chosen)) {
    // Two choices for one family could be read either way: neither is taken, and the page says so.
    if (choices.length === 1) link.units[family] = choices[0];
    else link.notices.push(`Ignored the link's unit choices ${choices.map((c) => short(`${family}:${c}`)).join(" and ")}: `
      + `one unit per kind, so ${short(family)} stays in the page's own unit.`);
  }
  link.notices.push(...ignored(wrong, (pair) => `Ignored the link's unit choice ${short(pair)}.`,
    (count, list) => `Ignored ${count} unknown unit choices: ${list}.`));
}

// The outputs an embed card shows: ?show=speedup,tokens (unknown names ignored, with a notice).
function readShow(params, link, spec) {
  const text = one(params, "show", link);
  if (text === undefined) return;
  const known = new Set(spec.outputs.map((o) => o.name));
  const wrong = [];
  for (const name of text.split(",").map((n) => n.trim()).filter(Boolean).slice(0, MAX_SHOW)) {
    if (known.has(name)) { if (!link.show.includes(name)) link.show.push(name); }
    else if (!wrong.includes(name)) wrong.push(name);
  }
  link.notices.push(...ignored(wrong, (name) => `Ignored the link's output ${short(name)} in show: this entry has no such output.`,
    (count, list) => `Ignored ${count} unknown outputs in show: ${list}; this entry has no outputs by those names.`));
}

// Presets compared side by side: ?compare=llama-3-70b,h100-sxm, each an id of a preset that fills
// this entry (of either kind); unknown ids are ignored with a notice, a list past MAX_COMPARE cut.
function readCompare(params, link, spec) {
  const text = one(params, "compare", link);
  if (text === undefined) return;
  const offered = spec.presets || {};
  const wrong = [];
  let cut = 0;
  for (const id of text.slice(0, MAX_VALUE).split(",").map((n) => n.trim()).filter(Boolean)) {
    const kind = Object.keys(offered).find((k) => offered[k].some((p) => p.id === id));
    if (!kind) { if (!wrong.includes(id)) wrong.push(id); }
    else if (link.compare.some((c) => c.id === id)) continue;
    else if (link.compare.length >= MAX_COMPARE) cut++;
    else link.compare.push({ kind, id });
  }
  link.notices.push(...ignored(wrong, (id) => `Ignored the link's ${short(id)} in compare: no such preset fills this entry.`,
    (count, list) => `Ignored ${count} unknown presets in compare: ${list}; no presets by those names fill this entry.`));
  if (cut) link.notices.push(`Compared the first ${MAX_COMPARE} presets the link names; ignored ${cut} more.`);
}

// The inputs: every query name not claimed by a row above that names an input.
const INPUTS = { key: null };

// The grammar, in the order a link writes it.  A row: ``key`` (a query name the page keeps for
// itself, listed in runtime/page.py's RESERVED too, so no entry's input or output can take it),
// ``read(params, link, spec, claimed, page)`` (params: the query's [key, value] pairs; it sets its
// field of ``link`` and pushes notices), ``write(state)`` -> [[key, value], ...].
export const PARAMS = [
  { key: "solve", read: readQuestion, write: writeQuestion },
  preset("model"),
  preset("hardware"),
  INPUTS,
  { key: "units", read: readUnits, write: (s) => { const u = Object.entries(s.units || {}).filter(([, c]) => c); return u.length ? [["units", u.map(([f, c]) => `${f}:${c}`).join(",")]] : []; } },
  { key: "show", read: readShow, write: (s) => (s.show && s.show.length ? [["show", s.show.join(",")]] : []) },
  { key: "compare", read: readCompare, write: (s) => (s.compare && s.compare.length ? [["compare", s.compare.map((c) => c.id).join(",")]] : []) },
  { key: "version", read: (params, link) => { const v = one(params, "version", link); link.version = v === undefined ? null : v; }, write: (s) => (s.version ? [["version", String(s.version)]] : []) },
  { key: "embed", read: readEmbed, write: (s) => (s.embed ? [["embed", "1"]] : []) },
];

// The card: embed=1 (as early.js reads it, before first paint); any other value is said and ignored.
function readEmbed(params, link, spec) {
  const values = params.filter(([k]) => k === "embed").map(([, v]) => v);
  link.embed = values.includes("1");
  const wrong = [...new Set(values.filter((v) => v !== "1"))];
  if (wrong.length) {
    link.notices.push(`Ignored the link's embed value${wrong.length > 1 ? "s" : ""} ${listing(wrong)}: `
      + `embed=1 shows this ${spec.noun || "entry"} as a card, and no other value is read.`);
  }
}
const RESERVED = new Set(PARAMS.map((row) => row.key).filter(Boolean));

// What a link asks, read once: {question, presets: {kind: id}, inputs: {name: text}, units,
// show, compare: [{kind, id}], embed, notices}.  ``page.units``: family -> the choices its menu offers.
export function readLink(search, spec, page = { units: {} }) {
  const params = [...new URLSearchParams(search)];
  const link = { question: null, presets: {}, inputs: {}, units: {}, show: [], compare: [], embed: false, version: null, notices: [] };
  const claimed = new Set();
  for (const row of PARAMS) if (row.read) row.read(params, link, spec, claimed, page);
  const names = new Set(spec.inputs.map((i) => i.name));
  const unknown = [];
  const read = new Set();
  for (const [name] of params) {
    if (RESERVED.has(name) || claimed.has(name) || read.has(name)) continue;
    read.add(name);
    if (!names.has(name)) { unknown.push(name); continue; }
    const value = one(params, name, link);
    if (value === undefined) continue;
    if (value.length > MAX_VALUE) link.notices.push(`Ignored the link's value for ${name}: it is too long.`);
    else link.inputs[name] = value;
  }
  const noun = spec.noun || "entry";   // a plan's page reads its link here too
  link.notices.push(...ignored(unknown, (name) => `Ignored the link's parameter ${short(name)}: this ${noun} has no such input.`,
    (count, list) => `Ignored ${count} unknown parameters: ${list}; this ${noun} has no inputs by those names.`));
  return link;
}

// The inputs a link must carry to reopen the page as it is: those whose text differs from what
// the defaults and the chosen presets (in PARAMS's order) would put there, less ``freed``, a
// question's answer (the question gives it).  ``raw``: input -> text; ``defaults``: input -> the
// page's own; ``presets``: kind -> the preset chosen.
export function carried(spec, raw, defaults, presets, freed = null) {
  const base = { ...defaults };
  for (const row of PARAMS) {
    const chosen = presets[row.key];
    if (chosen) for (const [name, value] of Object.entries(chosen.values)) if (name in base) base[name] = String(value[0]);
  }
  const out = {};
  for (const input of spec.inputs) {
    const name = input.name;
    if (name === freed) continue;
    const text = String(raw[name] ?? "").trim();
    if (text !== String(base[name] ?? "").trim()) out[name] = text;
  }
  return out;
}

// The query of a page's state: {question, presets: {kind: preset}, inputs: {name: text} (from
// ``carried``), units: {family: choice}, show: [names], embed}.
export function writeLink(state) {
  const out = [];
  for (const row of PARAMS) {
    if (row === INPUTS) out.push(...pairs(Object.entries(state.inputs || {})));
    else out.push(...pairs(row.write(state)));
  }
  return out.join("&");
}

// A shared link's [name, value] pairs, as Python reads a page's computation ("Copy as Python").
export function linkPairs(url) {
  return [...new URL(url).searchParams];
}

// A link as a reader reads and copies it: a question's < and > as typed (browsers keep them
// escaped in the address bar).
export function pretty(url) {
  return url.replace(/%3C=/g, "<=").replace(/%3E=/g, ">=");
}

// ---- the page's link, written: the address bar, and what the page shares

// After typing, the link is written once the reader pauses (browsers throttle history updates,
// and the history should not hold every keystroke); anything else writes it at once, and so does
// typing the reader has finished (leaving the field, Enter).  Entry and plan pages wait the same.
export const TYPING_PAUSE_MS = 300;

let written = null;   // the state last published, on this page

// The address bar follows ``state``; an open QR code follows with it (the "share-link" event).
export function publish(state) {
  if (leaving) return;   // the page is being left: the address is the next page's
  written = state;
  const query = writeLink(state);
  const local = location.pathname + (query ? `?${query}` : "") + location.hash;
  history.replaceState(history.state, "", local);   // the state is the page navigation's (back, forward)
  document.dispatchEvent(new CustomEvent("share-link"));
}

// The query Python cites: the shared link's (no embed flag).
export function citedQuery(state) {
  return writeLink({ ...state, embed: false });
}

// The link a reader shares: the page's address without the embed flag and without the part of
// the page it points to; ``card``: the card's own link also drops show= (the card is its choice).
export function shared({ card = false } = {}) {
  const base = location.origin + location.pathname;
  if (!written) {
    const url = new URL(location.href);
    url.searchParams.delete("embed");
    if (card) url.searchParams.delete("show");
    url.hash = "";
    return pretty(url.href);
  }
  const query = writeLink({ ...written, embed: false, show: card ? [] : written.show });
  return pretty(base + (query ? `?${query}` : ""));
}

// A page being left writes no link.  Turbo's visit starts at the reader's click ("turbo:visit")
// and writes the next page's address into the history just before it renders that page; a run of
// the page being left that ends after then would write its own query on the next page's address,
// which that page reads as its link.  So from a visit's start until the next page begins, nothing
// is published (and a visit that renders no page gives the link back when it ends).
let leaving = false;
globalThis.document?.addEventListener("turbo:visit", () => { leaving = true; });   // (no document: Node's tests)
globalThis.document?.addEventListener("turbo:load", () => { leaving = false; });

// A page begins: it forgets the page before's published state (a new page starts from its own
// address), and publishes its own from now on.
export function begin() {
  written = null;
  leaving = false;
}

// A query's [name, value] pairs, for a worked case's link (whose inputs the page loads).
export function queryPairs(query) {
  return [...new URLSearchParams(query)];
}
