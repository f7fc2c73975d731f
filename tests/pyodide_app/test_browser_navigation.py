"""Moving between pages keeps one Python: links are followed by Turbo Drive, the worker stays.

A walk of 20 navigations (links, back, forward) checks on every page what a full load gives:
the URL, the title, the focus on the page's heading, and on entry pages a recompute by the
running Python (against the same spec computed in CPython), with the inputs as they were on
back and forward; and that it was the same worker throughout.  The same walk offline.
"""

from __future__ import annotations

import html
import json
import re
from fractions import Fraction
from urllib.parse import urlsplit

import pytest

from site_builder.runtime.calculator import Calculator
from site_builder.runtime.domain import DomainError
from site_builder.runtime.numbers import write_input
from tests.browsing import PYTHON_READY_MS, WITHOUT_TYPING_PAUSE, held_back, open_entry, open_search

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node

# (how, what): "link" clicks the first link in the page whose href is, or starts with, `what`
# (a trailing "?" means a "feeds into" link with its values); "back" and "forward" are the browser's.
WALK = [
    ("link", "/36/"),
    ("link", "/37/?"),
    ("back", None),
    ("back", None),
    ("forward", None),
    ("link", "/toolkit/matmul-cost/"),
    ("link", "/"),
    ("link", "/chapters/"),
    ("link", "/19/"),
    ("link", "/20/"),
    ("back", None),
    ("forward", None),
    ("link", "/21/"),
    ("link", "/43/?"),
    ("back", None),
    ("link", "/22/"),
    ("link", "/synthesis/"),
    ("back", None),
    ("back", None),
    ("forward", None),
]

STATE_JS = """() => ({
  path: location.pathname, url: location.href, title: document.title,
  focused: document.activeElement === document.querySelector('main h1'),
  worker: document.documentElement.dataset.worker, marker: window.__walk,
  loads: performance.getEntriesByType('navigation').length, csp: window.__cspViolations,
})"""


def _title(site, path: str) -> str:
    text = (site / path.strip("/") / "index.html").read_text() if path != "/" else (site / "index.html").read_text()
    return html.unescape(re.search(r"<title>(.*?)</title>", text, re.S).group(1))


def _wait_for(page, path: str, site) -> None:
    """Until the page at ``path`` is in, set up and, on an entry page, Python has loaded its formula."""
    page.wait_for_function(
        "([path, title]) => location.pathname === path && document.title === title"
        " && document.activeElement === document.querySelector('main h1')",
        arg=[path, _title(site, path)],
        timeout=PYTHON_READY_MS,
    )
    if page.query_selector("#entry-spec"):
        page.wait_for_function("() => document.documentElement.dataset.python", timeout=PYTHON_READY_MS)
        assert page.evaluate("document.documentElement.dataset.python") == "ready", page.text_content("#py-status")


def _inputs(page) -> dict:
    return page.evaluate("""() => Object.fromEntries([...document.getElementById('inputs').elements]
        .filter((e) => e.name).map((e) => [e.name, e.value]))""")


def _recompute(page) -> tuple[str, str]:
    """Change one input on the entry page shown and check every output against CPython on the
    same spec; returns the input's name and the value typed."""
    spec = {**json.loads(page.text_content("#entry-spec")), "formula": page.text_content("#formula-source")}
    calc = Calculator(spec)
    raw = _inputs(page)
    before = calc.run(raw)["outputs"]
    for name_value in spec["inputs"]:
        if name_value.get("type") in ("choice", "list"):
            continue
        name = name_value["name"]
        value = calc.read(raw)[name]
        if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
            continue
        candidates = (
            (value * 2, value // 2, value + 1)
            if isinstance(value, int)
            else (float(value) * 2, float(value) / 2, float(value) + 1)
        )
        for candidate in candidates:
            typed = repr(candidate) if isinstance(candidate, float) else str(candidate)
            trial = {**raw, name: typed}
            try:
                expected = calc.run(trial)["outputs"]
            except DomainError:
                continue
            if expected != before:
                page.fill(f"#in-{name}", typed)
                page.wait_for_function(
                    "(want) => Object.entries(want).every(([n, t]) => document.getElementById(`out-${n}`).textContent === t)",
                    arg={n: o["text"] for n, o in expected.items()},
                )
                # The address bar carries the change (the share link) before the reader moves on.
                page.wait_for_function(
                    "([name, value]) => new URLSearchParams(location.search).get(name) === value",
                    arg=[name, write_input(typed)],
                )
                return name, typed
    raise AssertionError(f"no input of {spec['id']} to change")


def walk(page, server, site):
    open_entry(page, server, "/35/")
    page.wait_for_function("() => document.documentElement.dataset.drive === 'on'")
    page.evaluate("window.__walk = 'the same document'")
    name, typed = _recompute(page)
    history = [(page.url, name, typed)]  # the visited pages: url, changed input, typed value
    at = 0
    for how, what in WALK:
        if how == "link":
            link = page.locator(f"a[href^='{what}']" if what.endswith("?") else f"a[href='{what}']").first
            link.click()
            path = urlsplit(link.get_attribute("href") if not what.endswith("?") else what[:-1]).path
            del history[at + 1 :]
            history.append((None, None, None))
            at += 1
        else:
            getattr(page, f"go_{how}")()
            at += -1 if how == "back" else 1
            path = urlsplit(history[at][0]).path
        _wait_for(page, path, site)
        state = page.evaluate(STATE_JS)
        assert state["marker"] == "the same document" and state["loads"] == 1, (how, what, state)
        assert state["worker"] == "1", (how, what, state)  # the first worker, still
        assert state["title"] == _title(site, path) and state["focused"], (how, what, state)
        url, name, typed = history[at]
        if url is not None:
            assert state["url"] == url, (how, state["url"], url)  # with the inputs of the share link
            if name is not None:
                assert page.input_value(f"#in-{name}") == typed, (how, path, name)
        if page.query_selector("#entry-spec"):
            name, typed = _recompute(page)
            history[at] = (page.url, name, typed)
        else:
            history[at] = (page.url, None, None)
    assert page.evaluate("window.__cspViolations") == []


def test_a_walk_of_twenty_pages_keeps_one_worker_and_python(page, server, site):
    walk(page, server, site)
    assert page.problems == []


def test_the_same_walk_offline(browser, server, site):
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    problems = []
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    open_entry(page, server, "/35/")
    page.wait_for_function(
        "() => document.getElementById('offline-status').dataset.state === 'ready'", timeout=PYTHON_READY_MS
    )
    page.reload()  # under the service worker from its first byte
    open_entry(page, server, "/35/")
    assert page.evaluate("!!navigator.serviceWorker.controller")
    context.set_offline(True)
    walk(page, server, site)
    page.evaluate("Turbo.visit('/no-such-page/')")  # offline, the site's own page, in this document
    page.wait_for_function("() => document.querySelector('main h1').textContent === 'No such page'")
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert problems == []
    context.close()


def test_with_javascript_off_links_are_plain_links(browser, server, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server.url + "/35/")
    page.click("a[href='/36/']")
    page.wait_for_url(server.url + "/36/")
    assert page.title() == _title(site, "/36/")
    out = page.text_content("output[id^='out-']")
    assert out and out == re.search(
        r'<output id="out-[^"]*"[^>]*>(.*?)</output>', (site / "36" / "index.html").read_text(), re.S
    ).group(1)
    context.close()


def test_a_formula_left_running_is_stopped_and_the_next_page_gets_a_fresh_worker(browser, slow_server):
    page = browser.new_page()
    open_entry(page, slow_server, "/1/")
    page.wait_for_function("() => document.documentElement.dataset.drive === 'on'")
    page.fill("#in-n", "1e15")  # never finishes
    page.wait_for_function("() => Number(document.documentElement.dataset.asking) > 0")  # its run is asked
    page.evaluate("Turbo.visit('/1/?n=10')")  # what a link does: the next page's formula waits behind it
    page.wait_for_function(
        "() => new URLSearchParams(location.search).get('n') === '10' && document.documentElement.dataset.python === 'ready'",
        timeout=PYTHON_READY_MS,
    )
    page.wait_for_function("() => document.getElementById('out-total').textContent === '385'")
    assert page.evaluate("document.documentElement.dataset.worker") == "2"  # the watchdog's new worker
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert page.is_hidden("#notice")  # this page's own values were fine
    page.close()


def test_inputs_typed_just_before_leaving_are_there_on_back(page, server):
    """The address bar follows the inputs once typing pauses; back brings them as typed even
    when the reader left at once."""
    open_entry(page, server, "/35/")
    page.wait_for_function("() => document.documentElement.dataset.drive === 'on'")
    page.fill("#in-s", "8192")
    page.select_option("#units-bytes", index=1)
    page.click("a[href='/36/']")
    page.wait_for_function("() => location.pathname === '/36/' && document.documentElement.dataset.python === 'ready'")
    page.go_back()
    page.wait_for_function("() => location.pathname === '/35/' && document.documentElement.dataset.python === 'ready'")
    assert page.input_value("#in-s") == "8192"
    assert page.evaluate("document.getElementById('units-bytes').selectedIndex") == 1
    page.wait_for_function(
        "() => document.documentElement.dataset.replies && !document.getElementById('outputs').classList.contains('stale')"
    )
    assert page.text_content("#out-total").startswith("2.")  # 2.684 GB, in the unit chosen
    assert page.problems == []


def test_a_field_the_reader_leaves_writes_its_link_at_once(page, server):
    """Typing writes the link once it pauses; leaving the field (or Enter) writes it at once, even
    for a run still being computed.  The typing pause is taken out here (its timer never fires), so
    only the field's change can have written the link."""
    open_entry(page, server, "/35/")
    page.evaluate(WITHOUT_TYPING_PAUSE)
    before = int(page.evaluate("document.documentElement.dataset.replies"))
    page.fill("#in-s", "8192")
    page.wait_for_function(
        "(n) => Number(document.documentElement.dataset.replies) > n && document.documentElement.dataset.asking === '0'",
        arg=before,
    )
    assert page.evaluate("document.documentElement.dataset.link") == "pending"
    assert "s=8192" not in page.evaluate("location.search")
    page.press("#in-s", "Tab")
    assert page.evaluate("document.documentElement.dataset.link") == "written"
    assert "s=8192" in page.evaluate("location.search")
    assert "s=8192" in page.text_content("#cite-run-text")
    # Left at once, before its run has answered: the answer writes its link as it arrives.
    page.fill("#in-s", "16384")
    page.press("#in-s", "Tab")
    page.wait_for_function("() => document.documentElement.dataset.asking === '0'")
    page.wait_for_function("() => document.documentElement.dataset.link === 'written'")
    assert "s=16384" in page.evaluate("location.search")
    assert page.problems == []


def test_while_a_link_is_on_its_way_no_page_says_python_is_ready_for_it(page, server):
    """Turbo puts the next address in the bar once the next page has arrived, and renders it once
    its stylesheets have (here /36/'s math stylesheet, held back): in between, the page left is on
    screen, and the page's signal is not "ready" (it would be the page left saying it), only once
    the new page's own Python has computed it."""
    open_entry(page, server, "/35/")
    page.wait_for_function("() => document.documentElement.dataset.drive === 'on'")
    with held_back(page, "**/static/math/*.css"):
        with page.expect_request("**/static/math/*.css"):  # held in the browser from here on
            page.click("a[href='/36/']")
        page.wait_for_function("() => location.pathname === '/36/'")
        assert page.evaluate("document.documentElement.dataset.python") is None
        assert page.evaluate("document.getElementById('entry-spec').textContent").find('"id":"35"') >= 0
    page.wait_for_function("() => document.documentElement.dataset.python", timeout=PYTHON_READY_MS)
    assert page.evaluate("JSON.parse(document.getElementById('entry-spec').textContent).id") == "36"
    assert page.evaluate("document.documentElement.dataset.python") == "ready"
    assert page.problems == []


def test_python_starts_on_the_first_entry_page_a_link_brings_in(page, server):
    """From the index (no Python there) to an entry: the entry's head starts the worker, as on a full load."""
    page.goto(server.url + "/")
    page.wait_for_function("() => document.documentElement.dataset.drive === 'on'")
    page.click("a[href='/35/']")
    page.wait_for_function(
        "() => location.pathname === '/35/' && document.documentElement.dataset.python", timeout=PYTHON_READY_MS
    )
    assert page.evaluate("document.documentElement.dataset.python") == "ready", page.text_content("#py-status")
    page.fill("#in-s", "8192")
    page.wait_for_function("() => document.getElementById('out-total').textContent === '2.684\u00a0GB'")
    assert page.evaluate(
        "[document.documentElement.dataset.worker, performance.getEntriesByType('navigation').length]"
    ) == ["1", 1]
    assert page.evaluate("window.__cspViolations") == [] and page.problems == []


@pytest.mark.parametrize(
    "missing, way",
    [
        ((), "snapshot"),
        (("snapshot/*/*.snapshot",), "startup"),
        # the start-up stdlib gone in both forms, as is and xz-compressed (a page that judges
        # its server far asks for the second first)
        (("pyodide/*/stdlib-startup-*.zip*",), "stock"),
    ],
)
def test_every_boot_way_serves_the_pages_after_it(browser, site, tmp_path, missing, way):
    """Whichever way the first page booted (or fell back to), the next entry loads into that Python."""
    import os
    import shutil

    from site_builder.serve.host import SiteServer

    copy = tmp_path / "site"
    shutil.copytree(site, copy, copy_function=os.link)
    for pattern in missing:
        for path in copy.glob(pattern):
            path.unlink()
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    with SiteServer(copy) as running:
        open_entry(page, running, "/35/")
        # The snapshot is for a near server (python.js): on a loaded machine even 127.0.0.1 can
        # answer slower than that, and the page then boots as from a far one, as it should.
        judged = page.evaluate("performance.getEntriesByName('boot-way')[0].detail")
        booted = way if way != "snapshot" or judged["cheap"] else "startup+xz"
        assert page.evaluate("document.documentElement.dataset.stdlib").startswith(booted), judged
        page.wait_for_function("() => document.documentElement.dataset.drive === 'on'")
        page.click("a[href='/36/']")
        page.wait_for_function(
            "() => location.pathname === '/36/' && document.documentElement.dataset.python === 'ready'",
            timeout=PYTHON_READY_MS,
        )
        page.fill("#in-N", "140B")
        page.wait_for_function("() => document.documentElement.dataset.replies === '2'")
        assert "stale" not in page.get_attribute("#outputs", "class")
        assert page.evaluate(
            "[document.documentElement.dataset.worker, performance.getEntriesByType('navigation').length]"
        ) == ["1", 1]
    context.close()


def test_an_embedded_card_neither_loads_turbo_nor_navigates_in_its_frame(page, server):
    open_entry(page, server, "/35/?embed=1")
    page.wait_for_function("() => document.documentElement.dataset.drive")  # site.js has decided
    assert page.evaluate("document.documentElement.dataset.drive") == "off"
    assert page.evaluate("window.Turbo") is None
    # every link leaves the frame for a tab of its own (a chart's CSV download navigates nowhere)
    targets = page.evaluate(
        "[...document.querySelectorAll('a[href]:not([href^=\"#\"]):not([download])')].map((a) => a.target)"
    )
    assert targets and set(targets) == {"_blank"}


MEMORY_JS = """async () => {
  const { runner } = await import('/static/python.js');
  return runner.call('memory');
}"""


def _page_heap(cdp) -> int:
    cdp.send("HeapProfiler.collectGarbage")
    return int(cdp.send("Runtime.getHeapUsage")["usedSize"])


NAVIGATIONS = 60  # a leak of one object or one WebAssembly page a visit shows 30 times over


def test_memory_stays_flat_across_many_navigations(page, server):
    """The worker's WebAssembly heap and Python's objects, and the page's own JavaScript heap,
    after navigation 1 and navigation 60 (between two entries with charts, by their links)."""
    open_entry(page, server, "/35/")
    page.wait_for_function("() => document.documentElement.dataset.drive === 'on'")
    cdp = page.context.new_cdp_session(page)
    half, last = NAVIGATIONS // 2, NAVIGATIONS
    measured = (1, 2, half - 1, half, last - 1, last)
    figures = {}
    for n in range(1, last + 1):
        target = "/36/" if n % 2 else "/35/"
        page.click(f"main a[href='{target}']")
        page.wait_for_function(  # the charts are drawn when scrolled near: brought into view until they are
            "(path) => location.pathname === path && (document.getElementById('plots').scrollIntoView(),"
            " document.documentElement.dataset.charts)",
            arg=target,
            timeout=PYTHON_READY_MS,
        )
        if n in measured:
            figures[n] = {**page.evaluate(MEMORY_JS), "page": _page_heap(cdp)}
    print(f"memory after navigations {measured}:", figures)
    assert page.evaluate("document.documentElement.dataset.worker") == "1"
    # Like against like (the same entry shown): WebAssembly memory never shrinks, so a leak in
    # Python would show as growth, as would one in Python's count of objects.
    for early, late in ((1, last - 1), (2, last)):
        assert figures[late]["heap"] == figures[early]["heap"], figures
        assert figures[late]["objects"] <= figures[early]["objects"] + 10, figures
    # The page's JavaScript heap grows while the engine warms up (compiled code, the browser's
    # bounded records of history and resource timing), then stays.
    for early, late in ((half - 1, last - 1), (half, last)):
        assert figures[late]["page"] < figures[early]["page"] + 500_000, figures
    assert page.problems == []


def test_a_link_to_a_part_of_the_page_scrolls_there_and_keeps_the_inputs(page, server):
    """#main (the skip link) is a native jump within the page, as without Turbo: nothing is fetched,
    and back and forward through it keep the inputs."""
    open_entry(page, server, "/35/")
    page.wait_for_function("() => document.documentElement.dataset.drive === 'on'")
    page.fill("#in-s", "8192")
    page.evaluate("document.getElementById('inputs').dataset.mark = 'this page'")
    # A visit starts (turbo:visit) as the link is followed, before the address changes.
    page.evaluate("window.__visits = 0; document.addEventListener('turbo:visit', () => { window.__visits++; })")
    page.focus(".skip")
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.hash === '#main'")
    assert page.evaluate("window.__visits") == 0  # no visit: the page is not fetched and rendered again
    assert page.evaluate("document.getElementById('inputs').dataset.mark") == "this page"
    assert page.input_value("#in-s") == "8192"
    page.click("main a[href='/36/']")
    page.wait_for_function("() => location.pathname === '/36/' && document.documentElement.dataset.python === 'ready'")
    for _ in range(2):
        page.go_back()
        page.wait_for_function(
            "() => location.pathname === '/35/' && document.documentElement.dataset.python === 'ready'"
        )
        assert page.input_value("#in-s") == "8192"
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert page.problems == []


def test_a_search_result_opens_in_the_page_with_the_same_python(page, server):
    open_entry(page, server, "/35/")
    page.wait_for_function("() => document.documentElement.dataset.drive === 'on'")
    open_search(page, "bubble")
    page.wait_for_selector("#search-result-0 a")
    target = page.get_attribute("#search-result-0 a", "href")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(path) => location.pathname === path && document.documentElement.dataset.python === 'ready'",
        arg=target,
        timeout=PYTHON_READY_MS,
    )
    assert not page.evaluate("document.getElementById('search-dialog').open")
    page.wait_for_function("() => document.activeElement === document.querySelector('main h1')")  # at its first frame
    assert page.evaluate(
        "[document.documentElement.dataset.worker, performance.getEntriesByType('navigation').length]"
    ) == ["1", 1]
    open_search(page, "kv cache")  # the new page's search works as the first one's did
    page.wait_for_selector("#search-result-0 a")
    assert page.problems == []
