// Copy buttons beside a citation: <button data-copy="id" data-feedback="id">.  The text copied is
// the element's as shown (a computation's citation follows the inputs).  Where the clipboard is
// refused or absent, the text is selected for the reader to copy, and the live region says so.
const done = new WeakSet();

function select(element) {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}

async function copy(button) {
  const source = document.getElementById(button.dataset.copy);
  const feedback = document.getElementById(button.dataset.feedback);
  if (!source) return;
  const what = button.dataset.what || "Text";
  feedback.textContent = "";
  try {
    if (!navigator.clipboard || !window.isSecureContext) throw new Error("no clipboard");
    await navigator.clipboard.writeText(source.textContent);
    feedback.textContent = `Copied: ${what.toLowerCase()}.`;
    feedback.dataset.state = "copied";
  } catch (err) {
    select(source);
    feedback.textContent = `${what} selected: press Ctrl+C (⌘C on a Mac) to copy it.`;
    feedback.dataset.state = "selected";
  }
}

export function setupCopy(root = document) {
  for (const button of root.querySelectorAll("button[data-copy]")) {
    if (done.has(button)) continue;
    done.add(button);
    button.hidden = false;
    button.addEventListener("click", () => copy(button));
  }
}
