"""Accessibility in real Chromium: axe-core (npm, pinned in package.json) finds nothing serious or
critical in the states a page reaches by use (every page as built is audited in
tests/ship/test_integrity.py), and the accessibility tree holds what a screen reader would say:
practice mode's covered results and formulas are not in it, and a recompute is one labelled
summary in the results' one live region."""

from __future__ import annotations

import pytest

from tests.browsing import PLAN_COMPUTED, PYTHON_READY_MS, axe_violations, follow, open_entry

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node


def test_axe_finds_nothing_serious_in_the_states_a_page_reaches_by_use(page_with_worker, server):
    """Every page as built, and every shape of entry with its first results, is audited in
    tests/ship/test_integrity.py; here the states a reader reaches: practice mode covering a list's
    values (/14/), and revealed again; a chart drawn once scrolled into view (/1/)."""
    page = page_with_worker  # axe sees the offline status as a reader does
    open_entry(page, server, "/14/")
    page.click("#practice-toggle")
    page.wait_for_selector("#practice-toggle[aria-pressed=true]")  # its code loads on the first press
    found = axe_violations(page)
    assert page.eval_on_selector("#outputs .list td", "e => getComputedStyle(e).color") == "rgba(0, 0, 0, 0)"
    page.click("#practice-reveal")
    found += axe_violations(page)
    follow(page, server, "/1/")
    page.locator("#plot-0").scroll_into_view_if_needed()
    page.wait_for_selector("#plot-0 canvas")
    found += axe_violations(page)
    assert found == []
    assert page.problems == []


def tree_text(page, selector: str) -> str:
    """What the accessibility tree holds under ``selector``, as Playwright's aria snapshot (which
    writes a no-break space as a space)."""
    return page.locator(selector).aria_snapshot()


def text(page, selector: str) -> str:
    """An element's text as the aria snapshot writes it."""
    return page.text_content(selector).replace("\u00a0", " ")


def test_practice_mode_takes_covered_results_out_of_the_accessibility_tree(page, server):
    open_entry(page, server, "/35/")
    total, per_token = text(page, "#out-total"), text(page, "#out-per_token")
    assert total in tree_text(page, "#outputs") and "math" in tree_text(page, "#statement")
    page.click("#practice-toggle")
    page.wait_for_selector("#practice-toggle[aria-pressed=true]")  # its code loads on the first press
    results = tree_text(page, "#outputs")
    assert total not in results and per_token not in results
    assert "KV cache size" in results and "covered" in results  # the label stays; its value is said covered
    assert total not in tree_text(page, "#headline-bar")
    statement = tree_text(page, "#statement")
    assert "math" not in statement and "(formula covered)" in statement
    assert page.eval_on_selector("#out-total", "e => getComputedStyle(e).color") == "rgba(0, 0, 0, 0)"

    page.fill("#in-s", "4096")  # a recompute in practice says that it happened, not its values
    page.wait_for_function("() => document.getElementById('results-said').dataset.said === '1'")
    assert page.text_content("#results-said") == "Results recomputed, covered for practice."
    assert text(page, "#out-total") not in tree_text(page, "#calculator")

    page.click("#practice-reveal")
    revealed = tree_text(page, "#outputs")
    assert text(page, "#out-total") in revealed and "covered" not in revealed
    assert "math" in tree_text(page, "#statement") and "covered" not in tree_text(page, "#statement")
    assert page.problems == []


def announced_regions(page) -> list[str]:
    """The ids of elements under #calculator that Chromium treats as live regions, from its full
    accessibility tree (CDP Accessibility.getFullAXTree): each would be announced on its own."""
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("Accessibility.enable")
    nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    live = []
    for node in nodes:
        props = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
        if props.get("live") in ("polite", "assertive") and "backendDOMNodeId" in node:
            described = session.send("DOM.describeNode", {"backendNodeId": node["backendDOMNodeId"]})["node"]
            attributes = described.get("attributes", [])
            ids = dict(zip(attributes[::2], attributes[1::2], strict=True))
            live.append(ids.get("id", described["nodeName"]))
    session.detach()
    return live


def test_a_recompute_is_one_labelled_summary_in_one_live_region(page, server):
    open_entry(page, server, "/35/")
    assert page.text_content("#results-said") == ""  # the page's first computation is not said over its reading
    calculator_live = page.evaluate(
        """() => [...document.querySelectorAll('#calculator *')].filter((e) =>
          (e.getAttribute('aria-live') || '') !== 'off' && (e.matches('[aria-live], [role=status], [role=alert], output')))
          .map((e) => e.id)"""
    )
    assert [i for i in calculator_live if not i.startswith("err-")] == ["notice", "solve-err", "results-said"]

    page.fill("#in-s", "16384")
    page.wait_for_function("() => document.getElementById('results-said').dataset.said === '1'")
    said = page.text_content("#results-said")
    labels = page.eval_on_selector_all(
        "#outputs dl > .result:not([hidden]) dt .label", "ls => ls.map((l) => l.textContent.trim())"
    )
    values = page.eval_on_selector_all(
        "#outputs dl > .result:not([hidden]) dd output", "os => os.map((o) => o.textContent.trim())"
    )
    assert labels[0] == "KV cache size"  # the headline first
    assert said == "; ".join(f"{label} {value}" for label, value in zip(labels, values, strict=True))
    assert said.startswith("KV cache size " + page.text_content("#out-total") + "; ")
    assert page.locator("#results-said").aria_snapshot() == f"- status: {said}".replace("\u00a0", " ")
    announced = announced_regions(page)
    inside = set(page.eval_on_selector_all("#outputs [id]", "es => es.map((e) => e.id)"))
    assert [region for region in announced if region in inside] == ["results-said"]
    assert "OUTPUT" not in announced  # no value (the headline bar's included) is a region of its own
    assert page.problems == []


def test_a_plan_recompute_is_one_labelled_summary_too(page, server):
    page.goto(server.url + "/plans/train/")
    page.wait_for_function(PLAN_COMPUTED, timeout=PYTHON_READY_MS)
    assert page.text_content("#results-said") == ""
    page.fill("#in-L", "40")
    page.wait_for_function("() => document.getElementById('results-said').dataset.said === '1'")
    rows = page.eval_on_selector_all(
        "#plan-results dl > .result",
        "rs => rs.map((r) => `${r.querySelector('dt .label').textContent.trim()} ${r.querySelector('dd output').textContent.trim()}`)",
    )
    assert page.text_content("#results-said") == "; ".join(rows)
    announced = announced_regions(page)
    assert "results-said" in announced and not any(region.startswith("out-") for region in announced)
    assert page.problems == []
