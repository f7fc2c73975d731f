"""Garbage in every field, in Chromium: each value gets an inline message or a valid result, the
last valid results are kept (marked stale), and the page never crashes."""

from __future__ import annotations

import pytest

from tests.browsing import INJECTED, follow

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node
GARBAGE = ["abc", "1e400", "-0", "", ", ".join(["1"] * 10_000), "<img src=x onerror=alert(1)>", "NaN", "Infinity"]
# One entry of every input kind: integers and reals, probability lists, long lists, choices.
WAIT_MS = 180_000
ENTRIES = ["/35/", "/39/", "/41/", "/12/", "/46/", "/toolkit/softmax/", "/25/"]


@pytest.fixture(scope="module")
def tab(browser):
    """One tab for every entry: each is followed as the site's links are, into the running Python."""
    page = browser.new_page()
    page.crashes = []
    page.on("pageerror", lambda e: page.crashes.append(str(e)))
    page.on("dialog", lambda d: (page.crashes.append("dialog"), d.dismiss()))
    yield page
    page.close()


@pytest.mark.parametrize("path", ENTRIES)
def test_garbage_in_every_field_gets_a_message_never_a_crash(tab, server, path):
    page, crashes = tab, tab.crashes
    follow(page, server, path)
    page.wait_for_function("() => document.documentElement.dataset.replies")
    fields = page.eval_on_selector_all("#inputs input", "els => els.map(e => [e.name, e.value])")
    for name, default in fields:
        for value in GARBAGE:
            before = int(page.evaluate("() => document.documentElement.dataset.replies"))
            page.fill(f"#in-{name}", value)
            # the page's own signal, with a limit that holds on a slow, loaded machine: a 10,000-item
            # list runs the formula, its charts and elasticities before the reply
            page.wait_for_function(
                f"() => Number(document.documentElement.dataset.replies) > {before}", timeout=WAIT_MS
            )
            message = page.text_content(f"#err-{name}")
            stale = "stale" in page.get_attribute("#outputs", "class")
            errors = page.locator(".field .error:not([hidden])").count()
            if page.is_visible(f"#err-{name}"):
                assert message and stale, (name, value[:20])
            elif errors:  # accepted here, but another input now conflicts with it: that field says so
                assert stale, (name, value[:20])
            else:  # accepted (e.g. -0 where 0 is allowed): the results are fresh and finite
                assert not stale and "NaN" not in page.text_content("#outputs"), (name, value[:20])
        page.fill(f"#in-{name}", default)
        page.wait_for_function(f"() => document.getElementById('err-{name}').hidden", timeout=WAIT_MS)
    assert crashes == []
    assert page.locator(INJECTED).count() == 0
