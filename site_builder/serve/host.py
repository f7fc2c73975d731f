"""The production host's rules, as a local server: the built site on 127.0.0.1 only, with the
headers and redirects of netlify.toml applied as Netlify applies them, so that ``serve`` and the
browser tests see the site as the production host serves it.

Netlify's own engines (npm's ``@netlify/headers`` and ``@netlify/redirects``) are the reference:
tests/serve/test_host_netlify.py asks them, for every built path and every alias, what Netlify sends,
and holds this server to it.  A rule this server cannot apply as Netlify would (a splat, a
placeholder, a condition, a rewrite) is refused when netlify.toml is read, not skipped.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import io
import re
import threading
import tomllib
from pathlib import Path
from urllib.parse import unquote, urlsplit

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

# The redirect fields this server applies; any other (query, conditions, signed, headers) it refuses.
REDIRECT_FIELDS = {"from", "to", "status", "force"}


def host_rules(path: Path = NETLIFY) -> tuple[list[dict], list[dict]]:
    """([{for, values}], [{from, to, status, force}]) from netlify.toml, normalized as Netlify's
    parsers do (values trimmed, comma lists as ``a, b``, a status of 301 unless given)."""
    if not path.exists():
        return [], []
    config = tomllib.loads(path.read_text(encoding="utf-8"))
    headers = [
        {"for": rule["for"].strip(), "values": {name.strip(): _value(v) for name, v in rule["values"].items()}}
        for rule in config.get("headers", [])
        if rule.get("values")
    ]
    redirects = [_redirect_rule(rule) for rule in config.get("redirects", [])]
    return headers, redirects


def _value(raw) -> str:
    """A header's value as @netlify/headers-parser normalizes it: trimmed, each comma of a list
    followed by one space; a TOML array is a comma list."""
    if isinstance(raw, list):
        return ", ".join(_value(item) for item in raw)
    if not isinstance(raw, str):
        raise ValueError(f"netlify.toml: a header's value must be a string, not {raw!r}")
    return re.sub(r"\s*,\s*", ", ", raw.strip())


def _redirect_rule(rule: dict) -> dict:
    source = rule.get("from", "")
    unknown = set(rule) - REDIRECT_FIELDS
    status = rule.get("status", 301)
    if unknown or "*" in source or "/:" in source or not 300 <= status < 400 or not source.startswith("/"):
        raise ValueError(
            f"netlify.toml: the local host applies redirects from one path to another (3xx, optionally"
            f" forced), as Netlify does; teach site_builder/serve/host.py this one first: {rule!r}"
        )
    return {"from": source, "to": rule["to"], "status": status, "force": bool(rule.get("force", False))}


@functools.lru_cache(maxsize=256)
def _for_pattern(pattern: str) -> re.Pattern:
    """A ``for`` path as @netlify/headers-parser compiles it (its for_regexp.js): segments, a
    standalone ``*`` standing for any rest (empty too), ``:name`` for one segment, ``*`` inside
    a segment for anything; an optional trailing slash; letters of either case."""

    def part(segment: str) -> str:
        if segment.startswith(":"):
            return "([^/]+)"
        if segment == "*":
            return "?(.*)"
        if "*" in segment:
            return "(.*)".join(re.escape(piece) for piece in segment.split("*"))
        return re.escape(segment)

    segments = [s.rstrip() for s in pattern.split("/")]
    return re.compile("^/" + "/".join(part(s) for s in segments if s) + "/?$", re.IGNORECASE)


def headers_for(rules: list[dict], path: str) -> dict[str, str]:
    """As Netlify does: every matching rule applies, a later one overriding an earlier same-named header."""
    merged: dict[str, tuple[str, str]] = {}  # by lower-case name: (name, value)
    for rule in rules:
        if _for_pattern(rule["for"]).match(path):
            merged.update({name.lower(): (name, value) for name, value in rule["values"].items()})
    return dict(merged.values())


def _without_slash(path: str) -> str:
    """Netlify's redirector matches a path with or without one trailing slash."""
    return path[:-1] if path.endswith("/") and len(path) > 1 else path


def redirect_for(rules: list[dict], path: str, has_file) -> dict | None:
    """The first rule whose ``from`` is ``path`` (decoded, either side of a trailing slash; letters
    as written); one not forced only where no file answers (Netlify's shadowing)."""
    wanted = _without_slash(unquote(path))
    for rule in rules:
        if _without_slash(rule["from"]) == wanted:
            return rule if rule["force"] or not has_file() else None
    return None


def location(rule: dict, query: str) -> str:
    """Where a redirect sends: its target, with the request's query unless the target has its own."""
    return rule["to"] + (f"?{query}" if query and "?" not in rule["to"] else "")


# As hosts do: text and WebAssembly, not archives (far pages fetch the zip xz-compressed).
COMPRESSIBLE = {".html", ".css", ".js", ".mjs", ".json", ".svg", ".py", ".wasm", ".webmanifest", ".txt"}


@functools.lru_cache(maxsize=512)
def _gzipped(path: str, mtime_ns: int) -> bytes:
    return gzip.compress(Path(path).read_bytes(), 6, mtime=0)


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
    # Headers and body go out in two writes: with Nagle's algorithm on, the body waits for the
    # client's delayed acknowledgement of the headers (40 ms on Linux) on every kept-open connection.
    disable_nagle_algorithm = True

    def log_message(self, format, *args):  # quiet: tests and serve print their own lines
        pass

    def host_headers(self) -> dict[str, str]:
        """netlify.toml's headers for this request's path."""
        return headers_for(self.headers_rules, urlsplit(getattr(self, "path", "/")).path)

    def send_header(self, keyword, value):
        """A header netlify.toml sets replaces the server's own (as Netlify's custom headers do,
        Content-Type included): sent once, in ``end_headers``, with netlify.toml's value."""
        if keyword.lower() in {name.lower() for name in self.host_headers()}:
            return
        super().send_header(keyword, value)

    def end_headers(self):
        for name, value in self.host_headers().items():
            super().send_header(name, value)
        super().end_headers()

    def _has_file(self) -> bool:
        """Whether a file answers the request's path: the file, or a folder's index.html."""
        target = _servable(Path(self.translate_path(self.path)), self.directory)
        slash = urlsplit(self.path).path.endswith("/")
        return target.is_file() or (slash and (target / "index.html").is_file())

    def _redirect(self) -> bool:
        parts = urlsplit(self.path)
        rule = redirect_for(self.redirect_rules, parts.path, self._has_file)
        if rule is None:
            return False
        self.send_response(rule["status"])
        self.send_header("Location", location(rule, parts.query))
        self.send_header("Content-Length", "0")
        self.end_headers()
        return True

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
        # shutdown() waits for the loop to look again: every 50 ms, not the default 500
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> SiteServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
