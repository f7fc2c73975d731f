"""Search as readers type, through the real dialog in Chromium: tests/data/search-queries.yaml."""

from __future__ import annotations

import pytest

from tests.browsing import open_search
from tests.test_search import QUERIES

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node


def url(key) -> str:
    return f"/{key}/" if isinstance(key, int) else f"/toolkit/{key}/"


@pytest.mark.parametrize("item", QUERIES, ids=[q["query"] for q in QUERIES])
def test_the_dialog_finds_what_readers_type(page, server, item):
    page.goto(server.url + "/")
    open_search(page, item["query"])
    page.wait_for_function(
        "q => document.getElementById('search-input').value === q && document.querySelector('#search-results li')",
        arg=item["query"],
    )
    page.wait_for_timeout(50)  # the last keystroke's results replace the previous ones
    shown = page.eval_on_selector_all("#search-results a", "links => links.map((a) => a.getAttribute('href'))")[:5]
    for key in item["finds"]:
        assert url(key) in shown, (item["query"], shown)
    if item.get("first"):
        assert shown[0] == url(item["finds"][0]), (item["query"], shown)
    # Each result says what its chapter covers.
    assert ": " in page.text_content("#search-results .result-label")
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
