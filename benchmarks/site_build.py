"""Build speed: our full build, against its 1 s target; how it grows, the bank against one ten
times larger (scaled_bank.py); and the MkDocs project of the same statements that serve_edit.py
runs `mkdocs serve` on."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from benchmarks import scaled_bank
from benchmarks.common import fmt, summary
from site_builder.errors import Problems
from site_builder.load.load import load_all

ROOT = Path(__file__).resolve().parent.parent
KATEX = ROOT / "node_modules" / "katex" / "dist"
OURS = [sys.executable, "-m", "site_builder"]


def reader(work: Path, **extra: str) -> dict:
    """The environment of a reader's `make build`: Python's own default, which compiles a module
    once and keeps its bytecode (here in ``work``, not beside the sources).  A
    PYTHONDONTWRITEBYTECODE set where the benchmark runs would make every build compile all of
    site_builder again, which no reader's build does (the floor's Jinja2 and PyYAML are read
    compiled either way)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": str(work / "pycache"), **extra}


def _timed(command: list[str], cwd: Path, env: dict | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def mkdocs_project(folder: Path, entries) -> None:
    """The same statements and notes as MkDocs pages, math by arithmatex and KaTeX, as its docs advise."""
    docs = folder / "docs"
    (docs / "katex").mkdir(parents=True)
    shutil.copy(KATEX / "katex.min.js", docs / "katex" / "katex.min.js")
    shutil.copy(KATEX / "katex.min.css", docs / "katex" / "katex.min.css")
    shutil.copytree(KATEX / "fonts", docs / "katex" / "fonts")
    (docs / "katex" / "render.js").write_text(
        'document$.subscribe(() => { for (const el of document.querySelectorAll(".arithmatex")) {'
        ' const tex = el.textContent.replace(/^\\\\[\\(\\[]|\\\\[\\)\\]]$/g, "");'
        ' katex.render(tex, el, { displayMode: el.tagName === "DIV", throwOnError: false }); } });\n'
    )
    (docs / "index.md").write_text(
        "# The Derivation Bank\n\n" + "\n".join(f"- [{e.title}]({e.key}.md)" for e in entries) + "\n"
    )
    for e in entries:
        (docs / f"{e.key}.md").write_text(
            f"# {e.label}: {e.title}\n\n{e.statement}\n\n## How it is computed\n\n{e.notes}\n"
        )
    (folder / "mkdocs.yml").write_text(
        "site_name: Derivation Bank\ntheme:\n  name: material\n"
        "markdown_extensions:\n  - pymdownx.arithmatex:\n      generic: true\n"
        "extra_javascript:\n  - katex/katex.min.js\n  - katex/render.js\n"
        "extra_css:\n  - katex/katex.min.css\n"
    )


def measure(work: Path, runs: int) -> dict:
    """Our full build, each a fresh process running the real command: with the cache of derived
    artefacts warm, and with it empty; and what the bank holds, counted from this run."""
    problems = Problems()
    entries = load_all(ROOT / "entries", problems)
    first = []
    for i in range(max(2, runs // 3)):
        empty = reader(work, DERIVATION_BANK_CACHE=str(work / f"empty-cache-{i}"))
        first.append(_timed([*OURS, "build", "--out", str(work / "first")], ROOT, empty))
    _timed([*OURS, "build", "--out", str(work / "out")], ROOT, reader(work))  # the normal cache, warm
    full, floor = [], []
    for _ in range(runs):
        full.append(_timed([*OURS, "build", "--out", str(work / "out")], ROOT, reader(work)))
        # Where a Python build starts from: the interpreter importing a template engine and a YAML parser.
        floor.append(_timed([sys.executable, "-c", "import jinja2, yaml"], ROOT))
    return {
        "entries": len(entries),
        "yaml": len(list((ROOT / "entries").rglob("*.yaml"))),
        "cases": sum(len(e.cases) for e in entries),
        "plots": sum(len(e.plots) for e in entries),
        "pages": sum(1 for _ in (work / "out").rglob("index.html")),
        "ours_first": summary(first),
        "ours_full": summary(full),
        "floor": summary(floor),
    }


FACTOR = 10  # how much larger the generated bank is


def scaling(work: Path, runs: int, factor: int = FACTOR) -> dict:
    """The full build of the bank and of one ``factor`` times larger (scaled_bank.generate),
    runs interleaved, each cache warm: the larger bank's own .cache/ (a copy of ours, so its copies'
    YAML and QR codes are all it adds, made by a first build), ours left as it is.
    {"one", "many": summary, "bank": the generated folder, "cache": its cache, "entries", ...}."""
    bank = work / f"bank-{factor}x"
    made = scaled_bank.generate(bank, factor)
    cache = work / f"cache-{factor}x"
    if (ROOT / ".cache").exists():
        shutil.copytree(ROOT / ".cache", cache)
    larger = reader(work, DERIVATION_BANK_CACHE=str(cache))
    one_cmd = [*OURS, "build", "--out", str(work / "out-1x")]
    many_cmd = [*OURS, "--entries", str(bank), "build", "--out", str(work / f"out-{factor}x")]
    _timed(one_cmd, ROOT, reader(work))
    _timed(many_cmd, ROOT, larger)  # fills the larger bank's cache
    one, many = [], []
    for _ in range(runs):
        one.append(_timed(one_cmd, ROOT, reader(work)))
        many.append(_timed(many_cmd, ROOT, larger))
    return {
        "factor": factor,
        "one": summary(one),
        "many": summary(many),
        "bank": bank,
        "cache": cache,
        "entries": made["entries"],
        "plans": made["plans"],
        "pages": sum(1 for _ in (work / f"out-{factor}x").rglob("index.html")),
        "load": os.getloadavg(),
    }


def scaling_report(found: dict, served: dict) -> tuple[list[tuple[str, bool, str]], list[str]]:
    """(target rows, the report's section) from ``scaling``'s figures and serve's on the larger
    bank (serve_edit.edits_served)."""
    n, one, many, ours = found["factor"], found["one"], found["many"], served["ours"]
    grew = many["median"] / one["median"]
    ms = lambda s: f"{s * 1000:.0f} ms"  # noqa: E731
    load = lambda avg: f"{avg[0]:.1f}, {avg[1]:.1f}, {avg[2]:.1f}"  # noqa: E731
    targets = [
        (
            f"Full build of a bank {n}× larger ≤ {n}× the bank's",
            grew <= n,
            f"{grew:.1f}× ({many['median']:.2f} s against {one['median']:.2f} s)",
        ),
        (
            f"An entry edit on the page ≤ 100 ms after the save, in a bank {n}× larger (p95, served)",
            ours["p95"] <= 0.1,
            f"p50 {ms(ours['p50'])}, p95 {ms(ours['p95'])}",
        ),
    ]
    section = [
        "## How cost grows",
        "",
        f"A bank {n} times larger, generated from copies of the real entries and plans "
        f"(`benchmarks/scaled_bank.py`: {found['entries']} entries, {found['plans']} plans, built into "
        f"{found['pages']} pages; each copy a toolkit entry with its own id, file and case ids, its versions the "
        "original's), built by the same command as the bank, runs interleaved, both caches warm:",
        "",
        "| full build | time | against the bank |",
        "|---|---|---|",
        f"| the bank | {fmt(one)} | 1× |",
        f"| {n}× the bank | {fmt(many)} | **{grew:.1f}×** |",
        "",
        f"`serve` on a copy of the larger bank ({served['entries']} entries), `/35/`'s statement edited "
        f"{served['edits']} times as above: save to rebuilt p50 {ms(ours['p50'])}, p95 {ms(ours['p95'])}, "
        f"max {ms(ours['max'])} (n={ours['n']}).",
        "",
        f"Load average (1, 5, 15 min) after the builds: {load(found['load'])}; after the edits: "
        f"{load(served['load'])}; on {os.cpu_count()} cores.",
        "",
    ]
    return targets, section
