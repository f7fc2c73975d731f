// The search dialog: MiniSearch over the build's index of titles, aliases, statements, symbols and chapters.

// Typos forgiven, by the length of the word typed: none up to three letters (kv, gqa, moe: a slip
// there is another word), one edit at four, two from five (cahce -> cache swaps two letters).
// tests/pages/test_search.py applies the same rule to tests/data/search-queries.yaml.
export const fuzziness = (term) => (term.length <= 3 ? 0 : term.length === 4 ? 1 : 2);

// The engine over the build's index: what the dialog searches, and what the 404 page suggests from.
export async function loadEngine(indexUrl, libraryUrl) {
  const [{ default: MiniSearch }, documents] = await Promise.all([
    import(libraryUrl), fetch(indexUrl).then((r) => r.json()),
  ]);
  const engine = new MiniSearch({
    fields: ["title", "aliases", "symbols", "statement", "terms", "chapter", "section", "label"],
    storeFields: ["title", "url", "label", "chapter", "covers", "aliases"],
    tokenize: (text) => text.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean),
    searchOptions: {
      boost: { title: 3, aliases: 3, symbols: 3, label: 2 }, prefix: true, fuzzy: fuzziness, combineWith: "AND",
      // A symbol's entries come before its line of the notation index, which follows them.
      boostDocument: (id) => (String(id).startsWith("notation:") ? 0.3 : 1),
    },
  });
  engine.addAll(documents);
  engine.documents = documents;
  return engine;
}

// Every word must match; when no entry has them all ("how big is the kv cache"), the entries
// with the most of them.
export function find(engine, query) {
  const all = engine.search(query);
  return all.length ? all : engine.search(query, { combineWith: "OR" });
}

export class SearchBox {
  constructor(dialog, indexUrl, libraryUrl) {
    this.dialog = dialog;
    this.input = dialog.querySelector("#search-input");
    this.list = dialog.querySelector("#search-results");
    this.selected = -1;
    this.results = [];
    this.hint = dialog.querySelector(".search-hint");
    this.hintText = this.hint.dataset.usual || this.hint.textContent;   // site.js may have told of a failure there
    this.urls = [indexUrl, libraryUrl];
    this.ready = this.load();
    this.input.addEventListener("input", () => this.update());
    this.input.addEventListener("keydown", (event) => this.key(event));
    this.dialog.addEventListener("click", (event) => { if (event.target === this.dialog) this.dialog.close(); });
  }

  // The index and its engine; when they cannot be fetched (offline before the site was kept,
  // a server that failed), the dialog says so and the next keystroke asks again.
  load() {
    return loadEngine(...this.urls).then((engine) => {
      this.engine = engine;
      this.hint.textContent = this.hintText;
      return true;
    }, (err) => {
      this.hint.dataset.usual ||= this.hintText;
      this.hint.textContent = `Search could not load its index (${err && err.message || err}). Type again to retry.`;
      this.ready = null;
      return false;
    });
  }

  async update() {
    if (!(await (this.ready ||= this.load()))) return;
    const query = this.input.value.trim();
    // "chapter 12", "ch. 12": that chapter's entries, not every text holding "12".
    const chapter = query.match(/^ch(?:apter|\.)?\s*(\d+)$/i);
    const found = chapter
      ? this.engine.search(`chapter ${chapter[1]}`, { fields: ["chapter"], prefix: false, fuzzy: false })
      : this.search(query);
    this.results = query ? found.slice(0, 12) : [];
    this.selected = this.results.length ? 0 : -1;
    this.render(query);
  }

  search(query) {
    return find(this.engine, query);
  }

  render(query) {
    this.list.replaceChildren();
    this.list.dataset.query = query; // which query the list answers: typing outruns the search
    this.input.setAttribute("aria-expanded", String(this.results.length > 0));
    if (query && !this.results.length) {
      const empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = "No entry matches.";
      this.list.append(empty);
    }
    this.results.forEach((result, i) => {
      const item = document.createElement("li");
      item.id = `search-result-${i}`;
      item.setAttribute("role", "option");
      item.setAttribute("aria-selected", String(i === this.selected));
      const link = document.createElement("a");
      link.href = result.url;
      link.tabIndex = -1;
      const label = document.createElement("span");
      label.className = "result-label";
      label.textContent = `${result.label} · ${result.chapter}${result.covers ? `: ${result.covers}` : ""}`;
      link.append(label, document.createTextNode(result.title));
      const alias = this.matchedAlias(result);
      if (alias) {
        const also = document.createElement("span");
        also.className = "result-alias";
        also.textContent = ` · ${alias}`;
        link.append(also);
      }
      item.append(link);
      this.list.append(item);
    });
    if (this.selected >= 0) this.input.setAttribute("aria-activedescendant", `search-result-${this.selected}`);
    else this.input.removeAttribute("aria-activedescendant");
  }

  // The name the reader typed when it is not the title (GQA finds "KV cache size"): the alias matched.
  matchedAlias(result) {
    const terms = Object.entries(result.match || {})
      .filter(([, fields]) => fields.includes("aliases") && !fields.includes("title")).map(([term]) => term);
    if (!terms.length || !result.aliases) return "";
    const split = (text) => text.toLowerCase().split(/[^\p{L}\p{N}_]+/u);
    return result.aliases.split(" · ").find((alias) => split(alias).some((word) => terms.includes(word))) || "";
  }

  key(event) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!this.results.length) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      this.selected = (this.selected + step + this.results.length) % this.results.length;
      this.render(this.input.value.trim());
    } else if (event.key === "Enter") {
      event.preventDefault();
      // As a click on the result's link: followed like any other link between pages (site.js).
      if (this.selected >= 0) this.list.querySelector(`#search-result-${this.selected} a`).click();
    }
  }
}
