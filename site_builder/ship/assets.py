"""Files the pages link: our own static files (versioned by content) and vendored npm packages.

Vendored packages are served from versioned folders (/pyodide/<v>/, /katex/<v>/,
/vendor/<name>/<v>/) that never change, so hosts may cache them forever.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..tex.math import katex_fonts_css, shipped_katex_rules
from .minify import LOADERS, minified

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "pyodide_app"
RUNTIME = Path(__file__).resolve().parents[1] / "runtime"
NODE_MODULES = ROOT / "node_modules"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
WORKBOX_MODULES = ("workbox-core", "workbox-precaching", "workbox-routing", "workbox-strategies")


def digest(*chunks: bytes) -> str:
    h = hashlib.sha256()
    for chunk in chunks:
        h.update(chunk)
    return h.hexdigest()[:10]


def package_version(name: str) -> str:
    return json.loads((NODE_MODULES / name / "package.json").read_text())["version"]


@dataclass(frozen=True)
class Assets:
    """URLs of everything a page links."""

    style: str
    early_js: str
    site_js: str
    page_js: str
    python_js: str  # unversioned: page.js imports it by this URL, and both must get one instance
    alias_js: str
    katex_fonts_css: str  # KaTeX's @font-face rules, linked by every page with math
    katex_fonts: tuple[str, ...]  # what every entry's math uses, preloaded
    pyodide: str
    stdlib: str
    snapshot: str
    xz_decoder: str
    pyodide_lock_info: str
    minisearch: str
    uplot_js: str
    uplot_css: str
    turbo: str  # Turbo Drive: links between pages keep the page's Python (site.js starts it)
    search_index: str
    runtime: tuple[str, ...]
    version: str
    qr_js: str = ""  # the QR encoder, loaded only when a reader opens the QR code
    plan_js: str = ""  # a plan's page (pyodide_app/plan.js, plan.css)
    plan_css: str = ""
    embed_css: str = ""  # the embed card's rules (pyodide_app/embed.css), which early.js links on a card
    compare_css: str = ""  # an entry's comparison and its every-preset tables (pyodide_app/compare.js, every.js)
    progress_js: str = ""  # the chapters page's overview of the reader's records (pyodide_app/progress.js)


def _as_module(umd: bytes) -> bytes:
    """xz-decompress ships one UMD script; the worker imports modules.  Run it with a CommonJS
    ``module`` of its own and export what it defines (it needs nothing from ``require``)."""
    return (
        b"// xz-decompress, its UMD build wrapped as a module by the site build.\n"
        b"const module = { exports: {} }; const exports = module.exports; const require = () => ({});\n"
        + umd
        + b"\nexport const { XzReadableStream } = module.exports;\n"
    )


# Turbo's progress bar brings its own <style> element, which the site's policy (style-src 'self')
# refuses: the build leaves out the line that inserts it, and style.css styles the bar instead.
TURBO_INLINE_STYLE = "document.head.insertBefore(this.stylesheetElement, document.head.firstChild);"


def _turbo(source: bytes) -> bytes:
    text = source.decode()
    assert text.count(TURBO_INLINE_STYLE) == 1, "Turbo's progress bar changed: review its <style> before upgrading"
    return text.replace(TURBO_INLINE_STYLE, "/* styled by the site's style.css: no inline <style> */").encode()


def vendored() -> dict[str, bytes | Path]:
    """Site path -> content (or a file to link) for every vendored npm file."""
    files: dict[str, bytes | Path] = {}
    pv = package_version("pyodide")
    for name in PYODIDE_FILES:
        files[f"pyodide/{pv}/{name}"] = NODE_MODULES / "pyodide" / name
    kv = package_version("katex")
    katex = NODE_MODULES / "katex" / "dist"
    # KaTeX's CSS is not shipped whole: each page's math stylesheet holds the rules its math uses,
    # and one stylesheet every page with math links declares the fonts (tex/math.py), named by its
    # content: /katex/ is cached for good, and the declarations are ours, not KaTeX's.
    fonts_css = katex_fonts_css(shipped_katex_rules()).encode()
    files[f"katex/{kv}/fonts-{digest(fonts_css)}.css"] = fonts_css
    for font in sorted((katex / "fonts").glob("*.woff2")):
        files[f"katex/{kv}/fonts/{font.name}"] = font
    uv = package_version("uplot")
    files[f"vendor/uplot/{uv}/uPlot.esm.js"] = NODE_MODULES / "uplot" / "dist" / "uPlot.esm.js"
    files[f"vendor/uplot/{uv}/uPlot.min.css"] = NODE_MODULES / "uplot" / "dist" / "uPlot.min.css"
    mv = package_version("minisearch")
    files[f"vendor/minisearch/{mv}/index.js"] = NODE_MODULES / "minisearch" / "dist" / "es" / "index.js"
    qv = package_version("uqr")
    files[f"vendor/uqr/{qv}/index.mjs"] = NODE_MODULES / "uqr" / "dist" / "index.mjs"
    xv = package_version("xz-decompress")
    files[f"vendor/xz-decompress/{xv}/xz-decompress.mjs"] = _as_module(
        (NODE_MODULES / "xz-decompress" / "dist" / "package" / "xz-decompress.min.js").read_bytes()
    )
    tv = package_version("@hotwired/turbo")
    files[f"vendor/turbo/{tv}/turbo.es2017-esm.js"] = _turbo(
        (NODE_MODULES / "@hotwired" / "turbo" / "dist" / "turbo.es2017-esm.js").read_bytes()
    )
    wv = package_version("workbox-sw")
    files[f"vendor/workbox/{wv}/workbox-sw.js"] = NODE_MODULES / "workbox-sw" / "build" / "workbox-sw.js"
    for module in WORKBOX_MODULES:
        files[f"vendor/workbox/{wv}/{module}.prod.js"] = NODE_MODULES / module / "build" / f"{module}.prod.js"
    return files


def static() -> dict[str, bytes]:
    """Our own browser files (our JavaScript and CSS minified: minify.py) and the Python runtime, by site path."""
    ours = [p for p in sorted(APP.iterdir()) if p.suffix in (".js", ".css", ".svg") and p.name != "sw.js"]
    shipped = minified({p.name: p.read_text(encoding="utf-8") for p in ours if p.suffix in LOADERS})
    files = {f"static/{p.name}": shipped.get(p.name) or p.read_bytes() for p in ours}
    for p in sorted(RUNTIME.glob("*.py")):
        files[f"static/runtime/{p.name}"] = p.read_bytes()
    return files


def versioned(path: str, content: bytes) -> str:
    return f"/{path}?v={digest(content)}"


@lru_cache(maxsize=4)
def _lock_info(lock: bytes) -> str:
    """pyodide-lock.json's ``info``, remembered by the file's bytes (a few hundred kB of JSON to parse)."""
    return json.dumps(json.loads(lock)["info"], sort_keys=True, separators=(",", ":"))


def assets(files: dict[str, bytes | Path], version: str) -> Assets:
    def url(path: str) -> str:
        return versioned(path, files[path])

    minisearch = next(p for p in files if p.startswith("vendor/minisearch/"))
    return Assets(
        style=url("static/style.css"),
        early_js=url("static/early.js"),
        site_js=url("static/site.js"),
        page_js=url("static/page.js"),
        python_js="/static/python.js",
        alias_js=url("static/alias.js"),
        katex_fonts_css="/" + next(p for p in files if p.startswith("katex/") and "/fonts-" in p),
        katex_fonts=tuple(
            f"/katex/{package_version('katex')}/fonts/KaTeX_{name}.woff2" for name in ("Main-Regular", "Math-Italic")
        ),
        pyodide=f"/pyodide/{package_version('pyodide')}/",
        minisearch="/" + minisearch,
        stdlib="/" + next(p for p in files if "/stdlib-startup-" in p),
        snapshot="/" + next(p for p in files if p.startswith("snapshot/")),
        xz_decoder="/" + next(p for p in files if p.startswith("vendor/xz-decompress/")),
        pyodide_lock_info=_lock_info((NODE_MODULES / "pyodide" / "pyodide-lock.json").read_bytes()),
        uplot_js="/" + next(p for p in files if p.endswith("uPlot.esm.js")),
        uplot_css="/" + next(p for p in files if p.endswith("uPlot.min.css")),
        turbo="/" + next(p for p in files if p.startswith("vendor/turbo/")),
        search_index=url("search-index.json"),
        runtime=tuple(url(p) for p in files if p.startswith("static/runtime/")),
        version=version,
        qr_js="/" + next(p for p in files if p.startswith("vendor/uqr/")),
        plan_js=url("static/plan.js"),
        plan_css=url("static/plan.css"),
        progress_js=url("static/progress.js"),
        compare_css=url("static/compare.css"),
        embed_css=url("static/embed.css"),
    )
