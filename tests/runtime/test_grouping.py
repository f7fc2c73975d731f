"""One way to write each quantity: a whole number is grouped in threes wherever a reader reads it
(``numbers.grouped``), and a list's elements are named by the index its statement names them by
(an output's ``index``), on the page, in ``compute`` and in the API alike."""

from __future__ import annotations

import re
import shutil
from fractions import Fraction
from html.parser import HTMLParser

import pytest

from site_builder import api
from site_builder.cli import main
from site_builder.load.versions import fingerprint
from site_builder.runtime.calculator import index_first, index_names
from site_builder.runtime.numbers import format_number, grouped, index_row, index_span, read_exact, shown_input
from site_builder.runtime.page import elasticity_text
from tests.support import TESTS

# ----------------------------------------------------------------------------- the grouping rule


def test_whole_numbers_are_grouped_from_four_digits_on():
    assert [grouped(n) for n in (512, 1024, 32768, -10001, 405853388800)] == [
        "512",
        "1,024",
        "32,768",
        "-10,001",
        "405,853,388,800",
    ]


def test_an_input_written_for_reading_is_grouped_and_one_typed_back_is_not():
    assert shown_input(405853388800) == "405,853,388,800"
    assert shown_input("10000000000/9") == "10,000,000,000/9"
    assert shown_input(14085.44) == "14,085.44"
    assert shown_input([131072, 65536]) == "131,072, 65,536"
    assert [shown_input(v) for v in ("70B", 1e300, 2.5e-7, "0.9, 0.3")] == ["70B", "1e300", "2.5e-7", "0.9, 0.3"]


def test_a_fraction_and_an_elasticity_are_grouped_and_a_grouped_fraction_reads_back():
    assert format_number(Fraction(16129, 65025), "fraction") == "16,129/65,025"
    assert format_number(Fraction(7, 39), "fraction") == "7/39"
    assert read_exact("16,129/65,025") == Fraction(16129, 65025)
    assert elasticity_text(-14085.444) == "−14,085.44"


# Digits a reader reads: not a script's, a style's, code's, KaTeX's, a quotation's or the book's
# print (which the page shows as printed), nor an attribute (a field's value, a link).
SKIPPED_TAGS = {"script", "style", "code", "pre", "kbd", "samp", "textarea", "math", "svg", "template", "blockquote"}
SKIPPED_CLASSES = {"katex", "katex-display", "printed"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Five digits or more in a row: a year has four; a decimal's fraction, a hash or an id is
# excluded by what stands next to it.
UNGROUPED = re.compile(r"(?<![\w.,\u2009\u202f])\d{5,}(?![\w]|,\d)")


class _Visible(HTMLParser):
    """The text a reader sees, outside the skipped tags and classes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, bool]] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        classes = set((dict(attrs).get("class") or "").split())
        self.open.append((tag, tag in SKIPPED_TAGS or bool(classes & SKIPPED_CLASSES)))

    def handle_endtag(self, tag):
        for k in range(len(self.open) - 1, -1, -1):
            if self.open[k][0] == tag:
                del self.open[k:]
                return

    def handle_data(self, data):
        if not any(skipped for _, skipped in self.open):
            self.texts.append(data)


def ungrouped(html: str) -> list[tuple[str, str]]:
    """Each whole number of five or more digits written without grouping in the visible text of
    ``html``, with the words around it; a URL or a path in the text is not a number."""
    parser = _Visible()
    parser.feed(html)
    found = []
    for text in parser.texts:
        for m in UNGROUPED.finditer(text):
            token = re.findall(r"\S*$", text[: m.start()])[0]
            if "://" in token or token.startswith(("/", "www.")):
                continue
            if text[: m.start()].endswith("site version "):  # a hash's hex digits, all digits now and then
                continue
            found.append((m[0], text[max(0, m.start() - 40) : m.end() + 20].strip()))
    return found


def test_the_scan_finds_what_it_should_and_nothing_else():
    page = (
        "<p>N = 405853388800 and 1,557,611,200; in 2024; 0.000012345; arXiv 2203.15556; "
        "https://example.org/12345678; d = 16384.</p><p class='printed'>(9472, 36928, 73856)</p>"
        "<code>131072</code><span class='katex'>131072</span><blockquote>65536</blockquote>"
        "<input value='32768'><a href='?s=32768'>load</a><td>14085.44</td>"
    )
    assert [number for number, _ in ungrouped(page)] == ["405853388800", "16384", "14085"]


@pytest.mark.node  # reads the built site, which KaTeX typesets in Node
def test_no_built_page_writes_a_whole_number_ungrouped(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= 70
    found = {str(p.relative_to(site)): hits for p in pages if (hits := ungrouped(p.read_text()))}
    assert not found, found


# ----------------------------------------------------------------------------- the statement's index


def test_an_index_is_arithmetic_on_integer_inputs():
    assert index_names("(n + 1) // 2") == ["n"]
    assert index_names(0) == [] and index_names("n - m") == ["n", "m"]
    assert index_first("(n + 1) // 2", {"n": 3}) == 2 and index_first(1, {}) == 1
    for bad in ("n / 2", "n ** 2", "f(n)", "n +", 1.5, True, "0.5 + n"):
        with pytest.raises(ValueError):
            index_names(bad)
    assert index_span("j", 2, 2) == "j\u00a0=\u00a02 to 3"
    assert index_span("k", 0, 1) == "k\u00a0=\u00a00"
    assert index_row("j", 10001) == "j\u00a0=\u00a010,001" and index_row("", 12) == "12"


@pytest.fixture(scope="module")
def vote():
    return next(e for e in api.entries() if e.key == "46")


def test_the_vote_terms_are_named_from_where_the_sum_starts(vote):
    run = vote.calculator.run({"n": "5", "p": "0.6"})["outputs"]
    assert run["vote_terms"]["index"] == {"symbol": "j", "first": 3}
    assert run["vote_terms"]["rows"] == ["j\u00a0=\u00a03", "j\u00a0=\u00a04", "j\u00a0=\u00a05"]
    assert run["powers"]["rows"] == run["vote_terms"]["rows"]
    assert "index" not in run["majority"]
    at_three = vote.run(n=3)
    assert at_three.vote_terms.index == (2, 3) and at_three.vote_terms.index_symbol == "j"
    assert str(at_three.vote_terms) == "(0.027, 0.001) for j = 2 to 3"
    assert "(0.027, 0.001) for j = 2 to 3" in repr(at_three)


def test_a_list_without_an_index_is_numbered_from_one():
    entry = next(e for e in api.entries() if e.key == "5")
    run = entry.calculator.run({})["outputs"]
    assert "index" not in run["params"] and run["params"]["rows"] == ["1", "2", "3"]
    assert entry.run().params.index == ()


def test_an_index_changes_no_number_and_so_no_version(vote):
    spec = vote.source.spec()
    bare = {**spec, "outputs": [{k: v for k, v in o.items() if k != "index"} for o in spec["outputs"]]}
    assert any("index" in o for o in spec["outputs"])
    assert fingerprint(spec) == fingerprint(bare)


@pytest.mark.node  # reads the built site
def test_the_built_page_heads_the_vote_terms_by_j(site, vote):
    html = (site / vote.source.url.strip("/") / "index.html").read_text()
    table = re.search(r'<table class="list[^"]*" id="list-vote_terms".*?</table>', html, re.S).group(0)
    assert re.findall(r"<th>(.*?)</th>", table) == ["j\u00a0=\u00a02", "j\u00a0=\u00a03"]
    # a worked case names its element as the statement does, not by its place
    assert "Terms of the vote sum, j = (n+1)/2 ... n [j\u00a0=\u00a03]" in html


INDEX_FIXTURE = TESTS / "bad_entries" / "index-names-no-input"


@pytest.mark.node  # the check typesets the fixture's TeX with KaTeX
@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            ("first: m", "first: D"),
            "outputs.C.index.first: D is a real input; an index counts from whole numbers and integer inputs",
        ),
        (
            ("first: m", 'first: "N / 2"'),
            "outputs.C.index.first: 'N / 2' uses an operation other than +, -, * and //; write a whole number"
            " or arithmetic on integer inputs",
        ),
        (
            ("[6 * i * D for i in range(1, N + 1)]}", "6 * N * D}"),
            "outputs.C.index: only a list output has an index; C is 24\u00a0FLOP at the defaults",
        ),
    ],
    ids=["a real input", "a division", "a scalar output"],
)
def test_an_index_must_count_from_integer_inputs_and_head_a_list(change, said, tmp_path, capsys):
    folder = tmp_path / "bank"
    shutil.copytree(INDEX_FIXTURE, folder)
    yaml = folder / "01-toy.yaml"
    text = yaml.read_text()
    if change[0] != "first: m":
        text = text.replace("first: m", "first: 1")
    yaml.write_text(text.replace(*change))
    assert main(["--entries", str(folder), "check"]) == 1
    assert said in capsys.readouterr().err


def test_a_cards_input_is_the_readers_text_with_a_plain_numbers_digits_grouped():
    """The embed card and the card image show each input for reading: digits grouped as every
    number the page writes, a shorthand the reader typed kept as typed (80B stays 80B)."""
    from site_builder.runtime.numbers import shown_text

    assert shown_text("70553706496") == "70,553,706,496"
    assert shown_text("1024") == "1,024" and shown_text("512") == "512"
    assert shown_text("-12000") == "-12,000" and shown_text("12345.678") == "12,345.678"
    assert shown_text("10000000000/9") == "10,000,000,000/9"
    for typed in ("80B", "2^17", "0.125", "1e300", "1, 2, 3", "32Ki"):
        assert shown_text(typed) == typed
