"""The embed card fills its slide: at 800 × 450 and 640 × 360 the headline is large, the content covers
the frame, the headline alone is shown, every input is shown whole or counted in the card's "+N more
inputs", nothing scrolls and no notice lands on it.  The card of every entry shape (tests/shapes.py)
and of the entries whose cards are fullest, as the build wrote it (one page, Python held back), and
cards a preset filled, a comparison fills or a question answers, computed."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

import pytest

from site_builder.runtime.numbers import shown_text
from tests.shapes import ENTRIES, SHAPES

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node

SIZES = [(800, 450), (640, 360)]
# Where a card runs out of room first: the longest headline (its label and the build's value), the
# most headlines, the longest input labels; beside one entry of every shape.
FULLEST = {
    "the longest headline": lambda e: max(len(o.label or o.name) for o in e.outputs if o.name in e.headlines),
    "the most headlines": lambda e: len(e.headlines),
    "the longest input labels": lambda e: sum(len(i.label or i.name) for i in e.inputs),
}
_BY_KEY = {e.key: e for e in [*SHAPES, *(max(ENTRIES, key=size) for size in FULLEST.values())]}
CARDS = list(_BY_KEY.values())

MEASURE = """(name) => {
  const frame = { w: innerWidth, h: innerHeight };
  const head = document.getElementById(`output-${name}`).getBoundingClientRect();
  const parts = [...document.querySelectorAll('article.entry h1, #outputs, #inputs .field, .embed-link, .solve.asked, section.compare.comparing')]
    .filter((el) => el.offsetParent).map((el) => el.getBoundingClientRect());
  const box = { left: Math.min(...parts.map((r) => r.left)), top: Math.min(...parts.map((r) => r.top)),
                right: Math.max(...parts.map((r) => r.right)), bottom: Math.max(...parts.map((r) => r.bottom)) };
  const notice = document.getElementById('notice');
  // The headline is inside the results' box, which clips what overflows it: a squeezed box hides it.
  const shown = document.getElementById('outputs').getBoundingClientRect();
  const value = document.getElementById(`out-${name}`).getBoundingClientRect();
  const clipped = head.top < shown.top - 1 || head.bottom > shown.bottom + 1 || value.right > shown.right + 1;
  // Nothing but the card: no section of the page beside the calculator (and the comparison a link asks).
  const others = [...document.querySelectorAll('article.entry > section, article.entry > nav')]
    .filter((el) => el.id !== 'calculator' && !(el.id === 'compare' && el.matches('.comparing')) && el.offsetParent)
    .map((el) => el.id || el.className);
  // Each input: on the card whole (in the frame, over nothing else on it), or not at all.
  const spec = JSON.parse(document.getElementById('entry-spec').textContent);
  const others_boxes = [...document.querySelectorAll('#outputs, .embed-link, section.compare.comparing')]
    .filter((el) => el.offsetParent).map((el) => el.getBoundingClientRect());
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const fields = spec.inputs.map((input) => {
    const el = document.getElementById(`input-${input.name}`);
    const r = el.getBoundingClientRect();
    return { name: input.name, shown: el.getClientRects().length > 0, filled: el.classList.contains('preset-filled'),
             whole: r.left >= -0.5 && r.top >= -0.5 && r.right <= frame.w + 0.5 && r.bottom <= frame.h + 0.5
               && el.scrollWidth <= el.clientWidth + 1 && !others_boxes.some((o) => meets(r, o)) };
  });
  const more = document.querySelector('.embed-more');
  const said = more && more.offsetParent ? more.textContent : '';
  const rows = [...document.querySelectorAll('#compare-table tbody tr')];
  return { frame, head: head.height, headWidth: head.width, clipped, others, fields, said,
           more: more && more.offsetParent ? more.href : null,
           note: document.getElementById('embed-note')?.offsetParent ? document.getElementById('embed-note').textContent : '',
           rows: rows.length, rowsShown: rows.filter((r) => r.getClientRects().length).length,
           marks: [...document.querySelectorAll('.preset-mark, .preset-offer, .preset-departs')].filter((el) => el.offsetParent).length,
           cover: ((box.right - box.left) * (box.bottom - box.top)) / (frame.w * frame.h),
           scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
           notice: notice.offsetParent !== null };
}"""


def _count(said: str, what: str) -> int:
    """The N of "+N more inputs" (or "+N more compared") in the card's foot, 0 when it says none."""
    found = re.search(rf"\+(\d+) more {what}", said)
    return int(found.group(1)) if found else 0


def check_card(m: dict, url: str, w: int, h: int, first: set[str] = frozenset()) -> None:
    """What every card holds to in a w × h frame: the headline large and whole, the content covering
    the frame, nothing scrolling, no notice, every input shown whole or counted in the foot's
    "+N more inputs", and the inputs in ``first`` (those the link sets) shown before any other."""
    where = f"{url} at {w}×{h}"
    assert m["frame"] == {"w": w, "h": h}, m
    assert m["scroll"][0] <= w and m["scroll"][1] <= h, (where, m["scroll"])
    assert m["head"] >= h / 5, f"{where}: the headline is {m['head']:.0f} px tall, under a fifth of {h}"
    assert not m["clipped"], f"{where}: the headline is cut off by the results' box"
    assert m["cover"] >= 0.7, f"{where}: the content covers {m['cover']:.0%} of the frame"
    assert not m["notice"], f"{where}: a notice is on the slide"
    assert m["others"] == [], f"{where}: {m['others']} on the slide"
    assert m["marks"] == 0, f"{where}: a preset's source mark under an input"
    cut = [f["name"] for f in m["fields"] if not f["shown"]]
    halves = [f["name"] for f in m["fields"] if f["shown"] and not f["whole"]]
    assert halves == [], f"{where}: inputs {halves} partly outside the frame or over the results"
    assert _count(m["said"], "input") == len(cut), f"{where}: the foot says {m['said']!r}, {len(cut)} not shown: {cut}"
    if cut:
        assert m["more"] and "embed=1" not in m["more"], f"{where}: '+N more' links {m['more']}, not the full page"
    shown = {f["name"] for f in m["fields"] if f["shown"]}
    if shown - set(first):  # an input at its default has room: so has every one the link sets
        assert set(first) <= shown, f"{where}: {sorted(set(first) - shown)} set by the link, not shown, defaults are"
    assert m["rowsShown"] + _count(m["said"], "compared") == m["rows"], (where, m["said"], m["rows"])


def _card_page(browser, python: bool = True):
    """A slide-sized page that records its errors; without ``python`` its worker's script is held
    back, never answered, so Python stays "loading"."""
    context = browser.new_context(viewport={"width": 800, "height": 450})
    if not python:
        context.route("**/static/worker.js", lambda route: None)
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.problems = problems
    yield page
    context.close()


@pytest.fixture(scope="module")
def card(browser):
    yield from _card_page(browser)


@pytest.fixture(scope="module")
def still_card(browser):
    """A card page whose Python never starts: what the build wrote, laid out, at no cost of a
    Python boot per entry."""
    yield from _card_page(browser, python=False)


def test_every_shape_of_card_fills_its_slide(still_card, server):
    """The cards of every shape and the fullest (CARDS), as the build wrote them (the defaults'
    results), each loaded once and measured in every frame size: the card is laid out by CSS and
    fitted by embed.js before Python runs."""
    card = still_card
    assert len(CARDS) < len(ENTRIES)  # a sample, not every entry: tests/pages/test_pages.py reads every page
    for entry in CARDS:
        for n, (w, h) in enumerate(SIZES):
            fitted = card.evaluate("() => Number(document.documentElement.dataset.embedFit || 0)") if n else 0
            card.set_viewport_size({"width": w, "height": h})
            if n == 0:  # an unknown parameter too: its notice is for the page, never for the slide
                card.goto(f"{server.url}{entry.url}?embed=1&no_such_input=1", wait_until="load")
                card.wait_for_function(
                    "() => document.fonts.status === 'loaded' && document.getElementById('notice').textContent !== ''"
                    " && document.documentElement.dataset.embedFit"
                )
            else:  # the new frame fitted, laid out and painted
                card.wait_for_function("(n) => Number(document.documentElement.dataset.embedFit) > n", arg=fitted)
                card.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
            m = card.evaluate(MEASURE, entry.headlines[0])
            check_card(m, entry.url, w, h)  # every input shown whole, or counted in "+N more inputs"
            hidden = card.evaluate(
                "() => [...document.querySelectorAll('#outputs .result[id^=output-]')].filter((r) => !r.getClientRects().length)"
                ".map((r) => r.id.replace('output-', ''))"
            )
            assert sorted(hidden) == sorted(o.name for o in entry.outputs if o.name not in entry.headlines), entry.url
    assert card.problems == []


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_solved_question_leaves_the_headline_whole(card, server, size):
    """A link that asks a question: the slide shows its answer in a line, not the solve panel's
    menus, so the headline keeps its height (35 has twelve inputs to fit beside it)."""
    w, h = size
    card.set_viewport_size({"width": w, "height": h})
    card.goto(f"{server.url}/35/?embed=1&solve=s&total%3C=80GB", wait_until="load")
    card.wait_for_function("() => document.fonts.status === 'loaded' && document.documentElement.dataset.solves")
    m = card.evaluate(MEASURE, "total")
    assert m["scroll"][0] <= w and m["scroll"][1] <= h, m
    assert not m["clipped"] and m["head"] >= h / 5, m
    assert card.text_content("#solve-answer .solve-value").startswith("s = ")
    assert card.is_visible("#solve-answer .solve-value") and card.is_visible("#solved-note")
    assert card.problems == []


# Cards the link fills: a preset's many inputs (16 with T5-11B), a comparison of three models, an
# accelerator's figures (37, with a model too), a model with inputs the reader typed (1).
FILLED = [
    "/16/?model=t5-11b",
    "/35/?compare=llama-3-70b,mixtral-8x7b,deepseek-v2",
    "/37/?model=llama-3-70b&hardware=h100-sxm",
    "/36/?hardware=h100-sxm",
    "/1/?model=llama-3-70b&devices=2048&mfu=0.45",
    "/35/?compare=llama-3-70b,mixtral-8x7b,deepseek-v2,deepseek-v3,falcon-40b,falcon-7b,gpt-2-large,gpt-2-medium",
]

SETTLED = """() => { const d = document.documentElement.dataset;
  return document.fonts.status === 'loaded' && d.python === 'ready' && d.link === 'written' && d.asking === '0'
    && (!document.querySelector('section.compare.comparing') || document.querySelectorAll('#compare-table tbody tr').length > 0); }"""
PAINTED = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"

# Which inputs a link sets: those it names, and those its presets fill (the entry's spec says which).
SETS = """async (query) => {
  const spec = JSON.parse(document.getElementById('entry-spec').textContent);
  const names = new Set(spec.inputs.map((i) => i.name));
  const set = Object.keys(query).filter((k) => names.has(k));
  const presets = spec.presets_src ? await (await fetch(spec.presets_src)).json() : {};
  for (const kind of ['model', 'hardware']) {
    const preset = query[kind] && (presets[kind] || []).find((p) => p.id === query[kind]);
    if (preset) set.push(...Object.keys(preset.values).filter((n) => names.has(n)));
  }
  return [...new Set(set)];
}"""


@pytest.mark.parametrize("url", FILLED)
def test_a_filled_card_fills_its_slide(card, server, url):
    """A preset's marks, many inputs or a comparison's table never squeeze the headline: the inputs
    the link sets come first, the rest as fit whole, and the foot counts those left out and says
    once which preset filled the card.  Loaded at 800 × 450, then laid out again at 640 × 360."""
    card.set_viewport_size({"width": 800, "height": 450})
    card.goto(f"{server.url}{url}&embed=1", wait_until="load")
    card.wait_for_function(SETTLED, timeout=120_000)
    query = dict(parse_qsl(urlsplit(url).query))
    first = set(card.evaluate(SETS, query))
    # Each input for reading, as Python writes it: a plain number's digits grouped, else as typed.
    values = card.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.shown-value')]"
        ".map((s) => [s.id.slice(6), [s.textContent, document.getElementById('in-' + s.id.slice(6)).value]]))"
    )
    assert values and all(shown == shown_text(typed) for shown, typed in values.values()), values
    if "model=llama-3-70b" in url and "N" in values:
        assert values["N"][0] == "70,553,706,496", values["N"]
    headline = card.evaluate("() => JSON.parse(document.getElementById('entry-spec').textContent).headline[0]")
    for w, h in SIZES:
        card.set_viewport_size({"width": w, "height": h})
        card.evaluate(PAINTED)
        m = card.evaluate(MEASURE, headline)
        check_card(m, url, w, h, first)
        for kind in ("model", "hardware"):  # the preset named once, in the foot
            if kind in query:
                name = card.evaluate(f"() => document.querySelector('#preset-{kind} option:checked').textContent")
                assert "Filled from" in m["note"] and name in m["note"], (url, m["note"])
        if "compare" in query:  # the table stays, however many rows it keeps
            assert m["rowsShown"] >= 1 and m["rows"] == len(query["compare"].split(",")), m
    assert card.problems == []
