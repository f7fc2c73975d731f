// The baseline: a bare page that loads stock Pyodide (stock stdlib) in a worker from the same
// server, and is ready when Python has run one line.  The site's pages are measured against it.
const pyodide = new URLSearchParams(location.search).get("pyodide");
const worker = new Worker("/__bench__/bare-worker.js", { type: "module" });
worker.onmessage = ({ data }) => {
  performance.mark("python-ready");
  document.getElementById("status").textContent = data;
  document.documentElement.dataset.python = "ready";
};
worker.postMessage(pyodide);
