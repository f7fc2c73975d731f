"""The runtime's reading, domains and writing, and how printed numbers bound computed ones."""

from __future__ import annotations

from fractions import Fraction

import pytest

from site_builder.check import tolerance
from site_builder.load.entry import Check
from site_builder.runtime.calculator import Calculator, formula_problems
from site_builder.runtime.domain import Domain, DomainError, Interval
from site_builder.runtime.numbers import NumberError, format_value, read_exact, read_list, reading, write_input


@pytest.mark.parametrize(
    "text,value",
    [
        ("70000000000", 70 * 10**9),
        ("7e10", 70 * 10**9),
        ("7E10", 70 * 10**9),
        ("70e9", 70 * 10**9),
        ("70B", 70 * 10**9),
        ("1.4T", 14 * 10**11),
        ("5k", 5000),
        ("2M", 2 * 10**6),
        ("70,000,000,000", 70 * 10**9),
        ("1.56\\times10^{23}", 156 * 10**21),
        ("5.88 × 10²³", 588 * 10**21),
        ("87.5%", Fraction(7, 8)),
        ("68\\%", Fraction(17, 25)),
        ("7/39", Fraction(7, 39)),
        ("-0", 0),
        ("−3", -3),
        (" 0.25 ", Fraction(1, 4)),
        ("1{,}049{,}600", 1049600),
        ("2.7\\times10^{-5}", Fraction(27, 10**6)),
        # context lengths and powers as readers write them: K is a thousand like k, Ki is 2¹⁰
        ("32K", 32000),
        ("128K", 128000),
        ("32Ki", 32768),
        ("128 Ki", 131072),
        ("1Mi", 2**20),
        ("2^17", 131072),
        ("2**17", 131072),
        ("2¹⁷", 131072),
        ("2^{10}", 1024),
        ("2^-1", Fraction(1, 2)),
        ("3 × 2^10", 3072),
        ("131 072", 131072),
        ("131\u00a0072", 131072),
        ("131\u2009072", 131072),
        ("1 000 000", 10**6),
    ],
)
def test_reads_what_people_type_and_books_print(text, value):
    assert read_exact(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "",
        "abc",
        "1e401",
        "7 B B",
        "1/0",
        "--1",
        "1.2.3",
        "0x10",
        "nan",
        "inf",
        "2^2000",
        "0^-1",
        "13 1072",
        "1,00",
        "2^^3",
        "32KK",
    ],
)
def test_rejects_what_is_not_a_number(text):
    with pytest.raises(NumberError):
        read_exact(text)


def test_reads_lists_in_every_usual_spelling():
    assert read_list("(0, 0.2)") == [0, Fraction(1, 5)]
    assert read_list("[0.3, 0.7]") == read_list("0.3 0.7") == read_list("0.3;0.7") == [Fraction(3, 10), Fraction(7, 10)]


def test_inside_a_list_commas_separate_and_never_group_thousands():
    assert read_list("5,100,7") == [5, 100, 7]
    assert read_list("1000,1001,999,1002") == [1000, 1001, 999, 1002]
    assert read_list("131 072, 65 536") == [131072, 65536]  # with commas, spaces may group digits
    assert read_list("32k, 2^15") == [32000, 32768]
    with pytest.raises(NumberError, match="empty element"):
        read_list("1,,2")
    z = Domain.from_spec({"name": "z", "type": "list"})
    assert z.read("5,100,7") == [5.0, 100.0, 7.0]
    assert z.echo("5,100,7") == {
        "text": "read as 3 numbers: 5; 100; 7 (in a list, commas separate the numbers, never thousands)"
    }
    assert z.echo("0.3, 0.7") is None


@pytest.mark.parametrize(
    "text,echo",
    [
        ("32K", {"text": "32K read as 32,000 (K = 10³)", "alternative": "32Ki", "alternative_text": "32,768"}),
        ("32k", {"text": "32k read as 32,000 (k = 10³)", "alternative": "32Ki", "alternative_text": "32,768"}),
        ("128Ki", {"text": "128Ki read as 131,072 (Ki = 2¹⁰)", "alternative": "128k", "alternative_text": "128,000"}),
        (
            "1.5Mi",
            {"text": "1.5Mi read as 1,572,864 (Mi = 2²⁰)", "alternative": "1.5M", "alternative_text": "1,500,000"},
        ),
        ("70B", None),
        ("2^17", None),
        ("32768", None),
        ("131 072", None),
    ],
)
def test_a_value_that_could_be_read_two_ways_says_how_it_was_read(text, echo):
    s = Domain.from_spec({"name": "s", "type": "integer", "domain": "[1, inf)"})
    assert s.echo(text) == echo
    if echo:  # the other reading is one step away, and reads as it says
        assert f"{s.read(echo['alternative']):,}" == echo["alternative_text"]


@pytest.mark.parametrize(
    "value,fmt,unit,text",
    [
        (5.88e23, "sig:3", "FLOP", "5.88~×~10²³~FLOP"),
        (1049600, "int", "", "1,049,600"),
        (0.875, "percent:1", "", "87.5%"),
        (1342177280, "si:4", "B", "1.342~GB"),
        (7 / 39, "fraction", "", "7/39"),
        (0.42525, "sig:3", "", "0.425"),
        (2.7e-5, "sig:2", "", "2.7~×~10⁻⁵"),
        (True, "bool", "", "yes"),
        ([0, 0.2], "sig:3", "", "(0, 0.2)"),
        (float("inf"), "sig:3", "", "∞"),
        (12.0, "sig:3", "steps", "12~steps"),
        (0.0, "sci:2", "FLOP", "0~FLOP"),
        ([6.3e24], "sig:2", "FLOP", "6.3~×~10²⁴~FLOP"),
        ([], "sig:2", "tokens", "none"),
        ([3e12, 1.2e13], "sig:2", "tokens", "(3~×~10¹², 1.2~×~10¹³)~tokens"),
        (1, "int", "micro-batches", "1~micro-batch"),
        (1.0, "sig:3", "time units", "1~time unit"),
        (1, "int", "s", "1~s"),
    ],
)
def test_writes_values_for_readers(value, fmt, unit, text):
    """Within one value the spaces are no-break (~ here), so a line breaks only between values."""
    assert format_value(value, fmt, unit) == text.replace("~", "\u00a0")


def test_defaults_are_written_as_a_reader_would_type_them():
    assert [write_input(v) for v in (70e9, 1.4e12, 80, 2.0, 0.982, [0.3, 0.7])] == [
        "70B",
        "1.4T",
        "80",
        "2",
        "0.982",
        "0.3, 0.7",
    ]


def test_values_written_for_links_carry_no_floating_point_noise():
    assert [
        write_input(v) for v in (5.000000000000001, 0.1 + 0.2, 1.3e10 * (1 + 1e-15), [0.1 + 0.2, 4.999999999999999])
    ] == ["5", "0.3", "13B", "0.3, 5"]
    assert write_input(1 / 3) == "0.333333333333"
    assert [write_input(v) for v in (5120, 1000.0, 122070, 2_000_000)] == [
        "5120",
        "1000",
        "122070",
        "2M",
    ]  # never k: 1000 or 1024?
    assert [write_input(v) for v in (32487084513.6, 2.5e6 + 0.5, 1048576, 859852290000000)] == [
        "32.4870845136B",
        "2.5000005M",
        "1048576",
        "859852.29B",
    ]  # twelve figures: far beyond any input's precision


def test_values_written_for_links_beyond_the_suffixes_are_short_and_exact():
    """A feed link carries 3.528e23, not 352800000000T nor 8277559353390000.0 (entry 16's total
    parameters fed to /1/ at a large width, entry 17's D fed to /50/)."""
    assert [
        write_input(v)
        for v in (352_800_000_000_000_000_000_000, 8277559353390000.0, 2 * 10**15, -3 * 10**20, 5.88e23, 1.5e-7)
    ] == ["3.528e23", "8.27755935339e15", "2e15", "-3e20", "5.88e23", "1.5e-7"]
    assert write_input(881018880006291456) == "881018880006291456"  # twelve figures would round the count
    for v in (352_800_000_000_000_000_000_000, 881018880006291456, -3 * 10**20):
        assert read_exact(write_input(v)) == v


def test_intervals_parse_print_and_contain():
    unit = Interval.parse("(0, 1]")
    assert str(unit) == "(0, 1]" and 1 in unit and 0 not in unit
    assert str(Interval.parse("[1, inf)")) == "[1, ∞)"
    for bad in ("[1, inf]", "(2, 1)", "0, 1", "[a, 1]"):
        with pytest.raises(ValueError):
            Interval.parse(bad)


@pytest.mark.parametrize(
    "spec,raw,message",
    [
        (
            {"name": "L", "type": "integer", "domain": "[1, inf)"},
            "0",
            "L: '0' is out of range; expected a whole number in [1, ∞)",
        ),
        (
            {"name": "L", "type": "integer", "domain": "[1, inf)"},
            "1.5",
            "L: '1.5' is not whole; expected a whole number in [1, ∞)",
        ),
        ({"name": "p", "domain": "[0, 1]"}, "abc", "p: 'abc' is not a number; expected a number in [0, 1]"),
        (
            {"name": "p", "domain": "[0, 1]"},
            "1e400",
            "p: '1e400' is too large for a float; expected a number in [0, 1]",
        ),
        ({"name": "p", "domain": "[0, 1]"}, "", "p: empty; expected a number in [0, 1]"),
        (
            {"name": "q", "type": "list", "domain": "[0, 1]", "length": "[2, 8]", "sum": 1},
            "0.5, 0.6",
            "q: sums to 1.1; expected a list of 2 to 8 numbers in [0, 1] summing to 1, separated by commas",
        ),
        (
            {"name": "q", "type": "list", "domain": "[0, 1]", "length": "[2, 8]"},
            "0.5",
            "q: has 1 element; expected a list of 2 to 8 numbers in [0, 1], separated by commas",
        ),
        (
            {"name": "z", "type": "list"},
            "x",
            "z: 'x' is not a number; expected a list of one or more numbers, separated by commas",
        ),
        (
            {"name": "s", "type": "integer", "domain": "[1, inf)"},
            "32KB",
            "s: '32KB' is not a number; expected a whole number in [1, ∞)",
        ),
        (
            {"name": "z", "type": "list"},
            "1,,2",
            "z: '1,,2' has an empty element between two commas; expected a list of one or more numbers, separated by commas",
        ),
        (
            {"name": "L", "type": "integer", "domain": "[1, inf)"},
            "1e30",
            "L: '1e30' is too large: whole numbers here go up to 10¹⁸",
        ),
        (
            {"name": "m", "type": "choice", "choices": [{"value": "a", "label": "A"}, {"value": "b", "label": "B"}]},
            "c",
            "m: 'c' is not allowed; expected one of a, b",
        ),
    ],
)
def test_domain_errors_name_the_input_and_what_is_allowed(spec, raw, message):
    with pytest.raises(DomainError) as caught:
        Domain.from_spec(spec).read(raw)
    assert str(caught.value) == message


def test_integer_inputs_arrive_exact():
    assert Domain.from_spec({"name": "N", "type": "integer", "domain": "[1, inf)"}).read("1.4T") == 1_400_000_000_000


def test_formula_allow_list_and_shape():
    assert formula_problems("import math\ndef compute(x):\n    return {}") == []
    assert formula_problems("import os\ndef compute(x):\n    return {}")[0] == (
        1,
        "formula imports 'os'; allowed: bisect, cmath, collections, decimal, fractions, functools, heapq, "
        "itertools, math, numbers, operator, random, statistics",
    )
    assert formula_problems("def f(x): pass") == [(1, "formula defines no top-level function compute(...)")]
    assert formula_problems("def compute(:")[0][1].startswith("formula does not compile")


def test_a_formula_value_error_becomes_a_domain_error_on_the_named_input():
    calc = Calculator(
        {
            "id": "t",
            "formula": "def compute(n, p):\n    if n <= p + 1:\n        raise ValueError('n: must exceed p + 1')\n    return {'r': p / (n - p - 1)}",
            "inputs": [
                {"name": "n", "type": "integer", "domain": "[1, inf)", "default": 10},
                {"name": "p", "type": "integer", "domain": "[0, inf)", "default": 2},
            ],
            "outputs": [{"name": "r", "format": "sig:3", "unit": ""}],
        }
    )
    assert calc.run({})["outputs"]["r"]["text"] == "0.286"
    with pytest.raises(DomainError) as caught:
        calc.run({"n": "3"})
    assert caught.value.name == "n"


@pytest.mark.parametrize(
    "printed,digits,actual,ok",
    [
        ("0.366", None, 0.3655, True),
        ("0.366", None, 0.3654, False),
        ("9,100", 2, 9139, True),
        ("9,100", None, 9139, False),
        ("87.5%", None, 0.875, True),
        ("7/39", "exact", 7 / 39, True),
        ("7/39", "exact", 0.18, False),
        ("1.56\\times10^{23}", None, 1.5625e23, True),
        ("254", 3, 253.5, True),
        ("(0, 0.2)", "exact", [0.0, 0.2], True),
    ],
)
def test_printed_precision_bounds_the_computed_value(printed, digits, actual, ok):
    check = Check(output="x", printed=printed, digits=digits)
    assert (tolerance.verify(check, actual) is None) is ok


def test_verbal_claims_are_ranges():
    check = Check(output="x", printed="over a third", range="(1/3, 1]")
    assert tolerance.verify(check, 0.357) is None
    assert tolerance.verify(check, 0.30) is not None


# ----------------------------------------------------------------------------- commas, never misread


@pytest.mark.parametrize(
    "text,hint",
    [
        ("0,125", "write 0.125"),
        ("0,005", "write 0.005"),
        ("0,5", "write 0.5"),
        ("1,25", "write 1.25"),
        ("-0,5", "write -0.5"),
        ("1,2345", "write 1.2345"),
        ("3,5e9", "write 3.5e9"),
    ],
)
def test_a_decimal_comma_is_refused_with_the_dotted_spelling(text, hint):
    with pytest.raises(NumberError) as caught:
        read_exact(text)
    assert str(caught.value) == f"{text!r} is not a number: the decimal point is a dot ({hint})"


def test_commas_that_group_wrongly_are_refused_saying_how_they_group():
    with pytest.raises(NumberError) as caught:
        read_exact("1,23,456")
    assert str(caught.value) == (
        "'1,23,456' is not a number: commas group digits in threes after a first group of 1 to 3 digits, "
        "not starting with 0 (or write it without commas)"
    )


def test_commas_that_can_only_group_thousands_are_read_so_silently():
    assert read_exact("12,345,678") == 12_345_678
    assert read_exact("1,250.5") == Fraction(2501, 2)
    assert reading("12,345,678") is None and reading("1,250.5") is None


def test_one_comma_and_three_digits_is_read_as_thousands_and_said_so_with_the_decimal_one_click_away():
    assert read_exact("1,250") == 1250
    assert reading("1,250") == {
        "text": "1,250 read as 1,250 (the comma groups thousands; the decimal point is a dot)",
        "alternative": "1.250",
        "alternative_text": "1.25",
    }
    assert reading("-12,500")["alternative"] == "-12.500"


def test_a_decimal_comma_in_a_field_names_the_field_and_the_dotted_spelling():
    d = Domain.from_spec({"name": "p", "type": "real", "domain": "(0, 1)"})
    with pytest.raises(DomainError) as caught:
        d.read("0,125")
    assert (
        caught.value.message
        == "'0,125' is not a number: the decimal point is a dot (write 0.125); expected a number in (0, 1)"
    )
