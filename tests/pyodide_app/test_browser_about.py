"""The About page and the chapters page, in Chromium: reachable from every page, and saying only what
the project's files say (the book's texts name no author: none is invented)."""

from __future__ import annotations

import json

import pytest

from site_builder.runtime.citation import book_bibtex
from tests.support import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node


@pytest.mark.parametrize("path", ["/", "/35/", "/toolkit/softmax/", "/chapters/", "/synthesis/", "/404.html"])
def test_every_page_links_the_about_page_from_its_nav_and_footer(page, server, path):
    page.goto(server.url + path)
    assert page.locator('header.site nav a[href="/about/"]').count() == 1
    assert page.locator('footer.site a[href="/about/"]').count() == 1
    page.click('footer.site a[href="/about/"]')
    page.wait_for_url(server.url + "/about/")
    assert page.text_content("h1") == "About"


def test_the_about_page_says_what_the_book_the_site_the_checks_the_citation_and_the_licence_are(page, server, bank):
    entries, _ = bank
    page.goto(server.url + "/about/")
    for section in ("book", "site", "checks", "cite", "licence"):
        assert page.is_visible(f"#{section} h2"), section
    book = page.text_content("#book")
    assert "name no author, publisher or year" in book and "Appendix A" in book
    checks = page.text_content("#checks")
    cases = sum(len(e.cases) for e in entries)
    assert f"{cases} worked cases" in " ".join(checks.split())
    assert "CPython" in checks and "Pyodide" in checks and "inverse cases" in checks
    assert page.text_content("#about-book-bibtex") == book_bibtex()
    assert page.text_content("#about-entry-bibtex").startswith("@inbook{arithmeticofintelligence-35,")
    # The licence: what package.json and the absence of a licence file say, and each served package's.
    package = json.loads((ROOT / "package.json").read_text())
    licence = " ".join(page.text_content("#licence").split())
    if not any(p.name.upper().startswith(("LICENSE", "LICENCE", "COPYING")) for p in ROOT.iterdir()):
        assert "grant no licence" in licence and f'"license": "{package["license"]}"' in licence
    rows = page.eval_on_selector_all("#licences tbody tr", "rows => rows.map((r) => r.cells[0].textContent)")
    assert rows == list(package["dependencies"])
    assert page.problems == []


def test_the_chapters_page_explains_its_marks_and_says_what_each_chapter_covers(page, server):
    page.goto(server.url + "/chapters/")
    legend = page.text_content(".legend")
    assert "toolkit entry" in legend.lower() and "three separate days" in legend
    assert page.locator("section.chapter").count() == 17
    assert page.locator("section.chapter p.covers").count() == 17
    page.click('#ch-11 a[href="/35/"]')
    page.wait_for_url(server.url + "/35/")
    kicker = page.text_content(".kicker")
    assert "Chapter 11: KV cache, arithmetic intensity, decode speed" in " ".join(kicker.split())


def test_the_page_cites_a_computation_as_the_build_does_with_no_author(page, server):
    from tests.browsing import open_entry

    open_entry(page, server, "/35/")
    assert page.text_content("#cite-entry-bibtex").startswith("@inbook{arithmeticofintelligence-35,")
    page.fill("#in-s", "8192")
    page.wait_for_function("() => document.getElementById('cite-run-bibtex').textContent.includes('s = 8192')")
    run = page.text_content("#cite-run-bibtex")
    assert run.startswith("@misc{arithmeticofintelligence-35-run,") and "author" not in run
    assert "The Arithmetic of Intelligence, Appendix A (The Derivation Bank), entry 35" in page.text_content(
        "#cite-run-text"
    )
    assert page.problems == []
