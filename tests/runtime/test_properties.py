"""Hostile readers, by property: every entry, with inputs drawn from their declared domains.

In-domain inputs compute finite results, or are refused with a domain error that names one
of the inputs (a combination the statement does not cover); never another exception, NaN or
infinity, unless the entry lists the output in `may_be_infinite` and says why in its notes.
Out-of-domain inputs are always refused, naming the input.  Magnitudes are explored from
1e-12 to 1e15, the scale of every quantity in the book (tokens, FLOPs, bytes, probabilities).
"""

from __future__ import annotations

import math
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.runtime.domain import DomainError
from tests.support import load_bank

ENTRIES, CALCULATORS = load_bank()
# Deterministic by default, so a run never fails by chance; PROPERTY_EXAMPLES=2000 explores widely.
EXAMPLES = int(os.environ.get("PROPERTY_EXAMPLES", "60"))
DERANDOMIZE = "PROPERTY_EXAMPLES" not in os.environ
CAP = 1e15
TINY = 1e-12
LIST_CAP = 12


def _bounds(d, integer: bool):
    i = d.interval
    lo = max(i.lo, -CAP)
    hi = min(i.hi, CAP)
    if lo == 0 and not i.lo_closed:
        lo = TINY
    if integer:
        lo = math.ceil(lo) + (1 if not i.lo_closed and lo == i.lo and float(lo).is_integer() else 0)
        hi = math.floor(hi) - (1 if not i.hi_closed and hi == i.hi and float(hi).is_integer() else 0)
    return lo, hi


def _scalar(d, integer: bool):
    lo, hi = _bounds(d, integer)
    if integer:
        return st.integers(min_value=int(lo), max_value=int(min(hi, lo + 10**6 if hi - lo > 10**9 else hi)))
    tiny_free = st.floats(
        min_value=lo,
        max_value=hi,
        exclude_min=not d.interval.lo_closed and lo == d.interval.lo,
        exclude_max=not d.interval.hi_closed and hi == d.interval.hi,
        allow_nan=False,
        allow_infinity=False,
        allow_subnormal=False,
    )
    return tiny_free.filter(lambda x: x == 0 or abs(x) >= TINY)


def in_domain(calc):
    fields = {}
    for d in calc.domains:
        if d.kind == "choice":
            fields[d.name] = st.sampled_from(list(d.choices))
        elif d.kind == "list":
            n_lo = max(1, math.ceil(d.length.lo))
            n_hi = int(min(d.length.hi, LIST_CAP, n_lo + LIST_CAP))
            element = _scalar(d, d.integer_elements)
            lists = st.lists(element, min_size=n_lo, max_size=max(n_lo, n_hi))
            if d.total is not None:
                lists = st.lists(
                    st.floats(min_value=0.001, max_value=1), min_size=max(n_lo, 1), max_size=max(n_lo, n_hi)
                ).map(
                    lambda xs, t=d.total: (
                        [x * t / math.fsum(xs) for x in xs[:-1]]
                        + [t - math.fsum(x * t / math.fsum(xs) for x in xs[:-1])]
                    )
                )
            fields[d.name] = lists
        else:
            fields[d.name] = _scalar(d, d.kind == "integer")
    return st.fixed_dictionaries(fields)


def _finite(value) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True


@pytest.mark.slow  # random inputs for every entry: about 10 s
@pytest.mark.parametrize("entry", ENTRIES, ids=[e.test_id for e in ENTRIES])
def test_in_domain_inputs_compute_or_are_refused_naming_an_input(entry):
    calc = CALCULATORS[entry.key]
    allowed_infinite = set(entry.may_be_infinite)

    @settings(
        max_examples=EXAMPLES,
        derandomize=DERANDOMIZE,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(in_domain(calc))
    def check(raw):
        try:
            result = calc.run(raw)
        except DomainError as exc:
            assert exc.name in calc.defaults, f"refused without naming an input: {exc}"
            return
        for name, out in result["outputs"].items():
            assert name in allowed_infinite or _finite(out["value"]), f"{name} = {out['value']!r} for {raw}"

    check()


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.test_id for e in ENTRIES])
def test_out_of_domain_inputs_are_refused_naming_the_input(entry):
    calc = CALCULATORS[entry.key]
    for d in calc.domains:
        bad = ["", "abc", "1e400", "<script>", "nan", "inf"]
        if d.kind in ("real", "integer", "list"):
            if math.isfinite(d.interval.lo):
                bad.append(str(d.interval.lo - 1))
            if math.isfinite(d.interval.hi):
                bad.append(str(d.interval.hi + 1))
        if d.kind == "integer":
            bad.append("1.5")
        if d.kind == "choice":
            bad = ["<script>", "not-a-choice"]
        for value in bad:
            with pytest.raises(DomainError) as caught:
                calc.run({d.name: value})
            assert caught.value.name == d.name, (value, str(caught.value))
