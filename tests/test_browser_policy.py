"""The production policy holds in the browser: the local server sends netlify.toml's headers, and
no page, worker or interaction breaches its Content-Security-Policy."""

from __future__ import annotations

import pytest

from tests.browsing import open_entry

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
# tests/test_engines.py reads WebKit's console for the rest.
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


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/35/",
        "/19/",
        "/46/",
        "/toolkit/softmax/",
        "/chapters/",
        "/toolkit/",
        "/synthesis/",
        "/about/",
        "/35/?embed=1",
        "/kv-cache-size/",
        "/no-such-page/",
    ],
)
def test_no_csp_violation_anywhere(browser, server, path):
    context = browser.new_context()
    page = context.new_page()
    refused = []
    page.on(
        "console",
        lambda m: refused.append(m.text) if "Content Security Policy" in m.text or "Refused" in m.text else None,
    )
    page.goto(server.url + path)
    if page.locator("#entry-spec").count():
        open_entry(page, server, path)
        first = page.locator("#inputs input").first
        first.fill(first.input_value())
        page.wait_for_timeout(400)  # charts, scaling and citation follow
        if page.is_visible("#practice-toggle"):
            page.click("#practice-toggle")
    page.keyboard.press("/")
    page.keyboard.type("kappa")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__cspViolations") == []
    assert refused == []
    context.close()
