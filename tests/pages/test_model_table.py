"""docs/models.md is the table the presets generate, and every model preset is counted within
its card's printed precision, or says why not."""

from __future__ import annotations

import pytest

from site_builder.cli import main
from site_builder.load.model_architecture import printed_bounds
from site_builder.pages.model_table import DOC, table


def test_the_docs_table_is_the_one_the_presets_generate(model_presets):
    assert DOC.read_text() == table(model_presets), "regenerate it: python -m site_builder presets table --write"


def test_the_command_prints_the_table(model_presets, capsys):
    assert main(["presets", "table"]) == 0
    assert capsys.readouterr().out == table(model_presets)


def test_every_model_preset_is_counted(model_presets):
    assert len(model_presets) >= 35
    uncounted = sorted(p.id for p in model_presets.values() if not p.has("params_counted"))
    assert not uncounted, f"these presets' architectures are incomplete: {uncounted}"


@pytest.mark.parametrize("name, count", [("params", "params_counted"), ("params_active", "params_active_counted")])
def test_every_card_figure_rounds_to_the_count_or_says_why(model_presets, name, count):
    for preset in model_presets.values():
        if not preset.has(name):
            continue
        card = preset.values[name]
        low, high = printed_bounds(card.printed or card.value, card.digits)
        within = low <= preset.get(count) <= high
        assert within or card.differs, (preset.id, name, preset.get(count))
        assert not (within and card.differs), f"{preset.id}: {name}.differs explains a figure that rounds to the count"


def test_exact_counts_of_released_checkpoints(model_presets):
    """Counts that follow from the released configs, each summed tensor by tensor in
    tests/runtime/test_model_architecture.py for its family."""
    exact = {
        "gpt-2-small": 124_439_808,
        "llama-2-7b": 6_738_415_616,
        "mixtral-8x7b": 46_702_792_704,
        "bert-base": 109_482_240,
        "t5-base": 222_903_552,
        "gemma-3-27b": 27_009_346_304,
        "phi-3-5-moe": 41_873_153_344,
    }
    for pid, params in exact.items():
        assert model_presets[pid].get("params_counted") == params, pid
    assert model_presets["mixtral-8x7b"].get("params_active_counted") == 12_879_925_248
    assert model_presets["phi-3-5-moe"].get("params_active_counted") == 6_640_999_744
