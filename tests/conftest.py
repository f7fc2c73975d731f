"""Shared fixtures: the loaded bank, one built site per test session, and Chromium (plain helpers
and constants live in tests/support.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from site_builder.build import build, write_site
from tests.support import CHROMIUM_ARGS, ENTRIES, load_bank


@pytest.fixture(scope="session")
def bank():
    return load_bank()


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "_site"
    files, _ = build(ENTRIES)
    write_site(files, out)
    return out


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail("Debian's chromium is needed for the browser tests: apt-get install -y chromium")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def server(site):
    """The built site on 127.0.0.1, with netlify.toml's headers and redirects."""
    from site_builder.serve import SiteServer

    with SiteServer(site) as running:
        yield running


@pytest.fixture
def page(browser, server):
    """A fresh page; ``page.problems`` collects page errors, console errors and requests leaving 127.0.0.1."""
    context = browser.new_context()
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
    yield page
    context.close()
