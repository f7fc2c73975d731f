// Charts: uPlot draws the points the entry's own Python computed (at build time for the
// first paint, in the worker after each change).  The text alternative is in the page.
let uPlot = null;

function series(sweep, names) {
  return [sweep.x, ...names.map((name) => sweep.y[name].map((y) => (y === null ? null : y)))];
}

const compact = new Intl.NumberFormat("en", { notation: "compact", maximumSignificantDigits: 3 });
const plain = new Intl.NumberFormat("en", { maximumSignificantDigits: 4 });

// Tick labels short enough for the axis: 100B, 1.5T, 1e18, 0.05, 2.5e-6.
function tick(value) {
  if (value === null || value === undefined) return "";
  const size = Math.abs(value);
  if (size === 0) return "0";
  if (size >= 1e15 || size < 1e-3) return value.toExponential(1).replace("e+", "e").replace(".0e", "e");
  if (size >= 1e4) return compact.format(value).replace("K", "k");
  return plain.format(value);
}

function palette() {
  const style = getComputedStyle(document.documentElement);
  return {
    ink: style.getPropertyValue("--ink").trim() || "#1d2330",
    line: style.getPropertyValue("--line").trim() || "#dfe3ea",
    colors: ["#8a3b12", "#2458c6", "#1e7a46"],
  };
}

export class Charts {
  constructor(uplotUrl, spec) {
    this.spec = spec;
    this.charts = [];
    this.ready = import(uplotUrl).then((module) => { uPlot = module.default; });
  }

  async draw(sweeps) {
    await this.ready;
    const colors = palette();
    this.spec.plots.forEach((plot, i) => {
      const box = document.querySelector(`.chart[data-plot="${i}"]`);
      const data = series(sweeps[i], plot.y);
      const current = sweeps[i].current;
      const width = Math.max(280, Math.min(box.clientWidth || 640, 760));
      if (this.charts[i]) {
        this.charts[i].current = current;
        this.charts[i].setData(data);
        this.charts[i].setSize({ width, height: 260 });
        return;
      }
      const label = (name) => this.spec.labels[name] || name;
      const opts = {
        width, height: 260,
        scales: { x: { time: false, distr: plot.log_x ? 3 : 1 }, y: { distr: plot.log_y ? 3 : 1 } },
        axes: [
          { label: label(plot.x), stroke: colors.ink, grid: { stroke: colors.line }, values: (u, vals) => vals.map(tick) },
          { stroke: colors.ink, grid: { stroke: colors.line }, size: 64, values: (u, vals) => vals.map(tick) },
        ],
        series: [{ label: plot.x }, ...plot.y.map((name, k) => ({ label: label(name), stroke: colors.colors[k], width: 2, spanGaps: false }))],
        legend: { show: plot.y.length > 1, live: false },
        cursor: { drag: { x: false, y: false } },
        hooks: { draw: [(u) => this.mark(u, i)] },
      };
      box.replaceChildren();
      const chart = new uPlot(opts, data, box);
      chart.current = current;
      this.charts[i] = chart;
    });
  }

  mark(u, i) {
    // The current point, as a ring on each curve.
    const current = u.current;
    if (!current) return;
    const ctx = u.ctx;
    const plot = this.spec.plots[i];
    plot.y.forEach((name, k) => {
      const y = current.y[name];
      if (y === null || y === undefined) return;
      const cx = u.valToPos(current.x, "x", true);
      const cy = u.valToPos(y, "y", true);
      ctx.save();
      ctx.beginPath();
      ctx.arc(cx, cy, 5 * devicePixelRatio, 0, 2 * Math.PI);
      ctx.fillStyle = palette().colors[k];
      ctx.fill();
      ctx.restore();
    });
  }
}
