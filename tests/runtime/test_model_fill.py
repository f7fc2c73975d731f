"""Filling an entry from a model takes the architecture's counts and the model's variants:
every parameter count is the one count, choices follow the model and say why, and lists that
depend on a filled count follow it."""

from __future__ import annotations

import json

import pytest

from site_builder.cli import main
from site_builder.errors import Problems
from site_builder.load import fill as F
from site_builder.load import presets as P
from site_builder.runtime.calculator import Calculator
from tests.support import ENTRIES, load_bank


@pytest.fixture(scope="module")
def bank():
    entries, _ = load_bank()
    problems = Problems()
    presets = P.load_presets(ENTRIES, problems)
    assert not problems, problems.report()
    return {e.key: e for e in entries}, presets["model"]


def run(entry, preset, **given):
    inputs = {**F.filled(entry, preset), **given}
    return Calculator(entry.spec()).run(inputs)["outputs"]


def test_every_parameter_count_a_model_fills_is_the_architecture_count(bank):
    entries, _ = bank
    takers = [
        e for e in entries.values() for f in e.fill if f.kind == "model" and f.field in ("params", "params_active")
    ]
    assert not takers, f"fill these from params_counted, the architecture's count: {[e.key for e in takers]}"
    counted = {e.key for e in entries.values() for f in e.fill if f.field == "params_counted"}
    assert {"1", "18", "20", "21", "23", "36", "37", "41", "43", "50"} <= counted


def test_mixtral_in_entry_41_selects_the_architecture_sizing_and_gives_its_published_active_count(bank):
    entries, models = bank
    entry, mixtral = entries["41"], models["mixtral-8x7b"]
    filled = F.filled(entry, mixtral)
    assert filled["sizing"] == "layers"
    assert filled["f"] == filled["P"] == ", ".join(["1/8"] * 8)
    out = run(entry, mixtral)
    assert out["active"]["value"] == mixtral.get("params_active_counted") == 12_879_925_248
    assert round(out["active"]["value"] / 1e8) / 10 == 12.9  # the announcement's 12.9B
    assert len(out["loads"]["value"]) == 8


def test_deepseek_v2_in_entry_41_counts_shared_experts_and_dense_layers(bank):
    entries, models = bank
    out = run(entries["41"], models["deepseek-v2"])
    assert out["active"]["value"] == models["deepseek-v2"].get("params_active_counted")


def test_deepseek_v2_in_entry_35_uses_mla(bank):
    entries, models = bank
    entry, v2 = entries["35"], models["deepseek-v2"]
    assert F.filled(entry, v2)["attention"] == "mla"
    out = run(entry, v2, s="1")
    assert out["total"]["value"] == v2.get("kv_per_token") * 2  # bf16 elements, as the entry's default bytes


@pytest.mark.parametrize("pid", ["gpt-2-small", "gpt-2-xl", "llama-2-7b", "llama-3-8b", "mistral-7b", "opt-13b"])
def test_entry_16_from_a_model_its_variants_cover_counts_the_architecture(bank, pid):
    entries, models = bank
    out = run(entries["16"], models[pid])
    assert out["model_total"]["value"] == models[pid].get("params_counted")


def test_compute_says_which_variant_a_model_selected_and_why(capsys):
    assert main(["compute", "41", "--model", "mixtral-8x7b"]) == 0
    out = capsys.readouterr().out
    assert "  sizing = layers: Mixtral 8x7B selects it, because the model gives each expert's width" in out
    assert "  N = 46702792704: counted from the architecture" in out
    assert main(["compute", "35", "--model", "deepseek-v2"]) == 0
    assert (
        "  attention = mla: DeepSeek-V2 selects it, as its attention (DeepSeek-V2: A Strong" in capsys.readouterr().out
    )


def test_the_page_marks_a_filled_variant_with_its_reason(bank):
    entries, _ = bank
    spec = F.spec(entries["41"], P.load_presets(ENTRIES, Problems()))
    mixtral = next(p for p in spec["model"] if p["id"] == "mixtral-8x7b")
    text, _, how = mixtral["values"]["sizing"]
    assert text == "layers" and how.startswith("moe_sizing = the model gives each expert's width")
    assert mixtral["values"]["N"][2] == "params_counted = counted from the architecture"


def test_the_book_defaults_stay_when_no_model_is_chosen(bank):
    entries, _ = bank
    spec = entries["41"].spec()
    defaults = {i["name"]: i["default"] for i in spec["inputs"]}
    assert defaults["sizing"] == "share" and str(defaults["N"]) in ("140B", "140000000000")
    assert json.dumps(defaults["f"]).count("1/64") == 64


def test_entry_35_caches_what_the_architecture_counts_for_every_decoder_only_model(bank):
    entries, models = bank
    entry = entries["35"]
    for preset in models.values():
        if preset.has("encoder_layers") or not F.offers(entry, preset):
            continue
        out = run(entry, preset, beta="1", s="1")
        assert out["per_token"]["value"] == preset.get("kv_per_token"), preset.id


def test_entry_16_from_any_model_counts_the_architecture_or_says_where_it_departs(bank):
    """Entry 16's block is the book's, with named variants; a model with parts beyond them (an
    encoder, MLA, relative positions, ...) is still offered, and the fill says both counts."""
    entries, models = bank
    entry = entries["16"]
    calc = Calculator(entry.spec())
    offered = [p for p in models.values() if F.offers(entry, p)]
    assert len(offered) == len(models)
    for preset in offered:
        out = calc.run(F.filled(entry, preset))["outputs"]
        total, active = out["model_total"]["value"], out["active_total"]["value"]
        agrees = (
            total == preset.get("params_counted")
            and active == preset.values.get("params_active_counted", preset.values["params_counted"]).value
        )
        said = F.departures(entry, preset, calc)
        assert bool(said) != agrees, (preset.id, said)
        if said:
            assert f"whole model {total:,} against {preset.get('params_counted'):,}" in said or (
                total == preset.get("params_counted")
            ), said


def test_a_departure_names_the_parts_beyond_the_block(bank):
    entries, models = bank
    entry = entries["16"]
    t5 = F.departures(entry, models["t5-11b"])
    assert t5 == (
        "This entry's count differs from the architecture count of T5-11B: whole model 9,696,674,816 against"
        " 11,307,321,344 (\u221214%). Beyond this entry's block: an encoder of 24 layers, with the decoder's"
        " cross-attention; relative-position weights. Entries that take a parameter count use the architecture's."
    )
    v2 = F.departures(entry, models["deepseek-v2"])
    assert "whole model, parameters used per token 29,724,472,320 against 21,375,800,320 (+39%)" in v2
    assert "multi-head latent attention's low-rank projections; 2 shared experts; 1 dense feed-forward layer" in v2
    assert F.departures(entry, models["llama-2-7b"]) == ""
    assert F.departures(entries["35"], models["t5-11b"]) == ""  # no output of 35 is a parameter count


def test_the_page_the_table_and_compute_say_the_departure(bank, capsys):
    from site_builder.pages.preset_table import table

    entries, models = bank
    presets = P.load_presets(ENTRIES, Problems())
    spec = F.spec(entries["16"], presets)
    said = {p["id"]: p.get("departs", "") for p in spec["model"]}
    assert said["t5-11b"] == F.departures(entries["16"], models["t5-11b"]) and said["llama-2-7b"] == ""
    rows = {r["id"]: r for r in table(entries["16"], Calculator(entries["16"].spec()), presets, "model")["rows"]}
    assert rows["t5-11b"]["departs"] == said["t5-11b"] and "departs" not in rows["llama-2-7b"]
    assert main(["compute", "16", "--model", "t5-11b"]) == 0
    assert f"  note: {said['t5-11b']}" in capsys.readouterr().out
    assert main(["compute", "16", "--model", "t5-11b", "L=24"]) == 0  # another value: no longer the model's count
    assert "note:" not in capsys.readouterr().out


def test_entry_1_takes_attentions_widths_from_the_architecture_mla_included(bank):
    """Entry 1's attention-FLOPs variants read the layers, context and widths a model fills: for
    DeepSeek-V2's latent attention H (d_h + d_h^R) = 24,576 and H d_h = 16,384, as its help says."""
    entries, models = bank
    entry = entries["1"]
    v2 = F.filled(entry, models["deepseek-v2"])
    assert (v2["n_layer"], v2["n_ctx"], v2["d_attn"], v2["d_v"], v2["n_heads"]) == (
        "60",
        "131072",
        "24576",
        "16384",
        "128",
    )
    llama = F.filled(entry, models["llama-2-7b"])
    assert (llama["d_attn"], llama["d_v"]) == ("4096", "4096")
    kaplan = run(entry, models["llama-2-7b"], attention="kaplan")["attention_flops_per_token"]["value"]
    assert kaplan == 6 * 32 * 4096 * 4096  # 6 n_layer n_ctx d_attn, Kaplan et al.


@pytest.mark.slow  # both plans from every model: about 3 s
def test_a_plan_filled_from_a_model_beyond_entry_16s_block_says_so(capsys):
    """The plans price weights by entry 16's block: a model beyond it is said, on the command
    line (preset or config.json) and on the plan page."""
    assert main(["compute", "train-plan", "--model", "t5-11b"]) == 0
    out = capsys.readouterr().out
    assert "  note: Entry 16's count differs from the architecture count of T5-11B: whole model" in out
    assert "This plan's figures take entry 16's count." in out
    assert main(["compute", "train-plan", "--model", "llama-2-7b"]) == 0
    assert "note:" not in capsys.readouterr().out
    config = str(ENTRIES.parent / "tests" / "data" / "configs" / "deepseek-v2-lite.json")
    assert main(["compute", "serve-plan", "--config", config]) == 0
    out = capsys.readouterr().out
    assert "  from DeepseekV2ForCausalLM: L=27, d=2048" in out and "multi-head latent attention" in out
    assert main(["compute", "serve-plan", "--config", config, "--model", "llama-2-7b"]) == 2
    assert capsys.readouterr().err == "--config and --model both name the model: give one\n"
