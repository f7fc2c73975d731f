"""Citations: the book as a book (its title, nothing invented), an entry as part of it read at the site,
a computation at its link. One producer, site_builder/runtime/citation.py, for the build and the page."""

from __future__ import annotations

import html
import re

import pytest

from site_builder.runtime.citation import BOOK, book_bibtex, entry_citation, run_citation

BANK = {
    "id": "35",
    "label": "Entry 35",
    "title": "KV cache size",
    "chapter": 11,
    "url": "https://example.org/35/",
    "version": "abc123",
    "date": "2026-12-01",
    "entry_version": 2,
    "release": 3,
}
TOOLKIT = {
    **BANK,
    "id": "softmax",
    "label": "Toolkit",
    "title": "Softmax, and the price of one prediction",
    "chapter": 2,
    "url": "https://example.org/toolkit/softmax/",
}


def records(bibtex: str) -> dict[str, tuple[str, dict]]:
    """key -> (type, fields) of each @record; braces must balance."""
    found = {}
    for m in re.finditer(r"@(\w+)\{([^,\s]+),\n(.*?)\n\}", bibtex, re.S):
        body = m.group(3)
        assert body.count("{") == body.count("}"), body
        fields = dict(re.findall(r"^\s*(\w+)\s*=\s*(.*?),?$", body, re.M))
        found[m.group(2)] = (m.group(1), fields)
    assert len(found) == bibtex.count("@"), bibtex
    return found


def test_the_book_is_a_book_with_its_title_and_nothing_invented():
    ((kind, fields),) = records(book_bibtex()).values()
    assert kind == "book" and fields == {"title": "{{The Arithmetic of Intelligence}}"}
    assert "no author, publisher or year" in book_bibtex()


@pytest.mark.parametrize("meta", [BANK, TOOLKIT], ids=["bank", "toolkit"])
def test_an_entry_is_cited_as_part_of_the_book_read_at_its_page(meta):
    citation = entry_citation(meta)
    found = records(citation["bibtex"])
    (_key, (kind, fields)), book = list(found.items())[0], found["arithmeticofintelligence"]
    assert kind == "inbook" and book[0] == "book"
    assert fields["crossref"] == "{arithmeticofintelligence}" and BOOK in fields["title"]
    assert (
        meta["title"] in fields["chapter"]
        and f"{meta['url']}?version=2" in fields["howpublished"]
        and fields["url"] == f"{{{meta['url']}?version=2}}"
    )
    for bib in (
        citation["bibtex"],
        run_citation(meta, [("L", "80")], [("Total", "1.342 GB")], meta["url"], "2026-12-01")["bibtex"],
    ):
        assert not re.search(r"^\s*(author|editor|publisher|year)\s*=", bib, re.M), bib
        assert "Derivation Bank}" not in bib  # the site is where it is read, never an author
    assert (
        citation["text"].startswith(f"“{meta['title']}”, version 2. In {BOOK}, ")
        and f"Read at {meta['url']}?version=2 (release 3, site version abc123)." in citation["text"]
    )


def test_citations_carry_the_entrys_version_and_the_release():
    """A citation names the version that made its numbers: its link opens them after the entry changes."""
    ((_, fields), _book) = records(entry_citation(BANK)["bibtex"]).values()
    assert fields["version"] == "{2}" and "Entry version 2, release 3, site version abc123" in fields["note"]
    run = run_citation(BANK, [("L", "80")], [("Total", "1.342 GB")], BANK["url"] + "?L=80&version=2", "2026-12-01")
    ((_, fields),) = records(run["bibtex"]).values()
    assert fields["version"] == "{2}" and fields["url"] == "{https://example.org/35/?L=80&version=2}"
    assert "(entry version 2, release 3, site version abc123, accessed 2026-12-01)" in run["text"]


def test_a_bank_entry_names_appendix_a_and_its_chapter_a_toolkit_entry_its_chapter():
    assert "Appendix A (The Derivation Bank), entry 35, derived in Chapter 11" in entry_citation(BANK)["text"]
    assert "In The Arithmetic of Intelligence, Chapter 2 (toolkit)." in entry_citation(TOOLKIT)["text"]


def test_a_computation_names_its_inputs_results_link_and_date():
    run = run_citation(BANK, [("L", "80"), ("s", "8k")], [("Total", "2.684 GB")], BANK["url"] + "?s=8k", "2026-12-01")
    ((kind, fields),) = records(run["bibtex"]).values()
    assert kind == "misc" and fields["urldate"] == "{2026-12-01}" and "?s=8k" in fields["url"]
    assert "Inputs: L = 80, s = 8k. Results: Total = 2.684 GB." in fields["note"] and BOOK in fields["note"]
    assert "computed with L = 80, s = 8k: Total = 2.684 GB" in run["text"]


@pytest.mark.node
def test_the_built_page_shows_the_same_citation(site, bank):
    page = (site / "35" / "index.html").read_text()
    shown = html.unescape(page.split('id="cite-entry-bibtex">', 1)[1].split("</pre>", 1)[0])
    assert shown.startswith("@inbook{arithmeticofintelligence-35,") and "@book{arithmeticofintelligence," in shown
