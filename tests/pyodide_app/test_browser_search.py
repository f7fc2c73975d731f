"""Search as readers type, through the real dialog in Chromium: tests/data/search-queries.yaml."""

from __future__ import annotations

import pytest

from tests.browsing import SEARCH_ANSWERED, open_search
from tests.pages.test_search import QUERIES

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node


def url(key) -> str:
    if isinstance(key, int):
        return f"/{key}/"
    return f"/plans/{key.removesuffix('-plan')}/" if key.endswith("-plan") else f"/toolkit/{key}/"


def test_the_dialog_finds_what_readers_type(page, server):
    """Every query of the corpus typed into one dialog, each answer read once the list says it
    answers that query; every miss is reported at once."""
    page.goto(server.url + "/")
    missed = []
    for n, item in enumerate(QUERIES):
        if n == 0:
            open_search(page, item["query"])  # key by key, as a reader types
        else:
            page.fill("#search-input", item["query"])
        page.wait_for_function(SEARCH_ANSWERED, arg=item["query"].strip())
        shown = page.eval_on_selector_all("#search-results a", "links => links.map((a) => a.getAttribute('href'))")[:5]
        lost = [key for key in item["finds"] if url(key) not in shown]
        if lost or (item.get("first") and shown[:1] != [url(item["finds"][0])]):
            missed.append(f"{item['query']!r}: shows {shown}")
        # Each result says what its chapter covers.
        elif ": " not in page.text_content("#search-results .result-label"):
            missed.append(f"{item['query']!r}: a result without its chapter's subject")
    assert missed == [], "\n".join(missed)
    assert page.problems == []


def test_a_typo_is_opened_with_enter(page, server):
    page.goto(server.url + "/chapters/")
    open_search(page, "kv cahce")
    page.wait_for_selector('#search-results [aria-selected=true] a[href="/35/"]')
    page.keyboard.press("Enter")
    page.wait_for_url(server.url + "/35/")


def test_a_result_found_by_another_name_shows_that_name(page, server):
    page.goto(server.url + "/")
    open_search(page, "GQA")
    page.wait_for_selector('#search-results a[href="/35/"] .result-alias')
    assert page.text_content('#search-results a[href="/35/"] .result-alias') == " · GQA"
    page.fill("#search-input", "kv cache size")
    page.wait_for_function(
        "() => document.querySelector(\"#search-results a[href='/35/']\") && "
        "!document.querySelector(\"#search-results a[href='/35/'] .result-alias\")"
    )
