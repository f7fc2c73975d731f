"""A Hugging Face ``config.json`` read into a model's preset fields, each with the key it came from.

The reader's own model arrives as the ``config.json`` its checkpoint ships with.  ``read_text``
parses one safely (bounded size and nesting, finite numbers, no evaluation of anything), and
``read`` maps it, by its ``model_type``, to the fields a model preset has (``layers``,
``d_model``, ``heads``, ... as docs/presets.md lists them).  Every value records the config key
it came from; a value a config leaves out and its architecture fixes (GPT-2's feed-forward
width, 4 d) records how.  An unknown ``model_type``, a missing key or a value of the wrong
type is a ``ConfigError`` that names the key and what is allowed.

Standard library only: the page parses a pasted config with this same file, in Pyodide.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction

from . import architecture as A
from . import model_fill
from .numbers import grouped, write_input

MAX_CHARS = 256 * 1024  # real configs are a few kB; one with a large label map stays well under
MAX_DEPTH = 8  # {"text_config": {"rope_scaling": {...}}} is three deep
MAX_DIGITS = 20  # an integer longer than this is no model's dimension
LARGEST = 10**12  # no count a config gives (layers, widths, vocabularies, context) is larger


class ConfigError(ValueError):
    """A config that cannot be read: ``key`` is the key at fault ('' for the whole file)."""

    def __init__(self, key: str, message: str):
        super().__init__(f"{key}: {message}" if key else message)
        self.key = key
        self.message = message


@dataclass(frozen=True)
class Field:
    """One preset field read from a config: its value, the key it came from, how it was read."""

    value: object
    key: str = ""  # the config key ('text_config.hidden_size'); '' when the architecture fixes it
    note: str = ""


@dataclass(frozen=True)
class Reading:
    """A config read: its model_type, a name for it, and preset field -> Field, in the presets' order."""

    model_type: str
    name: str
    values: dict = field(default_factory=dict)
    architecture: A.Architecture | None = None  # the shapes, when every weight of the family is described
    uncounted: str = ""  # why there is no architecture (and so no parameter count)

    def get(self, name: str):
        return self.values[name].value


# ---- parsing the text, safely -----------------------------------------------------------------


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (checked before json parses anything)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ConfigError("", f"a number with {len(text)} digits: no config value is that long")
    return int(text)


def _float(text: str) -> float:
    if len(text) > 40:
        raise ConfigError("", f"a number written with {len(text)} characters: no config value is that long")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ConfigError("", f"{text} is beyond any number a config holds")
    return value


def _constant(name: str):
    raise ConfigError("", f"{name} is not a number JSON allows")


def read_text(text: str) -> dict:
    """The config's text -> its top-level object, or a ConfigError saying why not."""
    if not isinstance(text, str):
        raise ConfigError("", "a config.json is text")
    if len(text) > MAX_CHARS:
        raise ConfigError(
            "", f"{grouped(len(text))} characters: a config.json is at most {grouped(MAX_CHARS)} (256 KiB)"
        )
    if not text.strip():
        raise ConfigError("", "empty: paste the contents of a model's config.json")
    if _depth(text) > MAX_DEPTH:
        raise ConfigError("", f"nested more than {MAX_DEPTH} deep: no config.json is")
    try:
        data = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as bad:
        raise ConfigError("", f"not JSON: {bad.msg} at line {bad.lineno} column {bad.colno}") from None
    if not isinstance(data, dict):
        raise ConfigError("", f"a config.json is one JSON object {{...}}, not {_kind(data)}")
    return data


def _kind(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "text", int: "a number", float: "a number"}[type(value)]


# ---- reading keys, with their provenance ------------------------------------------------------


class _Keys:
    """The config's keys as one family reads them: each value read is recorded with its key."""

    def __init__(self, data: dict, model_type: str, prefix: str = ""):
        self.data, self.model_type, self.prefix = data, model_type, prefix
        self.values: dict[str, Field] = {}
        self.uncounted = ""  # why this config, of a counted family, is not counted

    def _key(self, key: str) -> str:
        return self.prefix + key

    def has(self, key: str) -> bool:
        return self.raw(key) is not None

    def raw(self, key: str):
        node = self.data
        for part in key.split("."):
            if not isinstance(node, dict):
                return None
            node = node.get(part)
        return node

    def count(self, key: str, what: str, *, zero: bool = False) -> int:
        """A whole number the family requires: present, an integer, in range."""
        value = self.raw(key)
        if value is None:
            raise ConfigError(self._key(key), f"missing: a {self.model_type} config gives {what} here")
        return self._whole(key, value, what, zero)

    def _whole(self, key: str, value, what: str, zero: bool = False) -> int:
        if isinstance(value, float) and value.is_integer() and abs(value) <= LARGEST:
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(self._key(key), f"{_kind(value)}: {what} is a whole number")
        low = 0 if zero else 1
        if not low <= value <= LARGEST:
            raise ConfigError(self._key(key), f"{value}: {what} lies between {low} and 10^12")
        return value

    def optional(self, key: str, what: str, *, zero: bool = False) -> int | None:
        value = self.raw(key)
        return None if value is None else self._whole(key, value, what, zero)

    def flag(self, key: str, default: bool) -> bool:
        value = self.raw(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ConfigError(self._key(key), f"{_kind(value)}: expected true or false")
        return value

    def text(self, key: str, allowed: tuple[str, ...] = ()) -> str | None:
        value = self.raw(key)
        if value is None:
            return None
        if not isinstance(value, str) or len(value) > 200:
            raise ConfigError(self._key(key), f"{_kind(value)}: expected a name")
        if allowed and value not in allowed:
            raise ConfigError(self._key(key), f"{value!r}: a {self.model_type} config allows {', '.join(allowed)}")
        return value

    def get_layers(self) -> int:
        return self.values["layers"].value

    def get(self, name: str):
        return self.values[name].value

    def put(self, name: str, value, key: str = "", note: str = "") -> None:
        self.values[name] = Field(value, self._key(key) if key else "", note)

    def take(self, name: str, key: str, what: str, **kw) -> int:
        value = self.count(key, what, **kw)
        self.put(name, value, key)
        return value

    def maybe(self, name: str, key: str, what: str, **kw) -> int | None:
        value = self.optional(key, what, **kw)
        if value is not None:
            self.put(name, value, key)
        return value


# ---- the families -----------------------------------------------------------------------------

GATED_ACTS = ("silu", "swish", "gelu", "gelu_pytorch_tanh", "gelu_new", "gelu_fast")


def _attention_heads(k: _Keys, layers="num_hidden_layers", width="hidden_size", heads="num_attention_heads") -> None:
    k.take("layers", layers, "the layer count")
    d = k.take("d_model", width, "the model width")
    h = k.take("heads", heads, "the number of attention heads")
    kv = k.maybe("kv_heads", "num_key_value_heads", "the number of key-value heads")
    if kv is None:
        k.put("kv_heads", h, note="num_key_value_heads absent: one key-value head per query head")
        kv = h
    if h % kv:
        raise ConfigError(k._key("num_key_value_heads"), f"{kv} does not divide num_attention_heads = {h}")
    head_dim = k.optional("head_dim", "the width of one head")
    if head_dim is not None:
        k.put("head_dim", head_dim, "head_dim")
    elif d % h:
        raise ConfigError(k._key("head_dim"), f"missing: {width} = {d} is not a multiple of {h} heads")
    else:
        k.put("head_dim", d // h, "", f"{width} / {heads}")
    kind = "mha" if kv == h else "mqa" if kv == 1 else "gqa"
    k.put(
        "attention",
        kind,
        "num_key_value_heads" if kv != h else "",
        "" if kv != h else "every head its own key and value",
    )


def _common_tail(k: _Keys, tied_default: bool) -> None:
    k.take("vocab", "vocab_size", "the vocabulary size")
    k.maybe("context", "max_position_embeddings", "the context length")
    tied = k.flag("tie_word_embeddings", tied_default)
    k.put(
        "tied_embeddings",
        tied,
        "tie_word_embeddings" if k.has("tie_word_embeddings") else "",
        ""
        if k.has("tie_word_embeddings")
        else f"tie_word_embeddings absent: a {k.model_type} config ties by default"
        if tied_default
        else f"tie_word_embeddings absent: a {k.model_type} config does not tie by default",
    )
    _dtype(k)


def _dtype(k: _Keys) -> None:
    name = k.raw("torch_dtype") or k.raw("dtype")
    sizes = {"float32": 4, "float16": 2, "bfloat16": 2}
    if isinstance(name, str) and name in sizes:
        k.put("bytes_per_param", sizes[name], "torch_dtype" if k.raw("torch_dtype") else "dtype")


def _gated(k: _Keys, act_key: str = "hidden_act") -> None:
    act = k.text(act_key) or "silu"
    k.put("ffn_kind", "gated", act_key if k.has(act_key) else "", f"{act} gate and up projections (gated)")


def _window(k: _Keys, layers: int) -> None:
    """Sliding-window attention: Mistral's on every layer, Qwen2's only from max_window_layers on."""
    window = k.raw("sliding_window")
    if window is None or (k.has("use_sliding_window") and not k.flag("use_sliding_window", False)):
        return
    window = k.optional("sliding_window", "the sliding-window size")
    k.put("window", window, "sliding_window")
    if k.has("max_window_layers"):
        local = layers - min(layers, k.count("max_window_layers", "the first layer with a window", zero=True))
        k.put("local_layers", local, "max_window_layers")
    else:
        k.put("local_layers", layers, "sliding_window", "every layer attends within the window")


def _llama(k: _Keys) -> None:
    _attention_heads(k)
    k.take("ffn_dim", "intermediate_size", "the feed-forward width")
    _gated(k)
    _window(k, k.get_layers())
    _common_tail(k, tied_default=False)


def _mixtral(k: _Keys) -> None:
    _attention_heads(k)
    _gated(k)
    k.take("experts", "num_local_experts", "the number of experts")
    k.take("experts_active", "num_experts_per_tok", "the experts per token")
    k.take("expert_ffn_dim", "intermediate_size", "the width of one expert")
    k.put("moe_layers", k.get_layers(), "num_hidden_layers", "every feed-forward block is a mixture of experts")
    _window(k, k.get_layers())
    _common_tail(k, tied_default=False)


def _qwen_moe(k: _Keys) -> None:
    """Qwen2-MoE and Qwen3-MoE: routed experts on every decoder_sparse_step-th layer but mlp_only_layers."""
    _attention_heads(k)
    _gated(k)
    layers = k.get_layers()
    k.take("experts", "num_experts", "the number of routed experts")
    k.take("experts_active", "num_experts_per_tok", "the experts per token")
    k.take("expert_ffn_dim", "moe_intermediate_size", "the width of one expert")
    step = k.optional("decoder_sparse_step", "the step between MoE layers") or 1
    dense = k.raw("mlp_only_layers") or []
    if not isinstance(dense, list) or any(isinstance(i, bool) or not isinstance(i, int) for i in dense):
        raise ConfigError(k._key("mlp_only_layers"), "expected a list of layer numbers")
    moe = sum(1 for i in range(layers) if i not in dense and (i + 1) % step == 0)
    k.put("moe_layers", moe, "decoder_sparse_step" if k.has("decoder_sparse_step") else "num_hidden_layers")
    if moe < layers:
        k.take("ffn_dim", "intermediate_size", "the width of a dense layer's feed-forward block")
    shared = k.optional("shared_expert_intermediate_size", "the shared expert's width", zero=True)
    if shared:
        k.put("shared_experts", 1, "shared_expert_intermediate_size", f"one shared expert, {shared} wide")
        k.put("shared_ffn_dim", shared, "shared_expert_intermediate_size")
    _window(k, layers)
    _common_tail(k, tied_default=False)


def _deepseek(k: _Keys) -> None:
    """DeepSeek-V2/V3: multi-head latent attention; dense first layers, then routed and shared experts."""
    layers = k.take("layers", "num_hidden_layers", "the layer count")
    k.take("d_model", "hidden_size", "the model width")
    h = k.take("heads", "num_attention_heads", "the number of attention heads")
    k.put("kv_heads", h, "num_attention_heads", "keys and values are up-projected from the latent for every head")
    k.put("attention", "mla", "kv_lora_rank")
    k.take("head_dim", "qk_nope_head_dim", "the width of a head's non-rotary query and key")
    k.take("kv_latent", "kv_lora_rank", "the key-value latent's width")
    k.take("rope_dim", "qk_rope_head_dim", "the decoupled rotary key's width")
    k.maybe("q_latent", "q_lora_rank", "the query latent's width")
    value_dim = k.count("v_head_dim", "the width of a value head")
    if value_dim != k.get("head_dim"):
        k.put("value_dim", value_dim, "v_head_dim")
    _gated(k)
    k.take("ffn_dim", "intermediate_size", "the dense layers' feed-forward width")
    k.take("experts", "n_routed_experts", "the number of routed experts")
    k.take("experts_active", "num_experts_per_tok", "the experts per token")
    k.take("shared_experts", "n_shared_experts", "the number of shared experts", zero=True)
    k.take("expert_ffn_dim", "moe_intermediate_size", "the width of one expert")
    first = k.optional("first_k_dense_replace", "the number of dense first layers", zero=True) or 0
    step = k.optional("moe_layer_freq", "the step between MoE layers") or 1
    moe = sum(1 for i in range(first, layers) if i % step == 0)
    k.put("moe_layers", moe, "first_k_dense_replace" if k.has("first_k_dense_replace") else "num_hidden_layers")
    k.maybe("mtp_modules", "num_nextn_predict_layers", "the multi-token prediction modules", zero=True)
    _common_tail(k, tied_default=False)


def _gemma(k: _Keys) -> None:
    """Gemma 1/2/3: wide heads, tied embeddings; Gemma 2 alternates local and global layers, Gemma 3
    has five local layers to each global one (or lists them in layer_types)."""
    _attention_heads(k)
    k.take("ffn_dim", "intermediate_size", "the feed-forward width")
    _gated(k, "hidden_activation" if k.has("hidden_activation") else "hidden_act")
    layers = k.get_layers()
    if k.model_type in ("gemma2", "gemma3_text", "gemma3"):
        k.take("window", "sliding_window", "the sliding-window size")
        types = k.raw("layer_types")
        if isinstance(types, list) and len(types) == layers:
            k.put("local_layers", sum(t == "sliding_attention" for t in types), "layer_types")
        elif k.model_type == "gemma2":
            k.put("local_layers", (layers + 1) // 2, "num_hidden_layers", "every other layer, from the first")
        else:
            pattern = k.optional("sliding_window_pattern", "the layers per global layer") or 6
            local = layers - layers // pattern
            k.put("local_layers", local, "sliding_window_pattern" if k.has("sliding_window_pattern") else "")
    _common_tail(k, tied_default=True)


def _phimoe(k: _Keys) -> None:
    _attention_heads(k)
    _gated(k)
    k.take("experts", "num_local_experts", "the number of experts")
    k.take("experts_active", "num_experts_per_tok", "the experts per token")
    k.take("expert_ffn_dim", "intermediate_size", "the width of one expert")
    k.put("moe_layers", k.get_layers(), "num_hidden_layers", "every feed-forward block is a mixture of experts")
    _window(k, k.get_layers())
    _common_tail(k, tied_default=False)


def _gpt2(k: _Keys) -> None:
    k.take("layers", "n_layer", "the layer count")
    d = k.take("d_model", "n_embd", "the model width")
    h = k.take("heads", "n_head", "the number of attention heads")
    if d % h:
        raise ConfigError(k._key("n_head"), f"{h} does not divide n_embd = {d}")
    k.put("kv_heads", h, "n_head", "one key-value head per query head")
    k.put("head_dim", d // h, "", "n_embd / n_head")
    k.put("attention", "mha", "", "every head its own key and value")
    inner = k.optional("n_inner", "the feed-forward width")
    if inner is None:
        k.put("ffn_dim", 4 * d, "", "n_inner null: GPT-2's feed-forward width is 4 n_embd")
    else:
        k.put("ffn_dim", inner, "n_inner")
    k.put("ffn_kind", "gelu", "activation_function" if k.has("activation_function") else "", "GELU")
    k.take("vocab", "vocab_size", "the vocabulary size")
    k.take("context", "n_positions", "the context length")
    k.put("tied_embeddings", True, "", "GPT-2's output layer is its token embedding")
    _dtype(k)


def _opt(k: _Keys) -> None:
    """OPT: learned positions with an offset of 2 rows, biases on every projection (enable_bias),
    LayerNorms before each sublayer and after the last layer (do_layer_norm_before), tied output."""
    _attention_heads(k)
    k.take("ffn_dim", "ffn_dim", "the feed-forward width")
    act = k.text("activation_function")
    k.put(
        "ffn_kind",
        "relu" if act in (None, "relu") else "gelu",
        "activation_function" if k.has("activation_function") else "",
        "" if k.has("activation_function") else "activation_function absent: OPTConfig's relu",
    )
    _common_tail(k, tied_default=True)
    context = k.values.get("context")
    if context is not None:  # OPTLearnedPositionalEmbedding keeps 2 rows before position 0
        k.put("positions", context.value + 2, "max_position_embeddings", "a learned position table, 2 rows more")
    if k.flag("enable_bias", True):
        for name in ("qkv_bias", "out_bias", "ffn_bias"):
            k.put(name, True, "enable_bias" if k.has("enable_bias") else "", "" if k.has("enable_bias") else _OPT_BIAS)
    before = k.flag("do_layer_norm_before", True)
    if not before or k.flag("_remove_final_layer_norm", False):  # OPTDecoder's final_layer_norm
        k.put("final_norm", False, "do_layer_norm_before" if not before else "_remove_final_layer_norm")
    width = k.optional("word_embed_proj_dim", "the token table's width")
    if width is not None and width != k.get("d_model"):  # OPT-350M: project_in and project_out
        k.uncounted = (
            f"word_embed_proj_dim {width} differs from hidden_size: project_in and project_out are not counted here"
        )
    if not k.flag("layer_norm_elementwise_affine", True):
        k.uncounted = "layer_norm_elementwise_affine false: LayerNorms without weights are not counted here"


_OPT_BIAS = "enable_bias absent: OPTConfig's true, a bias on every projection"


def _bert(k: _Keys) -> None:
    """BERT: learned absolute positions and segment types, a LayerNorm after the embeddings and
    after each sublayer (none after the last layer), biases on every projection, and a pooler."""
    _attention_heads(k)
    k.take("ffn_dim", "intermediate_size", "the feed-forward width")
    k.put("ffn_kind", "gelu", "hidden_act" if k.has("hidden_act") else "", "GELU")
    k.take("vocab", "vocab_size", "the vocabulary size")
    context = k.maybe("context", "max_position_embeddings", "the context length")
    kind = k.text("position_embedding_type") or "absolute"
    if kind != "absolute":
        raise ConfigError(
            k._key("position_embedding_type"), f"{kind!r}: only absolute (learned) positions are read here"
        )
    if context is None:
        raise ConfigError(k._key("max_position_embeddings"), "missing: a bert config gives its position table's rows")
    k.put("positions", context, "max_position_embeddings", "a learned position table")
    segments = k.optional("type_vocab_size", "the number of segment types", zero=True)
    if segments:
        k.put("segments", segments, "type_vocab_size", "a learned segment (token type) table")
    k.put("tied_embeddings", True, "", "BERT's masked-LM output layer is its token embedding")
    _dtype(k)


def _t5(k: _Keys) -> None:
    """T5: an encoder and a decoder (num_layers, num_decoder_layers), heads of d_kv, relative
    positions in buckets (one table per stack), T5LayerNorm (a scale only) and no biases; the
    feed-forward block is ReLU or GELU, or gated (feed_forward_proj "gated-gelu", T5 v1.1)."""
    enc = k.take("encoder_layers", "num_layers", "the encoder's layer count")
    dec = k.optional("num_decoder_layers", "the decoder's layer count")
    if dec is None:
        k.put("decoder_layers", enc, "num_layers", "num_decoder_layers absent: as many as the encoder")
        dec = enc
    else:
        k.put("decoder_layers", dec, "num_decoder_layers")
    k.put("layers", enc + dec, "num_layers", "encoder plus decoder layers")
    k.take("d_model", "d_model", "the model width")
    h = k.take("heads", "num_heads", "the number of attention heads")
    k.take("head_dim", "d_kv", "the width of one head")
    k.put("kv_heads", h, "num_heads", "one key-value head per query head")
    k.put("attention", "mha", "", "every head its own key and value")
    k.take("ffn_dim", "d_ff", "the feed-forward width")
    proj = k.text("feed_forward_proj") or "relu"
    gated, act = proj.startswith("gated-"), proj.removeprefix("gated-")
    if "-" in act or not act:
        raise ConfigError(
            k._key("feed_forward_proj"), f"{proj!r}: a t5 config gives an activation, or gated-<activation>"
        )
    key = "feed_forward_proj" if k.has("feed_forward_proj") else ""
    if gated:
        k.put("ffn_kind", "gated", key, f"{act} gate and a linear projection (wi_0, wi_1), then wo")
    elif act == "relu" or act.startswith("gelu"):
        k.put("ffn_kind", "relu" if act == "relu" else "gelu", key, "" if key else "feed_forward_proj absent: relu")
    else:
        raise ConfigError(k._key("feed_forward_proj"), f"{proj!r}: read here are relu, gelu and gated-<activation>")
    k.take("vocab", "vocab_size", "the vocabulary size")
    k.maybe("context", "n_positions", "the context length")
    buckets = k.optional("relative_attention_num_buckets", "the relative position buckets")
    if buckets is None:
        k.put("relative_buckets", 32, "", "relative_attention_num_buckets absent: T5Config's 32")
    else:
        k.put("relative_buckets", buckets, "relative_attention_num_buckets")
    k.put(
        "relative_positions",
        "buckets",
        "relative_attention_num_buckets" if buckets is not None else "",
        "a table of buckets x heads in each stack's first layer, shared by its layers",
    )
    tied = k.flag("tie_word_embeddings", True)
    k.put(
        "tied_embeddings",
        tied,
        "tie_word_embeddings" if k.has("tie_word_embeddings") else "",
        "" if k.has("tie_word_embeddings") else f"tie_word_embeddings absent: a {k.model_type} config's default",
    )
    _dtype(k)


def _falcon(k: _Keys) -> None:
    layers = "num_hidden_layers" if k.has("num_hidden_layers") else "n_layer"
    heads = "num_attention_heads" if k.has("num_attention_heads") else "n_head"
    k.take("layers", layers, "the layer count")
    d = k.take("d_model", "hidden_size", "the model width")
    h = k.take("heads", heads, "the number of attention heads")
    new = k.flag("new_decoder_architecture", False)
    if new:
        kv = k.count("num_kv_heads", "the number of key-value heads")
        key = "num_kv_heads"
    elif k.flag("multi_query", True):
        kv, key = 1, "multi_query"
    else:
        kv, key = h, "multi_query"
    k.put("kv_heads", kv, key)
    k.put("attention", "mha" if kv == h else "mqa" if kv == 1 else "gqa", key)
    if d % h:
        raise ConfigError(k._key(heads), f"{h} does not divide hidden_size = {d}")
    k.put("head_dim", d // h, "", f"hidden_size / {heads}")
    inner = k.optional("ffn_hidden_size", "the feed-forward width")
    if inner is None:
        k.put("ffn_dim", 4 * d, "", "ffn_hidden_size absent: Falcon's feed-forward width is 4 hidden_size")
    else:
        k.put("ffn_dim", inner, "ffn_hidden_size")
    k.put("ffn_kind", "gelu", "", "GELU")
    if k.flag("bias", False):  # one flag for every linear layer's bias
        for name in ("qkv_bias", "out_bias", "ffn_bias"):
            k.put(name, True, "bias")
    if k.flag("parallel_attn", True):  # attention and the MLP read the same normed input
        if new and k.has("num_ln_in_parallel_attn"):
            norms = k.count("num_ln_in_parallel_attn", "the norms of a parallel block")
            key, how = "num_ln_in_parallel_attn", ""
        elif new:
            norms, key, how = 2, "new_decoder_architecture", "ln_attn and ln_mlp, one for attention and one for the MLP"
        else:
            norms, key, how = 1, "parallel_attn", "one input_layernorm that attention and the MLP share"
        k.put("norms_per_layer", norms, key, how)
    k.take("vocab", "vocab_size", "the vocabulary size")
    k.maybe("context", "max_position_embeddings", "the context length")
    tied = k.flag("tie_word_embeddings", True)
    k.put(
        "tied_embeddings",
        tied,
        "tie_word_embeddings" if k.has("tie_word_embeddings") else "",
        "" if k.has("tie_word_embeddings") else f"tie_word_embeddings absent: a {k.model_type} config's default",
    )
    _dtype(k)


def _dbrx(k: _Keys) -> None:
    k.take("layers", "n_layers", "the layer count")
    k.take("d_model", "d_model", "the model width")
    h = k.take("heads", "n_heads", "the number of attention heads")
    kv = k.take("kv_heads", "attn_config.kv_n_heads", "the number of key-value heads")
    k.put("attention", "mha" if kv == h else "mqa" if kv == 1 else "gqa", "attn_config.kv_n_heads")
    d = k.get("d_model")
    if d % h:
        raise ConfigError(k._key("n_heads"), f"{h} does not divide d_model = {d}")
    k.put("head_dim", d // h, "", "d_model / n_heads")
    k.put("ffn_kind", "gated", "ffn_config.ffn_act_fn" if k.has("ffn_config.ffn_act_fn") else "")
    k.take("experts", "ffn_config.moe_num_experts", "the number of experts")
    k.take("experts_active", "ffn_config.moe_top_k", "the experts per token")
    k.take("expert_ffn_dim", "ffn_config.ffn_hidden_size", "the width of one expert")
    k.put("moe_layers", k.get_layers(), "n_layers", "every feed-forward block is a mixture of experts")
    k.take("vocab", "vocab_size", "the vocabulary size")
    k.maybe("context", "max_seq_len", "the context length")
    tied = k.flag("tie_word_embeddings", False)
    k.put(
        "tied_embeddings",
        tied,
        "tie_word_embeddings" if k.has("tie_word_embeddings") else "",
        "" if k.has("tie_word_embeddings") else f"tie_word_embeddings absent: a {k.model_type} config's default",
    )
    _dtype(k)


# model_type -> its reader, in the order the error lists them.
FAMILIES: dict = {
    "bert": _bert,
    "dbrx": _dbrx,
    "deepseek_v2": _deepseek,
    "deepseek_v3": _deepseek,
    "falcon": _falcon,
    "gemma": _gemma,
    "gemma2": _gemma,
    "gemma3": _gemma,
    "gemma3_text": _gemma,
    "gpt2": _gpt2,
    "kimi_k2": _deepseek,  # Kimi K2 is DeepSeek-V3's architecture (DeepseekV3ForCausalLM)
    "llama": _llama,
    "mistral": _llama,
    "mixtral": _mixtral,
    "olmo2": _llama,
    "opt": _opt,
    "phi3": _llama,
    "phimoe": _phimoe,
    "qwen2": _llama,
    "qwen2_moe": _qwen_moe,
    "qwen3": _llama,
    "qwen3_moe": _qwen_moe,
    "t5": _t5,
}

NESTED = {"gemma3": "text_config"}  # a multimodal config keeps its language model's keys here


def read(data: dict) -> Reading:
    """A parsed config -> its preset fields, or a ConfigError naming the key at fault."""
    model_type = data.get("model_type")
    if model_type is None:
        raise ConfigError("model_type", f"missing: a config.json names its architecture; known: {', '.join(FAMILIES)}")
    if not isinstance(model_type, str) or model_type not in FAMILIES:
        shown = repr(model_type[:60]) if isinstance(model_type, str) else _kind(model_type)
        raise ConfigError("model_type", f"{shown} is not an architecture read here; known: {', '.join(FAMILIES)}")
    prefix = NESTED.get(model_type, "")
    node = data
    if prefix:
        node = data.get(prefix)
        if not isinstance(node, dict):
            raise ConfigError(prefix, f"missing: a {model_type} config keeps its language model's keys here")
        prefix += "."
    keys = _Keys(node, model_type, prefix)
    FAMILIES[model_type](keys)
    arch, why = _architecture(keys)
    if arch is not None:
        for name, value in A.derived(arch, "experts" in keys.values).items():
            keys.put(name, value, "", A.DERIVED[name])
    # The variants the model selects in the entries it fills, as a preset's derived choices.
    for name, value, why in model_fill.choices({n: f.value for n, f in keys.values.items()}):
        keys.put(name, value, "", why)
    return Reading(model_type, _name(data), dict(keys.values), arch, why)


# ---- the architecture, for the counts ----------------------------------------------------------

# Families whose every weight the architecture describes.  Not yet counted (their fields are
# read): Qwen2-MoE, Gemma (1), Gemma 3 and DBRX, whose real configs are not yet among the
# test data the counts are held to.
COUNTED = (
    *("llama", "mistral", "mixtral", "phi3", "qwen2", "qwen3", "qwen3_moe", "olmo2", "falcon"),
    *("deepseek_v2", "deepseek_v3", "kimi_k2", "phimoe", "gpt2", "gemma2", "bert", "t5", "opt"),
)
# How a family departs from a Llama block (RMSNorm, no biases), in the presets' field names.
_DEPARTS = {
    "qwen2": {"qkv_bias": True},
    "qwen3": {"qk_norm": "head"},
    "qwen3_moe": {"qk_norm": "head"},
    "olmo2": {"qk_norm": "full"},  # q_norm over every query head, k_norm over every key head
    "phimoe": {"norm": "layernorm", "qkv_bias": True, "out_bias": True},
    "falcon": {"norm": "layernorm"},  # biases as its bias key says (read with the family)
    "opt": {"norm": "layernorm"},  # biases as enable_bias says (read with the family)
    "deepseek_v3": {"router_bias": True},
    "kimi_k2": {"router_bias": True},
    "gpt2": {"norm": "layernorm", "qkv_bias": True, "out_bias": True, "ffn_bias": True},
    # Gemma 2: RMSNorm before and after attention and before and after the feed-forward layer.
    "gemma2": {"norms_per_layer": 4},
    # BertModel: LayerNorms after the embeddings and after each sublayer, biased projections, a pooler.
    "bert": {
        "norm": "layernorm",
        "qkv_bias": True,
        "out_bias": True,
        "ffn_bias": True,
        "embedding_norm": True,
        "final_norm": False,
        "pooler": "counted",
    },
}
# Where a family's norm has a name of its own, what it is.
_NORM_OF = {"t5": "the family's norm: T5LayerNorm, a scale and no bias, no mean subtracted (rmsnorm)"}
_HOW = {
    "norm": "the family's norm",
    "qkv_bias": "the family's query, key and value projections carry biases",
    "out_bias": "the family's output projection carries a bias",
    "ffn_bias": "the family's feed-forward matrices carry biases",
    "qk_norm": "the family norms each head's queries and keys (q_norm, k_norm)",
    "qk_norm_full": "the family norms the queries and the keys over all their heads (q_norm, k_norm)",
    "router_bias": "the family's router carries a score-correction bias per expert",
    "norms_per_layer": "the family's norms in each layer (input_layernorm, post_attention_layernorm, "
    "pre_feedforward_layernorm, post_feedforward_layernorm)",
    "embedding_norm": "the family norms the summed embeddings (embeddings.LayerNorm)",
    "final_norm": "the family's norms follow each sublayer: none after the last layer",
    "pooler": "BertModel's pooler (a d x d dense layer with its bias), which the published count includes",
}


def _architecture(k: _Keys):
    """(Architecture, '') for a family the architecture describes whole, else (None, why not).
    Puts the architecture's own fields (norm, biases, positions, ...) among the reading's values."""
    if k.model_type not in COUNTED:
        return None, f"the parameter count of a config of model_type {k.model_type} is not derived here yet"
    if k.uncounted:
        return None, k.uncounted
    departs = _DEPARTS.get(k.model_type, {})
    norm = departs.get("norm", "rmsnorm")
    k.put("norm", norm, "", _NORM_OF.get(k.model_type, f"{_HOW['norm']}: {norm}"))
    if k.has("attention_bias"):  # the config says; else the family's own
        biased = k.flag("attention_bias", False)
        if biased:
            k.put("qkv_bias", True, "attention_bias")
            k.put("out_bias", True, "attention_bias")
    else:
        for name in ("qkv_bias", "out_bias"):
            if departs.get(name):
                k.put(name, True, "", _HOW[name])
    for name in ("ffn_bias", "qk_norm", "router_bias", "norms_per_layer", "embedding_norm", "final_norm", "pooler"):
        if name in departs:
            how = _HOW.get(f"{name}_{departs[name]}", _HOW[name])
            k.put(name, departs[name], "", how)
    if k.flag("lm_head_bias", False):
        k.put("output_bias", True, "lm_head_bias")
    if k.model_type == "gpt2":
        k.put("positions", k.get("context"), "n_positions", "a learned position table")
    if k.values.get("mtp_modules") and k.get("mtp_modules"):
        k.put("mtp", "left_out", "", "the card's total leaves the multi-token prediction module out")
    elif "mtp_modules" in k.values:
        del k.values["mtp_modules"]
    v = {name: f.value for name, f in k.values.items()}
    try:
        return A.from_values(v), ""
    except A.ArchitectureError as bad:
        raise ConfigError("", f"these keys describe no transformer: {bad}") from None


def _name(data: dict) -> str:
    for key in ("_name_or_path", "architectures"):
        value = data.get(key)
        if isinstance(value, list) and value and isinstance(value[0], str):
            value = value[0]
        if isinstance(value, str) and value.strip():
            return value.strip()[:80]
    return str(data.get("model_type"))


def read_config(text: str) -> Reading:
    """The text of a config.json -> its preset fields (``read_text``, then ``read``)."""
    return read(read_text(text))


# ---- filling an entry's inputs ----------------------------------------------------------------


def convert(value, op: str, factor: str):
    """A field's value in an input's unit: ``field / 1e9`` or ``field * 8`` (an entry's fill mapping)."""
    if isinstance(value, bool) or isinstance(value, str) or not factor:
        return value
    exact = Fraction(value) * Fraction(factor) if op == "*" else Fraction(value) / Fraction(factor)
    return int(exact) if exact.denominator == 1 else float(exact)


def filled(reading: Reading, mapping: list) -> dict:
    """input -> [its text, the config key, how it was read] for each ``[input, field, op, factor]`` of
    an entry's model fill mapping that the config gives."""
    out = {}
    for name, field_name, op, factor, *_ in mapping:
        if field_name not in reading.values:
            continue
        got = reading.values[field_name]
        value = convert(got.value, op, factor)
        text = (
            ("true" if value else "false")
            if isinstance(value, bool)
            else value
            if isinstance(value, str)
            else write_input(value)
        )
        out[name] = [text, got.key, got.note]
    return out


def fill_reply(text: str, mapping: list) -> tuple[dict, Reading | None]:
    """A pasted config and an entry's model fill mapping (rows of input, field, op, factor and
    whether the field is optional) -> (the page's reply, the reading): the inputs it fills, or the
    error that refused it (then no reading; nothing else is run)."""
    try:
        reading = read_config(text)
    except ConfigError as bad:
        return {"ok": False, "error": str(bad)}, None
    lacks = sorted({row[1] for row in mapping if len(row) > 4 and not row[4]} - set(reading.values))  # required
    if lacks:  # as a preset that lacks them is not offered: a partial model fills nothing
        why = f"; {reading.uncounted}" if reading.uncounted else ""
        return {"ok": False, "error": f"{reading.name} gives no {', '.join(lacks)}, which this entry needs{why}"}, None
    values = filled(reading, mapping)
    missing = sorted({row[1] for row in mapping} - set(reading.values))
    return (
        {"ok": True, "name": reading.name, "model_type": reading.model_type, "values": values, "missing": missing},
        reading,
    )


def fill_json(text: str, mapping_json: str) -> str:
    """``fill_reply`` as JSON text (the mapping as JSON text too)."""
    try:
        mapping = json.loads(mapping_json)
    except ValueError as bad:
        return json.dumps({"ok": False, "error": f"the fill mapping: {bad}"})
    return json.dumps(fill_reply(text, mapping)[0])
