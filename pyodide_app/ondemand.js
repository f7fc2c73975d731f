// The entry page's features used on demand (asking backwards, the preset menus, the comparison):
// what each shows before its code has arrived, so the page looks and reads the same from its
// first paint, and the reader's first use of one, which loads its code (page.js imports it then,
// or at once when the link asks for the feature).  Nothing the reader does before the code
// arrives is lost: a choice made in a menu is made again once the code is there, a submitted
// question is asked, and what was typed stays in its field.

// The page is being left (a full load of another page): code still arriving is cut off then,
// and that is no failure to tell the reader about.
let leaving = false;
globalThis.addEventListener?.("pagehide", () => { leaving = true; });
globalThis.addEventListener?.("pageshow", () => { leaving = false; });

// Imports the code of a feature used on demand (``what`` names it for the reader).  Resolves
// to the module, or to null when it could not be fetched (the network gone, a server that
// failed): the reader is told with ``tell(text)``, unless the page is being left, and the
// caller asks again on the next use.  It never rejects, so a cut-off fetch is never an
// unhandled error; a fault in the caller's own code still is.
export function loadCode(url, what, tell) {
  return import(url).catch((err) => {
    if (!leaving) tell(`The code for ${what} could not be loaded (${err && err.message || err}). Try again: the rest of the page works.`);
    return null;
  });
}

// Fetches the JSON a feature used on demand reads (the presets' values, presets.json beside
// the page), as ``loadCode`` imports code: resolves to the data, or to null when it could not
// be fetched, the reader told with ``tell(text)`` unless the page is being left.
export function loadData(url, what, tell) {
  return fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`.trim());
    return response.json();
  }).catch((err) => {
    if (!leaving) tell(`The data for ${what} could not be loaded (${err && err.message || err}). Try again: the rest of the page works.`);
    return null;
  });
}

// Starts ``load()`` on the reader's first reach into ``box`` (a pointer pressed, a focus, a
// change), so that the code is usually there by the time they click.  ``changed(menu)`` hears a
// menu the reader changed before the code was there, to make the choice again once it is.
export function firstUse(box, load, changed = null) {
  if (!box) return;
  const start = () => { load(); };
  box.addEventListener("pointerdown", start, { once: true });
  box.addEventListener("focusin", start, { once: true });
  box.addEventListener("change", (event) => {
    if (changed && event.target.matches("select[data-kind]")) changed(event.target);
    load();
  });
}

// Starts ``load()`` once, when ``element`` comes within half a screen of view (at once when it
// is in view): what sits below the first screen loads as the reader scrolls near it, or never.
// Returns the watcher, for the page to stop when it is left (null without ``element``).
export function whenNear(element, load) {
  if (!element) return null;
  const watcher = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    watcher.disconnect();
    load();
  }, { rootMargin: "0px 0px 50% 0px" });
  watcher.observe(element);
  return watcher;
}

// Links the stylesheet at ``href`` (a feature's own, same-origin) unless the document has it:
// Turbo keeps it in the head for the pages after this one.
export function linkStylesheet(href) {
  if (!href || document.head.querySelector(`link[rel="stylesheet"][href="${CSS.escape(href)}"]`)) return;
  document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href }));
}

// Menus the reader changed before their code arrived: each chosen again (its change event
// dispatched anew) once it has, with the value the reader left in it.
export function heldChoices() {
  const held = new Map();
  return {
    hold: (menu) => { held.set(menu, menu.value); },
    replay() {
      for (const [menu, value] of held) {
        menu.value = value;
        menu.dispatchEvent(new Event("change", { bubbles: true }));
      }
      held.clear();
    },
  };
}

function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}

// The solve panel as it stands before a question is asked (solve.js asks it): shown, its menus
// filled from the spec, the target box's placeholder the chosen result as it reads now.
// Returns its parts for solve.js, or null when the entry is not asked backwards.
export function solvePanel(spec) {
  const panel = document.getElementById("solve");
  if (!panel || !spec.solve) return null;
  const el = (id) => document.getElementById(id);
  const [outputMenu, senseMenu, targetBox, inputMenu] = ["solve-output", "solve-sense", "solve-target", "solve-input"].map(el);
  const error = el("solve-err");
  // How the target was read (80 gb read as 80 GB), beside it.
  let reading = el("solve-reading");
  if (!reading) {
    reading = document.createElement("p");
    reading.className = "solve-reading";
    reading.id = "solve-reading";
    reading.hidden = true;
    error.before(reading);
    targetBox.setAttribute("aria-describedby", `${targetBox.getAttribute("aria-describedby")} solve-reading`);
  }
  for (const name of spec.solve.outputs) outputMenu.append(option(name, spec.labels[name]));
  for (const name of spec.solve.inputs) inputMenu.append(option(name, `${spec.labels[name]} (${name})`));
  outputMenu.value = spec.solve.output;
  inputMenu.value = spec.solve.input;
  panel.hidden = false;
  // The target box shows the result as it now reads, which is also how to type one.
  const hint = () => { targetBox.placeholder = el(`out-${outputMenu.value}`).textContent; };
  hint();
  panel.addEventListener("input", (event) => {
    if (event.target === targetBox || event.target === outputMenu) hint();
  });
  for (const menu of document.querySelectorAll(".unit-menus select")) menu.addEventListener("change", hint);
  new MutationObserver(hint).observe(el("outputs"), { childList: true, subtree: true, characterData: true });
  return { panel, outputMenu, senseMenu, targetBox, inputMenu, error, reading, hint };
}

// The comparison's add menus, offered at once: the preset menus' own options (one list of
// presets on the page, not two).  Returns the live box, or null when the entry compares nothing.
export function compareMenus(spec) {
  const section = document.getElementById("compare");
  const box = document.getElementById("compare-live");
  if (!section || !box || !Object.keys(spec.presets || {}).length) return null;
  box.hidden = false;
  for (const menu of box.querySelectorAll("select[data-kind]")) {
    const source = document.getElementById(`preset-${menu.dataset.kind}`);
    if (source) for (const group of source.querySelectorAll("optgroup")) menu.append(group.cloneNode(true));
  }
  return box;
}

// "Fill from a model / an accelerator", offered at once.  Returns its box, or null.
export function presetMenus(spec) {
  const box = document.getElementById("presets");
  if (!box || !Object.keys(spec.presets || {}).length) return null;
  box.hidden = false;
  return box;
}
