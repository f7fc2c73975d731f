"""TeX -> HTML+MathML through KaTeX from the npm package: the only module that knows how KaTeX runs.

All fragments of a build go to one Node process.  No KaTeX JavaScript reaches the browser;
pages carry the rendered markup and link KaTeX's CSS and fonts from our own site.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(__file__).with_name("katex.mjs")


@dataclass(frozen=True)
class Typeset:
    html: str | None
    error: str | None = None


class MathToolMissing(RuntimeError):
    """Node or the katex npm package is not installed."""


def katex_dir() -> Path:
    return ROOT / "node_modules" / "katex"


def katex_version() -> str:
    return json.loads((katex_dir() / "package.json").read_text())["version"]


def typeset(fragments: list[tuple[str, bool]]) -> list[Typeset]:
    """Each (tex, display) fragment typeset, in order; errors are KaTeX's own words."""
    unique = list(dict.fromkeys(fragments))
    if not unique:
        return []
    node = shutil.which("node")
    if node is None or not katex_dir().is_dir():
        raise MathToolMissing("KaTeX needs Node.js and `npm ci` in the project folder")
    env = {**os.environ, "NODE_PATH": str(ROOT / "node_modules")}
    proc = subprocess.run(
        [node, str(SCRIPT)], input=json.dumps(unique), capture_output=True, text=True, cwd=ROOT, env=env,
    )
    if proc.returncode != 0:
        raise MathToolMissing(f"KaTeX process failed: {proc.stderr.strip()[:2000]}")
    results = dict(zip(unique, json.loads(proc.stdout)))
    return [Typeset(results[f].get("html"), results[f].get("error")) for f in fragments]
