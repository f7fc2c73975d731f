// Python for an entry page, started as early as the page allows.  This module runs from the
// page's head (an async module script), so the worker downloads and compiles Pyodide on its
// own thread while the page is still parsing and painting; page.js imports the runner from
// here (the same module instance: the head loads it by the same URL).
import { Runner } from "./runner.js";

const config = document.getElementById("python-script").dataset;

function absolute(url) {
  return new URL(url, location.href).href;
}

// The memory snapshot skips most of Python's start-up but is 4 MB more to download (and to
// unzip): worth it only where bytes are cheap.  Judged by how this page's own files arrived:
// from a server this near (the quickest of their requests, from asking to its last byte,
// took at most 25 ms: a local or LAN server, such as `make serve`, or a very near edge on a
// fast line), on a connection the browser rates fast, and never when the reader asks to
// save data.  Elsewhere pages boot from the start-up stdlib.
const NEAR_MS = 25;
function quickestAnswerMs() {
  const fetched = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]
    .filter((t) => t.transferSize > 0 && t.requestStart > 0 && t.responseEnd >= t.requestStart);   // not from a cache
  return Math.min(...fetched.map((t) => t.responseEnd - t.requestStart));   // Infinity if none
}
function bytesAreCheap(quickestMs = quickestAnswerMs()) {
  const connection = navigator.connection;
  if (connection && (connection.saveData || (connection.effectiveType && connection.effectiveType !== "4g"))) return false;
  return quickestMs <= NEAR_MS;
}

// Where bytes are dear, Pyodide's two big files come xz-compressed (3.5 MB, against 6.4 MB as
// hosts send them) and the worker decodes them (xz.js): the start-up stdlib first, as Python
// needs it whole before it starts, then the WebAssembly.  Not under the service worker,
// which keeps the files as they are for every later visit.
const BIG_FILES = [absolute(config.stdlib), absolute(config.pyodide + "pyodide.asm.wasm")];
function compressed(cheap) {
  if (cheap || (navigator.serviceWorker && navigator.serviceWorker.controller)) return [];
  return BIG_FILES;
}
// The worker keeps what it decoded in this Cache Storage cache, for later visits.
const KEPT = "pyodide-decoded";
async function keptUrls(urls) {
  try {
    const cache = await caches.open(KEPT);
    const found = await Promise.all(urls.map((url) => cache.match(url)));
    return urls.filter((_, i) => found[i]);
  } catch {
    return [];   // no Cache Storage here (an insecure context, or storage turned off)
  }
}

// Sends the boot message; page.js calls it again for a worker the watchdog restarted.
export function boot(runner, cheap = bytesAreCheap()) {
  return runner.call("init", {
    pyodideUrl: absolute(config.pyodide),
    stdlibUrl: absolute(config.stdlib),
    snapshotUrl: absolute(config.snapshot),
    snapshot: cheap,
    xz: compressed(cheap),
    xzDecoderUrl: absolute(config.xzDecoder),
    keptCache: KEPT,
    lockInfo: JSON.parse(config.lockInfo),
    runtimeUrls: config.runtime.split(" ").map(absolute),
  });
}

// Pyodide's files never change at their versioned URLs, so the browser caches them.  On a far
// server, where every round trip counts, fetching them from here while the worker is still
// starting gets the downloads going a few round trips earlier; the worker's own requests are
// then answered from the browser's cache.  (On a near one it only adds work.)
function warm(url) {
  fetch(url).then((response) => response.body && response.body.pipeTo(new WritableStream())).catch(() => {});
}
async function warmFar() {
  warm(absolute(config.pyodide + "pyodide.asm.mjs"));
  const xz = compressed(false);
  const kept = await keptUrls(xz);
  for (const url of BIG_FILES) {
    if (!xz.includes(url)) warm(url);
    else if (!kept.includes(url)) warm(`${url}.xz`);
  }
  if (kept.length < xz.length) warm(absolute(config.xzDecoder));
}

// A formula that has not answered by then is stopped, its worker started again (entry and plan pages).
export const WATCHDOG_MS = 3000;

export let runner = null;
export let booted;   // settles with {python, stdlib} once Python is loaded in the first worker
try {
  runner = new Runner(new URL("./worker.js", import.meta.url));
  const quickestMs = quickestAnswerMs();   // read once: the mark says what the judgement saw
  const cheap = bytesAreCheap(quickestMs);
  // How this page judged its server, for tests and benchmarks: which way it boots is theirs to check.
  performance.mark("boot-way", { detail: { cheap, quickestMs } });
  booted = boot(runner, cheap);
  if (!cheap) warmFar();
} catch (err) {
  booted = Promise.reject(err);
}
booted.catch(() => {});   // page.js reports the failure; this only keeps it from going unhandled

// This module runs once per visit, and its worker serves every entry page the reader moves to
// (links swap pages in: site.js).  The boot of the worker now running: the first one, or one
// started after the watchdog stopped a formula.
let current = booted;
let currentWorker = runner ? runner.generation : 0;
export function reboot() {
  currentWorker = runner.generation;
  current = boot(runner);
  current.catch(() => {});
  return current;
}
export function running() {
  return runner && runner.generation !== currentWorker ? reboot() : current;
}
