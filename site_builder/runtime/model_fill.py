"""What a model's values mean to the entries it fills.

Standard library only: shipped to the browser, so that a preset (at build time), a reader's
pasted ``config.json`` (in the page) and ``compute`` say the same.  ``choices``: the variants a
model selects in the entries it fills, each with its reason.  ``departures``: what is said when an
entry's own count of a model (entry 16's block) is not the architecture's, naming the parts
beyond the entry's block (``beyond_block``).
"""

from __future__ import annotations

from .architecture import Architecture
from .numbers import grouped

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
                "the model gives each expert's width (expert_ffn_dim), so its experts are sized from the architecture",
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


def beyond_block(arch: Architecture) -> list[str]:
    """The parts of ``arch`` that a plain block leaves out, in words: the block the bank's own
    formulas count (entry 16's variants) is multi-head, grouped- or multi-query attention, a dense
    or routed feed-forward layer, two norms a layer, and biases on every projection or none."""
    a, e, n, x = arch.attention, arch.embeddings, arch.norms, arch.experts
    out = []
    if arch.encoder_layers:
        out.append(f"an encoder of {arch.encoder_layers} layers, with the decoder's cross-attention")
    if a.kind == "mla":
        out.append("multi-head latent attention's low-rank projections")
    if a.relative:
        out.append("relative-position weights")
    if e.segments:
        out.append("a segment table")
    if e.norm:
        out.append("the embedding's norm")
    if a.qk_norm:
        out.append("query and key norms")
    if n.per_layer != 2:
        out.append("one norm a layer" if n.per_layer == 1 else f"{n.per_layer} norms a layer")
    if n.kind == "layernorm" and not n.bias:
        out.append("LayerNorms without biases")
    biases = (a.qkv_bias, a.out_bias, arch.ffn.bias)
    if any(biases) and not all(biases):
        if biases == (True, True, False):
            out.append("biases on attention's projections, none on the feed-forward layer")
        else:
            which = [w for w, b in zip(("query, key and value", "output", "feed-forward"), biases) if b]
            out.append(f"biases on the {' and '.join(which)} projections only")
    if a.value_dim and a.value_dim != a.head_dim:
        out.append("value heads of another width")
    if x is not None:
        if x.shared:
            out.append(f"{x.shared} shared expert{'s' if x.shared > 1 else ''}")
        if x.dense_layers:
            out.append(f"{x.dense_layers} dense feed-forward layer{'s' if x.dense_layers > 1 else ''}")
        if x.router_bias:
            out.append("the router's bias")
    if e.output_bias:
        out.append("the output layer's bias")
    if arch.pooler and arch.count_pooler:
        out.append("a pooler")
    if arch.mtp and arch.count_mtp:
        out.append("multi-token prediction modules")
    return out


# Who counts, and whose count the figures then take: an entry's own page, or a plan's step.
ENTRY_SAYS = ("This entry", "Entries that take a parameter count use the architecture's.")


def plan_says(entry: str) -> tuple[str, str]:
    """``ENTRY_SAYS`` for a plan whose step runs entry ``entry``: the plan's figures take its count."""
    return f"Entry {entry}", f"This plan's figures take entry {entry}'s count."


def departures(
    outputs: list[dict],
    results: dict,
    values: dict,
    model: str,
    arch: Architecture | None,
    says: tuple[str, str] = ENTRY_SAYS,
) -> str:
    """What the page and ``compute`` say beside a fill from ``model`` (``values``: its fields,
    derived counts included) when an output of the entry's marked ``counted: <field>`` (``outputs``:
    output specs) is not the model's architecture count, with the parts beyond the entry's block;
    "" when every such output agrees.  A dense model has no active count: its total says it.
    ``says``: who counts and whose count the figures take (``ENTRY_SAYS``, or ``plan_says``)."""
    differ = []
    for o in outputs:
        name = o.get("counted")
        counted = values.get(name) if name else None
        shown = results.get(o["name"], {}).get("value")
        if counted is None or isinstance(shown, bool) or not isinstance(shown, (int, float)) or shown == counted:
            continue
        share = f" ({100 * (shown - counted) / counted:+.2g}%)".replace("-", "\u2212") if counted else ""
        differ.append(f"{o['label'].lower()} {grouped(shown)} against {grouped(counted)}{share}")
    if not differ:
        return ""
    parts = beyond_block(arch) if arch is not None else []
    beyond = f" Beyond this entry's block: {'; '.join(parts)}." if parts else ""
    who, after = says
    return f"{who}'s count differs from the architecture count of {model}: {'; '.join(differ)}.{beyond} {after}"
