"""Versions: every entry, preset and plan is versioned, and a change to what determines an entry's numbers
without a new version is refused (the exact message is the fixture
tests/bad_entries/formula-changed-without-a-new-version)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from site_builder.errors import Problems
from site_builder.load.load import load_all
from site_builder.load.presets import load_presets
from site_builder.load.versions import check_versions, fingerprint, load_versions
from tests.support import ENTRIES, TESTS

VERSIONED = TESTS / "versioned_entries"


def loaded(folder: Path):
    problems = Problems()
    presets = load_presets(folder, problems)
    entries = load_all(folder, problems)
    versions = load_versions(folder, entries, problems)
    assert not problems, problems.report()
    return entries, presets, versions


def gate(entries, presets, versions) -> list[str]:
    problems = Problems()
    check_versions(versions, entries, presets, problems)
    return [e.message for e in problems.sorted()]


def test_every_entry_and_preset_of_the_bank_has_a_version_matching_it():
    entries, presets, versions = loaded(ENTRIES)
    assert versions.path is not None and versions.release >= 1
    assert {e.key for e in entries} == set(versions.entries)
    assert {f"{k}/{p}" for k, by in presets.items() for p in by} == set(versions.presets)
    assert gate(entries, presets, versions) == []


def test_the_errata_on_entries_are_facts_of_their_first_version():
    entries, _, versions = loaded(ENTRIES)
    for entry in entries:
        with_errata = [c.id for c in entry.cases if any(k.erratum for k in c.checks)]
        assert list(versions.of(entry.key)[0].errata) == with_errata, entry.key


def test_a_changed_default_or_format_needs_a_new_version_and_a_label_does_not():
    entries, presets, versions = loaded(ENTRIES)
    e35 = next(e for e in entries if e.key == "35")
    others = [e for e in entries if e.key != "35"]
    beta = dataclasses.replace(e35.inputs[5], default=1)
    changed = dataclasses.replace(e35, inputs=(*e35.inputs[:5], beta, *e35.inputs[6:]))
    (message,) = gate([*others, changed], presets, versions)
    assert message.startswith("entry 35: its inputs changed since version 1 without a new version; add version 2")
    total = dataclasses.replace(e35.outputs[1], format="sig:3")
    (message,) = gate(
        [*others, dataclasses.replace(e35, outputs=(e35.outputs[0], total, *e35.outputs[2:]))], presets, versions
    )
    assert message.startswith("entry 35: its outputs changed since version 1")
    relabelled = dataclasses.replace(e35.outputs[1], label="The KV cache")
    assert (
        gate(
            [*others, dataclasses.replace(e35, outputs=(e35.outputs[0], relabelled, *e35.outputs[2:]))],
            presets,
            versions,
        )
        == []
    )


def test_a_superseded_version_keeps_a_spec_that_runs_and_matches_its_fingerprint():
    entries, presets, versions = loaded(VERSIONED)
    first, second = versions.of("1")
    assert first.spec is not None and fingerprint(first.spec) == first.fingerprint and second.spec is None
    spec = versions.spec("1")
    assert spec["current"] == 2 and spec["release"] == 2 and list(spec["older"]) == ["1"]
    assert [h["version"] for h in spec["history"]] == [1, 2]
    tampered = dataclasses.replace(first, spec={**first.spec, "formula": first.spec["formula"].replace("8", "7")})
    bad = dataclasses.replace(versions, entries={"1": (tampered, second)})
    (message,) = gate(entries, presets, bad)
    assert message.startswith("entries.1: version 1's spec is not the one fingerprinted {formula: 1351304b4197")
    broken = dataclasses.replace(first, spec={**first.spec, "formula": "def compute(N, D):\n    return {}\n"})
    (message,) = gate(entries, presets, dataclasses.replace(versions, entries={"1": (broken, second)}))
    assert message.startswith("entries.1: version 1's spec does not run: compute() returned []")
    dropped = dataclasses.replace(first, spec=None)
    (message,) = gate(entries, presets, dataclasses.replace(versions, entries={"1": (dropped, second)}))
    assert "version 1 is superseded and keeps no spec" in message


def test_a_changed_preset_needs_a_new_version():
    entries, presets, versions = loaded(ENTRIES)
    model = presets["model"]["llama-3-70b"]
    value = dataclasses.replace(model.values["layers"], value=81)
    presets["model"]["llama-3-70b"] = dataclasses.replace(model, values={**model.values, "layers": value})
    (message,) = gate(entries, presets, versions)
    assert message.startswith("preset model/llama-3-70b: its values changed since version 1 without a new version")


@pytest.mark.slow  # the bank's plans loaded again for each change: about 4 s
def test_every_plan_is_versioned_and_a_changed_default_needs_a_new_version_and_a_label_does_not():
    from site_builder import bank
    from site_builder.load.versions import flow, plan_fingerprint

    problems = Problems()
    checked = bank.gather(ENTRIES, problems, steps=bank.CHECKS)
    assert not problems, problems.report()
    entries, presets, versions, plans = checked.entries, checked.presets, checked.versions, checked.plans
    assert set(versions.plans) == set(plans) == {"serve-plan", "train-plan"}

    def plan_gate(changed_plans) -> list[str]:
        found = Problems()
        check_versions(versions, entries, presets, found, changed_plans)
        return [e.message for e in found.sorted()]

    assert plan_gate(plans) == []
    plan, calc = plans["serve-plan"]
    layers = dataclasses.replace(plan.inputs[0], default=40)
    changed = dataclasses.replace(plan, inputs=(layers, *plan.inputs[1:]))
    (message,) = plan_gate({**plans, "serve-plan": (changed, calc)})
    now = plan_fingerprint(changed, {e.key: e for e in entries})
    assert message == (
        "plan serve-plan: its inputs changed since version 2 without a new version; add version 3 to "
        f"_versions.yaml (date, what changed and why, the release) with fingerprint {flow(now)}"
    )
    relabelled = dataclasses.replace(plan.inputs[0], label="Transformer layers")
    assert (
        plan_gate({**plans, "serve-plan": (dataclasses.replace(plan, inputs=(relabelled, *plan.inputs[1:])), calc)})
        == []
    )
