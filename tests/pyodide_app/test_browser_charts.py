"""The "How it moves" charts in real Chromium: every kind of chart drawn, with log ticks that are
exact powers of ten and few enough to read, in colours that follow the theme."""

from __future__ import annotations

import json
import re

import pytest

from tests.browsing import PYTHON_READY_MS, follow, open_entry

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node

# Per chart: how much of its canvas has ink, the name over its y axis, whether it has a legend,
# and each axis's scale distribution, splits and labels (uPlot keeps the last drawn ones on the axis).
CHARTS = """() => [...document.querySelectorAll('.chart')].map((box) => {
  const u = box.chart, canvas = box.querySelector('canvas');
  if (!u || !canvas || !canvas.width) return null;
  const copy = Object.assign(document.createElement('canvas'), {width: canvas.width, height: canvas.height});
  const ctx = copy.getContext('2d', {willReadFrequently: true});   // else Chromium warns of slow readback
  ctx.drawImage(canvas, 0, 0);
  const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  let inked = 0;
  for (let i = 3; i < pixels.length; i += 4) if (pixels[i]) inked++;
  const yName = box.querySelector('.chart-y-label'), legend = Boolean(box.querySelector('.u-legend'));
  return {inked, yName: yName && yName.textContent, legend, axes: u.axes.map((a) => ({log: u.scales[a.scale].distr === 3, splits: a._splits, labels: a._values}))};
})"""
ALL_DRAWN = "() => [...document.querySelectorAll('.chart')].every((box) => box.chart)"
EXPONENT = re.compile(r"^-?\d+(\.\d+)?e-?\d+( \S+)?$")


def chart_pages(site):
    """One page for every kind of chart: how its ticks read depends on its scales (log or linear
    on each axis), on one curve or several, on whether the x axis counts bytes (512 MB) and on
    the y axis's formats (bytes, counts, seconds...), not on the entry.  Every entry's points are still drawn at build
    time (tests/pages)."""
    kinds = {}
    for page in sorted(site.glob("**/index.html")):
        html = page.read_text(encoding="utf-8")
        if 'id="plots"' not in html:
            continue
        spec = json.loads(re.search(r'<script[^>]*id="entry-spec"[^>]*>(.*?)</script>', html, re.S).group(1))
        formats = {o["name"]: o.get("format") or "" for o in spec["outputs"]}
        for plot in spec["plots"]:
            x_bytes = spec["input_units"].get(plot["x"]) == "B"
            y_formats = tuple(sorted({formats.get(y, "") for y in plot["y"]}))
            kinds.setdefault((plot["log_x"], plot["log_y"], len(plot["y"]) > 1, x_bytes, y_formats), page)
    return sorted({"/" + str(page.parent.relative_to(site)) + "/" for page in kinds.values()})


def number(label: str) -> float:
    """A tick label read back: 1,500 · 2.5k · 40M · 10B · 2T · 1e-20 · 0.05 · 512 MB · 40 GB/s."""
    text = label.replace(",", "").replace("−", "-")
    if " " in text:  # a byte quantity with its prefix: 512 MB, 1e15 B
        text, unit = text.split(" ")
        scale = {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}.get(unit[0], 1)
        return float(text) * scale
    scale = {"k": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}.get(text[-1:])
    return float(text[:-1]) * scale if scale else float(text)


def show_charts(page):
    page.locator("#plots").scroll_into_view_if_needed()
    page.wait_for_function(ALL_DRAWN)


def test_every_chart_is_drawn_with_readable_ticks(page, server, site):
    paths = chart_pages(site)
    assert len(paths) > 10, paths
    for path in paths:
        follow(page, server, path)
        # Python has redrawn the charts with its own points by the time data-charts is set.
        show_charts(page)
        page.wait_for_function("() => document.documentElement.dataset.charts", timeout=PYTHON_READY_MS)
        charts = page.evaluate(CHARTS)
        assert charts and all(charts), (path, charts)
        spec = page.evaluate("JSON.parse(document.getElementById('entry-spec').textContent)")
        spec["labels"] = {o["name"]: o["label"] for o in spec["outputs"]}  # (the charts plot outputs)
        for i, (chart, plot) in enumerate(zip(charts, spec["plots"], strict=True)):
            where = f"{path} chart {i}"
            assert chart["inked"] > 1000, where  # curves, axes and labels, not a blank canvas
            # One curve: its name over the y axis; several: a legend.
            names = [spec["labels"].get(name, name) for name in plot["y"]]
            # The name says the unit when every tick is in it (GiB): "KV cache size (GiB)".
            if len(names) == 1:
                assert chart["yName"] == names[0] or chart["yName"].startswith(names[0] + " ("), where
                assert not chart["legend"], where
            else:
                assert chart["legend"] and (chart["yName"] is None or chart["yName"].startswith("In ")), where
            for axis in chart["axes"]:
                labels = [label for label in axis["labels"] if label]
                # Counts as readers write them (10B, 2T), bytes with their prefix and unit (40 GB):
                # every label reads back as a number.
                for label in labels:
                    number(label)
                # One style per axis: exponent form for all of its labels or for none.
                assert len({bool(EXPONENT.match(label)) for label in labels if label != "0"}) == 1, (where, labels)
                if not axis["log"]:
                    continue
                assert 2 <= len(labels) <= 10, (where, labels)
                for split, label in zip(axis["splits"], axis["labels"]):
                    mantissa, exponent = f"{split:e}".split("e")
                    # Exactly 1, 2 or 5 times a power of ten, labelled as just that.
                    assert float(mantissa) in (1, 2, 5) and split == float(f"{float(mantissa):g}e{exponent}"), (
                        where,
                        split,
                    )
                    assert number(label) == split, (where, label, split)
                assert all(s < t for s, t in zip(axis["splits"], axis["splits"][1:])), (where, axis["splits"])
        assert page.problems == [], (path, page.problems)


STROKES = """() => [...document.querySelectorAll('.chart')].map((box) => {
  const u = box.chart;
  return {axis: u.axes[1].stroke(u, 1), grid: u.axes[1].grid.stroke(u, 1), series: u.series[1].stroke(u, 1)};
})"""
PAGE_COLOURS = """() => {
  const style = getComputedStyle(document.documentElement);
  const get = (name) => style.getPropertyValue(name).trim();
  return {axis: get('--ink'), grid: get('--line'), series: get('--accent')};
}"""
SERIES_ON_PAGE = """() => {
  const style = getComputedStyle(document.documentElement);
  return ['--paper', '--accent', '--focus', '--ok'].map((name) => style.getPropertyValue(name).trim());
}"""


def contrast(one: str, other: str) -> float:
    """WCAG contrast ratio of two #rrggbb colours."""

    def luminance(colour):
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted([luminance(one), luminance(other)], reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_charts_follow_the_theme_button_and_the_system_setting(browser, server):
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    open_entry(page, server, "/35/")
    show_charts(page)
    light = page.evaluate(PAGE_COLOURS)
    assert page.evaluate(STROKES) == [light]
    paper, *series = page.evaluate(SERIES_ON_PAGE)
    assert min(contrast(paper, colour) for colour in series) >= 3, (paper, series)
    # The Theme button sets data-theme on <html>: the charts are drawn again in its colours.
    page.click("#theme-toggle")
    dark = page.evaluate(PAGE_COLOURS)
    assert dark["axis"] != light["axis"] and dark["series"] != light["series"]
    page.wait_for_function(f"() => ({STROKES})()[0].axis === {dark['axis']!r}")
    assert page.evaluate(STROKES) == [dark]
    paper, *series = page.evaluate(SERIES_ON_PAGE)
    assert min(contrast(paper, colour) for colour in series) >= 3, (paper, series)
    page.click("#theme-toggle")
    page.wait_for_function(f"() => ({STROKES})()[0].axis === {light['axis']!r}")
    # With no choice made, the charts follow the system setting as it changes.
    page.evaluate("localStorage.clear(); delete document.documentElement.dataset.theme")
    page.emulate_media(color_scheme="dark")
    page.wait_for_function(f"() => ({STROKES})()[0].axis === {dark['axis']!r}")
    assert page.evaluate(STROKES) == [dark]
    assert problems == []
    context.close()


@pytest.mark.parametrize("language", ["C", "", "not a tag!"])
def test_charts_are_drawn_whatever_language_the_browser_reports(browser, server, language):
    """WebKitGTK under the locale C reports navigator.language "C"; Intl rejects it, as it does
    an empty or malformed one, and uPlot formats its numbers with it as it loads."""
    context = browser.new_context()
    context.add_init_script(f"Object.defineProperty(Navigator.prototype, 'language', {{get: () => {language!r}}})")
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    open_entry(page, server, "/46/")
    assert page.evaluate("Object.getPrototypeOf(navigator).language") == language  # the condition under test
    show_charts(page)
    page.wait_for_function("() => document.documentElement.dataset.charts", timeout=PYTHON_READY_MS)
    charts = page.evaluate(CHARTS)
    assert len(charts) == 2 and all(chart and chart["inked"] > 1000 for chart in charts), charts
    assert problems == []
    context.close()


def test_a_chart_that_cannot_be_drawn_says_so_and_is_not_counted_as_drawn(browser, server):
    context = browser.new_context()
    context.route("**/vendor/uplot/**/*.js", lambda route: route.fulfill(status=404, body="gone"))
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_entry(page, server, "/46/")
    page.locator("#plots").scroll_into_view_if_needed()
    page.wait_for_selector(".chart .chart-failed")
    # Both draws fail, the first (the charts come into view with Python ready) and the one after
    # an input changes, and both are reported: in the page, and as errors rather than in silence.
    page.fill("#in-k", "23")
    for _ in range(100):
        if len(errors) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(errors) >= 2, errors
    assert page.evaluate("document.documentElement.dataset.charts") is None
    messages = page.eval_on_selector_all(".chart .chart-failed", "ps => ps.map((p) => p.textContent)")
    assert len(messages) == 2 and all(m.startswith("This chart could not be drawn (") for m in messages), messages
    context.close()
