"""The production policy holds in the browser: the local server sends netlify.toml's headers, and
no page, worker or interaction breaches its Content-Security-Policy."""

from __future__ import annotations

import pytest

from tests.browsing import PYTHON_READY_MS, SEARCH_ANSWERED, follow, open_search

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the built site is typeset by KaTeX in Node


def test_pages_are_served_with_the_production_headers(server):
    import urllib.request

    with urllib.request.urlopen(server.url + "/35/") as response:
        csp = response.headers["Content-Security-Policy"]
        assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
        assert "'wasm-unsafe-eval'" in csp and "frame-ancestors *" in csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"]
        assert "X-Frame-Options" not in response.headers  # the embed card may be framed
        assert "Cross-Origin-Embedder-Policy" not in response.headers


# Directives that Chromium, Firefox and WebKit all implement: one that an engine does not know is
# reported on every page (WebKit: "Unrecognized Content-Security-Policy directive 'manifest-src'").
# tests/pyodide_app/test_engines.py reads WebKit's console for the rest.
KNOWN_TO_EVERY_ENGINE = {
    "default-src",
    "script-src",
    "style-src",
    "img-src",
    "font-src",
    "connect-src",
    "media-src",
    "worker-src",
    "child-src",
    "frame-src",
    "object-src",
    "base-uri",
    "form-action",
    "frame-ancestors",
    "upgrade-insecure-requests",
}


def test_the_policy_uses_only_directives_every_engine_knows(server):
    import urllib.request

    with urllib.request.urlopen(server.url + "/35/") as response:
        directives = [
            part.split()[0] for part in response.headers["Content-Security-Policy"].split(";") if part.strip()
        ]
    assert set(directives) <= KNOWN_TO_EVERY_ENGINE, set(directives) - KNOWN_TO_EVERY_ENGINE
    assert directives[0] == "default-src"  # what the policy leaves out falls back to it


# Pages of every kind, each loaded in full (the policy is the document's); the entries after the
# first are followed as the site's links are, so their bodies, charts and workers run under it too.
CSP_PAGES = [
    "/",
    "/chapters/",
    "/toolkit/",
    "/synthesis/",
    "/about/",
    "/kv-cache-size/",
    "/no-such-page/",
    "/35/?embed=1",
    "/35/",
]
CSP_FOLLOWED = ["/19/", "/46/", "/toolkit/softmax/"]


def test_no_csp_violation_anywhere(page, server):
    refused = []
    page.on(
        "console",
        lambda m: (
            refused.append(f"{page.url}: {m.text}")
            if "Content Security Policy" in m.text or "Refused" in m.text
            else None
        ),
    )
    seen = []
    for n, path in enumerate(CSP_PAGES + CSP_FOLLOWED):
        if path in CSP_FOLLOWED:
            follow(page, server, path)
        else:
            page.goto(server.url + path)
        if page.locator("#entry-spec").count():
            page.wait_for_function("() => document.documentElement.dataset.replies", timeout=PYTHON_READY_MS)
            before = int(page.evaluate("() => document.documentElement.dataset.replies"))
            first = page.locator("#inputs input").first
            first.fill(first.input_value() + " ")  # a recompute, its charts, scaling and citation
            page.wait_for_function(
                f"() => Number(document.documentElement.dataset.replies) > {before}"
                " && document.documentElement.dataset.asking === '0'",
                timeout=PYTHON_READY_MS,
            )
            if page.is_visible("#practice-toggle"):
                page.click("#practice-toggle")
                page.click("#practice-reveal")
        if not page.evaluate("() => document.documentElement.classList.contains('embed')"):
            query = f"kappa{n}"  # the search dialog, its index and library
            open_search(page, query)
            page.wait_for_function(SEARCH_ANSWERED, arg=query)
            page.keyboard.press("Escape")
        seen += [f"{path}: {v}" for v in page.evaluate("window.__cspViolations")]
    assert seen == []
    assert refused == []
