"""Comparing presets, in real Chromium against the built site: the build's "Every model" table
fetched only when opened and sortable; the reader's own comparison computed by the worker with
their other inputs kept, equal to CPython's; the link reopening it; a hostile compare= inert."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

import derivation_bank as bank_api
from tests.browsing import PAYLOADS, assert_nothing_injected, open_entry, open_hostile
from tests.support import ROOT

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
    model_presets = len(list((ROOT / "entries" / "presets" / "models").glob("*.yaml")))
    assert rows.count() == len(data["rows"]) == model_presets  # every model preset is a row
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


def test_every_model_is_written_in_the_units_the_reader_chose(page, server, site, bank):
    """Bytes in the chosen scale everywhere on the page: the table's cells follow the unit menu,
    written by the same Python as the results, and go back to the build's texts with the default."""
    open_entry(page, server, "/35/")
    page.select_option("#units-bytes", "GiB")
    page.click("#every-model summary")
    page.wait_for_function(
        "() => document.getElementById('every-model-table')?.dataset.units === '{\"bytes\":\"GiB\"}'"
    )
    data = json.loads((site / "35" / "every-model.json").read_text())
    _, calculators = bank
    total = next(o for o in calculators["35"].outputs if o["name"] == "total")
    llama = next(r for r in data["rows"] if r["id"] == "llama-3-70b")["values"]["total"]
    cell = "#every-model-table tr[data-preset='llama-3-70b'] td[data-output='total']"
    assert page.text_content(cell) == calculators["35"].write(total, llama["value"], {"bytes": "GiB"})
    assert page.text_content(cell).endswith("GiB") and page.text_content("#out-total").endswith("GiB")
    for r in data["rows"]:  # a model that does not fill the entry still says why
        if "why" in r:
            assert page.text_content(f"#every-model-table tr[data-preset='{r['id']}'] .every-why") == r["why"]
    page.select_option("#units-bytes", "")
    page.wait_for_function("() => document.getElementById('every-model-table').dataset.units === '{}'")
    assert page.text_content(cell) == llama["text"]
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


def rows(page):
    return page.eval_on_selector_all(
        "#compare-table tbody tr",
        "trs => trs.map(tr => [tr.dataset.preset, ...[...tr.querySelectorAll('td[data-output]')].map(td => td.textContent)])",
    )


def wait_rows(page, count):
    page.wait_for_function(f"() => document.querySelectorAll('#compare-table tbody tr').length === {count}")


def expected(entry, model, **given):
    result = bank_api.entry(entry).run(model=model, **given)
    return [str(result[name]).replace(" ", NBSP) for name in ("total", "per_token", "per_token_layer", "window_tokens")]


def test_two_models_side_by_side_keep_the_readers_inputs_and_the_link_reopens_them(page, server, browser):
    open_entry(page, server, "/35/")
    assert page.is_visible("#compare-live") and not page.is_visible("#compare-out")
    page.fill("#in-s", "16k")  # the reader's own context length: every compared model keeps it
    own = str(bank_api.entry(35).run(s="16k")["total"]).replace(" ", NBSP)
    page.wait_for_function(f"() => document.getElementById('out-total').textContent === {own!r}")
    page.select_option("#compare-add-model", "llama-3-70b")
    wait_rows(page, 1)
    page.select_option("#compare-add-model", "mixtral-8x7b")
    wait_rows(page, 2)
    assert page.input_value("#compare-add-model") == ""  # ready to add another
    shown = rows(page)
    # The same numbers CPython gives for each model with s = 16k (not the models' own contexts).
    assert shown == [
        ["llama-3-70b", *expected(35, "llama-3-70b", s="16k")],
        ["mixtral-8x7b", *expected(35, "mixtral-8x7b", s="16k")],
    ]
    assert shown[0][1] == f"5.243{NBSP}GB"  # 2 x 80 x 8 x 128 x 2 B x 16,000 tokens
    assert page.input_value("#in-s") == "16k" and page.input_value("#in-L") == "80"  # the form is not touched
    chart = page.evaluate("(() => { const c = document.getElementById('compare-chart').chart; return c.data[1]; })()")
    assert chart == [5242880000, 2097152000]  # one bar a model, its headline in bytes
    assert "Llama 3 70B 5.243 GB; Mixtral 8x7B 2.097 GB" in page.text_content("#compare-chart-caption").replace(
        NBSP, " "
    )
    page.wait_for_function("() => new URLSearchParams(location.search).get('compare') === 'llama-3-70b,mixtral-8x7b'")
    link = page.url
    # The link reopens the same comparison, in a fresh page.
    other = browser.new_page()
    try:
        open_entry(other, server, link.removeprefix(server.url))
        wait_rows(other, 2)
        assert rows(other) == shown
        assert other.input_value("#in-s") == "16k"
    finally:
        other.close()
    # A model removed leaves the other, and the link follows.
    page.click("#compare-table tr[data-preset='llama-3-70b'] button")
    wait_rows(page, 1)
    page.wait_for_function("() => new URLSearchParams(location.search).get('compare') === 'mixtral-8x7b'")
    # The reader's inputs change: the comparison is computed again with them.
    page.fill("#in-s", "8k")
    page.wait_for_function(
        f"() => document.querySelector('#compare-table td[data-output=total]').textContent === {expected(35, 'mixtral-8x7b', s='8k')[0]!r}"
    )
    page.click("#compare-clear")
    page.wait_for_function("() => document.getElementById('compare-out').hidden")
    page.wait_for_function("() => !new URLSearchParams(location.search).has('compare')")
    assert page.problems == []


def test_a_preset_keeps_an_input_the_reader_typed_unless_they_ask(page, server):
    open_entry(page, server, "/35/")
    page.fill("#in-s", "16k")
    own = str(bank_api.entry(35).run(s="16k")["total"]).replace(" ", NBSP)
    page.wait_for_function(f"() => document.getElementById('out-total').textContent === {own!r}")
    page.select_option("#preset-model", "llama-3-70b")
    page.wait_for_function(f"() => document.getElementById('out-total').textContent === '5.243{NBSP}GB'")
    assert page.input_value("#in-s") == "16k" and page.input_value("#in-L") == "80"
    offer = page.locator("#offer-s button")
    assert offer.text_content() == "Also set cached sequence length from Llama 3 70B (8,192)"
    page.wait_for_function("() => new URLSearchParams(location.search).get('s') === '16k'")
    offer.click()
    page.wait_for_function(f"() => document.getElementById('out-total').textContent === '2.684{NBSP}GB'")
    assert page.input_value("#in-s") == "8192" and page.query_selector("#mark-s") is not None
    assert page.query_selector("#offer-s") is None
    page.wait_for_function("() => !new URLSearchParams(location.search).has('s')")  # the preset carries it now
    # "Compare the current preset" adds the one on the page.
    page.click("#compare-current")
    wait_rows(page, 1)
    assert rows(page)[0] == ["llama-3-70b", *expected(35, "llama-3-70b")]
    assert page.is_hidden("#compare-current")
    assert page.problems == []


@pytest.mark.parametrize("payload", PAYLOADS[:3])
def test_a_hostile_compare_list_is_inert_and_noticed(page, server, payload):
    text = open_hostile(page, server, f"/35/?compare={quote(payload)},mixtral-8x7b")
    assert f"Ignored the link's “{payload[:40]}” in compare: no such preset fills this entry." in text
    wait_rows(page, 1)
    assert rows(page)[0][0] == "mixtral-8x7b"
    assert_nothing_injected(page)
    assert page.problems == []


def test_an_over_long_compare_list_is_cut_with_one_notice(page, server, site):
    ids = [r["id"] for r in json.loads((site / "35" / "every-model.json").read_text())["rows"]][:12]
    junk = [f"no-{k}" for k in range(300)]
    text = open_hostile(page, server, "/35/?compare=" + ",".join(ids + junk))
    assert "Compared the first 8 presets the link names; ignored 4 more." in text
    assert "Ignored 300 unknown presets in compare: “no-0”, “no-1”, “no-2”, … (297 more)" in text
    wait_rows(page, 8)
    assert [r[0] for r in rows(page)] == ids[:8]
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('compare') === {','.join(ids[:8])!r}")
    assert page.problems == []


def test_the_embed_card_shows_the_comparison_compactly(page, server):
    open_entry(page, server, "/35/?compare=llama-3-70b,mixtral-8x7b&embed=1")
    wait_rows(page, 2)
    assert page.is_visible("#compare-table")
    for hidden in ("#compare-add-model", "#every-model", "#compare-chart", "#compare-h"):
        assert page.is_hidden(hidden), hidden
    assert rows(page)[0] == ["llama-3-70b", *expected(35, "llama-3-70b")]
    assert page.problems == []


def test_the_card_image_carries_the_comparison(page, server):
    """The downloaded card (SVG, and the PNG's text) draws the presets compared side by side."""
    open_entry(page, server, "/35/?compare=llama-3-70b,mixtral-8x7b")
    wait_rows(page, 2)
    values = page.eval_on_selector_all("#compare-table tbody tr", "rs => rs.map(r => r.cells[1].textContent)")
    with page.expect_download() as svg_download:
        page.click("#card-actions button[data-card='svg'][data-theme='light']")
    svg = open(svg_download.value.path(), encoding="utf-8").read()
    assert "Llama 3 70B" in svg and "Mixtral 8x7B" in svg and "<script" not in svg
    assert all(v.replace(NBSP, "\u00a0") in svg for v in values), values
    assert "compare=llama-3-70b" in svg.replace("%2C", ",")
    assert page.problems == []
