"""Asking entries backwards (site_builder/runtime/solve.py): round trips, properties, messages.

The round trip: for every entry, every real or whole-number input and every numeric output,
solving the output's value at the defaults for that input gives the default back, to the
precision the output is printed with, wherever the output depends on the input.
"""

from __future__ import annotations

import copy
import json
import math
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.runtime import api as runtime_api
from site_builder.runtime import solve as solve_module
from site_builder.runtime import units
from site_builder.runtime.domain import DomainError
from site_builder.runtime.grid import MAX_EVALUATIONS
from site_builder.runtime.numbers import NUMERIC, NumberError, split_format
from site_builder.runtime.report import typed
from site_builder.runtime.solve import printed_tolerance, solve
from tests.support import load_bank

ENTRIES, CALCULATORS = load_bank()


@pytest.fixture(scope="module")
def no_clock():
    """Answers checked word for word must not depend on how busy the machine is: the search's
    clock (which keeps it near the current value when a formula is slow far out, and says so)
    is taken away."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solve_module, "SLOW", math.inf)
        patch.setattr(solve_module, "SECONDS", math.inf)
        yield


BY_KEY = {e.key: e for e in ENTRIES}
EXAMPLES = int(os.environ.get("PROPERTY_EXAMPLES", "40"))
DERANDOMIZE = "PROPERTY_EXAMPLES" not in os.environ


def _numeric(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _solvable(entry, result):
    """(input, output) pairs that can be asked: a real or integer input, a single-number output."""
    inputs = [i.name for i in entry.inputs if i.type in ("real", "integer")]
    outputs = [
        o
        for o in entry.outputs
        if split_format(o.format)[0] in NUMERIC and _numeric(result["outputs"][o.name]["value"])
    ]
    return inputs, outputs


def _recovered(calc, raw, free, x0, y0, output, solutions) -> bool:
    """x0 is among the solutions, to the precision the output prints y0 with: within the
    distance over which the output moves by half a printed unit (from its local slope)."""
    fmt = next(o["format"] for o in calc.outputs if o["name"] == output)
    tol = printed_tolerance(fmt, y0)
    values = calc.read(raw)
    slope = 0.0
    if isinstance(x0, float):
        h = max(abs(x0), 1e-300) * 1e-6
        d = next(d for d in calc.domains if d.name == free)
        ends = [x for x in (x0 - h, x0 + h) if x in d.interval]
        if len(ends) == 2:
            lo, hi = (calc._try({**values, free: x}) for x in ends)
            if lo and hi and _numeric(lo[output]) and _numeric(hi[output]):
                slope = (hi[output] - lo[output]) / (2 * h)
    reach = tol / abs(slope) if slope else 0.0
    return any(abs(s["value"] - x0) <= reach + 1e-9 * max(1.0, abs(x0)) for s in solutions)


def computed_once(calc, monkeypatch):
    """``calc`` with each distinct set of inputs evaluated once: a formula is a pure function of its
    inputs, and a sweep over every (input, output) pair asks the solver for the same points again
    and again (a formula whose cost grows with its input, as the exact binomial sum does, made that
    sweep most of the CPython suite's time)."""
    evaluate, seen = calc.evaluate, {}

    def once(values):
        key = repr(sorted(values.items()))
        if key not in seen:
            seen[key] = evaluate(values)
        return copy.deepcopy(seen[key])

    monkeypatch.setattr(calc, "evaluate", once)
    return calc


@pytest.mark.slow  # every entry's defaults solved for every input: about 15 s
@pytest.mark.usefixtures("no_clock")  # the same answer however busy the machine is
@pytest.mark.parametrize("entry", ENTRIES, ids=[e.test_id for e in ENTRIES])
def test_round_trip_recovers_every_default(entry, monkeypatch):
    calc = computed_once(CALCULATORS[entry.key], monkeypatch)
    result = calc.run({})
    inputs, outputs = _solvable(entry, result)
    asked = 0
    for free in inputs:
        x0 = result["inputs"][free]
        for o in outputs:
            y0 = result["outputs"][o.name]["value"]
            answer = solve(calc, {}, free, o.name, "=", y0)
            assert answer["evaluations"] <= MAX_EVALUATIONS
            if answer["status"] == "solved" and not answer["solutions"]:
                # the output prints the same over the whole domain: it does not depend on the input
                assert f"it does not depend on {free}" in answer["message"], answer["message"]
                continue
            asked += 1
            assert answer["status"] == "solved", (free, o.name, answer["message"])
            assert _recovered(calc, {}, free, x0, y0, o.name, answer["solutions"]), (
                free,
                o.name,
                x0,
                [s["text"] for s in answer["solutions"]],
                answer["message"],
            )
    if inputs and outputs:
        assert asked, f"no output of entry {entry.key} depends on any of its inputs"


@pytest.mark.slow  # every entry's question asked: about 5 s
def test_the_default_pairing_of_every_entry_can_be_asked():
    """Each entry's solve: key (or its fallback) frees a real or integer input and names an output
    that is one number at the defaults, which depends on that input there."""
    for entry in ENTRIES:
        question = entry.question
        if question is None:
            assert all(i.type in ("list", "choice") for i in entry.inputs), entry.key
            continue
        if entry.solve is None:
            continue  # no pairing chosen: the page falls back to the first numeric input and output
        calc = CALCULATORS[entry.key]
        y0 = calc.run({})["outputs"][question["output"]]["value"]
        answer = solve(calc, {}, question["input"], question["output"], "=", y0)
        assert answer["status"] == "solved", (entry.key, answer["message"])
        if entry.key != "48":  # its listed schedule ignores t; the linear one, which reads it, is below
            assert answer["solutions"], (entry.key, answer["message"])
    linear = _message("48", {"schedule": "linear"}, "t", "snr", "=", "1")
    assert "t = 259 gives 1.001 and t = 260 gives 0.9905" in linear["message"]


# ----------------------------------------------------------------------------- properties

SAMPLE = [
    ("35", "s", "total"),
    ("35", "beta", "total"),
    ("19", "M", "bubble"),
    ("46", "k", "coverage"),
    ("1", "D", "C_train"),
    ("3", "kappa", "t_gd"),
    ("geometric-series", "gamma", "sum_from_now"),
    ("40", "alpha", "speedup"),
    ("42", "b", "rms"),
    ("bayes-flip", "P_H", "P_H_given_E"),
    ("17", "C", "N"),
    ("33", "gamma", "perpetual_value"),
]


def _point(d, u: float):
    """A value in the domain at position u in [0, 1]: log-spaced over decades where it spans them."""
    iv = d.interval
    lo = iv.lo if math.isfinite(iv.lo) else -1e6
    hi = iv.hi if math.isfinite(iv.hi) else 1e6
    if d.kind == "integer":
        lo, hi = math.ceil(lo) + (not iv.lo_closed and lo == math.ceil(lo)), min(hi, 10**6)
        return round(lo * (hi / max(lo, 1)) ** u) if lo >= 1 else round(lo + (hi - lo) * u)
    if lo >= 0 and hi / max(lo, 1e-9) > 1e3:
        lo = max(lo, 1e-6)
        x = lo * (hi / lo) ** u
    else:
        x = lo + (hi - lo) * u
    return min(max(x, math.nextafter(iv.lo, math.inf)), math.nextafter(iv.hi, -math.inf))


@settings(max_examples=EXAMPLES, deadline=None, derandomize=DERANDOMIZE, suppress_health_check=[HealthCheck.too_slow])
@given(pick=st.sampled_from(SAMPLE), u=st.floats(0, 1), sense=st.sampled_from(["=", "<=", ">="]))
def test_solving_a_computed_value_gives_back_its_input(pick, u, sense):
    """Anywhere in the domain: the value computed at x, asked backwards, gives x back (=), or a
    boundary at x that meets the target on the side it says, with the neighbour that misses."""
    key, free, output = pick
    calc = CALCULATORS[key]
    d = next(d for d in calc.domains if d.name == free)
    x = _point(d, u)
    try:
        y = calc.run({free: x})["outputs"][output]["value"]
    except DomainError:
        return
    if not _numeric(y):
        return
    answer = solve(calc, {free: x}, free, output, sense, y)
    assert answer["evaluations"] <= MAX_EVALUATIONS
    assert answer["status"] == "solved", answer["message"]
    if not answer["solutions"]:
        return  # flat there: every value meets it
    tol = printed_tolerance(next(o["format"] for o in calc.outputs if o["name"] == output), y)
    for s in answer["solutions"]:
        got = s["run"]["outputs"][output]["value"]
        if sense == "=":
            assert abs(got - y) <= tol
        elif sense == "<=":
            assert got <= y + 1e-12 * max(1.0, abs(y))
        else:
            assert got >= y - 1e-12 * max(1.0, abs(y))
        if "neighbour" in s and sense != "=":
            n = s["neighbour"]["value"]  # the next whole number the formula takes, on the side that misses
            assert (n > s["value"]) if s["side"] == "below" else (n < s["value"])
            missed = calc.run({free: n})["outputs"][output]["value"]
            assert (missed > y) if sense == "<=" else (missed < y)
    if sense == "=":
        assert _recovered(calc, {free: x}, free, x, y, output, answer["solutions"]), (
            x,
            [s["text"] for s in answer["solutions"]],
            answer["message"],
        )


# ----------------------------------------------------------------------------- messages, word for word

pytestmark_words = pytest.mark.usefixtures("no_clock")


def _message(key, raw, *question):
    """The answer, its texts with plain spaces (values carry no-break spaces, as on pages)."""
    return _plain(solve(CALCULATORS[key], raw, *question))


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value.replace("\u00a0", " ") if isinstance(value, str) else value


@pytestmark_words
def test_no_solution_says_the_range_the_output_reaches():
    answer = _message("35", {}, "s", "total", "<=", "100kB")
    assert answer["status"] == "none" and answer["solutions"] == []
    assert answer["message"] == "over s ≥ 1, KV cache size ranges from 327.7 kB to ∞; it never falls to 100 kB"
    assert answer["range"] == {"low": 327680.0, "high": math.inf, "low_text": "327.7 kB", "high_text": "∞"}
    answer = _message("46", {}, "k", "coverage", ">=", "1.5")
    assert answer["message"] == (
        "over k ≥ 1, coverage (at least one of k correct) ranges from 0.1 to 1; it never reaches 1.5"
    )


@pytestmark_words
def test_no_whole_number_gives_the_target_names_the_two_that_straddle_it():
    answer = _message("48", {"schedule": "linear"}, "t", "snr", "=", "1")
    assert answer["status"] == "none"
    assert answer["message"] == (
        "over t ≥ 1, signal-to-noise ratio ranges from 0 to 9,999; "
        "no whole t gives 1: t = 259 gives 1.001 and t = 260 gives 0.9905"
    )


@pytestmark_words
def test_several_solutions_are_all_reported_with_the_turn():
    answer = _message("geometric-series", {"T": 10}, "gamma", "fraction_reached", "=", "0.999")
    assert [s["text"] for s in answer["solutions"]] == ["-0.5", "0.5"]
    assert [t["text"] for t in answer["turns"]] == ["0"]
    assert answer["message"] == (
        "over -1 < gamma < 1, fraction of the limit reached after T terms ranges from 0 to 1; "
        "it is 0.999 at gamma = -0.5 and gamma = 0.5 (it turns at gamma = 0)"
    )
    # the roots as refined: |gamma| = 0.001^(1/10) = 0.501187
    assert [round(s["root"], 5) for s in answer["solutions"]] == [-0.50119, 0.50119]


@pytestmark_words
def test_an_inequality_met_between_two_boundaries():
    answer = _message("2", {}, "eta", "rate", "<=", "0.99")
    # max(|1 - 2 eta|, |1 - 200 eta|) <= 0.99: eta >= 0.01/2 and eta <= 1.99/200
    assert [(s["text"], s["side"]) for s in answer["solutions"]] == [("0.005", "above"), ("0.00995", "below")]
    assert answer["message"] == (
        "over eta > 0, per-step factor of the whole error (slowest axis) ranges from 0.9802 to ∞; "
        "it is at most 0.99 for 0.005 ≤ eta ≤ 0.00995 (it turns at eta = 0.0099)"
    )


@pytestmark_words
def test_a_whole_number_boundary_comes_with_the_neighbour_that_misses():
    answer = _message("35", {}, "s", "total", "<=", "80GB")
    [s] = answer["solutions"]
    assert (s["value"], s["text"], s["kind"], s["side"]) == (244140, "244,140", "integer", "below")
    assert s["neighbour"] == {
        "value": 244141,
        "text": "244,141",
        "shown": "244,141 tokens",
        "said": "244,141",
        "output_text": "80.0001 GB",
    }
    assert s["run"]["outputs"]["total"]["value"] == 327680 * 244140
    assert answer["message"] == (
        "over s ≥ 1, KV cache size ranges from 327.7 kB to ∞; "
        "it is at most 80 GB for s ≤ 244,140 (s = 244,141 gives 80.0001 GB)"
    )
    answer = _message("19", {}, "M", "bubble_percent", "<=", "8%")
    assert answer["message"] == (
        "over M ≥ 1, bubble as a percentage ranges from 0.0% to 87.5%; "
        "it is at most 8.0% for M ≥ 81 (M = 80 gives 8.05%)"
    )


@pytestmark_words
def test_a_target_met_everywhere_or_an_output_that_does_not_move():
    answer = _message("19", {}, "M", "bubble", "<=", "0.99")
    assert (answer["status"], answer["solutions"]) == ("solved", [])
    assert answer["message"] == (
        "over M ≥ 1, bubble fraction (idle share of the fleet) ranges from 0 to 7/8; it is at most 99/100 throughout"
    )
    answer = _message("25", {}, "q", "inflation", "=", "0.1")
    assert answer["message"] == (
        "over 0 ≤ q ≤ 1, overstatement of the clean accuracy is 0.1 throughout; it does not depend on q"
    )


def test_a_formula_slow_far_out_keeps_the_search_near_and_says_so():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solve_module, "SLOW", -1.0)  # every evaluation counts as slow: one step each way
        answer = _message("35", {}, "s", "total", "<=", "80GB")
    assert answer["cut"] and answer["evaluations"] == 2
    assert answer["message"] == (
        "over 2,154 ≤ s ≤ 4,096, KV cache size ranges from 705.8 MB to 1.342 GB; "
        "it is at most 80 GB throughout; the formula is slow beyond, so no further values were tried"
    )


def test_an_output_flat_where_a_search_cut_short_looked_is_not_said_to_be_independent():
    """Seen in WebKit on a loaded machine: the budget ran out after one value, and the answer said
    the output "does not depend on" the input from that one value."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solve_module, "SLOW", -1.0)  # every evaluation counts as slow: one step each way
        answer = _message("25", {}, "q", "inflation", "<=", "0.5")
    assert answer["cut"] and answer["status"] == "solved"
    assert "does not depend" not in answer["message"]
    assert answer["message"].endswith(
        "is 0.1 throughout; it is at most 0.5 throughout; the formula is slow beyond, so no further values were tried"
    )


@pytestmark_words
def test_a_pole_is_not_a_turn():
    # t = ln b / ln a jumps from −∞ to ∞ at a = 1
    answer = _message("logarithms", {}, "a", "t", "=", "3.322")
    assert answer["turns"] == [] and [s["text"] for s in answer["solutions"]] == ["2"]
    assert answer["message"] == "over a > 0, exponent solving a^t = b ranges from −∞ to ∞; it is 3.322 at a = 2"


@pytest.mark.parametrize(
    "key,question,name,message",
    [
        (
            "50",
            ("N", "total", "=", "1"),
            "solve",
            "N is a list input, and list inputs cannot be freed; solve for a real or whole-number input",
        ),
        (
            "48",
            ("schedule", "snr", "=", "1"),
            "solve",
            "schedule is a choice, and choices stay fixed; solve for a real or whole-number input",
        ),
        (
            "35",
            ("Q", "total", "=", "1"),
            "solve",
            "'Q' is not an input of entry 35; inputs: L, H_kv, d_head, s, B, beta, attention, d_c, d_R, window, L_local, t, budget",
        ),
        (
            "35",
            ("s", "nope", "=", "1"),
            "solve",
            "'nope' is not an output of entry 35; outputs: per_token, total, per_token_layer, window_tokens, full_total, per_device, B_fit",
        ),
        (
            "36",
            ("B", "matmul_compute_bound", "=", "1"),
            "solve",
            "matmul_compute_bound is not a number, so it cannot be solved for",
        ),
        ("6", ("L", "terms", "=", "1"), "solve", "terms is a list of numbers, so it cannot be solved for"),
        ("35", ("s", "total", "~", "1"), "solve", "sense '~' is not one of =, <=, >="),
        ("35", ("s", "total", "<=", "80 XB"), "total", "target: '80 XB' is not a number in B"),
        ("35", ("s", "total", "<=", "<img src=x>"), "total", "target: '<img src=x>' is not a number in B"),
    ],
)
def test_a_bad_question_is_refused_naming_what_is_wrong(key, question, name, message):
    with pytest.raises(DomainError) as caught:
        solve(CALCULATORS[key], {}, *question)
    assert (caught.value.name, caught.value.message) == (name, message)


def test_the_fixed_inputs_are_read_as_for_computing_and_the_freed_one_is_ignored():
    with pytest.raises(DomainError) as caught:
        solve(CALCULATORS["35"], {"L": "0"}, "s", "total", "<=", "80GB")
    assert caught.value.name == "L"
    answer = solve(CALCULATORS["35"], {"s": "not a number", "B": "2"}, "s", "total", "<=", "80GB")
    assert answer["solutions"][0]["value"] == 122070  # half as many tokens for two sequences


# ----------------------------------------------------------------------------- targets in the output's units


@pytest.mark.parametrize(
    "text,unit,value",
    [
        ("80 GB", "B", 80e9),
        ("80GB", "B", 80e9),
        ("80\u00a0GB", "B", 80e9),
        ("1.25 GiB", "B", 1.25 * 2**30),
        ("327.7 kB", "B", 327_700),
        ("70B", "B", 70),
        ("2 bytes", "B", 2),
        ("1e24", "FLOP", 1e24),
        ("5 PFLOP/s-days", "FLOP", 5e15 * 86_400),
        ("3 TFLOP/s", "FLOP/s", 3e12),
        ("70B tokens", "tokens", 70e9),
        ("1 token", "tokens", 1),
        ("8%", "", 0.08),
        ("0.98", "", 0.98),
        ("160G", "", 160e9),
        ("2 ms", "s", 0.002),
    ],
)
def test_targets_are_read_in_the_output_units(text, unit, value):
    assert float(units.read(text, unit)) == pytest.approx(value, rel=1e-15)


@pytest.mark.parametrize("text,unit", [("80 XB", "B"), ("GB", "B"), ("", "B"), ("eighty", ""), ("80 GB", "tokens")])
def test_a_target_that_is_no_value_in_the_unit_is_refused(text, unit):
    with pytest.raises(NumberError):
        units.read(text, unit)


def test_solved_values_are_written_as_readers_type_them():
    assert typed(244140, True) == "244,140"
    assert typed(2_000_000_000_000, True) == "2T"
    assert typed(2_380_952_380_952, True) == "2,380,952,380,952"
    assert typed(0.00991, False) == "0.00991"
    assert typed(1.4e12, False) == "1.4e12"
    assert typed(2.0, False) == "2"


# ----------------------------------------------------------------------------- the browser API


@pytestmark_words
def test_solve_json_answers_as_the_page_asks():
    entry = BY_KEY["35"]
    spec = {
        **entry.spec(),
        "meta": {
            "id": "35",
            "label": "Entry 35",
            "title": entry.title,
            "chapter": 11,
            "url": "https://example.org/35/",
            "version": "1",
            "date": "2026-01-01",
            "entry_version": 1,
            "release": 1,
        },
    }
    runtime_api.load(json.dumps(spec))
    question = {"input": "s", "output": "total", "sense": "<=", "target": "80GB"}
    reply = json.loads(runtime_api.solve_json("35", json.dumps({"B": "2"}), json.dumps(question), "2026-12-01"))
    assert reply["ok"]
    value = reply["value"]
    assert value["status"] == "solved" and value["range"]["high"] is None  # ∞ travels as null, its text says ∞
    first = value["solutions"][0]
    assert first["value"] == 122070 and first["run"]["inputs"]["B"] == 2
    assert first["run"]["share"]["query"] == "s=122070&B=2&version=1"  # no page link given: the solved value
    assert first["run"]["share"]["url"] == "https://example.org/35/?s=122070&B=2&version=1"
    # The page's link asks the question: the citation cites that link, and says what it answers.
    asked = json.loads(
        runtime_api.solve_json(
            "35", json.dumps({"B": "2"}), json.dumps(question), "2026-12-01", "", "solve=s&total%3C=80GB&B=2"
        )
    )["value"]["solutions"][0]["run"]["share"]
    assert asked["query"] == "solve=s&total%3C=80GB&B=2&version=1"
    assert asked["url"] == "https://example.org/35/?solve=s&total<=80GB&B=2&version=1"
    assert (
        "”, solved for s where KV cache size ≤ 80GB, computed with L = 80, H_kv = 8, d_head = 128, s = 122070, B = 2"
        in asked["text"]
    )
    assert "https://example.org/35/?solve=s&total<=80GB&B=2&version=1 (entry version" in asked["text"]
    assert "Solved for s where KV cache size ≤ 80GB. Inputs: " in asked["bibtex"]
    bad = json.loads(runtime_api.solve_json("35", json.dumps({"L": "0"}), json.dumps(question)))
    assert bad == {"ok": False, "errors": {"L": "'0' is out of range; expected a whole number in [1, ∞)"}}
    bad = json.loads(runtime_api.solve_json("35", "{}", json.dumps({**question, "input": "x"})))
    assert bad == {
        "ok": False,
        "errors": {
            "solve": "'x' is not an input of entry 35; inputs: L, H_kv, d_head, s, B, beta, attention, d_c, d_R, window, L_local, t, budget"
        },
    }


def test_a_solved_byte_input_is_shown_in_the_results_scale():
    """Freeing a byte-valued input (entry 35's free memory) answers 134.21772801 GB beside the
    results in GB, not 1.3421772801e11 B; the field still gets the value as typed, and a reader's
    GiB choice is followed."""
    answer = _message("35", {}, "budget", "B_fit", ">=", "100")
    [s] = answer["solutions"]
    assert (s["text"], s["shown"], s["said"]) == ("1.3421772801e11", "134.21772801 GB", "134.21772801 GB")
    assert answer["message"].endswith("for budget ≥ 134.21772801 GB")
    calc = CALCULATORS["35"]
    binary = solve(calc, {}, "budget", "B_fit", ">=", "100", {"bytes": "GiB"}, clock=False)
    assert binary["solutions"][0]["shown"] == "125.00000001\u00a0GiB"


def test_one_pause_of_a_busy_machine_does_not_cut_the_search(monkeypatch):
    """Seen on a loaded machine (the page's clock is the wall clock): one evaluation that took
    long because the machine paused cut the search short, and the answer changed with it."""
    calm = _message("35", {}, "s", "total", "<=", "80GB")
    ticks = iter(range(10**6))
    paused = {5}  # the end of the 3rd evaluation's first timing: the machine was busy then

    def clock():
        t = next(ticks)
        return t * 1e-6 + (1.0 if t in paused else 0.0)

    monkeypatch.setattr(solve_module.time, "process_time", clock)
    answer = _message("35", {}, "s", "total", "<=", "80GB")
    assert not answer["cut"]
    assert answer["message"] == calm["message"] and answer["evaluations"] == calm["evaluations"]
