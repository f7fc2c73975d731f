"""Fill from a model / an accelerator, in real Chromium against the built site: the inputs set,
each marked with its source, the reader's own changes kept, the link reproducing, and a
hostile preset name in a link ignored with a notice."""

from __future__ import annotations

from urllib.parse import parse_qs, quote, urlsplit

import pytest

from tests.browsing import PAYLOADS, assert_nothing_injected, held_back, open_entry, open_hostile

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node

NBSP = "\u00a0"


def wait_output(page, name, text):
    page.wait_for_function(f"() => document.getElementById('out-{name}').textContent === {text!r}")


def query(page):
    return parse_qs(urlsplit(page.url).query)


def wait_query(page, key, value):
    page.wait_for_function(f"() => new URLSearchParams(location.search).get({key!r}) === {value!r}")


def test_filling_35_from_a_model_marks_each_input_with_its_source(page, server):
    open_entry(page, server, "/35/")
    assert page.is_visible("#presets")
    page.select_option("#preset-model", "llama-3-70b")
    wait_output(page, "total", f"2.684{NBSP}GB")  # 2 x 80 x 8 x 128 x 2 B x 8192 tokens
    assert [page.input_value(f"#in-{n}") for n in ("L", "H_kv", "d_head", "s", "B")] == ["80", "8", "128", "8192", "1"]
    mark = page.text_content("#mark-L")
    assert mark.startswith("From Llama 3 70B: The Llama 3 Herd of Models, Table 3")
    assert page.get_attribute("#mark-L a", "href") == "https://arxiv.org/abs/2407.21783"
    assert "d_model / heads" in page.text_content("#mark-d_head")  # a derived value says how
    assert page.query_selector("#mark-B") is None  # not a preset's field
    wait_query(page, "model", "llama-3-70b")
    assert "L" not in query(page)  # the preset carries it
    # The reader changes one filled input: it is theirs now, unmarked, and the link carries it.
    page.fill("#in-L", "40")
    wait_output(page, "total", f"1.342{NBSP}GB")
    assert page.query_selector("#mark-L") is None and page.query_selector("#mark-H_kv") is not None
    wait_query(page, "L", "40")
    assert query(page)["model"] == ["llama-3-70b"]
    # Choosing no preset puts the inputs it still set back to the entry's defaults.
    page.select_option("#preset-model", "")
    page.wait_for_function("() => !new URLSearchParams(location.search).has('model')")
    assert page.input_value("#in-s") == "4096" and page.input_value("#in-L") == "40"
    assert page.query_selector(".preset-mark") is None
    assert page.problems == []


def test_a_model_chosen_before_the_menus_code_arrives_is_filled_when_it_does(page, server):
    """presets.js loads on the menus' first use: a choice made before it is there is made then,
    and an input the reader typed before it is kept, as if the code had been there all along."""
    open_entry(page, server, "/35/")
    with held_back(page, "**/static/presets.js"):
        page.fill("#in-s", "16384")
        with page.expect_request("**/static/presets.js"):
            page.select_option("#preset-model", "llama-3-70b")
        assert page.query_selector("#mark-L") is None  # not yet: its code is held back
    wait_output(page, "total", f"5.369{NBSP}GB")  # 2 x 80 x 8 x 128 x 2 B x 16,384 tokens
    assert [page.input_value(f"#in-{n}") for n in ("L", "H_kv", "d_head", "s")] == ["80", "8", "128", "16384"]
    assert page.text_content("#mark-L").startswith("From Llama 3 70B")
    assert page.query_selector("#mark-s") is None and "8,192" in page.text_content(
        "#offer-s"
    )  # the reader's value kept
    wait_query(page, "model", "llama-3-70b")
    assert query(page)["s"] == ["16384"]
    assert page.problems == []


def test_filling_37_from_a_model_and_an_accelerator_and_the_link_reproduces(page, server, browser):
    open_entry(page, server, "/37/")
    page.select_option("#preset-model", "llama-3-70b")
    page.select_option("#preset-hardware", "h100-sxm")
    wait_output(page, "ceiling", f"23.7{NBSP}tokens/s")  # 3.35 TB/s over 2 x 70,553,706,496 bytes
    assert page.input_value("#in-bandwidth") == "3.35T" and page.input_value("#in-peak_flops") == "989.4T"
    assert "From NVIDIA H100 SXM: NVIDIA H100 Tensor Core GPU datasheet" in page.text_content("#mark-bandwidth")
    assert "whitepaper" in page.text_content("#mark-peak_flops")
    wait_query(page, "hardware", "h100-sxm")
    link = urlsplit(page.url)
    assert parse_qs(link.query) == {"model": ["llama-3-70b"], "hardware": ["h100-sxm"], "version": ["1"]}
    other = browser.new_context().new_page()
    other.problems = []
    other.on("console", lambda m: other.problems.append(m.text) if m.type in ("error", "warning") else None)
    open_entry(other, server, f"{link.path}?{link.query}")
    wait_output(other, "ceiling", f"23.7{NBSP}tokens/s")
    assert other.input_value("#preset-model") == "llama-3-70b" and other.input_value("#preset-hardware") == "h100-sxm"
    assert other.input_value("#in-N") == "70553706496" and other.query_selector("#mark-peak_flops") is not None
    assert "(derived: counted from the architecture)" in other.text_content("#mark-N")
    assert page.problems == [] and other.problems == []
    other.context.close()


def test_filling_41_from_mixtral_selects_the_architecture_sizing_and_follows_its_experts(page, server):
    open_entry(page, server, "/41/")
    page.select_option("#preset-model", "mixtral-8x7b")
    page.wait_for_function("() => document.getElementById('out-active').textContent.startsWith('1.288')")
    assert page.input_value("#in-sizing") == "layers"  # the choice follows the model
    assert page.input_value("#in-f") == ", ".join(["1/8"] * 8)  # the per-expert list follows E = 8
    assert page.input_value("#in-E") == "8" and page.input_value("#in-N") == "46702792704"
    assert "the model gives each expert's width (expert_ffn_dim)" in page.text_content("#mark-sizing")
    # No model: the book's sizing and its 64 shares come back.
    page.select_option("#preset-model", "")
    page.wait_for_function("() => document.getElementById('in-sizing').value === 'share'")
    assert page.input_value("#in-f").count("1/64") == 64
    assert page.problems == []


def test_filling_16_from_a_model_beyond_its_block_says_both_counts(page, server):
    """Entry 16's block is the book's, with variants; T5's encoder and relative positions are beyond
    it, so the fill says the entry's count and the architecture's, until the reader changes a value."""
    open_entry(page, server, "/16/")
    page.select_option("#preset-model", "t5-11b")
    wait_output(page, "model_total", f"9,696,674,816{NBSP}parameters")
    said = page.text_content("#departs-model")
    assert said.startswith("This entry's count differs from the architecture count of T5-11B: whole model")
    assert "11,307,321,344" in said and "the decoder's cross-attention; relative-position weights" in said
    page.fill("#in-L", "12")  # another model now: the note goes
    page.wait_for_function("() => !document.getElementById('departs-model')")
    page.select_option("#preset-model", "llama-2-7b")  # counted exactly by the block's variants
    page.wait_for_function("() => document.getElementById('in-d').value === '4096'")
    assert page.query_selector("#departs-model") is None
    assert page.problems == []


def test_inputs_in_the_link_override_the_preset(page, server):
    open_entry(page, server, "/35/?model=llama-3-70b&s=32k")
    wait_output(page, "total", f"10.49{NBSP}GB")  # 327,680 B per token x 32,000 tokens
    assert page.input_value("#in-s") == "32k" and page.query_selector("#mark-s") is None
    assert page.input_value("#in-L") == "80" and page.query_selector("#mark-L") is not None
    assert page.problems == []


def test_a_preset_that_does_not_fill_the_entry_is_ignored_with_a_notice(page, server):
    open_entry(page, server, "/35/?hardware=h100-sxm")
    page.wait_for_selector("#notice:not([hidden])")
    assert "Ignored the link's hardware “h100-sxm”" in page.text_content("#notice")
    assert page.input_value("#in-L") == "80" and page.query_selector(".preset-mark") is None
    assert page.problems == []


@pytest.mark.parametrize("payload", PAYLOADS)
def test_hostile_preset_names_are_inert_and_noticed(page, server, payload):
    notice = open_hostile(page, server, f"/37/?model={quote(payload)}&hardware={quote(payload)}")
    assert "Ignored the link's model" in notice and "Ignored the link's hardware" in notice
    assert_nothing_injected(page)
    assert page.input_value("#preset-model") == "" and page.query_selector(".preset-mark") is None
    assert page.problems == []


def test_without_javascript_the_menu_is_not_shown(browser, server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server.url + "/35/?model=llama-3-70b")
    assert page.query_selector("#presets") is not None and not page.is_visible("#presets")
    assert page.input_value("#in-L") == "80"
    context.close()


def test_an_entry_no_preset_fills_has_no_menu(page, server):
    open_entry(page, server, "/2/")
    assert page.query_selector("#presets") is None
    assert page.problems == []
