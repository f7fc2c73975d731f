"""Python ready, cold, in each engine: Chromium, Firefox (firefox-esr over WebDriver BiDi) and WebKit
(WebKitGTK's MiniBrowser through WebKitWebDriver), the entry page against the bare stock-Pyodide page
in the same engine, the two sides interleaved.

    python -m benchmarks.engines [--runs N]      (make bench runs it with the rest)

Cold is a browser with nothing kept: a new Chromium profile, a new Firefox profile (each launch makes
one), a new WebKit automation session (whose storage is ephemeral).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.common import CHROMIUM_ARGS, bench_site, fmt, python_ready, ratio, summary
from benchmarks.server import BenchServer, Link

ROOT = Path(__file__).resolve().parent.parent
READY_S = 180


def _ready_in(engine, url: str) -> float:
    engine.goto(url)
    engine.wait_for("document.documentElement.dataset.python", READY_S)
    assert engine.evaluate("document.documentElement.dataset.python") == "ready", url
    return engine.evaluate("performance.getEntriesByName('python-ready')[0].startTime") / 1000


def _chromium_cold(url: str, work: Path) -> float:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            tempfile.mkdtemp(prefix="profile-", dir=work),
            executable_path=shutil.which("chromium"),
            args=CHROMIUM_ARGS,
            service_workers="block",
        )
        try:
            return python_ready(context.new_page(), url)
        finally:
            context.close()


def measure(site: Path, runs: int) -> dict:
    """{engine: {"site": [s...], "stock": [s...]}, "versions": {...}}, cold, on 127.0.0.1."""
    sys.path.insert(0, str(ROOT))
    from tests.engines import Firefox, WebKit

    server = BenchServer(site, Link())
    pyodide = next((site / "pyodide").iterdir()).name
    targets = {"site": f"{server.url}/35/", "stock": f"{server.url}/__bench__/?pyodide=/pyodide/{pyodide}/"}
    times = {name: {who: [] for who in targets} for name in ("chromium", "firefox", "webkit")}
    work = Path(tempfile.mkdtemp(prefix="bench-engines-"))
    try:
        for _ in range(runs):
            for who, url in targets.items():
                times["chromium"][who].append(_chromium_cold(url, work))
                for name, make in (("firefox", Firefox), ("webkit", WebKit)):
                    engine = make()
                    try:
                        times[name][who].append(_ready_in(engine, url))
                    finally:
                        engine.close()
    finally:
        server.close()
        shutil.rmtree(work, ignore_errors=True)
    return times


def versions() -> dict:
    def first_line(*cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout.strip().splitlines()[0]
        except (OSError, IndexError, subprocess.TimeoutExpired):
            return "?"

    webkit = first_line("dpkg-query", "-W", "-f", "${Version}", "libwebkit2gtk-4.1-0")
    return {
        "chromium": first_line("chromium", "--version").split(" built on")[0],
        "firefox": first_line("firefox-esr", "--version"),
        "webkit": f"WebKitGTK {webkit}",
    }


def report(times: dict, runs: int) -> str:

    names = {"chromium": "Chromium", "firefox": "Firefox ESR", "webkit": "WebKit"}
    found = versions()
    rows = []
    for name, sides in times.items():
        site, stock = summary(sides["site"]), summary(sides["stock"])
        rows.append(f"| {names[name]} ({found[name]}) | {fmt(site)} | {fmt(stock)} | **{ratio(site, stock):.2f}×** |")
    return "\n".join(
        [
            "## In every engine",
            "",
            "Python ready, cold, on 127.0.0.1, `/35/` against the bare stock-Pyodide page in the same engine (the two "
            f"interleaved, {runs} runs each): Chromium through Playwright, Firefox ESR over WebDriver BiDi (puppeteer-core), "
            "WebKit through WebKitWebDriver and WebKitGTK's MiniBrowser in a virtual display. Cold is a new profile "
            "(Chromium, Firefox) or a new automation session, whose storage is ephemeral (WebKit). Measured by "
            "`python -m benchmarks.engines`, which `make bench` runs too.",
            "",
            "| engine | entry page | stock Pyodide | ratio |",
            "|---|---|---|---|",
            *rows,
            "",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engines")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    with bench_site("bench-site-") as (_, site):
        print(report(measure(site, args.runs), args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
