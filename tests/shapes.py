"""The entry shapes the browser tests drive: one entry of every shape the bank has, not every entry.

How a page lays out, reads aloud and recomputes depends on its shape (list inputs and outputs,
choices, charts, feeds, presets, a solve question, the toolkit, the most inputs, the longest
case), not on its numbers.  So the browser tests that once loaded every page load these; every
page still goes through the checks that need no browser (tests/pages/test_pages.py, the HTML validator
in tests/ship/test_integrity.py, and every case in CPython and in Pyodide).

The sample is computed from the bank, so a new shape is covered the day it appears."""

from __future__ import annotations

from tests.support import load_bank


def _list_output(entry, calculators) -> bool:
    outputs = calculators[entry.key].run({})["outputs"]
    return any(isinstance(o["value"], (list, tuple)) for o in outputs.values())


# A shape: what the page shows that another entry's page may not.
TRAITS = {
    "a list input": lambda e, c: any(i.type == "list" for i in e.inputs),
    "a list output": _list_output,
    "a choice": lambda e, c: any(i.type == "choice" for i in e.inputs),
    "charts": lambda e, c: bool(e.plots),
    "no chart": lambda e, c: not e.plots,
    "feeds": lambda e, c: bool(e.feeds),
    "presets": lambda e, c: bool(e.fill),
    "a solve question": lambda e, c: e.question is not None,
    "no solve question": lambda e, c: e.question is None,
    "a toolkit page": lambda e, c: not e.in_bank,
    "a protocol": lambda e, c: e.protocol,
    "an output that may be infinite": lambda e, c: bool(e.may_be_infinite),
    "several headlines": lambda e, c: len(e.headlines) > 1,
}


def _longest_case_input(entry) -> int:
    return max((len(str(v)) for case in entry.cases for v in case.inputs.values()), default=0)


# The extremes, where a layout breaks first.
EXTREMES = {
    "the most inputs": lambda e: len(e.inputs),
    "the most outputs": lambda e: len(e.outputs),
    "the longest statement": lambda e: len(e.statement),
    "the longest case input": _longest_case_input,
}

# Entries other browser tests name by number, shapes of their own: 35's memory bill, 40's
# speculative decoding (a list output and charts), 46's vote (lists and choices), 1's training cost.
NAMED = ("1", "35", "40", "46")


def sample(entries, calculators) -> tuple[list, dict]:
    """(the entries, {shape: key of the entry that has it}): the extremes, the named entries, then
    for every trait still uncovered the first entry in bank order that has it."""
    chosen, why = [], {}

    def take(entry, reason):
        if entry not in chosen:
            chosen.append(entry)
        why[reason] = entry.key

    for reason, size in EXTREMES.items():
        take(max(entries, key=size), reason)
    by_key = {e.key: e for e in entries}
    for key in NAMED:
        take(by_key[key], f"named: entry {key}")
    for trait, has in TRAITS.items():
        owner = next((e for e in chosen if has(e, calculators)), None)
        owner = owner or next((e for e in entries if has(e, calculators)), None)
        if owner is not None:
            take(owner, trait)
    order = {e.key: n for n, e in enumerate(entries)}
    return sorted(chosen, key=lambda e: order[e.key]), why


ENTRIES, CALCULATORS = load_bank()
SHAPES, WHY = sample(ENTRIES, CALCULATORS)
SHAPE_URLS = [e.url for e in SHAPES]
