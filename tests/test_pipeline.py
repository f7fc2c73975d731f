"""The pipeline is written once (bank.STEPS): the full build and serve's rebuild of an edited
entry run the same steps in the same order and refuse the same mistakes, and every inverse
case is solved once per build, not once by the check and again by the page's results."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder import bank
from site_builder.check import check as check_module
from site_builder.check import plan_check, timelimit
from site_builder.errors import BuildFailed, Problems
from site_builder.load.load import load_chapters, load_synthesis
from site_builder.load.presets import load_presets
from site_builder.pages.results import results
from site_builder.runtime import solve as solve_module
from site_builder.serve.incremental import Site
from site_builder.tex.math import Typeset
from tests.support import ENTRIES

FIXTURES = sorted(p for p in (Path(__file__).parent / "bad_entries").iterdir() if p.is_dir())


def _recording(monkeypatch) -> list[str]:
    """bank.STEPS, each step noted as it runs; typesetting (a KaTeX run in Node) only noted."""
    ran: list[str] = []

    def noted(name, step):
        def run(draft, problems):
            ran.append(name)
            if name != "typeset":
                step(draft, problems)

        return name, run

    monkeypatch.setattr(bank, "STEPS", tuple(noted(name, step) for name, step in bank.STEPS))
    return ran


@pytest.mark.slow  # the whole bank gathered twice: about 3 s
def test_serve_rebuilds_an_edit_through_the_builds_own_steps(monkeypatch):
    ran = _recording(monkeypatch)
    checked = bank.gather(ENTRIES, Problems())
    built = list(ran)
    assert built == [name for name, _ in bank.STEPS] and len(built) == len(set(built))
    ran.clear()
    site = Site(ENTRIES, Path("unused"))
    site.checked = checked
    kv = next(e for e in checked.entries if e.key == "35")
    rebuilt, first, _css = site._checked({kv.where.path.resolve()})
    assert ran == built
    assert first == "35" and [e.key for e in rebuilt.entries] == [e.key for e in checked.entries]


def _bank_of(folder: Path) -> bank.Bank:
    """A last good bank with no entries but the folder's presets, prompts and chapters: serve's
    state before the folder's entry files are saved into it one by one."""
    draft = bank.Draft(folder)
    bank._load(draft, Problems())
    return bank.Bank([], {}, Typeset(), "", draft.prompts, draft.intro, draft.presets, draft.chapters)


@pytest.mark.parametrize("folder", [f for f in FIXTURES if not f.name.startswith("tex-")], ids=lambda p: p.name)
def test_serve_refuses_what_the_build_refuses(folder, monkeypatch):
    """Every mistake of tests/bad_entries (but TeX, which needs KaTeX): saving the fixture's files
    into serve is refused with the very messages the build gives."""
    _recording(monkeypatch)
    # A formula that never returns is cut by the time limit, in the build and again in serve:
    # a shorter one for both (the fixtures' formulas take microseconds), and the same message.
    monkeypatch.setattr(check_module, "time_limit", lambda: timelimit.time_limit(0.5))
    built = Problems()
    bank.gather(folder, built)
    assert built, "a bad entry fixture that the build accepts"
    site = Site(folder, Path("unused"))
    site.checked = _bank_of(folder)
    paths = {p.resolve() for p in folder.glob("*.yaml") if not p.name.startswith("_")}
    try:
        site._checked(paths)
        refused = []  # the entry files are good: the mistake is in a file serve builds in full
    except BuildFailed as exc:
        refused = exc.problems.items
    # the problems of the presets, synthesis and chapters files: serve builds in full when one is saved
    served = Problems()
    load_presets(folder, served)
    load_synthesis(folder, served)
    load_chapters(folder, served)
    served.items += refused
    assert sorted(map(str, served.sorted())) == sorted(map(str, built.sorted()))


@pytest.mark.slow  # the whole bank gathered: about 2 s
def test_every_inverse_case_is_solved_once_per_build(monkeypatch):
    calls = []
    answer = solve_module.Problem.answer  # what every solve.solve call runs, whoever calls it
    monkeypatch.setattr(solve_module.Problem, "answer", lambda self: calls.append(self) or answer(self))
    # A build as the first in its process: no calculator or plan kept from an earlier one.
    monkeypatch.setattr(check_module, "_MADE", {})
    monkeypatch.setattr(plan_check, "_PASSED", {})
    problems = Problems()
    checked = bank.gather(ENTRIES, problems, steps=bank.CHECKS)
    assert not problems
    inverse = [(e, c) for e in checked.entries for c in e.cases if c.inverse]
    # two cases of one entry that ask the very same question share its answer
    questions = {(e.key, repr(sorted(c.inputs.items())), repr(sorted(c.inverse.items()))) for e, c in inverse}
    # a plan's cases asked backwards are solved once each too, by the same solver
    asked_plans = sum(1 for plan, _ in checked.plans.values() for c in plan.cases if getattr(c, "inverse", None))
    assert len(inverse) >= 5 and len(calls) == len(questions) + asked_plans
    for entry in {e.key: e for e, _ in inverse}.values():
        results(entry, checked.calculators[entry.key])
    assert len(calls) == len(questions) + asked_plans, "the page's case rows solved an inverse case again"
