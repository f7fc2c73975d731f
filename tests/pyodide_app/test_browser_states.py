"""Lists, charts and honest states in real Chromium: list outputs as tables, a chart's values on
hover and on keyboard focus, stale marks while Python loads, flags for meaningless results, and
what print carries."""

from __future__ import annotations

import re

import pytest

from tests.browsing import PYTHON_READY_MS, open_entry
from tests.pyodide_app.test_browser_charts import show_charts

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node


def test_list_outputs_are_small_tables(page, server):
    open_entry(page, server, "/40/")
    rows = page.locator("#list-tokens_table tr")
    assert rows.count() == 16  # k = 1 ... 16, from the build
    assert rows.nth(0).locator("th").text_content() == "k\u00a0=\u00a01"  # the statement's index
    assert rows.nth(0).locator("td").text_content() == "1.8"  # the unit once, over the table
    assert page.text_content("#list-tokens_table caption") == "in tokens"
    # The tuple stays for screen readers and the citation, out of sight.
    assert page.locator("#out-tokens_table").text_content().startswith("(1.8, 2.44")
    assert (
        not page.locator("#out-tokens_table").is_visible()
        or page.locator("#out-tokens_table").bounding_box()["width"] <= 1
    )
    page.fill("#in-k_max", "4")
    page.wait_for_function("() => document.querySelectorAll('#list-tokens_table tr').length === 4")
    page.fill("#in-k_max", "1")  # one value is a value, not a table
    page.wait_for_function("() => !document.getElementById('list-tokens_table')")
    assert page.text_content("#out-tokens_table") == "1.8\u00a0tokens"
    open_entry(page, server, "/50/")
    assert page.locator("#list-break_even tr").count() >= 2
    assert page.locator("#list-break_even th").first.text_content() == "1"  # no index: the place from 1
    assert page.get_attribute("#out-break_even", "aria-label") is None  # the tuple, as it is
    # The vote sum runs over j = (n+1)/2 ... n: its rows are named so as n changes.
    open_entry(page, server, "/46/")
    page.fill("#in-n", "5")
    page.wait_for_function("() => document.querySelectorAll('#list-vote_terms th').length === 3")
    heads = page.locator("#list-vote_terms th").all_text_contents()
    assert heads == [f"j\u00a0=\u00a0{j}" for j in (3, 4, 5)]
    # A screen reader hears each term with its index, as the (hidden) table's rows say.
    cells = page.locator("#list-vote_terms td").all_text_contents()
    said = page.get_attribute("#out-vote_terms", "aria-label")
    assert said == "; ".join(f"{h}: {c}" for h, c in zip(heads, cells)), said
    assert page.problems == []


def test_meaningless_results_are_flagged_with_a_sentence(page, server):
    open_entry(page, server, "/40/")
    assert "flag" not in (page.get_attribute("#out-marginal_k", "class") or "")
    page.fill("#in-c", "2")  # the draft costs more than it gains: no draft token pays
    page.wait_for_function("() => document.getElementById('out-marginal_k').classList.contains('flag')")
    text = page.text_content("#out-marginal_k")
    assert "negative number of tokens" in text and "k = 0" in text
    assert page.text_content("#out-k_opt") == "0\u00a0tokens"  # the best k itself is meaningful
    page.fill("#in-c", "0.1")
    page.wait_for_function("() => !document.getElementById('out-marginal_k').classList.contains('flag')")
    assert re.fullmatch(r"[\d.]+\u00a0tokens", page.text_content("#out-marginal_k"))
    # The build flags a linked value too: the page as served, before Python.
    page.goto(server.url + "/40/?c=2")
    open_entry(page, server, "/40/?c=2")
    page.wait_for_function("() => document.getElementById('out-marginal_k').classList.contains('flag')")
    assert page.problems == []


def test_no_elasticity_for_a_position(page, server):
    open_entry(page, server, "/50/")
    assert page.locator("#el-T-best").count() == 0 and page.locator("#el-T-best_total").count() == 1
    open_entry(page, server, "/40/")
    assert page.locator("#el-alpha-k_opt").count() == 0 and page.locator("#el-alpha-speedup").count() == 1
    assert page.problems == []


def test_a_change_while_python_loads_marks_every_result_stale_at_once(browser, server):
    context = browser.new_context()
    page = context.new_page()
    held = []  # the worker's script waits here until the test lets it through
    page.route(re.compile(r".*/worker[^/]*\.js(\?.*)?$"), lambda route: held.append(route))
    page.goto(server.url + "/35/", wait_until="domcontentloaded")
    assert not page.locator("#outputs.stale").count()
    page.fill("#in-s", "8192")
    # At once, not when Python is ready: Python is held back until after this check.
    assert page.locator("#outputs.stale").count() == 1
    assert page.get_attribute("#py-status", "data-state") == "loading"
    assert "as soon as it is ready" in page.text_content("#py-status")
    assert held, "the worker was never asked for"
    for route in held:
        route.continue_()
    page.wait_for_function(
        "() => document.getElementById('out-total').textContent === '2.684\u00a0GB'", timeout=PYTHON_READY_MS
    )
    assert not page.locator("#outputs.stale").count()
    # The ready message is the one shown until the reader changes something.
    assert page.text_content("#py-status").startswith("Python ready in")
    page.fill("#in-s", "4096")
    page.wait_for_function("() => document.getElementById('py-status').textContent.startsWith('Computed')")
    context.close()


def test_chart_values_on_hover_and_keyboard_focus(page, server):
    open_entry(page, server, "/35/")
    show_charts(page)
    page.wait_for_function("() => document.documentElement.dataset.charts", timeout=PYTHON_READY_MS)
    box = page.locator('.chart[data-plot="0"]')
    over = box.locator(".u-over").bounding_box()
    page.mouse.move(over["x"] + over["width"] / 2, over["y"] + over["height"] / 2)
    tip = box.locator(".chart-tip")
    tip.wait_for(state="visible")
    text = tip.text_content()
    assert text.startswith("Cached sequence length: ") and "tokens" in text, text
    assert re.search(r"\d", text) and ("GB" in text or "MB" in text), text
    page.mouse.move(0, 0)
    page.wait_for_function("() => document.querySelector('.chart-tip').hidden")
    # The keyboard: focus starts at the current point (s = 4,096), arrows move along the curve.
    box.focus()
    tip.wait_for(state="visible")
    assert "4,096" in tip.text_content() or "4096" in tip.text_content(), tip.text_content()
    first = tip.text_content()
    page.keyboard.press("ArrowRight")
    assert tip.text_content() != first
    page.keyboard.press("Home")
    assert "512" in tip.text_content()
    # Axis numbers as readers write them, with the unit the menu chose.
    labels = page.evaluate("document.querySelector('.chart').chart.axes[1]._values")
    assert any(label.endswith("GB") or label.endswith("MB") for label in labels if label), labels
    page.select_option("#units-bytes", "GiB")
    page.wait_for_function(
        "() => document.querySelector('.chart-y-label').textContent.includes('(GiB)')", timeout=PYTHON_READY_MS
    )
    assert page.problems == []


def test_the_range_follows_the_current_point(page, server):
    open_entry(page, server, "/35/")
    show_charts(page)
    page.fill("#in-s", "1M")
    page.wait_for_function(
        "() => { const c = document.querySelector('.chart').chart; return c && Math.max(...c.data[0]) >= 1e6; }",
        timeout=PYTHON_READY_MS,
    )
    assert page.problems == []


def test_a_mode_that_does_not_use_the_swept_input_says_so(page, server):
    open_entry(page, server, "/25/")
    show_charts(page)
    page.select_option("#in-known", "c")
    page.wait_for_selector(".chart .chart-off", timeout=PYTHON_READY_MS)
    assert "do not use" in page.text_content(".chart .chart-off")
    page.select_option("#in-known", "observed")
    page.wait_for_function("() => document.querySelector('.chart').chart", timeout=PYTHON_READY_MS)
    assert page.problems == []


def test_print_carries_the_cases_the_link_and_the_citation(page, server):
    open_entry(page, server, "/35/")
    page.fill("#in-B", "8")
    page.wait_for_function(
        "() => document.getElementById('print-url').textContent.includes('B=8')", timeout=PYTHON_READY_MS
    )
    page.emulate_media(media="print")
    assert page.locator("#cases").is_visible()
    assert page.locator("#cases table").first.is_visible()
    assert page.locator("#print-url").is_visible() and "B=8" in page.text_content("#print-url")
    cite = page.text_content("#print-cite-text")
    assert page.locator("#print-cite-text").is_visible() and "entry 35" in cite
    assert not page.locator("#copy-link").is_visible()
    page.emulate_media(media="screen")
    assert not page.locator("#print-url").is_visible()
    assert page.problems == []
