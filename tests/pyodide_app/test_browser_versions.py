"""Versions in real Chromium: a link to an older version shows what changed and both sets of results,
computed by each version's own formula on the same runtime."""

from __future__ import annotations

import pytest

from tests.browsing import PAYLOADS, assert_nothing_injected, open_entry, open_hostile, serve_built
from tests.support import TESTS

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node

# One entry at version 2: version 1 counted 8 N D and had no passes input (tests/versioned_entries).
VERSIONED = TESTS / "versioned_entries"


@pytest.fixture(scope="module")
def versioned_server(tmp_path_factory):
    with serve_built(VERSIONED, tmp_path_factory.mktemp("versioned") / "site") as (running, _):
        yield running


@pytest.fixture
def vpage(browser):
    context = browser.new_context()
    page = context.new_page()
    page.problems = []
    page.on("console", lambda m: page.problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    yield page
    context.close()


def compared(page, count: int = 1):
    page.wait_for_function(
        f"() => Number(document.getElementById('version-notice').dataset.compared || 0) >= {count}", timeout=60_000
    )
    rows = page.eval_on_selector_all(
        "#version-compare tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    return {label: (old, new) for label, old, new in rows}


def test_an_older_versions_link_shows_what_changed_and_both_results(vpage, versioned_server):
    open_entry(vpage, versioned_server, "/1/?N=3&D=5&version=1")
    notice = vpage.text_content("#version-notice")
    assert "This link names version 1 of the entry" in notice
    assert "Version 2 (2026-06-01, release 2): The factor is 6, not 8" in notice
    assert "Why: A forward and a backward pass cost 6 FLOPs" in notice
    # 8 N D under version 1, 6 N D p under version 2, for the link's N = 3 and D = 5.
    assert compared(vpage) == {"Training cost": ("120\u00a0FLOP", "90\u00a0FLOP")}
    assert "Version 1 had no passes." in vpage.text_content("#version-notice")
    # The comparison follows the inputs; the address bar names the version that computes now.
    vpage.fill("#in-N", "10")
    vpage.wait_for_function("() => document.querySelector('#version-compare td.old').textContent === '400\u00a0FLOP'")
    assert compared(vpage)["Training cost"] == ("400\u00a0FLOP", "300\u00a0FLOP")
    vpage.wait_for_function("() => new URLSearchParams(location.search).get('version') === '2'")
    assert "version 2" in vpage.text_content("#cite-run-text")
    assert vpage.problems == []


def test_the_current_versions_link_shows_no_notice(vpage, versioned_server):
    open_entry(vpage, versioned_server, "/1/?version=2")
    assert vpage.is_hidden("#version-notice") and vpage.is_hidden("#notice")


@pytest.mark.parametrize("asked", ["3", "0", "1.5", "-1", *PAYLOADS[:3]])
def test_a_version_the_entry_never_had_is_ignored_with_a_notice(vpage, versioned_server, asked):
    from urllib.parse import quote

    vpage.problems = []
    notice = open_hostile(vpage, versioned_server, f"/1/?version={quote(asked)}")
    assert "Ignored the link's version" in notice and "this entry has versions 1 to 2" in notice
    assert vpage.is_hidden("#version-notice")
    assert_nothing_injected(vpage)
