"""The service worker: Workbox precaching of the whole site, with a manifest of content revisions.

This does what Workbox's injectManifest does: the build lists every file with a hash of
its content and writes that list into pyodide_app/sw.js in place of self.__WB_MANIFEST.
A changed file changes sw.js, which is how browsers learn of a new version.
"""

from __future__ import annotations

import json
from pathlib import Path

from .assets import APP, digest, package_version

PLACEHOLDER = "self.__WB_MANIFEST"
NOT_PRECACHED = ("_redirects",)


def manifest(files: dict[str, bytes | Path]) -> list[dict]:
    entries = []
    for path in sorted(files):
        # The memory snapshot (4 MB) is fetched only where bytes are cheap; offline, pages boot from the zip.
        # The .xz copies are for far pages' first visit; a page boots from the precached files as they are.
        if path.endswith(("qr.svg", ".xz")) or path.startswith("snapshot/") or path in NOT_PRECACHED:
            continue
        content = files[path]
        data = content.read_bytes() if isinstance(content, Path) else content
        url = "/" + (path[: -len("index.html")] if path.endswith("index.html") else path)
        entries.append({"url": url, "revision": digest(data)})
    return entries


def service_worker(files: dict[str, bytes | Path]) -> bytes:
    source = (APP / "sw.js").read_text()
    source = source.replace("WORKBOX_VERSION", package_version("workbox-sw"))
    listing = json.dumps(manifest(files), separators=(",", ":"))
    assert PLACEHOLDER in source, "sw.js must contain self.__WB_MANIFEST"
    return source.replace(PLACEHOLDER, listing).encode()
