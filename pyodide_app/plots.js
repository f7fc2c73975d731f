// Charts: uPlot draws the points the entry's own Python computed (at build time for the
// first paint, in the worker after each change).  The text alternative is in the page.
let uPlot = null;

// uPlot formats numbers in the reader's language, read once as it loads:
// `new Intl.NumberFormat(navigator.language)`.  Some engines report a language that is no
// language tag (WebKitGTK under the locale C reports "C"; others an empty string), and that
// throws, so no chart would be drawn.  For such a reader the page's own language stands in.
function usableLanguage(language) {
  try {
    new Intl.NumberFormat(language);
    return Boolean(language);
  } catch (err) {
    return false;
  }
}
if (!usableLanguage(navigator.language)) {
  const fallback = usableLanguage(document.documentElement.lang) ? document.documentElement.lang : "en";
  Object.defineProperty(navigator, "language", { value: fallback, configurable: true });
}

function series(sweep, plot) {
  // A log axis has no place for zero or below: such points are gaps, not dives off the chart.
  const keep = (y) => (y === null || (plot.log_y && !(y > 0)) ? null : y);
  return [sweep.x, ...plot.y.map((name) => sweep.y[name].map(keep))];
}

const plain = new Intl.NumberFormat("en", { maximumSignificantDigits: 4 });
const exponent = (value) => Number(value.toPrecision(4)).toExponential().replace("e+", "e");
const COUNT = [[1e12, "T"], [1e9, "B"], [1e6, "M"], [1e3, "k"]];   // as readers write counts: 10B, 32k
const SI = [[1e12, " T"], [1e9, " G"], [1e6, " M"], [1e3, " k"]];   // before a unit: 80 GB
const prefixed = (v, table, from) => {
  const size = Math.abs(v);
  const found = size >= from ? table.find(([scale]) => size >= scale) : null;
  return found ? plain.format(v / found[0]) + found[1] : plain.format(v);
};

// How an axis writes its numbers, from the unit of what it shows and the reader's unit menus:
// {scale, unit (named in the axis label), style (one tick)}.  Counts as readers write them
// (500, 10k, 10B, 2T); bytes with their prefix on each tick (512 MB, 40 GB) or in the unit the
// menu chose (GiB: every tick in GiB); FLOPs, and anything past 1e15 or below 0.001, in exponent
// form (1e21), as the field writes them.
const BYTE_SCALE = { GB: 1e9, GiB: 2 ** 30, "GB/s": 1e9, "GiB/s": 2 ** 30 };
export function axisStyle(unit, chosen = {}) {
  const family = unit === "B" ? "bytes" : unit === "B/s" ? "byte-rate" : null;
  if (family) {
    const choice = chosen[family];
    if (BYTE_SCALE[choice]) return { scale: BYTE_SCALE[choice], unit: choice, style: (v) => plain.format(v) };
    if (choice === "bytes") return { scale: 1, unit, style: (v, from) => prefixed(v, COUNT, from) };
    return { scale: 1, unit: "", big: true,
      style: (v) => (Math.abs(v) >= 1e15 ? `${exponent(v)} ${unit}` : `${prefixed(v, SI, 1e3)}${Math.abs(v) >= 1e3 ? "" : " "}${unit}`) };
  }
  if (/FLOP/.test(unit)) return { scale: 1, unit, style: (v) => (Math.abs(v) >= 1e4 ? exponent(v) : plain.format(v)) };
  return { scale: 1, unit, style: (v, from) => prefixed(v, COUNT, from) };
}

// Tick labels: exponent form once the axis reaches 1e15 or goes below 0.001, so that no axis
// mixes 100T with 1e15; otherwise the axis's own style.
export function ticks(values, axis = axisStyle("")) {
  const sizes = values.filter((v) => v).map(Math.abs);   // null (no label) and 0 decide nothing
  const largest = Math.max(0, ...sizes);
  const tiny = sizes.length && Math.min(...sizes) < 1e-3;
  const style = tiny || (largest >= 1e15 && !axis.big) ? exponent : axis.style;
  // k from 10,000 (5,000 reads better than 5k), but on an axis that reaches 10k its 1,000 is 1k.
  const from = largest >= 1e4 ? 1e3 : 1e4;
  return values.map((v) => (v === null || v === undefined ? "" : v === 0 ? "0" : style(v, from)));
}

// Log axes.  uPlot's own log ticks step through every 1..9 × 10^k: on data across 50 decades
// that freezes the page for seconds and then throws (uPlot #906, where the advice is your own
// splits), and above 1e22 the steps add up float error (1.1e23).  These ticks are exact,
// "1e" + k, every 1, 2, 3, 5, 10... decades so that the axis holds them, and when it spans
// so few decades that 1 × 10^k would be nearly alone, 2 and 5 × 10^k join them.
const decade = (k, m = 1) => Number(`${m}e${k}`);
const STRIDES = [1, 2, 3, 5, 10, 20, 25, 50, 100, 200];

function logSplits(u, axisIdx, min, max) {
  if (!(min > 0 && max > min && max < Infinity)) return [];
  const key = u.axes[axisIdx].scale;
  const length = Math.abs(u.valToPos(max, key) - u.valToPos(min, key));   // CSS pixels
  const gap = axisIdx === 0 ? 60 : 24;   // room a label needs: across for x, up for y
  const most = Math.max(2, Math.min(8, Math.floor(length / gap)));
  // The decades inside [min, max]; log10 of an exact power of ten can be off by one ulp.
  let lo = Math.ceil(Math.log10(min)), hi = Math.floor(Math.log10(max));
  if (decade(lo - 1) >= min) lo -= 1;
  if (decade(lo) < min) lo += 1;
  if (decade(hi + 1) <= max) hi += 1;
  if (decade(hi) > max) hi -= 1;
  const perDecade = length / (Math.log10(max) - Math.log10(min));
  if (hi - lo < 2 && Math.log10(2) * perDecade >= gap) {
    const fine = [];
    for (let k = lo - 1; k <= hi; k++) {
      for (const m of [1, 2, 5]) if (decade(k, m) >= min && decade(k, m) <= max) fine.push(decade(k, m));
    }
    if (fine.length <= most) return fine;
  }
  const stride = STRIDES.find((s) => Math.floor(hi / s) - Math.ceil(lo / s) + 1 <= most) || 500;
  const splits = [];
  for (let k = Math.ceil(lo / stride) * stride; k <= hi; k += stride) splits.push(decade(k));
  return splits;
}

// A log y scale spans the data out to the next whole leading digit (4.96e23..2.24e25 becomes
// 4e23..3e25), never empty: a flat series gets a decade either side, no positive point 1..10.
// A log x scale is the sweep's own from..to (uPlot's would stretch 512..131,072 to 500..1e6).
const logRangeX = (u, min, max) => (min > 0 && max > min && max < Infinity ? [min, max] : logRange(u, min, max));
function logRange(u, min, max) {
  if (!(min > 0 && max < Infinity)) return [1, 10];
  if (min === max) [min, max] = [min / 10, max * 10];
  const lead = (value, round) => {
    const [m, k] = value.toExponential().split("e");
    return decade(Number(k), round(Number(m)));
  };
  return [lead(min, Math.floor), Math.min(lead(max, Math.ceil), Number.MAX_VALUE)];
}

const logAxis = {
  splits: logSplits,
  filter: (u, splits) => splits,   // every split is labelled: uPlot's filter would drop some
  // uPlot first picks a linear step that fits the axis, and draws no axis at all when none of
  // its steps does (ranges past ~1e32); logSplits ignores the step, so any one that fits will do.
  incrs: [Infinity],
};

// The colours are the page's own (CSS variables, which change with the theme); the series take
// the accent, focus and ok colours, which have at least 5:1 contrast with the page in both themes.
export function palette() {
  const style = getComputedStyle(document.documentElement);
  const get = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  return {
    ink: get("--ink", "#1d2330"),
    line: get("--line", "#dfe3ea"),
    colors: [get("--accent", "#8a3b12"), get("--focus", "#2458c6"), get("--ok", "#1e7a46")],
  };
}

// uPlot's code, with its stylesheet: a page links neither until it draws a chart (its charts, or a
// comparison's).  The stylesheet stays in the document's head for the pages after (Turbo keeps it);
// one that fails to load leaves the charts drawn, unstyled.
const sheets = new Map();   // a stylesheet's URL -> its load settled
function stylesheet(href) {
  if (!sheets.has(href)) {
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
    sheets.set(href, new Promise((done) => { link.onload = link.onerror = done; }));
    document.head.append(link);
  }
  return sheets.get(href);
}
export async function loadUplot(url, css) {
  const [module] = await Promise.all([import(url), css && stylesheet(css)]);
  return module.default;
}

export class Charts {
  constructor(uplotUrl, spec, uplotCss) {
    this.spec = spec;
    this.charts = [];
    this.sweeps = null;
    this.ready = loadUplot(uplotUrl, uplotCss).then((module) => { uPlot = module; });
    // The first draw may come a while later (once Python's sweeps are in): a failure to load is
    // told by that draw (draw below), never as an unhandled rejection of a page being left.
    this.ready.catch(() => {});
    // uPlot keeps the colours it was given: when the theme changes (the Theme button sets
    // data-theme on <html>, or the system setting changes) the charts are drawn again.
    const restyle = this.restyleNow = () => this.restyle();
    (this.themeWatch = new MutationObserver(restyle)).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    (this.dark = matchMedia("(prefers-color-scheme: dark)")).addEventListener("change", restyle);
  }

  // The reader left the page (links keep this document: site.js): stop following the theme and
  // free the charts, which uPlot keeps listening to the window.
  close() {
    this.closed = true;
    this.themeWatch.disconnect();
    this.dark.removeEventListener("change", this.restyleNow);
    this.charts.forEach((chart) => chart && chart.destroy());
    this.charts = [];
  }

  restyle() {
    if (!this.sweeps || JSON.stringify(palette()) === JSON.stringify(this.colors)) return;
    this.charts.forEach((chart) => chart && chart.destroy());
    this.charts = [];
    this.draw(this.sweeps);
  }

  // Draws every chart, or says in each chart's place why it could not, and rejects: a chart
  // that failed is never passed over in silence (the points stay in the table below it).  The
  // rejection waits a second: a page being left has uPlot's code cut off on its way, which is no
  // failure, and it is gone by then, its timers with it.
  async draw(sweeps) {
    try {
      await this.drawAll(sweeps);
    } catch (err) {
      for (const box of document.querySelectorAll(".chart")) {
        const message = document.createElement("p");
        message.className = "chart-failed";
        message.setAttribute("role", "status");
        message.textContent = `This chart could not be drawn (${err.message}); its points are in the table below.`;
        box.replaceChildren(message);
        delete box.chart;
      }
      this.charts = [];
      await new Promise((resolve) => { setTimeout(resolve, 1000); });
      throw err;
    }
  }

  // The unit an axis shows: the output's (y) or the input's, as written beside its field (x).
  unitOf(name) {
    const output = this.spec.outputs.find((o) => o.name === name);
    if (output) return output.unit || "";
    const field = document.getElementById(`in-${name}`);
    const unit = field && field.closest(".control") && field.closest(".control").querySelector(".unit");
    return unit ? unit.textContent.trim() : "";
  }

  async drawAll(sweeps) {
    await this.ready;
    if (this.closed) return;
    this.sweeps = sweeps;
    const colors = this.colors = palette();
    const chosen = this.units || {};
    const unitsKey = JSON.stringify(chosen);
    this.spec.plots.forEach((plot, i) => {
      const box = document.querySelector(`.chart[data-plot="${i}"]`);
      this.csvLink(i, sweeps[i]);
      if (sweeps[i].inactive) {
        this.inactive(box, plot, sweeps[i].inactive);
        if (this.charts[i]) this.charts[i].destroy();
        this.charts[i] = null;
        return;
      }
      const xAxis = axisStyle(this.unitOf(plot.x), chosen);
      const units = [...new Set(plot.y.map((name) => this.unitOf(name)))];
      const yAxis = units.length === 1 ? axisStyle(units[0], chosen) : axisStyle("");
      const data = series(sweeps[i], plot).map((column, k) => (k === 0 || yAxis.scale === 1 ? column
        : column.map((y) => (y === null ? null : y / yAxis.scale))));
      const current = sweeps[i].current;
      const width = Math.max(280, Math.min(box.clientWidth || 640, 760));
      const chart = this.charts[i];
      if (chart && chart.unitsKey === unitsKey) {
        chart.current = current;
        chart.sweep = sweeps[i];
        chart.setData(data);
        chart.setSize({ width, height: 260 });
        return;
      }
      if (chart) chart.destroy();
      const label = (name) => this.spec.labels[name] || name;
      const named = (name, axis) => (axis.unit ? `${label(name)} (${axis.unit})` : label(name));
      const color = (k) => colors.colors[k % colors.colors.length];
      const lines = { stroke: colors.line };
      const axis = (log, style) => ({ stroke: colors.ink, grid: lines, ticks: lines, values: (u, vals) => ticks(vals, style), ...(log ? logAxis : {}) });
      const opts = {
        width, height: 260,
        scales: {
          x: plot.log_x ? { time: false, distr: 3, range: logRangeX } : { time: false, distr: 1 },
          y: plot.log_y ? { distr: 3, range: logRange } : { distr: 1 },
        },
        axes: [{ label: named(plot.x, xAxis), ...axis(plot.log_x, xAxis) }, { size: 72, ...axis(plot.log_y, yAxis) }],
        series: [{ label: plot.x }, ...plot.y.map((name, k) => ({ label: label(name), stroke: color(k), width: 2, spanGaps: false }))],
        legend: { show: plot.y.length > 1, live: false },
        cursor: { drag: { x: false, y: false }, focus: { prox: 16 } },
        hooks: { draw: [(u) => this.mark(u, i)], setCursor: [(u) => this.tip(u, i)] },
      };
      box.replaceChildren();
      if (plot.y.length === 1) {
        // One curve has no legend, so the y axis is named above the chart, across: most names
        // are longer than the 25 or so characters that fit up the axis's side.
        const name = document.createElement("p");
        name.className = "chart-y-label";
        name.textContent = named(plot.y[0], yAxis);
        box.append(name);
      } else if (yAxis.unit) {
        const name = document.createElement("p");
        name.className = "chart-y-label";
        name.textContent = `In ${yAxis.unit}`;
        box.append(name);
      }
      const made = new uPlot(opts, data, box);
      made.current = current;
      made.sweep = sweeps[i];
      made.unitsKey = unitsKey;
      made.yScale = yAxis.scale;
      box.chart = made;   // for the browser tests, and anyone in the console
      this.charts[i] = made;
      this.keyboard(box, i);
    });
  }

  // The chart's points as CSV, a "Download CSV" link beside it: the points the chart draws and its
  // table lists, a header of names with their units, numbers as computed (unformatted), empty
  // where the formula has no value.  Made again at each draw; none while the chart is inactive.
  csvLink(i, sweep) {
    const plot = this.spec.plots[i];
    const holder = document.getElementById(`plot-${i}`);
    if (!holder) return;
    let link = holder.querySelector("a.plot-csv");
    if (!link) {
      link = document.createElement("a");
      link.className = "plot-csv";
      link.textContent = "Download CSV";
      holder.querySelector("figure").after(link);
    }
    if (link.href) URL.revokeObjectURL(link.href);
    link.hidden = Boolean(sweep.inactive);
    if (sweep.inactive) { link.removeAttribute("href"); return; }
    const label = (name) => this.spec.labels[name] || name;
    const head = [plot.x, ...plot.y].map((name) => {
      const unit = this.unitOf(name);
      return unit ? `${label(name)} (${unit})` : label(name);
    });
    const cell = (v) => (v === null || v === undefined ? "" : String(v));
    const quote = (text) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
    const rows = [head, ...sweep.x.map((x, k) => [cell(x), ...plot.y.map((name) => cell(sweep.y[name][k]))])];
    const text = rows.map((row) => row.map(quote).join(",")).join("\n") + "\n";
    link.href = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
    link.download = `entry-${this.spec.id}-${plot.x}-chart-${i + 1}.csv`;
    // the visible words first in the accessible name (a speech user says what they see)
    link.setAttribute("aria-label", `Download CSV: the points of the chart of ${head.slice(1).join(", ")} against ${head[0]}`);
  }

  // A chart that the entry's mode does not use: said in words, instead of a flat line.
  inactive(box, plot, { input, when }) {
    const label = (name) => this.spec.labels[name] || name;
    const modes = Object.entries(when).map(([name, value]) => {
      const option = document.querySelector(`#in-${name} option[value="${CSS.escape(value)}"]`);
      return `“${label(name)}” is “${option ? option.textContent.trim() : value}”`;
    });
    const message = document.createElement("p");
    message.className = "chart-off";
    message.textContent = `This chart sweeps ${label(input)}, which these inputs do not use; it is drawn when ${modes.join(" and ")}.`;
    box.replaceChildren(message);
    delete box.chart;
  }

  // The values at the cursor (hover) or at the focused point (keyboard), as Python wrote them.
  tip(u, i) {
    const box = u.root.parentElement;
    let tip = box && box.querySelector(".chart-tip");
    const idx = u.cursor.idx;
    if (idx === null || idx === undefined || !u.sweep || u.cursor.left < 0) {
      if (tip) tip.hidden = true;
      return;
    }
    if (!tip) {
      tip = document.createElement("div");
      tip.className = "chart-tip";
      tip.setAttribute("role", "status");
      box.append(tip);
    }
    const plot = this.spec.plots[i];
    const label = (name) => this.spec.labels[name] || name;
    const text = u.sweep.text;
    const xUnit = this.unitOf(plot.x);
    const rows = [[label(plot.x), xUnit ? `${text.x[idx]}\u00a0${xUnit}` : text.x[idx]], ...plot.y.map((name) => [label(name), text.y[name][idx]])];
    tip.replaceChildren(...rows.map(([name, value], k) => {
      const line = document.createElement("div");
      const b = document.createElement("b");
      b.textContent = value;
      line.append(`${name}: `, b);
      if (k === 0) line.className = "chart-tip-x";
      return line;
    }));
    tip.hidden = false;
    const over = u.over.getBoundingClientRect(), outer = box.getBoundingClientRect();
    const x = over.left - outer.left + u.cursor.left, y = over.top - outer.top + (u.cursor.top > 0 ? u.cursor.top : over.height / 2);
    const right = x + 14 + tip.offsetWidth > outer.width;
    tip.style.left = `${Math.max(0, right ? x - 14 - tip.offsetWidth : x + 14)}px`;
    tip.style.top = `${Math.max(0, y - tip.offsetHeight - 8)}px`;
  }

  // The keyboard reaches the same values: Tab to the chart (it starts at the current point),
  // then the arrow keys, Home and End move along the curve; Escape or leaving hides the values.
  keyboard(box, i) {
    if (box.dataset.keys) return;
    box.dataset.keys = "1";
    box.tabIndex = 0;
    box.setAttribute("aria-keyshortcuts", "ArrowLeft ArrowRight Home End");
    const go = (idx) => {
      const u = this.charts[i];
      if (!u || !u.sweep || !u.sweep.x.length) return;
      idx = Math.max(0, Math.min(u.sweep.x.length - 1, idx));
      const y = u.data[1][idx];
      u.setCursor({ left: u.valToPos(u.data[0][idx], "x"), top: y === null ? -10 : u.valToPos(y, "y") });
      u.cursor.idx = idx;
      this.tip(u, i);
    };
    box.addEventListener("focus", () => {
      const u = this.charts[i];
      if (!u || !u.sweep) return;
      const xs = u.sweep.x, cx = u.current ? u.current.x : xs[0];
      let best = 0;
      xs.forEach((x, k) => { if (Math.abs(x - cx) < Math.abs(xs[best] - cx)) best = k; });
      go(best);
    });
    box.addEventListener("keydown", (event) => {
      const u = this.charts[i];
      if (!u) return;
      const idx = u.cursor.idx ?? 0, n = u.sweep ? u.sweep.x.length : 0;
      const step = { ArrowLeft: -1, ArrowRight: 1, ArrowDown: -1, ArrowUp: 1, PageDown: -10, PageUp: 10 }[event.key];
      if (step) go(idx + step);
      else if (event.key === "Home") go(0);
      else if (event.key === "End") go(n - 1);
      else if (event.key === "Escape") u.setCursor({ left: -10, top: -10 });
      else return;
      event.preventDefault();
    });
    box.addEventListener("blur", () => { const u = this.charts[i]; if (u) u.setCursor({ left: -10, top: -10 }); });
  }

  mark(u, i) {
    // The current point, as a dot on each curve in the curve's colour.
    const current = u.current;
    if (!current) return;
    const ctx = u.ctx;
    const plot = this.spec.plots[i];
    plot.y.forEach((name, k) => {
      const y = current.y[name] === null || current.y[name] === undefined ? current.y[name] : current.y[name] / (u.yScale || 1);
      if (y === null || y === undefined || (plot.log_y && !(y > 0))) return;
      const cx = u.valToPos(current.x, "x", true);
      const cy = u.valToPos(y, "y", true);
      ctx.save();
      ctx.beginPath();
      ctx.arc(cx, cy, 5 * devicePixelRatio, 0, 2 * Math.PI);
      ctx.fillStyle = u.series[k + 1].stroke(u, k + 1);
      ctx.fill();
      ctx.restore();
    });
  }
}
