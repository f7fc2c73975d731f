"""An entry prints as one clean page: statement, inputs, results and how they are computed."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node
HEAVIEST = ["/35/", "/41/", "/45/", "/46/", "/toolkit/softmax/"]  # the most inputs and outputs


def pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


@pytest.mark.parametrize("path", HEAVIEST)
def test_an_entry_prints_on_one_page(browser, server, path):
    # The calculator, its notes, the link and the citation fill the first page; the worked cases
    # follow on pages of their own (print shows them too: test_browser_states).
    page = browser.new_page()
    page.goto(server.url + path)
    whole = pages(page.pdf(format="A4"))
    has_cases = page.evaluate("Boolean(document.getElementById('cases'))")
    page.evaluate("document.getElementById('cases')?.remove()")
    assert pages(page.pdf(format="A4")) == 1
    page.close()
    assert whole > 1 if has_cases else whole == 1  # the cases start a page of their own
