"""Inputs that follow the reader, in Chromium: values as readers write them and their echo,
lists whose commas always separate, worked cases loaded into the calculator, and the
citation and QR code of the current computation."""

from __future__ import annotations

import re

import pytest

from site_builder.runtime.calculator import Calculator
from tests import qr_read
from tests.browsing import open_entry

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node
NBSP = "\u00a0"


def _total(calc_spec: dict, **raw) -> str:
    return Calculator(calc_spec).run(raw)["outputs"]["total"]["text"]


def _wait_text(page, selector: str, text: str):
    page.wait_for_function(
        "([s, t]) => document.querySelector(s) && document.querySelector(s).textContent === t", arg=[selector, text]
    )


def test_32k_is_a_thousand_said_so_and_the_binary_reading_is_one_click_away(page, server, bank):
    entries, _ = bank
    spec = next(e for e in entries if e.key == "35").spec()
    open_entry(page, server, "/35/")
    assert page.is_hidden("#echo-s")  # 4096 can be read one way only
    page.fill("#in-s", "32K")
    _wait_text(page, "#out-total", _total(spec, s="32K"))
    assert page.text_content("#echo-s span") == "32K read as 32,000 (K = 10³)"
    assert page.text_content("#echo-s button") == "Use 32Ki = 32,768"
    page.click("#echo-s button")
    assert page.input_value("#in-s") == "32Ki"
    _wait_text(page, "#out-total", _total(spec, s=32768))
    assert page.text_content("#echo-s span") == "32Ki read as 32,768 (Ki = 2¹⁰)"
    page.wait_for_function("() => location.search.includes('s=32Ki')")  # the link keeps what was typed
    for typed in ("2^17", "131 072", "2¹⁷"):
        page.fill("#in-s", typed)
        _wait_text(page, "#out-total", _total(spec, s=131072))
        assert page.get_attribute("#in-s", "aria-invalid") == "false"
        assert page.is_hidden("#echo-s")
    assert page.problems == []


def test_inside_a_list_commas_separate_and_the_field_says_so(page, server):
    open_entry(page, server, "/38/")
    page.fill("#in-v", "1, 2, 3")
    page.fill("#in-z", "5,100,7")
    page.wait_for_selector("#echo-z:not([hidden])")
    assert (
        page.text_content("#echo-z")
        == "read as 3 numbers: 5; 100; 7 (in a list, commas separate the numbers, never thousands)"
    )
    assert page.is_hidden("#err-z") and page.is_hidden("#err-v")
    page.fill("#in-v", "1, 2, 3, 4")
    page.fill("#in-z", "1000,1001,999,1002")
    page.wait_for_function(
        "() => document.getElementById('echo-z').textContent.startsWith('read as 4 numbers: 1,000; 1,001; 999; 1,002')"
    )
    assert page.is_hidden("#err-z") and page.is_hidden("#err-v")
    assert page.problems == []


def test_loading_a_case_fills_the_calculator_and_computes_what_the_case_table_shows(page, server):
    open_entry(page, server, "/17/")
    page.fill("#in-C", "1e20")  # the reader's own value, replaced by the case's
    first = page.locator("#cases .case").first
    expected = first.locator("tbody tr").first.locator("td").nth(1).text_content()
    first.locator("a.load-case").click()
    page.wait_for_function("() => location.search.includes('C=100') && location.search.includes('k=1')")
    assert page.input_value("#in-A") == "1" and page.input_value("#in-B") == "4" and page.input_value("#in-C") == "100"
    assert page.input_value("#in-E") == "0"
    _wait_text(page, "#out-N", expected)  # N = 5, as the book prints it
    assert page.evaluate("document.getElementById('calculator').getBoundingClientRect().top") < 50
    assert page.problems == []


def test_the_citation_uses_the_units_shown(page, server):
    open_entry(page, server, "/35/")
    page.fill("#in-L", "40")
    page.wait_for_function(
        "() => document.getElementById('cite-run-text').textContent.replace(/\\u00a0/g, ' ').includes('671.1 MB')"
    )
    page.select_option("#units-bytes", "GiB")
    page.wait_for_function("() => document.getElementById('out-total').textContent.endsWith('GiB')")
    page.wait_for_function(
        "() => document.getElementById('cite-run-text').textContent.replace(/\\u00a0/g, ' ').includes('0.625 GiB')"
    )
    assert "0.625 GiB" in page.text_content("#cite-run-bibtex").replace(NBSP, " ")
    assert page.text_content("#units-bytes option[value='']") == "Default: kB, MB, GB… (10³ steps)"
    page.fill("#in-L", "13B")
    page.wait_for_function("() => document.getElementById('cite-run-text').textContent.includes('L = 13B')")
    assert "L=13B" in page.evaluate("location.search")


def _modules(d: str) -> set[tuple[int, int]]:
    return {(int(x), int(y)) for x, y in re.findall(r"M(\d+) (\d+)h1v1h-1z", d)}


def test_the_qr_code_encodes_the_current_computation(page, server):
    open_entry(page, server, "/35/")
    page.fill("#in-s", "8192")
    page.wait_for_function("() => location.search.includes('s=8192')")
    page.click("#qr summary")
    page.wait_for_function("() => document.getElementById('qr').dataset.payload")
    url = server.url + "/35/?s=8192&version=1"
    assert page.get_attribute("#qr", "data-payload") == url
    assert page.text_content("#qr-url") == url
    # The drawn modules read back, by the tests' own reader, as that URL.
    assert _drawn_text(page) == url
    # It follows the next change while open.
    page.fill("#in-B", "2")
    page.wait_for_function("() => (document.getElementById('qr').dataset.payload || '').includes('B=2')")
    assert _drawn_text(page) == server.url + "/35/?s=8192&B=2&version=1"
    assert page.problems == []


def _drawn_text(page) -> str:
    size = int(page.get_attribute("#qr figure svg", "viewBox").split()[2])
    dark = _modules(page.get_attribute("#qr figure svg path", "d"))
    border = 4
    matrix = [[(x, y) in dark for x in range(border, size - border)] for y in range(border, size - border)]
    return qr_read.read(matrix)


def test_the_tests_qr_reader_reads_what_the_builds_encoder_writes():
    """The reader above is checked against segno (the build's encoder), so a test passing
    through it means the page's code really says the URL."""
    segno = pytest.importorskip("segno")
    for url in (
        "https://derivation-bank.netlify.app/35/",
        "http://127.0.0.1:8000/35/?s=8192&B=2",
        "http://127.0.0.1:8000/35/?s=8192&B=2&version=1",  # version 4: two blocks
    ):
        qr = segno.make(url, error="m", boost_error=False, mode="byte", micro=False)
        assert qr_read.read([[bool(v) for v in row] for row in qr.matrix]) == url
    with pytest.raises(AssertionError):
        broken = [
            [bool(v) for v in row] for row in segno.make("http://x/", error="m", boost_error=False, micro=False).matrix
        ]
        broken[15][15] ^= True  # two data modules flipped: the error correction no longer matches
        broken[14][15] ^= True
        qr_read.read(broken)


def test_a_comma_is_read_one_way_or_refused_with_a_hint_on_the_page_in_a_link_and_a_target(page, server):
    """A decimal comma is never silently read as thousands: `0,125` is refused with "write 0.125"
    in a field, in a link (ignored, with the reason) and in a solve target; a grouping comma
    (`8,192`) is read, and the page echoes how."""
    open_entry(page, server, "/35/?beta=0,125")
    notice = page.text_content("#notice")
    assert "Ignored the link's value for beta" in notice and "(write 0.125)" in notice, notice
    assert page.input_value("#in-beta") == "2"  # the default kept
    page.fill("#in-beta", "0,125")
    page.wait_for_function("() => document.getElementById('err-beta').textContent.includes('(write 0.125)')")
    assert "the decimal point is a dot" in page.text_content("#err-beta")
    assert page.evaluate("document.getElementById('outputs').classList.contains('stale')")
    page.fill("#in-beta", "2")
    page.fill("#in-s", "8,192")
    page.wait_for_function("() => !document.getElementById('echo-s').hidden")
    assert page.text_content("#echo-s").startswith("8,192 read as 8,192 (the comma groups thousands")
    page.fill("#in-s", "8192")
    page.select_option("#solve-output", "total")
    page.select_option("#solve-input", "s")
    page.fill("#solve-target", "0,5 GB")
    page.press("#solve-target", "Enter")
    page.wait_for_selector("#solve-err:not([hidden])")
    assert "0.5" in page.text_content("#solve-err"), page.text_content("#solve-err")
    assert page.problems == []
