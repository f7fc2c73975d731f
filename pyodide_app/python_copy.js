// "Copy as Python": the call that reproduces this page's computation with the bank's Python API
// (docs/python.md).  Python writes it (runtime calculator.python_call, in the worker) from the
// page's shared link, so the presets, the inputs as typed and a solve question are all in it;
// this module only carries it to the clipboard and shows it.  Loaded when the button is clicked.
export async function copyAsPython(runner, spec, params) {
  const feedback = document.getElementById("python-feedback");
  const shown = document.getElementById("python-code");
  const reply = await runner.call("python", { entry: spec.id, pairs: [...params] }).catch((err) => ({ ok: false, error: err }));
  if (!reply.ok) {
    feedback.textContent = `Python could not write the call (${reply.error && reply.error.message || "Python is not ready"}).`;
    return;
  }
  shown.textContent = reply.value;
  shown.hidden = false;
  try {
    await navigator.clipboard.writeText(reply.value);
    feedback.textContent = "Python copied.";
  } catch (err) {
    feedback.textContent = "Copy the Python below.";
  }
}
