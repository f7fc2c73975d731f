// Inputs that follow the reader: each field's echo of how Python read a value that could be
// read two ways (32K = 32,000, with 32Ki = 32,768 one click away), worked cases loaded into the
// calculator, and the QR code of the current computation (its encoder loaded only when the
// reader opens it).  Every text here is set as text, never as markup.
import { queryPairs, shared } from "./link.js";


// Put one value in a field and let the page recompute as if the reader had typed it.
function fill(form, values, reset) {
  for (const field of form.elements) {
    if (!field.name) continue;
    if (field.name in values) field.value = values[field.name];
    else if (reset) field.value = field.tagName === "SELECT"
      ? ([...field.options].find((o) => o.defaultSelected) || field.options[0]).value
      : field.defaultValue;
  }
  form.dispatchEvent(new Event("input", { bubbles: true }));
}

// echoes: {input: {text, alternative?, alternative_text?}} from Python; a field not named has none.
export function showEchoes(form, echoes, names) {
  for (const name of names) {
    const box = document.getElementById(`echo-${name}`);
    if (!box) continue;
    // A solved field holds the value the page wrote (grouped as results are): nothing to echo.
    const solved = document.getElementById(`input-${name}`)?.classList.contains("solved");
    const echo = !solved && echoes && echoes[name];
    box.hidden = !echo;
    if (!echo) { box.replaceChildren(); continue; }
    const text = document.createElement("span");
    text.textContent = echo.text;
    const parts = [text];
    if (echo.alternative) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "echo-switch";
      button.dataset.input = name;
      button.dataset.value = echo.alternative;
      button.textContent = `Use ${echo.alternative} = ${echo.alternative_text}`;
      parts.push(" ", button);
    }
    box.replaceChildren(...parts);
  }
}

export function setupInputs(form) {
  // The echo's other reading, one click away (the button is in the build's HTML or made above).
  form.addEventListener("click", (event) => {
    const button = event.target.closest(".echo-switch");
    if (!button || !form.elements[button.dataset.input]) return;
    fill(form, { [button.dataset.input]: button.dataset.value }, false);
    form.elements[button.dataset.input].focus();
  });

  // A worked case: its inputs replace the reader's (the others back to their defaults).  An
  // inverse case asks its question, which the page reads from the link, so it is followed.
  for (const link of document.querySelectorAll("a.load-case")) {
    if (link.dataset.solve) continue;
    link.addEventListener("click", (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      const values = {};
      for (const [name, value] of queryPairs(link.dataset.query)) {
        if (form.elements[name]) values[name] = value;
      }
      fill(form, values, true);
      document.getElementById("calculator").scrollIntoView({ block: "start" });
      const first = Object.keys(values)[0];
      if (first) form.elements[first].focus({ preventScroll: true });
    });
  }

  setupQr();
}

// ---- the QR code of the current computation
let encoder = null;

// SVG's namespace, as the HTML parser gives an <svg> (no foreign URL written in our files).
const svgNamespace = () => new DOMParser().parseFromString("<svg></svg>", "text/html").body.firstChild.namespaceURI;

function qrSvg(encode, url, ns) {
  const { size, data } = encode(url, { ecc: "M", border: 4 });
  const SVG = ns;
  const scale = 4;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("width", String(size * scale));
  svg.setAttribute("height", String(size * scale));
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("shape-rendering", "crispEdges");
  const title = document.createElementNS(SVG, "title");
  title.textContent = `QR code: ${url}`;
  const path = document.createElementNS(SVG, "path");
  let d = "";
  data.forEach((row, y) => row.forEach((dark, x) => { if (dark) d += `M${x} ${y}h1v1h-1z`; }));
  path.setAttribute("d", d);
  path.setAttribute("fill", "currentColor");
  svg.append(title, path);
  return svg;
}

async function drawQr(url) {
  const details = document.getElementById("qr");
  // This page's code (a page a link brings in has the build's own, even for the same URL).
  if (!details || !details.open || url === details.dataset.payload) return;
  encoder = encoder || import(details.dataset.encoder).catch((err) => { encoder = null; throw err; });   // asked again next time
  const { encode } = await encoder;
  const figure = details.querySelector("figure.qr");
  const old = figure.querySelector("svg, img");   // the build's code of the bare entry (qr.svg), until now
  const svg = qrSvg(encode, url, svgNamespace());
  old.replaceWith(svg);
  document.getElementById("qr-url").textContent = url;
  const download = document.getElementById("qr-download");
  const copy = svg.cloneNode(true);
  copy.querySelector("path").setAttribute("fill", "#000");
  const blob = new Blob([new XMLSerializer().serializeToString(copy)], { type: "image/svg+xml" });
  if (download.href.startsWith("blob:")) URL.revokeObjectURL(download.href);
  download.href = URL.createObjectURL(blob);
  download.download = "qr.svg";
  details.dataset.payload = url;
}

// The link a reader would share (link.js): the same as Copy link's.
const currentUrl = () => shared();

let following = false;   // the document outlives its pages (links swap them in): listen once
function setupQr() {
  const details = document.getElementById("qr");
  if (!details || !details.dataset.encoder) return;
  details.addEventListener("toggle", () => drawQr(currentUrl()).catch(() => {}));
  // page.js announces each new share link; an open QR code follows it.
  if (!following) document.addEventListener("share-link", () => drawQr(currentUrl()).catch(() => {}));
  following = true;
}
