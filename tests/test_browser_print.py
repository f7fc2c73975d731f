"""An entry prints as one clean page: statement, inputs, results and how they are computed."""

from __future__ import annotations

import re

import pytest


pytestmark = pytest.mark.browser
HEAVIEST = ["/35/", "/41/", "/45/", "/46/", "/toolkit/softmax/"]  # the most inputs and outputs



@pytest.mark.parametrize("path", HEAVIEST)
def test_an_entry_prints_on_one_page(browser, server, path):
    page = browser.new_page()
    page.goto(server.url + path)
    pdf = page.pdf(format="A4")
    page.close()
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
