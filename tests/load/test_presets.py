"""Presets: the format, its derived values and sanity checks (with exact messages), and every
preset computing on every entry it fills."""

from __future__ import annotations

import shutil

import pytest

from site_builder.cli import main
from site_builder.errors import Problems, shown
from site_builder.load import fill as F
from site_builder.load import presets as P
from site_builder.runtime.calculator import Calculator
from tests.support import ENTRIES, ROOT, TESTS, load_bank

BAD = TESTS / "bad_presets"
FIXTURES = sorted(p for p in BAD.iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def bank_and_presets():
    problems = Problems()
    presets = P.load_presets(ENTRIES, problems)
    assert not problems, problems.report()
    return load_bank()[0], presets


@pytest.mark.parametrize("folder", FIXTURES, ids=[p.name for p in FIXTURES])
def test_bad_preset_reports_exactly(folder, tmp_path, capsys, without_typesetting):
    entries = tmp_path / "entries"
    shutil.copytree(folder, entries, ignore=shutil.ignore_patterns("expected.txt"))
    if not list(entries.glob("*.yaml")):
        shutil.copy(BAD / "_toy.yaml", entries / "01-toy.yaml")
    code = main(["--entries", str(entries), "check"])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.err == (folder / "expected.txt").read_text().replace("{here}", shown(entries))
    assert "Traceback" not in captured.err


def test_the_toy_entry_with_a_good_preset_passes(tmp_path, capsys, without_typesetting):
    entries = tmp_path / "entries"
    shutil.copytree(BAD / "fill-unknown-field", entries, ignore=shutil.ignore_patterns("expected.txt", "*.yaml"))
    shutil.copy(BAD / "_toy.yaml", entries / "01-toy.yaml")
    shutil.copy(BAD / "fill-unknown-field" / "presets" / "models" / "toy.yaml", entries / "presets" / "models")
    assert main(["--entries", str(entries), "check"]) == 0, capsys.readouterr().err


def test_derived_values_are_computed_and_cite_their_origin(bank_and_presets):
    _, presets = bank_and_presets
    llama = presets["model"]["llama-3-70b"]
    assert llama.get("head_dim") == 8192 // 64 and llama.values["head_dim"].derived == "d_model / heads"
    assert llama.sources_of("head_dim") == llama.sources_of("d_model")
    assert llama.get("attention") == "gqa"


def test_real_presets_pass_the_sanity_checks(bank_and_presets):
    _, presets = bank_and_presets
    assert presets["model"] and presets["hardware"]
    for preset in presets["model"].values():
        heads, kv = preset.get("heads"), preset.get("kv_heads") if preset.has("kv_heads") else None
        if kv:
            assert heads % kv == 0, preset.id
        if preset.get("attention") in ("mha", "gqa", "mqa") and not preset.values["head_dim"].source == "":
            typed = not preset.values["head_dim"].derived
            assert typed or heads * preset.get("head_dim") == preset.get("d_model"), preset.id
        if preset.has("experts_active"):
            assert preset.get("experts_active") <= preset.get("experts"), preset.id
        if preset.has("params_active") and preset.has("params"):
            assert preset.get("params_active") <= preset.get("params"), preset.id
    for preset in presets["hardware"].values():
        if preset.has("memory_bandwidth"):
            assert 1e10 <= preset.get("memory_bandwidth") <= 1e14, preset.id
        for name in preset.values:
            if name.startswith("flops_"):
                assert 1e11 <= preset.get(name) <= 1e17, (preset.id, name)
        for name, value in preset.values.items():
            assert value.source in preset.sources, (preset.id, name)


def test_ids_match_file_names_and_are_unique(bank_and_presets):
    _, presets = bank_and_presets
    ids = [p.id for kind in presets.values() for p in kind.values()]
    assert len(ids) == len(set(ids))
    for kind in presets.values():
        for preset in kind.values():
            assert preset.where.path.name == f"{preset.id}.yaml"


def test_at_least_twenty_accelerators_with_bandwidth_and_a_peak(bank_and_presets):
    _, presets = bank_and_presets
    hardware = presets["hardware"]
    assert len(hardware) >= 20
    for preset in hardware.values():
        assert preset.has("memory_bandwidth") and preset.has("memory"), preset.id
        assert any(n.startswith("flops_") for n in preset.values), preset.id


def test_memory_is_stated_as_built_beside_the_printed_figure(bank_and_presets):
    """One convention for every vendor: memory is a whole number of GiB (DRAM is built in
    binary units), memory_marketed the printed figure; they differ by at most the 2^30/10^9 ratio."""
    _, presets = bank_and_presets
    for preset in presets["hardware"].values():
        built, printed = preset.get("memory"), preset.get("memory_marketed")
        assert built % 2**30 == 0, (preset.id, built)
        assert printed <= built <= printed * 2**30 / 10**9, (preset.id, built, printed)


def test_a_preset_is_offered_only_where_it_has_every_required_field(bank_and_presets):
    entries, presets = bank_and_presets
    kv = next(e for e in entries if e.key == "35")
    llama = presets["model"]["llama-3-70b"]
    assert F.offers(kv, llama)
    assert F.filled(kv, llama) == {"L": "80", "H_kv": "8", "d_head": "128", "s": "8192", "attention": "gqa"}
    no_head_dim = P.Preset(**{**llama.__dict__, "values": {k: v for k, v in llama.values.items() if k != "head_dim"}})
    assert not F.offers(kv, no_head_dim)
    no_kv_heads = P.Preset(**{**llama.__dict__, "values": {k: v for k, v in llama.values.items() if k != "kv_heads"}})
    assert F.offers(kv, no_kv_heads) and "H_kv" not in F.filled(kv, no_kv_heads)  # latent attention has none
    no_context = P.Preset(**{**llama.__dict__, "values": {k: v for k, v in llama.values.items() if k != "context"}})
    assert F.offers(kv, no_context) and "s" not in F.filled(kv, no_context)  # s: context? is optional


def test_a_mapping_converts_units_without_retyping(bank_and_presets):
    from site_builder.load.entry import Fill

    _, presets = bank_and_presets
    h100 = presets["hardware"]["h100-sxm"]
    gib, printed = (
        Fill("hardware", "M", "memory", op="/", factor="1073741824"),
        Fill("hardware", "M", "memory_marketed", op="/", factor="1e9"),
    )
    assert F.fill_value(gib, h100) == "80" and F.fill_value(printed, h100) == "80"  # 80 GiB as built, "80GB" as printed
    assert F.fill_value(Fill("hardware", "W", "memory_bandwidth"), h100) == "3.35T"


def _every_fill(entries, presets):
    for entry in entries:
        for _kind, chosen in F.offered(entry, presets).items():
            for preset in chosen:
                yield entry, preset


@pytest.mark.slow  # every preset on every entry: about 2 s
def test_every_preset_computes_on_every_entry_it_fills(bank_and_presets):
    entries, presets = bank_and_presets
    pairs = list(_every_fill(entries, presets))
    assert {e.key for e, _ in pairs} >= {"35", "37"}
    for entry, preset in pairs:
        result = Calculator(entry.spec()).run(F.filled(entry, preset))
        assert set(result["outputs"]) == {o.name for o in entry.outputs}, (entry.key, preset.id)


def test_the_page_spec_carries_only_the_offered_presets_mapped_values(bank_and_presets):
    entries, presets = bank_and_presets
    mfu = next(e for e in entries if e.key == "37")
    spec = F.spec(mfu, presets)
    assert set(spec) == {"model", "hardware"}
    h100 = next(p for p in spec["hardware"] if p["id"] == "h100-sxm")
    assert set(h100["values"]) == {"bandwidth", "peak_flops"}
    text, source, field = h100["values"]["bandwidth"]
    assert text == "3.35T" and field == "memory_bandwidth"
    assert h100["sources"][source]["url"].startswith("https://")
    assert all("flops_fp8" not in str(v) for v in h100["values"].values())
    unrelated = next(e for e in entries if e.key == "2")
    assert F.spec(unrelated, presets) == {}


def test_docs_list_every_field():
    doc = (ROOT / "docs" / "presets.md").read_text()
    for kind, described in P.fields().items():
        for name in described:
            assert f"| `{name}` |" in doc, (kind, name)
    for key in P.schema()["properties"]:
        assert f"| `{key}` |" in doc, key


def test_a_byte_target_equal_to_a_devices_printed_memory_says_what_it_holds_as_built():
    """From the presets' own memory (as built) and memory_marketed (as printed), never typed here."""
    from site_builder.load.presets import Preset, Value, devices
    from site_builder.runtime import page

    def device(id, name, built, marketed):
        values = {"memory": Value(built), **({"memory_marketed": Value(marketed)} if marketed else {})}
        return Preset(id=id, name=name, kind="hardware", family="F", sources={}, values=values)

    found = devices(
        {
            "hardware": {
                "a": device("a", "Device A", 80 * 2**30, 80e9),
                "b": device("b", "Device B", 80 * 2**30, 80e9),
                "c": device("c", "Device C", 40e9, 40e9),  # as printed: nothing to say
                "d": device("d", "Device D", 24e9, None),
            }
        }
    )
    assert [d["name"] for d in found] == ["Device A", "Device B"]
    write = lambda b: f"{b / 1e9:.4g} GB"  # noqa: E731
    assert page.device_note(found, 80e9, write) == (
        "Device A and Device B are sold as 80 GB and built as 80\u00a0GiB (85.9 GB): for what they hold, type 80GiB."
    )
    assert page.device_note(found, 40e9, write) == ""
