// "Every model" / "Every accelerator": an entry's results for every preset of a kind, computed
// when the site was built by the same Python (site_builder/preset_table.py) and written beside
// the page as JSON.  Nothing is fetched until the reader opens the table; then it is drawn once,
// sortable by any column (a button in each header, its order in aria-sort).  A preset that does
// not fill the entry, or that the entry rejects, is a row that says why.  Every value is text
// (textContent), never markup.

// A drawn table -> {data, fill, units: the choices its texts are written in, texts: the worker's
// {output: [text]} in those units, or null for the build's (the page's default units)}.
const drawn = new WeakMap();

// A table of ``data`` (preset_table.table) into ``body``, its rows ordered by ``sortBy``.
export function drawTable(body, data, kind) {
  data.rows.forEach((r, i) => { r.index = i; });
  const held = { data, units: "{}", texts: null };
  const columns = [
    { key: "name", label: data.label[0].toUpperCase() + data.label.slice(1), text: (r) => r.name, value: (r) => r.name },
    ...data.columns.map((c) => ({
      key: c.name, label: c.label, result: true,
      text: (r) => {
        if (!r.values) return "";
        const written = held.texts && held.texts[c.name] && held.texts[c.name][r.index];
        return typeof written === "string" ? written : r.values[c.name].text;
      },
      value: (r) => (r.values ? r.values[c.name].value : null),
    })),
  ];
  const table = document.createElement("table");
  table.className = "every-table";
  table.id = `every-${kind}-table`;
  const caption = table.createCaption();
  caption.textContent = `Every ${data.label}: ${data.rows.length} presets, this entry's defaults otherwise`;
  const head = table.createTHead().insertRow();
  const order = { key: null, sense: 1 };
  const bodyRows = table.createTBody();

  function rows() {
    const list = [...data.rows];
    if (!order.key) return list;
    const column = columns.find((c) => c.key === order.key);
    // Rows without a value (a preset that does not fill the entry) go last, whichever the order.
    list.sort((a, b) => {
      const x = column.value(a), y = column.value(b);
      if (x === null || x === undefined || y === null || y === undefined) return (x == null) - (y == null);
      if (typeof x === "string") return order.sense * x.localeCompare(y, "en", { numeric: true });
      return order.sense * (Number(x) - Number(y));
    });
    return list;
  }

  function fill() {
    bodyRows.replaceChildren(...rows().flatMap((r) => {
      const tr = document.createElement("tr");
      tr.dataset.preset = r.id;
      const name = document.createElement("th");
      name.scope = "row";
      name.textContent = r.name;
      name.title = r.family;
      tr.append(name);
      if (r.why) {
        const why = document.createElement("td");
        why.className = "every-why";
        why.colSpan = data.columns.length;
        why.textContent = r.why;
        tr.append(why);
        tr.classList.add("every-missing");
      } else {
        for (const c of columns.slice(1)) {
          const cell = document.createElement("td");
          cell.dataset.output = c.key;
          cell.textContent = c.text(r);
          tr.append(cell);
        }
      }
      if (!r.departs) return [tr];
      // The entry's own count is not the model's architecture count: said under its row.
      const note = document.createElement("tr");
      note.className = "every-departs";
      const text = document.createElement("td");
      text.colSpan = data.columns.length + 1;
      text.textContent = r.departs;
      note.append(text);
      return [tr, note];
    }));
    for (const th of head.cells) {
      const key = th.dataset.key;
      if (key === order.key) th.setAttribute("aria-sort", order.sense > 0 ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    }
  }

  for (const c of columns) {
    const th = document.createElement("th");
    th.scope = "col";
    th.dataset.key = c.key;
    if (c.result) th.className = "every-result";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "sort";
    button.textContent = c.label;
    button.addEventListener("click", () => {
      // Results sort largest first on the first click, names from A.
      const first = c.result ? -1 : 1;
      order.sense = order.key === c.key ? -order.sense : first;
      order.key = c.key;
      fill();
      body.dataset.sorted = `${order.key}:${order.sense > 0 ? "ascending" : "descending"}`;
    });
    th.append(button);
    head.append(th);
  }
  fill();
  held.fill = fill;
  drawn.set(table, held);
  const scroll = document.createElement("div");
  scroll.className = "table-scroll";
  scroll.tabIndex = 0;
  scroll.setAttribute("role", "region");
  scroll.setAttribute("aria-label", `Every ${data.label}, scrollable`);
  scroll.append(table);
  body.replaceChildren(scroll);
}

// Every drawn table's values written in the reader's ``units`` (the page's menus: {family:
// choice}), as the page's own results are, by the same Python: ``write(values, units)`` asks the
// worker.  A flag (words) and a missing value keep the build's text; no choice, the build's texts.
export async function writeEvery(write, units) {
  const key = JSON.stringify(units);
  for (const table of document.querySelectorAll("table.every-table")) {
    const held = drawn.get(table);
    if (!held || held.units === key) continue;
    held.units = key;
    let texts = null;
    if (Object.keys(units).length) {
      const values = Object.fromEntries(held.data.columns.map((c) => [c.name, held.data.rows.map((r) => {
        const cell = r.values && r.values[c.name];
        return cell && !cell.flag && typeof cell.value === "number" ? cell.value : null;
      })]));
      const reply = await write(values, units).catch(() => null);
      if (held.units !== key) continue;   // the reader chose again meanwhile: that answer writes it
      if (!reply || !reply.ok) { held.units = null; continue; }   // the build's texts stay; asked again next time
      texts = reply.value;
    }
    held.texts = texts;
    held.fill();
    table.dataset.units = key;
  }
}

// Each "Every ..." box of the page: fetched and drawn the first time it is opened, in the units
// ``page.units()`` chooses (``page.write`` writes them; see writeEvery).
export function setupEvery(page) {
  for (const box of document.querySelectorAll("details.every[data-src]")) {
    if (box.dataset.wired) continue;
    box.dataset.wired = "1";
    const body = box.querySelector(".every-body");
    const load = async () => {
      if (!box.open || box.dataset.state) return;
      box.dataset.state = "loading";
      body.querySelector(".every-status").textContent = "Loading…";
      try {
        const response = await fetch(box.dataset.src);
        if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
        drawTable(body, await response.json(), box.dataset.kind);
        box.dataset.state = "drawn";
        writeEvery(page.write, page.units());
      } catch (err) {
        delete box.dataset.state;   // opening it again tries again
        const status = document.createElement("p");
        status.className = "every-status";
        status.setAttribute("role", "status");
        status.textContent = `The table could not be loaded (${err.message}); close and open it to try again.`;
        body.replaceChildren(status);
      }
    };
    box.addEventListener("toggle", load);
    load();   // open already (a link to #every-model, a restored page)
  }
}
