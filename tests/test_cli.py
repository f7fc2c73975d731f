"""The command line, called as main([...])."""

from __future__ import annotations

import json

from site_builder.cli import main


def test_compute_json_prints_entry_inputs_and_outputs(capsys):
    assert main(["compute", "35", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["entry"] == 35
    assert out["inputs"] == {"L": 80, "H_kv": 8, "d_head": 128, "s": 4096, "B": 1, "beta": 2.0,
                             "attention": "gqa", "d_c": 512, "d_R": 64, "window": 0, "L_local": 0}
    assert out["outputs"]["total"] == 2 * 80 * 8 * 128 * 4096 * 1 * 2


def test_compute_takes_inputs_as_people_type_them(capsys):
    assert main(["compute", "35", "s=8k", "B=2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outputs"]["total"] == 2 * 80 * 8 * 128 * 8000 * 2 * 2


def test_compute_prints_a_readable_table(capsys):
    assert main(["compute", "35"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "Entry 35 · KV cache size"
    assert "1.342 GB" in out


def test_an_input_outside_its_domain_exits_2_naming_it(capsys):
    assert main(["compute", "35", "L=0"]) == 2
    assert capsys.readouterr().err.strip() == "entry 35: L: '0' is out of range; expected a whole number in [1, ∞)"


def test_unknown_inputs_and_entries_exit_2(capsys):
    assert main(["compute", "35", "Q=1"]) == 2
    assert "Q: is not an input of entry 35" in capsys.readouterr().err
    assert main(["compute", "99"]) == 2
    assert main(["compute", "35", "L"]) == 2


def test_check_reports_zero_errors(capsys):
    assert main(["check"]) == 0
    assert capsys.readouterr().out.startswith("0 errors: ")
