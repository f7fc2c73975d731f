"""A link with hundreds of unknown names gets one notice that sums them up, not hundreds of lines:
on an entry page (parameters, show=, units=) and on a plan's page."""

from __future__ import annotations

import re

import pytest

from tests.browsing import open_entry

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node

MANY = 300


def lines(page) -> list[str]:
    page.wait_for_selector("#notice:not([hidden])")
    return page.eval_on_selector_all("#notice p", "(ps) => ps.map((p) => p.textContent)")


def test_hundreds_of_unknown_parameters_make_one_notice(page, server):
    query = "&".join(f"p{i}=1" for i in range(MANY))
    open_entry(page, server, f"/35/?L=40&{query}")
    found = lines(page)
    assert len(found) == 1, found[:5]
    assert found[0] == (
        f"Ignored {MANY} unknown parameters: “p0”, “p1”, “p2”, … ({MANY - 3} more); this entry has no inputs by those names."
    )
    assert page.input_value("#in-L") == "40"  # the names it knows are still read
    assert page.problems == []


def test_a_few_unknown_parameters_are_each_named(page, server):
    open_entry(page, server, "/35/?a=1&b=2")
    assert lines(page) == [
        "Ignored the link's parameter “a”: this entry has no such input.",
        "Ignored the link's parameter “b”: this entry has no such input.",
    ]


def test_a_long_show_list_and_unit_list_are_summed_up_too(page, server):
    show = ",".join(f"o{i}" for i in range(40))
    units = ",".join(f"f{i}:x" for i in range(40))
    open_entry(page, server, f"/35/?show=total,{show}&units={units}")
    found = lines(page)
    assert len(found) == 2, found[:5]
    assert any(
        re.fullmatch(r"Ignored 40 unknown outputs in show: “o0”, “o1”, “o2”, … \(37 more\);.*", f) for f in found
    )
    assert any(
        re.fullmatch(r"Ignored 40 unknown unit choices: “f0:x”, “f1:x”, “f2:x”, … \(37 more\)\.", f) for f in found
    )


def test_two_choices_for_one_unit_are_refused_not_guessed(page, server):
    """units=bytes:GiB,bytes:GB could be read either way: neither is taken, the page says so and
    keeps its own unit; a choice named twice is one choice, and another family's is still read."""
    open_entry(page, server, "/35/")
    default = page.input_value("#units-bytes")
    open_entry(page, server, "/35/?units=bytes:GiB,bytes:GB,bytes:GiB")
    assert lines(page) == [
        "Ignored the link's unit choices “bytes:GiB” and “bytes:GB”: one unit per kind, so “bytes” stays in the page's own unit."
    ]
    assert page.input_value("#units-bytes") == default
    assert "units=" not in page.evaluate("location.search")
    open_entry(page, server, "/35/?units=bytes:GiB,bytes:GiB")
    assert page.is_hidden("#notice") and page.input_value("#units-bytes") == "GiB"
    assert page.problems == []


def test_a_plans_page_sums_up_hundreds_of_unknown_parameters(page, server):
    query = "&".join(f"p{i}=1" for i in range(MANY))
    page.goto(server.url + f"/plans/serve/?{query}")
    page.wait_for_selector("article.plan[data-plan-state]")
    found = lines(page)
    assert found == [
        f"Ignored {MANY} unknown parameters: “p0”, “p1”, “p2”, … ({MANY - 3} more); this plan has no inputs by those names."
    ]
    assert page.problems == []


def test_a_name_given_two_values_is_refused_not_guessed(page, server):
    """?model=a&model=b or ?L=40&L=80 could be read either way: neither value is taken, the page
    says so and keeps its own, and the address bar drops the name; a value given twice is one."""
    open_entry(page, server, "/35/")
    default_L = page.input_value("#in-L")
    open_entry(page, server, "/35/?model=llama-3-70b&model=mixtral-8x7b&L=40&L=80&L=40&s=4k&s=4k")
    assert lines(page) == [
        "Ignored the link's 2 values for “model”, “llama-3-70b” and “mixtral-8x7b”: a link gives one, so the page keeps its own.",
        "Ignored the link's 2 values for “L”, “40” and “80”: a link gives one, so the page keeps its own.",
    ]
    assert page.input_value("#preset-model") == "" and page.query_selector(".preset-mark") is None
    assert page.input_value("#in-L") == default_L and page.input_value("#in-s") == "4k"
    search = page.evaluate("location.search")
    assert "model=" not in search and "L=" not in search and "s=4k" in search
    assert page.problems == []


def test_a_plans_page_refuses_two_models_too(page, server):
    page.goto(server.url + "/plans/serve/?model=llama-3-70b&model=mixtral-8x7b&model=llama-3-8b")
    page.wait_for_selector("article.plan[data-plan-state]")
    assert lines(page) == [
        "Ignored the link's 3 values for “model”, “llama-3-70b”, “mixtral-8x7b” and “llama-3-8b”: a link gives one,"
        " so the page keeps its own."
    ]
    assert page.input_value("#preset-model") == ""
    assert "model=" not in page.evaluate("location.search")
    assert page.problems == []


def test_an_embed_value_other_than_one_is_said_and_the_page_stays_whole(page, server):
    """?embed=2 (or markup) is no card: the page says the value was ignored, as text, shows the
    whole page, and its address bar drops the value; on a plan's page the same."""
    open_entry(page, server, "/35/?L=40&embed=2&embed=<b>x</b>")
    assert lines(page) == [
        "Ignored the link's embed values “2” and “<b>x</b>”: embed=1 shows this entry as a card, and no other value is read."
    ]
    assert page.evaluate("document.documentElement.classList.contains('embed')") is False
    assert page.query_selector("#notice b") is None and page.is_visible("#share")
    assert page.input_value("#in-L") == "40"
    search = page.evaluate("location.search")
    assert "embed" not in search and "L=40" in search
    page.goto(server.url + "/plans/serve/?embed=yes")
    page.wait_for_selector("article.plan[data-plan-state]")
    assert lines(page) == [
        "Ignored the link's embed value “yes”: embed=1 shows this plan as a card, and no other value is read."
    ]
    assert page.evaluate("document.documentElement.classList.contains('embed')") is False
    assert page.problems == []
