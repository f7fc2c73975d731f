"""The counts a model preset derives from its Architecture (runtime/architecture.py), and a card against them.

The preset states each part of the architecture with its source; here they become the
runtime's one typed shape, so that a preset, a reader's config and every entry count a
model the same way.  The counts (``params_counted``, ``params_active_counted``,
``kv_per_token``, ``flops_per_token``) are derived, never typed; a card's figure that does
not round to the count must say why (``differs``), and ``card_problem`` says when it does not.
"""

from __future__ import annotations

import math

from ..runtime.architecture import ArchitectureError, derived, from_values
from ..runtime.numbers import grouped, significant_digits

# Fields an architecture cannot be counted without (a dense feed-forward or an expert width besides).
NEEDED = ("layers", "d_model", "heads", "vocab", "ffn_kind", "norm")
# When a source does not say whether the output layer is tied, the count echoes its reading.
UNTOLD_TYING = "the sources do not say whether the output layer is tied to the embedding: counted once, as tied"


def missing(values: dict) -> list[str]:
    """The fields the count needs that the preset does not give (values: name -> value)."""
    out = [n for n in NEEDED if n not in values]
    if "ffn_dim" not in values and "expert_ffn_dim" not in values:
        out.append("ffn_dim")
    return out


def counts(values: dict) -> dict[str, int]:
    """The derived counts of a preset whose architecture is complete (else {})."""
    if missing(values):
        return {}
    return derived(from_values(values), "experts" in values)


def printed_bounds(printed, digits: int | None = None) -> tuple[float, float]:
    """The values a card's figure stands for: '46.7B' admits [46.65e9, 46.75e9]."""
    from ..runtime.numbers import read_exact

    text = str(printed)
    value = float(read_exact(text))
    # A YAML integer's trailing zeros are not printed precision: 175000000000 is 3 digits.
    d = digits or (len(text.rstrip("0")) or 1 if isinstance(printed, int) else significant_digits(text))
    half = 0.5 * 10 ** (math.floor(math.log10(abs(value))) - d + 1)
    return value - half, value + half


def card_problem(name: str, printed, digits: int | None, counted: int) -> str | None:
    """Why a card's figure does not stand for the count, or None when it rounds to it."""
    low, high = printed_bounds(printed, digits)
    if low <= counted <= high:
        return None
    return (
        f"values.{name}: the card's {printed} does not round to the architecture's count "
        f"{grouped(counted)} ({(counted / float((low + high) / 2) - 1) * 100:+.2f}%); correct the "
        f"architecture, or say why the card differs in {name}.differs"
    )


__all__ = ["ArchitectureError", "card_problem", "counts", "missing", "printed_bounds"]
