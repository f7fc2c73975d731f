"""Search as readers type: the field's vocabulary and typos find the entries (tests/data/search-queries.yaml).

Here against the built index, with the dialog's matching rule (every word of the query matches a
word of the entry: exactly, as a prefix, or within the typos pyodide_app/search.js forgives);
tests/pyodide_app/test_browser_search.py asks the same queries through the real dialog in Chromium."""

from __future__ import annotations

import re

import pytest
import yaml

from site_builder.errors import Problems
from site_builder.load.load import load_chapters
from site_builder.pages import search
from tests.support import ENTRIES, ROOT, TESTS

QUERIES = yaml.safe_load((TESTS / "data" / "search-queries.yaml").read_text())
FIELDS = ("title", "aliases", "symbols", "statement", "terms", "chapter", "section", "label")


def tokens(text: str) -> list[str]:
    """The dialog's tokenizer: lower case, split at anything but letters, digits and '_'."""
    return [t for t in re.split(r"\W+", text.lower()) if t]


def fuzziness(term: str) -> int:
    """The dialog's typo allowance (search.js ``fuzziness``)."""
    return 0 if len(term) <= 3 else 1 if len(term) == 4 else 2


def distance(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def matched(query: str, doc: dict) -> int:
    """How many words of the query match a word of the entry."""
    words = {w for field in FIELDS for w in tokens(doc[field])}
    return sum(any(w == t or w.startswith(t) or distance(w, t) <= fuzziness(t) for w in words) for t in tokens(query))


def matches(query: str, doc: dict) -> bool:
    return matched(query, doc) == len(tokens(query))


@pytest.fixture(scope="module")
def documents(bank):
    """The search index's documents by id: every entry's, and every plan's (its id, train-plan)."""
    from tests.runtime.test_plans import _bank

    entries, _ = bank
    plans = [plan for plan, _ in _bank()[3].values()]
    docs = search.index_documents(entries, load_chapters(ENTRIES, Problems())) + search.plan_documents(plans)
    return {d["id"]: d for d in docs}


def test_the_query_list_names_real_entries(documents):
    assert len(QUERIES) >= 20
    for item in QUERIES:
        assert set(item) <= {"query", "finds", "first"} and item["finds"], item
        assert {str(k) for k in item["finds"]} <= set(documents), item


@pytest.mark.parametrize("item", QUERIES, ids=[q["query"] for q in QUERIES])
def test_each_query_matches_the_entries_it_must_find(documents, item):
    query = item["query"]
    if not any(matches(query, d) for d in documents.values()):
        # A sentence no entry holds every word of: the dialog lists the entries matching most of them.
        best = max(matched(query, d) for d in documents.values())
        for key in item["finds"]:
            assert matched(query, documents[str(key)]) == best, (query, key)
        return
    for key in item["finds"]:
        assert matches(query, documents[str(key)]), (query, key)


def test_typos_are_forgiven_but_not_in_short_words(documents):
    kv = documents["35"]
    assert matches("kv cahce", kv) and matches("kv cache", kv)
    assert not matches("kx cache", kv)  # two letters leave no room for a slip
    assert not matches("kv cxhxe", kv)  # three slips in five letters are another word


def test_every_entry_has_aliases_and_none_repeats_its_title(bank):
    entries, _ = bank
    for e in entries:
        assert e.aliases, f"{e.url}: no aliases"
        assert len({a.lower() for a in e.aliases}) == len(e.aliases), e.url
        assert e.title.lower() not in {a.lower() for a in e.aliases}, e.url


def test_aliases_follow_the_title_in_each_file(bank):
    entries, _ = bank
    for e in entries:
        lines = e.where.path.read_text().splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith("title:"))
        assert lines[at + 1].startswith("aliases:"), e.where.path.name


def test_the_typo_rule_here_is_the_dialogs():
    source = (ROOT / "pyodide_app" / "search.js").read_text()
    rule = re.search(r"export const fuzziness = \(term\) => \((.*)\);", source).group(1)
    assert rule == "term.length <= 3 ? 0 : term.length === 4 ? 1 : 2"
    assert [fuzziness("x" * n) for n in range(1, 9)] == [0, 0, 0, 1, 2, 2, 2, 2]
