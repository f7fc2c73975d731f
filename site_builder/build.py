"""The build: entries -> ``{path: bytes}`` -> an output folder swapped in atomically.

``build`` computes the whole site in memory and touches no disk but for reading;
``write_site`` is the one function that writes, into a temporary folder that replaces
the old site only once complete.  A failed build leaves the last good site as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from . import check, math
from .entry import Entry
from .errors import BuildFailed, Problems
from .load import load_all
from .render import Assets, Renderer
from .runtime.calculator import Calculator
from .runtime.numbers import write_input

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "pyodide_app"
RUNTIME = Path(__file__).resolve().parent / "runtime"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def _digest(*chunks: bytes) -> str:
    h = hashlib.sha256()
    for chunk in chunks:
        h.update(chunk)
    return h.hexdigest()[:10]


def _package_version(name: str) -> str:
    return json.loads((ROOT / "node_modules" / name / "package.json").read_text())["version"]


def vendored_files() -> dict[str, Path]:
    """Site path -> file on disk for Pyodide and KaTeX's CSS and fonts, under versioned folders."""
    files = {}
    pyodide = ROOT / "node_modules" / "pyodide"
    for name in PYODIDE_FILES:
        files[f"pyodide/{_package_version('pyodide')}/{name}"] = pyodide / name
    katex = math.katex_dir() / "dist"
    kv = _package_version("katex")
    files[f"katex/{kv}/katex.min.css"] = katex / "katex.min.css"
    for font in sorted((katex / "fonts").glob("*.woff2")):
        files[f"katex/{kv}/fonts/{font.name}"] = font
    return files


def _static_files() -> dict[str, bytes]:
    files = {f"static/{p.name}": p.read_bytes() for p in sorted(APP.iterdir()) if p.suffix in (".js", ".css", ".svg")}
    for p in sorted(RUNTIME.glob("*.py")):
        files[f"static/runtime/{p.name}"] = p.read_bytes()
    return files


def _versioned(path: str, content: bytes) -> str:
    return f"/{path}?v={_digest(content)}"


def _katex_css_without_remote_fonts(css: bytes) -> bytes:
    """KaTeX's CSS lists woff, ttf and woff2 fonts; we ship woff2 only, which every current browser reads."""
    text = css.decode()
    import re
    text = re.sub(r',url\(fonts/[^)]+\.woff\) format\("woff"\)', "", text)
    text = re.sub(r',url\(fonts/[^)]+\.ttf\) format\("truetype"\)', "", text)
    return text.encode()


def collect(entries_dir: Path) -> tuple[list[Entry], dict[str, Calculator], dict]:
    """Load, check and typeset, or BuildFailed with every problem found."""
    problems = Problems()
    entries = load_all(entries_dir, problems)
    calculators = check.check_entries(entries, problems, tex=False)
    typeset = check.check_tex(entries, problems) if entries else {}
    if problems:
        raise BuildFailed(problems)
    return entries, calculators, typeset


def _case_rows(entry: Entry, calc: Calculator) -> dict:
    symbols = {i.name: i.symbol or i.name for i in entry.inputs}
    labels = {o.name: o.label for o in entry.outputs}
    formats = {o.name: o for o in entry.outputs}
    rows = {}
    for case in entry.cases:
        run = calc.run(case.inputs)
        checks = []
        for c in case.checks:
            value = run["outputs"][c.output]["value"]
            if c.index is not None:
                text = Calculator.write(formats[c.output].spec(), value[c.index])
                label = f"{labels[c.output]} [{c.index + 1}]"
            else:
                text, label = run["outputs"][c.output]["text"], labels[c.output]
            checks.append((c, text, label))
        inputs = [(symbols[name], write_input(value)) for name, value in case.inputs.items()]
        rows[case.id] = {"inputs": inputs, "checks": checks}
    return rows


def build(entries_dir: Path) -> tuple[dict[str, bytes], dict]:
    """The whole site as ``{path: bytes}`` (vendored files as paths to copy), and counts for the summary."""
    entries, calculators, typeset = collect(entries_dir)
    static = _static_files()
    vendored = vendored_files()
    katex_css_path = next(p for p in vendored if p.endswith("katex.min.css"))
    katex_css = _katex_css_without_remote_fonts(vendored.pop(katex_css_path).read_bytes())
    source_hash = _digest(*(p.read_bytes() for p in sorted(Path(entries_dir).glob("*.yaml"))), *static.values())
    assets = Assets(
        style=_versioned("static/style.css", static["static/style.css"]),
        page_js=_versioned("static/page.js", static["static/page.js"]),
        katex_css="/" + katex_css_path,
        pyodide=f"/pyodide/{_package_version('pyodide')}/",
        runtime=tuple(_versioned(p, c) for p, c in static.items() if p.startswith("static/runtime/")),
        version=source_hash,
    )
    renderer = Renderer(entries, typeset, assets)
    files: dict[str, bytes | Path] = {**static, **vendored, katex_css_path: katex_css}
    files["index.html"] = renderer.index().encode()
    files["404.html"] = renderer.not_found().encode()
    for entry in entries:
        calc = calculators[entry.key]
        page = renderer.entry(entry, calc.run({}), _case_rows(entry, calc))
        files[entry.url.strip("/") + "/index.html"] = page.encode()
    counts = {"pages": len(entries) + 1, "entries": len(entries), "cases": sum(len(e.cases) for e in entries)}
    return files, counts


def write_site(files: dict[str, bytes | Path], out: Path) -> None:
    """Write every file into a fresh folder beside ``out``, then swap it in."""
    out = Path(out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-new-", dir=out.parent))
    try:
        for rel, content in sorted(files.items()):
            target = tmp / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, Path):
                try:
                    os.link(content, target)
                except OSError:
                    shutil.copyfile(content, target)
            else:
                target.write_bytes(content)
        old = out.with_name(f".{out.name}-old")
        if old.exists():
            shutil.rmtree(old)
        if out.exists():
            out.rename(old)
        tmp.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def build_site(entries_dir: Path, out: Path) -> str:
    start = time.perf_counter()
    files, counts = build(entries_dir)
    write_site(files, out)
    seconds = time.perf_counter() - start
    return (f"built {counts['pages']} pages ({counts['entries']} entries), "
            f"{counts['cases']} cases reproduced, in {seconds:.2f} s -> {out}")
