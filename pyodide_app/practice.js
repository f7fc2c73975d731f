// Practice mode, the book's own method: cover the results, derive them, then reveal.
// Protocol entries keep a record of reproductions on separate days, in this browser only.
const KEY = (id) => `derivation-bank:protocol:${id}`;

function today() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

function readDays(id) {
  try {
    const days = JSON.parse(localStorage.getItem(KEY(id)) || "[]");
    return Array.isArray(days) ? days.filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)) : [];
  } catch (err) {
    return [];
  }
}

export function setupPractice(spec) {
  const root = document.documentElement;
  const toggle = document.getElementById("practice-toggle");
  const banner = document.getElementById("practice-banner");
  const set = (on) => {
    root.classList.toggle("practice", on);
    toggle.setAttribute("aria-pressed", String(on));
    toggle.textContent = on ? "Leave practice mode" : "Practice mode";
    banner.hidden = !on;
  };
  toggle.addEventListener("click", () => set(!root.classList.contains("practice")));
  document.getElementById("practice-reveal").addEventListener("click", () => set(false));

  if (!spec.protocol) return;
  const record = document.getElementById("protocol-record");
  const progress = document.getElementById("protocol-progress");
  const list = document.getElementById("protocol-days");
  const show = () => {
    const days = readDays(spec.id);
    const n = Math.min(days.length, 3);
    progress.textContent = days.length >= 3
      ? `Done: reproduced on ${days.length} separate days.`
      : `Reproduced on ${n} of 3 days.`;
    list.replaceChildren(...days.map((d) => Object.assign(document.createElement("li"), { textContent: d })));
    record.disabled = days.includes(today());
    record.textContent = record.disabled ? "Recorded for today" : "I reproduced it today";
  };
  record.addEventListener("click", () => {
    const days = readDays(spec.id);
    if (!days.includes(today())) days.push(today());   // one reproduction per day counts
    try { localStorage.setItem(KEY(spec.id), JSON.stringify(days.sort())); } catch (err) { /* storage off */ }
    show();
  });
  show();
}
