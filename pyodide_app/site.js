// Every page: theme toggle, search dialog, offline status and new-version notice.
const script = document.getElementById("site-script");
const root = document.documentElement;

// ---- theme: the system preference, unless the reader picked one
const themeButton = document.getElementById("theme-toggle");
function effectiveTheme() {
  return root.dataset.theme || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
}
function labelTheme() {
  const next = effectiveTheme() === "dark" ? "light" : "dark";
  themeButton.textContent = next === "dark" ? "Dark" : "Light";
  themeButton.setAttribute("aria-label", `Switch to ${next} theme`);
}
themeButton.addEventListener("click", () => {
  root.dataset.theme = effectiveTheme() === "dark" ? "light" : "dark";
  try { localStorage.setItem("theme", root.dataset.theme); } catch (e) { /* not kept */ }
  labelTheme();
});
labelTheme();

// ---- search: the dialog opens at once (so no keystroke is lost); the engine loads on first use
const dialog = document.getElementById("search-dialog");
const searchInput = document.getElementById("search-input");
let search = null;
async function openSearch() {
  if (!dialog.open) dialog.showModal();
  searchInput.focus();
  if (!search) {
    search = import("./search.js").then(({ SearchBox }) =>
      new SearchBox(dialog, script.dataset.searchIndex, script.dataset.minisearch));
  }
  (await search).update();
}
document.getElementById("search-open").addEventListener("click", openSearch);
document.getElementById("search-close").addEventListener("click", () => dialog.close());
document.addEventListener("keydown", (event) => {
  const typing = event.target.closest("input, textarea, select, [contenteditable]");
  if (event.key === "/" && !typing && !dialog.open && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    openSearch();
  }
});

// ---- offline: the service worker precaches the site; say when it has, and when a new version waits
const status = document.getElementById("offline-status");
const banner = document.getElementById("update-banner");
function say(state, text) {
  status.dataset.state = state;
  status.textContent = text;
}
function offerUpdate(worker) {
  banner.hidden = false;
  document.getElementById("update-reload").onclick = () => worker.postMessage({ type: "SKIP_WAITING" });
}
// The first install downloads the whole site, Pyodide included: on an entry page it waits
// until Python has loaded, so as not to compete with Python's own downloads.
function afterPython() {
  const settled = () => !document.getElementById("python-script") || root.dataset.python;
  if (navigator.serviceWorker.controller || settled()) return Promise.resolve();
  return new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (settled()) { watch.disconnect(); resolve(); }
    });
    watch.observe(root, { attributes: true, attributeFilter: ["data-python"] });
  });
}
if ("serviceWorker" in navigator && !root.classList.contains("embed")) {
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (banner.hidden || reloading) return;   // first install: nothing to reload
    reloading = true;
    location.reload();
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
