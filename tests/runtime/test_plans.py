"""Plans: loaded and checked like entries (exact messages), computed by one runtime that runs
the bank's own entries, linked to each entry with its inputs, asked backwards by the entries'
solver, and on the command line."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from site_builder.check.check import check_entry
from site_builder.check.plan_check import load_plans
from site_builder.cli import main
from site_builder.errors import Problems, shown
from site_builder.load.fill import filled
from site_builder.load.load import load_all
from site_builder.load.presets import load_presets
from site_builder.runtime.calculator import Calculator
from site_builder.runtime.plan import PlanCalculator
from site_builder.runtime.solve import solve
from tests.support import ENTRIES, TESTS, load_bank

HERE = TESTS / "bad_plans"
FIXTURES = sorted(p for p in HERE.iterdir() if p.is_dir() and not p.name.startswith("_"))


def _report(folder: Path) -> str:
    problems = Problems()
    entries = load_all(HERE / "_bank", problems)
    calculators = {e.key: c for e in entries if (c := check_entry(e, problems)) is not None}
    assert not problems, problems.report()
    load_plans(folder, entries, calculators, {}, problems)
    return problems.report().replace(shown(folder), "{here}") + "\n" if problems else ""


@pytest.mark.parametrize("folder", FIXTURES, ids=[p.name for p in FIXTURES])
def test_bad_plan_reports_exactly(folder):
    assert _report(folder) == (folder / "expected.txt").read_text()


def test_a_good_toy_plan_has_no_problem(tmp_path):
    good = (FIXTURES[0] / "plans" / "toy-plan.yaml").read_text().replace('printed: "10"', 'printed: "9"')
    (tmp_path / "plans").mkdir()
    (tmp_path / "plans" / "toy-plan.yaml").write_text(good)
    assert _report(tmp_path) == ""


@cache
def _bank():
    problems = Problems()
    entries, calculators = load_bank()  # the session's checked bank
    presets = load_presets(ENTRIES, problems)
    plans = load_plans(ENTRIES, entries, calculators, presets, problems)
    assert not problems, problems.report()
    return {e.key: e for e in entries}, calculators, presets, plans


PLAN_IDS = sorted(p.stem for p in (ENTRIES / "plans").glob("*.yaml"))


def test_the_banks_plans_load_and_check():
    plans = _bank()[3]
    assert sorted(plans) == PLAN_IDS
    assert {"train-plan", "serve-plan"} <= set(plans)


@pytest.mark.parametrize("plan_id", PLAN_IDS)
def test_every_figure_is_its_entrys_output_for_the_bound_inputs(plan_id):
    """Each step, run alone through its entry's own calculator with the inputs the plan bound,
    gives the outputs the plan reports: the plan computes nothing itself."""
    entries, calculators, presets, plans = _bank()
    plan, calc = plans[plan_id]
    for raw in ({}, filled(plan, presets["model"]["llama-3-70b"]) if plan.fill else {}):
        result = calc.run(raw)
        for step_id, step in result["steps"].items():
            alone = Calculator(entries[step["entry"]].spec())
            # The link's query is all the entry page reads: run the entry from it.
            query = dict(parse_qsl(urlsplit(step["href"]).query))
            assert urlsplit(step["href"]).path == entries[step["entry"]].url
            again = {k: v["value"] for k, v in alone.run(query)["outputs"].items()}
            for name, value in step["outputs"].items():
                if isinstance(value, float):
                    assert again[name] == pytest.approx(value, rel=1e-12), (step_id, name)
                else:
                    assert again[name] == value, (step_id, name)
        for answer in plan.answers:
            assert result["outputs"][answer.name]["value"] == result["steps"][answer.step]["outputs"][answer.output]


def test_a_bad_input_is_named_by_the_plan_input_bound_to_it():
    plan, calc = _bank()[3]["train-plan"]
    with pytest.raises(Exception) as caught:
        calc.run({"t": "0"})
    assert caught.value.name == "t"
    with pytest.raises(Exception) as caught:
        calc.run({"nonesuch": "1"})
    assert caught.value.name == "nonesuch"


def test_the_plan_is_asked_backwards_with_the_entries_solver():
    plan, calc = _bank()[3]["train-plan"]
    result = solve(calc, {}, "b", "memory_device", "<=", "80GB")
    assert result["status"] == "solved"
    best = result["solutions"][0]
    assert best["kind"] == "integer"
    fits = calc.run({"b": best["value"]})["outputs"]["memory_device"]["value"]
    misses = calc.run({"b": best["neighbour"]["value"]})["outputs"]["memory_device"]["value"]
    assert fits <= 80e9 < misses


def test_the_runtime_reads_the_spec_as_the_browser_gets_it():
    """The plan's spec is JSON (what the page carries); a calculator built from it alone, with
    fresh entry calculators, computes what the checked one does."""
    plan, calc = _bank()[3]["train-plan"]
    alone = PlanCalculator(json.loads(json.dumps(calc.spec)))
    assert alone.run({"b": 2})["outputs"] == calc.run({"b": 2})["outputs"]


def test_compute_train_plan_json(capsys):
    code = main(["compute", "train-plan", "--model", "llama-3-70b", "--hardware", "h100-sxm", "b=2", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["plan"] == "train-plan"
    assert out["presets"] == {"model": "llama-3-70b", "hardware": "h100-sxm"}
    assert (
        out["inputs"]["L"] == 80 and out["inputs"]["b"] == 2 and out["inputs"]["memory"] == 80 * 2**30
    )  # the H100's 80 GiB as built
    assert out["outputs"]["params"] == 70_553_706_496  # the architecture's count: entry 16 with RMSNorm gains
    assert out["steps"]["memory"]["href"].startswith("/20/?")


def test_compute_plan_errors_exit_2(capsys):
    assert main(["compute", "nonesuch-plan"]) == 2
    assert capsys.readouterr().err.startswith("no plan 'nonesuch-plan'; plans: ")
    assert main(["compute", "train-plan", "t=0"]) == 2
    assert capsys.readouterr().err.strip().startswith("train-plan: t: ")
    assert main(["compute", "train-plan", "--model", "nonesuch"]) == 2
    assert "no model preset of that name fills plan train-plan" in capsys.readouterr().err
