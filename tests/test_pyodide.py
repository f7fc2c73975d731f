"""Parity: real Pyodide (Node running the npm package) computes what CPython computes, on every case.

Pyodide boots from the start-up stdlib that pages boot from, so this also proves that
those precompiled modules are enough for every formula and every allowed import.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest

from site_builder import stdlib
from site_builder.runtime.calculator import ALLOWED_IMPORTS, run_json
from site_builder.runtime import calculator as runtime_calculator
from tests.conftest import load_bank

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = ROOT / "site_builder" / "runtime"


def _runs(entries):
    for entry in entries:
        runs = [{"key": f"{entry.test_id}::defaults", "raw": {}}]
        runs += [{"key": f"{entry.test_id}::{c.id}", "raw": c.inputs} for c in entry.cases]
        yield entry, runs


@pytest.fixture(scope="module")
def pyodide_results(tmp_path_factory):
    if shutil.which("node") is None or not (ROOT / "node_modules" / "pyodide").is_dir():
        pytest.fail("parity needs Node.js and `npm ci` (the pyodide npm package)")
    startup = tmp_path_factory.mktemp("stdlib") / "startup.zip"
    startup.write_bytes(stdlib.startup_zip())
    payload = {
        "runtime": {p.name: p.read_text() for p in RUNTIME.glob("*.py")},
        "stdlib": str(startup),
        "allowed": sorted(ALLOWED_IMPORTS),
        "entries": [{"spec": e.spec(), "runs": runs} for e, runs in _runs(ENTRIES)],
    }
    proc = subprocess.run(["node", str(ROOT / "tests" / "pyodide_runner.mjs")], input=json.dumps(payload),
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _same(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is b
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-300)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def test_every_allowed_import_works_from_the_startup_stdlib(pyodide_results):
    assert pyodide_results["imports"] == {name: "ok" for name in sorted(ALLOWED_IMPORTS)}


def test_pyodide_is_a_different_python(pyodide_results):
    import sys
    assert pyodide_results["python"].startswith("3.")
    assert pyodide_results["python"] != sys.version.split()[0], "parity must compare two interpreters"


ENTRIES, _ = load_bank()
RUNS = [(entry, run) for entry, runs in _runs(ENTRIES) for run in runs]


@pytest.mark.parametrize("entry,run", RUNS, ids=[run["key"] for _, run in RUNS])
def test_cpython_and_pyodide_agree(entry, run, pyodide_results):
    runtime_calculator.load(json.dumps(entry.spec()))
    cpython = json.loads(run_json(entry.key, json.dumps(run["raw"])))
    pyodide = pyodide_results["results"][run["key"]]
    assert cpython["ok"] and pyodide["ok"], (cpython, pyodide)
    for name, out in cpython["value"]["outputs"].items():
        theirs = pyodide["value"]["outputs"][name]
        assert out["text"] == theirs["text"], name
        assert _same(out["value"], theirs["value"]), (name, out, theirs)
