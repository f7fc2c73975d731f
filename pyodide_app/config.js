// "Paste a config.json": the reader's own model fills the entry's inputs.  Loaded on first use
// (page.js imports it when the button is pressed or a file dropped), so the page's first load
// does not grow.  The text goes to the worker as it is; the runtime's bounded parser
// (runtime/hfconfig.py) reads it, or refuses it with a message naming the key at fault.
// Nothing in a paste is run, and a refused paste changes no input.
const MAX_CHARS = 256 * 1024;   // the parser's own limit; checked here too, before anything is sent
let setup = null;

export function setupConfig({ spec, form, runner, addNotice, box }) {
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
  panel.append(label, area, fill, status);
  box.append(panel);

  function say(text, refused) {
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
      say(`Refused: ${text.length} characters; a config.json is at most ${MAX_CHARS} (256 KiB).`, true);
      return;
    }
    say("Reading…");
    let reply;
    const ask = async () => {
      await runner.restarting;   // a worker the watchdog restarted answers once Python is in it again
      return runner.call("config", { text, fill: JSON.stringify(spec.config_fill || []) }, 20000);
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
    for (const name of names) {
      const [text, key, note] = reply.values[name];
      form.elements[name].value = text;
      mark(name, from, key ? `${key}${note ? `; ${note}` : ""}` : note);
    }
    const missing = reply.missing.length ? `; it does not give ${reply.missing.join(", ")}` : "";
    say(`Filled ${names.length} input${names.length === 1 ? "" : "s"} from ${reply.name} (${reply.model_type})${missing}.`);
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
        say(`Refused: ${file.name} is ${file.size} bytes; a config.json is at most ${MAX_CHARS} (256 KiB).`, true);
        return;
      }
      area.value = await file.text();
      await read(area.value);
    },
  };
  if (addNotice && !spec.config_fill) addNotice("This entry has no model inputs a config.json could fill.");
  return setup;
}
