"""Every case of every entry, in CPython, against the printed values at the printed precision."""

from __future__ import annotations

import pytest

from site_builder.check import tolerance
from site_builder.check.check import reproduce
from tests.support import load_bank

ENTRIES, CALCULATORS = load_bank()
CASES = [(e, c) for e in ENTRIES for c in e.cases]


@pytest.mark.parametrize("entry,case", CASES, ids=[f"{e.test_id}::{c.id}" for e, c in CASES])
def test_case_reproduces_the_book(entry, case):
    # A forward case runs its inputs; an inverse case (solve:) solves for its freed input.
    pairs = reproduce(CALCULATORS[entry.key], case)
    misses = [m for m in (tolerance.verify(ch, actual) for ch, actual in pairs) if m]
    assert not misses, "\n".join(misses)
    for check, actual in pairs:
        if check.erratum:
            assert tolerance.book_disagrees(check, actual), (
                f"{check.output}: erratum recorded, but the printed {check.printed!r} is right"
            )


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.test_id for e in ENTRIES])
def test_defaults_compute(entry):
    result = CALCULATORS[entry.key].run({})
    assert set(result["outputs"]) == {o.name for o in entry.outputs}
