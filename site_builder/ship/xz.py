"""Pyodide's two big downloads, xz-compressed for readers on a far server.

Hosts send the WebAssembly gzipped (3.5 MB) and the start-up stdlib as it is stored (a zip
of .pyc, 2.9 MB: hosts do not compress archives).  xz makes them 2.6 MB and 0.8 MB.  No
browser decodes xz by itself: the worker does, as the bytes arrive (pyodide_app/xz.js, with
the xz-decompress package, vendored as a module by assets.py).  That costs CPU, so only pages
on a far server fetch these; near pages, and files already in the browser's cache, take the
files as they are.  Each is compressed once per content and kept in .cache/.
"""

from __future__ import annotations

import lzma
import os
from pathlib import Path

from ..cache import FOLDER, key

MAX_DICT = 1 << 26


def _dict_size(length: int) -> int:
    """The smallest power of two that holds the whole file: the decoder allocates this much."""
    size = 1 << 20
    while size < length and size < MAX_DICT:
        size <<= 1
    return size


def compressed(source: bytes | Path, version: str) -> Path:
    """The .xz of ``source`` (with a CRC32 check, which the decoder verifies), cached by
    ``version``: whatever names the content (a versioned path, or one with a digest)."""
    path = FOLDER / f"xz-{key('xz', version)}.xz"
    if not path.exists():
        data = source.read_bytes() if isinstance(source, Path) else source
        filters = [{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": _dict_size(len(data))}]
        packed = lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, filters=filters)
        FOLDER.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(packed)
        os.replace(tmp, path)
    return path
