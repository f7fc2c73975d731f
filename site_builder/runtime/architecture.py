"""A model's architecture as one typed shape, and the one count that reads it.

Standard library only: shipped to the browser.  ``Architecture`` names every part of a
transformer that costs parameters, FLOPs or cache; ``count`` turns it into the total, the
parameters each token uses, a breakdown by part, the key-value cache per token and the
forward FLOPs per token.  Presets build an ``Architecture`` from their values; a reader's
``config.json`` builds one from its keys; every entry filled from a model takes its counts
from here, so that a model is counted one way everywhere.

Field names follow what Hugging Face configs mean, in the project's words: ``vocab`` is
``vocab_size``, ``kv_heads`` is ``num_key_value_heads``, ``q_rank`` is ``q_lora_rank``.
Widths are counts of numbers (elements), never bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ATTENTION_KINDS = ("mha", "gqa", "mqa", "mla")
FFN_KINDS = ("gelu", "relu", "gated")
NORM_KINDS = ("layernorm", "rmsnorm")
RELATIVE_KINDS = ("", "buckets", "xl")
QK_NORM_KINDS = ("", "head", "full")

# Parts of the breakdown, in the order a table lists them.
PARTS = (
    "embedding",  # the input token table, vocab x d (the output layer too when tied)
    "output",  # an untied output layer, d x vocab
    "positions",  # a learned absolute position table
    "segments",  # a segment (token type) table
    "relative",  # relative-position weights (T5's bucket tables, Transformer-XL's projections)
    "attention",  # self-attention projections (and MLA's latent norms, query and key norms), with their biases
    "cross_attention",  # the decoder's attention over the encoder, encoder-decoder models only
    "feed_forward",  # dense feed-forward layers
    "routed_experts",  # every routed expert of every MoE layer
    "shared_experts",  # experts every token uses, besides the routed ones
    "router",  # the MoE gates
    "norms",  # every norm: per layer, after the embedding, final
    "pooler",  # a pooler head (BERT)
    "mtp",  # multi-token prediction modules (DeepSeek-V3)
)


class ArchitectureError(ValueError):
    """An architecture that cannot exist; the message names the field and what is allowed."""


@dataclass(frozen=True)
class Embeddings:
    """The tables a token is looked up in, and the output layer.

    vocab:     rows of the token table (``vocab_size``, padded as the checkpoint is).
    tied:      the output layer reuses the token table (``tie_word_embeddings``): counted once.
    positions: rows of a learned absolute position table (GPT-2's 1024, OPT's 2048 + 2);
               0 when positions are rotary, relative or sinusoidal (no weights).
    segments:  rows of a segment table (``type_vocab_size``: BERT's 2).
    norm:      a norm right after the embeddings (BERT's embedding LayerNorm).
    output_bias: the output layer has a bias of ``vocab`` numbers.
    """

    vocab: int
    tied: bool = False
    positions: int = 0
    segments: int = 0
    norm: bool = False
    output_bias: bool = False


@dataclass(frozen=True)
class Attention:
    """One layer's self-attention; every layer has the same.

    kind:      mha (every head its own key and value), gqa (``kv_heads`` groups), mqa (one),
               mla (multi-head latent attention: keys and values from a cached latent).
    heads:     query heads (``num_attention_heads``).
    kv_heads:  key-value heads (``num_key_value_heads``); for mla, the heads keys and values
               are expanded to (= heads).
    head_dim:  width of one query/key head (``head_dim``; MLA: ``qk_nope_head_dim``, the part
               without rotary).
    value_dim: width of one value head when it differs from ``head_dim`` (MLA's ``v_head_dim``);
               0 means ``head_dim``.
    q_rank:    MLA: query compression rank (``q_lora_rank``); 0 projects queries directly.
    kv_rank:   MLA: key-value compression rank (``kv_lora_rank``), cached per token and layer.
    rope_dim:  MLA: width of the decoupled rotary key and query per head
               (``qk_rope_head_dim``); the rotary key is shared by the heads and cached.
    qkv_bias:  the query, key and value projections have biases (GPT-2, BERT, OPT, Qwen2).
    out_bias:  the output projection has a bias.
    window:    sliding-window length in tokens for the layers that attend locally; 0 = none.
    local_layers: how many layers attend within ``window`` (the others attend globally);
               with a window and 0 here, every layer is local.
    relative:  relative-position weights: "" none (rotary, learned absolute or none),
               "buckets" (T5: a table of ``relative_buckets`` x heads in each stack's first
               layer), "xl" (Transformer-XL, as Gopher and Chinchilla use it: per layer a
               projection of the sinusoidal relative encoding, d x heads x head_dim, and two
               biases of heads x head_dim).
    relative_buckets: T5's ``relative_attention_num_buckets``.
    qk_norm:   norms on the queries and keys before attention: "" none; "head" one scale of
               head_dim each for queries and keys, shared by the heads (Qwen3, Gemma 3);
               "full" a scale over all query heads and one over all key heads (OLMo 2).
    """

    kind: str
    heads: int
    kv_heads: int
    head_dim: int
    value_dim: int = 0
    q_rank: int = 0
    kv_rank: int = 0
    rope_dim: int = 0
    qkv_bias: bool = False
    out_bias: bool = False
    window: int = 0
    local_layers: int = 0
    relative: str = ""
    relative_buckets: int = 0
    qk_norm: str = ""

    @property
    def v_dim(self) -> int:
        return self.value_dim or self.head_dim


@dataclass(frozen=True)
class FeedForward:
    """A dense feed-forward layer (or one expert's).

    kind:  gelu or relu (two matrices, up and down) or gated (three: SwiGLU, GeGLU).
    width: hidden width (``intermediate_size``, ``d_ff``, ``ffn_dim``).
    bias:  the matrices have biases (GPT-2, BERT, OPT).
    """

    kind: str
    width: int
    bias: bool = False


@dataclass(frozen=True)
class Experts:
    """Mixture-of-experts layers.

    routed:       routed experts per MoE layer (``n_routed_experts``, ``num_local_experts``).
    active:       routed experts each token uses (``num_experts_per_tok``, top-k).
    width:        hidden width of one routed expert (``moe_intermediate_size``); experts have
                  the feed-forward ``kind`` of the architecture.
    shared:       shared experts every token uses (``n_shared_experts``).
    shared_width: hidden width of one shared expert when it differs from ``width``
                  (Qwen2-MoE's ``shared_expert_intermediate_size``); 0 means ``width``.
    shared_gate:  the shared experts' output is gated by a d x 1 projection (Qwen2-MoE).
    dense_layers: how many layers, the first ones, keep a dense feed-forward layer
                  (``first_k_dense_replace``); the rest are MoE layers.
    router_bias:  the router carries a bias per routed expert (DeepSeek-V3's score
                  correction).
    """

    routed: int
    active: int
    width: int
    shared: int = 0
    shared_width: int = 0
    shared_gate: bool = False
    dense_layers: int = 0
    router_bias: bool = False


@dataclass(frozen=True)
class Norms:
    """The norms.

    kind:      layernorm or rmsnorm.
    per_layer: norms in each layer (2 for pre- or post-norm blocks, 1 for PaLM's parallel
               block, 4 for Gemma 2's pre- and post-norms); an encoder-decoder's decoder
               layers add one for cross-attention.
    final:     a norm after the last layer (of each stack).
    bias:      a layernorm carries a bias beside its scale (PaLM's does not); rmsnorm never.
    """

    kind: str = "layernorm"
    per_layer: int = 2
    final: bool = True
    bias: bool = True

    @property
    def size(self) -> int:
        """Numbers per width unit: a scale, and a bias for a layernorm that has one."""
        return 2 if self.kind == "layernorm" and self.bias else 1


@dataclass(frozen=True)
class Architecture:
    """A transformer, as every count reads it.

    layers:         decoder layers (or an encoder-only model's layers).
    d_model:        the residual stream's width (``hidden_size``).
    encoder_layers: an encoder-decoder's encoder layers (0: decoder-only or encoder-only);
                    its decoder layers each add a cross-attention of the same shape.
    pooler:         a pooler head of d x d + d (BERT's), kept in ``count_extras``' say.
    mtp:            multi-token prediction modules (DeepSeek-V3's 1): each one MoE layer
                    (or dense, with no experts), two norms, a 2d x d projection and a final
                    norm, sharing the embedding and output layer.
    count_pooler:   whether the total counts the pooler (the card's figure says which).
    count_mtp:      whether the total counts the MTP modules.
    """

    layers: int
    d_model: int
    embeddings: Embeddings
    attention: Attention
    ffn: FeedForward
    norms: Norms = field(default_factory=Norms)
    experts: Experts | None = None
    encoder_layers: int = 0
    pooler: bool = False
    mtp: int = 0
    count_pooler: bool = True
    count_mtp: bool = False

    def __post_init__(self):
        problems = validate(self)
        if problems:
            raise ArchitectureError("; ".join(problems))


@dataclass(frozen=True)
class Count:
    """What an architecture costs.

    total:   parameters, as the architecture says to count them.
    active:  parameters each token uses (every routed expert but the top-k left out).
    parts:   (part, parameters) for every part in PARTS that has any, in that order.
    active_parts: the same for the active parameters.
    left_out: (part, parameters) of extras the total does not count (a pooler, MTP modules).
    kv_per_token: key-value cache per token, elements over all layers (decoder self-attention),
             for a context within every window.
    kv_per_layer: (local, global) elements per token of one such layer.
    flops_per_token: forward FLOPs per token of the weight matrices, 2 per active weight
             that multiplies (lookup tables excluded, a tied table counted once as the
             output layer); attention's scores come on top (``attention_flops``).
    """

    total: int
    active: int
    parts: tuple
    active_parts: tuple
    left_out: tuple
    kv_per_token: int
    kv_per_layer: tuple
    flops_per_token: int

    def part(self, name: str) -> int:
        return dict(self.parts).get(name, 0)


# ---- checking ------------------------------------------------------------------------------


def validate(arch: Architecture) -> list[str]:
    """Every reason the architecture cannot exist, each naming its field and what is allowed."""
    out = []
    a, e, n, f = arch.attention, arch.embeddings, arch.norms, arch.ffn

    def positive(name, value, zero=False):
        if not isinstance(value, int) or isinstance(value, bool) or value < (0 if zero else 1):
            out.append(f"{name}: {value!r} must be a whole number {'>= 0' if zero else '>= 1'}")

    for name, value in (
        ("layers", arch.layers),
        ("d_model", arch.d_model),
        ("embeddings.vocab", e.vocab),
        ("attention.heads", a.heads),
        ("attention.kv_heads", a.kv_heads),
        ("attention.head_dim", a.head_dim),
    ):
        positive(name, value)
    for name, value in (
        ("encoder_layers", arch.encoder_layers),
        ("mtp", arch.mtp),
        ("embeddings.positions", e.positions),
        ("embeddings.segments", e.segments),
        ("attention.value_dim", a.value_dim),
        ("attention.q_rank", a.q_rank),
        ("attention.kv_rank", a.kv_rank),
        ("attention.rope_dim", a.rope_dim),
        ("attention.window", a.window),
        ("attention.local_layers", a.local_layers),
        ("attention.relative_buckets", a.relative_buckets),
        ("norms.per_layer", n.per_layer),
        ("ffn.width", f.width),
    ):
        positive(name, value, zero=True)
    if out:
        return out
    if a.kind not in ATTENTION_KINDS:
        out.append(f"attention.kind: {a.kind!r} is not one of {', '.join(ATTENTION_KINDS)}")
    elif a.kind == "mha" and a.kv_heads != a.heads:
        out.append(f"attention.kv_heads: {a.kv_heads} must equal heads {a.heads} for mha")
    elif a.kind == "mqa" and a.kv_heads != 1:
        out.append(f"attention.kv_heads: {a.kv_heads} must be 1 for mqa")
    elif a.kind == "gqa" and (a.heads % a.kv_heads or a.kv_heads in (1, a.heads)):
        out.append(f"attention.kv_heads: {a.kv_heads} must divide heads {a.heads} into groups for gqa")
    elif a.kind == "mla" and not a.kv_rank:
        out.append("attention.kv_rank: mla needs its key-value rank")
    if a.kind != "mla":
        for name in ("q_rank", "kv_rank", "rope_dim"):
            if getattr(a, name):
                out.append(f"attention.{name}: only mla has {name}")
    if a.local_layers > arch.layers:
        out.append(f"attention.local_layers: {a.local_layers} exceeds layers {arch.layers}")
    if a.local_layers and not a.window:
        out.append("attention.local_layers: given without window")
    if a.qk_norm not in QK_NORM_KINDS:
        out.append(f"attention.qk_norm: {a.qk_norm!r} is not one of none, head, full")
    if a.relative not in RELATIVE_KINDS:
        out.append(f"attention.relative: {a.relative!r} is not one of none, buckets, xl")
    elif (a.relative == "buckets") != bool(a.relative_buckets):
        out.append("attention.relative_buckets: buckets relative positions need their bucket count, and only they")
    if f.kind not in FFN_KINDS:
        out.append(f"ffn.kind: {f.kind!r} is not one of {', '.join(FFN_KINDS)}")
    if n.kind not in NORM_KINDS:
        out.append(f"norms.kind: {n.kind!r} is not one of {', '.join(NORM_KINDS)}")
    x = arch.experts
    if x is None:
        if not f.width:
            out.append("ffn.width: a dense model needs its feed-forward width")
    else:
        for name in ("routed", "active", "width"):
            positive(f"experts.{name}", getattr(x, name))
        for name in ("shared", "shared_width", "dense_layers"):
            positive(f"experts.{name}", getattr(x, name), zero=True)
        if not out:
            if x.active > x.routed:
                out.append(f"experts.active: {x.active} exceeds routed {x.routed}")
            if x.dense_layers > arch.layers:
                out.append(f"experts.dense_layers: {x.dense_layers} exceeds layers {arch.layers}")
            if x.dense_layers and not f.width:
                out.append("ffn.width: dense layers need the dense feed-forward width")
    return out


# ---- counting ------------------------------------------------------------------------------


def _ffn(kind: str, d: int, width: int, bias: bool) -> int:
    matrices = 3 if kind == "gated" else 2
    return matrices * d * width + ((matrices - 1) * width + d if bias else 0)


def _attention(a: Attention, d: int) -> int:
    """One layer's attention projections (MLA's latent norms included)."""
    if a.kind == "mla":
        q_width = a.heads * (a.head_dim + a.rope_dim)
        q = d * a.q_rank + a.q_rank + a.q_rank * q_width if a.q_rank else d * q_width
        kv = d * (a.kv_rank + a.rope_dim) + a.kv_rank + a.kv_rank * a.heads * (a.head_dim + a.v_dim)
        out = a.heads * a.v_dim * d
        return q + kv + out + (d if a.out_bias else 0)
    q, kv = a.heads * a.head_dim, a.kv_heads * a.head_dim
    weights = d * q + 2 * d * kv + q * d
    norms = {"": 0, "head": 2 * a.head_dim, "full": q + kv}[a.qk_norm]
    return weights + (q + 2 * kv if a.qkv_bias else 0) + (d if a.out_bias else 0) + norms


def _relative(arch: Architecture) -> int:
    a = arch.attention
    if a.relative == "buckets":  # one table per stack, in its first layer
        return a.relative_buckets * a.heads * (2 if arch.encoder_layers else 1)
    if a.relative == "xl":
        width = a.heads * a.head_dim
        return (arch.layers + arch.encoder_layers) * (arch.d_model * width + 2 * width)
    return 0


def _moe_layer(arch: Architecture) -> tuple[int, int, int, int]:
    """One MoE layer: (one routed expert, the shared experts, the router, routed experts used)."""
    x, d, kind = arch.experts, arch.d_model, arch.ffn.kind
    expert = _ffn(kind, d, x.width, arch.ffn.bias)
    shared = x.shared * _ffn(kind, d, x.shared_width or x.width, arch.ffn.bias) + (d if x.shared_gate else 0)
    router = x.routed * d + (x.routed if x.router_bias else 0)
    return expert, shared, router, x.active


def count(arch: Architecture) -> Count:
    """The one count: total, active per token, the breakdown, cache and FLOPs per token."""
    d, e, a, n = arch.d_model, arch.embeddings, arch.attention, arch.norms
    layers, enc = arch.layers, arch.encoder_layers
    stacks = 2 if enc else 1
    parts = dict.fromkeys(PARTS, 0)
    inactive = dict.fromkeys(PARTS, 0)
    parts["embedding"] = e.vocab * d
    parts["output"] = (0 if e.tied else e.vocab * d) + (e.vocab if e.output_bias else 0)
    parts["positions"] = e.positions * d
    parts["segments"] = e.segments * d
    parts["relative"] = _relative(arch)
    parts["attention"] = (layers + enc) * _attention(a, d)
    if enc:
        parts["cross_attention"] = layers * _attention(a, d)
    norm = n.size * d
    per_layer = n.per_layer * (layers + enc) + (layers if enc else 0)
    parts["norms"] = norm * (per_layer + (stacks if n.final else 0) + (1 if e.norm else 0))
    dense_ffn = _ffn(arch.ffn.kind, d, arch.ffn.width, arch.ffn.bias) if arch.ffn.width else 0
    x = arch.experts
    if x is None:
        parts["feed_forward"] = (layers + enc) * dense_ffn
    else:
        moe = layers - x.dense_layers
        expert, shared, router, used = _moe_layer(arch)
        parts["feed_forward"] = (x.dense_layers + enc) * dense_ffn
        parts["routed_experts"] = moe * x.routed * expert
        parts["shared_experts"] = moe * shared
        parts["router"] = moe * router
        inactive["routed_experts"] = moe * (x.routed - used) * expert
    extras = dict.fromkeys(("pooler", "mtp"), 0)
    if arch.pooler:
        extras["pooler"] = d * d + d
    if arch.mtp:
        if x is None:
            block = _attention(a, d) + dense_ffn
            idle = 0
        else:
            expert, shared, router, used = _moe_layer(arch)
            block = _attention(a, d) + x.routed * expert + shared + router
            idle = (x.routed - used) * expert
        extras["mtp"] = arch.mtp * (block + norm * (n.per_layer + 3) + 2 * d * d)
        if arch.count_mtp:
            inactive["mtp"] = arch.mtp * idle
    left_out = []
    for name, params in extras.items():
        counted = arch.count_pooler if name == "pooler" else arch.count_mtp
        if not params:
            continue
        if counted:
            parts[name] = params
        else:
            left_out.append((name, params))
    total = sum(parts.values())
    active = {k: v - inactive[k] for k, v in parts.items()}
    # Cache: keys and values per layer (MLA: the latent and the shared rotary key).
    per_layer_kv = a.kv_rank + a.rope_dim if a.kind == "mla" else a.kv_heads * (a.head_dim + a.v_dim)
    local = a.local_layers if a.local_layers or not a.window else layers
    kv_layer = (per_layer_kv if local else 0, per_layer_kv if layers - local else 0)
    # FLOPs: 2 per multiplying weight used; lookups (token table unless tied, positions,
    # segments, T5's bucket tables) multiply nothing.
    lookups = (0 if e.tied else parts["embedding"]) + parts["positions"] + parts["segments"]
    lookups += parts["relative"] if a.relative == "buckets" else 0
    flops = 2 * (sum(active.values()) - lookups - active["pooler"] - active["mtp"])
    return Count(
        total=total,
        active=sum(active.values()),
        parts=tuple((k, v) for k, v in parts.items() if v),
        active_parts=tuple((k, v) for k, v in active.items() if v),
        left_out=tuple(left_out),
        kv_per_token=per_layer_kv * layers,
        kv_per_layer=kv_layer,
        flops_per_token=flops,
    )


def kv_cache(arch: Architecture, context: int) -> int:
    """Elements cached for a sequence of ``context`` tokens, over all layers: a local layer
    keeps at most its window."""
    a = arch.attention
    per = count(arch).kv_per_layer
    local = a.local_layers if a.local_layers or not a.window else arch.layers
    return local * per[0] * min(context, a.window or context) + (arch.layers - local) * per[1] * context


def attention_flops(arch: Architecture, context: int) -> int:
    """Forward FLOPs per token of attention's scores and weighted sum at ``context`` tokens
    attended (a local layer attends at most its window): 2 x 2 x heads x width per token
    attended, per layer."""
    a = arch.attention
    qk = a.head_dim + a.rope_dim
    per_position = 2 * a.heads * (qk + a.v_dim)
    local = a.local_layers if a.local_layers or not a.window else arch.layers
    seen_local = min(context, a.window) if a.window else context
    return per_position * (local * seen_local + (arch.layers - local) * context)


# ---- what a model derives from it ----------------------------------------------------------

# The values a model (a preset or a config.json's reading) derives from its architecture, never
# typed, with how the page and ``compute`` name each derivation.
DERIVED = {
    "params_counted": "counted from the architecture",
    "params_active_counted": "counted from the architecture: the routed experts a token skips left out",
    "kv_per_token": "counted from the architecture: keys and values (MLA: latent and rotary key) per token, all layers",
    "flops_per_token": "counted from the architecture: 2 per multiplying weight a token uses",
    "attention_qk_width": "from the architecture: query heads x the query-key head width (MLA: with its rotary part)",
    "attention_v_width": "from the architecture: query heads x the value head width",
}


# Of those, the widths read straight off typed fields (heads, head widths): they change only when
# those do, so a preset's version fingerprint need not hold them.
SHAPES = ("attention_qk_width", "attention_v_width")


def derived(arch: Architecture, experts: bool) -> dict[str, int]:
    """DERIVED's values for ``arch``; the active count only for a mixture of experts (``experts``):
    a dense model uses every parameter, and entries read "no active count" as all."""
    c = count(arch)
    a = arch.attention
    found = {
        "params_counted": c.total,
        "kv_per_token": c.kv_per_token,
        "flops_per_token": c.flops_per_token,
        "attention_qk_width": a.heads * (a.head_dim + a.rope_dim),
        "attention_v_width": a.heads * a.v_dim,
    }
    if experts:
        found["params_active_counted"] = c.active
    return {name: found[name] for name in DERIVED if name in found}


# ---- building one from a model's values ---------------------------------------------------


def from_values(values: dict) -> Architecture:
    """The architecture that a model's values describe, in the presets' field names (name ->
    value, derived ones included): a preset's, or a config.json's reading (runtime/hfconfig.py).

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
