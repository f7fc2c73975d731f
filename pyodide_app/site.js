// Every page: theme toggle, search dialog, offline status and new-version notice; and the links
// between pages, followed by Turbo Drive so that the page's Python keeps running (see below).
// This module runs once per visit: what belongs to a page is set up again on each page.
const script = document.getElementById("site-script");
const root = document.documentElement;
let themeButton, dialog, searchInput, search, status, banner;

// ---- theme: the system preference, unless the reader picked one
function effectiveTheme() {
  return root.dataset.theme || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
}
function labelTheme() {
  const next = effectiveTheme() === "dark" ? "light" : "dark";
  themeButton.textContent = next === "dark" ? "Dark" : "Light";
  themeButton.setAttribute("aria-label", `Switch to ${next} theme`);
}

// ---- search: the dialog opens at once (so no keystroke is lost); the engine loads on first use
async function openSearch() {
  if (!dialog.open) dialog.showModal();
  searchInput.focus();
  if (!search) {
    const box = dialog;
    search = import("./search.js").then(({ SearchBox }) =>
      new SearchBox(box, script.dataset.searchIndex, script.dataset.minisearch));
  }
  const searchBox = await search.catch((err) => {
    search = null;   // asked again at the next opening
    const hint = dialog.querySelector(".search-hint");
    hint.dataset.usual ||= hint.textContent;   // search.js puts it back once it loads
    hint.textContent = `Search could not load (${err && err.message || err}). Close and open it again to retry.`;
  });
  if (searchBox) searchBox.update();
}
document.addEventListener("keydown", (event) => {
  const typing = event.target.closest("input, textarea, select, [contenteditable]");
  if (event.key === "/" && !typing && !dialog.open && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    openSearch();
  }
});

// ---- offline: the service worker precaches the site; say when it has, and when a new version waits
let offline = ["unknown", ""];
let waiting = null;   // a new version's service worker, waiting for the reader
function say(state, text) {
  offline = [state, text];
  status.dataset.state = state;
  status.textContent = text;
}
// The reader's "Reload": the new version takes over, then the page reloads under it, once.  Said
// by the controller's change (below) or by the new worker turning active, whichever comes first:
// a page may hear only one of them (the change fires as the worker starts to activate, and a
// reload the browser was still busy with may have missed it).
let reloading = false;
function reloadOnce() {
  if (reloading) return;
  reloading = true;
  location.reload();
}
function offerUpdate(worker) {
  waiting = worker;
  banner.hidden = false;
  document.getElementById("update-reload").onclick = () => {
    worker.addEventListener("statechange", () => { if (worker.state === "activated") reloadOnce(); });
    if (worker.state === "activated") reloadOnce();
    else worker.postMessage({ type: "SKIP_WAITING" });
  };
}

// What each page needs, on the first page and again after each page Turbo brings in.
function setupPage() {
  themeButton = document.getElementById("theme-toggle");
  dialog = document.getElementById("search-dialog");
  searchInput = document.getElementById("search-input");
  status = document.getElementById("offline-status");
  banner = document.getElementById("update-banner");
  search = null;
  themeButton.addEventListener("click", () => {
    root.dataset.theme = effectiveTheme() === "dark" ? "light" : "dark";
    try { localStorage.setItem("theme", root.dataset.theme); } catch (e) { /* not kept */ }
    labelTheme();
  });
  labelTheme();
  document.getElementById("search-open").addEventListener("click", openSearch);
  document.getElementById("search-close").addEventListener("click", () => dialog.close());
  say(...offline);
  if (waiting) offerUpdate(waiting);
  // Copy buttons beside a citation (entry and plan pages).
  // (Without their code the buttons do nothing, and the citation is there to select.)
  if (document.querySelector("button[data-copy]")) import("./copy.js").then(({ setupCopy }) => setupCopy(), () => {});
  // The 404 page: the entries nearest the address typed, from the search index.
  if (document.getElementById("suggested")) {
    import("./suggest.js").then(({ suggest }) =>
      suggest({ indexUrl: script.dataset.searchIndex, libraryUrl: script.dataset.minisearch }))
      .catch(() => { root.dataset.suggestions = "0"; });
  }
}
setupPage();

// The first install downloads the whole site, Pyodide included: on an entry page it waits
// until Python has loaded, so as not to compete with Python's own downloads.
function afterPython() {
  const settled = () => !document.getElementById("python-script") || root.dataset.python;
  if ((navigator.serviceWorker && navigator.serviceWorker.controller) || settled()) return Promise.resolve();
  return new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (settled()) { watch.disconnect(); resolve(); }
    });
    watch.observe(root, { attributes: true, attributeFilter: ["data-python"] });
  });
}
if ("serviceWorker" in navigator && !root.classList.contains("embed")) {
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!banner.hidden) reloadOnce();   // first install: nothing to reload
  });
  say("pending", "Preparing offline use…");
  afterPython().then(() => {
    performance.mark("offline-install");
    return navigator.serviceWorker.register("/sw.js");
  }).then((registration) => {
    if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration.waiting);
    registration.addEventListener("updatefound", () => {
      const incoming = registration.installing;
      incoming.addEventListener("statechange", () => {
        if (incoming.state === "installed" && navigator.serviceWorker.controller) offerUpdate(incoming);
        if (incoming.state === "activated" && !banner.hidden) return;
        if (incoming.state === "activated") say("ready", "Available offline.");
      });
    });
    // Look for a new deploy when the reader comes back to the tab, and now and then.
    document.addEventListener("visibilitychange", () => { if (!document.hidden) registration.update(); });
    setInterval(() => registration.update(), 5 * 60 * 1000);
    return navigator.serviceWorker.ready;
  }).then(() => say("ready", "Available offline."))
    .catch((err) => say("none", `Not available offline (${err.message}).`));
} else {
  say("none", "");
}

// The stylesheet links in `html`'s head that this page's head lacks, as elements to add: made
// by the same HTML parser as Turbo's, so their text is what Turbo compares.
const STYLESHEET = /<link rel="stylesheet"[^>]*>/g;
function newStylesheets(html) {
  const end = html.indexOf("</head>");
  const head = end < 0 ? html : html.slice(0, end);
  const have = new Set([...document.head.querySelectorAll("link[rel='stylesheet']")].map((link) => link.outerHTML));
  const parsed = document.createElement("template");
  parsed.innerHTML = (head.match(STYLESHEET) || []).join("");
  return [...parsed.content.querySelectorAll("link[rel='stylesheet']")].filter((link) => !have.has(link.outerHTML));
}

// ---- links between pages: Turbo Drive fetches the next page and swaps its body in, so this
// document, and with it the entry pages' Python worker, stays: the next entry is ready to
// recompute as soon as its HTML is in.  Without JavaScript, links are plain links; until Turbo
// has loaded (after Python, on an entry page, not to compete with it), they are too.  An
// embedded card never navigates inside its frame this way.
function afterVisit() {
  // As after a full load, the reader starts at the new page's heading, which screen readers announce.
  // Focused in the frame that first paints the page, not in the middle of setting it up: focus
  // makes the browser lay the page out at once, and the set-up's changes had it lay it out again
  // (a link's Python was ready 131 ms after the click, 113 ms with the focus in the frame).
  setupPage();
  const heading = document.querySelector("main h1");
  if (!heading) return;
  heading.tabIndex = -1;
  requestAnimationFrame(() => heading.focus({ preventScroll: true }));
}
if (root.classList.contains("embed")) {
  root.dataset.drive = "off";   // the page's signal: a card never loads Turbo
  // The card in someone's slides: its links open the site in a tab of their own, as its title does.
  for (const link of document.querySelectorAll("a[href]:not([target]):not([href^='#'])")) {
    link.setAttribute("target", "_blank");   // an SVG link's target and rel are read-only properties
    link.setAttribute("rel", "noopener");
  }
} else if (script.dataset.drive) {
  afterPython().then(() => import(script.dataset.drive)).then(() => {
    document.addEventListener("turbo:render", afterVisit);   // a page Turbo brought in (this one is set up)
    // A link to a part of this very page (#main, #inputs) scrolls there natively, as without
    // Turbo, which would fetch and render the page again.
    document.addEventListener("turbo:click", (event) => {
      const to = new URL(event.detail.url);
      if (to.hash && to.pathname === location.pathname && to.search === location.search) event.preventDefault();
    });
    // The next page's stylesheets this one lacks (each page's own math rules) start loading as
    // soon as its HTML is in, while Turbo parses it, rather than after: Turbo waits for a new
    // stylesheet before it renders, and finds these in the head already (it compares tags' text).
    // The render still waits for them, as Turbo's own wait does (at most 2 s a stylesheet), so the
    // page never shows unstyled.
    let styled = Promise.resolve();
    document.addEventListener("turbo:before-fetch-response", ({ detail }) => {
      const response = detail.fetchResponse;
      if (!response.succeeded || !response.isHTML) return;
      styled = response.responseHTML.then((html) => Promise.all(newStylesheets(html).map((link) => new Promise((done) => {
        link.addEventListener("load", done, { once: true });
        link.addEventListener("error", done, { once: true });
        setTimeout(done, 2000);
        document.head.append(link);
      })))).catch(() => {});
    });
    document.addEventListener("turbo:before-render", (event) => {
      event.preventDefault();
      styled.then(() => event.detail.resume());
    });
    document.addEventListener("turbo:visit", () => {
      if (dialog.open) dialog.close();   // a search result was picked: the dialog closes first
      performance.clearMarks("page-visit");
      performance.mark("page-visit");   // page.js times Python's readiness from here
    });
    root.dataset.drive = "on";
  }).catch(() => {});   // plain links, as without JavaScript
}
