// Firefox for the browser tests: Debian's firefox-esr driven over WebDriver BiDi by puppeteer-core
// (which downloads no browser).  One request a line on stdin, one JSON answer a line on stdout:
//   {"op": "evaluate", "args": ["document.title"]}  ->  {"ok": true, "value": "..."}
// so that the tests, in Python, run the same flows here as in WebKit.
import { createInterface } from "node:readline";
import puppeteer from "puppeteer-core";

const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath: process.env.FIREFOX || "firefox-esr",
  headless: true,
  extraPrefsFirefox: {
    // No request but to the site under test: no updates, telemetry or remote settings.
    "app.update.enabled": false,
    "network.captive-portal-service.enabled": false,
    "network.connectivity-service.enabled": false,
    "browser.safebrowsing.update.enabled": false,
  },
});
let context = null;
let page = null;
let problems = [];

// A new, empty context.  Without ``workers`` its pages see a browser without service workers:
// installing the site's worker downloads the whole site, a cost paid for every test that is not
// about working offline (as the Chromium tests do, in tests/conftest.py).
async function fresh(width = 1280, height = 900, workers = false) {
  if (context) await context.close();
  context = await browser.createBrowserContext();
  page = await context.newPage();
  if (!workers) await page.evaluateOnNewDocument("delete Navigator.prototype.serviceWorker;");
  await page.setViewport({ width, height });
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warn") problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("request", (r) => {
    if (!r.url().startsWith("http://127.0.0.1:") && !r.url().startsWith("data:") && !r.url().startsWith("blob:")) {
      problems.push(`left 127.0.0.1: ${r.url()}`);
    }
  });
  return null;
}

function frame(selector) {
  if (!selector) return page;
  const frames = page.frames().filter((f) => f !== page.mainFrame());
  if (!frames.length) throw new Error(`no frame for ${selector}`);
  return frames[0];
}

const ops = {
  fresh,
  // "load", or "domcontentloaded" for a page whose load event waits on held-back files (in
  // Firefox the fetches a page starts while it loads delay its load event).
  goto: async (url, until = "load") => { await page.goto(url, { waitUntil: until }); },
  evaluate: async (expression, inFrame) => frame(inFrame).evaluate(`(async () => (${expression}))()`),
  fill: async (selector, text, inFrame) => {
    const where = frame(inFrame);
    await where.$eval(selector, (el) => { el.focus(); el.select(); });
    await where.type(selector, text);
  },
  press: async (key) => { await page.keyboard.press(key); },
  type: async (text) => { await page.keyboard.type(text); },
  click: async (selector) => { await page.click(selector); },
  hover: async (selector) => { await page.hover(selector); },   // the real pointer, moved over it
  viewport: async (width, height) => { await page.setViewport({ width, height }); },
  screenshot: async (path) => { await page.screenshot({ path, fullPage: false }); },
  problems: async () => { const found = problems; problems = []; return found; },
  version: async () => browser.version(),
};

await fresh();
process.stdout.write(JSON.stringify({ ok: true, value: "ready" }) + "\n");
for await (const line of createInterface({ input: process.stdin })) {
  const { op, args } = JSON.parse(line);
  let answer;
  try {
    answer = { ok: true, value: (await ops[op](...args)) ?? null };
  } catch (err) {
    answer = { ok: false, error: String(err && err.message || err) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
await browser.close();
