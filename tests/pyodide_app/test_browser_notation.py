"""The notation on an entry page, in real Chromium: a symbol in the statement and its input or result
light each other on hover and on focus, from the keyboard, and a screen reader is told."""

from __future__ import annotations

import pytest

from tests.browsing import open_entry

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node

LIT = "(sel) => [...document.querySelectorAll(sel)].map((e) => e.classList.contains('sym-hl'))"


def lit(page, selector):
    return page.evaluate(LIT, selector)


def test_a_statement_symbol_and_its_field_light_each_other(page, server):
    open_entry(page, server, "/35/")
    marks = page.locator("#statement [data-sym]")
    assert [marks.nth(k).get_attribute("data-sym") for k in range(marks.count())] == [
        "L",
        "H_kv",
        "d_head",
        "s",
        "B",
        "beta",
    ]
    # Hover the symbol: it and its input light; leave: both go out.
    page.hover('#statement [data-sym="H_kv"]')
    assert lit(page, '#statement [data-sym="H_kv"], #input-H_kv') == [True, True]
    assert lit(page, "#input-L") == [False]
    page.mouse.move(0, 0)
    assert lit(page, '#statement [data-sym="H_kv"], #input-H_kv') == [False, False]
    # Hover the field: its symbol in the statement lights.
    page.hover("#input-beta label")
    assert lit(page, '#statement [data-sym="beta"]') == [True]
    page.mouse.move(0, 0)
    # The statement's symbols sit in KaTeX's aria-hidden HTML: they take no focus (axe's
    # aria-hidden-focus); from the keyboard, a field's focus lights its symbol, and is announced.
    assert page.evaluate("""document.querySelector('#statement [data-sym="L"]').tabIndex""") == -1
    page.focus("#in-H_kv")
    assert lit(page, '#statement [data-sym="H_kv"]') == [True] * page.locator('#statement [data-sym="H_kv"]').count()
    # Focusing a field lights its symbol, and the field's description says so.
    page.focus("#in-s")
    assert lit(page, '#statement [data-sym="s"]') == [True]
    described = page.get_attribute("#in-s", "aria-describedby").split()
    assert "sym-note-s" in described and "err-s" in described
    assert page.text_content("#sym-note-s") == "Written s in the statement, highlighted there."
    page.focus("#in-B")
    assert lit(page, '#statement [data-sym="s"], #statement [data-sym="B"]') == [False, True]
    assert page.problems == []


def test_a_result_named_by_one_symbol_lights_with_it(page, server):
    open_entry(page, server, "/3/")  # the statement writes rho_mom, a result of entry 3
    page.hover('#statement [data-sym="rho_mom"]')
    assert lit(page, "#output-rho_mom") == [True]
    page.hover("#output-rho_gd")
    assert (
        lit(page, '#statement [data-sym="rho_gd"]') == [True] * page.locator('#statement [data-sym="rho_gd"]').count()
    )
    assert page.problems == []
