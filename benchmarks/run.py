"""The benchmark: every figure measured side by side in one run, written to BENCHMARKS.md.

    python -m benchmarks.run [--runs N] [--out BENCHMARKS.md]     (or: make bench)

Machines are noisy, so comparisons are ratios of medians measured in the same run, with
runs of the two sides interleaved.  Nothing here is a pass/fail test: the report says
which targets were met.
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from benchmarks import engines, serve_edit, site_build
from benchmarks import plans as benchmark_plans
from benchmarks import suite as benchmark_suite
from benchmarks.common import (
    CHROMIUM_ARGS,
    READY_MS,
    bench_site,
    compressed,
    fmt,
    quantile,
    ratio,
    summary,
)
from benchmarks.common import python_ready as python_ready_at
from benchmarks.common import weight as loaded_weight
from benchmarks.server import BenchServer, Link

ROOT = Path(__file__).resolve().parent.parent
SLOW_LINK = Link(bits_per_s=20e6, latency_s=0.040)
# The same link as Chromium's own network throttling (DevTools' custom profile): 20 Mbit/s
# down and up, 40 ms added to each request.  It applies to the page's workers too.
THROTTLE = {"offline": False, "latency": 40, "downloadThroughput": 20e6 / 8, "uploadThroughput": 20e6 / 8}


# ----------------------------------------------------------------------------- browser


def _profile(playwright, work: Path):
    """A browser with a fresh on-disk profile: cold at first, with a real HTTP cache for the warm visit
    (an in-memory profile keeps too little to hold Pyodide's 10 MB of WebAssembly)."""
    return playwright.chromium.launch_persistent_context(
        tempfile.mkdtemp(prefix="profile-", dir=work),
        executable_path=shutil.which("chromium"),
        args=CHROMIUM_ARGS,
        service_workers="block",
    )


def python_ready(playwright, work: Path, site: Path, runs: int, link: Link, throttle: dict | None = None) -> dict:
    """Cold (empty cache) and warm (reload) Python-ready times, ours against the bare stock page;
    the link simulated by the server, or by Chromium (``throttle``)."""
    server = BenchServer(site, link)
    pyodide = next((site / "pyodide").iterdir()).name
    targets = {"site": f"{server.url}/35/", "stock": f"{server.url}/__bench__/?pyodide=/pyodide/{pyodide}/"}
    times = {(who, kind): [] for who in targets for kind in ("cold", "warm")}
    stdlib = set()
    try:
        for _ in range(runs):
            for who, url in targets.items():  # interleaved: both sides see the same machine state
                context = _profile(playwright, work)
                page = context.new_page()
                if throttle:
                    cdp = context.new_cdp_session(page)
                    cdp.send("Network.enable")
                    cdp.send("Network.emulateNetworkConditions", throttle)
                times[(who, "cold")].append(python_ready_at(page, url))
                if who == "site":
                    stdlib.add(page.evaluate("document.documentElement.dataset.stdlib"))
                times[(who, "warm")].append(python_ready_at(page, url))
                context.close()
    finally:
        server.close()
    return {"times": {k: summary(v) for k, v in times.items()}, "stdlib": sorted(stdlib)}


def _default_total() -> str:
    """/35/'s total at the defaults, as the build writes it into the page."""
    from site_builder.errors import Problems
    from site_builder.load.load import load_all
    from site_builder.runtime.calculator import Calculator

    entry = next(e for e in load_all(ROOT / "entries", Problems()) if e.key == "35")
    return Calculator(entry.spec()).run({})["outputs"]["total"]["text"]


def first_paint(browser, site: Path, runs: int) -> dict:
    expected = _default_total()
    server = BenchServer(site, Link())
    fcp, visible = [], []
    try:
        for _ in range(runs):
            context = browser.new_context(service_workers="block")
            page = context.new_page()
            page.goto(f"{server.url}/35/")
            page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length > 0")
            fcp.append(page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime") / 1000)
            context.close()
            off = browser.new_context(java_script_enabled=False)
            page = off.new_page()
            page.goto(f"{server.url}/35/")
            visible.append(page.text_content("#out-total").strip() == expected)
            off.close()
    finally:
        server.close()
    return {"fcp": summary(fcp), "results_without_js": all(visible)}


RECOMPUTE_JS = """async (n) => {
  const input = document.getElementById('in-s'), out = document.getElementById('out-total'), times = [];
  for (let i = 0; i < n; i++) {
    const changed = new Promise((resolve) => {
      const watch = new MutationObserver(() => { watch.disconnect(); resolve(); });
      watch.observe(out, { childList: true, characterData: true, subtree: true });
    });
    const t = performance.now();
    input.value = String(1000 + i);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await changed;
    times.push(performance.now() - t);
  }
  return times;
}"""


def recompute(browser, site: Path, changes: int) -> dict:
    server = BenchServer(site, Link())
    try:
        page = browser.new_page()
        python_ready_at(page, f"{server.url}/35/")
        times = sorted(page.evaluate(RECOMPUTE_JS, changes))
        page.close()
    finally:
        server.close()
    pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
    return {"p50": pick(0.50), "p95": pick(0.95), "max": times[-1], "n": len(times)}


SOLVE_JS = """async ([output, sense, free, targets]) => {
  const el = (id) => document.getElementById(id), root = document.documentElement, times = [];
  el('solve-output').value = output; el('solve-sense').value = sense; el('solve-input').value = free;
  for (const target of targets) {
    const before = Number(root.dataset.solves || 0);
    const shown = new Promise((resolve) => {
      const watch = new MutationObserver(() => {
        if (Number(root.dataset.solves || 0) > before) { watch.disconnect(); resolve(); }
      });
      watch.observe(root, { attributes: true, attributeFilter: ['data-solves'] });
    });
    const t = performance.now();
    el('solve-target').value = target;
    el('solve').requestSubmit();
    await shown;
    times.push(performance.now() - t);
  }
  return times;
}"""
# An inverse question on each page, its target moved each time so every solve is a new one:
# a context length for a memory budget (integer), micro-batches for a bubble target (integer),
# the success probability for a coverage target (real, the root finder's whole budget).
SOLVES = {
    "/35/": ("total", "<=", "s", lambda i: f"{10 + i}GB"),
    "/19/": ("bubble_percent", "<=", "M", lambda i: f"{1 + 0.1 * i:.1f}%"),
    "/46/": ("coverage", ">=", "p", lambda i: f"{0.5 + 0.004 * i:.3f}"),
}


def solve_latency(browser, site: Path, questions: int) -> dict:
    """From the reader's question to the freed input, the answer and every result on screen."""
    server = BenchServer(site, Link())
    found = {}
    try:
        for path, (output, sense, free, target) in SOLVES.items():
            page = browser.new_page()
            python_ready_at(page, f"{server.url}{path}")
            times = sorted(page.evaluate(SOLVE_JS, [output, sense, free, [target(i) for i in range(questions)]]))
            page.close()
            found[path] = {
                "p50": quantile(times, 0.50),
                "p95": quantile(times, 0.95),
                "max": times[-1],
                "n": len(times),
            }
    finally:
        server.close()
    return found


def transfer(playwright, work: Path, site: Path) -> dict:
    """Bytes the server sent for an entry page until Python was ready: first visit from a far and a near
    server, and a repeat visit."""
    found = {}
    for name, link in (("first_near", Link()), ("first", Link(latency_s=SLOW_LINK.latency))):
        server = BenchServer(site, link)
        try:
            context = _profile(playwright, work)
            page = context.new_page()
            link.sent = 0
            python_ready_at(page, f"{server.url}/35/")
            page.wait_for_load_state("networkidle")
            found[name] = link.sent
            if name == "first":
                link.sent = 0
                python_ready_at(page, f"{server.url}/19/")
                page.wait_for_load_state("networkidle")
                found["repeat"] = link.sent
            context.close()
        finally:
            server.close()
    return found


CLICK_JS = """(turbo) => {
  // A link on /35/ to /19/ (there is none in the page itself), clicked as a reader would; with
  // data-turbo=false it is a full page load.  Returns when it was clicked, in epoch ms.
  const link = document.createElement('a');
  link.href = '/19/';
  link.textContent = 'to entry 19';
  if (!turbo) link.dataset.turbo = 'false';
  document.querySelector('main').prepend(link);
  const at = performance.timeOrigin + performance.now();
  link.click();
  return at;
}"""
READY_AT_JS = "() => performance.timeOrigin + performance.getEntriesByName('python-ready').pop().startTime"


def navigation(playwright, work: Path, site: Path, runs: int) -> dict:
    """From clicking a link on /35/ to Python ready on /19/: followed in the page (Turbo, the same
    worker) against the same link as a full page load, with the service worker installed and every
    file cached; interleaved.  Also the bytes the server sent for each, and both again for a reader
    without the service worker (HTTP cache warm)."""
    server = BenchServer(site, Link())
    times = {(how, sw): [] for how in ("turbo", "full") for sw in (True, False)}
    sent = {key: [] for key in times}
    try:
        for run in range(runs):
            for sw in (True, False):
                context = playwright.chromium.launch_persistent_context(
                    tempfile.mkdtemp(prefix="profile-", dir=work),
                    executable_path=shutil.which("chromium"),
                    args=CHROMIUM_ARGS,
                    service_workers="allow" if sw else "block",
                )
                page = context.new_page()
                python_ready_at(page, f"{server.url}/35/")
                if sw:
                    page.wait_for_function(
                        "() => document.getElementById('offline-status').dataset.state === 'ready'", timeout=READY_MS
                    )
                for url in ("/19/", "/35/"):  # every file cached, the pages under the service worker
                    python_ready_at(page, server.url + url)
                for how in ("turbo", "full") if run % 2 else ("full", "turbo"):
                    python_ready_at(page, f"{server.url}/35/")
                    page.wait_for_function("() => document.documentElement.dataset.drive === 'on'")
                    page.wait_for_load_state("networkidle")
                    server.link.sent = 0
                    clicked = page.evaluate(CLICK_JS, how == "turbo")
                    page.wait_for_function(
                        "() => location.pathname === '/19/' && document.documentElement.dataset.python",
                        timeout=READY_MS,
                    )
                    assert page.evaluate("document.documentElement.dataset.python") == "ready"
                    times[(how, sw)].append((page.evaluate(READY_AT_JS) - clicked) / 1000)
                    page.wait_for_load_state("networkidle")
                    sent[(how, sw)].append(server.link.sent)
                    assert page.evaluate("performance.getEntriesByType('navigation')[0].name").endswith(
                        "/35/" if how == "turbo" else "/19/"
                    ), how  # the same document, or a new one
                context.close()
    finally:
        server.close()
    name = lambda key: key[0] + ("" if key[1] else " without the service worker")
    return {
        "times": {name(k): summary(v) for k, v in times.items()},
        "bytes": {name(k): statistics.median(v) for k, v in sent.items()},
        "load": os.getloadavg()[1],
    }  # the machine's load over the last 5 minutes: the absolute times move with it


def entry_pages(site: Path) -> list[str]:
    """Every entry page's path, the bank's and the toolkit's."""
    pages = [p.parent for p in site.rglob("index.html") if p.parent.name.isdigit() or p.parent.parent.name == "toolkit"]
    return sorted("/" + folder.relative_to(site).as_posix() + "/" for folder in pages)


def page_weight(browser, site: Path, paths: list[str] | None = None) -> dict:
    """Compressed bytes of HTML, CSS and our JavaScript (``benchmarks.common.weight``) that each entry
    page (``paths``, by default every one) fetches before the reader acts, measured in the browser:
    the heaviest page's, and /35/'s, with the whole beside each (its HTML, every CSS file and all of
    our JavaScript, on demand and on one boot way only included).  The Python runtime's sources,
    which a page fetches only if it falls back to stock Pyodide, are counted apart; and Pyodide's
    boot files' sizes, for the report."""
    server = BenchServer(site, Link())
    try:
        pages = {path: loaded_weight(browser, server.url, site, path) for path in paths or entry_pages(site)}
    finally:
        server.close()
    heaviest = max(pages, key=lambda path: pages[path]["loaded"])
    python = sum(map(compressed, (site / "static" / "runtime").glob("*.py")))
    pyodide = next((site / "pyodide").iterdir())
    wasm, startup = pyodide / "pyodide.asm.wasm", next(pyodide.glob("stdlib-startup-*.zip"))
    return {
        "page": heaviest,
        **pages[heaviest],
        "pages": len(pages),
        "at_35": pages.get("/35/"),
        "python": python,
        # Pyodide's boot files, as a far page fetches them (xz) and as hosts send them (gzipped as
        # the server does, level 6; a zip as it is), and the memory snapshot (stored gzipped).
        "wasm_xz": (wasm.parent / (wasm.name + ".xz")).stat().st_size,
        "startup_xz": (startup.parent / (startup.name + ".xz")).stat().st_size,
        "wasm_gz": len(gzip.compress(wasm.read_bytes(), 6)),
        "startup": startup.stat().st_size,
        "snapshot": next((site / "snapshot").rglob("*.snapshot")).stat().st_size,
    }


# ----------------------------------------------------------------------------- report


def run(runs: int, out: Path, edits: int) -> int:
    from playwright.sync_api import sync_playwright

    with bench_site() as (work, site):
        print("build: the full build …", flush=True)
        builds = site_build.measure(work, runs)
        print("serve: save to page, ours against mkdocs serve …", flush=True)
        serving = serve_edit.measure(work, edits)
        print(f"build and serve: the bank against one {site_build.FACTOR} times larger …", flush=True)
        growth = scaling(work, runs, edits)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
            print("browser: first paint …", flush=True)
            paint = first_paint(browser, site, runs)
            print("browser: Python ready on 127.0.0.1 …", flush=True)
            local = python_ready(p, work, site, runs, Link())
            print("browser: Python ready on a 20 Mbit/s, 40 ms link (Chromium's throttling) …", flush=True)
            slow = python_ready(p, work, site, max(5, runs // 2), Link(), THROTTLE)
            print("browser: Python ready on a 20 Mbit/s, 40 ms link (simulated by the server) …", flush=True)
            slow_server = python_ready(p, work, site, max(3, runs // 2), SLOW_LINK)
            print("browser: recompute latency …", flush=True)
            latency = recompute(browser, site, 200)
            print("browser: solve latency …", flush=True)
            solves = solve_latency(browser, site, 100)
            print("browser: bytes transferred …", flush=True)
            bytes_ = transfer(p, work, site)
            print("browser: a link from /35/ to /19/, in the page and as a full load …", flush=True)
            nav = navigation(p, work, site, runs)
            print("browser: what each entry page loads before the reader acts …", flush=True)
            weight = page_weight(browser, site)
            browser.close()
        print("browser: Python ready in Chromium, Firefox and WebKit …", flush=True)
        engine_runs = max(3, runs // 2)
        in_engines = engines.report(engines.measure(site, engine_runs), engine_runs)
        old = out.read_text(encoding="utf-8") if out.exists() else ""
        plans, suite = benchmark_plans.kept(old), benchmark_suite.kept(old)
        out.write_text(
            report(builds, serving, paint, local, slow, slow_server, latency, bytes_, weight, runs, solves, nav, growth)
            + "\n"
            + in_engines
            + ("\n" + plans if plans else "")  # the plan pages' figures, recorded by benchmarks.plans
            + ("\n" + suite if suite else "")  # the suite's duration, recorded by benchmarks.suite
        )
        print(f"wrote {out}")
    return 0


def _ways(result: dict) -> str:
    names = {
        "snapshot": "memory snapshot",
        "startup": "start-up stdlib",
        "startup+xz": "start-up stdlib, xz-compressed",
    }
    return " / ".join(names.get(way, way) for way in result["stdlib"])


def _solve_figures(solves: dict) -> str:
    return ", ".join(f"{path} {s['p95']:.1f} ms" for path, s in solves.items())


def scaling(work: Path, runs: int, edits: int) -> tuple[dict, dict]:
    """The full build of the bank and of one ten times larger, and serve's edits on the larger."""
    found = site_build.scaling(work, max(3, runs // 2))
    print(f"  builds: {fmt(found['one'])} and {fmt(found['many'])}, load {found['load']}", flush=True)
    return found, serve_edit.edits_served(work, found["bank"], edits, found["cache"])


def report(builds, serving, paint, local, slow, slow_server, latency, bytes_, weight, runs, solves, nav, growth) -> str:
    def ready_rows(result, label):
        t = result["times"]
        rows = []
        for kind in ("cold", "warm"):
            r = ratio(t[("site", kind)], t[("stock", kind)])
            rows.append(f"| {label}, {kind} | {fmt(t[('site', kind)])} | {fmt(t[('stock', kind)])} | **{r:.2f}×** |")
        return rows, ratio(t[("site", "cold")], t[("stock", "cold")])

    local_rows, local_ratio = ready_rows(local, "127.0.0.1")
    slow_rows, slow_ratio = ready_rows(slow, "20 Mbit/s, 40 ms (Chromium)")
    server_rows, _ = ready_rows(slow_server, "20 Mbit/s, 40 ms (server)")
    serve_targets, serve_section = serve_edit.report(serving)
    growth_targets, growth_section = site_build.scaling_report(*growth)
    nav_ratio = ratio(nav["times"]["turbo"], nav["times"]["full"])
    nosw = lambda how: f"{how} without the service worker"
    nav_s = nav["times"]["turbo"]["median"]
    targets = [
        (
            "Results visible at first paint, JavaScript off",
            paint["results_without_js"],
            "yes" if paint["results_without_js"] else "no",
        ),
        ("Python ready, cold, ≤ 0.4× stock Pyodide on 127.0.0.1", local_ratio <= 0.4, f"{local_ratio:.3f}×"),
        (
            "Python ready, cold, ≤ 0.6× stock Pyodide at 20 Mbit/s, 40 ms (Chromium's throttling)",
            slow_ratio <= 0.6,
            f"{slow_ratio:.3f}×",
        ),
        ("Recompute p95 ≤ 16 ms once ready", latency["p95"] <= 16, f"{latency['p95']:.1f} ms"),
        (
            "Solve p95 ≤ 50 ms once ready (/35/, /19/, /46/)",
            all(s["p95"] <= 50 for s in solves.values()),
            _solve_figures(solves),
        ),
        (
            "A link /35/ → /19/: Python ready ≤ 0.1 s after the click, ≤ 0.1× the same link as a full load",
            nav_s <= 0.1 and nav_ratio <= 0.1,
            f"{nav_s * 1000:.0f} ms, {nav_ratio:.3f}×",
        ),
        (
            "Full build of the bank ≤ 1 s",
            builds["ours_full"]["median"] <= 1.0,
            f"{builds['ours_full']['median']:.2f} s",
        ),
        *serve_targets,
        *growth_targets,
        (
            "Entry page ≤ 60 KB compressed (HTML, CSS and our JS loaded before the reader acts)",
            weight["loaded"] <= 60_000,
            f"{weight['loaded'] / 1000:.1f} KB ({weight['page']}; the whole, on demand included, {weight['whole'] / 1000:.1f} KB)",
        ),
    ]
    lines = [
        "# Benchmarks",
        "",
        f"Measured by `make bench` (`python -m benchmarks.run --runs {runs}`) on {platform.machine()}, "
        f"{platform.system()}, Python {platform.python_version()}, Debian Chromium headless. Every comparison "
        "was measured side by side in the same run, the two sides interleaved; figures are medians with min–max.",
        "Regenerate with `make bench`; the numbers move with the machine, the ratios much less.",
        "",
        "## Targets",
        "",
        "| target | met | measured |",
        "|---|---|---|",
        *[f"| {name} | {'✓' if ok else '✗'} | {value} |" for name, ok, value in targets],
        "",
        "## Build",
        "",
        f"The bank: {builds['entries']} entries ({builds['cases']} cases, {builds['plots']} charts) from "
        f"{builds['yaml']} YAML files, built into {builds['pages']} pages. Each figure is a fresh process running "
        "the real command, with Python's bytecode cache as a reader's `make build` has it (kept in the benchmark's "
        "folder; PYTHONDONTWRITEBYTECODE, if set where it runs, is left out). Derived artefacts (KaTeX output, QR codes, schema verdicts, the start-up stdlib and the "
        "memory snapshot) are cached in `.cache/` by a hash of their inputs; the first build fills that cache.",
        "",
        "| build | ours |",
        "|---|---|",
        f"| full build | {fmt(builds['ours_full'])} |",
        f"| first build, empty cache | {fmt(builds['ours_first'])} |",
        "",
        f"A Python process that only starts and imports Jinja2 and PyYAML takes {fmt(builds['floor'], 'ms', 1000, 0)}, "
        f"before reading one entry; the build then parses the {builds['yaml']} YAML files, reproduces every case and "
        f"draws every chart of the {builds['entries']} formulas, and renders the {builds['pages']} pages. An author "
        "waits on `serve`, not on this: its figures follow.",
        "",
        *serve_section,
        *growth_section,
        "## In the browser",
        "",
        f"First contentful paint of `/35/`: {fmt(paint['fcp'], 'ms', 1000, 0)}; the results for the defaults are in that "
        f"paint (with JavaScript off too: {'yes' if paint['results_without_js'] else 'no'}).",
        "",
        "Python ready: from navigation start to the first recompute being possible. The baseline is a bare page that "
        "loads stock Pyodide (same version, same server, same worker set-up) and runs one line. Cold is a new browser "
        "profile; warm is a reload (HTTP cache warm; service workers are off, so this is a reader without ours). "
        "The slow link is 20 Mbit/s shared and 40 ms per request, for every request, workers' included: once with "
        "Chromium's own network throttling (the target), once simulated by the server (where the latency is also "
        "in the page's Resource Timing, as on a real network).",
        "",
        "| Python ready | entry page | stock Pyodide | ratio |",
        "|---|---|---|---|",
        *local_rows,
        *slow_rows,
        *server_rows,
        "",
        f"How the entry page booted: on 127.0.0.1 from the {_ways(local)}; on the slow link from the {_ways(slow)} "
        f"(Chromium) and the {_ways(slow_server)} (server). "
        "Pages boot one of three ways, each falling back to the next: the *snapshot* "
        "(Pyodide's memory saved at build time, after booting and importing the runtime and the allowed modules: "
        f"restoring it skips Python's start-up, but it is {weight['snapshot'] / 1e6:.1f} MB more to download, so a "
        "page uses it only when it "
        "arrived from a near server (the quickest of its own requests took at most 25 ms), and never for readers "
        "who ask to save data); the *start-up stdlib* (the modules that Pyodide's boot, the runtime and the allow-list import, "
        "and the runtime itself, compiled to `.pyc` by Pyodide's own Python at build time); the stock stdlib. On a far "
        "server the page fetches Pyodide's WebAssembly and the start-up stdlib xz-compressed "
        f"({weight['wasm_xz'] / 1e6:.1f} MB and {weight['startup_xz'] / 1e6:.1f} MB, against "
        f"{weight['wasm_gz'] / 1e6:.1f} MB gzipped and {weight['startup'] / 1e6:.1f} MB as hosts send them) "
        "and its worker decodes them as they arrive (*+xz*); "
        "it keeps the decoded files in Cache Storage for the next visit. The page also starts these downloads "
        "itself, a few round trips before the worker asks for them.",
        "",
        "Moving between entries: from clicking a link on `/35/` to Python ready on `/19/` (its formula loaded, "
        "ready to recompute), with the service worker installed and every file cached (a fresh profile per run, "
        "warmed by a first visit to both pages). Followed in the page, the link swaps `/19/`'s body in (Turbo Drive) "
        "and loads its formula into the Python already running; as a full page load (the same link with "
        '`data-turbo="false"`, the only way before) the new page boots Python again in a new worker.',
        "",
        "| a link /35/ → /19/ | followed in the page | full page load | ratio |",
        "|---|---|---|---|",
        f"| Python ready after the click | {fmt(nav['times']['turbo'], 'ms', 1000, 0)} | {fmt(nav['times']['full'], 'ms', 1000, 0)} | **{nav_ratio:.3f}×** |",
        f"| bytes from the server | {nav['bytes']['turbo']:,.0f} B | {nav['bytes']['full']:,.0f} B | |",
        f"| without the service worker: Python ready | {fmt(nav['times'][nosw('turbo')], 'ms', 1000, 0)} | "
        f"{fmt(nav['times'][nosw('full')], 'ms', 1000, 0)} | {ratio(nav['times'][nosw('turbo')], nav['times'][nosw('full')]):.3f}× |",
        f"| without the service worker: bytes | {nav['bytes'][nosw('turbo')]:,.0f} B | {nav['bytes'][nosw('full')]:,.0f} B | |",
        "",
        f"The machine's load average over the last five minutes of this part: {nav['load']:.1f} "
        f"on {os.cpu_count()} cores. Bytes are those the server sent after the click (with the service "
        "worker, the page comes from its precache; the full load also checks `sw.js` for a new version).",
        "",
        f"Recompute latency over {latency['n']} input changes on `/35/` (input event to output updated): "
        f"p50 {latency['p50']:.1f} ms, p95 {latency['p95']:.1f} ms, max {latency['max']:.1f} ms.",
        "",
        "Solve latency, an inverse question asked in the solve panel, from submitting it to the freed input, the "
        "answer and every result on screen (a new target each time): "
        + "; ".join(
            f"`{path}` {SOLVES[path][2]} for {SOLVES[path][0]} {SOLVES[path][1]} a target, "
            f"p50 {s['p50']:.1f} ms, p95 {s['p95']:.1f} ms, max {s['max']:.1f} ms (n={s['n']})"
            for path, s in solves.items()
        )
        + ".",
        "",
        f"Bytes sent for an entry page until Python is ready: first visit {bytes_['first'] / 1e6:.2f} MB from a far "
        f"server (start-up stdlib, xz-compressed), {bytes_['first_near'] / 1e6:.2f} MB from a near one (snapshot); another entry "
        f"page on a repeat visit from the far server {bytes_['repeat'] / 1e3:.1f} kB (Pyodide's files come from the "
        "HTTP cache, immutable by their versioned paths, and the decoded ones from Cache Storage).",
        "",
        f"Page weight, gzipped at level 9: what an entry page fetches before the reader acts, measured in "
        "Chromium (until Python is ready, the first results are on screen and the network is idle, service "
        "workers blocked: its HTML, the CSS it links and our JavaScript it and its worker load; not Pyodide's "
        f"files, the vendored scripts or fonts), over all {weight['pages']} entry pages. The heaviest, "
        f"{weight['page']}, loads {weight['loaded'] / 1000:.1f} KB: {weight['html'] / 1000:.1f} KB of HTML, "
        f"{weight['css'] / 1000:.1f} KB of CSS, {weight['js'] / 1000:.1f} KB of our JavaScript"
        + (
            f"; `/35/` loads {weight['at_35']['loaded'] / 1000:.1f} KB"
            f" (its whole {weight['at_35']['whole'] / 1000:.1f} KB)"
            if weight["at_35"]
            else ""
        )
        + f". The whole of the heaviest page, with every CSS file and all of our JavaScript (what solving, presets, "
        f"the comparison, the card, the QR code, a pasted config, the charts and the rest load when first used, and each way "
        f"of booting), is {weight['whole'] / 1000:.1f} KB. "
        f"The Python runtime's sources ({weight['python'] / 1000:.1f} KB) would add to it; a page fetches them only "
        "if it falls back to stock "
        "Pyodide (otherwise they come precompiled inside the start-up stdlib or the snapshot).",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--edits", type=int, default=30, help="entry edits for the save-to-page figures")
    parser.add_argument("--out", type=Path, default=ROOT / "BENCHMARKS.md")
    parser.add_argument(
        "--only",
        choices=("navigation", "python-ready", "solve", "serve", "scale"),
        help="measure this part alone and print its figures (BENCHMARKS.md is left as it is)",
    )
    args = parser.parse_args(argv)
    if args.only:
        return only(args.only, args.runs, args.edits)
    return run(args.runs, args.out, args.edits)


def only(part: str, runs: int, edits: int) -> int:
    import json

    from playwright.sync_api import sync_playwright

    if part == "scale":
        work = Path(tempfile.mkdtemp(prefix="bench-scale-"))
        try:
            targets, section = site_build.scaling_report(*scaling(work, runs, edits))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        print("\n".join(f"| {name} | {'✓' if ok else '✗'} | {value} |" for name, ok, value in targets))
        print()
        print("\n".join(section))
        return 0
    with bench_site() as (work, site):
        if part == "serve":
            found = serve_edit.measure(work, edits)
            targets, section = serve_edit.report(found)
            print("\n".join(f"| {name} | {'✓' if ok else '✗'} | {value} |" for name, ok, value in targets))
            print()
            print("\n".join(section))
            return 0
        with sync_playwright() as p:
            if part == "solve":
                browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
                found = solve_latency(browser, site, 100)
                browser.close()
            elif part == "navigation":
                found = navigation(p, work, site, runs)
            else:
                found = python_ready(p, work, site, runs, Link())
        plain = lambda v: (
            {" ".join(k) if isinstance(k, tuple) else k: plain(x) for k, x in v.items()} if isinstance(v, dict) else v
        )
        print(json.dumps(plain(found), indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
