// Runs before first paint (a tiny blocking script): the reader's theme, and the embed card
// layout for ?embed=1, so neither flashes: the card's stylesheet (embed.css, named by this
// script's data-embed-css) is linked after the site's, render-blocking, on a card only.
(function () {
  var root = document.documentElement;
  var script = document.currentScript;
  try {
    var theme = localStorage.getItem("theme");
    if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  } catch (e) { /* storage may be off; the system preference applies */ }
  if (/[?&]embed=1(&|$)/.test(location.search)) {
    root.classList.add("embed");
    var sheet = document.createElement("link");
    sheet.rel = "stylesheet";
    sheet.href = script.dataset.embedCss;
    sheet.setAttribute("blocking", "render");
    document.head.appendChild(sheet);
  }
  // Any breach of the page's Content-Security-Policy is recorded where tests can read it.
  window.__cspViolations = [];
  document.addEventListener("securitypolicyviolation", function (e) {
    window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
  });
})();
