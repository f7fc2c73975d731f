"""A formula that never returns is stopped in the browser: the worker is terminated and restarted,
and the reader is told, keeping the last valid results."""

from __future__ import annotations

import pytest

from tests.browsing import open_entry

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node


def test_the_watchdog_stops_a_formula_that_never_returns_and_restarts_python(browser, slow_server):
    page = browser.new_page()
    open_entry(page, slow_server, "/1/")
    page.fill("#in-n", "2000")
    page.wait_for_function("() => document.getElementById('out-total').textContent === '2,668,667,000'")
    page.fill("#in-n", "1e15")
    page.wait_for_function("() => document.documentElement.dataset.watchdog === '1'", timeout=30_000)
    page.wait_for_function(
        "() => document.getElementById('py-status').textContent.includes('Python restarted')", timeout=60_000
    )
    assert page.text_content("#out-total") == "2,668,667,000"  # the last valid result, marked stale
    assert "stale" in page.get_attribute("#outputs", "class")
    page.fill("#in-n", "10")
    page.wait_for_function("() => document.getElementById('out-total').textContent === '385'")
    assert "stale" not in page.get_attribute("#outputs", "class")
    page.close()


def test_a_link_whose_values_never_finish_is_ignored_with_a_notice(browser, slow_server):
    page = browser.new_page()
    open_entry(page, slow_server, "/1/?n=1e15")
    page.wait_for_selector("#notice:not([hidden])")
    assert "did not finish" in page.text_content("#notice")
    assert page.input_value("#in-n") == page.get_attribute("#in-n", "value")  # back to the default (1k)
    page.wait_for_function("() => document.getElementById('out-total').textContent === '333,833,500'")
    page.close()
