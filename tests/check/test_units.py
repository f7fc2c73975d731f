"""Units: every unit an entry names is known, with its dimension; values are computed in base units
and a feed may carry a value only into an input of the same dimension (the check refuses bytes fed
into a FLOP or a bytes-per-second input); display choices convert by exact factors."""

from __future__ import annotations

import dataclasses

import pytest

from site_builder.check.check import check_feed_units
from site_builder.errors import Problems
from site_builder.runtime import units
from site_builder.runtime.domain import DomainError
from site_builder.runtime.solve import solve
from tests.support import load_bank

ENTRIES, CALCULATORS = load_bank()


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.test_id for e in ENTRIES])
def test_every_unit_is_registered_and_values_are_in_base_units(entry):
    for item in (*entry.inputs, *entry.outputs):
        assert item.unit in units.UNITS, f"{item.name}: unit {item.unit!r} is not in runtime/units.py"
    for o in entry.outputs:
        assert o.unit not in ("GB", "GiB", "MB", "TB", "kB", "PFLOP", "TFLOP"), "values are in base units"


def test_bytes_and_flops_and_rates_are_distinct_dimensions():
    assert units.dimension("B") != units.dimension("B/s")
    assert units.dimension("FLOP") != units.dimension("FLOP/s")
    assert units.dimension("B") != units.dimension("FLOP")


def test_every_feed_carries_a_value_into_an_input_of_its_dimension():
    problems = Problems()
    check_feed_units(ENTRIES, problems)
    assert not problems, problems.report()


def _with_unit(entry, input_name: str, unit: str):
    inputs = tuple(dataclasses.replace(i, unit=unit) if i.name == input_name else i for i in entry.inputs)
    return dataclasses.replace(entry, inputs=inputs)


@pytest.mark.parametrize(
    "unit,words", [("FLOP", "FLOPs"), ("B/s", "bytes per second"), ("tokens/s", "a count per second")]
)
def test_a_feed_into_an_input_of_another_dimension_is_refused_at_its_line(unit, words):
    # Entry 21 feeds its bytes per parameter b_w (B/param, a byte quantity) into entry 43's bytes_weight.
    entries = [_with_unit(e, "bytes_weight", unit) if e.key == "43" else e for e in ENTRIES]
    problems = Problems()
    check_feed_units(entries, problems)
    source = next(e for e in ENTRIES if e.key == "21")
    feed = next(f for f in source.feeds if str(f.entry) == "43")
    assert [(p.path, p.line, p.message) for p in problems.items] == [
        (
            feed.where.path,
            feed.at("inputs", "bytes_weight").line,  # the line of the feed's input at fault
            f"feeds[1].inputs.bytes_weight: 'b_w' is in 'B/param' (bytes) but entry 43's input 'bytes_weight'"
            f" is in {unit!r} ({words}); a feed carries values unconverted, so both must have the same dimension",
        )
    ]


def test_counts_and_pure_numbers_share_a_dimension_so_they_feed_each_other():
    # Entry 16 feeds its total (parameters) into entry 1's N (''): the same count.
    assert units.dimension("parameters") == units.dimension("") == units.dimension("tokens")


@pytest.mark.parametrize("value", [2**31, 1_342_177_280, 7 * 10**9])
def test_gigabytes_and_gibibytes_differ_by_the_exact_factor(value):
    gb = float(units.write(value, "si:10", "B", "GB").split()[0].replace(",", ""))
    gib = float(units.write(value, "si:10", "B", "GiB").split()[0].replace(",", ""))
    assert gb / gib == pytest.approx(2**30 / 10**9, rel=1e-9)


def test_flops_in_pflops_days_scientific_or_in_full():
    assert units.write(8.64e19, "sig:3", "FLOP", "pfsd") == "1\u00a0PFLOP/s-days"
    assert units.write(5.88e23, "sig:3", "FLOP", "plain") == "588,000,000,000,000,000,000,000\u00a0FLOP"
    assert units.write(5.88e23, "sig:3", "FLOP", "sci") == "5.88\u00a0×\u00a010²³\u00a0FLOP"


def test_counts_with_suffixes():
    assert units.write(70e9, "sig:3", "parameters", "suffix") == "70B\u00a0parameters"
    assert units.write(1.4e12, "sig:3", "tokens", "suffix") == "1.4T\u00a0tokens"


def test_a_unit_choice_reaches_every_output_of_its_family():
    calc = CALCULATORS["35"]
    assert calc.run({}, {"bytes": "GiB"})["outputs"]["total"]["text"] == "1.25\u00a0GiB"
    assert calc.run({}, {"bytes": "GB"})["outputs"]["total"]["text"] == "1.342\u00a0GB"


def test_elasticity_of_training_cost_in_parameters_is_one():
    table = CALCULATORS["1"].elasticities({})
    assert round(table["N"]["C_train"], 2) == 1.00
    assert round(table["T"]["C_train"], 2) == 0.00


def test_a_width_the_heads_must_divide_steps_to_their_next_multiples():
    """16's formula refuses d = 511 and 513 with 8 heads: the width's elasticity is taken between
    the nearest widths it accepts, 504 and 520, and a block's parameters grow as d squared."""
    calc = CALCULATORS["16"]
    values = calc.read({})
    assert (values["d"], values["h"]) == (512, 8)
    for refused in ("511", "513"):
        with pytest.raises(DomainError, match="the head count must divide the width d"):
            calc.run({"d": refused})
    table = calc.elasticities({})
    assert round(table["d"]["per_layer"], 2) == 2.00
    assert round(table["d"]["d_head"], 2) == 1.00
    # No whole number of heads near 8 divides 512 (7, 9): no elasticity is made up for it.
    assert set(table["h"].values()) == {None}


@pytest.mark.parametrize(
    "text,value",
    [
        ("80 GB", 80 * 10**9),
        ("80GB", 80 * 10**9),
        ("80 gb", 80 * 10**9),
        ("80 Gb", 80 * 10**9),
        ("80GiB", 80 * 2**30),
        ("80 gib", 80 * 2**30),
        ("80 mb", 80 * 10**6),
        ("327.7 kB", 327_700),
        ("80 bytes", 80),
    ],
)
def test_a_byte_target_is_read_as_people_type_its_unit(text, value):
    assert units.read(text, "B") == value


def test_a_target_with_a_decimal_comma_is_refused_with_the_dotted_spelling():
    with pytest.raises(units.NumberError) as caught:
        units.read("1,5 GB", "B")
    assert str(caught.value) == "'1,5 GB' is not a number in B: the decimal point is a dot (write 1.5 GB)"


def test_a_bare_number_is_read_in_the_unit_the_result_is_shown_in():
    assert units.read_shown("80", "B", "161.1\u00a0GB") == (80 * 10**9, "GB")
    assert units.read_shown("80", "B", "75\u00a0GiB") == (80 * 2**30, "GiB")
    assert units.read_shown("80", "tokens", "1.4T tokens") == (80 * 10**12, "T tokens")
    assert units.read_shown("80 GB", "B", "75\u00a0GiB") == (80 * 10**9, "")  # its own unit
    assert units.read_shown("0.08", "", "12.5%") == (units.Fraction(2, 25), "")  # a fraction, as the book writes it
    assert units.read_shown("0.5", "", "7/276") == (units.Fraction(1, 2), "")
    assert units.unit_shown("5.88\u00a0×\u00a010²³\u00a0FLOP") == "FLOP"


def test_a_solved_target_says_how_it_was_read():
    calc = CALCULATORS["35"]
    answer = solve(calc, {}, "s", "total", "<=", "80")
    assert answer["target"] == 80e9
    assert answer["target_reading"] == "80 read as 80 GB (a bare number is read in GB, as the result is shown)"
    assert solve(calc, {}, "s", "total", "<=", "80 gb")["target_reading"] == "80 gb read as 80 GB"
    assert solve(calc, {}, "s", "total", "<=", "80", {"bytes": "GiB"})["target"] == 80 * 2**30
