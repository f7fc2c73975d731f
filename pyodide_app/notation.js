// An entry's symbols: a symbol in the statement and the input or result it names highlight each
// other, on hover and on focus.  The build marks each such symbol (data-sym="<field name>", see
// site_builder/tex/notation.py); here each becomes focusable, and what is highlighted is announced.
const HIGHLIGHT = "sym-hl";

export function setupNotation() {
  const statement = document.getElementById("statement");
  if (!statement) return;
  const marks = [...statement.querySelectorAll("[data-sym]")];
  if (!marks.length) return;
  const live = document.createElement("p");
  live.className = "sr-only";
  live.id = "notation-live";
  live.setAttribute("aria-live", "polite");
  statement.append(live);

  const field = (name) => document.getElementById(`input-${name}`) || document.getElementById(`output-${name}`);
  const labelOf = (box) => {
    const label = box.querySelector(".label");
    return label ? label.textContent.trim() : "";
  };
  const highlight = (name, on) => {
    for (const mark of marks) if (mark.dataset.sym === name) mark.classList.toggle(HIGHLIGHT, on);
    const box = field(name);
    if (box) box.classList.toggle(HIGHLIGHT, on);
  };

  const named = new Set();
  marks.forEach((mark) => {
    const name = mark.dataset.sym;
    const box = field(name);
    if (!box) return;
    const kind = box.id.startsWith("input-") ? "input" : "result";
    // KaTeX's visual HTML is hidden from assistive technology (its MathML is read instead), so a
    // symbol there must not take focus: from the keyboard, a field's focus lights its symbol.
    if (!mark.closest('[aria-hidden="true"]')) mark.tabIndex = 0;
    mark.classList.add("sym-link");
    mark.title = `${labelOf(box)} (${kind} ${name})`;
    const on = () => highlight(name, true);
    const off = () => highlight(name, false);
    mark.addEventListener("mouseenter", on);
    mark.addEventListener("mouseleave", off);
    mark.addEventListener("focus", () => { on(); live.textContent = `${name}: ${labelOf(box)}, ${kind}, highlighted.`; });
    mark.addEventListener("blur", off);
    if (named.has(name)) return;
    named.add(name);
    // The field: hovering or focusing it lights its symbol in the statement; a screen reader hears so.
    box.addEventListener("mouseenter", on);
    box.addEventListener("mouseleave", off);
    box.addEventListener("focusin", on);
    box.addEventListener("focusout", off);
    const control = box.querySelector("input, select") || box.querySelector("output");
    if (control) {
      const note = document.createElement("span");
      note.className = "sr-only";
      note.id = `sym-note-${name}`;
      note.textContent = `Written ${name} in the statement, highlighted there.`;
      // inside a result's <dd>: a <dl>'s group holds only <dt> and <dd>
      (control.closest("dd") || box).append(note);
      const described = (control.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
      if (!described.includes(note.id)) control.setAttribute("aria-describedby", [...described, note.id].join(" "));
    }
  });
}
