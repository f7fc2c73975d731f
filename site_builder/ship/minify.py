"""Our JavaScript and CSS as the site ships them: minified by esbuild (``minify.mjs``).

Our sources explain themselves at length, and a reader's browser fetches every byte before the
page can act.  Shipped minified (comments and spaces gone, local names shortened; each file on its
own, its imports, exports, strings and behaviour as written), an entry page loads a sixth less of
our code than with the comments alone left out.  One Node process minifies every file not yet in
the build cache (.cache/minified.json, by esbuild's version and the source's text), so a build
with a warm cache, and serve after an edit, start Node only for what changed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from ..cache import Cache, key

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("minify.mjs")
ESBUILD = ROOT / "node_modules" / "esbuild"
LOADERS = {".js": "js", ".css": "css"}


class MinifyError(Exception):
    """A file esbuild cannot read (``pyodide_app/name:line:column: message``), or no Node.js or esbuild."""


def minified(files: dict[str, str]) -> dict[str, bytes]:
    """``{name: source}`` (each name ending .js or .css) -> ``{name: shipped bytes}``."""
    try:
        version = json.loads((ESBUILD / "package.json").read_text())["version"]
    except OSError:
        raise MinifyError("our JavaScript is minified by esbuild: run `npm ci` in the project folder") from None
    cache = Cache("minified")
    keys = {name: key(version, LOADERS[Path(name).suffix], source) for name, source in files.items()}
    todo = sorted(name for name, k in keys.items() if cache.get(k) is None)
    if todo:
        for name, answer in zip(todo, _run([[name, LOADERS[Path(name).suffix], files[name]] for name in todo])):
            if "error" in answer:
                raise MinifyError(f"pyodide_app/{answer['error']}")
            cache.put(keys[name], answer["code"])
        cache.save()
    return {name: cache.get(k).encode() for name, k in keys.items()}


def _run(batch: list[list[str]]) -> list[dict]:
    node = shutil.which("node")
    if node is None:
        raise MinifyError("our JavaScript is minified by esbuild, which needs Node.js")
    proc = subprocess.run(
        [node, str(SCRIPT)],
        input=json.dumps(batch),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "NODE_PATH": str(ROOT / "node_modules")},
    )
    if proc.returncode != 0:
        raise MinifyError(f"esbuild failed: {proc.stderr.strip()[:2000]}")
    return json.loads(proc.stdout)
