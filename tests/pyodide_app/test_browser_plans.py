"""A plan's page in Chromium: fill from a model, edit, follow an answer's link to its entry (which
opens with the plan's values) and come back; hostile links stay inert."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.browsing import PAYLOADS, PLAN_COMPUTED, PYTHON_READY_MS, WITHOUT_TYPING_PAUSE
from tests.support import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.node]


def open_plan(page, server, path):
    page.goto(server.url + path)
    page.wait_for_function(PLAN_COMPUTED, timeout=PYTHON_READY_MS)


def test_fill_from_a_model_edit_follow_a_link_to_its_entry_and_back(page, server):
    open_plan(page, server, "/plans/train/")
    before = page.text_content("#out-params")
    page.select_option("#preset-model", "llama-3-8b")
    page.wait_for_function("(t) => document.getElementById('out-params').textContent !== t", arg=before)
    assert page.input_value("#in-L") == "32"
    assert "Llama 3 8B" in page.text_content("#source-L")
    assert "model=llama-3-8b" in page.url
    page.fill("#in-b", "2")
    page.wait_for_function("() => location.search.includes('b=2')")
    memory = page.text_content("#out-memory_device")
    # The dataflow's boxes show the answers their steps price, as the edits left them.
    drawn = page.eval_on_selector_all(
        "#dataflow tspan[data-mirror]", "(ts) => Object.fromEntries(ts.map((t) => [t.dataset.mirror, t.textContent]))"
    )
    assert {"params", "fits"} <= drawn.keys()
    assert drawn == {name: page.text_content(f"#out-{name}") for name in drawn}
    assert drawn["params"] != before
    # The memory answer is entry 20's output: its link opens entry 20 with the plan's values.
    link = page.locator("#output-memory_device a.priced-by")
    href = link.get_attribute("href")
    query = parse_qs(urlsplit(href).query)
    assert urlsplit(href).path == "/20/"
    link.click()
    page.wait_for_url("**/20/?**")
    page.wait_for_function("() => document.documentElement.dataset.python === 'ready'", timeout=PYTHON_READY_MS)
    assert page.input_value("#in-N") == query["N"][0]
    assert page.input_value("#in-activations") == query["activations"][0]
    shown = page.text_content("#out-memory_device").replace("\u00a0", " ")
    assert shown == memory.replace("\u00a0", " ")
    page.go_back()
    page.wait_for_url("**/plans/train/**")
    page.wait_for_function(PLAN_COMPUTED, timeout=PYTHON_READY_MS)
    assert page.input_value("#in-b") == "2"
    assert page.input_value("#in-L") == "32"
    assert page.problems == []


def test_a_field_the_reader_leaves_writes_the_plans_link_at_once(page, server):
    """As on an entry: typing writes the link once it pauses, leaving the field writes it at once.
    The typing pause is taken out here (its timer never fires): only the change can write it."""
    open_plan(page, server, "/plans/train/")
    page.evaluate(WITHOUT_TYPING_PAUSE)
    page.fill("#in-b", "2")
    page.wait_for_function("() => document.querySelector('article.plan').dataset.link === 'pending'")
    assert "b=2" not in page.evaluate("location.search")
    page.press("#in-b", "Tab")
    page.wait_for_function("() => document.querySelector('article.plan').dataset.link === 'written'")
    assert "b=2" in page.evaluate("location.search")
    page.fill("#in-b", "3")
    page.press("#in-b", "Tab")  # at once: the answer writes its link as it arrives
    page.wait_for_function("() => location.search.includes('b=3')")
    assert page.problems == []


def test_a_plan_left_while_it_was_answering_writes_nothing_on_the_next_page(page, server):
    """Turbo writes the next page's address as it renders it; the plan page stays on screen until
    then, and an answer it was still computing (the click's own blur is a change) must not write
    its query onto that address, which the entry page reads as its link."""
    open_plan(page, server, "/plans/train/")
    page.wait_for_function("() => document.documentElement.dataset.drive === 'on'")  # the click is a visit
    page.fill("#in-b", "2")
    page.wait_for_function("() => location.search.includes('b=2')")
    href = page.get_attribute("#output-memory_device a.priced-by", "href")
    page.evaluate("() => { window.leftForm = document.getElementById('plan-inputs'); }")
    held = []  # entry 20's script: the next page is on screen and has not read its link yet

    def hold(route):
        held.append(route)

    page.route("**/static/page.js*", hold)
    page.click("#output-memory_device a.priced-by")
    page.wait_for_function("() => document.getElementById('entry-spec') && location.pathname === '/20/'")
    # A late edit on the plan page: an input and its change, as the click's blur would be.
    page.evaluate(
        """() => {
          const b = window.leftForm.querySelector('#in-b');
          b.value = '5';
          b.dispatchEvent(new Event('input', { bubbles: true }));
          b.dispatchEvent(new Event('change', { bubbles: true }));
        }"""
    )
    # Long past the plan's answer and its link's typing pause: the address is still the link's.
    page.evaluate("() => new Promise((done) => setTimeout(done, 2000))")
    assert page.evaluate("() => location.pathname + location.search") == href
    for route in held:
        route.continue_()
    page.unroute("**/static/page.js*")
    page.wait_for_function("() => document.documentElement.dataset.python === 'ready'", timeout=PYTHON_READY_MS)
    query = parse_qs(urlsplit(href).query)
    for name in ("N", "activations", "t", "p", "stage"):
        assert page.input_value(f"#in-{name}") == query[name][0], name
    assert page.problems == []


def test_solving_backwards_fills_the_freed_input(page, server):
    open_plan(page, server, "/plans/train/")
    page.click("#plan-solve summary")
    page.select_option("#solve-output", "memory_device")
    page.select_option("#solve-sense", "<=")
    page.fill("#solve-target", "80GB")
    page.select_option("#solve-input", "b")
    page.click("#plan-solve-form button[type=submit]")
    page.wait_for_function(
        "() => document.querySelector('article.plan').dataset.solved === 'b'", timeout=PYTHON_READY_MS
    )
    assert "at most 80" in page.text_content("#solve-answer").replace("\u00a0", " ")
    assert page.input_value("#in-b") == "3"


def test_a_serve_plan_link_carries_every_input(page, server):
    open_plan(page, server, "/plans/serve/?model=llama-3-70b&hardware=h100-sxm&B=4&k=4")
    page.wait_for_function("() => document.getElementById('out-speedup').textContent.trim() !== '1 ×'")
    assert page.input_value("#in-B") == "4"
    share = page.get_attribute("#plan-share", "href")
    assert "B=4" in share and "k=4" in share and "model=llama-3-70b" in share


@pytest.mark.parametrize("payload", PAYLOADS[:3])
def test_hostile_links_stay_inert(page, server, payload):
    from urllib.parse import quote

    page.on("dialog", lambda d: (page.problems.append("dialog opened"), d.dismiss()))
    open_plan(page, server, f"/plans/train/?L={quote(payload)}&{quote(payload)}=1&model={quote(payload)}")
    assert page.locator("#notice:not([hidden])").count() == 1
    assert page.is_visible("#err-L")
    assert page.evaluate("window.__pwned") is None
    assert page.locator("#notice *:not(p)").count() == 0
    assert page.locator("main img, main svg[onload], main script:not(#plan-spec)").count() == 0
    assert page.locator("[onerror], [onload], [onclick]").count() == 0
    assert page.problems == []


def test_the_link_names_the_plans_version_and_an_unknown_one_is_ignored_with_a_notice(page, server):
    import yaml

    versions = yaml.safe_load((ROOT / "entries" / "_versions.yaml").read_text(encoding="utf-8"))
    current = max(v["version"] for v in versions["plans"]["serve-plan"])  # the plan's newest
    open_plan(page, server, "/plans/serve/?B=4")
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('version') === '{current}'")
    assert f"version={current}" in page.get_attribute("#plan-share", "href")
    assert page.is_hidden("#notice")
    open_plan(page, server, "/plans/serve/?B=4&version=9")
    has = f"versions 1 to {current}" if current > 1 else "version 1"
    assert f"Ignored the link's version “9”: this plan has {has}." in page.text_content("#notice")
    assert page.input_value("#in-B") == "4"
    assert page.problems == []


def test_a_plan_reads_its_link_with_the_entries_grammar(page, server):
    """link.js reads a plan's link as it reads an entry's: the same words, naming the plan."""
    open_plan(page, server, "/plans/serve/?model=nope&hardware=h100-sxm&B=4&p0=1")
    notices = page.text_content("#notice")
    assert "Ignored the link's model “nope”: no such model fills this plan." in notices
    assert "Ignored the link's parameter “p0”: this plan has no such input." in notices
    assert page.input_value("#in-B") == "4"
    page.wait_for_function("() => new URLSearchParams(location.search).get('hardware') === 'h100-sxm'")
    share = page.get_attribute("#plan-share", "href")
    assert share.startswith(server.url + "/plans/serve/?") and "B=4" in share and "p0" not in share
    assert page.problems == []


CARD = """() => {
  const box = (el) => el.getBoundingClientRect();
  const outputs = [...document.querySelectorAll('.plan-headline output')];
  const hidden = (sel) => getComputedStyle(document.querySelector(sel)).display === 'none';
  return {
    scrolls: document.documentElement.scrollHeight > innerHeight || document.documentElement.scrollWidth > innerWidth,
    values: outputs.map((o) => [o.dataset.mirror, o.textContent]),
    cut: outputs.filter((o) => o.scrollWidth > o.clientWidth || box(o).bottom > innerHeight || box(o).right > innerWidth).length,
    smallest: Math.min(...outputs.map((o) => parseFloat(getComputedStyle(o).fontSize))),
    set: document.getElementById('plan-embed-set').textContent,
    link: document.getElementById('plan-embed-link').href,
    target: document.getElementById('plan-embed-link').target,
    drawn: ['#calculator', '#dataflow', '#cite', 'header.site'].filter((sel) => !hidden(sel)),
  };
}"""


@pytest.mark.parametrize("size", [(800, 450), (640, 360)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_plans_embed_card_fills_its_slide(browser, server, size):
    """?embed=1 on a plan: its headline answers whole and large on a 16:9 slide, what the link set
    said once (the model by name, then the typed inputs), and a link to the full plan."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_plan(page, server, "/plans/train/?embed=1&model=llama-3-8b&b=2")
    card = page.evaluate(CARD)
    assert not card["scrolls"] and card["cut"] == 0 and card["drawn"] == []
    assert card["smallest"] >= 16
    assert card["set"] == "Llama 3 8B · Micro-batch 2"
    query = parse_qs(urlsplit(card["link"]).query)
    assert "embed" not in query and query["model"] == ["llama-3-8b"] and query["b"] == ["2"]
    assert card["target"] == "_blank"
    full = context.new_page()
    open_plan(full, server, urlsplit(card["link"]).path + "?" + urlsplit(card["link"]).query)
    assert card["values"] == [[name, full.text_content(f"#out-{name}")] for name, _ in card["values"]]
    assert errors == []
    context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_plans_card_image_carries_its_answers_what_the_link_set_and_the_link(page, server, theme):
    open_plan(page, server, "/plans/train/?model=llama-3-8b")
    page.fill("#in-b", "2")
    page.wait_for_function(
        "() => document.querySelector('article.plan').dataset.link === 'written' && location.search.includes('b=2')"
    )
    answers = {name: page.text_content(f"#out-{name}") for name in ("memory_device", "train_days", "cost")}
    with page.expect_download() as svg_download:
        page.click(f"#card-actions button[data-card='svg'][data-theme='{theme}']")
    assert svg_download.value.suggested_filename == f"plan-train-plan-card-{theme}.svg"
    svg = open(svg_download.value.path(), encoding="utf-8").read()
    assert svg.startswith("<svg") and "<script" not in svg
    assert "Model = Llama 3 8B" in svg and "Micro-batch = 2" in svg and "Layers =" not in svg
    assert all(value.replace("\u00a0", " ") in svg.replace("\u00a0", " ") for value in answers.values())
    assert re.search(r"/plans/train/\?[^<]*model=llama-3-8b[^<]*b=2", svg) and "embed" not in svg
    assert ("#15191e" in svg) == (theme == "dark")
    with page.expect_download() as png_download:
        page.click(f"#card-actions button[data-card='png'][data-theme='{theme}']")
    assert png_download.value.suggested_filename == f"plan-train-plan-card-{theme}.png"
    assert open(png_download.value.path(), "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    assert page.problems == []
