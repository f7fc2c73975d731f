"""The page and Python agree: each chart's points download as CSV, and "Copy as Python" gives the
call that reproduces the page's computation, run here in CPython."""

from __future__ import annotations

import csv
import io

import pytest

from tests.browsing import open_entry

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node

ALL_DRAWN = "() => [...document.querySelectorAll('.chart')].every((box) => box.chart)"


def test_a_charts_points_download_as_csv_with_names_units_and_unformatted_numbers(page, server):
    open_entry(page, server, "/35/")
    page.locator("#plots").scroll_into_view_if_needed()
    page.wait_for_function(ALL_DRAWN, timeout=60_000)
    link = page.locator("#plot-0 a.plot-csv")
    assert link.text_content() == "Download CSV"
    with page.expect_download() as caught:
        link.click()
    download = caught.value
    assert download.suggested_filename == "entry-35-s-chart-1.csv"
    rows = list(csv.reader(io.StringIO(open(download.path(), encoding="utf-8").read())))
    chart = page.evaluate("() => { const s = document.querySelector('.chart').chart.sweep; return {x: s.x, y: s.y}; }")
    labels = page.evaluate("() => JSON.parse(document.getElementById('entry-spec').textContent).labels")
    assert rows[0] == [labels["s"] + " (tokens)", labels["total"] + " (B)"]
    assert [float(r[0]) for r in rows[1:]] == chart["x"]
    assert [float(r[1]) for r in rows[1:]] == chart["y"]["total"]
    assert "1342177280" in {r[1].removesuffix(".0") for r in rows[1:]}  # the default's point, unformatted
    # the table under the chart lists the same points
    assert page.locator("#plot-0 .plot-data tbody tr").count() == len(rows) - 1
    assert page.problems == []
