"""Published figures as cases: cited, filled from presets through each entry's fill mapping; the plans' published cases quote their sources too."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from site_builder.check.plan_check import load_plans
from site_builder.errors import Problems
from site_builder.load import fill as F
from site_builder.load import presets as P
from tests.support import ENTRIES, load_bank

BANK, _ = load_bank()
PUBLISHED = [(e, c) for e in BANK for c in e.cases if c.origin == "published"]
PRESETS = P.load_presets(Path(ENTRIES), Problems())


def test_at_least_forty_published_figures_over_fifteen_entries():
    assert len(PUBLISHED) >= 40
    assert len({e.key for e, _ in PUBLISHED}) >= 15


def test_every_published_case_cites_where_its_figure_is_printed():
    for entry, case in PUBLISHED:
        cite = case.citation or {}
        assert cite.get("title") and cite.get("where"), (entry.key, case.id)
        assert cite.get("url", "").startswith("https://"), (entry.key, case.id)


def test_a_case_takes_the_presets_values_and_its_own_inputs_override_them():
    entry = next(e for e in BANK if e.key == "1")
    case = next(c for c in entry.cases if c.id == "pub-gpt-3-175b-training-compute")
    filled = F.filled(entry, PRESETS["model"]["gpt-3-175b"])
    assert case.inputs["N"] == filled["N"] == "174604259328"  # the architecture's count fills N
    assert case.inputs["D"] == filled["D"] == "300B"  # the preset's tokens fill D
    entry = next(e for e in BANK if e.key == "43")
    case = next(c for c in entry.cases if c.id == "pub-lora-gpt-3-frozen-weights-350gb")
    assert F.filled(entry, PRESETS["model"]["gpt-3-175b"])["N"] == "174604259328"
    assert case.inputs["N"] == "175B"  # the case's own N (the paper's) wins


def test_every_named_preset_exists_and_fills_its_entry():
    for entry, case in PUBLISHED:
        for kind, pid in (case.preset or {}).items():
            preset = PRESETS[kind].get(pid)
            assert preset is not None, (case.id, kind, pid)
            assert F.offers(entry, preset), (case.id, pid)
            for name, _text in F.filled(entry, preset).items():
                if name not in case.inputs:
                    raise AssertionError(f"{case.id}: {name} from {pid} did not reach the inputs")


@cache
def _plans():
    problems = Problems()
    plans = load_plans(Path(ENTRIES), *load_bank(), PRESETS, problems)
    assert not problems, problems.report()
    return {pid: plan for pid, (plan, _calc) in plans.items()}


def test_both_plans_are_checked_against_published_statements():
    plans = _plans()
    for pid in ("train-plan", "serve-plan"):
        assert any(c.origin == "published" for c in plans[pid].cases), pid


def test_every_published_plan_case_quotes_its_source_and_explains_itself():
    for pid, plan in _plans().items():
        for case in plan.cases:
            if case.origin != "published":
                continue
            cite = case.citation or {}
            assert cite.get("title") and cite.get("where"), (pid, case.id)
            assert cite.get("url", "").startswith("https://"), (pid, case.id)
            assert case.quote.strip() and case.note.strip(), (pid, case.id)
            for kind, preset_id in (case.preset or {}).items():
                assert preset_id in PRESETS[kind], (pid, case.id, kind, preset_id)
