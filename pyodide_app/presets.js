// "Fill from a model / an accelerator": sets an entry's inputs from a published preset and marks
// each one with the preset's name and a link to its source.  The reader can still change any
// input (its mark then goes away).  The link (link.js reads and writes it) carries the presets
// chosen, ?model=<id>&hardware=<id>; inputs given in the link override the preset's.  The spec
// carries only the presets that fill this entry, and only their mapped values.
//
// An input the reader typed (or the link gave) is theirs: a preset chosen afterwards leaves it
// as it is, and offers beside it "Also set context length from Llama 3 70B (8,192)".

// A preset's value as a reader reads it: a whole number grouped as the runtime's numbers.grouped
// groups one (8,192); another spelling (70B, 0.5) as the preset writes it.
const shownValue = (text) => (/^\d+$/.test(text) ? BigInt(text).toLocaleString("en") : text);

// ``link``: what the page's link asks (link.js's readLink): its presets and its own inputs.
// ``typedBefore``: the inputs the reader changed before this code arrived (page.js loads it on
// the first use of a menu, ondemand.js, or at once when the link names a preset); they are the
// reader's as much as those typed after.  The menus are shown already (ondemand.js).
export function setupPresets(spec, form, link, typedBefore = []) {
  const offered = spec.presets || {};
  const box = document.getElementById("presets");

  const defaults = Object.fromEntries(spec.inputs.map((i) => [i.name, String(i.default)]));
  const chosen = {};   // kind -> the preset applied
  const marked = {};   // input name -> kind whose preset set it (the reader has not changed it since)
  const typed = new Set([...Object.keys(link.inputs), ...typedBefore]);   // inputs the reader typed or the link gave: a preset keeps them

  function field(name) {
    return form.elements[name];
  }

  function unmark(name) {
    document.getElementById(`mark-${name}`)?.remove();
    field(name)?.closest(".field")?.classList.remove("preset-filled");
    delete marked[name];
  }

  function mark(name, preset, value) {
    const [, index, how] = value;
    const source = preset.sources[index] || {};
    const line = document.createElement("p");
    line.className = "preset-mark";
    line.id = `mark-${name}`;
    line.append(`From ${preset.name}`);
    if (how.includes(" = ")) line.append(` (derived: ${how.split(" = ")[1]})`);
    line.append(": ");
    if (source.url) {
      const link = document.createElement("a");
      link.href = source.url;
      link.rel = "noopener";
      link.textContent = source.title;
      line.append(link);
      if (source.where) line.append(`, ${source.where}`);
      // A long "where" (a list of config keys) is clamped to two lines; the whole citation stays in the title.
      line.title = `${preset.name}: ${source.title}${source.where ? `, ${source.where}` : ""}`;
    }
    const wrapper = field(name).closest(".field");
    wrapper.classList.add("preset-filled");
    wrapper.querySelector(".control").after(line);
  }

  function unoffer(name) {
    document.getElementById(`offer-${name}`)?.remove();
  }

  // The reader's own value is kept; one button sets the preset's instead, if they ask.
  function offer(name, kind, preset, value) {
    unoffer(name);
    const wrapper = field(name)?.closest(".field");
    if (!wrapper || field(name).value.trim() === String(value[0])) return;
    const line = document.createElement("p");
    line.className = "preset-offer";
    line.id = `offer-${name}`;
    line.dataset.kind = kind;
    const label = wrapper.querySelector(".label")?.textContent || name;
    line.append("Your value is kept. ");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `Also set ${label.charAt(0).toLowerCase()}${label.slice(1)} from ${preset.name} (${shownValue(String(value[0]))})`;
    button.addEventListener("click", () => {
      typed.delete(name);
      unoffer(name);
      field(name).value = value[0];
      marked[name] = kind;
      mark(name, preset, value);
      document.getElementById("outputs")?.classList.add("stale");
      form.dispatchEvent(new Event("input"));   // the page recomputes, as after any input
    });
    line.append(button);
    wrapper.querySelector(".control").after(line);
  }

  // Where the entry's own count of the model is not its architecture's, the page says so once.
  function depart(kind, preset) {
    document.getElementById(`departs-${kind}`)?.remove();
    if (!preset || !preset.departs) return;
    const line = document.createElement("p");
    line.className = "preset-departs";
    line.id = `departs-${kind}`;
    line.textContent = preset.departs;
    box.append(line);
  }

  function release(kind) {
    depart(kind, null);
    for (const line of document.querySelectorAll(`.preset-offer[data-kind="${kind}"]`)) line.remove();
    // The inputs the previous preset set and the reader left alone go back to the entry's defaults.
    for (const [name, k] of Object.entries(marked)) {
      if (k !== kind) continue;
      field(name).value = document.getElementById(`in-${name}`)?.defaultValue ?? defaults[name];
      unmark(name);
    }
    delete chosen[kind];
  }

  function apply(kind, preset, keep = new Set(), offering = false) {
    release(kind);
    if (!preset) return;
    chosen[kind] = preset;
    if (!Object.keys(preset.values).some((name) => typed.has(name) || keep.has(name))) depart(kind, preset);
    for (const [name, value] of Object.entries(preset.values)) {
      if (!field(name)) continue;
      if (typed.has(name) || keep.has(name)) {
        if (offering) offer(name, kind, preset, value);
        continue;
      }
      field(name).value = value[0];
      marked[name] = kind;
      mark(name, preset, value);
    }
  }

  const menus = [...box.querySelectorAll("select[data-kind]")];
  for (const menu of menus) {
    menu.addEventListener("change", () => {
      const kind = menu.dataset.kind;
      apply(kind, (offered[kind] || []).find((p) => p.id === menu.value), new Set(), true);
      document.getElementById("outputs")?.classList.add("stale");   // until Python has computed the new inputs
      form.dispatchEvent(new Event("input"));   // the page recomputes, as after any input
    });
  }
  // An input the reader changes is theirs: its mark goes away.
  form.addEventListener("input", (event) => {
    if (event.target === form || !event.target.name) return;
    typed.add(event.target.name);
    unoffer(event.target.name);
    if (event.target.name in marked) {
      depart(marked[event.target.name], null);   // another value: no longer the model's own count
      unmark(event.target.name);
    }
  });

  // A shared link: its presets, in the link's order; the link's own inputs win over the preset's.
  const explicit = new Set(Object.keys(link.inputs));
  let filled = false;
  for (const [kind, id] of Object.entries(link.presets)) {
    const preset = (offered[kind] || []).find((p) => p.id === id);
    if (!preset) continue;   // link.js said so
    const menu = menus.find((m) => m.dataset.kind === kind);
    if (menu) menu.value = id;
    apply(kind, preset, explicit);
    filled = true;
  }
  if (filled) document.getElementById("outputs")?.classList.add("stale");

  return {
    // The inputs as ``preset`` (of ``kind``) would leave them, the reader's other inputs kept: what
    // the inputs the current preset of that kind set would be without it, then the new preset's
    // values, except those the reader typed.  For a comparison; the form is not touched.
    fillFor(kind, preset, raw) {
      const out = { ...raw };
      for (const [name, k] of Object.entries(marked)) {
        if (k === kind) out[name] = document.getElementById(`in-${name}`)?.defaultValue ?? defaults[name];
      }
      for (const [name, value] of Object.entries(preset.values)) if (name in out && !typed.has(name)) out[name] = String(value[0]);
      return out;
    },
    // kind -> the preset applied: what the link names, and the values it need not repeat.
    chosen: () => ({ ...chosen }),
    // input -> kind of the preset that set it (the reader has not changed it since): the embed card names the preset once.
    filled: () => ({ ...marked }),
    // A field that no longer holds its preset's value (a solved answer put another there) is not
    // marked as the preset's any more.
    settle() {
      for (const [name, kind] of Object.entries(marked)) {
        const preset = chosen[kind];
        if (!preset || !field(name) || field(name).value !== String(preset.values[name][0])) unmark(name);
      }
    },
  };
}
