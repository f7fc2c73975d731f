"""Comparing presets, in real Chromium against the built site: the build's "Every model" table
fetched only when opened and sortable; the reader's own comparison computed by the worker with
their other inputs kept, equal to CPython's; the link reopening it; a hostile compare= inert."""

from __future__ import annotations

import json

import pytest

import derivation_bank as bank_api
from tests.browsing import open_entry

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node

NBSP = "\u00a0"


def column(page, table, output):
    return page.eval_on_selector_all(
        f"{table} tbody td[data-output={output!r}]", "cells => cells.map(c => c.textContent)"
    )


def test_every_model_is_fetched_only_when_opened_and_sorts_by_any_column(page, server, site):
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "every-" in r.url else None)
    open_entry(page, server, "/35/")
    first = (site / "35" / "index.html").read_text()
    assert "every-model-table" not in first and '"rows":' not in first  # not in the page's first bytes
    assert page.locator("#every-model-table").count() == 0
    assert asked == []  # Python is ready and the table is still not asked for
    page.click("#every-model summary")
    page.wait_for_selector("#every-model[data-state='drawn']")
    assert [u.rsplit("/", 2)[-2:] for u in asked] == [["35", "every-model.json"]]
    data = json.loads((site / "35" / "every-model.json").read_text())
    rows = page.locator("#every-model-table tbody tr")
    assert rows.count() == len(data["rows"]) == 70
    llama = page.locator("#every-model-table tbody tr[data-preset='llama-3-70b'] td[data-output='total']")
    assert llama.text_content() == str(bank_api.entry(35).run(model="llama-3-70b")["total"]).replace(" ", NBSP)
    # Sorting: the header's button, its order said by aria-sort; largest first, then smallest first.
    head = page.locator("#every-model-table th[data-key='total']")
    assert head.get_attribute("aria-sort") is None
    head.locator("button").click()
    assert head.get_attribute("aria-sort") == "descending"
    by_value = sorted((r for r in data["rows"] if "values" in r), key=lambda r: -r["values"]["total"]["value"])
    shown = column(page, "#every-model-table", "total")
    assert shown[0] == by_value[0]["values"]["total"]["text"]
    values = {r["values"]["total"]["text"]: r["values"]["total"]["value"] for r in by_value}
    assert [values[t] for t in shown] == sorted((values[t] for t in shown), reverse=True)
    head.locator("button").click()
    assert head.get_attribute("aria-sort") == "ascending"
    shown = column(page, "#every-model-table", "total")
    assert [values[t] for t in shown] == sorted(values[t] for t in shown)
    page.locator("#every-model-table th[data-key='name'] button").click()
    names = page.eval_on_selector_all("#every-model-table tbody th", "cells => cells.map(c => c.textContent)")
    assert names[0] < names[-1] and len(asked) == 1  # sorted where it is, not fetched again
    assert page.problems == []


def test_a_preset_that_does_not_fill_the_entry_is_a_row_that_says_why(page, server):
    open_entry(page, server, "/41/")
    page.click("#every-model summary")
    page.wait_for_selector("#every-model[data-state='drawn']")
    why = page.text_content("#every-model-table tr[data-preset='bert-base'] .every-why")
    assert why == "does not fill this entry: it lacks experts, experts_active"
    # Sorted by a result, the rows without one stay last.
    page.locator("#every-model-table th.every-result button").first.click()
    last = page.eval_on_selector_all(
        "#every-model-table tbody tr", "rows => rows.map(r => r.classList.contains('every-missing'))"
    )
    assert last == sorted(last)
    assert page.problems == []
