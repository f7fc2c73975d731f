"""Build speed: our build against MkDocs (mkdocs-material with KaTeX) on the same statements."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from site_builder.errors import Problems
from site_builder.load import load_all

ROOT = Path(__file__).resolve().parent.parent
KATEX = ROOT / "node_modules" / "katex" / "dist"


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
    entries = load_all(ROOT / "entries", Problems())
    copy = work / "entries"
    shutil.copytree(ROOT / "entries", copy)
    project = work / "mkdocs"
    mkdocs_project(project, entries)
    ours = [sys.executable, "-m", "site_builder"]
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "--quiet", "--site-dir", str(work / "mkdocs-site")]

    first = []
    for i in range(max(2, runs // 3)):
        empty = {**os.environ, "DERIVATION_BANK_CACHE": str(work / f"empty-cache-{i}")}
        first.append(_timed([*ours, "build", "--out", str(work / "first")], ROOT, empty))
    _timed([*ours, "build", "--out", str(work / "out")], ROOT)  # the normal cache, warm
    full, incremental, mk_full, mk_incremental, floor = [], [], [], [], []
    changed = copy / next(p.name for p in sorted(copy.glob("35-*.yaml")))
    page = project / "docs" / "35.md"
    for i in range(runs):  # interleaved, so both tools meet the same machine state
        full.append(_timed([*ours, "build", "--out", str(work / "out")], ROOT))
        mk_full.append(_timed(mkdocs, project))
        text = changed.read_text().replace(
            "derived from what is stored and per what.", f"derived from what is stored and per what (edit {i})."
        )
        changed.write_text(text)
        incremental.append(_timed([*ours, "--entries", str(copy), "build", "--out", str(work / "out2")], ROOT))
        page.write_text(page.read_text() + f"\nEdit {i}.\n")
        mk_incremental.append(_timed(mkdocs, project))
        # Where a Python build starts from: the interpreter importing a template engine and a YAML parser.
        floor.append(_timed([sys.executable, "-c", "import jinja2, yaml"], ROOT))
    from benchmarks.run import summary

    return {
        "entries": len(entries),
        "pages": sum(1 for _ in (work / "out").rglob("index.html")),
        "ours_first": summary(first),
        "ours_full": summary(full),
        "ours_incremental": summary(incremental),
        "mkdocs_full": summary(mk_full),
        "mkdocs_incremental": summary(mk_incremental),
        "floor": summary(floor),
    }
