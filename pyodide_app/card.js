// The card as an image, for slide tools that cannot embed an iframe: an SVG drawn here from the
// results on the page (the headline, or the outputs the link's show= chose), with the inputs and
// the permalink printed on it, light or dark; the PNG is that SVG drawn on a canvas.  No request
// leaves the page: the SVG is read from a data: URL, and the files are handed over as blobs.

const W = 960, H = 540;
const THEMES = {
  light: { paper: "#ffffff", ink: "#1b1f24", muted: "#5b6470", accent: "#1f5fa8", line: "#d6dbe1" },
  dark: { paper: "#15191e", ink: "#e8ebef", muted: "#a3adb9", accent: "#7fb2ec", line: "#38404a" },
};
// The page's typefaces (style.css: --sans for results and labels, --serif for the title): the image reads as the page.
const SANS = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const SERIF = "'Iowan Old Style', 'Palatino Linotype', Palatino, 'Book Antiqua', Georgia, serif";
const MONO = "ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'DejaVu Sans Mono', monospace";

function text(node) {
  return node ? node.textContent.replace(/[ \t\r\n]+/g, " ").trim() : "";
}

// What the card says: the title, the results it shows (first one large), the inputs, the link.
export function cardContent(spec, shown, link) {
  const names = shown.length ? shown : spec.headline;
  const results = names.map((name) => ({
    label: [text(document.querySelector(`#output-${name} dt .label`)) || name, text(document.querySelector(`#output-${name} dt .kind`))].filter(Boolean).join(" "),
    value: text(document.getElementById(`out-${name}`)),
  }));
  const form = document.getElementById("inputs");
  const inputs = spec.inputs.map((input) => {
    const field = document.getElementById(`input-${input.name}`);
    const control = form.elements[input.name];
    // Python's text for reading once it has computed (70,553,706,496; 80B as typed), else the field's.
    const shownValue = document.getElementById(`shown-${input.name}`);
    let value = control.value.trim();
    if (shownValue && !document.getElementById("outputs").classList.contains("stale")) value = shownValue.textContent;
    if (control.tagName === "SELECT") value = text(control.selectedOptions[0]) || value;
    const unit = text(field && field.querySelector(".unit"));
    return { name: input.name, label: text(field && field.querySelector(".label")) || input.name, value: unit ? `${value} ${unit}` : value };
  });
  return {
    kicker: `${text(document.querySelector(".kicker > span"))} · Derivation Bank`,
    title: text(document.querySelector("article.entry h1")),
    results, inputs, link, comparison: comparison(),
  };
}

// The comparison the page shows (compare.js's table), as the card draws it: its columns (the
// last, "Remove", left out) and one row per preset; null when no comparison is shown.
function comparison() {
  const table = document.getElementById("compare-table");
  const out = document.getElementById("compare-out");
  if (!table || !out || out.hidden || !table.tBodies[0] || !table.tBodies[0].rows.length) return null;
  const cells = (row) => [...row.cells].slice(0, -1).map(text);
  return { head: cells(table.tHead.rows[0]), rows: [...table.tBodies[0].rows].map(cells) };
}

// Lines of at most `max` characters, breaking between the pieces (a piece too long is cut).
function wrap(pieces, max, sep = " · ") {
  const lines = [];
  let line = "";
  for (let piece of pieces) {
    if (piece.length > max) piece = `${piece.slice(0, max - 1)}…`;
    if (line && line.length + sep.length + piece.length > max) { lines.push(line); line = piece; }
    else line = line ? `${line}${sep}${piece}` : piece;
  }
  if (line) lines.push(line);
  return lines;
}

export function cardSvg(content, theme, ns) {
  const c = THEMES[theme];
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("xmlns", ns);
  svg.setAttribute("width", String(W));
  svg.setAttribute("height", String(H));
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const add = (name, attrs, body) => {
    const el = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    if (body !== undefined) el.textContent = body;   // never markup: values come from anyone's link
    svg.append(el);
    return el;
  };
  add("title", {}, `${content.title}: ${content.results.map((r) => `${r.label} = ${r.value}`).join("; ")}`);
  add("rect", { width: W, height: H, fill: c.paper });
  add("rect", { width: 8, height: H, fill: c.accent });
  let y = 56;
  add("text", { x: 48, y, fill: c.muted, "font-family": SANS, "font-size": 20 }, content.kicker);
  y += 44;
  for (const line of wrap(content.title.split(" "), 46, " ").slice(0, 2)) { add("text", { x: 48, y, fill: c.ink, "font-family": SERIF, "font-size": 34, "font-weight": 700 }, line); y += 40; }
  y += 18;
  // Beside a comparison each row takes its own preset's values: the other inputs get three lines.
  const inputLines = wrap(content.inputs.map((i) => `${i.label} = ${i.value}`), 104).slice(0, content.comparison ? 3 : 8);
  const room = H - 48 - 22 * inputLines.length - 30;
  const table = content.comparison;
  if (table) {
    // Side by side: the presets compared, the headline first, as many rows and columns as fit.
    const columns = table.head.slice(0, 4);
    const rows = table.rows.slice(0, Math.max(1, Math.floor((room - y - 34) / 34)));
    const first = 260, width = (W - 96 - first) / Math.max(columns.length - 1, 1);
    const x = (i) => (i === 0 ? 48 : 48 + first + (i - 1) * width);
    const cut = (value, i) => { const max = i === 0 ? 22 : Math.floor(width / 14); return value.length > max ? `${value.slice(0, max - 1)}…` : value; };
    columns.forEach((name, i) => add("text", { x: x(i), y, fill: c.muted, "font-family": SANS, "font-size": 17 }, cut(name, i)));
    y += 10;
    add("line", { x1: 48, x2: W - 48, y1: y, y2: y, stroke: c.line, "stroke-width": 1 });
    for (const row of rows) {
      y += 34;
      row.slice(0, columns.length).forEach((value, i) => add("text", {
        x: x(i), y, fill: i === 1 ? c.accent : c.ink, "font-family": SANS, "font-size": i === 0 ? 22 : 24,
        "font-weight": i === 1 ? 700 : 400, "font-variant-numeric": "tabular-nums lining-nums",
      }, cut(value, i)));
    }
    if (table.rows.length > rows.length) add("text", { x: 48, y: y + 28, fill: c.muted, "font-family": SANS, "font-size": 15 }, `and ${table.rows.length - rows.length} more on the page`);
  }
  if (!table) content.results.slice(0, 6).forEach((r, k) => {
    const big = k === 0;
    if (!big && y + 64 > room) return;   // no room: the first results only, never over the inputs
    add("text", { x: 48, y, fill: c.muted, "font-family": SANS, "font-size": big ? 22 : 18 }, r.label);
    y += big ? 64 : 34;
    // A bold sans figure is about 0.62 em wide: the largest size at which the value fits the card's width.
    const size = big ? Math.min(96, Math.floor((W - 96) / (0.62 * Math.max(r.value.length, 1)))) : 28;
    if (big) y += Math.max(0, size - 64);
    const value = r.value.slice(0, 120);
    const squeeze = 0.62 * Math.max(size, 22) * value.length > W - 96 ? { textLength: W - 96, lengthAdjust: "spacingAndGlyphs" } : {};
    add("text", { x: 48, y, fill: big ? c.accent : c.ink, "font-family": SANS, "font-size": Math.max(size, 22), "font-weight": 700, "font-variant-numeric": "tabular-nums lining-nums", ...squeeze }, value);
    y += big ? 36 : 30;
  });
  let bottom = H - 48 - 22 * inputLines.length;
  add("line", { x1: 48, x2: W - 48, y1: bottom - 16, y2: bottom - 16, stroke: c.line, "stroke-width": 2 });
  for (const line of inputLines) { bottom += 22; add("text", { x: 48, y: bottom, fill: c.ink, "font-family": SANS, "font-size": 15 }, line); }
  add("text", { x: 48, y: H - 18, fill: c.accent, "font-family": MONO, "font-size": 16 }, content.link.length > 100 ? `${content.link.slice(0, 99)}…` : content.link);
  return new XMLSerializer().serializeToString(svg);
}

// ---- PNG: the SVG on a canvas, with the link and the inputs in the file's own text too
const CRC = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function itxt(keyword, value) {
  const enc = new TextEncoder();
  const data = new Uint8Array([...enc.encode(keyword), 0, 0, 0, 0, 0, ...enc.encode(value)]);
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(enc.encode("iTXt"), 4);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  return chunk;
}
async function pngWithText(blob, fields) {
  const png = new Uint8Array(await blob.arrayBuffer());
  const chunks = Object.entries(fields).map(([k, v]) => itxt(k, v));
  const at = 33;   // after the signature and IHDR
  return new Blob([png.subarray(0, at), ...chunks, png.subarray(at)], { type: "image/png" });
}

async function svgToPng(svgText) {
  const img = new Image();
  img.src = `data:image/svg+xml;base64,${btoa(String.fromCharCode(...new TextEncoder().encode(svgText)))}`;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = 2 * W;
  canvas.height = 2 * H;
  canvas.getContext("2d").drawImage(img, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("no PNG"))), "image/png"));
}

function hand(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// A card button pressed (page.js and plan.js show the buttons and load this code on the first
// press): the card drawn now, as the page shows it, and handed over as a file.  ``content`` (an
// entry's by default) says what the card shows; ``name`` the files' name before "-card-".
export async function handCard(button, { spec, shown, link, content = () => cardContent(spec, shown(), link()), name = `entry-${spec.id}` }) {
  const ns = new DOMParser().parseFromString("<svg></svg>", "text/html").body.firstChild.namespaceURI;   // (no foreign URL in our files)
  const theme = button.dataset.theme;
  const drawn = content();
  const svg = cardSvg(drawn, theme, ns);
  const base = `${name}-card-${theme}`;
  if (button.dataset.card === "svg") return hand(new Blob([svg], { type: "image/svg+xml" }), `${base}.svg`);
  try {
    const png = await svgToPng(svg);
    hand(await pngWithText(png, {
      Title: drawn.title,
      Source: drawn.link,
      Comment: [
        ...drawn.results.map((r) => `${r.label} = ${r.value}`),
        ...(drawn.comparison ? drawn.comparison.rows.map((row) => row.join(" · ")) : []),
        ...drawn.inputs.map((i) => `${i.label} = ${i.value}`),
      ].join("\n"),
    }), `${base}.png`);
  } catch (err) {
    document.getElementById("card-feedback").textContent = `The PNG could not be drawn here (${err.message}); the SVG works.`;
  }
}
