"""The search index: titles, aliases, statements, symbols, chapters and toolkit topics, as MiniSearch documents.

An entry's ``aliases`` (the field's vocabulary: GQA, Chinchilla, learning rate) are searched like
its title; the dialog forgives typos (pyodide_app/search.js, ``fuzzy``), and
tests/data/search-queries.yaml lists what readers type and what each must find.

Symbols are indexed as a reader types them: ``\\kappa`` as ``kappa``, ``H_{kv}`` as ``h_kv``
(and ``hkv``), ``d_{\\text{head}}`` as ``d_head``.
"""

from __future__ import annotations

import functools
import json
import re

from ..cache import kept_for
from ..load.entry import Entry
from ..tex import markdown, notation

# Commands that lay math out or name an operation, not a symbol a reader would search for.
_LAYOUT = {
    "frac",
    "dfrac",
    "tfrac",
    "left",
    "right",
    "big",
    "Big",
    "bigl",
    "bigr",
    "Bigl",
    "Bigr",
    "displaystyle",
    "cdot",
    "times",
    "sqrt",
    "ln",
    "log",
    "exp",
    "min",
    "max",
    "sum",
    "prod",
    "quad",
    "qquad",
    "approx",
    "le",
    "ge",
    "leq",
    "geq",
    "ne",
    "neq",
    "to",
    "ldots",
    "cdots",
    "dots",
    "mid",
}
_COMMAND = re.compile(r"\\(?:text|mathrm|mathit|operatorname|mathbf|boldsymbol)\s*\{([^{}]*)\}")


@functools.lru_cache(maxsize=4096)  # serve rebuilds the index at each edit, from mostly the same TeX
def symbol_words(tex: str) -> tuple[str, ...]:
    """Search terms for one TeX symbol or expression."""
    plain = _COMMAND.sub(r"\1", tex)
    words = set()
    for m in re.finditer(r"\\([A-Za-z]+)", plain):
        if len(m.group(1)) > 1 and m.group(1) not in _LAYOUT:
            words.add(m.group(1).lower())
    plain = re.sub(r"\\[A-Za-z]+", lambda m: m.group(0)[1:], plain)
    for m in re.finditer(r"([A-Za-z]+)\s*_\s*\{?\s*([A-Za-z0-9]+)\s*\}?", plain):
        base, sub = m.group(1).lower(), m.group(2).lower()
        words.update({f"{base}_{sub}", f"{base}{sub}"})
    return tuple(sorted(words))


def _plain(markdown: str) -> str:
    text = re.sub(r"\$\$?|\\\(|\\\)|\\\[|\\\]", " ", markdown)
    text = _COMMAND.sub(r"\1", text)
    text = re.sub(r"\\([A-Za-z]+)", r"\1", text)
    return " ".join(re.sub(r"[{}_^]", " ", text).split())


# Entries are frozen: serve, which makes the index again at each edit, keeps most of them, and
# finds their words here (id -> the entry itself, so the id stays its own, and its words).
_WORDS: dict = {}  # id -> the entry, and its search terms and plain statement (cache.kept_for)
_WORDS_KEPT = 8192


def _words(e: Entry) -> tuple[str, str]:
    """An entry's symbols as search terms, and its statement as plain text."""

    def make() -> tuple[str, str]:
        tex = (
            [f for f, _ in markdown.fragments(e.statement)]
            + [i.symbol for i in e.inputs]
            + [o.symbol for o in e.outputs]
        )
        symbols = sorted({w for t in tex for w in symbol_words(t)} | {i.name.lower() for i in e.inputs})
        return " ".join(symbols), _plain(e.statement)

    return kept_for(_WORDS, e, make, bound=_WORDS_KEPT)


def index_documents(entries: list[Entry], chapters: dict | None = None) -> list[dict]:
    """One document per entry; ``chapters`` (number -> Chapter) adds what the entry's chapter covers,
    shown with each result."""
    chapters = chapters or {}
    docs = [_document(e, chapters[e.chapter].short if e.chapter in chapters else "") for e in entries]
    return docs + notation_documents(entries)


def _document(e: Entry, covers: str) -> dict:
    symbols, statement = _words(e)
    return {
        "id": e.key,
        "url": e.url,
        "label": e.label,
        "title": e.title,
        "aliases": " · ".join(e.aliases),
        "chapter": f"Chapter {e.chapter}",
        "covers": covers,
        "section": "Toolkit" if not e.in_bank else f"Part {e.part}",
        "statement": statement,
        "symbols": symbols,
        "terms": " ".join([i.label for i in e.inputs] + [o.label for o in e.outputs]),
    }


# The last notation documents and what they were made of: each symbol's canonical TeX and meaning
# in each entry, in the bank's order (all a group's document reads).  serve makes the index again
# at every edit, and an edit seldom changes a symbol.
_NOTATION: list = [None, []]


def notation_documents(entries: list[Entry]) -> list[dict]:
    """One document per symbol group of /notation/: found by the symbols' names (``beta``, ``H_kv``)
    and by what they mean, listed as notation."""
    made_of = tuple(_symbols(e) for e in entries)
    if _NOTATION[0] != made_of:
        _NOTATION[:] = [made_of, _notation_documents(entries)]
    return [dict(doc) for doc in _NOTATION[1]]


_SYMBOLS: dict = {}  # id -> the entry, and its (symbol, meaning) pairs (cache.kept_for)


def _symbols(e: Entry) -> tuple:
    return kept_for(_SYMBOLS, e, lambda: tuple((u.canonical, u.meaning) for u in notation.uses(e)), bound=_WORDS_KEPT)


def _notation_documents(entries: list[Entry]) -> list[dict]:
    docs = []
    for group in notation.notation(entries):
        names = sorted({notation.name(c) for c in group.symbols})
        words = sorted({w for c in group.symbols for w in symbol_words(c)} | {n.lower() for n in names})
        meanings = [m.labels[0] for m in group.meanings]
        docs.append(
            {
                "id": f"notation:{group.name}",
                "url": f"/notation/#{group.anchor}",
                "label": "Notation",
                "title": f"{', '.join(names)}: " + ("; ".join(meanings) if meanings else "in the statements"),
                "aliases": "",
                "chapter": "symbol index",
                "covers": "several meanings" if group.overloaded else "one meaning",
                "section": "Notation",
                "statement": "",
                "symbols": " ".join(words),
                "terms": " ".join(meanings),
            }
        )
    return docs


def plan_documents(plans) -> list[dict]:
    """One document per plan (plan.Plan): found by its title, its aliases, its summary, the words
    of its inputs and answers, and the titles of the entries it composes."""
    return [
        {
            "id": plan.id,
            "url": plan.url,
            "label": "Plan",
            "title": plan.title,
            "aliases": " · ".join(plan.aliases),
            "chapter": "",
            "covers": "composed from entries " + ", ".join(dict.fromkeys(s.entry_key for s in plan.steps)),
            "section": "Plans",
            "statement": _plain(plan.summary),
            "symbols": " ".join(sorted({i.name.lower() for i in plan.inputs})),
            "terms": " ".join([i.label for i in plan.inputs] + [o.label for o in plan.outputs]),
        }
        for plan in plans
    ]


def _json(doc: dict) -> str:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


# Entries are frozen: an entry's document, as JSON, made once while the entry and its chapter's
# words are the same (cache.kept_for).  serve makes the index again at each edit.
_DOCS: dict = {}


def index_json(entries: list[Entry], chapters: dict | None = None, plans=()) -> bytes:
    """The index, as ``json.dumps`` writes the list of ``index_documents`` and ``plan_documents``:
    each entry's document written once, and kept while the entry is."""
    chapters = chapters or {}
    parts = []
    for e in entries:
        covers = chapters[e.chapter].short if e.chapter in chapters else ""
        parts.append(
            kept_for(_DOCS, e, lambda e=e, covers=covers: _json(_document(e, covers)), also=covers, bound=_WORDS_KEPT)
        )
    parts += [_json(doc) for doc in notation_documents(entries) + plan_documents(plans)]
    return ("[" + ",".join(parts) + "]").encode()
