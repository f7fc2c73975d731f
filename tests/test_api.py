"""The bank from Python (site_builder.api, imported as derivation_bank): typed results with units,
the command's messages as typed errors, docs/python.md and README's Python block run as written."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys

import pytest

import derivation_bank as bank
from site_builder.cli import main
from tests.support import ROOT


def test_run_gives_quantities_that_carry_their_unit_and_the_page_text():
    kv = bank.entry(35).run(L=80)
    assert kv.total.value == 2 * 80 * 8 * 128 * 4096 * 2
    assert (kv.total.unit, str(kv.total), kv.total.text) == ("B", "1.342 GB", "1.342\u00a0GB")
    assert kv["total"] is kv.total and float(kv.total) == kv.total.value
    assert kv.inputs["L"] == 80 and kv.inputs["attention"] == "gqa"
    with pytest.raises(AttributeError, match="'nope' is not an output of entry 35; outputs: per_token, total"):
        _ = kv.nope


def test_inputs_are_read_as_the_command_reads_them():
    one = bank.entry(1)
    assert one.run(N="70B").inputs["N"] == one.run(N=70e9).inputs["N"] == one.run(N="7e10").inputs["N"]
    assert bank.entry(35).run(s="8k").inputs["s"] == 8000
    assert bank.entry(35).run(s="2^17").inputs["s"] == 131072


def test_the_api_and_the_command_give_the_same_numbers(capsys):
    assert main(["compute", "37", "--model", "llama-3-70b", "--hardware", "h100-sxm", "--json"]) == 0
    printed = __import__("json").loads(capsys.readouterr().out)
    r = bank.entry(37).run(model="llama-3-70b", hardware="h100-sxm")
    assert {k: q.value for k, q in r.outputs.items()} == printed["outputs"]
    assert [f.preset.id for f in r.presets] == ["llama-3-70b", "h100-sxm"]
    assert all(f.sources for f in r.presets)


def test_a_result_is_a_table_in_plain_text_and_in_html():
    r = bank.entry(35).run(s=4096)
    lines = repr(r).splitlines()
    assert lines[0] == "Entry 35 · KV cache size"
    assert [" ".join(line.split()) for line in lines[1:3]] == [
        "Cache per token (all layers) 327.7 kB",
        "KV cache size 1.342 GB",
    ]
    page = r._repr_html_()
    assert page.startswith("<table><caption>Entry 35 · KV cache size</caption>")
    assert "<tr><td>KV cache size</td><td>1.342\u00a0GB</td><td>B</td></tr>" in page


def test_html_escapes_what_it_shows():
    from site_builder.api import _table_html

    assert _table_html("<x>", ("a&b",), [("<script>",)]) == (
        "<table><caption>&lt;x&gt;</caption><thead><tr><th>a&amp;b</th></tr></thead>"
        "<tbody><tr><td>&lt;script&gt;</td></tr></tbody></table>"
    )
    assert bank.entry(35).solve("total<=80GB", free="s")._repr_html_().startswith("<p>over s ≥ 1")


@pytest.mark.parametrize(
    ("call", "kind", "message"),
    [
        (
            lambda: bank.entry(35).run(L=0),
            bank.InputError,
            "entry 35: L: '0' is out of range; expected a whole number in [1, ∞)",
        ),
        (
            lambda: bank.entry(35).run(Q=1),
            bank.InputError,
            "entry 35: Q: is not an input of entry 35; inputs: L, H_kv, d_head, s, B, beta, attention, d_c, d_R, window, L_local, t, budget",
        ),
        (lambda: bank.entry(99), bank.UnknownEntry, "no entry '99': expected a bank number 1-50 or a toolkit id"),
        (
            lambda: bank.entry(35).run(hardware="h100-sxm"),
            bank.UnknownPreset,
            "hardware 'h100-sxm': no hardware preset of that name fills Entry 35; Entry 35 has no hardware fill mapping",
        ),
        (
            lambda: bank.entry(35).solve("total<=80GB", free="Q"),
            bank.InputError,
            "entry 35: solve: 'Q' is not an input of entry 35; inputs: L, H_kv, d_head, s, B, beta, attention, d_c, d_R, window, L_local, t, budget",
        ),
        (
            lambda: bank.entry(35).solve("bytes<=80GB", free="s"),
            bank.InputError,
            "solve s: give one target, output=value, output<=value or output>=value (outputs: per_token, total, per_token_layer, window_tokens, full_total, per_device, B_fit)",
        ),
        (
            lambda: bank.entry(35).solve("total<=80 XB", free="s"),
            bank.InputError,
            "entry 35: total: target: '80 XB' is not a number in B",
        ),
        (lambda: bank.presets("chip"), bank.InputError, "no preset kind 'chip'; kinds: model, hardware"),
        (
            lambda: bank.entry(35).sweep("Q", 1, 2),
            bank.InputError,
            "entry 35: Q: is not an input of entry 35; inputs: L, H_kv, d_head, s, B, beta, attention, d_c, d_R, window, L_local, t, budget",
        ),
        (
            lambda: bank.entry(35).sweep("s", 0, 2),
            bank.InputError,
            "entry 35: s: '0' is out of range; expected a whole number in [1, ∞)",
        ),
    ],
)
def test_errors_are_typed_and_say_what_the_command_says(call, kind, message):
    with pytest.raises(kind) as caught:
        call()
    assert str(caught.value) == message
    assert isinstance(caught.value, bank.BankError)


def test_an_unknown_preset_lists_the_ones_that_fill_the_entry():
    with pytest.raises(bank.UnknownPreset) as caught:
        bank.entry(35).run(model="<llama>")
    text = str(caught.value)
    assert text.startswith("model '<llama>': no model preset of that name fills Entry 35; these do:\n")
    assert "  llama-3-70b " in text


def test_solve_gives_the_solution_and_the_outputs_there():
    answer = bank.entry(19).solve("bubble_percent<=8%", free="M")
    assert answer and answer.status == "solved"
    assert answer.value.value == 81 and answer.results[0].bubble.value == 7 / 88
    none = bank.entry(35).solve("total<=100kB", free="s")
    assert not none and none.values == ()
    with pytest.raises(bank.BankError, match=re.escape("entry 35: no solution: over s ≥ 1")):
        _ = none.value


def test_sweep_gives_the_points_of_the_pages_chart():
    calc = bank.entry(35).calculator
    page = calc.sweep({}, calc.plots[0])  # the chart the page draws, at the defaults
    w = bank.entry(35).sweep("s", 512, 131072, outputs=["total"])
    assert list(w.xs) == page["x"] and list(w["total"]) == page["y"]["total"]
    assert w.header() == ["s", "total (B)"]
    lines = w.to_csv().splitlines()
    assert lines[0] == "s,total (B)" and len(lines) == len(page["x"]) + 1
    assert lines[1] == f"512,{float(page['y']['total'][0])!r}"


def test_presets_list_and_know_their_ids():
    models = bank.presets("model")
    assert "llama-3-70b" in models and "h100-sxm" not in models
    assert "h100-sxm" in bank.presets("hardware")
    assert repr(models).splitlines()[0].split()[0] == models[0].id
    assert models._repr_html_().startswith("<table><caption>model presets</caption>")


@pytest.mark.slow  # docs/python.md's examples, solves included: about 2 s
def test_docs_python_md_runs_as_written():
    failed, attempted = doctest.testfile(
        str(ROOT / "docs" / "python.md"), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert attempted > 20 and failed == 0


def test_readme_python_block_runs_as_written(tmp_path):
    blocks = re.findall(r"^```python\n(.*?)^```", (ROOT / "README.md").read_text(), re.M | re.S)
    assert len(blocks) == 1
    script = tmp_path / "readme.py"
    script.write_text(blocks[0])
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    expected = [line.split("# ", 1)[1].strip() for line in blocks[0].splitlines() if line.startswith("print(")]
    assert done.stdout.splitlines() == expected


def test_the_pages_python_call_is_literal_and_runs():
    from site_builder.runtime.api import python_call

    calc = bank.entry(35).calculator
    hostile = "');__import__('os').system('x');('"
    code = python_call(calc, [["model", "llama-3-70b"], ["s", hostile], ["units", "bytes:auto"], ["zz", "1"]])
    assert code == (f"import derivation_bank as bank\n\nbank.entry(35).run(model='llama-3-70b', s={hostile!r})\n")
    *setup, call = code.strip().splitlines()
    scope: dict = {}
    exec("\n".join(setup), scope)
    with pytest.raises(bank.InputError, match=r"^entry 35: s: "):
        eval(call, scope)  # the hostile value arrives as a string, and is refused as an input
    asked = python_call(calc, [["solve", "s"], ["s", "9"], ["total<", "80GB"], ["L", "40"]])
    assert asked.splitlines()[-1] == "bank.entry(35).solve('total<=80GB', free='s', L='40')"
    scope = {}
    exec(asked.splitlines()[0], scope)
    assert eval(asked.splitlines()[-1], scope).value.value == 488281


@pytest.mark.slow  # every plan figure and question: about 4 s
def test_a_plan_runs_and_solves_as_its_page_does_each_figure_an_entrys_output():
    from site_builder import bank as pipeline
    from site_builder.errors import Problems
    from tests.support import ENTRIES

    problems = Problems()
    _, calc = pipeline.gather(ENTRIES, problems, steps=pipeline.CHECKS).plans["serve-plan"]
    serve = bank.plan("serve")
    assert bank.plan("serve-plan") is serve and serve.entries_used() == ["16", "20", "35", "40", "36"]
    raw = {"B": "4", "k": "4"}
    run = serve.run(**raw)
    page = calc.run(raw)["outputs"]
    assert {name: q.text for name, q in run.outputs.items()} == {name: out["text"] for name, out in page.items()}
    filled = serve.run(model="llama-3-70b", hardware="h100-sxm")
    assert [f.preset.id for f in filled.presets] == ["llama-3-70b", "h100-sxm"] and filled.inputs["L"] == 80
    answer = serve.solve("memory_device<=80GB", "B", model="llama-3-70b", hardware="h100-sxm")
    assert answer and answer.value.value == 66
    assert filled.raw["outputs"]["memory_device"]["step"] in {s["id"] for s in calc.steps}
    with pytest.raises(bank.UnknownPlan, match="no plan 'nope'; plans: serve, train"):
        bank.plan("nope")
    with pytest.raises(bank.InputError, match="B"):
        serve.run(B="0")
    with pytest.raises(bank.BankError, match="a plan has no sweep"):
        serve.sweep("B", 1, 8)
