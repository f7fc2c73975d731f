"""A model's own config.json: read into preset fields with the key of each, counted through the
architecture, refused cleanly when bad or hostile; ``compute --config`` and ``presets import``."""

from __future__ import annotations

import json

import pytest

from site_builder.cli import main
from site_builder.errors import Problems
from site_builder.load import presets as P
from site_builder.runtime import architecture as A
from site_builder.runtime import hfconfig as H
from tests.support import ENTRIES, TESTS

CONFIGS = TESTS / "data" / "configs"
FILES = sorted(CONFIGS.glob("*.json"))
BAD = TESTS / "bad_configs"
BAD_FILES = sorted(BAD.glob("*.json"))


def _config(name: str) -> dict:
    return json.loads((CONFIGS / f"{name}.json").read_text())


def hf_tensors(c: dict) -> int:
    """The checkpoint's parameters as the Hugging Face modelling code lays out its tensors, summed
    shape by shape: an independent count to hold the architecture's against (Llama-style blocks:
    llama, mistral, mixtral, qwen2, phi3, phimoe, olmo2, whose two norms follow attention and the
    feed-forward layer instead of preceding them, and gemma2, with four; Falcon's parallel blocks;
    GPT-2; BERT's encoder; T5's encoder and decoder; and OPT's biased pre-norm blocks)."""
    t = c["model_type"]
    if t == "opt":  # OPTForCausalLM: embed_tokens, embed_positions (2 extra rows), layers.*, final_layer_norm
        d, L, v, ffn = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"], c["ffn_dim"]
        # q_proj, k_proj, v_proj, out_proj, fc1 and fc2 with biases; self_attn_layer_norm and final_layer_norm
        layer = 4 * (d * d + d) + (d * ffn + ffn) + (ffn * d + d) + 2 * (2 * d)
        final = 2 * d if c.get("do_layer_norm_before", True) and not c.get("_remove_final_layer_norm") else 0
        return v * d + (c["max_position_embeddings"] + 2) * d + L * layer + final  # lm_head is embed_tokens
    if t == "t5":  # T5ForConditionalGeneration: shared, encoder.block.*, decoder.block.*, final_layer_norm each
        d, v, h, kv, ffn = c["d_model"], c["vocab_size"], c["num_heads"], c["d_kv"], c["d_ff"]
        enc, dec = c["num_layers"], c.get("num_decoder_layers") or c["num_layers"]
        attention = 4 * d * h * kv  # q, k, v, o: no biases
        mlp = (3 if c.get("feed_forward_proj", "relu").startswith("gated-") else 2) * d * ffn  # wi (wi_0, wi_1), wo
        encoder = enc * (attention + mlp + 2 * d) + c.get("relative_attention_num_buckets", 32) * h + d
        # each decoder block: SelfAttention, EncDecAttention and the MLP, each with its T5LayerNorm (a scale)
        decoder = dec * (2 * attention + mlp + 3 * d) + c.get("relative_attention_num_buckets", 32) * h + d
        lm_head = 0 if c.get("tie_word_embeddings", True) else v * d
        return v * d + encoder + decoder + lm_head
    if t == "bert":  # BertModel: embeddings (word, position, token type, LayerNorm), encoder.layer.*, pooler
        d, L, v, ffn = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"], c["intermediate_size"]
        embeddings = v * d + c["max_position_embeddings"] * d + c["type_vocab_size"] * d + 2 * d
        # query, key, value and attention.output.dense with biases; its LayerNorm; intermediate.dense,
        # output.dense and output.LayerNorm.
        layer = 4 * (d * d + d) + 2 * d + (d * ffn + ffn) + (ffn * d + d) + 2 * d
        return embeddings + L * layer + (d * d + d)  # pooler.dense
    if t == "gpt2":
        d, v, n, L = c["n_embd"], c["vocab_size"], c["n_positions"], c["n_layer"]
        inner = c.get("n_inner") or 4 * d
        block = (d * 3 * d + 3 * d) + (d * d + d) + (d * inner + inner) + (inner * d + d) + 2 * (2 * d)
        return v * d + n * d + L * block + 2 * d  # wte, wpe, h.*, ln_f; lm_head is wte
    if t == "falcon":  # word_embeddings, h.* (fused query_key_value, dense, the MLP, the layernorms), ln_f
        d, L, v, h = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"], c["num_attention_heads"]
        kv = c["num_kv_heads"] if c.get("new_decoder_architecture") else 1 if c.get("multi_query", True) else h
        hd, ffn = d // h, c.get("ffn_hidden_size") or 4 * d
        lns = (2 if c.get("new_decoder_architecture") else 1) * 2 * d  # LayerNorms with biases
        block = d * (h + 2 * kv) * hd + h * hd * d + 2 * d * ffn + lns
        return v * d + L * block + 2 * d  # lm_head is word_embeddings
    d, L, v = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"]
    h, kv = c["num_attention_heads"], c.get("num_key_value_heads", c["num_attention_heads"])
    hd = c.get("head_dim") or d // h
    bias = c.get("attention_bias", t in ("qwen2", "phimoe"))
    q_proj = d * h * hd + (h * hd if bias else 0)
    k_proj = v_proj = d * kv * hd + (kv * hd if bias else 0)
    o_proj = h * hd * d + (d if bias and t != "qwen2" else 0)
    norm = 2 * d if t == "phimoe" else d  # PhiMoE's LayerNorm has a bias
    norms = 4 if t == "gemma2" else 2  # Gemma 2 norms before and after attention and the MLP
    if t in ("mixtral", "phimoe"):
        e, w = c["num_local_experts"], c["intermediate_size"]
        mlp = e * 3 * d * w + e * d  # experts' w1, w2, w3 and the gate
    elif t == "qwen3_moe":
        e, w = c["num_experts"], c["moe_intermediate_size"]
        mlp = e * 3 * d * w + e * d  # experts' gate, up and down projections and the router
    else:
        mlp = 3 * d * c["intermediate_size"]  # gate_proj, up_proj, down_proj
    qk_norm = 2 * hd if t in ("qwen3", "qwen3_moe") else 0  # q_norm, k_norm over one head's width
    if t == "olmo2":
        qk_norm = h * hd + kv * hd  # q_norm over every query head, k_norm over every key head
    block = q_proj + k_proj + v_proj + o_proj + qk_norm + mlp + norms * norm
    tied = c.get("tie_word_embeddings", t == "gemma2")  # Gemma's config class ties by default
    lm_head = 0 if tied else v * d + (v if c.get("lm_head_bias") else 0)
    return v * d + L * block + norm + lm_head


# The count each config implies, as its checkpoint reports it (the sum of its tensors).
CHECKPOINT = {
    "codellama-34b": 33_743_970_304,
    "deepseek-v2-lite": 15_706_484_224,
    "gpt2": 124_439_808,
    "llama-2-7b": 6_738_415_616,
    "llama-2-70b": 68_976_648_192,
    "llama-3-1-8b": 8_030_261_248,
    "llama-3-1-70b": 70_553_706_496,
    "mistral-nemo": 12_247_782_400,
    "mixtral-8x7b": 46_702_792_704,
    "qwen2-5-7b": 7_615_616_512,
    "qwen2-5-1-5b": 1_543_714_304,
    "qwen2-5-32b": 32_763_876_352,
    "qwen2-5-72b": 72_706_203_648,
    "llama-2-13b": 13_015_864_320,
    "llama-3-1-405b": 405_853_388_800,
    "llama-3-3-70b": 70_553_706_496,
    "mixtral-8x22b": 140_620_634_112,
    "deepseek-v3": 671_026_419_200,  # without the multi-token prediction module, as the card counts 671B
    "deepseek-r1": 671_026_419_200,
    "qwen3-8b": 8_190_735_360,
    "qwen3-14b": 14_768_307_200,
    "qwen3-32b": 32_762_123_264,
    "qwen3-30b-a3b": 30_532_122_624,
    "qwen3-235b-a22b": 235_093_634_560,
    "qwen3-coder-480b-a35b": 480_154_875_392,
    "qwen2-5-3b": 3_085_938_688,
    "mistral-7b": 7_241_732_096,
    "deepseek-v3-1": 671_026_419_200,
    "llama-3-2-1b": 1_235_814_400,
    "llama-3-2-3b": 3_212_749_824,
    # gemma-2-9b-it's model.safetensors.index.json: total_size 18,483,411,968 bytes, 2 a parameter (bfloat16)
    "gemma-2-9b": 9_241_705_984,
}

# The model preset each config is of, where its file is not named by the preset's id.
PRESET_OF = {"codellama-34b": "code-llama-34b", "gpt2": "gpt-2-small", "mistral-nemo": "mistral-nemo-12b"}
# Where a config's count and its preset's differ, by how much and why (each difference sourced).
DIFFERS: dict = {}  # preset id -> what its count adds to the config's, each with the reason


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_real_config_reads(path):
    reading = H.read_config(path.read_text())
    assert reading.model_type == json.loads(path.read_text())["model_type"]
    for name in ("layers", "d_model", "heads", "kv_heads", "head_dim", "vocab"):
        assert name in reading.values, name
    for name, got in reading.values.items():  # every value says where it came from
        assert got.key or got.note, name
        if got.key:
            assert H._Keys(json.loads(path.read_text()), "").raw(got.key) is not None, got.key


@pytest.mark.parametrize("name", sorted(CHECKPOINT))
def test_count_from_config_is_the_checkpoints(name):
    reading = H.read_config((CONFIGS / f"{name}.json").read_text())
    assert reading.get("params_counted") == CHECKPOINT[name]


@pytest.mark.parametrize(
    "name",
    [
        p.stem
        for p in FILES
        if json.loads(p.read_text())["model_type"]
        in (
            *("llama", "mistral", "mixtral", "qwen2", "qwen3", "qwen3_moe", "phimoe", "olmo2", "falcon", "gpt2"),
            *("gemma2", "bert", "phi3", "t5", "opt"),
        )
    ],
)
def test_count_from_config_equals_the_tensor_by_tensor_sum(name):
    assert H.read_config((CONFIGS / f"{name}.json").read_text()).get("params_counted") == hf_tensors(_config(name))


def test_every_config_is_of_a_preset(model_presets):
    assert not [p.stem for p in FILES if PRESET_OF.get(p.stem, p.stem) not in model_presets]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_count_from_config_is_the_presets(path, model_presets):
    """The count a real config gives is its preset's, to the parameter (the active count too, for
    a mixture of experts), or differs by what DIFFERS says."""
    reading = H.read_config(path.read_text())
    preset = model_presets[PRESET_OF.get(path.stem, path.stem)]
    assert reading.get("params_counted") + DIFFERS.get(path.stem, 0) == preset.get("params_counted")
    if "experts" in reading.values:
        assert reading.get("params_active_counted") + DIFFERS.get(path.stem, 0) == preset.get("params_active_counted")
    else:
        assert not preset.has("params_active_counted")


def test_gemma2_config_counts_four_norms_a_layer_and_alternating_windows():
    gemma = H.read_config((CONFIGS / "gemma-2-9b.json").read_text())
    assert (
        gemma.values["norms_per_layer"].value == 4
        and "post_feedforward_layernorm" in gemma.values["norms_per_layer"].note
    )
    assert gemma.get("head_dim") == 256 and gemma.values["head_dim"].key == "head_dim"  # 16 x 256 != 3584
    assert gemma.get("local_layers") == 21 and gemma.get("window") == 4096
    assert gemma.values["tied_embeddings"] == H.Field(
        True, "", "tie_word_embeddings absent: a gemma2 config ties by default"
    )
    assert gemma.architecture.norms.per_layer == 4 and gemma.architecture.embeddings.tied


def test_bert_config_counts_positions_segments_and_the_pooler():
    bert = H.read_config((CONFIGS / "bert-base.json").read_text())
    arch = bert.architecture
    assert (arch.embeddings.positions, arch.embeddings.segments, arch.embeddings.norm) == (512, 2, True)
    assert (
        bert.values["segments"].key == "type_vocab_size" and bert.values["positions"].key == "max_position_embeddings"
    )
    assert not arch.norms.final and arch.norms.kind == "layernorm" and arch.ffn.bias
    assert arch.pooler and arch.count_pooler  # the paper's 110M is BertModel's, its pooler included
    counted = A.count(arch)
    assert counted.part("pooler") == 768 * 768 + 768 and counted.total == 109_482_240
    relative = dict(_config("bert-base"), position_embedding_type="relative_key")
    with pytest.raises(H.ConfigError, match="only absolute"):
        H.read(relative)


def test_phi4_config_has_no_window():
    phi4 = H.read_config((CONFIGS / "phi-4.json").read_text())
    assert _config("phi-4")["sliding_window"] is None
    assert "window" not in phi4.values and "local_layers" not in phi4.values
    assert phi4.get("attention") == "gqa" and phi4.get("head_dim") == 128  # 5120 / 40, 10 key-value heads
    assert phi4.get("params_counted") == 14_659_507_200


def test_t5_config_counts_both_stacks_and_their_bucket_tables():
    t5 = H.read_config((CONFIGS / "t5-base.json").read_text())
    assert (t5.get("encoder_layers"), t5.get("decoder_layers"), t5.get("layers")) == (12, 12, 24)
    assert t5.values["decoder_layers"].key == "num_decoder_layers" and t5.values["head_dim"] == H.Field(64, "d_kv")
    assert t5.get("relative_positions") == "buckets" and t5.values["relative_buckets"].key == (
        "relative_attention_num_buckets"
    )
    assert t5.get("ffn_kind") == "relu" and t5.get("tied_embeddings") and "T5LayerNorm" in t5.values["norm"].note
    arch = t5.architecture
    assert arch.norms.kind == "rmsnorm" and not arch.norms.bias and not arch.attention.qkv_bias
    counted = A.count(arch)
    assert counted.part("relative") == 2 * 32 * 12  # one table in each stack's first layer
    assert counted.part("cross_attention") == 12 * 4 * 768 * 768
    assert counted.total == 222_903_552  # the paper's "about 220 million"
    v11 = dict(_config("t5-base"), feed_forward_proj="gated-gelu", tie_word_embeddings=False)
    gated = H.read(v11)
    assert gated.get("ffn_kind") == "gated" and not gated.get("tied_embeddings")
    assert gated.get("params_counted") == hf_tensors(v11)
    with pytest.raises(H.ConfigError, match="feed_forward_proj"):
        H.read(dict(_config("t5-base"), feed_forward_proj="tanh"))


def test_moe_active_counts():
    mixtral = H.read_config((CONFIGS / "mixtral-8x7b.json").read_text())
    assert mixtral.get("params_active_counted") == 12_879_925_248  # the announcement's 12.9B
    lite = H.read_config((CONFIGS / "deepseek-v2-lite.json").read_text())
    assert lite.get("params_active_counted") == 2_661_150_208  # the card's 2.4B activated, excluding the embeddings
    assert lite.get("moe_layers") == 26 and lite.values["moe_layers"].key == "first_k_dense_replace"
    assert lite.architecture.attention.kind == "mla" and lite.architecture.attention.q_rank == 0


def test_what_the_config_fixes_is_named():
    gpt2 = H.read_config((CONFIGS / "gpt2.json").read_text())
    assert gpt2.values["ffn_dim"] == H.Field(3072, "", "n_inner null: GPT-2's feed-forward width is 4 n_embd")
    qwen = H.read_config((CONFIGS / "qwen2-5-7b.json").read_text())
    assert "window" not in qwen.values  # use_sliding_window: false
    nemo = H.read_config((CONFIGS / "mistral-nemo.json").read_text())
    assert nemo.values["head_dim"] == H.Field(128, "head_dim")  # 5120 / 32 = 160 is not its head


def test_families_not_yet_counted_say_so():
    text = json.dumps(
        {
            "model_type": "gemma",
            "num_hidden_layers": 2,
            "hidden_size": 64,
            "num_attention_heads": 4,
            "intermediate_size": 256,
            "vocab_size": 100,
        }
    )
    gemma = H.read_config(text)
    assert "params_counted" not in gemma.values and gemma.architecture is None
    assert gemma.uncounted == "the parameter count of a config of model_type gemma is not derived here yet"


def test_opt_config_counts_its_offset_positions_and_biases():
    opt = H.read_config((CONFIGS / "opt-13b.json").read_text())
    assert opt.values["positions"] == H.Field(2050, "max_position_embeddings", "a learned position table, 2 rows more")
    assert all(opt.get(name) for name in ("qkv_bias", "out_bias", "ffn_bias")) and opt.get("tied_embeddings")
    arch = opt.architecture
    assert arch.norms.kind == "layernorm" and arch.norms.bias and arch.norms.final
    counted = A.count(arch)
    assert counted.part("positions") == 2050 * 5120
    assert counted.total == 12_853_473_280 == hf_tensors(_config("opt-13b"))
    assert counted.kv_per_token * 2 == 800 * 1024  # 800 KB a token at 2 bytes, the vLLM paper's figure
    post = H.read(dict(_config("opt-13b"), do_layer_norm_before=False))  # OPT-350M's post-norm layers
    assert post.values["final_norm"] == H.Field(False, "do_layer_norm_before")
    assert post.get("params_counted") == 12_853_473_280 - 2 * 5120
    narrow = H.read(dict(_config("opt-13b"), word_embed_proj_dim=512))
    assert narrow.architecture is None and "project_in and project_out" in narrow.uncounted


def test_deepseek_v3_counts_its_mtp_module_apart():
    v3 = H.read_config((CONFIGS / "deepseek-v3.json").read_text())
    counted = A.count(v3.architecture)
    assert v3.architecture.mtp == 1 and not v3.architecture.count_mtp
    assert "mtp" in dict(counted.left_out) and counted.part("mtp") == 0
    assert v3.get("params_active_counted") == 37_552_297_472  # the card's 37B activated
    assert v3.architecture.experts.router_bias and v3.architecture.experts.dense_layers == 3


def test_query_and_key_norms_are_counted():
    qwen3 = H.read_config((CONFIGS / "qwen3-8b.json").read_text()).architecture
    assert qwen3.attention.qk_norm == "head"
    plain = A.count(
        A.Architecture(**{**qwen3.__dict__, "attention": A.Attention(**{**qwen3.attention.__dict__, "qk_norm": ""})})
    )
    assert A.count(qwen3).total - plain.total == 36 * 2 * 128


@pytest.mark.parametrize("path", BAD_FILES, ids=[p.stem for p in BAD_FILES])
def test_bad_config_reports_exactly(path, capsys):
    assert main(["compute", "35", "--config", str(path)]) == 2
    expected = path.with_suffix(".txt").read_text().replace("{path}", str(path))
    assert capsys.readouterr().err == expected


@pytest.mark.parametrize(
    "text, message",
    [
        ("x" * (H.MAX_CHARS + 1), f"{H.MAX_CHARS + 1:,} characters: a config.json is at most 262,144 (256 KiB)"),
        ("[" * 100_000 + "]" * 100_000, "nested more than 8 deep: no config.json is"),
        ("[" * 9 + "]" * 9, "nested more than 8 deep: no config.json is"),
        (
            '{"a": "[[[[[[[[[[[["}',
            "model_type: missing: a config.json names its architecture; known: " + ", ".join(H.FAMILIES),
        ),
        ("", "empty: paste the contents of a model's config.json"),
        (
            '{"model_type": "__import__(\'os\')"}',
            "model_type: \"__import__('os')\" is not an architecture read here; known: " + ", ".join(H.FAMILIES),
        ),
        (
            '{"model_type": "llama", "num_hidden_layers": true}',
            "num_hidden_layers: true: the layer count is a whole number",
        ),
        (
            '{"model_type": "llama", "num_hidden_layers": 1.5}',
            "num_hidden_layers: a number: the layer count is a whole number",
        ),
        (
            '{"model_type": ["llama"]}',
            "model_type: a list is not an architecture read here; known: " + ", ".join(H.FAMILIES),
        ),
        ('{"model_type": "llama", "x": -Infinity}', "-Infinity is not a number JSON allows"),
    ],
)
def test_hostile_text_is_refused_cleanly(text, message):
    with pytest.raises(H.ConfigError) as refused:
        H.read_config(text)
    assert str(refused.value) == message


def test_fill_json_is_what_the_page_gets():
    text = (CONFIGS / "llama-3-1-8b.json").read_text()
    mapping = [
        ["L", "layers", "", ""],
        ["s", "context", "/", "1024"],
        ["N", "params_counted", "", ""],
        ["x", "experts", "", ""],
    ]
    got = json.loads(H.fill_json(text, json.dumps(mapping)))
    assert got["ok"] and got["model_type"] == "llama" and got["missing"] == ["experts"]
    assert got["values"]["L"] == ["32", "num_hidden_layers", ""]
    assert got["values"]["s"] == ["128", "max_position_embeddings", ""]
    assert got["values"]["N"][0] == "8030261248" and got["values"]["N"][1] == ""
    bad = json.loads(H.fill_json('{"model_type": "rwkv"}', "[]"))
    assert bad == {
        "ok": False,
        "error": "model_type: 'rwkv' is not an architecture read here; known: " + ", ".join(H.FAMILIES),
    }


def test_compute_with_a_config_prints_each_key(capsys):
    path = CONFIGS / "mixtral-8x7b.json"
    assert main(["compute", "41", "--config", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"from {path} (MixtralForCausalLM, model_type mixtral):" in out
    assert "    E = 8  (num_local_experts)" in out
    assert "    k = 2  (num_experts_per_tok)" in out
    assert "    N = 46702792704  (params_counted = counted from the architecture)" in out
    assert "  sizing = layers: MixtralForCausalLM selects it, because the model gives each expert's width" in out
    assert "  Active parameters per token                              1.288 × 10¹⁰ parameters" in out  # 12.9B


def test_compute_with_a_config_that_fills_nothing(tmp_path, capsys):
    path = tmp_path / "config.json"
    path.write_text(
        json.dumps(
            {
                "model_type": "gemma",
                "num_hidden_layers": 2,
                "hidden_size": 64,
                "num_attention_heads": 4,
                "intermediate_size": 256,
                "vocab_size": 100,
            }
        )
    )  # a Gemma (1) config is read, but not yet counted: entry 1 needs the count
    assert main(["compute", "1", "--config", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"--config: {path} does not fill Entry 1: it gives no params_counted, which the entry needs from a model\n"
        "--config: the parameter count of a config of model_type gemma is not derived here yet\n"
    )


def test_import_writes_a_preset_the_loader_accepts(tmp_path, capsys):
    entries = tmp_path / "entries"
    path = CONFIGS / "mistral-nemo.json"
    args = ["--entries", str(entries), "presets", "import", str(path), "--id", "mistral-nemo-12b"]
    args += ["--url", "https://huggingface.co/mistralai/Mistral-Nemo-Instruct-2407/blob/main/config.json"]
    assert main(args) == 0
    written = entries / "presets" / "models" / "mistral-nemo-12b.yaml"
    assert f"wrote {written}" in capsys.readouterr().out
    problems = Problems()
    preset = P.load_preset(written, problems)
    assert not problems, problems.report()
    assert preset.get("layers") == 40 and preset.values["layers"].note == "num_hidden_layers"
    assert preset.get("head_dim") == 128 and preset.values["head_dim"].note == "head_dim"
    assert preset.get("params_counted") == 12_247_782_400 and "params" not in preset.values  # the card's, by hand
    assert preset.sources["config"].title == "mistralai/Mistral-Nemo-Instruct-2407 config.json"
    assert preset.sources["config"].where.startswith("head_dim, hidden_act, hidden_size")
    assert preset.values["norm"].source == "code"  # the config leaves it to its family's code
    # Never overwritten silently.
    assert main(args) == 2
    assert capsys.readouterr().err == f"{written}: exists; pass --force to replace it, or --id to name another\n"
    assert main([*args, "--force"]) == 0


def test_import_needs_an_address_when_the_config_names_no_repository(tmp_path, capsys):
    assert main(["--entries", str(tmp_path), "presets", "import", str(CONFIGS / "gpt2.json")]) == 2
    assert "give its address with --url https://..." in capsys.readouterr().err


def test_shipped_presets_still_load():
    problems = Problems()
    P.load_presets(ENTRIES, problems)
    assert not problems, problems.report()


def test_architecture_is_the_runtimes_one_shape():
    reading = H.read_config((CONFIGS / "gpt2.json").read_text())
    assert isinstance(reading.architecture, A.Architecture)
    assert A.count(reading.architecture).total == reading.get("params_counted")


def test_olmo2_config_counts_its_full_query_and_key_norms():
    olmo = H.read_config((CONFIGS / "olmo-2-7b.json").read_text())
    assert olmo.values["qk_norm"].value == "full" and "all their heads" in olmo.values["qk_norm"].note
    plain = A.count(
        A.Architecture(
            **{
                **olmo.architecture.__dict__,
                "attention": A.Attention(**{**olmo.architecture.attention.__dict__, "qk_norm": ""}),
            }
        )
    )
    assert olmo.get("params_counted") - plain.total == 32 * (4096 + 4096)  # 32 layers, MHA: 32 x 128 each


def test_an_imported_multi_query_config_stays_multi_query(tmp_path):
    """One key-value head is written down (the loader derives mqa from it), not dropped as if derived."""
    from site_builder.load.preset_import import write_preset

    falcon = {"model_type": "falcon", "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4}
    falcon.update(multi_query=True, parallel_attn=True, bias=False, vocab_size=100)
    reading = H.read_config(json.dumps(falcon))
    assert reading.get("attention") == "mqa" and reading.get("norms_per_layer") == 1
    url = "https://huggingface.co/f/blob/main/config.json"
    written = write_preset(reading, tmp_path / "models", id="f", name="f", family="f", url=url, force=False)
    problems = Problems()
    preset = P.load_preset(written, problems)
    assert not problems, problems.report()
    assert preset.get("attention") == "mqa" and preset.get("kv_heads") == 1
    assert preset.get("params_counted") == reading.get("params_counted")


def test_full_query_and_key_norms_span_every_head():
    base = dict(layers=1, d_model=64, embeddings=A.Embeddings(10), ffn=A.FeedForward("gated", 8))
    plain = A.count(A.Architecture(attention=A.Attention("gqa", 8, 2, 8), **base)).total
    full = A.count(A.Architecture(attention=A.Attention("gqa", 8, 2, 8, qk_norm="full"), **base)).total
    assert full - plain == 8 * 8 + 2 * 8  # a scale over the 8 query heads and one over the 2 key heads
    with pytest.raises(A.ArchitectureError, match="attention.qk_norm: 'rms' is not one of none, head, full"):
        A.Architecture(attention=A.Attention("gqa", 8, 2, 8, qk_norm="rms"), **base)


COUNTED = [p.stem for p in FILES if H.read_config(p.read_text()).architecture is not None]


@pytest.mark.parametrize("name", COUNTED)
def test_an_imported_preset_is_counted_as_its_config(name, tmp_path):
    """The presets' own path (preset file -> model_architecture -> the one count) gives the config's count."""
    from site_builder.load.preset_import import write_preset
    from site_builder.runtime.architecture import from_values

    reading = H.read_config((CONFIGS / f"{name}.json").read_text())
    url = f"https://huggingface.co/{name}/blob/main/config.json"
    written = write_preset(reading, tmp_path / "models", id=name, name=name, family="f", url=url, force=False)
    problems = Problems()
    preset = P.load_preset(written, problems)
    assert not problems, problems.report()
    assert from_values({k: v.value for k, v in preset.values.items()}) == reading.architecture
    for field in ("params_counted", "params_active_counted", "kv_per_token", "flops_per_token"):
        assert (
            preset.values.get(field, None)
            and preset.get(field) == reading.get(field)
            or (field not in reading.values and field not in preset.values)
        ), field


def test_a_config_selects_the_variants_a_preset_would():
    """A reader's config.json sets the choice inputs a preset sets: entry 41 from Mixtral's config
    sizes its experts from the architecture and gives the published 12.9B active."""
    from site_builder.runtime import api as R
    from tests.support import load_bank

    reading = H.read_config((CONFIGS / "mixtral-8x7b.json").read_text())
    assert reading.get("moe_sizing") == "layers" and reading.get("expert_shares") == ", ".join(["1/8"] * 8)
    assert reading.values["moe_sizing"].note.startswith("the model gives each expert's width")
    entries, _ = load_bank()
    by_key = {e.key: e for e in entries}
    for key in ("41", "16"):
        spec = by_key[key].spec()
        R.load(json.dumps(spec))
    mapping = [[f.input, f.field, f.op, f.factor] for f in by_key["41"].fill if f.kind == "model"]
    reply = json.loads(R.config_json("41", (CONFIGS / "mixtral-8x7b.json").read_text(), json.dumps(mapping)))
    assert reply["values"]["sizing"][0] == "layers" and reply["values"]["f"][0] == ", ".join(["1/8"] * 8)
    raw = {name: value[0] for name, value in reply["values"].items()}
    assert json.loads(R.run_json("41", json.dumps(raw)))["value"]["outputs"]["active"]["value"] == 12_879_925_248
    assert "departs" not in reply  # no output of 41 is marked as a count of the whole model
    mapping = [[f.input, f.field, f.op, f.factor] for f in by_key["16"].fill if f.kind == "model"]
    lite = json.loads(R.config_json("16", (CONFIGS / "deepseek-v2-lite.json").read_text(), json.dumps(mapping)))
    assert lite["departs"].startswith("This entry's count differs from the architecture count of DeepseekV2ForCausalLM")
    assert "multi-head latent attention's low-rank projections" in lite["departs"]
    llama = json.loads(R.config_json("16", (CONFIGS / "llama-2-7b.json").read_text(), json.dumps(mapping)))
    assert "departs" not in llama and llama["values"]["L"][0] == "32"


def test_a_paste_that_lacks_what_the_entry_needs_fills_nothing():
    """As a preset lacking a required field is not offered, a config that cannot give entry 1 its
    parameter count (Gemma (1)'s is not counted yet) is refused whole, not half-filled."""
    from tests.support import load_bank

    entries, _ = load_bank()
    one = next(e for e in entries if e.key == "1")
    mapping = [[f.input, f.field, f.op, f.factor, f.optional] for f in one.fill if f.kind == "model"]
    text = json.dumps({"model_type": "gemma", "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4})
    text = text[:-1] + ', "intermediate_size": 256, "vocab_size": 100}'
    reply, reading = H.fill_reply(text, mapping)
    assert reading is None and reply == {
        "ok": False,
        "error": "gemma gives no params_counted, which this entry needs;"
        " the parameter count of a config of model_type gemma is not derived here yet",
    }
