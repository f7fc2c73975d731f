"""Links, sharing, embedding, search and offline use, in real Chromium against the built site."""

from __future__ import annotations

import pytest

from site_builder.build import write_site
from tests.browsing import (
    PAYLOADS,
    PYTHON_READY_MS,
    assert_nothing_injected,
    open_entry,
    open_hostile,
    open_search,
    serve_built,
    serve_page,
)
from tests.support import ENTRIES

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node


def output(page, name):
    return page.text_content(f"#out-{name}")


def test_a_prefilled_link_computes_the_linked_values(page, server):
    open_entry(page, server, "/35/?L=40&s=16k")
    assert page.input_value("#in-L") == "40" and page.input_value("#in-s") == "16k"
    page.wait_for_function("() => document.getElementById('out-total').textContent === '2.621\u00a0GB'")
    assert "stale" not in page.get_attribute("#outputs", "class")
    assert page.problems == []


def test_copy_link_round_trips(browser, server):
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page = context.new_page()
    open_entry(page, server, "/35/")
    page.fill("#in-B", "8")
    page.fill("#in-beta", "1")
    page.wait_for_function("() => document.getElementById('out-total').textContent === '5.369\u00a0GB'")
    page.click("#copy-link")
    page.wait_for_function("() => document.getElementById('copy-feedback').textContent === 'Link copied.'")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == f"{server.url}/35/?B=8&beta=1&version=1"
    other = context.new_page()
    open_entry(other, server, link.removeprefix(server.url))
    other.wait_for_function("() => document.getElementById('out-total').textContent === '5.369\u00a0GB'")
    context.close()


@pytest.mark.parametrize("payload", PAYLOADS)
def test_hostile_parameters_are_inert_and_noticed(page, server, payload):
    from urllib.parse import quote

    notice = open_hostile(page, server, f"/35/?L={quote(payload)}&{quote(payload)}=1")
    assert "Ignored the link's value for L" in notice and "no such input" in notice
    assert page.input_value("#in-L") == "80"  # the rejected value is dropped; the field keeps its default
    assert_nothing_injected(page)
    page.wait_for_function("() => document.getElementById('out-total').textContent === '1.342\u00a0GB'")
    assert page.problems == []


def test_the_embed_card_recomputes_inside_an_iframe_from_another_origin(browser, server):
    host = f'<!doctype html><title>slides</title><iframe id="card" src="{server.url}/35/?embed=1&s=8192" width="800" height="700"></iframe>'
    with serve_page(host) as slides:
        page = browser.new_page()
        page.goto(slides)
        frame = page.frame_locator("#card")
        card = page.frames[1]
        card.wait_for_function("() => document.documentElement.dataset.python === 'ready'", timeout=PYTHON_READY_MS)
        assert card.evaluate("document.documentElement.classList.contains('embed')")
        assert not card.is_visible("header.site") and not card.is_visible("#cases")
        card.wait_for_function("() => document.getElementById('out-total').textContent === '2.684\u00a0GB'")
        frame.locator("#in-B").fill("2")
        card.wait_for_function("() => document.getElementById('out-total').textContent === '5.369\u00a0GB'")
        page.close()


@pytest.mark.parametrize(
    "query,expected", [("kappa", "/3/"), ("H_kv", "/35/"), ("bubble", "/19/"), ("chapter 12", "/38/")]
)
def test_search_finds_entries_by_symbol_title_and_chapter(page, server, query, expected):
    page.goto(server.url + "/")
    open_search(page, query)
    page.wait_for_selector(f'#search-results a[href="{expected}"]')
    while page.get_attribute("#search-results [aria-selected=true] a", "href") != expected:
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_url(server.url + expected)


@pytest.mark.parametrize("query", ["chapter 12", "Ch. 12"])
def test_a_chapter_search_lists_that_chapters_entries_only(page, server, bank, query):
    entries, _ = bank
    expected = sorted(e.url for e in entries if str(e.chapter) == "12")
    page.goto(server.url + "/")
    open_search(page, query)
    page.wait_for_selector("#search-results a")
    assert (
        sorted(page.eval_on_selector_all("#search-results a", "links => links.map((a) => a.getAttribute('href'))"))
        == expected
    )
    page.click("#search-close")  # a touch screen has no Esc
    assert not page.evaluate("document.getElementById('search-dialog').open")


def _offline_ready(page):
    page.wait_for_function(
        "() => document.getElementById('offline-status').dataset.state === 'ready'", timeout=PYTHON_READY_MS
    )


def test_after_a_first_visit_an_unopened_entry_loads_and_computes_offline(browser, server):
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    open_entry(page, server, "/35/")
    _offline_ready(page)
    context.set_offline(True)
    fresh = context.new_page()
    open_entry(fresh, server, "/19/")
    fresh.fill("#in-M", "8")
    fresh.wait_for_function("() => document.getElementById('out-bubble').textContent === '7/15'")
    fresh.goto(server.url + "/no-such-page/")  # offline, the site's own page, not the browser's error
    assert fresh.text_content("h1") == "No such page"
    context.close()


def test_the_first_install_waits_until_python_has_loaded(page_with_worker, server):
    """The service worker's first install downloads the whole site, Pyodide included: on an entry
    page it starts once Python has loaded, so as not to compete with Python's own downloads."""
    page = page_with_worker
    page.goto(server.url + "/35/")
    _offline_ready(page)
    marks = page.evaluate(
        "['python-ready', 'offline-install'].map((n) => performance.getEntriesByName(n)[0].startTime)"
    )
    assert marks[1] >= marks[0], marks
    assert page.problems == []


def test_a_new_deploy_is_offered_never_served_silently(browser, tmp_path):
    out = tmp_path / "site"
    with serve_built(ENTRIES, out) as (deploy, files):
        context = browser.new_context(service_workers="allow")
        page = context.new_page()
        open_entry(page, deploy, "/35/")
        _offline_ready(page)
        page.reload()
        _offline_ready(page)
        changed = dict(files)
        page_35 = "35/index.html"
        changed[page_35] = files[page_35].replace(b"<h1>KV cache size</h1>", b"<h1>KV cache size (revised)</h1>")
        from site_builder.ship import offline

        changed["sw.js"] = offline.service_worker({k: v for k, v in changed.items() if k != "sw.js"})
        write_site(changed, out)
        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        page.wait_for_selector("#update-banner:not([hidden])", timeout=PYTHON_READY_MS)
        assert page.text_content("h1") == "KV cache size"
        # The page reloads itself once the new version has taken over: waited as a navigation, since
        # a wait begun on the old page and carried over its reload once never saw the new one.
        with page.expect_navigation(wait_until="load", timeout=PYTHON_READY_MS):
            page.click("#update-reload")
        page.wait_for_function(
            "() => document.querySelector('h1')?.textContent === 'KV cache size (revised)'", timeout=PYTHON_READY_MS
        )
        context.close()


def test_a_page_being_left_writes_no_link(page, server):
    """From a visit's start (Turbo's "turbo:visit", at the reader's click) the page on screen is
    being left: Turbo writes the next page's address as it renders it, and the link an edit left
    pending must not be written over it.  Once a visit has ended the page's link follows again."""
    open_entry(page, server, "/35/")
    page.fill("#in-B", "7")
    page.wait_for_function("() => document.documentElement.dataset.link === 'pending'")
    page.evaluate("() => document.dispatchEvent(new Event('turbo:visit'))")
    # Past the typing pause: the pending link was dropped, not written.
    page.evaluate("() => new Promise((done) => setTimeout(done, 1000))")
    assert page.evaluate("document.documentElement.dataset.link") == "written"
    assert "B=" not in page.evaluate("location.search")
    page.evaluate("() => document.dispatchEvent(new Event('turbo:load'))")
    page.fill("#in-B", "6")
    page.wait_for_function("() => new URLSearchParams(location.search).get('B') === '6'")
    assert page.problems == []


# Counts the messages the page sends its Python worker, by type.
COUNT_WORKER_CALLS = """
window.__calls = [];
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (message, ...rest) {
  if (message && message.type) window.__calls.push(message.type);
  return post.call(this, message, ...rest);
};
"""


def test_one_edit_runs_the_formula_once(page, server):
    """The run's reply carries the results, the link, the citation and the feed links: nothing
    asks Python to run the same inputs again (the scaling table and the charts compute other points)."""
    page.add_init_script(COUNT_WORKER_CALLS)
    open_entry(page, server, "/36/")
    page.wait_for_function("() => document.documentElement.dataset.replies === '1'")
    page.evaluate("window.__calls.length = 0")
    page.fill("#in-N", "7B")
    page.wait_for_function("() => new URLSearchParams(location.search).get('N') === '7B'")
    assert "N = 7B" in page.text_content("#cite-run-text")
    assert "N=7B" in page.get_attribute("#feed-0", "href")
    calls = page.evaluate("window.__calls")
    assert calls.count("run") == 1, calls
    assert page.problems == []


def test_an_edit_under_a_question_solves_once_and_runs_nothing_more(page, server):
    """With a question asked, an edit is answered by one solve: its answer's run is shown as it is."""
    page.add_init_script(COUNT_WORKER_CALLS)
    open_entry(page, server, "/35/?solve=s&total%3C=80GB")
    page.wait_for_function("() => document.documentElement.dataset.solves === '1'")
    page.evaluate("window.__calls.length = 0")
    page.fill("#in-B", "2")
    page.wait_for_function("() => document.documentElement.dataset.solves === '2'")
    page.wait_for_function("() => new URLSearchParams(location.search).get('B') === '2'")
    assert page.input_value("#in-s") == "122,070"
    assert "solved for s where" in page.text_content("#cite-run-text")
    calls = page.evaluate("window.__calls")
    assert calls.count("solve") == 1 and calls.count("run") == 0, calls
    assert page.problems == []
