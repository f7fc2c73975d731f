"""Real Chromium against the built site on 127.0.0.1: Python recomputes in the page."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.browsing import open_entry
from tests.shapes import ENTRIES, SHAPE_URLS

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node


def test_entry_35_recomputes_in_pyodide(page, server):
    open_entry(page, server, "/35/")
    assert page.text_content("#out-total") == "1.342\u00a0GB"  # the build's result for the defaults
    page.fill("#in-s", "8192")
    page.wait_for_function("() => document.getElementById('out-total').textContent === '2.684\u00a0GB'")
    page.fill("#in-B", "1k")  # count suffixes are read by the same Python
    page.wait_for_function("() => document.getElementById('out-total').textContent === '2.684\u00a0TB'")
    assert "ready" == page.get_attribute("#py-status", "data-state")
    assert page.problems == []


def test_bad_input_shows_a_message_and_marks_results_stale(page, server):
    open_entry(page, server, "/35/")
    page.fill("#in-L", "0")
    page.wait_for_selector("#err-L:not([hidden])")
    assert page.text_content("#err-L") == "'0' is out of range; expected a whole number in [1, ∞)"
    assert "stale" in page.get_attribute("#outputs", "class")
    assert page.text_content("#out-total") == "1.342\u00a0GB"  # the last valid result stays, never NaN
    page.fill("#in-L", "40")
    page.wait_for_function("() => document.getElementById('out-total').textContent === '671.1\u00a0MB'")
    assert page.is_hidden("#err-L")
    assert "stale" not in page.get_attribute("#outputs", "class")
    assert page.problems == []


def test_results_are_in_the_page_with_javascript_off(browser, server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server.url + "/35/")
    assert page.text_content("#out-total") == "1.342\u00a0GB"
    assert page.locator(".katex").count() > 0
    context.close()


def test_no_page_is_wider_than_a_phone(browser, server, site):
    """At 390 px nothing pushes the page sideways (wide tables scroll inside themselves): every
    page that is not an entry's, and an entry of every shape (tests/shapes.py)."""
    others = {e.url for e in ENTRIES} - set(SHAPE_URLS)
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    wide = []
    for path in sorted(site.rglob("index.html")):
        html = path.read_text()
        if 'http-equiv="refresh"' in html:
            continue  # an alias, redirecting
        folder = path.parent.relative_to(site).as_posix()
        url = "/" if folder == "." else f"/{folder}/"
        if url in others:
            continue
        page.goto(server.url + url)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide.append((path.parent.name, width))
    context.close()
    assert wide == []


# The page judges how near its server is by its quickest answer (python.js, NEAR_MS); on a loaded
# test machine even 127.0.0.1 can take longer.  These tests are about the ways Python boots and
# their fallbacks, so the page is told its answers were quick.
NEAR = """
const entries = performance.getEntriesByType.bind(performance);
performance.getEntriesByType = (type) => type === "navigation"
  ? [{ transferSize: 1, requestStart: 1, responseEnd: 2 }] : entries(type);
"""


def _boots(browser, site, tmp_path, missing=(), far=False):
    """Which way Python booted on a copy of the site without the ``missing`` files (and that it
    computes), served from 127.0.0.1 or from a ``far`` server (50 ms before every response)."""
    from benchmarks.server import BenchServer, Link
    from site_builder.serve.host import SiteServer

    copy = tmp_path / f"site-{len(list(tmp_path.iterdir()))}"
    shutil.copytree(site, copy, copy_function=os.link)
    for pattern in missing:
        for path in copy.glob(pattern):
            path.unlink()
    context = browser.new_context()
    if not far:  # 127.0.0.1 is as near as a server gets, though a loaded machine may answer it slower
        context.add_init_script(NEAR)
    page = context.new_page()
    with BenchServer(copy, Link(latency_s=0.05)) if far else SiteServer(copy) as running:
        open_entry(page, running, "/35/")
        page.fill("#in-s", "8192")
        page.wait_for_function("() => document.getElementById('out-total').textContent === '2.684\u00a0GB'")
        way = page.evaluate("document.documentElement.dataset.stdlib")
    context.close()
    return way


def test_python_boots_from_the_snapshot_and_falls_back_to_the_startup_then_the_stock_stdlib(browser, site, tmp_path):
    assert _boots(browser, site, tmp_path) == "snapshot"  # 127.0.0.1 is as near as a server gets
    way = _boots(browser, site, tmp_path, ["snapshot/*/*.snapshot"])
    assert way.startswith("startup (snapshot failed: ") and "HTTP 404" in way, way
    # The snapshot is only valid with its zip: without the zip both fail.
    way = _boots(browser, site, tmp_path, ["pyodide/*/stdlib-startup-*.zip"])
    assert way.startswith("stock (snapshot failed: ") and "startup failed: " in way, way


def test_a_far_server_boots_from_xz_compressed_files_and_falls_back_to_them_as_they_are(browser, site, tmp_path):
    """The snapshot is 4 MB more to download: a page that arrived from afar does without it, and
    fetches Pyodide's WebAssembly and the start-up stdlib xz-compressed, for its worker to decode."""
    assert _boots(browser, site, tmp_path, far=True) == "startup+xz"
    way = _boots(browser, site, tmp_path, ["pyodide/*/*.xz"], far=True)
    assert way.startswith("startup (") and ".zip.xz: HTTP 404" in way and ".wasm.xz: HTTP 404" in way, way
    way = _boots(browser, site, tmp_path, ["vendor/xz-decompress/*/*.mjs"], far=True)
    assert way.startswith("startup (xz failed: "), way


def test_decoded_files_are_kept_for_the_next_visit(browser, site):
    """A later page from the far server boots from the decoded files kept in Cache Storage: it
    neither downloads nor decodes them again, even with the browser's HTTP cache emptied."""
    from benchmarks.server import BenchServer, Link

    context = browser.new_context()
    with BenchServer(site, Link(latency_s=0.05)) as far:
        page = context.new_page()
        problems = []
        page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
        open_entry(page, far, "/35/")
        assert page.evaluate("document.documentElement.dataset.stdlib") == "startup+xz"
        for _ in range(100):  # they are written as Python reads them, and finish a moment after
            kept = page.evaluate(
                "caches.open('pyodide-decoded').then((c) => c.keys()).then((k) => k.map((r) => r.url))"
            )
            if len(kept) == 2:
                break
            page.wait_for_timeout(100)
        assert sorted(url.rsplit("/", 1)[1].split("-")[0] for url in kept) == ["pyodide.asm.wasm", "stdlib"], kept
        context.new_cdp_session(page).send("Network.clearBrowserCache")
        far.link.sent = 0
        open_entry(page, far, "/19/")
        assert page.evaluate("document.documentElement.dataset.stdlib") == "startup+xz"
        assert far.link.sent < 2_000_000, far.link.sent  # the .xz files alone are 3.5 MB
        assert problems == []
    context.close()


def test_readers_who_save_data_boot_from_the_startup_stdlib(browser, server):
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script("Object.defineProperty(navigator, 'connection', {value: {saveData: true}})")
    open_entry(page, server, "/35/")
    assert page.evaluate("document.documentElement.dataset.stdlib") == "startup+xz"
    context.close()
