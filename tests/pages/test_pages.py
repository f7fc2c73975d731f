"""Every built entry page, read as HTML with no browser: what the browser tests check on one entry of
each shape (tests/shapes.py) holds on every page.  The headline comes first and larger, the bar
mirrors it, every input has its field and every output its row, and every worked case has a load
control whose link carries its inputs."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.support import load_bank

pytestmark = pytest.mark.node  # the built site is typeset by KaTeX in Node

ENTRIES = load_bank()[0]


def _page(site, entry) -> str:
    return (site / entry.url.strip("/") / "index.html").read_text()


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.test_id for e in ENTRIES])
def test_every_page_puts_its_headline_first_and_mirrors_it_in_the_bar(site, entry):
    html = _page(site, entry)
    results = re.findall(r'<div class="result( headline)?" id="output-([A-Za-z0-9_]+)"', html)
    assert [name for _, name in results][: len(entry.headlines)] == list(entry.headlines), entry.url
    assert {name for big, name in results if big} == set(entry.headlines), entry.url
    assert sorted(name for _, name in results) == sorted(o.name for o in entry.outputs), entry.url
    bar = re.search(r'<a class="headline-bar" id="headline-bar".*?</a>', html, re.S).group(0)
    assert re.findall(r'data-mirror="([^"]+)"', bar) == list(entry.headlines), entry.url
    for i in entry.inputs:
        assert f'id="in-{i.name}"' in html, (entry.url, i.name)


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e.cases], ids=[e.test_id for e in ENTRIES if e.cases])
def test_every_case_has_a_load_control_whose_link_carries_its_inputs(site, entry):
    html = _page(site, entry)
    cases = re.findall(r'class="case" id="case-([^"]+)">.*?<a class="load-case" href="([^"]*)"', html, re.S)
    assert [case_id for case_id, _ in cases] == [c.id for c in entry.cases], entry.url
    for case, (_, href) in zip(entry.cases, cases):
        query = parse_qs(urlsplit(unescape(href)).query, keep_blank_values=True)
        assert set(case.inputs) <= set(query), (entry.key, case.id)
        if case.inverse:  # the question, in the page's notation: solve=s&total<=80GB
            q = case.inverse
            sense = {"=": "", "<=": "<", ">=": ">"}[q["sense"]]
            assert query["solve"] == [q["input"]] and query[q["output"] + sense] == [str(q["target"])]
