"""The one count of a model's parameters (site_builder/runtime/architecture.py), against counts
that tensor-by-tensor sums of released checkpoints give (each written out below), and its refusals."""

from __future__ import annotations

import pytest

from site_builder.runtime.architecture import (
    Architecture,
    ArchitectureError,
    Attention,
    Embeddings,
    Experts,
    FeedForward,
    Norms,
    attention_flops,
    count,
    kv_cache,
)


def gpt2_small():
    return Architecture(
        layers=12,
        d_model=768,
        embeddings=Embeddings(vocab=50257, tied=True, positions=1024),
        attention=Attention("mha", 12, 12, 64, qkv_bias=True, out_bias=True),
        ffn=FeedForward("gelu", 3072, bias=True),
    )


def llama2_7b():
    return Architecture(
        layers=32,
        d_model=4096,
        embeddings=Embeddings(vocab=32000),
        attention=Attention("mha", 32, 32, 128),
        ffn=FeedForward("gated", 11008),
        norms=Norms("rmsnorm"),
    )


def mixtral():
    return Architecture(
        layers=32,
        d_model=4096,
        embeddings=Embeddings(vocab=32000),
        attention=Attention("gqa", 32, 8, 128),
        ffn=FeedForward("gated", 0),
        norms=Norms("rmsnorm"),
        experts=Experts(routed=8, active=2, width=14336),
    )


def test_gpt2_small_by_hand():
    # wte 50257*768 + wpe 1024*768 + 12 * (attn 4*768^2 + 4*768 + mlp 2*768*3072 + 3072 + 768
    # + two layernorms 4*768) + ln_f 2*768
    by_hand = 50257 * 768 + 1024 * 768 + 12 * (4 * 768**2 + 4 * 768 + 2 * 768 * 3072 + 3072 + 768 + 4 * 768) + 1536
    c = count(gpt2_small())
    assert c.total == by_hand == 124_439_808
    assert c.active == c.total
    assert dict(c.parts)["embedding"] == 50257 * 768 and "output" not in dict(c.parts)


def test_llama2_7b_by_hand():
    by_hand = 2 * 32000 * 4096 + 32 * (4 * 4096**2 + 3 * 4096 * 11008 + 2 * 4096) + 4096
    assert count(llama2_7b()).total == by_hand == 6_738_415_616
    assert count(llama2_7b()).kv_per_token == 2 * 32 * 4096


def test_mixtral_total_and_active():
    c = count(mixtral())
    layer_attention = 2 * 4096 * 4096 + 2 * 4096 * 1024
    expert = 3 * 4096 * 14336
    shared = 2 * 32000 * 4096 + 32 * (layer_attention + 8 * 4096 + 2 * 4096) + 4096
    assert c.total == shared + 32 * 8 * expert == 46_702_792_704
    assert c.active == shared + 32 * 2 * expert == 12_879_925_248
    assert dict(c.parts)["router"] == 32 * 8 * 4096
    assert dict(c.active_parts)["routed_experts"] == 32 * 2 * expert


def test_gemma3_27b_counts_four_norms_a_layer_and_per_head_query_key_norms():
    """Gemma3ForCausalLM's tensors (modeling_gemma3.py) at the 27B shapes, one by one."""
    d, q, kv, ffn = 5376, 32 * 128, 16 * 128, 21504
    arch = Architecture(
        layers=62,
        d_model=d,
        embeddings=Embeddings(vocab=262208, tied=True),
        attention=Attention("gqa", 32, 16, 128, window=1024, local_layers=52, qk_norm="head"),
        ffn=FeedForward("gated", ffn),
        norms=Norms("rmsnorm", per_layer=4),
    )
    # q_proj, k_proj, v_proj, o_proj; q_norm and k_norm (128 each); gate_proj, up_proj, down_proj;
    # input_layernorm, post_attention_layernorm, pre_ and post_feedforward_layernorm.
    layer = d * q + 2 * d * kv + q * d + 2 * 128 + 3 * d * ffn + 4 * d
    by_hand = 262208 * d + 62 * layer + d  # embed_tokens (the tied lm_head), the layers, norm
    c = count(arch)
    assert c.total == by_hand == 27_009_346_304
    assert c.total - c.part("embedding") == 25_599_716_096  # the report's Table 1: 25,600M
    # 52 local layers keep at most 1024 tokens; the 10 global ones the whole context.
    assert kv_cache(arch, 32768) == 52 * 2 * kv * 1024 + 10 * 2 * kv * 32768


def test_phi35_moe_counts_its_biases_and_layernorms():
    """PhiMoEForCausalLM's tensors (vLLM's phimoe.py) at Phi-3.5-MoE's shapes, one by one."""
    d, kv, width, vocab = 4096, 8 * 128, 6400, 32064
    arch = Architecture(
        layers=32,
        d_model=d,
        embeddings=Embeddings(vocab=vocab, tied=False, output_bias=True),
        attention=Attention("gqa", 32, 8, 128, qkv_bias=True, out_bias=True),
        ffn=FeedForward("gated", 0),
        norms=Norms("layernorm"),
        experts=Experts(routed=16, active=2, width=width),
    )
    # q, k, v, o with biases; the gate (no bias); w1, w2, w3 of each expert; two LayerNorms.
    attention = d * d + d + 2 * (d * kv + kv) + d * d + d
    expert = 3 * d * width
    shared = 32 * (attention + 16 * d + 2 * 2 * d) + 2 * vocab * d + vocab + 2 * d
    c = count(arch)
    assert c.total == shared + 32 * 16 * expert == 41_873_153_344
    assert c.active == shared + 32 * 2 * expert == 6_640_999_744


def test_mla_counts_its_low_rank_projections_and_caches_the_latent():
    d, h = 5120, 128
    arch = Architecture(
        layers=60,
        d_model=d,
        embeddings=Embeddings(vocab=102400),
        attention=Attention("mla", h, h, 128, value_dim=128, q_rank=1536, kv_rank=512, rope_dim=64),
        ffn=FeedForward("gated", 12288),
        norms=Norms("rmsnorm"),
        experts=Experts(routed=160, active=6, width=1536, shared=2, dense_layers=1),
    )
    c = count(arch)
    attention = (d * 1536 + 1536 + 1536 * h * 192) + (d * 576 + 512 + 512 * h * 256) + h * 128 * d
    assert c.part("attention") == 60 * attention
    expert = 3 * d * 1536
    assert c.part("feed_forward") == 3 * d * 12288
    assert c.part("shared_experts") == 59 * 2 * expert
    assert c.total - c.active == 59 * (160 - 6) * expert
    assert c.kv_per_token == 60 * (512 + 64)


def test_encoder_decoder_counts_cross_attention_and_a_norm_for_it():
    arch = Architecture(
        layers=12,
        encoder_layers=12,
        d_model=768,
        embeddings=Embeddings(vocab=32128, tied=True),
        attention=Attention("mha", 12, 12, 64, relative="buckets", relative_buckets=32),
        ffn=FeedForward("relu", 3072),
        norms=Norms("rmsnorm"),
    )
    c = count(arch)
    # t5-base: shared 32128*768; per encoder layer 4*768^2 + 2*768*3072 + 2*768; per decoder
    # layer 8*768^2 + 2*768*3072 + 3*768; two final norms; two bucket tables of 32 x 12.
    by_hand = 32128 * 768 + 12 * (4 * 768**2 + 2 * 768 * 3072 + 2 * 768)
    by_hand += 12 * (8 * 768**2 + 2 * 768 * 3072 + 3 * 768) + 2 * 768 + 2 * 32 * 12
    assert c.total == by_hand == 222_903_552
    assert c.part("cross_attention") == 12 * 4 * 768**2


def test_extras_counted_or_left_out_as_the_architecture_says():
    base = dict(
        layers=12,
        d_model=768,
        embeddings=Embeddings(vocab=30522, tied=True, positions=512, segments=2, norm=True),
        attention=Attention("mha", 12, 12, 64, qkv_bias=True, out_bias=True),
        ffn=FeedForward("gelu", 3072, bias=True),
        norms=Norms(final=False),
        pooler=True,
    )
    with_pooler = count(Architecture(**base))
    assert with_pooler.total == 109_482_240  # bert-base-uncased's BertModel
    without = count(Architecture(**base, count_pooler=False))
    assert without.total == 109_482_240 - (768 * 768 + 768)
    assert without.left_out == (("pooler", 768 * 768 + 768),)


def test_sliding_window_caps_the_cache_of_local_layers():
    arch = Architecture(
        layers=4,
        d_model=64,
        embeddings=Embeddings(vocab=100),
        attention=Attention("gqa", 4, 2, 16, window=8, local_layers=2),
        ffn=FeedForward("gated", 128),
        norms=Norms("rmsnorm"),
    )
    per = 2 * 2 * 16
    assert kv_cache(arch, 100) == 2 * per * 8 + 2 * per * 100
    assert kv_cache(arch, 4) == 4 * per * 4
    assert attention_flops(arch, 100) == 2 * 4 * 32 * (2 * 8 + 2 * 100)


def test_flops_per_token_are_two_per_multiplying_weight():
    c = count(llama2_7b())
    assert c.flops_per_token == 2 * (c.total - 32000 * 4096)
    tied = count(gpt2_small())
    assert tied.flops_per_token == 2 * (tied.total - 1024 * 768)


@pytest.mark.parametrize(
    "change, message",
    [
        (
            dict(attention=Attention("gqa", 32, 5, 128)),
            "attention.kv_heads: 5 must divide heads 32 into groups for gqa",
        ),
        (dict(attention=Attention("mha", 32, 8, 128)), "attention.kv_heads: 8 must equal heads 32 for mha"),
        (dict(attention=Attention("mqa", 32, 2, 128)), "attention.kv_heads: 2 must be 1 for mqa"),
        (dict(attention=Attention("flash", 32, 32, 128)), "attention.kind: 'flash' is not one of mha, gqa, mqa, mla"),
        (dict(attention=Attention("mla", 32, 32, 128)), "attention.kv_rank: mla needs its key-value rank"),
        (dict(attention=Attention("mha", 32, 32, 128, rope_dim=64)), "attention.rope_dim: only mla has rope_dim"),
        (dict(ffn=FeedForward("swish", 100)), "ffn.kind: 'swish' is not one of gelu, relu, gated"),
        (dict(ffn=FeedForward("gated", 0)), "ffn.width: a dense model needs its feed-forward width"),
        (dict(layers=0), "layers: 0 must be a whole number >= 1"),
        (dict(experts=Experts(8, 9, 100)), "experts.active: 9 exceeds routed 8"),
        (
            dict(attention=Attention("mha", 32, 32, 128, local_layers=3)),
            "attention.local_layers: given without window",
        ),
    ],
)
def test_an_impossible_architecture_is_refused_naming_its_field(change, message):
    fields = dict(
        layers=32,
        d_model=4096,
        embeddings=Embeddings(vocab=32000),
        attention=Attention("mha", 32, 32, 128),
        ffn=FeedForward("gated", 11008),
    )
    fields.update(change)
    with pytest.raises(ArchitectureError) as raised:
        Architecture(**fields)
    assert str(raised.value) == message
