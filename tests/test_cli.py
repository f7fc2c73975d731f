"""The command line, called as main([...])."""

from __future__ import annotations

import json

import pytest

from site_builder.cli import main


def test_compute_json_prints_entry_inputs_and_outputs(capsys):
    assert main(["compute", "35", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["entry"] == 35
    assert out["inputs"] == {
        "L": 80,
        "H_kv": 8,
        "d_head": 128,
        "s": 4096,
        "B": 1,
        "beta": 2.0,
        "attention": "gqa",
        "d_c": 512,
        "d_R": 64,
        "window": 0,
        "L_local": 0,
        "t": 1,
        "budget": 0.0,
    }
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


@pytest.mark.node
def test_check_reports_zero_errors(capsys):
    assert main(["check"]) == 0
    assert capsys.readouterr().out.startswith("0 errors: ")


def test_solve_prints_the_solution_and_the_outputs_there(capsys):
    assert main(["compute", "35", "total<=80GB", "--solve", "s"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Entry 35 · KV cache size"
    assert lines[1] == "  KV cache size ≤ 80 GB, solved for s:"
    assert lines[2] == (
        "  over s ≥ 1, KV cache size ranges from 327.7 kB to ∞; it is at most 80 GB for s ≤ 244,140 "
        "(s = 244,141 gives 80.0001 GB)"
    )
    assert "  at s = 244,140:" in lines
    assert "    KV cache size                                   80 GB" in lines


def test_solve_json_gives_the_whole_number_and_its_neighbour(capsys):
    assert main(["compute", "19", "bubble_percent<=8%", "--solve", "M", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["input"], out["output"], out["sense"], out["target"], out["status"]) == (
        "M",
        "bubble_percent",
        "<=",
        0.08,
        "solved",
    )
    [solution] = out["solutions"]
    # 7/(M + 7) <= 0.08 first holds at M = 81 (7/88 = 0.0795); M = 80 gives 7/87 = 0.0805
    assert (solution["value"], solution["neighbour"], solution["kind"]) == (81, 80, "integer")
    assert solution["outputs"]["bubble"] == 7 / 88
    assert solution["inputs"]["P"] == 8


def test_solve_keeps_the_other_inputs_as_given(capsys):
    assert main(["compute", "1", "C_train=1e24", "N=70B", "--solve", "D", "--json"]) == 0
    [solution] = json.loads(capsys.readouterr().out)["solutions"]
    assert solution["value"] == 2_380_952_380_952  # 10^24 / (6 x 70e9) = 2,380,952,380,952.4
    assert solution["inputs"]["N"] == 70_000_000_000


def test_solve_without_a_solution_exits_2_with_the_range(capsys):
    assert main(["compute", "35", "total<=100kB", "--solve", "s"]) == 2
    assert capsys.readouterr().err.strip() == (
        "entry 35: no solution: over s ≥ 1, KV cache size ranges from 327.7 kB to ∞; it never falls to 100 kB"
    )
    assert main(["compute", "35", "total<=100kB", "--solve", "s", "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "none" and out["solutions"] == [] and out["range"] == [327680.0, None]


def test_solve_rejects_a_bad_question_with_status_2(capsys):
    assert main(["compute", "35", "total<=80GB", "--solve", "Q"]) == 2
    assert (
        capsys.readouterr().err.strip()
        == "entry 35: solve: 'Q' is not an input of entry 35; inputs: L, H_kv, d_head, s, B, beta, attention, d_c, d_R, window, L_local, t, budget"
    )
    assert main(["compute", "35", "--solve", "s"]) == 2
    assert capsys.readouterr().err.strip() == (
        "--solve s: give one target, output=value, output<=value or output>=value (outputs: per_token, total, per_token_layer, window_tokens, full_total, per_device, B_fit)"
    )
    assert main(["compute", "35", "total<=80 XB", "--solve", "s"]) == 2
    assert capsys.readouterr().err.strip() == "entry 35: total: target: '80 XB' is not a number in B"


def test_compute_fills_inputs_from_a_model_and_the_given_ones_win(capsys):
    assert main(["compute", "35", "--model", "llama-3-70b", "s=32k", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["presets"] == {"model": "llama-3-70b"}
    assert out["inputs"] == {
        "L": 80,
        "H_kv": 8,
        "d_head": 128,
        "s": 32000,
        "B": 1,
        "beta": 2.0,
        "attention": "gqa",
        "d_c": 512,
        "d_R": 64,
        "window": 0,
        "L_local": 0,
        "t": 1,
        "budget": 0.0,
    }
    assert out["outputs"]["total"] == 2 * 80 * 8 * 128 * 32000 * 2


def test_compute_from_a_model_and_an_accelerator_says_where_each_constant_came_from(capsys):
    assert main(["compute", "37", "--model", "llama-3-70b", "--hardware", "h100-sxm"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # N is the count of the architecture (entries/presets, docs/models.md), not the card's rounded 70B.
    assert lines[1].startswith("  from Llama 3 70B: N=70553706496, beta=2, L=80, H=64, Q=128 (The Llama 3 Herd")
    assert lines[2] == "  N = 70553706496: counted from the architecture"
    assert lines[3].startswith(
        "  from NVIDIA H100 SXM: bandwidth=3.35T, peak_flops=989.4T (NVIDIA H100 Tensor Core GPU datasheet"
    )
    assert any(line.split() == ["Decode", "ceiling", "(batch", "1)", "23.7", "tokens/s"] for line in lines)


def test_model_list_names_the_presets_that_fill_the_entry(capsys):
    assert main(["compute", "37", "--hardware", "list"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("hardware presets that fill Entry 37:\n")
    assert "  h100-sxm " in out and "  tpu-v5p " in out


def test_an_unknown_preset_exits_2_listing_the_ones_that_fill_the_entry(capsys):
    assert main(["compute", "35", "--model", "<llama>"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("--model '<llama>': no model preset of that name fills Entry 35; these do:\n")
    assert "  llama-3-70b " in err
    assert main(["compute", "35", "--hardware", "h100-sxm"]) == 2  # a preset that exists but cannot fill 35
    assert (
        capsys.readouterr().err.strip()
        == "--hardware 'h100-sxm': no hardware preset of that name fills Entry 35; Entry 35 has no hardware fill mapping"
    )


def test_an_unknown_option_is_still_an_error(capsys):
    import pytest

    with pytest.raises(SystemExit):
        main(["compute", "35", "--bogus"])
    assert "unrecognized arguments: --bogus" in capsys.readouterr().err


def test_compute_reads_context_lengths_powers_and_lists_as_readers_write_them(capsys):
    assert main(["compute", "35", "s=32K", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["inputs"]["s"] == 32000
    assert "note: s: 32K read as 32,000 (K = 10³); for 32,768 write s=32Ki" in captured.err
    assert main(["compute", "35", "s=2^17", "B=1 000", "--json"]) == 0
    inputs = json.loads(capsys.readouterr().out)["inputs"]
    assert (inputs["s"], inputs["B"]) == (131072, 1000)
    assert main(["compute", "38", "z=5,100,7", "v=1,2,3", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["inputs"]["z"] == [5.0, 100.0, 7.0]
    assert "commas separate the numbers, never thousands" in captured.err
    assert main(["compute", "38", "z=1000,1001,999,1002", "v=1,2,3,4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["inputs"]["z"] == [1000.0, 1001.0, 999.0, 1002.0]


def test_a_decimal_comma_is_refused_with_the_dotted_spelling_never_read_as_thousands(capsys):
    assert main(["compute", "19", "target=0,125"]) == 2
    assert capsys.readouterr().err.strip() == (
        "entry 19: target: '0,125' is not a number: the decimal point is a dot (write 0.125); "
        "expected a number in (0, 1)"
    )
    assert main(["compute", "35", "s=1,250", "--json"]) == 0  # thousands, and said so
    captured = capsys.readouterr()
    assert json.loads(captured.out)["inputs"]["s"] == 1250
    assert (
        "note: s: 1,250 read as 1,250 (the comma groups thousands; the decimal point is a dot); for 1.25 write s=1.250"
        in captured.err
    )


def test_a_target_is_read_as_people_type_its_unit_and_the_reading_is_said(capsys):
    assert main(["compute", "35", "total<=80 gb", "--solve", "s", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["solutions"][0]["value"] == 244140
    assert "note: total: target 80 gb read as 80 GB" in captured.err
    assert main(["compute", "35", "total<=80GiB", "--solve", "s", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["target"] == 80 * 2**30
    assert "note: total: target 80GiB read as 85.9 GB" in captured.err
    assert main(["compute", "35", "total<=80GB", "--solve", "s"]) == 0
    assert "note:" not in capsys.readouterr().err  # written as the result writes it: nothing to say
