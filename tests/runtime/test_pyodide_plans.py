"""Parity for plans: real Pyodide (Node running the npm package) computes every plan case, the
defaults and the plans' questions asked backwards exactly as CPython does, through the same
runtime (runtime/plan.py) booted as pages boot it."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from site_builder.errors import Problems
from site_builder.load.fill import filled
from site_builder.load.presets import load_presets
from site_builder.runtime import plan as runtime_plan
from site_builder.runtime.calculator import ALLOWED_IMPORTS
from site_builder.ship import stdlib
from tests.runtime.test_plans import _bank
from tests.runtime.test_pyodide import WAYS, _same_data
from tests.support import ENTRIES, ROOT

pytestmark = pytest.mark.node  # Pyodide runs in Node

# The questions the issue asks of a plan backwards: the largest micro-batch that fits, the
# fewest devices that finish by a deadline, the MFU a run's device-hours imply; the longest
# context at a batch, the batch for a tokens-per-second target.
ASKED = {
    "train-plan": [
        ({}, {"input": "b", "output": "memory_device", "sense": "<=", "target": "80GB"}),
        ({"D": "15T"}, {"input": "dp", "output": "train_days", "sense": "<=", "target": "90"}),
        ({}, {"input": "mfu", "output": "device_hours", "sense": "=", "target": "5M"}),
    ],
    "serve-plan": [
        ({"B": 8}, {"input": "s", "output": "memory_device", "sense": "<=", "target": "80GB"}),
        ({}, {"input": "B", "output": "tokens_per_s_replica", "sense": ">=", "target": "2000"}),
    ],
}


def _plan_payload():
    presets = load_presets(ENTRIES, Problems())
    plans = _bank()[3]
    items = []
    for plan_id, (plan, calc) in sorted(plans.items()):
        runs = [{"key": f"{plan.test_id}::defaults", "raw": {}}]
        runs += [{"key": f"{plan.test_id}::{c.id}", "raw": c.inputs} for c in plan.cases]
        runs += [
            {"key": f"{plan.test_id}::preset-{model}", "raw": filled(plan, presets["model"][model])}
            for model in ("llama-3-8b", "mixtral-8x7b", "deepseek-v2")
        ]
        solves = [
            {"key": f"{plan.test_id}::{c.id}", "raw": c.inputs, "question": c.inverse} for c in plan.cases if c.solve
        ]
        solves += [
            {"key": f"{plan.test_id}::asked-{k}", "raw": raw, "question": q}
            for k, (raw, q) in enumerate(ASKED[plan_id])
        ]
        items.append({"spec": calc.spec, "runs": runs, "solves": solves})
    return items


PLANS = _plan_payload()


@pytest.fixture(scope="module")
def pyodide_plans(tmp_path_factory):
    if shutil.which("node") is None or not (ROOT / "node_modules" / "pyodide").is_dir():
        pytest.fail("parity needs Node.js and `npm ci` (the pyodide npm package)")
    startup = tmp_path_factory.mktemp("stdlib") / "startup.zip"
    zip_bytes, snapshot, _ = stdlib.startup_files()
    startup.write_bytes(zip_bytes)
    payload = {
        "stdlib": str(startup),
        "snapshot": str(snapshot),
        "allowed": sorted(ALLOWED_IMPORTS),
        "entries": [],
        "plans": PLANS,
    }
    proc = subprocess.run(
        ["node", str(ROOT / "tests" / "pyodide_runner.mjs")],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


RUNS = [(item["spec"], run) for item in PLANS for run in item["runs"]]
SOLVES = [(item["spec"], q) for item in PLANS for q in item["solves"]]


@pytest.mark.parametrize("spec,run", RUNS, ids=[run["key"] for _, run in RUNS])
def test_cpython_and_pyodide_compute_a_plan_alike(spec, run, pyodide_plans):
    runtime_plan.load(json.dumps(spec))
    cpython = json.loads(runtime_plan.run_json(spec["id"], json.dumps(run["raw"])))
    assert cpython["ok"], cpython
    for way in WAYS:
        theirs = pyodide_plans[way]["results"][run["key"]]
        assert theirs["ok"], (way, theirs)
        assert _same_data(cpython["value"], theirs["value"]), way


@pytest.mark.parametrize("spec,question", SOLVES, ids=[q["key"] for _, q in SOLVES])
def test_cpython_and_pyodide_ask_a_plan_backwards_alike(spec, question, pyodide_plans):
    runtime_plan.load(json.dumps(spec))
    cpython = json.loads(
        runtime_plan.solve_json(spec["id"], json.dumps(question["raw"]), json.dumps(question["question"]))
    )
    assert cpython["ok"], cpython
    assert cpython["value"]["status"] == "solved", cpython["value"]["message"]
    for way in WAYS:
        theirs = pyodide_plans[way]["solves"][question["key"]]
        assert theirs["ok"], (way, theirs)
        if cpython["value"]["cut"] or theirs["value"]["cut"]:
            continue  # where a search cut short stopped depends on the clock
        assert cpython["value"]["message"] == theirs["value"]["message"], way
        assert _same_data(cpython["value"], theirs["value"]), way
