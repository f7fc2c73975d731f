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
    labels = {"s": page.text_content("#input-s .label"), "total": page.text_content("#output-total .label")}
    assert rows[0] == [labels["s"] + " (tokens)", labels["total"] + " (B)"]
    assert [float(r[0]) for r in rows[1:]] == chart["x"]
    assert [float(r[1]) for r in rows[1:]] == chart["y"]["total"]
    assert "1342177280" in {r[1].removesuffix(".0") for r in rows[1:]}  # the default's point, unformatted
    # the table under the chart lists the same points
    assert page.locator("#plot-0 .plot-data tbody tr").count() == len(rows) - 1
    assert page.problems == []


def copied_python(page) -> str:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.locator("#copy-python").click()
    page.wait_for_function(
        "() => document.getElementById('python-feedback').textContent === 'Python copied.'", timeout=60_000
    )
    code = page.text_content("#python-code")
    assert page.evaluate("navigator.clipboard.readText()") == code
    return code


def run_copied(code: str) -> dict:
    scope: dict = {}
    *setup, call = code.strip().splitlines()
    exec("\n".join(setup), scope)  # the import, as written
    return eval(call, scope)  # the call's result


def page_outputs(page) -> dict:
    spec = page.evaluate("() => JSON.parse(document.getElementById('entry-spec').textContent)")
    return {o["name"]: page.text_content(f"#out-{o['name']}").strip() for o in spec["outputs"]}


def test_copy_as_python_reproduces_the_pages_run_with_its_preset_and_inputs(page, server):
    open_entry(page, server, "/35/?model=llama-3-70b&s=32k&B=2")
    page.wait_for_function("() => document.getElementById('out-total').textContent === '20.97\u00a0GB'", timeout=60_000)
    code = copied_python(page)
    assert code == "import derivation_bank as bank\n\nbank.entry(35).run(model='llama-3-70b', s='32k', B='2')\n"
    result = run_copied(code)
    shown = page_outputs(page)
    assert {name: q.text for name, q in result.outputs.items() if name in shown} == shown
    assert page.problems == []


def test_copy_as_python_carries_the_solve_question(page, server):
    open_entry(page, server, "/35/?solve=s&total%3C=80GB")
    page.wait_for_function("() => document.getElementById('out-total').textContent === '80\u00a0GB'", timeout=60_000)
    code = copied_python(page)
    assert code == "import derivation_bank as bank\n\nbank.entry(35).solve('total<=80GB', free='s')\n"
    answer = run_copied(code)
    shown = page_outputs(page)
    assert {name: q.text for name, q in answer.results[0].outputs.items() if name in shown} == shown
    assert page.problems == []
