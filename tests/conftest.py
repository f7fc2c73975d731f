"""Shared fixtures: the loaded bank, its model presets, a small bank, one built site per test session, and
Chromium; and the guard that keeps the ``node`` and ``browser`` markers honest (plain helpers live in
tests/support.py)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from site_builder import bank as pipeline
from site_builder.build import build, write_site
from site_builder.errors import Problems
from site_builder.load.presets import load_presets
from site_builder.tex import math as katex
from tests.browsing import SLOW_ENTRIES, serve_built
from tests.support import CHROMIUM_ARGS, ENTRIES, SMALL_BANK, SMALL_BANK_WITH_PLAN, load_bank, refused, small_bank


@contextlib.contextmanager
def marked_programs_only(item):
    """While ``item`` sets up and runs: starting Node or a browser, or typesetting with KaTeX
    (whose cache could otherwise hide a Node run), fails unless the test carries the marker."""
    marks = {m.name for m in item.iter_markers()}
    launch, version = subprocess.Popen._execute_child, katex.katex_version

    def guarded_launch(self, args, executable, *rest, **kwargs):
        program = str(executable or (args if isinstance(args, (str, bytes)) else args[0]))
        mark = refused(program, marks)
        if mark:
            raise RuntimeError(f"{item.nodeid} starts {program} but is not marked {mark!r}: add pytest.mark.{mark}")
        return launch(self, args, executable, *rest, **kwargs)

    def guarded_version():
        if "node" not in marks:
            raise RuntimeError(f"{item.nodeid} typesets TeX with KaTeX but is not marked 'node': add pytest.mark.node")
        return version()

    subprocess.Popen._execute_child, katex.katex_version = guarded_launch, guarded_version
    try:
        yield
    finally:
        subprocess.Popen._execute_child, katex.katex_version = launch, version


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    with marked_programs_only(item):
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    with marked_programs_only(item):
        yield


# What a failed browser test's page said of itself: its Python's state, the watchdog's restarts,
# the status line, its notices, and each open box that loads on demand (its data-state and status).
# A failure on a loaded CI machine is then read from the log, not guessed at.
PAGE_STATE = """() => {
  const d = document.documentElement.dataset, status = document.getElementById("py-status");
  const notice = document.getElementById("notice");
  const boxes = [...document.querySelectorAll("details[id]")].filter((b) => b.open || b.dataset.state).map((b) =>
    `${b.id}: open=${b.open} state=${b.dataset.state || "-"} ${(b.querySelector("[role=status]")?.textContent || "").trim()}`);
  return `${location.href}\npython=${d.python} watchdog=${d.watchdog || 0} worker=${d.worker} stdlib=${d.stdlib}`
    + ` solves=${d.solves || 0} link=${d.link}\nstatus: ${status ? status.textContent.trim() : "(none)"}`
    + `\nnotices: ${notice && !notice.hidden ? notice.textContent.trim() : "(none)"}`
    + `\nboxes: ${boxes.join("; ") || "(none open)"}`;
}"""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    page = item.funcargs.get("page") if hasattr(item, "funcargs") else None
    if report.when == "call" and report.failed and page is not None and hasattr(page, "evaluate"):
        try:
            said = page.evaluate(PAGE_STATE)
            problems = getattr(page, "problems", None)
            report.sections.append(("the page, as the test failed", f"{said}\nproblems: {problems or '(none)'}"))
        except Exception as err:  # a closed or crashed page: say so, the failure itself stands
            report.sections.append(("the page, as the test failed", f"unreadable: {err}"))


@pytest.fixture
def without_typesetting(monkeypatch):
    """``site_builder check`` as it runs, but with every step except typesetting (``bank.CHECKS``):
    a mistake outside the TeX is reported with no KaTeX run, so the quick suite holds it."""
    monkeypatch.setattr(pipeline, "STEPS", pipeline.CHECKS)


@pytest.fixture(scope="session")
def bank():
    return load_bank()


@pytest.fixture(scope="session")
def model_presets():
    """The model presets as the loader reads them (id -> Preset), with no problem reported."""
    problems = Problems()
    found = load_presets(ENTRIES, problems)
    assert not problems, problems.report()
    return found["model"]


def _small(tmp_path_factory, keys: tuple[str, ...], plans: tuple[str, ...]) -> Path:
    folder = small_bank(tmp_path_factory.mktemp("small") / "entries", keys, plans)
    problems = Problems()
    # The build's checks; the tests that build it typeset it too.
    pipeline.gather(folder, problems, steps=pipeline.CHECKS)
    assert not problems, problems.report()
    return folder


@pytest.fixture(scope="session")
def small_entries(tmp_path_factory) -> Path:
    """Entries 35 and 36 and the files a bank needs (support.small_bank), checked once: for what
    serve does whatever the bank's size.  A test that edits it copies it first."""
    return _small(tmp_path_factory, *SMALL_BANK)


@pytest.fixture(scope="session")
def small_entries_with_plan(tmp_path_factory) -> Path:
    """``small_entries`` with a toolkit entry, a plan and the entries it takes (support.SMALL_BANK_WITH_PLAN)."""
    return _small(tmp_path_factory, *SMALL_BANK_WITH_PLAN)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The bank built once for the whole run: under pytest-xdist the first worker to ask builds it
    in the run's shared temporary folder and the others wait on a lock, so that two cores do not
    both build it.  Tests read it; one that needs a changed site copies it first."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # every worker's base folder sits in the run's
    out = root / "site" / "_site"
    with open(root / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / "site" / "built").exists():
            files, _ = build(ENTRIES)
            write_site(files, out)
            (root / "site" / "built").touch()
    return out


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail("Debian's chromium is needed for the browser tests: apt-get install -y chromium")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        _generous(b)
        yield b
        b.close()


# Every wait is on the page's own signal; its limit must hold on a machine 2.5 times slower and
# loaded (Playwright's default is 30 s).  A context or page however made gets this one.
WAIT_LIMIT_MS = 120_000


# The service worker's first install downloads the whole site into Cache Storage once Python is
# ready: two seconds of a core for every fresh context, behind a test that is about something
# else.  So a context made here is a browser without service workers (the page then makes no
# offline copy, as in a browser that has none) unless its test asks for them with
# ``service_workers="allow"``, as the tests of offline use, updates and navigation under the worker do.
WITHOUT_SERVICE_WORKERS = "delete Navigator.prototype.serviceWorker;"


def _generous(b):
    new_context, new_page = b.new_context, b.new_page

    def made(thing, kwargs):
        thing.set_default_timeout(WAIT_LIMIT_MS)
        if kwargs.get("service_workers", "block") == "block":
            thing.add_init_script(WITHOUT_SERVICE_WORKERS)
        return thing

    def context(*args, **kwargs):
        return made(new_context(*args, **kwargs), kwargs)

    def page(*args, **kwargs):
        return made(new_page(*args, **kwargs), kwargs)

    b.new_context, b.new_page = context, page


@pytest.fixture(scope="session")
def server(site):
    """The built site on 127.0.0.1, with netlify.toml's headers and redirects."""
    from site_builder.serve.host import SiteServer

    with SiteServer(site) as running:
        yield running


def _watched(browser, server, **options):
    """A fresh page; ``page.problems`` collects page errors, console errors and requests leaving 127.0.0.1."""
    context = browser.new_context(**options)
    page = context.new_page()
    page.problems = []
    page.on(
        "console",
        lambda m: page.problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None,
    )
    page.on("pageerror", lambda e: page.problems.append(f"page error: {e}"))
    page.on(
        "request",
        lambda r: None if r.url.startswith(server.url + "/") else page.problems.append(f"left 127.0.0.1: {r.url}"),
    )
    return page


@pytest.fixture
def page(browser, server):
    """A fresh page in a browser without service workers (``_generous``)."""
    page = _watched(browser, server)
    yield page
    page.context.close()


@pytest.fixture
def page_with_worker(browser, server):
    """A fresh page whose site installs its service worker, as a reader's first visit does."""
    page = _watched(browser, server, service_workers="allow")
    yield page
    page.context.close()


@pytest.fixture(scope="session")
def slow_server(tmp_path_factory):
    """The slow bank (tests/slow_entries): one formula that can be made to hang, built and served once."""
    with serve_built(SLOW_ENTRIES, tmp_path_factory.mktemp("slow") / "site") as (running, _):
        yield running
