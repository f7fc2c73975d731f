"""Real Chromium against the built site on 127.0.0.1: Python recomputes in the page."""

from __future__ import annotations

import pytest


pytestmark = pytest.mark.browser
PYTHON_READY_MS = 120_000  # a ceiling for a loaded CI machine, not a speed target (the benchmark measures that)




def open_entry(page, server, path):
    page.goto(server.url + path)
    page.wait_for_function("() => document.documentElement.dataset.python", timeout=PYTHON_READY_MS)
    assert page.evaluate("document.documentElement.dataset.python") == "ready", page.text_content("#py-status")


def test_entry_35_recomputes_in_pyodide(page, server):
    open_entry(page, server, "/35/")
    assert page.text_content("#out-total") == "1.342 GB"  # the build's result for the defaults
    page.fill("#in-s", "8192")
    page.wait_for_function("() => document.getElementById('out-total').textContent === '2.684 GB'")
    page.fill("#in-B", "1k")  # count suffixes are read by the same Python
    page.wait_for_function("() => document.getElementById('out-total').textContent === '2.684 TB'")
    assert "ready" == page.get_attribute("#py-status", "data-state")
    assert page.problems == []


def test_bad_input_shows_a_message_and_marks_results_stale(page, server):
    open_entry(page, server, "/35/")
    page.fill("#in-L", "0")
    page.wait_for_selector("#err-L:not([hidden])")
    assert page.text_content("#err-L") == "'0' is outside; expected a whole number in [1, ∞)"
    assert "stale" in page.get_attribute("#outputs", "class")
    assert page.text_content("#out-total") == "1.342 GB"  # the last valid result stays, never NaN
    page.fill("#in-L", "40")
    page.wait_for_function("() => document.getElementById('out-total').textContent === '671.1 MB'")
    assert page.is_hidden("#err-L")
    assert "stale" not in page.get_attribute("#outputs", "class")
    assert page.problems == []


def test_results_are_in_the_page_with_javascript_off(browser, server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server.url + "/35/")
    assert page.text_content("#out-total") == "1.342 GB"
    assert page.locator(".katex").count() > 0
    context.close()


def test_python_boots_from_the_startup_stdlib_and_falls_back_to_stock(browser, server):
    context = browser.new_context()
    page = context.new_page()
    open_entry(page, server, "/35/")
    assert page.evaluate("document.documentElement.dataset.stdlib") == "startup"
    broken = context.new_page()
    broken.route("**/stdlib-startup-*.zip", lambda route: route.fulfill(status=404, body="gone"))
    open_entry(broken, server, "/35/")
    assert broken.evaluate("document.documentElement.dataset.stdlib").startswith("stock")
    broken.fill("#in-s", "8192")
    broken.wait_for_function("() => document.getElementById('out-total').textContent === '2.684 GB'")
    context.close()
