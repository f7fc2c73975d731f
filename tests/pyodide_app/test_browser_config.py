"""Paste a config.json, in real Chromium against the built site: a real config fills the inputs,
each marked with its key, through the runtime in the worker; a hostile paste is refused and
changes nothing; the code loads only when first used."""

from __future__ import annotations

import pytest

from tests.browsing import assert_nothing_injected, open_entry
from tests.support import TESTS

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node

CONFIGS = TESTS / "data" / "configs"
NBSP = "\u00a0"


def paste(page, text):
    page.fill("#config-text", text)
    page.click("#config-fill")
    page.wait_for_function("() => !['', 'Reading…'].includes(document.getElementById('config-status').textContent)")
    return page.text_content("#config-status")


def test_pasting_a_real_config_fills_35_and_a_hostile_one_is_refused(page, server):
    loaded = []
    page.on("request", lambda request: loaded.append(request.url))
    open_entry(page, server, "/35/")
    assert not any(url.endswith("config.js") for url in loaded)  # not part of the first load
    page.click("#config-paste")
    page.wait_for_selector("#config-text")
    assert any("config" in url.rsplit("/", 1)[-1] and url.endswith(".js") for url in loaded)
    status = paste(page, (CONFIGS / "llama-3-1-8b.json").read_text())
    assert status.startswith("Filled 5 inputs from LlamaForCausalLM (llama)"), status
    assert [page.input_value(f"#in-{n}") for n in ("L", "H_kv", "d_head", "s")] == ["32", "8", "128", "131072"]
    assert page.text_content("#mark-L") == "From config.json (LlamaForCausalLM): num_hidden_layers"
    page.wait_for_function(f"() => document.getElementById('out-total').textContent === '17.18{NBSP}GB'")
    before = {n: page.input_value(f"#in-{n}") for n in ("L", "H_kv", "d_head", "s")}
    hostile = [
        (
            '{"model_type": "llama", "num_hidden_layers": "<img src=x onerror=alert(1)>"}',
            "Refused, nothing filled: num_hidden_layers: text: the layer count is a whole number",
        ),
        ("[" * 50 + "]" * 50, "Refused, nothing filled: nested more than 8 deep: no config.json is"),
        ("{\"model_type\": \"__import__('os').system('x')\"}", "Refused, nothing filled: model_type: "),
        ("x" * (300 * 1024), "Refused: 307,200 characters; a config.json is at most 262,144 (256 KiB)."),
        (
            '{"model_type": "llama", "num_hidden_layers": NaN}',
            "Refused, nothing filled: NaN is not a number JSON allows",
        ),
    ]
    for text, message in hostile:
        assert paste(page, text).startswith(message)
        assert {n: page.input_value(f"#in-{n}") for n in before} == before
    assert_nothing_injected(page)
    assert page.problems == []


def test_a_pasted_config_sets_the_variants_and_says_where_16_departs(page, server):
    """A config sets choice inputs as a preset does (41 from Mixtral: experts sized from the
    architecture, the published 12.9B active), and on 16 a model beyond the block is said."""
    open_entry(page, server, "/41/")
    page.click("#config-paste")
    page.wait_for_selector("#config-text")
    status = paste(page, (CONFIGS / "mixtral-8x7b.json").read_text())
    assert status.startswith("Filled "), status
    assert page.input_value("#in-sizing") == "layers" and page.input_value("#in-f") == ", ".join(["1/8"] * 8)
    page.wait_for_function("() => document.getElementById('out-active').textContent.startsWith('1.288')")
    assert page.is_hidden("#config-departs")
    open_entry(page, server, "/16/")
    page.click("#config-paste")
    page.wait_for_selector("#config-text")
    assert paste(page, (CONFIGS / "deepseek-v2-lite.json").read_text()).startswith("Filled ")
    said = page.text_content("#config-departs")
    assert said.startswith("This entry's count differs from the architecture count of DeepseekV2ForCausalLM")
    assert "multi-head latent attention's low-rank projections" in said and page.is_visible("#config-departs")
    assert paste(page, (CONFIGS / "llama-2-7b.json").read_text()).startswith("Filled ")
    assert page.is_hidden("#config-departs")
    assert page.problems == []
