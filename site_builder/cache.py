"""Derived artefacts kept between builds in .cache/, keyed by a hash of everything they depend on.

A cache entry can only be reused for identical inputs, so a build with a warm cache
writes exactly what a cold one writes.  Deleting .cache/ is always safe.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .runtime.memo import remembered

ROOT = Path(__file__).resolve().parent.parent
FOLDER = Path(os.environ.get("DERIVATION_BANK_CACHE", ROOT / ".cache"))


def key(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else part.encode())
        h.update(b"\0")
    return h.hexdigest()[:32]


# A long-running process (serve) opens the same caches at every rebuild: each file is parsed
# again only when it changed on disk (another process saved it).
_parsed: dict[Path, tuple[tuple, dict]] = {}


def _stamp(path: Path) -> tuple:
    stat = path.stat()
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


def _read(path: Path) -> dict:
    try:
        stamp = _stamp(path)
        if path in _parsed and _parsed[path][0] == stamp:
            return dict(_parsed[path][1])
        values = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    _parsed[path] = (stamp, values)
    return dict(values)


class Cache:
    """One JSON file of key -> value; ``save`` writes it atomically when something was added."""

    def __init__(self, name: str):
        self.path = FOLDER / f"{name}.json"
        self.values = _read(self.path)
        self.dirty = False

    def get(self, k: str):
        return self.values.get(k)

    def put(self, k: str, value) -> None:
        self.values[k] = value
        self.dirty = True

    def save(self) -> None:
        if not self.dirty:
            return
        try:
            FOLDER.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(self.values, ensure_ascii=False, sort_keys=True))
            os.replace(tmp, self.path)
            _parsed[self.path] = (_stamp(self.path), self.values)
        except OSError:
            pass  # a read-only checkout builds without a cache
        self.dirty = False


def kept_for(memo: dict, item, make, also=None, bound: int = 8192):
    """``make()`` for a frozen ``item`` (an entry, a preset), kept in ``memo`` while the same object
    is asked again with the same ``also``: a long-running process (serve) asks for what each kept
    item yields at every rebuild.  Kept by identity (the item itself is kept too, so its id stays
    its own); a full ``memo`` (``bound``) starts again."""
    held = lambda found: found[0] is item and found[1] == also  # noqa: E731
    return remembered(memo, id(item), lambda: (item, also, make()), bound, still=held)[2]
