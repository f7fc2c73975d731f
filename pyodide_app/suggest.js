// The 404 page: the entries nearest the address the reader typed (/kv-cahce/, /35x/), found by
// the search dialog's own engine (search.js) in the index the site already ships.  The path is
// only ever text: shown with textContent, searched as words.
import { find, loadEngine } from "./search.js";

const SHOWN = 5;
const MAX_PATH = 300;   // characters of the path read; a longer one is cut, not searched whole
const MAX_WORDS = 6;

// The words of a path: "/toolkit/kl-divergense/" -> "kl divergense"; a number 1-50 in it names an entry.
export function pathQuery(pathname) {
  let path = String(pathname).slice(0, MAX_PATH);
  try { path = decodeURIComponent(path); } catch (e) { /* a malformed escape: the path as typed */ }
  const words = path.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)
    .filter((w) => !["toolkit", "index", "html", "htm", "www"].includes(w));
  const number = (path.match(/(?:^|\/)e?([1-9][0-9]?)(?![0-9])/i) || [])[1];   // /35x/, /e35/
  return { path, words: words.slice(0, MAX_WORDS), number: number && Number(number) <= 50 ? number : null };
}

function item(result) {
  const li = document.createElement("li");
  li.className = "entry-item";
  const link = document.createElement("a");
  link.href = result.url;
  const label = document.createElement("span");
  label.className = "result-label";
  label.textContent = `${result.label}${result.chapter ? ` · ${result.chapter}` : ""}`;
  link.append(document.createTextNode(result.title), " ", label);
  li.append(link);
  return li;
}

export async function suggest({ indexUrl, libraryUrl }) {
  const root = document.documentElement;
  const box = document.getElementById("suggested");
  const { path, words, number } = pathQuery(location.pathname);
  document.getElementById("asked-path").textContent = path.length > 80 ? `${path.slice(0, 80)}…` : path;
  document.getElementById("asked").hidden = false;
  const engine = await loadEngine(indexUrl, libraryUrl);
  const found = [];
  const add = (doc) => { if (doc && !found.some((d) => d.url === doc.url)) found.push(doc); };
  if (number) add(engine.documents.find((d) => d.id === number));
  // Words of the address, then its digits read as words too ("35x" -> "35 x"); not the notation index.
  const queries = [words.join(" "), words.join(" ").replace(/(\d)(?=\p{L})|(\p{L})(?=\d)/gu, "$1$2 ")];
  for (const query of queries) {
    if (!query.trim()) continue;
    for (const result of find(engine, query)) if (!String(result.id).startsWith("notation:")) add(result);
  }
  const list = box.querySelector("ol");
  list.replaceChildren(...found.slice(0, SHOWN).map(item));
  box.hidden = !list.children.length;
  root.dataset.suggestions = String(list.children.length);
}
