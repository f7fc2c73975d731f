"""/toolkit/ is a page: every toolkit entry, by chapter, with its statement's first sentence."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node


def test_the_toolkit_index_lists_every_toolkit_entry_and_is_reached_from_the_index(page, server, bank):
    entries, _ = bank
    toolkit = {e.url: e for e in entries if not e.in_bank}
    page.goto(server.url + "/")
    page.click("#toolkit h2 a[href='/toolkit/']")
    page.wait_for_url(server.url + "/toolkit/")
    page.wait_for_selector("main h1:text('Toolkit')")
    items = page.eval_on_selector_all(
        ".toolkit-item",
        "(items) => items.map((li) => ({ url: li.querySelector('a').getAttribute('href'),"
        " title: li.querySelector('a').textContent.trim(), line: li.querySelector('.one-line').textContent.trim(),"
        " chapter: li.closest('section').id }))",
    )
    assert sorted(i["url"] for i in items) == sorted(toolkit)
    for item in items:
        entry = toolkit[item["url"]]
        assert item["title"].startswith(entry.title) and item["chapter"] == f"ch-{entry.chapter}"
        assert item["line"].endswith((".", "…")) and "$" not in item["line"], item
    page.click(".toolkit-item a[href='/toolkit/softmax/']")
    page.wait_for_url(server.url + "/toolkit/softmax/")
    assert page.problems == []
