"""The site server for measurements: counts the bytes it sends, and can simulate a slow link.

The link (bandwidth shared by all requests, plus a fixed latency per request) is simulated
by the server itself, so it applies to every request, the worker's Pyodide downloads
included.  /__bench__/ serves the bare stock-Pyodide page.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from site_builder.serve.host import Handler, SiteServer

BARE = Path(__file__).parent / "bare"


class Link:
    """A token bucket: ``bits_per_s`` shared by every response, ``latency_s`` before each one."""

    def __init__(self, bits_per_s: float | None = None, latency_s: float = 0.0):
        self.rate = bits_per_s / 8 if bits_per_s else None
        self.latency = latency_s
        self.lock = threading.Lock()
        self.next_free = 0.0
        self.sent = 0

    def send(self, write, data: bytes) -> None:
        for i in range(0, len(data), 16384):
            chunk = data[i : i + 16384]
            if self.rate:
                with self.lock:
                    start = max(time.perf_counter(), self.next_free)
                    self.next_free = start + len(chunk) / self.rate
                    wait = self.next_free - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
            write(chunk)
            with self.lock:
                self.sent += len(chunk)


class _Counted:
    def __init__(self, raw, link: Link):
        self.raw, self.link = raw, link

    def write(self, data) -> int:
        self.link.send(self.raw.write, bytes(data))
        return len(data)

    def flush(self):
        self.raw.flush()

    def __getattr__(self, name):
        return getattr(self.raw, name)


class BenchHandler(Handler):
    link: Link = Link()

    def setup(self):
        super().setup()
        self.wfile = _Counted(self.wfile, self.link)

    def translate_path(self, path):
        if path.startswith("/__bench__/"):
            name = path.split("?")[0][len("/__bench__/") :] or "index.html"
            return str(BARE / name)
        return super().translate_path(path)

    def send_head(self):
        if self.link.latency:
            time.sleep(self.link.latency)
        return super().send_head()


class BenchServer(SiteServer):
    """The site server with ``link`` between it and the browser; it serves from the moment it is made."""

    def __init__(self, folder: Path, link: Link):
        super().__init__(folder, handler=BenchHandler, link=link)
        self.link = link
        self.thread.start()

    def __enter__(self):
        return self  # already serving

    def close(self):
        self.__exit__()
