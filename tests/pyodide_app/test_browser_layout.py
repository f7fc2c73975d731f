"""The page read at a glance: the headline result first, in a phone's first screen and in view
while the reader edits; the embed card that fits a 16:9 slide; the card as an image; tables that
fit.  Layout is the build's: the results for the defaults are in the HTML, so most checks need
no Python (those that do wait for it)."""

from __future__ import annotations

import re
import struct
import zlib

import pytest

from tests.browsing import follow, open_entry
from tests.shapes import ENTRIES, SHAPE_URLS

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node


@pytest.fixture(scope="module")
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    yield context.new_page()
    context.close()


def test_every_entry_names_headline_outputs_that_exist():
    for entry in ENTRIES:
        names = {o.name for o in entry.outputs}
        assert entry.headlines and set(entry.headlines) <= names, entry.key
    by_key = {e.key: e for e in ENTRIES}
    assert by_key["1"].headlines == ("C_train",)
    assert by_key["35"].headlines == ("total",)
    assert by_key["40"].headlines == ("speedup",)


@pytest.mark.parametrize("url", SHAPE_URLS)  # every page's order and bar: tests/pages/test_pages.py
def test_the_headline_is_in_a_phones_first_screen_and_stays_in_view(phone, server, url):
    phone.goto(server.url + url)
    entry = next(e for e in ENTRIES if e.url == url)
    first = entry.headlines[0]
    # In the results, it comes first and larger than the others.
    order = phone.eval_on_selector_all("#outputs dl > .result:not([hidden])", "rs => rs.map(r => r.id)")
    assert order[: len(entry.headlines)] == [f"output-{n}" for n in entry.headlines]
    if len(order) > len(entry.headlines):
        big, small = (
            phone.eval_on_selector(f"#{order[k]} output", "o => parseFloat(getComputedStyle(o).fontSize)")
            for k in (0, len(entry.headlines))
        )
        assert big > small
    # On the phone, with no scrolling: the bar shows it, with its unit, as the results do.
    bar = phone.locator(f"#headline-bar output[data-mirror='{first}']")
    box = bar.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    assert bar.text_content() == phone.text_content(f"#out-{first}")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # Still in view while the reader edits the last input, far down.
    last = entry.inputs[-1].name
    phone.focus(f"#in-{last}")
    phone.locator(f"#in-{last}").scroll_into_view_if_needed()
    box = bar.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box


def test_the_bar_follows_the_results(page, server):
    page.set_viewport_size({"width": 390, "height": 844})
    open_entry(page, server, "/35/")
    page.fill("#in-s", "8192")
    page.wait_for_function(
        "() => document.querySelector('#headline-bar output[data-mirror]').textContent === '2.684\u00a0GB'"
    )
    page.fill("#in-s", "banana")
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector('#headline-bar output[data-mirror]')).textDecorationLine === 'line-through'"
    )
    assert page.problems == []


def test_number_fields_take_letters_on_a_phone_keyboard(page, server):
    page.goto(server.url + "/1/")
    for name in ("N", "D", "T"):
        attrs = page.eval_on_selector(
            f"#in-{name}", "i => [i.inputMode, i.getAttribute('autocapitalize'), i.spellcheck]"
        )
        assert attrs == ["text", "off", False]  # decimal keypads have no B, T, k, e, % or minus


def test_show_chooses_the_cards_outputs_in_the_links_order(browser, server):
    context = browser.new_context(viewport={"width": 800, "height": 450})
    page = context.new_page()
    open_entry(page, server, "/40/?embed=1&show=tokens_per_cycle,speedup,k_opt")
    ids = [
        i for i in page.eval_on_selector_all("#outputs .result", "rs => rs.filter(r => r.offsetParent).map(r => r.id)")
    ]
    assert ids == ["output-tokens_per_cycle", "output-speedup", "output-k_opt"]
    assert page.is_hidden("#notice")
    page.fill("#in-alpha", "0.9")
    page.wait_for_function(
        "() => new URLSearchParams(location.search).get('show') === 'tokens_per_cycle,speedup,k_opt'"
    )
    assert page.evaluate("document.documentElement.scrollHeight") <= 450
    context.close()


def test_a_hostile_show_is_ignored_with_a_notice(page, server):
    open_entry(page, server, "/40/?embed=1&show=<img src=x onerror=alert(1)>,speedup,__proto__,constructor")
    notice = page.text_content("#notice")
    assert "<img src=x onerror=alert(1)>"[:40] in notice and "__proto__" in notice and "constructor" in notice
    assert page.eval_on_selector("#notice", "n => n.querySelector('img')") is None
    visible = page.eval_on_selector_all("#outputs .result", "rs => rs.filter(r => r.offsetParent).map(r => r.id)")
    assert visible == ["output-speedup"]
    assert page.problems == []


def _png_text(data: bytes) -> dict:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, found = 8, {}
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        body = data[at + 8 : at + 8 + length]
        assert struct.unpack(">I", data[at + 8 + length : at + 12 + length])[0] == zlib.crc32(kind + body)
        if kind == b"iTXt":
            key, rest = body.split(b"\0", 1)
            found[key.decode()] = rest[2:].split(b"\0", 2)[2].decode()
        if kind == b"IHDR":
            found["size"] = struct.unpack(">II", body[:8])
        at += 12 + length
    return found


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_card_as_an_image_carries_the_link_and_the_inputs(page, server, theme):
    open_entry(page, server, "/40/?alpha=0.9&show=speedup,k_opt")
    page.fill("#in-c", "0.05")
    page.wait_for_function("() => location.search.includes('c=0.05')")
    result = page.text_content("#out-speedup")
    with page.expect_download() as svg_download:
        page.click(f"#card-actions button[data-card='svg'][data-theme='{theme}']")
    svg = open(svg_download.value.path(), encoding="utf-8").read()
    assert svg_download.value.suggested_filename == f"entry-40-card-{theme}.svg"
    assert svg.startswith("<svg") and "<script" not in svg
    assert re.search(r"/40/\?[^<]*alpha=0\.9", svg) and "c=0.05" in svg
    label = page.text_content("#output-k_opt dt .label").strip()
    assert "= 0.9" in svg and "= 0.05" in svg and result in svg and label in svg
    assert ("#15191e" in svg) == (theme == "dark")
    with page.expect_download() as png_download:
        page.click(f"#card-actions button[data-card='png'][data-theme='{theme}']")
    png = _png_text(open(png_download.value.path(), "rb").read())
    assert png["size"] == (1920, 1080)
    assert "alpha=0.9" in png["Source"] and "c=0.05" in png["Source"] and "embed" not in png["Source"]
    assert "= 0.05" in png["Comment"] and result in png["Comment"]
    assert page.problems == [] and page.evaluate("window.__cspViolations") == []


@pytest.mark.parametrize("url", ["/1/", "/46/", "/35/", "/40/"])
def test_wide_tables_fit_a_desktop_and_never_break_a_number(browser, server, url):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.url + url)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    page.eval_on_selector_all("details", "ds => ds.forEach(d => d.open = true)")
    # An "Every model" table (six results a row) is drawn when opened, and may be wider than the
    # column: it scrolls inside its own box, never widening the page.  Every other table fits.
    page.wait_for_function(
        "() => [...document.querySelectorAll('details.every')].every(d => d.dataset.state === 'drawn')"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    over = page.eval_on_selector_all(
        ".table-scroll",
        "ss => ss.filter(s => s.scrollWidth > s.clientWidth + 1 && !s.closest('details.every')).map(s => s.closest('[id]').id)",
    )
    assert over == []
    broken = page.eval_on_selector_all(
        "td",
        "tds => tds.filter(td => /\\d,\\d/.test(td.textContent) && getComputedStyle(td).whiteSpace !== 'nowrap').map(td => td.textContent)",
    )
    assert broken == []
    context.close()


# A link's very long values (a 500-character input, a huge number, a list of 120 numbers, a long
# unknown name): each wraps or scrolls inside its own box, never widening a phone's page.
LONG_LINKS = [
    ("/35/?L=" + "9" * 500, "#in-L"),
    ("/35/?s=" + "x" * 500, "#in-s"),
    ("/35/?B=1e300", "#in-B"),
    ("/35/?" + "q" * 500 + "=1", None),
    ("/toolkit/softmax/?z=" + ",".join(str(1000 + i) for i in range(120)), "#in-z"),
    ("/plans/serve/?" + "w" * 500 + "=" + "1" * 500, None),
]


@pytest.mark.parametrize(
    "path, field", LONG_LINKS, ids=["long-number", "long-text", "huge", "long-name", "long-list", "plan"]
)
def test_a_very_long_value_wraps_instead_of_widening_a_phones_page(phone, server, path, field):
    if path.startswith("/plans/"):
        phone.goto(server.url + path)
        phone.wait_for_selector("article.plan[data-plan-state]")
        phone.wait_for_selector("#notice:not([hidden])")
    else:  # followed as a link on the site is, into the Python already running
        follow(phone, server, path)
        # The link's value is in its field (and computed) or ignored with a notice.
        phone.wait_for_function(
            "(f) => !document.getElementById('notice').hidden || (f && document.querySelector(f).value.length > 3"
            " && !document.getElementById('outputs').classList.contains('stale'))",
            arg=field,
        )
    assert phone.evaluate("document.documentElement.scrollWidth") <= phone.evaluate("innerWidth") == 390
