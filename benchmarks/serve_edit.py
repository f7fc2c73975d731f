"""The authoring loop: from saving an entry to the page carrying the edit, ours (`serve`) against
`mkdocs serve` on a MkDocs project of the same statements (site_build.mkdocs_project), both
running at once and edited in turn, the same statement each time.

Save-to-rebuilt is measured at the HTTP boundary: after the save, the served page is fetched
again and again until it carries the edit.  Save-to-reloaded is ours in Chromium: from the save
to the load event of the page the reload script reloaded.  The bank is a copy: entries/ is
never touched.
"""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.common import CHROMIUM_ARGS, READY_MS, ROOT, percentiles
from benchmarks.site_build import mkdocs_project
from site_builder.errors import Problems
from site_builder.load.load import load_all

STATEMENT = "derived from what is stored and per what."  # in entries/35-*.yaml's statement
POLL_S = 0.005  # often enough to see the edit to 5 ms, rarely enough not to be the server's load
SETTLE_S = 0.3  # after a server says it has finished rebuilding, before the next edit
# A rebuild finished, in each server's log (MkDocs drops a message equal to the one before, such as
# "Documentation built in 0.42 seconds" twice; its reload notice carries the time of day).
DONE = {"ours": "rebuilt ", "mkdocs": "Reloading browsers"}


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(
    command: list[str], cwd: Path, ready: str, port: int, env: dict | None = None, wait: float = 120
) -> subprocess.Popen:
    """A server process, once it answers on ``port`` within ``wait`` seconds (its output is read,
    so its pipe never fills)."""
    log = open(cwd / f"server-{port}.log", "w")
    proc = subprocess.Popen(
        command,
        cwd=cwd,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{command[2:4]} stopped: {(cwd / f'server-{port}.log').read_text()[-2000:]}")
        try:
            if _fetch(port, ready) is not None:
                return proc
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{command} did not serve {ready} in {wait:.0f} s")


def _path() -> str:
    return os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])


def _fetch(port: int, path: str) -> bytes | None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers={"Cache-Control": "no-cache"})
        response = connection.getresponse()
        body = response.read()
        return body if response.status == 200 else None
    finally:
        connection.close()


def _until(port: int, path: str, marker: bytes, timeout: float = 30) -> float:
    """Fetch ``path`` until it carries ``marker``; the time.perf_counter() when it first did."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        body = _fetch(port, path)
        if body is not None and marker in body:
            return time.perf_counter()
        time.sleep(POLL_S)
    raise TimeoutError(f"127.0.0.1:{port}{path} did not carry {marker!r} within {timeout} s")


def _done(log: Path, needle: str) -> int:
    return log.read_text(errors="replace").count(needle)


def _finished(log: Path, needle: str, before: int, timeout: float = 30) -> None:
    """Wait until ``log`` says once more than ``before`` that a rebuild finished, the whole site
    written (ours writes the edited page first, MkDocs as it goes), so the next edit meets an idle
    machine; after ``timeout``, go on."""
    deadline = time.monotonic() + timeout
    while _done(log, needle) <= before and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(SETTLE_S)


def _save(path: Path, text: str) -> float:
    start = time.perf_counter()
    path.write_text(text, encoding="utf-8")
    return start


PAINT_JS = """() => new Promise((resolve) => {
  const at = () => {
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    if (!paint) return setTimeout(at, 10);
    resolve([performance.timeOrigin, performance.timeOrigin + paint.startTime,
             performance.timing.loadEventStart]);
  };
  at();
})"""


def _edit(port: int, path: Path, text: str, marker: str, log: Path, done: str, settle: float = 30) -> float:
    """Save ``path`` with ``marker`` in the statement; seconds until the served /35/ carries it
    (then the server's rebuild is let finish, for at most ``settle`` seconds)."""
    before = _done(log, done)
    start = _save(path, text.replace(STATEMENT, f"{STATEMENT[:-1]}, {marker}."))
    took = _until(port, "/35/", marker.encode()) - start
    _finished(log, done, before, settle)
    return took


def serve(work: Path, bank: Path, port: int, cache: Path | None = None, wait: float = 120) -> subprocess.Popen:
    """``python -m site_builder serve`` on ``bank``, once it serves /35/ (``cache``: its .cache/ folder;
    ``wait``: for its first full build)."""
    return _start(
        [sys.executable, "-m", "site_builder", "--entries", str(bank), "serve", "--port", str(port)]
        + ["--out", str(work / f"site-of-{bank.name}")],
        work,
        "/35/",
        port,
        # This checkout's code: in the temporary folder it runs from, ``-m site_builder`` would find
        # the installed package, which in a second worktree is another checkout's.
        {"PYTHONPATH": _path(), **({"DERIVATION_BANK_CACHE": str(cache)} if cache else {})},
        wait,
    )


def edits_served(work: Path, bank: Path, edits: int, cache: Path | None = None) -> dict:
    """Ours alone on a copy of ``bank`` (a larger generated one, say): save to rebuilt, as ``measure``
    times it; {"ours": percentiles, "edits", "entries", "load"}."""
    copy = work / f"serve-{bank.name}"
    shutil.copytree(bank, copy)
    kv = next(copy.glob("35-*.yaml"))
    kv_text = kv.read_text(encoding="utf-8")
    assert STATEMENT in kv_text, "choose another statement to edit"
    port = _port()
    ours = serve(work, copy, port, cache, wait=900)  # a larger bank's first full build, on a loaded machine
    log, times = work / f"server-{port}.log", []
    try:
        for i in range(edits):
            # The whole site of a larger bank is written long after its page: the next edit waits for it.
            times.append(_edit(port, kv, kv_text, f"saved edit {i} of ours", log, DONE["ours"], settle=600))
    finally:
        ours.terminate()
        ours.wait(timeout=30)
    entries = sum(1 for p in copy.glob("*.yaml") if not p.name.startswith("_"))
    return {"ours": percentiles(times), "edits": edits, "entries": entries, "load": os.getloadavg()}


def measure(work: Path, edits: int) -> dict:
    """{"ours": [s], "mkdocs": [s], "reloaded": [s], "edits", "pages"...}: seconds from the save."""
    from playwright.sync_api import sync_playwright

    bank = work / "serve-entries"
    shutil.copytree(ROOT / "entries", bank)
    entries = load_all(bank, Problems())
    project = work / "serve-mkdocs"
    mkdocs_project(project, entries)
    kv = next(bank.glob("35-*.yaml"))
    kv_text = kv.read_text(encoding="utf-8")
    assert STATEMENT in kv_text, "choose another statement to edit"
    md = project / "docs" / "35.md"
    md_text = md.read_text(encoding="utf-8")
    assert STATEMENT in md_text
    ours_port, mk_port = _port(), _port()
    ours = serve(work, bank, ours_port)
    mkdocs = _start(
        [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{mk_port}"],
        project,
        "/35/",
        mk_port,
    )
    times = {"ours": [], "mkdocs": [], "reloading": [], "painted": [], "reloaded": []}
    logs = {"ours": work / f"server-{ours_port}.log", "mkdocs": project / f"server-{mk_port}.log"}
    try:
        _finished(logs["mkdocs"], "Serving on", 0)
        for i in range(edits):  # interleaved: both meet the same machine state
            times["ours"].append(_edit(ours_port, kv, kv_text, f"saved edit {i} of ours", logs["ours"], DONE["ours"]))
            times["mkdocs"].append(
                _edit(mk_port, md, md_text, f"saved edit {i} of mkdocs", logs["mkdocs"], DONE["mkdocs"])
            )
        mkdocs.terminate()
        mkdocs.wait(timeout=30)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{ours_port}/35/")
            for i in range(edits):
                # A reader who is looking at the page: Python has booted, the page is idle.
                page.wait_for_function("() => document.documentElement.dataset.python", timeout=READY_MS)
                time.sleep(0.5)
                marker = f"reloaded edit {i}"
                with page.expect_event("load", timeout=30_000):
                    saved_ms = time.time() * 1000
                    kv.write_text(kv_text.replace(STATEMENT, f"{STATEMENT[:-1]}, {marker}."), encoding="utf-8")
                # Wall-clock times, as time.time(): the reload's start, its first paint (the edit on
                # screen: the page's text is in its HTML), and its load event (every subresource in).
                started, painted, loaded = page.evaluate(PAINT_JS)
                assert marker in page.inner_text("main"), "the reloaded page lacks the edit"
                times["reloading"].append((started - saved_ms) / 1000)
                times["painted"].append((painted - saved_ms) / 1000)
                times["reloaded"].append((loaded - saved_ms) / 1000)
            browser.close()
    finally:
        for proc in (ours, mkdocs):
            if proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=30)
        kv.write_text(kv_text, encoding="utf-8")
    return {
        "edits": edits,
        "entries": len(entries),
        "ours": percentiles(times["ours"]),
        "mkdocs": percentiles(times["mkdocs"]),
        "reloading": percentiles(times["reloading"]),
        "painted": percentiles(times["painted"]),
        "reloaded": percentiles(times["reloaded"]),
        "mkdocs_pages": len(list((project / "docs").glob("*.md"))),
        "load": os.getloadavg()[1],
    }


def report(found: dict) -> tuple[list[tuple[str, bool, str]], list[str]]:
    """(target rows, the report's section) from ``measure``'s figures."""
    ours, mk, reloaded = found["ours"], found["mkdocs"], found["reloaded"]
    reloading, painted = found["reloading"], found["painted"]
    faster = mk["p50"] / ours["p50"]
    ms = lambda s: f"{s * 1000:.0f} ms"  # noqa: E731
    targets = [
        (
            "An entry edit on the page ≤ 100 ms after the save (p95, served)",
            ours["p95"] <= 0.1,
            f"p50 {ms(ours['p50'])}, p95 {ms(ours['p95'])}",
        ),
        ("Save-to-rebuilt ≥ 5× faster than `mkdocs serve` (p50)", faster >= 5, f"{faster:.1f}× faster"),
    ]
    section = [
        "## Authoring: save to page",
        "",
        f"One entry edited {found['edits']} times (`/35/`'s statement), each save followed at once by fetching the "
        "served page until it carries the edit (the HTTP boundary, polled every 5 ms). Ours is `make serve` "
        f"(`python -m site_builder serve`) on a copy of the bank ({found['entries']} entries); MkDocs is "
        "`mkdocs serve` (mkdocs-material, KaTeX via arithmatex, live reload on, as its docs set it up) on a project "
        f"of the same statements and notes ({found['mkdocs_pages']} pages), both running at once and edited in turn, "
        "the same statement each time.",
        "",
        "| save to rebuilt | p50 | p95 | max | n |",
        "|---|---|---|---|---|",
        f"| ours (`serve`) | {ms(ours['p50'])} | {ms(ours['p95'])} | {ms(ours['max'])} | {ours['n']} |",
        f"| `mkdocs serve` | {ms(mk['p50'])} | {ms(mk['p95'])} | {ms(mk['max'])} | {mk['n']} |",
        "",
        f"Ours is {faster:.1f}× faster at the median. `serve` checks only the edited file against the bank it keeps "
        "in memory, typesets only TeX it has not typeset before (one KaTeX process stays alive), writes the edited "
        "page first and tells open pages to reload; it then writes every other file the edit changed, so the folder "
        "ends as a full build writes it. `mkdocs serve` waits 0.1 s for the edits to settle (its `build_delay`), then rebuilds every page.",
        "",
        "Save to reloaded, ours in Chromium (the page open on `/35/`, idle before each save, its Python booted; "
        "wall-clock times from the save):",
        "",
        "| save to | p50 | p95 | max | n |",
        "|---|---|---|---|---|",
        f"| the reload starting (the reload script told) | {ms(reloading['p50'])} | {ms(reloading['p95'])} | "
        f"{ms(reloading['max'])} | {reloading['n']} |",
        f"| the edit on screen (the reloaded page's first contentful paint) | {ms(painted['p50'])} | "
        f"{ms(painted['p95'])} | {ms(painted['max'])} | {painted['n']} |",
        f"| the reloaded page's load event (fonts, scripts and preloads in) | {ms(reloaded['p50'])} | "
        f"{ms(reloaded['p95'])} | {ms(reloaded['max'])} | {reloaded['n']} |",
        "",
        f"The machine's load average over the last five minutes of this part: {found['load']:.1f} on "
        f"{os.cpu_count()} cores.",
        "",
    ]
    return targets, section
