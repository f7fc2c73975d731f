// `serve` only (its server adds this script to each page it serves; the built site never
// carries it): reloads the page once serve has rebuilt it, and shows a failed rebuild's
// problems in a banner while the last good page stays on screen.
//
// The server tells, on connecting and after each rebuild, when each page was last written;
// the page knows when it was served (<meta name="serve-build">, added with this script).
const served = () => Number(document.querySelector('meta[name="serve-build"]')?.content || 0);
let banner = null;

function show(problems) {
  if (!problems) {
    banner?.remove();
    banner = null;
    return;
  }
  if (!banner) {
    banner = document.createElement("pre");
    banner.setAttribute("role", "alert");
    banner.className = "serve-problems";
    // CSSOM properties, which the site's policy allows (it forbids style attributes in markup).
    Object.assign(banner.style, {
      position: "fixed", left: "0", right: "0", bottom: "0", zIndex: "2147483647", margin: "0",
      maxHeight: "40vh", overflow: "auto", padding: "0.75em 1em", whiteSpace: "pre-wrap",
      font: "13px/1.4 ui-monospace, monospace", background: "#fff3cd", color: "#3b2f00",
      borderTop: "2px solid #b58900",
    });
  }
  banner.textContent = "serve: the last edit was not built; this page is the last good version.\n\n" + problems;
  if (!banner.isConnected) document.body.append(banner);
}

const events = new EventSource("/__serve__/events");
events.onmessage = (message) => {
  const state = JSON.parse(message.data);
  show(state.problems);
  const written = Math.max(state.all, state.pages[location.pathname] || 0);
  if (written > served()) location.reload();
};
// A worker of an earlier visit may still hold precached pages: let serve's own sw.js replace it.
navigator.serviceWorker?.getRegistrations().then((all) => all.forEach((r) => r.update())).catch(() => {});
