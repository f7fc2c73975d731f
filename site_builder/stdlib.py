"""The start-up standard library: what Python needs to boot and compute, precompiled.

Stock Pyodide compiles every stdlib module it imports from source at each page load.
The build asks Pyodide's own Python (in Node) which modules its boot, the site's runtime
and the formula allow-list import (and, by modulefinder, what their functions may import
later), compiles exactly those to .pyc, and zips them.  Pages boot from that zip and fall
back to the stock stdlib if anything goes wrong.  Cached by a hash of every input.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
from pathlib import Path

from .assets import NODE_MODULES, RUNTIME, package_version
from .cache import FOLDER, key
from .runtime.calculator import ALLOWED_IMPORTS

SCRIPT = Path(__file__).with_name("stdlib.mjs")
ROOT = Path(__file__).resolve().parent.parent


class StdlibFailed(RuntimeError):
    """Pyodide could not produce the start-up stdlib (pages then boot from the stock one)."""


def startup_zip() -> bytes:
    runtime = {p.name: p.read_text() for p in sorted(RUNTIME.glob("*.py"))}
    payload = json.dumps({"runtime": runtime, "allowed": sorted(ALLOWED_IMPORTS)}, sort_keys=True)
    cached = FOLDER / f"stdlib-{key(package_version('pyodide'), SCRIPT.read_text(), payload)}.zip"
    if cached.exists():
        return cached.read_bytes()
    node = shutil.which("node")
    if node is None or not (NODE_MODULES / "pyodide").is_dir():
        raise StdlibFailed("needs Node.js and `npm ci` (the pyodide package)")
    proc = subprocess.run([node, str(SCRIPT)], input=payload, capture_output=True, text=True, cwd=ROOT, timeout=300)
    if proc.returncode != 0:
        raise StdlibFailed(proc.stderr.strip()[-2000:])
    data = base64.b64decode(proc.stdout)
    FOLDER.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, cached)
    return data
