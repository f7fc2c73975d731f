"""The ``node`` and ``browser`` markers are true, so ``make test-quick`` (``-m "not node and not
browser"``) never needs Node.js or a browser: a test that uses the built site or a browser through
a fixture is marked, and conftest.py refuses, while a test runs, any Node, browser or KaTeX use its
markers do not allow."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from site_builder.tex import math as katex
from tests.support import refused

TESTS = Path(__file__).resolve().parent

# Fixtures that start a program: anything that depends on them needs the marker.
FIXTURE_NEEDS = {"site": "node", "browser": "browser"}


class Collected:
    """A pytest plugin that keeps every collected test's fixtures and markers."""

    def __init__(self):
        self.items = []

    def pytest_collection_finish(self, session):
        self.items = [(i.nodeid, set(i.fixturenames), {m.name for m in i.iter_markers()}) for i in session.items]


@pytest.fixture(scope="module")
def every_test():
    collected = Collected()
    code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", str(TESTS)], plugins=[collected])
    assert code == 0
    return collected.items


def test_every_test_that_uses_the_site_or_a_browser_carries_its_marker(every_test):
    assert len(every_test) > 1000
    unmarked = [
        f"{nodeid} uses the fixture {fixture!r} but is not marked {mark!r}"
        for nodeid, fixtures, marks in every_test
        for fixture, mark in FIXTURE_NEEDS.items()
        if fixture in fixtures and mark not in marks
    ]
    assert unmarked == []


def test_the_quick_run_keeps_most_of_the_cpython_tests(every_test):
    quick = [nodeid for nodeid, _, marks in every_test if not marks & {"node", "browser"}]
    assert len(quick) > 1000  # the markers are not a way to skip the tests that run on CPython
    for module in (
        "runtime/test_runtime.py",
        "runtime/test_solve.py",
        "check/test_corpus.py",
        "runtime/test_properties.py",
        "check/test_units.py",
    ):
        assert any(n.startswith(f"tests/{module}::") for n in quick), module


def test_which_programs_each_marker_allows():
    assert refused("/usr/bin/node", set()) == "node"
    assert refused("node", {"browser"}) == "node"
    assert refused("/usr/bin/node", {"node"}) is None
    assert refused("/usr/bin/chromium", {"node"}) == "browser"
    assert refused("/usr/bin/xvfb-run", {"browser"}) is None
    assert refused("/srv/venv/lib/python3.11/site-packages/playwright/driver/node", set()) is None
    assert refused("/usr/bin/git", set()) is None


def test_an_unmarked_test_may_not_start_node():
    with pytest.raises(RuntimeError, match="is not marked 'node'"):
        subprocess.run(["node", "--version"], capture_output=True)


def test_an_unmarked_test_may_not_start_a_browser():
    with pytest.raises(RuntimeError, match="is not marked 'browser'"):
        subprocess.run(["chromium", "--version"], capture_output=True)


def test_an_unmarked_test_may_not_typeset_even_from_the_cache():
    with pytest.raises(RuntimeError, match="typesets TeX with KaTeX but is not marked 'node'"):
        katex.typeset([("x", False)])


def test_other_programs_start_as_usual():
    assert subprocess.run(["true"]).returncode == 0
