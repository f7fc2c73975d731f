// Runs before first paint (a tiny blocking script): the reader's theme, and the embed card
// layout for ?embed=1, so neither flashes.
(function () {
  var root = document.documentElement;
  try {
    var theme = localStorage.getItem("theme");
    if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  } catch (e) { /* storage may be off; the system preference applies */ }
  if (/[?&]embed=1(&|$)/.test(location.search)) root.classList.add("embed");
  // Any breach of the page's Content-Security-Policy is recorded where tests can read it.
  window.__cspViolations = [];
  document.addEventListener("securitypolicyviolation", function (e) {
    window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
  });
})();
