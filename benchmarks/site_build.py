"""Build speed: our full build, against its 1 s target; and the MkDocs project of the same
statements that serve_edit.py runs `mkdocs serve` on."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.common import summary
from site_builder.errors import Problems
from site_builder.load.load import load_all

ROOT = Path(__file__).resolve().parent.parent
KATEX = ROOT / "node_modules" / "katex" / "dist"
OURS = [sys.executable, "-m", "site_builder"]


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
        empty = {**os.environ, "DERIVATION_BANK_CACHE": str(work / f"empty-cache-{i}")}
        first.append(_timed([*OURS, "build", "--out", str(work / "first")], ROOT, empty))
    _timed([*OURS, "build", "--out", str(work / "out")], ROOT)  # the normal cache, warm
    full, floor = [], []
    for _ in range(runs):
        full.append(_timed([*OURS, "build", "--out", str(work / "out")], ROOT))
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
