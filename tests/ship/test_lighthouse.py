"""Lighthouse (npm, pinned in package.json) against Debian's chromium: accessibility, best
practices and SEO stay at 100 on /, /35/ and /46/ on a phone, and on /35/ on a desktop."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from tests.support import CHROMIUM_ARGS, ROOT

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ["accessibility", "best-practices", "seo"]


def audit(url: str, form: str, out) -> dict:
    chromium = shutil.which("chromium")
    if chromium is None or not LIGHTHOUSE.exists():
        pytest.fail("Lighthouse needs Debian's chromium and `npm ci` (lighthouse is a devDependency)")
    args = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={' '.join(CHROMIUM_ARGS)}",
    ]
    if form == "desktop":
        args.append("--preset=desktop")
    subprocess.run(args, check=True, timeout=300, env={**os.environ, "CHROME_PATH": chromium})
    return json.loads(out.read_text(encoding="utf-8"))


# Every page on a phone, where the audits are strictest (tap targets, the viewport, font sizes);
# the desktop's layout once, on the page with the most on it.  Each audit is about 15 s.
AUDITS = [("/", "mobile"), ("/35/", "mobile"), ("/46/", "mobile"), ("/35/", "desktop")]


@pytest.mark.parametrize("path, form", AUDITS, ids=[f"{path}-{form}" for path, form in AUDITS])
def test_lighthouse_scores_stay_at_100(server, tmp_path, path, form):
    report = audit(server.url + path, form, tmp_path / "report.json")
    scores = {name: report["categories"][name]["score"] for name in CATEGORIES}
    failing = [
        (name, ref["id"], report["audits"][ref["id"]]["title"])
        for name in CATEGORIES
        for ref in report["categories"][name]["auditRefs"]
        if ref["weight"]
        and (report["audits"][ref["id"]]["score"] or 0) < 1
        and report["audits"][ref["id"]]["scoreDisplayMode"] == "binary"
    ]
    assert scores == dict.fromkeys(CATEGORIES, 1), (path, form, scores, failing)
