"""The 404 page suggests the entries nearest the address typed, from the search index the site
ships, with the search dialog's own engine; whatever the address, it is only text."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from tests.browsing import assert_nothing_injected

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node


def suggestions(page, server, path: str) -> list[str]:
    page.goto(server.url + path)
    page.wait_for_function("() => document.documentElement.dataset.suggestions")
    return page.eval_on_selector_all("#suggested li a", "(links) => links.map((a) => a.getAttribute('href'))")


def own_404(page) -> list[str]:
    """The page's problems less the 404 of the page itself, which is the point."""
    return [p for p in page.problems if "status of 404" not in p]


@pytest.mark.parametrize(
    "path, first",
    [
        ("/kv-cache/", "/35/"),
        ("/kv-cahce/", "/35/"),
        ("/35x/", "/35/"),
        ("/pipline-bubble/", "/19/"),
        ("/toolkit/softmaks/", "/toolkit/softmax/"),
    ],
)
def test_a_mistyped_address_suggests_its_entry_first(page, server, path, first):
    found = suggestions(page, server, path)
    assert first in found[:2], found  # "softmaks" finds Streaming softmax as readily
    assert len(found) <= 5
    assert page.text_content("#asked-path") == path
    assert page.is_visible("#suggested") and page.get_attribute("#suggestions", "role") == "status"
    assert own_404(page) == []


def test_a_suggestion_is_a_link_that_opens_its_entry(page, server):
    suggestions(page, server, "/kv-cahce/")
    page.click("#suggested li a[href='/35/']")
    page.wait_for_url(server.url + "/35/")
    assert page.title().startswith("Entry 35")


def test_an_address_like_no_entry_suggests_nothing_and_says_so_plainly(page, server):
    assert suggestions(page, server, "/qwxzvq/") == []
    assert page.is_hidden("#suggested")
    assert "Nothing lives at /qwxzvq/." in page.text_content("main")


@pytest.mark.parametrize(
    "path",
    [
        "/%3Cscript%3Ewindow.__pwned=1%3C/script%3E/",
        "/%22%3E%3Cimg%20src=x%20onerror=window.__pwned=1%3E/",
        "/%E0%A4%A/",  # a malformed escape
        "/" + "kv-cache-" * 60 + "/",  # longer than a file name may be
    ],
)
def test_a_hostile_or_huge_address_is_inert_text(page, server, path):
    suggestions(page, server, path)
    assert_nothing_injected(page, "#asked-path *, #suggested li a *:not(.result-label)")
    shown = page.text_content("#asked-path")
    assert len(shown) <= 81
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert own_404(page) == []


def test_the_server_answers_404_with_the_page_for_any_unknown_path(server):
    for path in ["/no-such-page/", "/" + "a" * 3000 + "/"]:
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(server.url + path)
        assert answer.value.code == 404 and b'id="suggestions"' in answer.value.read()
