"""What every part of the benchmark shares: Chromium's flags, the bench site built and served
once, Python-ready timing, page weight's compressed bytes, and the statistics the report prints.
run.py, engines.py, site_build.py, serve_edit.py and plans.py import this module; run.py runs
engines, site_build and serve_edit and keeps suite's and plans' sections of BENCHMARKS.md;
site_build makes its larger bank with scaled_bank, and serve_edit its MkDocs project with site_build."""

from __future__ import annotations

import gzip
import shutil
import statistics
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from site_builder.serve.host import COMPRESSIBLE, _gzipped
from tests.support import CHROMIUM_ARGS as CHROMIUM_ARGS  # the tests' flags, for the benchmarks too

ROOT = Path(__file__).resolve().parent.parent
READY_MS = 180_000


def quantile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "n": len(values)}


def percentiles(values: list[float]) -> dict:
    ordered = sorted(values)
    return {"p50": quantile(ordered, 0.50), "p95": quantile(ordered, 0.95), "max": ordered[-1], "n": len(ordered)}


def fmt(s: dict, unit: str = "s", scale: float = 1.0, digits: int = 2) -> str:
    return f"{s['median'] * scale:.{digits}f} {unit} ({s['min'] * scale:.{digits}f}–{s['max'] * scale:.{digits}f}, n={s['n']})"


def ratio(a: dict, b: dict) -> float:
    return a["median"] / b["median"]


def build(out: Path, entries: Path | None = None) -> None:
    """The real build command, in a process of its own."""
    where = ["--entries", str(entries)] if entries else []
    subprocess.run(
        [sys.executable, "-m", "site_builder", *where, "build", "--out", str(out)],
        check=True,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )


def compress_once(site: Path) -> None:
    """The server gzips each file once and keeps it in memory, as a host's edge would: do that before timing."""
    for path in site.rglob("*"):
        if path.is_file() and path.suffix in COMPRESSIBLE:
            _gzipped(str(path), path.stat().st_mtime_ns)


@contextmanager
def bench_site(prefix: str = "bench-"):
    """(work folder, built site) in a temporary folder, compressed once as a server would; removed after."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        site = work / "site"
        build(site)
        compress_once(site)
        yield work, site
    finally:
        shutil.rmtree(work, ignore_errors=True)


def compressed(path: Path) -> int:
    """A file's bytes gzipped at level 9: what page weight counts."""
    return len(gzip.compress(path.read_bytes(), 9))


def shared_assets(site: Path) -> list[Path]:
    """Every CSS file a page may link (ours and the vendored packages') and all of our JavaScript,
    whether a page loads it at once, on demand or on one boot way only: the part of page weight
    every page shares, counted whole."""
    css = [*(site / "static").glob("*.css"), *(site / "katex").rglob("*.css"), *(site / "vendor").rglob("*.css")]
    js = [p for p in (site / "static").glob("*.js") if p.name != "alias.js"]  # alias.js: old URLs' redirect pages
    return css + js


def _site_file(site: Path, url: str) -> Path | None:
    """The built file a same-site URL is served from, or None."""
    path = urlsplit(url).path
    file = site / path.lstrip("/")
    if path.endswith("/"):
        file = file / "index.html"
    return file if file.is_file() else None


def weight(browser, base: str, site: Path, path: str, opened=None) -> dict:
    """Compressed bytes of a page's HTML, CSS and our JavaScript, as the page fetched them before the
    reader acts: from navigation until ``opened(page, url)`` returns (by default: Python ready and
    the page's first results on screen) and the network is idle, service workers blocked, its
    workers' requests included; no Pyodide, no vendored JavaScript, no fonts.  Beside it the whole:
    the page's HTML with every CSS file and all of our JavaScript (``shared_assets``) and the data
    beside the page that features fetch on demand (its presets' values, "Every model"), what the
    page would weigh if it loaded everything a reader may ask for."""
    context = browser.new_context(service_workers="block")
    urls: list[str] = []
    context.on("request", lambda request: urls.append(request.url))
    page = context.new_page()
    try:
        (opened or entry_ready)(page, base + path)
        page.wait_for_load_state("networkidle")
    finally:
        context.close()
    files = {f for f in (_site_file(site, u) for u in urls if u.startswith(base)) if f}
    static = site / "static"
    html = compressed(_site_file(site, base + path))
    css = [f for f in files if f.suffix == ".css"]
    ours = [f for f in files if f.suffix == ".js" and f.parent == static]  # no Pyodide, no vendored JS
    loaded = {"html": html, "css": sum(map(compressed, css)), "js": sum(map(compressed, ours))}
    return {
        **loaded,
        "loaded": sum(loaded.values()),
        "files": sorted(f.relative_to(site).as_posix() for f in css + ours),
        # (a page's own CSS, such as its math rules, beside what every page shares)
        "whole": html
        + sum(map(compressed, {*shared_assets(site), *css, *_site_file(site, base + path).parent.glob("*.json")})),
    }


def entry_ready(page, url: str) -> None:
    """An entry page with Python ready and its first results (the link's or the defaults') on screen."""
    python_ready(page, url)
    page.wait_for_function("() => document.documentElement.dataset.replies", timeout=READY_MS)


def python_ready(page, url: str) -> float:
    """Seconds from navigation start to the page's python-ready mark."""
    page.goto(url)
    page.wait_for_function("() => document.documentElement.dataset.python", timeout=READY_MS)
    assert page.evaluate("document.documentElement.dataset.python") == "ready"
    return page.evaluate("performance.getEntriesByName('python-ready')[0].startTime") / 1000


# ---- a marked section of BENCHMARKS.md that one benchmark writes and ``make bench`` keeps


def kept_section(text: str, begin: str, end: str) -> str:
    """The section between ``begin`` and ``end`` of a BENCHMARKS.md text, markers included ('' when it has none)."""
    start, stop = text.find(begin), text.find(end)
    return text[start : stop + len(end)] + "\n" if 0 <= start < stop else ""


def write_section(out: Path, begin: str, end: str, section: str, in_place: bool) -> None:
    """``section`` into ``out``, the rest of the file as it is: where the old one was (``in_place``),
    or at the end, the old one dropped."""
    old = out.read_text(encoding="utf-8") if out.exists() else ""
    start, stop = old.find(begin), old.find(end)
    if 0 <= start < stop and in_place:
        text = old[:start] + section + old[stop + len(end) + 1 :]
    else:
        rest = old[:start] + old[stop + len(end) + 1 :] if 0 <= start < stop else old
        text = rest.rstrip("\n") + "\n\n" + section
    out.write_text(text, encoding="utf-8")
