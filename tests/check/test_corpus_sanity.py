"""The corpus as data: complete, placed where the bank says, and honest about its sources.

tests/data/ holds the facts checked against: the bank's own list (derivation-bank.txt)
and every worked number of the seed texts (worked-numbers.yaml).
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
import yaml

from tests.support import TESTS, load_bank

DATA = TESTS / "data"
ENTRIES, _ = load_bank()
BANK = [e for e in ENTRIES if e.in_bank]
WORKED = yaml.safe_load((DATA / "worked-numbers.yaml").read_text())["cases"]
CASES = {c.id: (e, c) for e in ENTRIES for c in e.cases}


def bank_list() -> dict[int, dict]:
    """Entry number -> chapter, part and protocol mark, read from the bank itself."""
    found, part = {}, None
    for line in (DATA / "derivation-bank.txt").read_text().splitlines():
        heading = re.match(r"Part (I{1,3}) ·", line.strip())
        if heading:
            part = heading.group(1)
        m = re.match(r"\s*\d+\. (\d+)(.*) Ch\. (\d+)$", line)
        if m and part:
            found[int(m.group(1))] = {
                "chapter": int(m.group(3)),
                "part": part,
                "protocol": m.group(2).rstrip().endswith("protocol"),
            }
    return found


def test_the_bank_has_all_fifty_entries_once():
    assert sorted(e.id for e in BANK) == list(range(1, 51))


@pytest.mark.parametrize("entry", BANK, ids=[e.test_id for e in BANK])
def test_chapter_part_and_protocol_match_the_bank(entry):
    listed = bank_list()[entry.id]
    assert (entry.chapter, entry.part, entry.protocol) == (listed["chapter"], listed["part"], listed["protocol"])


def test_every_worked_number_of_the_seeds_is_a_case_exactly_once():
    ids = Counter(c.id for e in ENTRIES for c in e.cases)
    missing = [w["id"] for w in WORKED if w["id"] not in ids]
    assert not missing, missing
    assert len(WORKED) == 113


@pytest.mark.parametrize("worked", WORKED, ids=[w["id"] for w in WORKED])
def test_each_book_case_sits_with_an_entry_it_exercises(worked):
    entry, case = CASES[worked["id"]]
    assert case.origin == "book" and case.source
    if worked["entries"]:
        assert entry.in_bank and entry.id in worked["entries"]
    else:
        assert not entry.in_bank, "Chapter 1-2 material that fits no bank entry belongs to the toolkit"
    if worked.get("agrees") is False:  # the erratum may sit in a case split off this one
        family = [c for e in ENTRIES for c in e.cases if c.id == case.id or c.id.startswith(case.id + "-")]
        assert any(ch.erratum for c in family for ch in c.checks), (
            "the book's own rounding is off here: record the erratum"
        )


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.test_id for e in ENTRIES])
def test_every_entry_has_at_least_two_cases(entry):
    assert len(entry.cases) >= 2
    for case in entry.cases:
        if case.origin == "derived":
            assert len(case.note) > 20, f"{case.id}: write out the hand-checked arithmetic"
        elif case.origin == "published":  # a paper's figure: cited, and read in a note
            assert case.citation and len(case.note) > 20, f"{case.id}: cite the figure and say how it is read"
        else:
            worked = {w["id"] for w in WORKED}
            assert case.id in worked or any(case.id.startswith(w + "-") for w in worked), (
                f"{case.id}: a book case keeps its worked-numbers id (or extends it when one printed case needs two runs)"
            )


def test_case_ids_are_unique_and_descriptive():
    ids = [c.id for e in ENTRIES for c in e.cases]
    assert len(ids) == len(set(ids))
    assert all(len(i) >= 6 for i in ids)


def test_entries_relate_in_both_directions_only_to_existing_entries():
    keys = {e.key for e in ENTRIES}
    for e in ENTRIES:
        assert all(str(r) in keys and str(r) != e.key for r in e.related), e.key
