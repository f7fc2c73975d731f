"""Steps the browser tests share (Playwright pages against a served site), each written once."""

from __future__ import annotations

import contextlib
import http.server
import re
import threading
from pathlib import Path

from site_builder.build import build, write_site
from site_builder.serve.host import SiteServer
from tests.support import ROOT

PYTHON_READY_MS = 120_000  # a ceiling for a loaded CI machine, not a speed target (the benchmark measures that)
# A plan page's own signal that its Python has computed it.
PLAN_COMPUTED = (
    "() => document.querySelector('article.plan') && document.querySelector('article.plan').dataset.planState"
)
# The search list answers query ``q`` (typing outruns the search: an earlier query's list comes first).
SEARCH_ANSWERED = "(q) => document.getElementById('search-results').dataset.query === q"

# The link's typing pause, as its one owner (link.js's TYPING_PAUSE_MS) says: entry and plan pages both wait it.
TYPING_PAUSE_MS = int(
    re.search(r"export const TYPING_PAUSE_MS = (\d+);", (ROOT / "pyodide_app" / "link.js").read_text())[1]
)
# Takes that pause out of a page: its timer never fires, so only something else (a field's change,
# a menu) can write the link.
WITHOUT_TYPING_PAUSE = (
    "() => { const later = window.setTimeout;"
    f" window.setTimeout = (f, ms, ...rest) => ms === {TYPING_PAUSE_MS} ? 0 : later(f, ms, ...rest); }}"
)

# A bank whose one formula can be made to never return, for the watchdog.
SLOW_ENTRIES = Path(__file__).parent / "slow_entries"

# Values a hostile link may carry: each must stay inert text.
PAYLOADS = [
    "<script>window.__pwned=1</script>",
    '"><img src=x onerror="window.__pwned=1">',
    "javascript:window.__pwned=1",
    "<svg onload=window.__pwned=1>",
    "';window.__pwned=1;'",
    "%3Cscript%3Ewindow.__pwned=1%3C/script%3E",
]

# What a payload would have become in a page's main: an image (the one a page has is the build's
# QR code, qr.svg), a handler or a script.
INJECTED = "main img:not(figure.qr > img), main svg[onload], main script:not(#entry-spec)"


def open_entry(page, server, path):
    page.goto(server.url + path)
    page.wait_for_function("() => document.documentElement.dataset.python", timeout=PYTHON_READY_MS)
    assert page.evaluate("document.documentElement.dataset.python") == "ready", page.text_content("#py-status")


def follow(page, server, path):
    """Open ``path`` as a reader's link does once a page of the site is open: Turbo Drive fetches
    it and the running Python loads its formula (a full load the first time).  For tests that
    visit many pages, where booting Python on each would be most of the time."""
    if not page.url.startswith(server.url) or not page.evaluate("Boolean(window.Turbo)"):
        return open_entry(page, server, path)
    page.evaluate("(p) => { window.__leftBody = document.body; Turbo.visit(p); }", path)
    page.wait_for_function(  # Turbo renders the new page into a new body; its Python then says ready
        "(p) => document.body !== window.__leftBody && location.pathname === new URL(p, location.href).pathname"
        " && document.documentElement.dataset.python",
        arg=path,
        timeout=PYTHON_READY_MS,
    )
    assert page.evaluate("document.documentElement.dataset.python") == "ready", page.text_content("#py-status")


@contextlib.contextmanager
def held_back(page, pattern: str):
    """The responses to requests for ``pattern`` held back until the block ends, as a module that
    arrives late (a slow link): the block acts on the page before its code is there."""
    routes = []
    page.route(pattern, lambda route: routes.append(route))
    try:
        yield routes
    finally:
        for route in routes:
            route.continue_()
        page.unroute(pattern)


def open_hostile(page, server, path) -> str:
    """Open a link carrying hostile values, any dialog counted as a problem; the notice it shows.
    On a page of the site already open the link is followed (``follow``), as a reader's click is."""
    if not getattr(page, "counts_dialogs", False):
        page.on("dialog", lambda d: (page.problems.append("dialog opened"), d.dismiss()))
        page.counts_dialogs = True
    follow(page, server, path)
    page.wait_for_selector("#notice:not([hidden])")
    return page.text_content("#notice")


def assert_nothing_injected(page, text_only: str = "#notice *:not(p)"):
    """No payload ran or became markup: ``text_only`` matches no element, and the page gained no
    image, handler or script."""
    assert page.evaluate("window.__pwned") is None
    assert page.locator(text_only).count() == 0
    assert page.locator(INJECTED).count() == 0
    assert page.locator("[onerror], [onload], [onclick]").count() == 0


AXE = Path(__file__).parent.parent / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, one line per node.
    axe goes in through the test's own channel (page.evaluate of its script text), never by
    loosening the site's Content-Security-Policy; it stays in the window across Turbo visits."""
    if not AXE.exists():
        raise AssertionError("axe-core is a devDependency: run `npm ci`")
    if not page.evaluate("() => Boolean(window.axe)"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    return page.evaluate(
        """async () => {
          const result = await axe.run(document, { resultTypes: ["violations"] });
          return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").flatMap((v) =>
            v.nodes.map((n) => `${location.pathname}: ${v.id} (${v.impact}) at ${n.target.join(" ")}: ${v.help}`));
        }"""
    )


def open_search(page, query: str):
    """Open the search dialog from the keyboard, as a reader does, and type ``query``.  "/" opens
    it only from outside a text field: after the dialog was closed, its field keeps the focus
    until the browser next updates the rendering, so the key waits for the focus to leave it."""
    page.wait_for_function(
        "() => { const d = document.getElementById('search-dialog'); const at = document.activeElement || document.body;"
        " return !d.open && !at.closest('input, textarea, select, [contenteditable]'); }"
    )
    page.keyboard.press("/")
    page.wait_for_selector("#search-dialog[open]")
    page.keyboard.type(query)


@contextlib.contextmanager
def serve_built(entries: Path, out: Path):
    """The site built from ``entries`` into ``out``, served on 127.0.0.1; yields (server, files)."""
    files, _ = build(entries)
    write_site(files, out)
    with SiteServer(out) as running:
        yield running, files


@contextlib.contextmanager
def serve_page(html: str):
    """One page on another origin of 127.0.0.1 (a slide deck embedding a card); yields its URL."""
    body = html.encode()

    class OnePage(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    host = http.server.ThreadingHTTPServer(("127.0.0.1", 0), OnePage)
    threading.Thread(target=host.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{host.server_address[1]}/"
    finally:
        host.shutdown()
        host.server_close()
