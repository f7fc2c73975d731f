"""The larger bank the benchmark builds (benchmarks/scaled_bank.py): a bank twice the size checks
as the bank does, every copy renamed where the bank holds names unique; and the report's rows."""

from __future__ import annotations

from benchmarks import scaled_bank, site_build
from site_builder import bank as pipeline
from site_builder.errors import Problems
from tests.support import ENTRIES


def test_a_bank_twice_the_size_checks_with_every_copy_renamed(tmp_path):
    made = scaled_bank.generate(tmp_path / "bank", 2)
    problems = Problems()
    checked = pipeline.gather(tmp_path / "bank", problems, steps=pipeline.CHECKS)  # the check but KaTeX
    assert not problems, problems.report()
    real = [p for p in ENTRIES.glob("*.yaml") if not p.name.startswith("_")]
    assert made == {"entries": 2 * len(real), "plans": 2 * len(list((ENTRIES / "plans").glob("*.yaml")))}
    assert len(checked.entries) == made["entries"] and len(checked.plans) == made["plans"]
    by_key = {e.key: e for e in checked.entries}
    assert {"35", "x2-35", "softmax", "x2-softmax"} <= set(by_key) and "x2train-plan" in checked.plans
    cases = [c.id for e in checked.entries for c in e.cases]
    assert len(cases) == len(set(cases)) and f"x2-{by_key['35'].cases[0].id}" in cases
    copy, original = by_key["x2-35"], by_key["35"]
    assert copy.formula == original.formula and copy.where.path.name == "toolkit-x2-35.yaml"
    assert checked.versions.current("x2-35") == checked.versions.current("35")
    assert all(s.entry_key.startswith("x2-") for s in checked.plans["x2train-plan"][0].steps)  # the copy's own
    assert all(str(f.entry).startswith("x2-") for e in checked.entries if e.key.startswith("x2-") for f in e.feeds)


def test_the_growth_rows_say_the_ratio_and_the_served_edit():
    summary = lambda s: {"median": s, "min": s, "max": s, "n": 3}  # noqa: E731
    found = {
        "factor": 10,
        "one": summary(1.0),
        "many": summary(8.0),
        "entries": 650,
        "plans": 20,
        "pages": 679,
        "load": (1.0, 2.0, 3.0),
    }
    served = {"ours": {"p50": 0.06, "p95": 0.12, "max": 0.2, "n": 30}, "edits": 30, "entries": 650, "load": (1, 1, 1)}
    targets, section = site_build.scaling_report(found, served)
    assert targets[0] == ("Full build of a bank 10× larger ≤ 10× the bank's", True, "8.0× (8.00 s against 1.00 s)")
    assert targets[1][1] is False and targets[1][2] == "p50 60 ms, p95 120 ms"
    text = "\n".join(section)
    assert text.startswith("## How cost grows") and "| 10× the bank | 8.00 s (8.00–8.00, n=3) | **8.0×** |" in text
    assert "1.0, 2.0, 3.0" in text
