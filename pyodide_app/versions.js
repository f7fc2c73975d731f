// A link to an older version of an entry (?version=N): the current page, with a notice that says
// what changed since that version and the results under both.  The entry's history and each
// older version's formula, inputs and outputs are fetched then (versions.json beside the page,
// which spec.versions.src names) and run in the same worker, on the same runtime, as the current
// one: a cited number can always be recomputed.
import { runner, running } from "./python.js";

const MAX_VERSION = /^[1-9][0-9]{0,5}$/;

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;   // never markup: the link comes from anyone
  if (className) made.className = className;
  return made;
}

// The version a link names (its text, as link.js read it, or null): a whole number from 1 to the
// current version, or null (with the reason).
export function askedVersion(asked, versions) {
  if (asked === null || asked === undefined) return { version: null };
  if (!MAX_VERSION.test(asked) || Number(asked) > versions.current) {
    return { version: null, ignored: `Ignored the link's version “${asked.slice(0, 40)}”: this entry has version${versions.current > 1 ? "s 1 to " : " "}${versions.current}.` };
  }
  return { version: Number(asked) };
}

// ``load(url)``: the data at url, or null once the reader has been told it could not be fetched.
export async function setupVersions({ spec, form, addNotice, load, alive, asked = null }) {
  const box = document.getElementById("version-notice");
  if (!box || !spec.versions) return;
  const { version, ignored } = askedVersion(asked, spec.versions);
  if (ignored) addNotice(ignored);
  if (version === null || version === spec.versions.current) return;
  const kept = spec.versions.src ? await load(spec.versions.src) : { history: [], older: {} };
  if (!kept || !alive()) return;
  const versions = { ...spec.versions, ...kept };
  const older = versions.older[String(version)];
  const since = versions.history.filter((v) => v.version > version);

  box.replaceChildren();
  box.append(element("h2", `This link names version ${version} of the entry`, "version-notice-h"));
  box.lastChild.id = "version-notice-h";
  box.append(element("p", `The entry is now at version ${versions.current}; the page computes with it, and the address bar now names it. What changed since version ${version}:`));
  const list = element("ul", undefined, "version-changes");
  for (const v of since) {
    const item = element("li");
    item.append(element("strong", `Version ${v.version}`), ` (${v.date}, release ${v.release}): ${v.changed} Why: ${v.why}`);
    if (v.erratum) item.append(` Erratum: ${v.erratum}`);
    if (v.source) item.append(` Source: ${v.source}`);
    list.append(item);
  }
  box.append(list);
  if (!older) {
    box.append(element("p", `Version ${version}'s formula is not kept, so its results cannot be shown.`));
    box.hidden = false;
    return;
  }
  const table = element("table", undefined, "version-compare");
  table.id = "version-compare";
  table.createCaption().textContent = "Results for the inputs above, under both versions";
  const head = table.createTHead().insertRow();
  for (const text of ["Result", `Version ${version}`, `Version ${versions.current} (now)`]) {
    const cell = element("th", text);
    cell.scope = "col";
    head.append(cell);
  }
  const body = table.createTBody();
  const labels = new Map(older.outputs.map((o) => [o.name, o.label || o.name]));
  for (const o of spec.outputs) labels.set(o.name, o.label || o.name);
  const rows = new Map();
  for (const [name, label] of labels) {
    const row = body.insertRow();
    row.dataset.output = name;
    const th = element("th", label);
    th.scope = "row";
    row.append(th, element("td", "…", "old"), element("td", "…", "new"));
    rows.set(name, row);
  }
  box.append(table);
  const note = element("p", "", "version-inputs");
  box.append(note);
  box.hidden = false;

  const oldId = `${spec.id}@version-${version}`;
  const oldNames = new Set(older.inputs.map((i) => i.name));
  let loaded = null;
  let seq = 0;
  const units = () => {
    const chosen = {};
    for (const menu of document.querySelectorAll(".unit-menus select")) if (menu.value) chosen[menu.dataset.family] = menu.value;
    return chosen;
  };
  const text = (reply, name) => {
    if (!reply.ok) return Object.values(reply.errors || {})[0] || "not computed";
    const out = reply.value.outputs[name];
    return out ? out.flag || out.text : "not in this version";
  };
  async function compare() {
    if (!box.isConnected) { document.removeEventListener("share-link", compare); return; }
    const mine = ++seq;
    await running();
    loaded = loaded || runner.call("load", { spec: { id: oldId, ...older } });
    await loaded;
    const raw = {};
    for (const input of spec.inputs) raw[input.name] = form.elements[input.name].value;
    const rawOld = Object.fromEntries(Object.entries(raw).filter(([name]) => oldNames.has(name)));
    const [before, now] = await Promise.all([
      runner.call("run", { entry: oldId, raw: rawOld, units: units() }),
      runner.call("run", { entry: spec.id, raw, units: units() }),
    ]);
    if (mine !== seq || !box.isConnected) return;
    for (const [name, row] of rows) {
      row.cells[1].textContent = text(before, name);
      row.cells[2].textContent = text(now, name);
      row.classList.toggle("differs", row.cells[1].textContent !== row.cells[2].textContent);
    }
    const added = spec.inputs.filter((i) => !oldNames.has(i.name)).map((i) => i.name);
    const dropped = older.inputs.filter((i) => !(i.name in raw)).map((i) => `${i.name} (its default then, ${i.default})`);
    note.textContent = [
      added.length ? `Version ${version} had no ${added.join(", ")}.` : "",
      dropped.length ? `Version ${version} also read ${dropped.join(", ")}.` : "",
    ].filter(Boolean).join(" ");
    box.dataset.compared = String(Number(box.dataset.compared || 0) + 1);
  }
  // After each computation the page has written (its link and citation), the comparison follows.
  document.addEventListener("share-link", compare);
}
