"""Seeing how numbers move, in real Chromium: charts, scaling, practice mode, feeds and units."""

from __future__ import annotations

import re

import pytest

from tests.browsing import open_entry

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node


def test_a_chart_redraws_after_an_input_change(page, server):
    open_entry(page, server, "/19/")
    page.locator("#plots").scroll_into_view_if_needed()  # charts are drawn when scrolled near
    page.wait_for_function("() => Number(document.documentElement.dataset.charts || 0) >= 1")  # Python's first draw
    drawn = page.evaluate("Number(document.documentElement.dataset.charts)")
    before = page.locator("#plot-0 canvas").screenshot()
    page.fill("#in-P", "32")
    page.wait_for_function("(n) => Number(document.documentElement.dataset.charts) > n", arg=drawn)  # this edit's draw
    assert page.locator("#plot-0 canvas").screenshot() != before
    assert page.text_content("#plot-0-alt").startswith("Chart of")
    assert page.problems == []


def test_the_elasticity_of_training_cost_in_parameters_reads_one(page, server):
    open_entry(page, server, "/1/")
    assert page.text_content("#el-N-C_train") == "1.00"
    page.fill("#in-N", "70B")
    page.locator("#plots").scroll_into_view_if_needed()
    page.wait_for_function("() => Number(document.documentElement.dataset.charts || 0) >= 1")
    assert page.text_content("#el-N-C_train") == "1.00"
    assert page.text_content("#el-D-C_serve") == "0.00"


def test_practice_mode_hides_and_reveals(page, server):
    open_entry(page, server, "/35/")
    assert page.is_visible("#cases")
    page.click("#practice-toggle")
    page.wait_for_selector("#practice-toggle[aria-pressed=true]")  # its code loads on the first press
    assert "practice" in page.get_attribute("html", "class")
    assert not page.is_visible("#cases") and not page.is_visible("#notes")
    assert page.eval_on_selector("#out-total", "e => getComputedStyle(e).color") == "rgba(0, 0, 0, 0)"
    assert page.is_visible("#in-L")  # the inputs stay: the reader plugs constants in and derives
    page.click("#practice-reveal")
    assert "practice" not in (page.get_attribute("html", "class") or "")
    assert page.eval_on_selector("#out-total", "e => getComputedStyle(e).color") != "rgba(0, 0, 0, 0)"


def record_ready(page):
    """The record's code loads as it comes near the screen: scrolled to, and shown."""
    page.locator("#record").scroll_into_view_if_needed()
    page.wait_for_selector("#record[data-record]", state="attached")


def test_a_protocol_reproduction_recorded_today_counts_once(browser, server):
    context = browser.new_context()
    page = context.new_page()
    open_entry(page, server, "/3/")
    record_ready(page)
    assert page.text_content("#protocol-progress") == "Reproduced on 0 of 3 days."
    page.click("#protocol-record")
    assert page.text_content("#protocol-progress") == "Reproduced on 1 of 3 days."
    assert page.is_disabled("#protocol-record")
    page.evaluate("document.getElementById('protocol-record').disabled = false")
    page.click("#protocol-record")
    page.reload()
    record_ready(page)
    assert page.text_content("#protocol-progress") == "Reproduced on 1 of 3 days."
    days = page.evaluate("JSON.parse(localStorage.getItem('derivation-bank:protocol:3'))")
    assert len(days) == 1
    other = context.new_page()
    other.goto(server.url + "/17/")
    record_ready(other)
    assert other.text_content("#protocol-progress") == "Reproduced on 0 of 3 days."  # per entry
    context.close()


def test_a_feeds_into_link_opens_the_other_entry_with_the_value_filled(page, server):
    open_entry(page, server, "/1/")
    page.fill("#in-N", "7B")
    page.wait_for_function("() => document.querySelector('#feed-0').href.includes('N=7B')")
    href = page.get_attribute("#feed-0", "href")
    page.click("#feed-0")
    page.wait_for_url(re.compile(r"/50/\?"))
    page.wait_for_function("() => document.documentElement.dataset.python === 'ready'")
    assert page.input_value("#in-N") == "7B"  # as a reader types it, like the page's own links
    assert "/50/" in href


def test_switching_gb_to_gib_changes_the_number_by_the_exact_factor(page, server):
    open_entry(page, server, "/35/?s=16384")  # 327,680 B a token x 16,384 tokens = 5 x 2^30 bytes
    page.select_option("#units-bytes", "GB")
    page.wait_for_function("() => document.getElementById('out-total').textContent.endsWith('\u00a0GB')")
    gb = float(page.text_content("#out-total").split()[0])
    page.select_option("#units-bytes", "GiB")
    page.wait_for_function("() => document.getElementById('out-total').textContent.endsWith('\u00a0GiB')")
    gib = float(page.text_content("#out-total").split()[0])
    assert gib == 5.0 and gb == 5.369
    assert gb / gib == pytest.approx(2**30 / 10**9, abs=5e-4)
    page.wait_for_function(
        "() => location.search.includes('units=bytes%3AGiB') || location.search.includes('units=bytes:GiB')"
    )
