// The reader's comparison of presets: the models (and accelerators) they pick, each computed by
// the worker's Python with the reader's other inputs as they are (presets.js's fillFor: inputs
// the reader typed are kept), shown as one table and one chart of the headline.  The link
// carries the list (link.js, ?compare=llama-3-70b,mixtral-8x7b); an embed card shows the table.
// Every value is Python's text, set as textContent, never markup.
import { axisStyle, loadUplot, palette, ticks } from "./plots.js";

export const MAX_COMPARED = 8;   // presets one comparison holds (link.js caps a link's list the same)
const COLUMNS = 4;               // results a row shows: the headline, then the link's show= or the next ones

// ``deps``: spec, form, runner, rawInputs, units, presets (setupPresets's), limit(raw), alive(),
// uplot and uplotCss (uPlot's code and stylesheet), listed ([{kind, id}] from the link), shown() (the link's show=), changed()
// (the page writes its link again).  Loaded by page.js on the reader's first use of the comparison
// (ondemand.js), when a preset is first chosen, or at once when the link compares presets.
export function setupCompare(deps) {
  const { spec, runner, presets, listed, changed } = deps;
  const offered = spec.presets || {};
  const section = document.getElementById("compare");
  const box = document.getElementById("compare-live");   // shown, its menus filled (ondemand.js)
  const out = document.getElementById("compare-out");
  const table = document.getElementById("compare-table");
  const chartBox = document.getElementById("compare-chart");
  const caption = document.getElementById("compare-chart-caption");
  const current = document.getElementById("compare-current");
  const clear = document.getElementById("compare-clear");
  const root = document.documentElement;
  let list = listed.filter((item) => find(item));
  let seq = 0;
  let timer = null;
  let chart = null;

  function find(item) {
    return (offered[item.kind] || []).find((p) => p.id === item.id);
  }

  // The add menus (filled with the preset menus' own options, ondemand.js).
  for (const menu of box.querySelectorAll("select[data-kind]")) {
    menu.addEventListener("change", () => {
      if (menu.value) add({ kind: menu.dataset.kind, id: menu.value });
      menu.value = "";
    });
  }
  current.addEventListener("click", () => {
    for (const [kind, preset] of Object.entries(presets.chosen())) add({ kind, id: preset.id }, false);
    update();
  });
  clear.addEventListener("click", () => { list = []; update(); });
  deps.form.addEventListener("change", buttons);   // a preset menu changed: may the current one be added?

  function add(item, now = true) {
    if (!find(item) || list.some((x) => x.kind === item.kind && x.id === item.id)) return;
    if (list.length >= MAX_COMPARED) {
      document.getElementById("compare-help").textContent = `A comparison holds at most ${MAX_COMPARED} presets; remove one to add another.`;
      return;
    }
    list.push(item);
    if (now) update();
  }

  function buttons() {
    const chosen = Object.entries(presets.chosen());
    current.hidden = !chosen.length || chosen.every(([kind, p]) => list.some((x) => x.kind === kind && x.id === p.id));
    clear.hidden = !list.length;
  }

  function update() {
    buttons();
    changed();   // the link carries the list
    refresh(0);
  }

  // Computed again after any change of the reader's inputs, once typing pauses.
  function refresh(delay = 150) {
    clearTimeout(timer);
    timer = setTimeout(compute, delay);
  }

  async function compute() {
    const mine = ++seq;
    section.classList.toggle("comparing", list.length > 0);
    buttons();
    if (!list.length) {
      out.hidden = true;
      if (chart) { chart.destroy(); chart = null; }
      root.dataset.compared = String(mine);
      return;
    }
    const base = deps.rawInputs();
    const units = deps.units();
    const rows = [];
    for (const item of list) {
      const preset = find(item);
      const raw = presets.fillFor(item.kind, preset, base);
      let reply;
      try {
        reply = await runner.call("run", { entry: spec.id, raw, units }, deps.limit(raw));
      } catch (err) {
        reply = { ok: false, errors: { inputs: err.message } };
      }
      if (mine !== seq || !deps.alive()) return;
      rows.push({ item, preset, reply });
    }
    draw(rows);
    root.dataset.compared = String(mine);
  }

  // The results a row shows: the headline, then the link's show= (or the entry's next results);
  // lists are left out (a row holds one value a result).
  function names(rows) {
    const first = rows.find((r) => r.reply.ok);
    const single = (name) => !first || !Array.isArray(first.reply.value.outputs[name].value);
    const chosen = deps.shown().length ? deps.shown() : spec.outputs.map((o) => o.name);
    return [...new Set([...spec.headline, ...chosen])].filter(single).slice(0, COLUMNS);
  }

  function draw(rows) {
    const shown = names(rows);
    const label = (name) => spec.labels[name] || name;
    const head = document.createElement("tr");
    const corner = document.createElement("th");
    corner.scope = "col";
    corner.textContent = [...new Set(list.map((x) => spec.kinds[x.kind] || x.kind))].map((k) => k[0].toUpperCase() + k.slice(1)).join(" / ");
    head.append(corner);
    for (const name of shown) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = label(name);
      head.append(th);
    }
    const removeHead = document.createElement("th");
    removeHead.scope = "col";
    const hidden = document.createElement("span");
    hidden.className = "sr-only";
    hidden.textContent = "Remove";
    removeHead.append(hidden);
    head.append(removeHead);
    table.tHead.replaceChildren(head);
    const chosen = presets.chosen();
    table.tBodies[0].replaceChildren(...rows.map(({ item, preset, reply }) => {
      const tr = document.createElement("tr");
      tr.dataset.preset = item.id;
      tr.dataset.kind = item.kind;
      if (chosen[item.kind] && chosen[item.kind].id === item.id) tr.classList.add("compare-current");
      const name = document.createElement("th");
      name.scope = "row";
      name.textContent = preset.name;
      tr.append(name);
      if (reply.ok) {
        for (const output of shown) {
          const cell = document.createElement("td");
          const result = reply.value.outputs[output];
          cell.dataset.output = output;
          cell.textContent = result.flag || result.text;
          tr.append(cell);
        }
      } else {
        const cell = document.createElement("td");
        cell.className = "compare-error";
        cell.colSpan = shown.length;
        cell.textContent = `Not computed: ${Object.entries(reply.errors).map(([k, v]) => (k === "inputs" ? v : `${k}: ${v}`)).join("; ")}`;
        tr.append(cell);
      }
      const last = document.createElement("td");
      const remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = "Remove";
      remove.setAttribute("aria-label", `Remove ${preset.name} from the comparison`);
      remove.addEventListener("click", () => {
        list = list.filter((x) => !(x.kind === item.kind && x.id === item.id));
        update();
      });
      last.append(remove);
      tr.append(last);
      return tr;
    }));
    document.getElementById("compare-caption").textContent =
      `Side by side, with your other inputs${Object.keys(deps.units()).length ? " and units" : ""} as they are`;
    out.hidden = false;
    drawChart(rows, shown[0]);
  }

  // One bar a preset: the headline's value (its text in the caption, the chart's text alternative).
  async function drawChart(rows, name) {
    const output = spec.outputs.find((o) => o.name === name);
    const computed = rows.filter((r) => r.reply.ok);
    caption.textContent = `${spec.labels[name] || name}: ${computed.map((r) => `${r.preset.name} ${r.reply.value.outputs[name].flag || r.reply.value.outputs[name].text}`).join("; ")}.`;
    const mine = seq;
    const uPlot = await loadUplot(deps.uplot, deps.uplotCss);
    if (mine !== seq || !deps.alive()) return;
    const axis = axisStyle(output ? output.unit || "" : "", deps.units());
    const values = rows.map((r) => {
      const v = r.reply.ok ? r.reply.value.outputs[name].value : null;
      return typeof v === "number" && Number.isFinite(v) ? v / axis.scale : null;
    });
    const xs = rows.map((_, k) => k);
    const colors = palette();
    const lines = { stroke: colors.line };
    const names = rows.map((r) => r.preset.name);
    const width = Math.max(260, Math.min(chartBox.clientWidth || 640, 760));
    if (chart) chart.destroy();
    chartBox.replaceChildren();
    const title = document.createElement("p");
    title.className = "chart-y-label";
    title.textContent = axis.unit ? `${spec.labels[name] || name} (${axis.unit})` : spec.labels[name] || name;
    chartBox.append(title);
    const top = Math.max(0, ...values.filter((v) => v !== null));
    // A bar's name fits its slot (about 7 px a character), cut with an ellipsis; the table has it whole.
    const room = Math.max(4, Math.floor((width - 80) / rows.length / 7));
    const short = (text) => (text.length > room ? `${text.slice(0, room - 1)}…` : text);
    chart = new uPlot({
      width, height: 240,
      scales: { x: { time: false, range: [-0.5, rows.length - 0.5] }, y: { range: [0, top > 0 ? top * 1.08 : 1] } },
      axes: [
        { stroke: colors.ink, grid: { show: false }, ticks: lines, splits: () => xs, values: (u, vals) => vals.map((v) => short(names[v] || "")), size: 40 },
        { stroke: colors.ink, grid: lines, ticks: lines, size: 72, values: (u, vals) => ticks(vals, axis) },
      ],
      series: [{}, { label: spec.labels[name] || name, stroke: colors.colors[0], fill: colors.colors[0], width: 1,
        paths: uPlot.paths.bars({ size: [0.6, 80] }), points: { show: false } }],
      legend: { show: false },
      cursor: { show: false },
    }, [xs, values], chartBox);
    chartBox.chart = chart;   // for the browser tests
  }

  buttons();
  section.classList.toggle("comparing", list.length > 0);   // filled in by the page's first run (refresh)
  return {
    list: () => list.map((x) => ({ ...x })),
    refresh,
    close() { clearTimeout(timer); seq++; if (chart) chart.destroy(); chart = null; },
  };
}
