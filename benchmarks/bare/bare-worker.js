self.onmessage = async ({ data: indexURL }) => {
  const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
  const py = await loadPyodide({ indexURL });
  self.postMessage(`Python ${py.runPython("import sys; sys.version.split()[0]")} ready`);
};
