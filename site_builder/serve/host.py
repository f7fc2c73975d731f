"""The production host's rules, as a local server: the built site on 127.0.0.1 only, with the
headers and redirects of netlify.toml applied, so that ``serve`` and the browser tests see the
site as the production host serves it.
"""

from __future__ import annotations

import fnmatch
import functools
import gzip
import http.server
import io
import threading
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

from ..pages.urls import NETLIFY

TYPES = {
    ".wasm": "application/wasm",
    ".snapshot": "application/octet-stream",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".py": "text/x-python",
    ".zip": "application/zip",
    ".xz": "application/x-xz",
    ".json": "application/json",
    ".woff2": "font/woff2",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
}


def host_rules(path: Path = NETLIFY) -> tuple[list[dict], list[dict]]:
    """([{for, values}], [{from, to, status}]) from netlify.toml."""
    if not path.exists():
        return [], []
    config = tomllib.loads(path.read_text(encoding="utf-8"))
    return config.get("headers", []), config.get("redirects", [])


def _matches(pattern: str, path: str) -> bool:
    """Netlify's path patterns: exact, or '*' standing for any rest of the path."""
    return fnmatch.fnmatchcase(path, pattern)


# As hosts do: text and WebAssembly, not archives (far pages fetch the zip xz-compressed).
COMPRESSIBLE = {".html", ".css", ".js", ".mjs", ".json", ".svg", ".py", ".wasm", ".webmanifest", ".txt"}


@functools.lru_cache(maxsize=512)
def _gzipped(path: str, mtime_ns: int) -> bytes:
    return gzip.compress(Path(path).read_bytes(), 6, mtime=0)


def headers_for(rules: list[dict], path: str) -> dict[str, str]:
    """As the host does: every matching rule applies, a later one overriding an earlier same-named header."""
    merged: dict[str, str] = {}
    for rule in rules:
        if _matches(rule["for"], path):
            for name, value in rule.get("values", {}).items():
                merged[name] = " ".join(str(value).split())
    return merged


def _servable(target: Path, directory) -> Path:
    """``target``, or a file that is not there when no file could have its name (a path too long
    for the file system): a 404, as the host answers, not a dropped connection."""
    try:
        target.exists()
    except OSError:
        return Path(directory) / ".no-such-file"
    return target


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    headers_rules: list = []
    redirect_rules: list = []
    protocol_version = "HTTP/1.1"  # connections kept open between requests, as hosts do

    def log_message(self, format, *args):  # quiet: tests and serve print their own lines
        pass

    def end_headers(self):
        for name, value in headers_for(self.headers_rules, urlsplit(self.path).path).items():
            self.send_header(name, value)
        super().end_headers()

    def _redirect(self) -> bool:
        path = urlsplit(self.path).path
        for rule in self.redirect_rules:
            if rule["from"] == path and rule.get("status", 301) in (301, 302, 308):
                self.send_response(rule.get("status", 301))
                query = urlsplit(self.path).query
                self.send_header("Location", rule["to"] + (f"?{query}" if query else ""))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return True
        return False

    def _send_gzip(self, target: Path):
        """As the production host does: compressible files go gzip-encoded to clients that accept it."""
        stat = target.stat()
        if self.headers.get("If-Modified-Since") == self.date_time_string(stat.st_mtime):
            self.send_response(304)
            self.end_headers()
            return None
        body = _gzipped(str(target), stat.st_mtime_ns)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(target)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        self.end_headers()
        return io.BytesIO(body)

    def send_head(self):
        if self._redirect():
            return None
        target = _servable(Path(self.translate_path(self.path)), self.directory)
        if target.is_dir() and (target / "index.html").is_file() and self.path.split("?")[0].endswith("/"):
            target = target / "index.html"
        if target.is_file() and target.suffix in COMPRESSIBLE and "gzip" in self.headers.get("Accept-Encoding", ""):
            return self._send_gzip(target)
        not_found = Path(self.directory) / "404.html"
        if not target.exists() and not_found.exists():
            body = not_found.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)
        return super().send_head()


class QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        """A browser that closes a connection mid-download is no error of ours."""
        import sys

        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


class SiteServer:
    """The built site on 127.0.0.1:port in a background thread; a context manager."""

    def __init__(self, folder: Path, port: int = 0, handler: type = Handler, **handler_attributes):
        headers, redirects = host_rules()
        handler = type(
            "SiteHandler", (handler,), {"headers_rules": headers, "redirect_rules": redirects, **handler_attributes}
        )
        self.httpd = QuietServer(("127.0.0.1", port), functools.partial(handler, directory=str(folder)))
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> SiteServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
