// "Paste a config.json": the reader's own model fills the entry's inputs.  Loaded on first use
// (page.js imports it when the button is pressed or a file dropped), so the page's first load
// does not grow.  The text goes to the worker as it is; the runtime's bounded parser
// (runtime/hfconfig.py) reads it, or refuses it with a message naming the key at fault.
// Nothing in a paste is run, and a refused paste changes no input.
const MAX_CHARS = 256 * 1024;   // the parser's own limit; checked here too, before anything is sent
// A whole number as the runtime's numbers.grouped writes one for a reader: 262,144.
const grouped = (n) => n.toLocaleString("en");
let setup = null;
let pasted = new Set();   // the inputs the last paste set

export function setupConfig({ spec, form, runner, addNotice, box, raw }) {
  if (setup) return setup;
  const panel = document.createElement("div");
  panel.className = "config-panel";
  panel.id = "config-panel";
  panel.hidden = true;
  const label = document.createElement("label");
  label.htmlFor = "config-text";
  label.textContent = "config.json";
  const area = document.createElement("textarea");
  area.id = "config-text";
  area.rows = 6;
  area.spellcheck = false;
  area.placeholder = '{"model_type": "llama", "hidden_size": 4096, ...}';
  const fill = document.createElement("button");
  fill.type = "button";
  fill.id = "config-fill";
  fill.textContent = "Fill from this config";
  const status = document.createElement("p");
  status.id = "config-status";
  status.className = "config-status";
  status.setAttribute("role", "status");
  // Where the entry's own count of the model is not its architecture's, said under the status.
  const departs = document.createElement("p");
  departs.id = "config-departs";
  departs.className = "preset-departs";
  departs.hidden = true;
  panel.append(label, area, fill, status, departs);
  box.append(panel);

  function say(text, refused) {
    departs.hidden = true;
    departs.textContent = "";
    status.textContent = text;
    status.classList.toggle("refused", Boolean(refused));
  }

  function mark(name, from, how) {
    document.getElementById(`mark-${name}`)?.remove();
    const line = document.createElement("p");
    line.className = "preset-mark";
    line.id = `mark-${name}`;
    line.textContent = `From ${from}: ${how}`;
    const wrapper = form.elements[name].closest(".field");
    wrapper.classList.add("preset-filled");
    wrapper.querySelector(".control").after(line);
  }

  async function read(text) {
    if (text.length > MAX_CHARS) {
      say(`Refused: ${grouped(text.length)} characters; a config.json is at most ${grouped(MAX_CHARS)} (256 KiB).`, true);
      return;
    }
    say("Reading…");
    let reply;
    const ask = async () => {
      await runner.restarting;   // a worker the watchdog restarted answers once Python is in it again
      const mapping = JSON.stringify(spec.config_fill || []);
      const others = raw ? raw() : {};
      for (const name of pasted) delete others[name];   // the last paste's values give way to this one's
      return runner.call("config", { entry: spec.id, text, fill: mapping, raw: others }, 20000);
    };
    try {
      reply = await ask().catch(async (err) => {
        if (!/Python is not loaded/.test(String(err && err.message))) throw err;
        await runner.restarting;
        return ask();
      });
    } catch (err) {
      say(`Could not read it: ${String(err && err.message || err).slice(0, 200)}`, true);
      return;
    }
    if (!reply.ok) {
      say(`Refused, nothing filled: ${reply.error}`, true);
      return;
    }
    const names = Object.keys(reply.values).filter((name) => form.elements[name]);
    if (!names.length) {
      say(`${reply.name} (${reply.model_type}) gives none of what fills this entry.`, true);
      return;
    }
    const from = `config.json (${reply.name})`;
    // What the previous paste set and this config does not give goes back to the entry's default.
    for (const name of pasted) {
      if (names.includes(name) || !form.elements[name]) continue;
      const input = document.getElementById(`in-${name}`);
      const given = spec.inputs.find((i) => i.name === name);
      const typed = input && input.tagName !== "SELECT" ? input.defaultValue : undefined;
      form.elements[name].value = typed ?? String(given ? given.default : "");
      document.getElementById(`mark-${name}`)?.remove();
      form.elements[name].closest(".field")?.classList.remove("preset-filled");
    }
    pasted = new Set(names);
    for (const name of names) {
      const [text, key, note] = reply.values[name];
      form.elements[name].value = text;
      mark(name, from, key ? `${key}${note ? `; ${note}` : ""}` : note);
    }
    const missing = reply.missing.length ? `; it does not give ${reply.missing.join(", ")}` : "";
    say(`Filled ${names.length} input${names.length === 1 ? "" : "s"} from ${reply.name} (${reply.model_type})${missing}.`);
    if (reply.departs) {
      departs.textContent = reply.departs;
      departs.hidden = false;
    }
    document.getElementById("outputs")?.classList.add("stale");
    form.dispatchEvent(new Event("input"));   // the page recomputes, as after any input
  }

  fill.addEventListener("click", () => read(area.value));

  setup = {
    open() {
      panel.hidden = false;
      area.focus();
    },
    async drop(transfer) {
      const file = transfer && transfer.files && transfer.files[0];
      panel.hidden = false;
      if (!file) return;
      if (file.size > MAX_CHARS) {
        say(`Refused: ${file.name} is ${grouped(file.size)} bytes; a config.json is at most ${grouped(MAX_CHARS)} (256 KiB).`, true);
        return;
      }
      area.value = await file.text();
      await read(area.value);
    },
  };
  if (addNotice && !spec.config_fill) addNotice("This entry has no model inputs a config.json could fill.");
  return setup;
}
