"""The embed card fills its slide: at 800 × 450 and 640 × 360 the headline is large, the content covers
the frame, the headline alone is shown, every input fits, nothing scrolls and no notice lands on it.
One page, reused for every shape of entry (tests/shapes.py) and size."""

from __future__ import annotations

import pytest

from tests.shapes import SHAPES

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node

SIZES = [(800, 450), (640, 360)]

MEASURE = """(name) => {
  const frame = { w: innerWidth, h: innerHeight };
  const head = document.getElementById(`output-${name}`).getBoundingClientRect();
  const parts = [...document.querySelectorAll('article.entry h1, #outputs, #inputs .field, .embed-link, .solve.asked')]
    .filter((el) => el.offsetParent).map((el) => el.getBoundingClientRect());
  const box = { left: Math.min(...parts.map((r) => r.left)), top: Math.min(...parts.map((r) => r.top)),
                right: Math.max(...parts.map((r) => r.right)), bottom: Math.max(...parts.map((r) => r.bottom)) };
  const notice = document.getElementById('notice');
  // The headline is inside the results' box, which clips what overflows it: a squeezed box hides it.
  const shown = document.getElementById('outputs').getBoundingClientRect();
  const clipped = head.top < shown.top - 1 || head.bottom > shown.bottom + 1;
  // Nothing but the card: no section of the page beside the calculator.
  const others = [...document.querySelectorAll('article.entry > section, article.entry > nav')]
    .filter((el) => el.id !== 'calculator' && el.offsetParent).map((el) => el.id || el.className);
  return { frame, head: head.height, headWidth: head.width, clipped, others,
           cover: ((box.right - box.left) * (box.bottom - box.top)) / (frame.w * frame.h),
           scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
           notice: notice.offsetParent !== null };
}"""


@pytest.fixture(scope="module")
def card(browser):
    context = browser.new_context(viewport={"width": 800, "height": 450})
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.problems = problems
    yield page
    context.close()


@pytest.mark.parametrize("entry", SHAPES, ids=lambda e: e.test_id)
def test_the_card_fills_its_slide(card, server, entry):
    """Each card loaded once, then measured in every frame size (the card is laid out by CSS alone)."""
    for n, (w, h) in enumerate(SIZES):
        card.set_viewport_size({"width": w, "height": h})
        if n == 0:  # an unknown parameter too: its notice is for the page, never for the slide
            card.goto(f"{server.url}{entry.url}?embed=1&no_such_input=1", wait_until="load")
            card.wait_for_function(
                "() => document.fonts.status === 'loaded' && document.getElementById('notice').textContent !== ''"
            )
        else:  # the new frame laid out and painted
            card.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        m = card.evaluate(MEASURE, entry.headlines[0])
        assert m["frame"] == {"w": w, "h": h}, m
        assert m["scroll"][0] <= w and m["scroll"][1] <= h, m
        assert m["head"] >= h / 5, (
            f"{entry.url} at {w}×{h}: the headline is {m['head']:.0f} px tall, under a fifth of {h}"
        )
        assert m["cover"] >= 0.7, f"{entry.url} at {w}×{h}: the content covers {m['cover']:.0%} of the frame"
        assert not m["notice"], f"{entry.url}: a notice is on the slide"
        assert not m["clipped"], f"{entry.url} at {w}×{h}: the headline is cut off by the results' box"
        assert m["others"] == [], f"{entry.url} at {w}×{h}: {m['others']} on the slide"
        for o in entry.outputs:  # the headline alone, unless the link shows more
            assert card.is_hidden(f"#output-{o.name}") == (o.name not in entry.headlines), o.name
        for i in entry.inputs:  # every input is on the card, and can be changed there
            box = card.locator(f"#in-{i.name}").bounding_box()
            assert box and box["y"] + box["height"] <= h and box["x"] + box["width"] <= w, i.name
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
