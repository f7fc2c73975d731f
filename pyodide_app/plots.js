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

const compact = new Intl.NumberFormat("en", { notation: "compact", maximumSignificantDigits: 4 });
const plain = new Intl.NumberFormat("en", { maximumSignificantDigits: 4 });
const exponent = (value) => Number(value.toPrecision(4)).toExponential().replace("e+", "e");

// Tick labels, in one style per axis so that no label needs converting to compare with its
// neighbour: plain (0.05, 1,500); k and M from 10,000 (they read the same as SI prefixes, so
// 500M is right as 500 million or as 500 MB); exponent form (1e9, 2.5e-6) once the axis reaches
// 1e9 or goes below 0.001, since 1B reads as a byte and 1T as tera, and 100T next to 1e15 is
// two notations on one axis.
function ticks(values) {
  const sizes = values.filter((v) => v).map(Math.abs);   // null (no label) and 0 decide nothing
  const largest = Math.max(0, ...sizes);
  const style = largest >= 1e9 || Math.min(...sizes) < 1e-3 ? exponent
    : largest >= 1e4 ? (v) => compact.format(v).replace("K", "k") : (v) => plain.format(v);
  return values.map((v) => (v === null || v === undefined ? "" : v === 0 ? "0" : style(v)));
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
function palette() {
  const style = getComputedStyle(document.documentElement);
  const get = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  return {
    ink: get("--ink", "#1d2330"),
    line: get("--line", "#dfe3ea"),
    colors: [get("--accent", "#8a3b12"), get("--focus", "#2458c6"), get("--ok", "#1e7a46")],
  };
}

export class Charts {
  constructor(uplotUrl, spec) {
    this.spec = spec;
    this.charts = [];
    this.sweeps = null;
    this.ready = import(uplotUrl).then((module) => { uPlot = module.default; });
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
    this.charts.forEach((chart) => chart.destroy());
    this.charts = [];
  }

  restyle() {
    if (!this.sweeps || JSON.stringify(palette()) === JSON.stringify(this.colors)) return;
    this.charts.forEach((chart) => chart.destroy());
    this.charts = [];
    this.draw(this.sweeps);
  }

  // Draws every chart, or says in each chart's place why it could not, and rejects: a chart
  // that failed is never passed over in silence (the points stay in the table below it).
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
      throw err;
    }
  }

  async drawAll(sweeps) {
    await this.ready;
    if (this.closed) return;
    this.sweeps = sweeps;
    const colors = this.colors = palette();
    this.spec.plots.forEach((plot, i) => {
      const box = document.querySelector(`.chart[data-plot="${i}"]`);
      const data = series(sweeps[i], plot);
      const current = sweeps[i].current;
      const width = Math.max(280, Math.min(box.clientWidth || 640, 760));
      if (this.charts[i]) {
        this.charts[i].current = current;
        this.charts[i].setData(data);
        this.charts[i].setSize({ width, height: 260 });
        return;
      }
      const label = (name) => this.spec.labels[name] || name;
      const color = (k) => colors.colors[k % colors.colors.length];
      const lines = { stroke: colors.line };
      const axis = (log) => ({ stroke: colors.ink, grid: lines, ticks: lines, values: (u, vals) => ticks(vals), ...(log ? logAxis : {}) });
      const opts = {
        width, height: 260,
        scales: {
          x: plot.log_x ? { time: false, distr: 3, range: logRangeX } : { time: false, distr: 1 },
          y: plot.log_y ? { distr: 3, range: logRange } : { distr: 1 },
        },
        axes: [{ label: label(plot.x), ...axis(plot.log_x) }, { size: 64, ...axis(plot.log_y) }],
        series: [{ label: plot.x }, ...plot.y.map((name, k) => ({ label: label(name), stroke: color(k), width: 2, spanGaps: false }))],
        legend: { show: plot.y.length > 1, live: false },
        cursor: { drag: { x: false, y: false } },
        hooks: { draw: [(u) => this.mark(u, i)] },
      };
      box.replaceChildren();
      if (plot.y.length === 1) {
        // One curve has no legend, so the y axis is named above the chart, across: most names
        // are longer than the 25 or so characters that fit up the axis's side.
        const name = document.createElement("p");
        name.className = "chart-y-label";
        name.textContent = label(plot.y[0]);
        box.append(name);
      }
      const chart = new uPlot(opts, data, box);
      chart.current = current;
      box.chart = chart;   // for the browser tests, and anyone in the console
      this.charts[i] = chart;
    });
  }

  mark(u, i) {
    // The current point, as a dot on each curve in the curve's colour.
    const current = u.current;
    if (!current) return;
    const ctx = u.ctx;
    const plot = this.spec.plots[i];
    plot.y.forEach((name, k) => {
      const y = current.y[name];
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
