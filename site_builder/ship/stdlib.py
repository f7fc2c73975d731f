"""The start-up standard library and the memory snapshot: what Python needs to boot and compute, precompiled.

Stock Pyodide compiles every stdlib module it imports from source at each page load.
The build asks Pyodide's own Python (in Node) which modules its boot, the site's runtime
and the formula allow-list import (and, by modulefinder, what the runtime's and allowed
modules' functions may import later), compiles exactly those and the runtime to .pyc,
and zips them.  It also saves Pyodide's memory after booting from that zip and importing
the runtime and the allowed modules: a page that restores it skips Python's start-up.
Pages fall back from the snapshot to the zip to the stock stdlib if anything goes wrong.
Both are cached by a hash of every input.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
from pathlib import Path

from ..cache import FOLDER, key
from ..runtime.calculator import ALLOWED_IMPORTS
from .assets import NODE_MODULES, RUNTIME, package_version

SCRIPT = Path(__file__).with_name("stdlib.mjs")
ROOT = Path(__file__).resolve().parents[2]


class StdlibFailed(RuntimeError):
    """Pyodide could not produce the start-up stdlib and the snapshot (the build needs Node.js and `npm ci`)."""


PAGE = 4096
SPARSE_MAGIC = b"DBSPARSE"


def sparse(memory: bytes) -> bytes:
    """Pyodide's memory without its empty pages: about 12 MB of 30 MiB, so the browser has
    less to unzip and hand over.  Layout (little-endian): magic, memory size (u32), page size
    (u32), one bit per page (set: stored, in order after the bitmap), the stored pages.
    pyodide_app/snapshot.js reads it back."""
    count = -(-len(memory) // PAGE)
    bits = bytearray(-(-count // 8))
    stored = []
    zero = bytes(PAGE)
    for i in range(count):
        page = memory[i * PAGE : (i + 1) * PAGE]
        if page != zero[: len(page)]:
            bits[i // 8] |= 1 << (i % 8)
            stored.append(page)
    return b"".join([SPARSE_MAGIC, len(memory).to_bytes(4, "little"), PAGE.to_bytes(4, "little"), bytes(bits), *stored])


def startup_files() -> tuple[bytes, Path, str]:
    """The start-up stdlib zip; the path of the memory snapshot made from it (sparse, then gzipped:
    30 MiB of memory, 12 MB not empty, 4 MB stored); and the hash of their inputs (a version)."""
    runtime = {p.name: p.read_text() for p in sorted(RUNTIME.glob("*.py"))}
    inputs = {"runtime": runtime, "allowed": sorted(ALLOWED_IMPORTS)}
    k = key(
        package_version("pyodide"), SCRIPT.read_text(), Path(__file__).read_text(), json.dumps(inputs, sort_keys=True)
    )
    zip_path, snapshot = FOLDER / f"stdlib-{k}.zip", FOLDER / f"snapshot-{k}.bin.gz"
    if zip_path.exists() and snapshot.exists():
        return zip_path.read_bytes(), snapshot, k
    node = shutil.which("node")
    if node is None or not (NODE_MODULES / "pyodide").is_dir():
        raise StdlibFailed("needs Node.js and `npm ci` (the pyodide package)")
    FOLDER.mkdir(parents=True, exist_ok=True)
    tmp_zip, tmp_snapshot = (p.with_suffix(f".{os.getpid()}.tmp") for p in (zip_path, snapshot))
    payload = json.dumps({**inputs, "zip": str(tmp_zip), "snapshot": str(tmp_snapshot)})
    try:
        proc = subprocess.run([node, str(SCRIPT)], input=payload, capture_output=True, text=True, cwd=ROOT, timeout=300)
        if proc.returncode != 0:
            raise StdlibFailed(proc.stderr.strip()[-2000:])
        tmp_snapshot.write_bytes(gzip.compress(sparse(tmp_snapshot.read_bytes()), 9, mtime=0))
        os.replace(tmp_snapshot, snapshot)
        os.replace(tmp_zip, zip_path)
    finally:
        for tmp in (tmp_zip, tmp_snapshot):
            tmp.unlink(missing_ok=True)
    return zip_path.read_bytes(), snapshot, k
