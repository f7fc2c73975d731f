"""Code loaded on first use (ondemand.js) that cannot be fetched: the reader is told what could
not load, the rest of the page keeps working, and the next use asks again, in Chromium."""

from __future__ import annotations

import pytest

from tests.browsing import SEARCH_ANSWERED, open_entry, open_search

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node


def fetch_failures_only(page, name: str):
    """The page's problems are the failed fetches of ``name`` the test caused, and nothing else:
    no unhandled error."""
    others = [p for p in page.problems if "Failed to load resource" not in p and name not in p]
    assert others == []


def test_asking_backwards_whose_code_failed_to_load_says_so_and_asks_again(page, server):
    open_entry(page, server, "/35/")
    failed = []
    page.route("**/static/solve.js", lambda route: (failed.append(route.request.url), route.abort()))
    page.select_option("#solve-output", "total")
    page.select_option("#solve-sense", "<=")
    page.select_option("#solve-input", "s")
    page.fill("#solve-target", "80GB")
    page.press("#solve-target", "Enter")
    page.wait_for_selector("#notice:not([hidden])")
    assert page.text_content("#notice").startswith("The code for asking backwards could not be loaded (")
    assert "Try again: the rest of the page works." in page.text_content("#notice")
    assert failed
    # The rest works: an input still computes.
    page.fill("#in-B", "2")
    page.wait_for_function("() => new URLSearchParams(location.search).get('B') === '2'")
    # The network is back: asking again loads the code and answers, and the failure is told once.
    page.unroute("**/static/solve.js")
    page.press("#solve-target", "Enter")
    page.wait_for_function("() => document.documentElement.dataset.solves")
    assert page.eval_on_selector_all("#notice p", "(ps) => ps.length") == 1
    assert "solved" in page.get_attribute("#input-s", "class")
    fetch_failures_only(page, "solve.js")


def test_search_whose_code_failed_to_load_says_so_and_loads_on_the_next_opening(page, server):
    page.goto(server.url + "/")
    page.route("**/static/search.js", lambda route: route.abort())
    open_search(page, "kv cache")
    page.wait_for_function(
        "() => document.querySelector('.search-hint').textContent.startsWith('Search could not load')"
    )
    page.keyboard.press("Escape")
    page.unroute("**/static/search.js")
    page.eval_on_selector("#search-input", "(box) => { box.value = ''; }")
    open_search(page, "kv cache")
    page.wait_for_function(SEARCH_ANSWERED, arg="kv cache")
    assert page.eval_on_selector_all("#search-results a[href='/35/']", "(a) => a.length") == 1
    assert page.text_content(".search-hint").startswith("↑ ↓ to move")
    fetch_failures_only(page, "search.js")
