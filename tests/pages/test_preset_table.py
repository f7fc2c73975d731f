"""The build-time table across every preset ("Every model", "Every accelerator"): one JSON file
beside each page that takes a preset, each value the one the bank's own run gives for that
preset with the entry's defaults otherwise, written as the page writes it; presets that do not
fill the entry say why."""

from __future__ import annotations

import json

import pytest

import derivation_bank as bank_api
from site_builder.cli import main
from site_builder.errors import Problems
from site_builder.load.presets import load_presets
from site_builder.pages import preset_table
from tests.support import ENTRIES, load_bank


@pytest.fixture(scope="module")
def loaded():
    entries, calculators = load_bank()
    problems = Problems()
    presets = load_presets(ENTRIES, problems)
    assert not problems, problems.report()
    return {e.key: e for e in entries}, calculators, presets


def table(loaded, key, kind):
    entries, calculators, presets = loaded
    files = preset_table.files(entries[key], calculators[key], presets)
    return json.loads(files[f"{key}/every-{kind}.json"])


def test_every_entry_that_takes_a_preset_gets_one_file_per_kind_and_no_other_does(loaded):
    entries, calculators, presets = loaded
    made = {}
    for key, entry in entries.items():
        made.update(preset_table.files(entry, calculators[key], presets))
    assert "35/every-model.json" in made and "37/every-hardware.json" in made
    assert "35/every-hardware.json" not in made  # 35 takes no accelerator
    takes = {k for k, e in entries.items() if e.fill}
    assert {path.split("/")[0] for path in made} == takes
    for path, data in made.items():
        kind = path.split("every-")[1].removesuffix(".json")
        assert len(json.loads(data)["rows"]) == len(presets[kind])  # every preset of the kind, none left out


def test_the_headline_comes_first_and_lists_are_left_out(loaded):
    data = table(loaded, "35", "model")
    assert data["label"] == "model"
    assert [c["name"] for c in data["columns"]][:2] == ["total", "per_token"]
    assert data["columns"][0]["label"] == "KV cache size"
    assert len(data["columns"]) == preset_table.COLUMNS
    for column in table(loaded, "1", "model")["columns"]:
        assert not isinstance(bank_api.entry(1).run()[column["name"]].value, list)


@pytest.mark.parametrize(("key", "kind"), [("35", "model"), ("37", "model"), ("37", "hardware"), ("41", "model")])
def test_each_value_is_what_the_bank_computes_for_that_preset(loaded, key, kind):
    data = table(loaded, key, kind)
    computed = 0
    for row in data["rows"]:
        if "why" in row:
            continue
        result = bank_api.entry(int(key)).run(**{kind: row["id"]})
        for column in data["columns"]:
            cell = row["values"][column["name"]]
            assert cell["value"] == result[column["name"]].value, (row["id"], column["name"])
            assert cell["text"].replace("\u00a0", " ") == str(result[column["name"]]), (row["id"], column["name"])
        computed += 1
    assert computed >= 12


def test_a_value_equals_the_compute_command(loaded, capsys):
    data = table(loaded, "37", "hardware")
    row = next(r for r in data["rows"] if r["id"] == "h100-sxm")
    assert main(["compute", "37", "--hardware", "h100-sxm", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for column in data["columns"]:
        assert row["values"][column["name"]]["value"] == out["outputs"][column["name"]], column["name"]
    # The H100 SXM's 3.35 TB/s over the default model's 140 GB of weights: 23.9 tokens/s.
    assert row["values"]["ceiling"]["text"] == "23.9\u00a0tokens/s"


def test_a_preset_that_does_not_fill_the_entry_says_what_it_lacks(loaded):
    rows = {r["id"]: r for r in table(loaded, "41", "model")["rows"]}
    assert rows["bert-base"] == {
        "id": "bert-base",
        "name": "BERT-Base",
        "family": "BERT",
        "why": "does not fill this entry: it lacks experts, experts_active",
    }
    assert "values" in rows["mixtral-8x7b"]


def test_a_preset_the_entry_rejects_is_a_row_with_the_reason(loaded):
    entries, calculators, presets = loaded
    entry, calc = entries["35"], calculators["35"]

    class Refusing:
        """The calculator, but the formula refuses every preset's values as a domain error would."""

        def run(self, raw):
            if raw:
                from site_builder.runtime.domain import DomainError

                raise DomainError("L", "must be at most 4")
            return calc.run(raw)

        remembered = run  # the table reads the run the check made

    row = preset_table.row(entry, Refusing(), presets["model"]["llama-3-70b"], preset_table.columns(entry, calc))
    assert row["why"] == "not computed: L: must be at most 4"
