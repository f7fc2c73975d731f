"""What the test modules share that is not a fixture: the project's folders, Chromium's flags, the
programs the ``node`` and ``browser`` markers stand for, and the bank, loaded and checked once per
session however many modules parametrize over it."""

from __future__ import annotations

import functools
from pathlib import Path

from site_builder import bank
from site_builder.errors import Problems

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = ROOT / "entries"

# The flags Chromium needs on a machine with no network but loopback.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # A test's second tab puts its first in the background, where Chromium runs timers once a
    # second: every wait on the page would poll at 1 Hz.
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]

# What each marker stands for: the programs a test so marked may start (conftest.py refuses the
# others).  Playwright's own driver, a Node binary inside its Python package, is part of the
# Python install, not of Node.js.
NEEDS = {
    "node": {"node"},
    "browser": {"chromium", "firefox-esr", "firefox", "WebKitWebDriver", "MiniBrowser", "xvfb-run", "lighthouse"},
}
PLAYWRIGHT_DRIVER = "/playwright/driver/"


def refused(program: str, marks: set[str]) -> str | None:
    """The marker a test carrying ``marks`` lacks to start ``program``, or None when it may."""
    if PLAYWRIGHT_DRIVER in program.replace("\\", "/"):
        return None
    name = Path(program).name
    return next((mark for mark, programs in NEEDS.items() if name in programs and mark not in marks), None)


@functools.cache
def load_bank():
    """(entries, calculators) of entries/, checked: computed once, shared by every module and fixture.

    The result is shared, so a test must not change it; a test that needs to edit an entry loads its own."""
    problems = Problems()
    checked = bank.gather(ENTRIES, problems, steps=bank.CHECKS)  # the build's checks, no KaTeX run
    assert not problems, problems.report()
    return checked.entries, checked.calculators
