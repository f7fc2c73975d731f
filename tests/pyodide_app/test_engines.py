"""The reader's flows in Firefox (Debian's firefox-esr) and WebKit (WebKitGTK's MiniBrowser, the engine
of Safari), as Chromium runs them on every entry in the other browser tests: an entry's first paint
without Python, Python ready and recomputing what CPython computes, the link's state in and out,
search, the notation highlight, the embed card, offline, charts, and no console error or policy breach,
on a fixed sample.

WebKit runs under the locale C, as many Linux machines do, where it reports navigator.language "C"."""

from __future__ import annotations

import json
import os
import threading
import urllib.parse

import pytest

import derivation_bank as bank_api
from site_builder.runtime.calculator import Calculator
from site_builder.runtime.solve import solve
from site_builder.serve.host import Handler, SiteServer
from tests.browsing import INJECTED, serve_page
from tests.engines import Firefox, WebKit, webkit_console
from tests.support import load_bank

# The built site is typeset by KaTeX in Node.  One test worker runs every engine test: each engine
# starts once, and two xvfb-runs never race for a display.
pytestmark = [pytest.mark.browser, pytest.mark.node, pytest.mark.xdist_group("engines")]
READY_S = 120  # a ceiling for a loaded CI machine, not a speed target
ENTRIES, CALCULATORS = load_bank()
BY_KEY = {e.key: e for e in ENTRIES}
# The fixed sample: every part of the bank, one and two charts, counts, fractions, lists, the toolkit.
SAMPLE = ["2", "3", "14", "17", "19", "35", "40", "41", "45", "46", "50", "softmax"]
# Where the page recomputes a worked case's inputs, typed into the form.
RECOMPUTED = ["2", "3", "17", "40", "46"]
C_LOCALE = {"LANG": "C.UTF-8", "LANGUAGE": ""}  # Debian's default; LC_ALL=C shows as en-US

INKED = """[...document.querySelectorAll('.chart')].map((box) => {
  const canvas = box.querySelector('canvas');
  if (!box.chart || !canvas || !canvas.width) return 0;
  const copy = Object.assign(document.createElement('canvas'), {width: canvas.width, height: canvas.height});
  const ctx = copy.getContext('2d', {willReadFrequently: true});
  ctx.drawImage(canvas, 0, 0);
  const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  let inked = 0;
  for (let i = 3; i < pixels.length; i += 4) if (pixels[i]) inked++;
  return inked;
})"""


@pytest.fixture(scope="module", params=["firefox", "webkit"])
def engine(request):
    if request.param == "firefox":
        driven = Firefox()
    else:
        driven = WebKit(env=C_LOCALE)
    yield driven
    driven.close()


@pytest.fixture
def fresh(engine):
    """The engine on a blank page, without service workers (Firefox); afterwards, nothing it
    reported may be left unread."""
    engine.fresh()
    yield engine
    assert engine.problems() == []


@pytest.fixture
def fresh_with_worker(engine):
    """As ``fresh``, with the site's service worker: for the tests of working offline."""
    engine.fresh(workers=True)
    yield engine
    assert engine.problems() == []


class Gated(Handler):
    """Holds back the files ``held`` names, by the path's start or end (Python's: Pyodide and the
    snapshot), until ``gate`` is
    set; counts requests, and sets ``asked`` once a held file is asked for."""

    gate: threading.Event = None
    count: list = None
    held: tuple = ("/pyodide/", "/snapshot/")
    asked: threading.Event = threading.Event()

    def send_head(self):
        self.count[0] += 1
        if self.gate is not None and any(self.path.startswith(h) or self.path.endswith(h) for h in self.held):
            self.asked.set()
            self.gate.wait(READY_S)
        return super().send_head()


def own_server(site, gate=None, count=None, held=Gated.held, asked=None):
    return SiteServer(
        site,
        handler=Gated,
        gate=gate,
        count=count if count is not None else [0],
        held=held,
        asked=asked or threading.Event(),
    )


def expected(key: str, raw: dict | None = None) -> dict:
    return {name: out["text"] for name, out in CALCULATORS[key].run(raw or {})["outputs"].items()}


SHOWN = "Object.fromEntries(%r.map((n) => [n, document.getElementById('out-' + n).textContent]))"


def shown(engine, key: str) -> dict:
    return engine.evaluate(SHOWN % [o.name for o in BY_KEY[key].outputs])


def python_ready(engine):
    engine.wait_for("document.documentElement.dataset.python", READY_S)
    state = engine.evaluate("document.documentElement.dataset.python")
    assert state == "ready", engine.evaluate("document.getElementById('py-status').textContent")


def test_an_entry_paints_its_results_before_python_has_loaded(fresh, site):
    gate = threading.Event()
    with own_server(site, gate=gate) as held:
        fresh.goto(held.url + "/35/", until="domcontentloaded")
        # Python's files are held back: what the reader sees is the page as built.
        assert shown(fresh, "35") == expected("35")
        assert fresh.evaluate("document.querySelectorAll('.katex').length") > 0
        assert fresh.evaluate("document.getElementById('py-status').dataset.state") == "loading"
        assert fresh.evaluate("document.documentElement.dataset.python") is None
        gate.set()
        python_ready(fresh)
        fresh.fill("#in-s", "8192")
        fresh.wait_for("document.getElementById('out-total').textContent === '2.684\u00a0GB'")


@pytest.mark.parametrize("code", ["/static/plots.js", "/uPlot.esm.js"])
def test_code_still_arriving_when_the_reader_leaves_is_no_error(fresh, site, code):
    """A page left by a full load while the charts' code (ours, or uPlot's) is on its way: the
    fetch is cut off, which the page neither reports as an error nor tells the reader of (Firefox
    rejects the import as the page goes: it was an unhandled error in CI)."""
    gate, asked = threading.Event(), threading.Event()
    with own_server(site, gate=gate, held=(code,), asked=asked) as held:
        fresh.goto(held.url + "/35/")
        python_ready(fresh)
        fresh.evaluate("document.getElementById('plots').scrollIntoView()")  # the charts start now, their code held
        assert asked.wait(READY_S)
        fresh.goto(held.url + "/36/")
        gate.set()
        python_ready(fresh)
        assert fresh.evaluate("document.getElementById('notice').hidden"), fresh.evaluate(
            "document.getElementById('notice').textContent"
        )


def test_the_sample_computes_what_cpython_computes_and_draws_its_charts(fresh, server):
    for number, key in enumerate(SAMPLE):
        entry = BY_KEY[key]
        if number == 0:  # Python boots once, as for a reader; each further entry is a link followed
            fresh.goto(server.url + entry.url)
        else:
            follow(fresh, entry.url)
        python_ready(fresh)
        fresh.wait_for("document.documentElement.dataset.replies", READY_S)  # Python's first results are in
        assert shown(fresh, key) == expected(key), key
        if entry.plots:
            fresh.evaluate("document.getElementById('plots').scrollIntoView()")
            fresh.wait_for("document.documentElement.dataset.charts", READY_S)
            inked = fresh.evaluate(INKED)
            assert len(inked) == len(entry.plots) and min(inked) > 1000, (key, inked)
            assert fresh.evaluate("document.querySelectorAll('.chart-failed').length") == 0, key
        if key in RECOMPUTED:
            # The first worked case whose results differ from the defaults', or this would check nothing.
            case, want = next(
                (c.inputs, found)
                for c in entry.cases
                if (found := expected(key, {n: str(v) for n, v in c.inputs.items()})) != expected(key)
            )
            for name, value in case.items():
                fresh.fill(f"#in-{name}", str(value))
            wait_shown(fresh, key, want)
        assert fresh.evaluate("window.__cspViolations") == [], key
        assert fresh.problems() == [], key


FOLLOW = """((url) => {
  window.__leftBody = document.body;
  for (const flag of ["python", "replies", "charts"]) delete document.documentElement.dataset[flag];
  Turbo.visit(url);
  return true;
})(%s)"""


def follow(engine, url: str):
    """Follow a link in the page (Turbo Drive swaps the body in and the running Python loads the
    formula), until the new page's Python has said whether it is ready."""
    assert engine.evaluate("Boolean(window.Turbo)"), "the page has no Turbo to follow a link with"
    engine.evaluate(FOLLOW % json.dumps(url))
    engine.wait_for(
        f"document.body !== window.__leftBody && location.pathname === {json.dumps(url)} && "
        "document.documentElement.dataset.python",
        READY_S,
    )


def wait_shown(engine, key: str, want: dict, timeout: float = 30):
    """Until the page shows ``want``; else the difference."""
    try:
        engine.wait_for(
            f"JSON.stringify(({SHOWN % [o.name for o in BY_KEY[key].outputs]})) === "
            f"{json.dumps(json.dumps(want, separators=(',', ':'), ensure_ascii=False))}",
            timeout,
        )
    except AssertionError:
        assert shown(engine, key) == want, key


def test_the_link_carries_the_inputs_in_and_out(fresh, server):
    fresh.goto(server.url + "/35/?L=40&s=16k")
    python_ready(fresh)
    assert fresh.evaluate("[document.getElementById('in-L').value, document.getElementById('in-s').value]") == [
        "40",
        "16k",
    ]
    fresh.wait_for("document.getElementById('out-total').textContent === '2.621\u00a0GB'")
    fresh.fill("#in-B", "8")
    want = expected("35", {"L": "40", "s": "16k", "B": "8"})["total"]
    fresh.wait_for(f"document.getElementById('out-total').textContent === {want!r}")
    fresh.wait_for("new URLSearchParams(location.search).get('B') === '8'")
    link = fresh.evaluate("location.href")
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(link).query) == {
        "L": ["40"],
        "s": ["16k"],
        "B": ["8"],
        "version": ["1"],
    }
    fresh.goto(link)
    python_ready(fresh)
    fresh.wait_for(f"document.getElementById('out-total').textContent === {want!r}")
    # A hostile parameter is dropped with a notice, never run.
    payload = urllib.parse.quote('"><img src=x onerror="window.__pwned=1">')
    fresh.goto(f"{server.url}/35/?L={payload}&{payload}=1")
    python_ready(fresh)
    fresh.wait_for("!document.getElementById('notice').hidden")
    notice = fresh.evaluate("document.getElementById('notice').textContent")
    assert "Ignored the link's value for L" in notice and "no such input" in notice
    assert fresh.evaluate(f"[window.__pwned, document.querySelectorAll('{INJECTED}, [onerror]').length]") == [None, 0]


def test_search_finds_an_entry_by_its_symbol_from_the_keyboard(fresh, server):
    fresh.goto(server.url + "/")
    fresh.press("/")
    fresh.wait_for("document.getElementById('search-dialog').open")
    fresh.type("kappa")
    fresh.wait_for("Boolean(document.querySelector('#search-results a[href=\"/3/\"]'))")
    for _ in range(10):
        if (
            fresh.evaluate("document.querySelector('#search-results [aria-selected=true] a').getAttribute('href')")
            == "/3/"
        ):
            break
        fresh.press("ArrowDown")
    fresh.press("Enter")
    fresh.wait_for("location.pathname === '/3/'")


LIT = "[...document.querySelectorAll(%r)].map((e) => e.classList.contains('sym-hl'))"


def test_a_statement_symbol_and_its_field_light_each_other_on_hover_and_focus(fresh, server):
    fresh.goto(server.url + "/35/")
    fresh.wait_for("document.getElementById('notation-live') !== null")
    fresh.hover('#statement [data-sym="H_kv"]')
    assert fresh.evaluate(LIT % '#statement [data-sym="H_kv"], #input-H_kv') == [True, True]
    fresh.hover("h1")
    assert fresh.evaluate(LIT % '#statement [data-sym="H_kv"], #input-H_kv') == [False, False]
    fresh.hover("#input-beta label")
    assert fresh.evaluate(LIT % '#statement [data-sym="beta"]') == [True]
    fresh.hover("h1")
    # From the keyboard: Tab from L's field to H_kv's lights H_kv's symbol, and its description says so.
    fresh.evaluate("document.getElementById('in-L').focus()")
    fresh.press("Tab")
    assert fresh.evaluate("document.activeElement.id") == "in-H_kv"
    assert fresh.evaluate(LIT % '#statement [data-sym="H_kv"]') == [True]
    assert fresh.evaluate(LIT % '#statement [data-sym="L"]') == [False]
    assert "sym-note-H_kv" in fresh.evaluate("document.getElementById('in-H_kv').getAttribute('aria-describedby')")


def test_the_embed_card_recomputes_inside_an_iframe_from_another_origin(fresh, server):
    host = f'<!doctype html><title>slides</title><iframe id="card" src="{server.url}/35/?embed=1&s=8192" width="800" height="700"></iframe>'
    with serve_page(host) as slides:
        fresh.goto(slides)
        fresh.wait_for("document.documentElement.dataset.python === 'ready'", READY_S, frame="#card")
        assert fresh.evaluate("document.documentElement.classList.contains('embed')", frame="#card")
        fresh.wait_for("document.getElementById('out-total').textContent === '2.684\u00a0GB'", frame="#card")
        fresh.fill("#in-B", "2", frame="#card")
        fresh.wait_for("document.getElementById('out-total').textContent === '5.369\u00a0GB'", frame="#card")


def test_after_a_first_visit_an_unopened_entry_loads_and_computes_with_the_server_gone(fresh_with_worker, site):
    fresh = fresh_with_worker
    with own_server(site) as first:
        fresh.goto(first.url + "/35/")
        python_ready(fresh)
        fresh.wait_for("document.getElementById('offline-status').dataset.state === 'ready'", READY_S)
        assert fresh.problems() == []
        url = first.url
    # The server is stopped: every file now comes from the service worker.
    fresh.goto(url + "/19/")
    python_ready(fresh)
    fresh.fill("#in-M", "8")
    fresh.wait_for("document.getElementById('out-bubble').textContent === '7/15'")
    fresh.goto(url + "/no-such-page/")
    assert fresh.evaluate("document.querySelector('h1').textContent") == "No such page"


def test_no_page_of_the_sample_is_wider_than_a_phone(fresh, server):
    fresh.viewport(390, 844)
    try:
        wide = {}
        for path in ["/", "/chapters/", "/35/", "/41/", "/46/", "/toolkit/softmax/"]:
            fresh.goto(server.url + path)
            # MiniBrowser's window is no narrower than its toolbar (447 px): the page must fit what it has.
            width, inner = fresh.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            assert inner <= 450, inner
            if width > inner:
                wide[path] = (width, inner)
            # The site's links and buttons sit on one row below the brand (WebKit's 447 px too).
            one_row = fresh.evaluate(
                "(() => { const r = [...document.querySelectorAll('.site-nav > *')].map((e) => e.getBoundingClientRect());"
                " return Math.max(...r.map((b) => b.top)) < Math.min(...r.map((b) => b.bottom)); })()"
            )
            assert one_row, f"{path}: the header's links and buttons wrap at 390 px"
            shots = os.environ.get("ENGINE_SCREENSHOTS")
            if shots and path == "/35/":
                python_ready(fresh)
                fresh.screenshot(f"{shots}/{fresh.name}-35-390.png")
        assert wide == {}
    finally:
        fresh.viewport(1280, 900)
    shots = os.environ.get("ENGINE_SCREENSHOTS")
    if shots:
        fresh.goto(server.url + "/35/")
        python_ready(fresh)
        fresh.screenshot(f"{shots}/{fresh.name}-35-desktop.png")


def test_webkit_reports_the_c_locale_and_still_draws_charts(engine, server):
    """The condition the chart fix is for, checked to be the one under test: WebKitGTK under the
    locale C reports navigator.language "C", which Intl rejects."""
    if engine.name != "webkit":
        pytest.skip("the locale C shows as navigator.language 'C' in WebKitGTK only")
    engine.fresh()
    engine.goto(server.url + "/46/")
    reported = "Object.getOwnPropertyDescriptor(Navigator.prototype, 'language').get.call(navigator)"
    assert engine.evaluate(reported) == "C"
    python_ready(engine)
    engine.evaluate("document.getElementById('plots').scrollIntoView()")  # charts are drawn when scrolled near
    engine.wait_for("document.documentElement.dataset.charts", READY_S)
    assert engine.evaluate("navigator.language") == "en"  # the page's own language stood in for it
    assert min(engine.evaluate(INKED)) > 1000
    assert engine.problems() == []


def test_webkit_writes_no_error_to_its_console(site):
    """WebKit's own console (where an unknown policy directive or a refused request is reported),
    read from a MiniBrowser outside automation opening the sample and the other kinds of page."""
    count = [0]
    with own_server(site, count=count) as running:
        # Three entry shapes (a plain formula, lists and choices, the toolkit) beside the other kinds
        # of page: each tab boots its own Python, so every one more is seconds on two cores.
        urls = [running.url + BY_KEY[key].url for key in ("19", "46", "softmax")]
        urls += [running.url + p for p in ["/", "/chapters/", "/35/?embed=1", "/35/?L=40&nope=1", "/no-such-page/"]]
        lines = webkit_console(urls, quiet_s=3, requests=lambda: count[0], env=C_LOCALE)
    assert lines == []


def set_menu(engine, menu: str, value: str):
    """A menu set as a reader's pick does: its value, then the change event."""
    engine.evaluate(
        f"(() => {{ const m = document.getElementById({menu!r}); m.value = {value!r};"
        " m.dispatchEvent(new Event('change', {bubbles: true})); return m.value; })()"
    )


def visit(engine, path: str, compare: str):
    """A comparison link followed in the page (Turbo), until its Python has said ready (the page
    may write the link again, with its version: the list it compares is what must arrive)."""
    engine.evaluate(FOLLOW % json.dumps(f"{path}?compare={compare}"))
    engine.wait_for(
        f"document.body !== window.__leftBody && location.pathname === {json.dumps(path)} && "
        f"new URLSearchParams(location.search).get('compare') === {json.dumps(compare)} && "
        "document.documentElement.dataset.python",
        READY_S,
    )
    assert engine.evaluate("document.documentElement.dataset.python") == "ready"


TEXT = "document.querySelector(%r).textContent"
NBSP = "\u00a0"
COMPARED = (
    "[...document.querySelectorAll('#compare-table tbody tr')].map((tr) =>"
    " [tr.dataset.preset, ...[...tr.querySelectorAll('td[data-output]')].map((td) => td.textContent)])"
)

# What the page hands the clipboard (these drivers may not let a test read it back).
WATCH_CLIPBOARD = """(() => {
  const board = navigator.clipboard;
  if (board && !board.__watched) {
    const write = board.writeText.bind(board);
    board.writeText = (text) => { window.__copied = text; return write(text); };
    board.__watched = true;
  }
  return true;
})()"""


def test_an_entry_reads_what_people_type_solves_cites_and_compares(fresh, server, site):
    """One Python boot on 35 for what a reader types and asks there: a decimal comma refused and
    said, a target with a unit as people write it, the answer as headline, stopping, the citation's
    Copy buttons, the "Every model" table, and a comparison link followed."""
    fresh.goto(server.url + "/35/")
    python_ready(fresh)
    fresh.wait_for("document.documentElement.dataset.replies", READY_S)
    before = fresh.evaluate(TEXT % "#out-total")
    beta = fresh.evaluate("document.getElementById('in-beta').value")
    # 0,125 is never 125: the field is marked wrong, says why, and the results stay as they were.
    fresh.fill("#in-beta", "0,125")
    said = fresh.wait_for(
        "document.getElementById('in-beta').getAttribute('aria-invalid') === 'true' && "
        "!document.getElementById('err-beta').hidden && "
        "document.getElementById('err-beta').textContent.includes(\"'0,125'\") && "
        "document.getElementById('err-beta').textContent"
    )
    assert "'0,125' is not a number: the decimal point is a dot (write 0.125)" in said, said
    assert fresh.evaluate(TEXT % "#out-total") == before
    fresh.fill("#in-beta", beta)
    fresh.wait_for("document.getElementById('in-beta').getAttribute('aria-invalid') === 'false'")

    # A target typed as people type it, echoed as read; the answer leads the results.
    calc = Calculator(BY_KEY["35"].spec())
    for menu, value in (("solve-output", "total"), ("solve-sense", "<="), ("solve-input", "s")):
        set_menu(fresh, menu, value)
    for typed in ("80 gb", "80GiB"):
        want = solve(calc, {}, "s", "total", "<=", typed, clock=False)
        best = want["solutions"][0]
        fresh.fill("#solve-target", typed)
        if typed == "80 gb":
            fresh.press("Enter")
        fresh.wait_for(
            f"document.getElementById('solve-reading').textContent.startsWith({want['target_reading']!r}) && "
            f"document.getElementById('in-s').value === {best['text']!r} && "
            "document.documentElement.dataset.asking === '0' && document.documentElement.dataset.link === 'written'",
            READY_S,
        )
        assert fresh.evaluate("document.getElementById('solve-reading').hidden") is False
        assert fresh.evaluate(TEXT % "#solved-label") == "Solved: Cached sequence length"
        assert fresh.evaluate(TEXT % "#solved-value") == f"{best['text']}{NBSP}tokens"
        assert fresh.evaluate("document.querySelector('#outputs dl > .result:not([hidden])').id") == "solved-result"
        wait_shown(fresh, "35", expected("35", {"s": best["text"]}))
        assert fresh.evaluate("new URLSearchParams(location.search).get('solve')") == "s"
    # Stop solving: the value stays, a plain input, and the address bar says what the page shows.
    fresh.click("#solve-clear")
    fresh.wait_for("!document.querySelector('.field.solved') && !location.search.includes('solve=')")
    fresh.wait_for("document.documentElement.dataset.link === 'written'")
    query = fresh.evaluate("Object.fromEntries(new URLSearchParams(location.search))")
    assert query == {"s": best["text"], "version": "1"}
    assert fresh.evaluate("document.getElementById('in-s').value") == best["text"]
    assert shown(fresh, "35") == expected("35", {"s": query["s"]})

    # The citation's Copy buttons copy, or (a clipboard refused) select the text and say so.
    fresh.click("#cite summary")
    fresh.wait_for("document.getElementById('cite').open")
    fresh.evaluate(WATCH_CLIPBOARD)
    for source, what in (
        ("cite-run-bibtex", "The computation's BibTeX"),
        ("cite-run-text", "The computation's citation"),
        ("cite-entry-bibtex", "The entry's BibTeX"),
        ("cite-entry-text", "The entry's citation"),
    ):
        button = f"button[data-copy={source}]"
        assert fresh.evaluate(f"!document.querySelector({button!r}).hidden")
        fresh.evaluate("document.getElementById('cite-feedback').textContent = ''")
        fresh.evaluate("window.__copied = null")
        fresh.click(button)
        fresh.wait_for("document.getElementById('cite-feedback').textContent")
        feedback = fresh.evaluate(TEXT % "#cite-feedback")
        if fresh.evaluate("document.getElementById('cite-feedback').dataset.state") == "copied":
            assert feedback == f"Copied: {what.lower()}."
            assert fresh.evaluate("window.__copied") == fresh.evaluate(TEXT % f"#{source}")
        else:
            assert feedback == f"{what} selected: press Ctrl+C (⌘C on a Mac) to copy it."
            assert fresh.evaluate("getSelection().toString()") == fresh.evaluate(TEXT % f"#{source}")
        assert fresh.evaluate(TEXT % f"#{source}").strip()

    # "Every model": fetched on opening, one row a model, sorted by a header's button.
    assert fresh.evaluate("document.getElementById('every-model-table')") is None
    fresh.click("#every-model summary")
    fresh.wait_for("document.getElementById('every-model').dataset.state === 'drawn'", READY_S)
    data = json.loads((site / "35" / "every-model.json").read_text())
    assert fresh.evaluate("document.querySelectorAll('#every-model-table tbody tr').length") == len(data["rows"])
    llama = "#every-model-table tbody tr[data-preset='llama-3-70b'] td[data-output='total']"
    assert fresh.evaluate(TEXT % llama) == str(bank_api.entry(35).run(model="llama-3-70b")["total"]).replace(" ", NBSP)
    values = {r["values"]["total"]["text"]: r["values"]["total"]["value"] for r in data["rows"] if "values" in r}
    column = (
        "[...document.querySelectorAll('#every-model-table tbody td[data-output=total]')].map((c) => c.textContent)"
    )
    fresh.click("#every-model-table th[data-key='total'] button")
    assert (
        fresh.evaluate("document.querySelector('#every-model-table th[data-key=total]').getAttribute('aria-sort')")
        == "descending"
    )
    order = [values[t] for t in fresh.evaluate(column)]
    assert order == sorted(order, reverse=True) and order[0] == max(values.values())
    fresh.click("#every-model-table th[data-key='total'] button")
    order = [values[t] for t in fresh.evaluate(column)]
    assert order == sorted(order)

    # A comparison link: one row a model, what CPython computes for each.
    visit(fresh, "/35/", "llama-3-70b,mixtral-8x7b")
    fresh.wait_for("document.querySelectorAll('#compare-table tbody tr').length === 2", READY_S)
    names = ("total", "per_token", "per_token_layer", "window_tokens")
    assert fresh.evaluate(COMPARED) == [
        [model, *(str(bank_api.entry(35).run(model=model)[n]).replace(" ", NBSP) for n in names)]
        for model in ("llama-3-70b", "mixtral-8x7b")
    ]
    assert fresh.evaluate("window.__cspViolations") == []


def test_the_embed_card_fills_its_slide_plain_and_filled_by_a_preset(fresh, server):
    """At 800 × 450 the card's headline is large and whole, nothing scrolls, no notice: as built
    (laid out by CSS alone) and filled by a preset's many inputs, measured as Chromium measures it."""
    from tests.pyodide_app.test_browser_embed import MEASURE, SETS, SETTLED, check_card

    fresh.viewport(800, 450)
    try:
        fresh.goto(server.url + "/35/?embed=1&no_such_input=1")
        fresh.wait_for("document.fonts.status === 'loaded' && document.getElementById('notice').textContent !== ''")
        # the card's own signal that embed.js (loaded on demand) has fitted it; measuring forces the layout
        fresh.wait_for("document.documentElement.dataset.embedFit", READY_S)
        check_card(fresh.evaluate(f"({MEASURE})('total')"), "/35/", 800, 450)
        url = "/16/?model=t5-11b"
        fresh.goto(f"{server.url}{url}&embed=1")
        fresh.wait_for(f"({SETTLED})() && document.documentElement.dataset.embedFit", READY_S)
        first = set(fresh.evaluate(f"({SETS})({json.dumps({'model': 't5-11b'})})"))
        headline = fresh.evaluate("JSON.parse(document.getElementById('entry-spec').textContent).headline[0]")
        m = fresh.evaluate(f"({MEASURE})({headline!r})")
        check_card(m, url, 800, 450, first)
        assert "Filled from" in m["note"], m["note"]
    finally:
        fresh.viewport(1280, 900)


# The file an export hands the browser, kept by the test instead of saved: its name and text.
CATCH_DOWNLOAD = """(() => {
  window.__saved = null;
  const made = URL.createObjectURL;
  URL.createObjectURL = (blob) => { window.__blob = blob; return made.call(URL, blob); };
  document.addEventListener('click', (e) => {
    const a = e.target.closest && e.target.closest('a[download]');
    if (!a) return;
    e.preventDefault();
    window.__blob.text().then((text) => { window.__saved = {name: a.download, text}; });
  }, true);
  return true;
})()"""
# A file picked in the import's file field, as the file chooser gives it.
PICK = """((name, text) => {
  const field = document.getElementById('records-file');
  const files = new DataTransfer();
  files.items.add(new File([text], name, {type: 'application/json'}));
  field.files = files.files;
  field.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
})(%s, %s)"""
TODAY = (
    "(() => { const d = new Date(); return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}"
    "-${String(d.getDate()).padStart(2, '0')}`; })()"
)


RECORD_IN_VIEW = "document.getElementById('record').scrollIntoView(), true"


def test_records_export_and_import_back_and_a_404_suggests_the_nearest_entry(fresh, server):
    """No Python needed: a practice and a protocol day recorded on 3, exported from the chapters
    page, cleared, imported back; then an unknown address suggesting its entry."""
    fresh.goto(server.url + "/3/")
    fresh.evaluate(RECORD_IN_VIEW)  # its code loads as the record comes near the screen
    fresh.wait_for("document.getElementById('record').dataset.record")
    fresh.evaluate("localStorage.clear(), true")
    fresh.goto(server.url + "/3/")
    fresh.evaluate(RECORD_IN_VIEW)  # its code loads as the record comes near the screen
    fresh.wait_for("document.getElementById('record').dataset.record")
    day = fresh.evaluate(TODAY)
    fresh.click("#practice-done")
    fresh.wait_for(f"document.getElementById('practice-progress').textContent === 'Practised on 1 day, last on {day}.'")
    fresh.click("#protocol-record")
    fresh.wait_for("document.getElementById('protocol-progress').textContent === 'Reproduced on 1 of 3 days.'")

    fresh.goto(server.url + "/chapters/")
    fresh.wait_for("document.getElementById('records').dataset.records")
    assert fresh.evaluate(TEXT % 'li[data-entry="3"] .entry-record') == f"practised 1 day, last {day}; protocol 1 of 3"
    fresh.evaluate(CATCH_DOWNLOAD)
    fresh.click("#records-export")
    fresh.wait_for("window.__saved")
    saved = fresh.evaluate("window.__saved")
    exported = json.loads(saved["text"])
    assert exported["format"] == "derivation-bank-records" and exported["version"] == 1
    assert exported["entries"] == {"3": {"practised": [day], "protocol": [day]}}
    assert saved["name"] == f"derivation-bank-records-{exported['exported'][:10]}.json"
    assert fresh.evaluate(TEXT % "#records-message") == (
        f"Exported 1 entry: 1 day of practice and 1 protocol day to {saved['name']}."
    )
    fresh.evaluate("localStorage.clear(), true")
    fresh.goto(server.url + "/chapters/")
    fresh.wait_for("document.getElementById('records').dataset.records")
    assert fresh.evaluate("document.querySelectorAll('.entry-record').length") == 0
    fresh.evaluate(PICK % (json.dumps(saved["name"]), json.dumps(saved["text"])))
    fresh.wait_for("document.getElementById('records').dataset.tries === '1'")
    assert fresh.evaluate(TEXT % "#records-message") == (
        f"Imported 1 entry: 1 day of practice and 1 protocol day from {saved['name']}, merged with this browser's records."
    )
    assert fresh.evaluate(TEXT % 'li[data-entry="3"] .entry-record') == f"practised 1 day, last {day}; protocol 1 of 3"
    fresh.evaluate("localStorage.clear(), true")

    fresh.goto(server.url + "/kv-cache/")
    fresh.wait_for("document.documentElement.dataset.suggestions")
    found = fresh.evaluate("[...document.querySelectorAll('#suggested li a')].map((a) => a.getAttribute('href'))")
    assert "/35/" in found[:2] and len(found) <= 5, found
    assert fresh.evaluate(TEXT % "#asked-path") == "/kv-cache/"
    assert [p for p in fresh.problems() if "404" not in p] == []  # the page's own 404 is the point


PLAN_ANSWERS = "Object.fromEntries([...document.querySelectorAll('output[id^=\"out-\"]')].map((o) => [o.id.slice(4), o.textContent]))"
PLAN_COMPUTED = (
    "document.querySelector('article.plan') && document.querySelector('article.plan').dataset.planState === 'computed'"
)
REPLIES = "Number(document.querySelector('article.plan').dataset.replies || 0)"


def plan_expected(plan_id: str, raw: dict) -> dict:
    from tests.runtime.test_plans import _bank

    _, calc = _bank()[3][plan_id]
    return {name: out["text"] for name, out in calc.run(raw)["outputs"].items()}


def test_a_plan_computes_follows_an_edit_and_opens_offline(fresh_with_worker, site):
    """A plan's page as in Chromium (tests/pyodide_app/test_browser_plans.py): its link's inputs,
    every answer equal to CPython's, an edit followed by the answers, the link and the dataflow's
    values; after a first visit, the plan with other inputs with the server gone."""
    fresh = fresh_with_worker
    with own_server(site) as first:
        fresh.goto(first.url + "/plans/serve/?B=4&k=4")
        fresh.wait_for(PLAN_COMPUTED, READY_S)
        assert fresh.evaluate(PLAN_ANSWERS) == plan_expected("serve-plan", {"B": "4", "k": "4"})
        sent = fresh.evaluate(REPLIES)
        fresh.fill("#in-B", "8")
        fresh.wait_for(f"{REPLIES} > {sent} && new URLSearchParams(location.search).get('B') === '8'", READY_S)
        assert fresh.evaluate(PLAN_ANSWERS) == plan_expected("serve-plan", {"B": "8", "k": "4"})
        drawn = fresh.evaluate(
            "Object.fromEntries([...document.querySelectorAll('#dataflow tspan[data-mirror]')]"
            ".map((t) => [t.dataset.mirror, t.textContent]))"
        )
        assert drawn and drawn == {
            name: fresh.evaluate(f"document.getElementById('out-{name}').textContent") for name in drawn
        }
        fresh.wait_for("document.getElementById('offline-status').dataset.state === 'ready'", READY_S)

        assert fresh.problems() == []
        url = first.url
    # The server is stopped: the serving plan, unopened with these inputs, comes from the service worker.
    fresh.goto(url + "/plans/serve/?B=2")
    fresh.wait_for(PLAN_COMPUTED, READY_S)
    assert fresh.evaluate(PLAN_ANSWERS) == plan_expected("serve-plan", {"B": "2"})


def test_a_plan_is_asked_backwards(fresh, server):
    """The training plan's "Ask it backwards": the largest micro-batch that fits 80 GB, and the
    freed input set to it.  Waited on the page's own signal that the answer is on screen (data-solves),
    whatever it says, so that a question that fails says why."""
    fresh.goto(server.url + "/plans/train/")
    fresh.wait_for(PLAN_COMPUTED, READY_S)
    fresh.click("#plan-solve summary")
    fresh.evaluate(
        "(() => { const set = (id, v) => { const e = document.getElementById(id); e.value = v;"
        " e.dispatchEvent(new Event('change', {bubbles: true})); };"
        " set('solve-output', 'memory_device'); set('solve-sense', '<='); set('solve-input', 'b'); return true; })()"
    )
    fresh.fill("#solve-target", "80GB")
    fresh.click("#plan-solve-form button[type=submit]")
    fresh.wait_for("Number(document.querySelector('article.plan').dataset.solves || 0) >= 1", READY_S)
    answer = fresh.evaluate("document.getElementById('solve-answer').textContent").replace("\u00a0", " ")
    solved = fresh.evaluate("document.querySelector('article.plan').dataset.solved")
    if solved is None and "the formula is slow beyond" in answer:
        # The solver's time budget ran out on a loaded machine before any value missed the target
        # (seen in WebKit under a whole run): it says how far it looked and sets nothing.
        assert "it is at most 80 GB throughout" in answer
        return
    assert solved == "b", answer
    assert "at most 80" in answer
    assert fresh.evaluate("document.getElementById('in-b').value") == "3"
