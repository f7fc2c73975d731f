// The chapters page's overview of the reader's records (records.js): a mark beside each entry
// and a count per chapter of what they have practised and reproduced, and the export of every
// record to a file and its import, checked whole before anything is written, with an Undo.
// Runs once per visit (Turbo brings later pages in, see site.js): set up again on each chapters page.
import { UNAVAILABLE, available, all, undoable, write } from "./records.js";
import { describe, exportName, exportText, merged, readFile } from "./records_file.js";

const done = new WeakSet();   // the pages already set up
let render = () => {};        // the page on show's overview, drawn again when another tab writes

// {entry id: {protocol: bool}} from the page's list: the bank an import is checked against.
function bankOf(items) {
  const bank = {};
  for (const item of items) bank[item.dataset.entry] = { protocol: item.hasAttribute("data-protocol") };
  return bank;
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

function mark(record, protocol) {
  const parts = [];
  const practised = record.practised || [];
  if (practised.length) parts.push(`practised ${plural(practised.length, "day", "days")}, last ${practised[practised.length - 1]}`);
  if (protocol) {
    const n = (record.protocol || []).length;
    if (n >= 3) parts.push("protocol done");
    else if (n) parts.push(`protocol ${n} of 3`);
  }
  return parts.join("; ");
}

function initProgress() {
  const section = document.getElementById("records");
  if (!section || done.has(section)) return;
  done.add(section);
  const items = [...document.querySelectorAll(".chapter li[data-entry]")];
  const bank = bankOf(items);
  const summary = document.getElementById("records-summary");
  const actions = document.getElementById("records-actions");
  const message = document.getElementById("records-message");
  const storage = document.getElementById("records-storage");
  const file = document.getElementById("records-file");
  const undo = document.getElementById("records-undo");

  render = () => {
    const records = all();
    for (const item of items) {
      const text = mark(records[item.dataset.entry] || {}, item.hasAttribute("data-protocol"));
      let span = item.querySelector(".entry-record");
      if (!text) { if (span) span.remove(); continue; }
      if (!span) {
        span = Object.assign(document.createElement("span"), { className: "entry-record" });
        item.append(span);
      }
      span.textContent = text;
      span.classList.toggle("complete", text.includes("protocol done"));
    }
    for (const chapter of document.querySelectorAll("section.chapter")) {
      const listed = [...chapter.querySelectorAll("li[data-entry]")];
      const practised = listed.filter((item) => ((records[item.dataset.entry] || {}).practised || []).length).length;
      let line = chapter.querySelector(".chapter-record");
      if (!practised) { if (line) line.remove(); continue; }
      if (!line) {
        line = Object.assign(document.createElement("p"), { className: "chapter-record" });
        chapter.querySelector("ul.entries").before(line);
      }
      line.textContent = `You have practised ${practised} of ${plural(listed.length, "entry", "entries")} in this chapter.`;
    }
    const practised = items.filter((item) => ((records[item.dataset.entry] || {}).practised || []).length).length;
    const protocols = items.filter((item) => item.hasAttribute("data-protocol"));
    const reproduced = protocols.filter((item) => ((records[item.dataset.entry] || {}).protocol || []).length >= 3).length;
    summary.textContent = `You have practised ${practised} of ${plural(items.length, "entry", "entries")}, ` +
      `and completed ${reproduced} of ${plural(protocols.length, "protocol entry", "protocol entries")} (three separate days).`;
  };

  if (!available()) {
    summary.textContent = "";
    storage.textContent = UNAVAILABLE;
    storage.hidden = false;
    section.dataset.records = "unavailable";
    return;   // no controls that would do nothing
  }
  actions.hidden = false;
  render();
  section.dataset.records = "ready";

  document.getElementById("records-export").addEventListener("click", () => {
    const now = new Date();
    const text = exportText(bank, now);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    link.download = exportName(now);
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    const { entries } = JSON.parse(text);
    message.textContent = Object.keys(entries).length
      ? `Exported ${describe(entries)} to ${link.download}.`
      : `Exported ${link.download}: you have no records yet, so it lists none.`;
  });
  const keep = undoable(undo, message, {
    refused: "The browser refused to put the records back (its storage may be full).",
    undone: "Undone: your records are as they were before the import.",
    after: () => {
      render();
      document.getElementById("records-import").focus();
    },
  });
  document.getElementById("records-import").addEventListener("click", () => file.click());
  file.addEventListener("change", async () => {
    const picked = file.files[0];
    file.value = "";   // the same file can be picked again
    if (!picked) return;
    const replace = section.querySelector("input[name=records-mode]:checked").value === "replace";
    let read;
    try {
      read = await readFile(picked, bank);
    } catch (err) {
      message.textContent = `Not imported: ${err.message}`;
      section.dataset.imported = "refused";
      section.dataset.tries = String(Number(section.dataset.tries || 0) + 1);
      return;
    }
    try {
      keep(write(merged(read.entries, { replace }), { replace }));
    } catch (err) {
      message.textContent = `Not imported: ${err.message}`;
      section.dataset.imported = "refused";
      section.dataset.tries = String(Number(section.dataset.tries || 0) + 1);
      return;
    }
    render();
    message.textContent = `Imported ${describe(read.entries)} from ${picked.name}` +
      (replace ? ", replacing this browser's records." : ", merged with this browser's records.");
    section.dataset.imported = "done";
    section.dataset.tries = String(Number(section.dataset.tries || 0) + 1);
  });
}

// Another tab of the site recorded something: the overview follows.
window.addEventListener("storage", () => render());
initProgress();
document.addEventListener("turbo:render", initProgress);
