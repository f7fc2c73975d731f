"""A model preset's values -> its Architecture (runtime/architecture.py), and what the count adds.

The preset states each part of the architecture with its source; here they become the
runtime's one typed shape, so that a preset, a reader's config and every entry count a
model the same way.  The counts (``params_counted``, ``params_active_counted``,
``kv_per_token``, ``flops_per_token``) are derived, never typed; a card's figure that does
not round to the count must say why (``differs``), and ``card_problem`` says when it does not.
"""

from __future__ import annotations

import math

from ..runtime.architecture import (
    Architecture,
    ArchitectureError,
    Attention,
    Embeddings,
    Experts,
    FeedForward,
    Norms,
    count,
)
from ..runtime.numbers import significant_digits

# Fields an architecture cannot be counted without (a dense feed-forward or an expert width besides).
NEEDED = ("layers", "d_model", "heads", "vocab", "ffn_kind", "norm")
# When a source does not say whether the output layer is tied, the count echoes its reading.
UNTOLD_TYING = "the sources do not say whether the output layer is tied to the embedding: counted once, as tied"
# The derived counts, with how the page names their derivation.
COUNTS = {
    "params_counted": "counted from the architecture",
    "params_active_counted": "counted from the architecture: the routed experts a token skips left out",
    "kv_per_token": "counted from the architecture: keys and values (MLA: latent and rotary key) per token, all layers",
    "flops_per_token": "counted from the architecture: 2 per multiplying weight a token uses",
}


# Derived choices: a variant a model selects in the entries it fills.
CHOICES = ("moe_sizing", "expert_shares", "block_extras")


def choices(values: dict) -> list[tuple[str, object, str]]:
    """The variants a model selects in the entries it fills, each with the reason."""
    get = values.get
    out = []
    if "experts" in values and "expert_ffn_dim" in values:
        out.append(
            (
                "moe_sizing",
                "layers",
                "the preset gives each expert's width (expert_ffn_dim), so its experts are sized from the architecture",
            )
        )
    if "experts" in values:
        e = values["experts"]
        out.append(("expert_shares", ", ".join([f"1/{e}"] * e), f"balanced routing: {e} equal shares, one per expert"))
    biases = [get(n, False) for n in ("qkv_bias", "out_bias", "ffn_bias")]
    if get("norms_per_layer", 2) != 2:
        pass  # the entries' variants count two norms a layer
    elif get("norm") == "layernorm" and get("norm_bias", True) and all(biases):
        out.append(("block_extras", "bias_ln", "every projection has a bias and the norms are LayerNorms with biases"))
    elif get("norm") == "rmsnorm" and not any(biases):
        out.append(("block_extras", "rms", "RMSNorm gains and no biases"))
    return out


def missing(values: dict) -> list[str]:
    """The fields the count needs that the preset does not give (values: name -> value)."""
    out = [n for n in NEEDED if n not in values]
    if "ffn_dim" not in values and "expert_ffn_dim" not in values:
        out.append("ffn_dim")
    return out


def architecture(values: dict) -> Architecture:
    """The architecture a preset's values (name -> value, derived ones included) describe.

    Raises ArchitectureError naming the field at fault; KeyError for a field in NEEDED."""
    get = values.get
    encoder = get("encoder_layers", 0)
    layers = get("decoder_layers", values["layers"]) if encoder else values["layers"]
    kind = get("attention", "mha")
    experts = None
    if "experts" in values:
        experts = Experts(
            routed=values["experts"],
            active=get("experts_active", values["experts"]),
            width=get("expert_ffn_dim", 0),
            shared=get("shared_experts", 0),
            dense_layers=layers - get("moe_layers", layers),
            router_bias=get("router_bias", False),
        )
    norm = values["norm"]
    return Architecture(
        layers=layers,
        d_model=values["d_model"],
        encoder_layers=encoder,
        embeddings=Embeddings(
            vocab=values["vocab"],
            tied=get("tied_embeddings", True),
            positions=get("positions", 0),
            segments=get("segments", 0),
            norm=get("embedding_norm", False),
            output_bias=get("output_bias", False),
        ),
        attention=Attention(
            kind=kind,
            heads=values["heads"],
            kv_heads=get("kv_heads", values["heads"]),
            head_dim=values["head_dim"],
            value_dim=get("value_dim", 0),
            q_rank=get("q_latent", 0),
            kv_rank=get("kv_latent", 0),
            rope_dim=get("rope_dim", 0) if kind == "mla" else 0,
            qkv_bias=get("qkv_bias", False),
            out_bias=get("out_bias", False),
            window=get("window", 0),
            local_layers=get("local_layers", 0),
            relative={"none": ""}.get(get("relative_positions", ""), get("relative_positions", "")),
            relative_buckets=get("relative_buckets", 0),
            qk_norm=get("qk_norm", ""),
        ),
        ffn=FeedForward(kind=values["ffn_kind"], width=get("ffn_dim", 0), bias=get("ffn_bias", False)),
        norms=Norms(
            kind=norm,
            per_layer=get("norms_per_layer", 2),
            final=get("final_norm", True),
            bias=get("norm_bias", norm == "layernorm"),
        ),
        experts=experts,
        pooler="pooler" in values,
        count_pooler=get("pooler") == "counted",
        mtp=get("mtp_modules", 0),
        count_mtp=get("mtp") == "counted",
    )


def counts(values: dict) -> dict[str, int]:
    """The derived counts of a preset whose architecture is complete (else {})."""
    if missing(values):
        return {}
    c = count(architecture(values))
    found = {"params_counted": c.total, "kv_per_token": c.kv_per_token, "flops_per_token": c.flops_per_token}
    if "experts" in values:  # a dense model uses every parameter: entries read "no active count" as all
        found["params_active_counted"] = c.active
    return found


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
        f"{counted:,} ({(counted / float((low + high) / 2) - 1) * 100:+.2f}%); correct the "
        f"architecture, or say why the card differs in {name}.differs"
    )


__all__ = ["ArchitectureError", "architecture", "card_problem", "counts", "missing", "printed_bounds"]
