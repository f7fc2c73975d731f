"""``serve``: the built site on the local host (host.py: netlify.toml's headers and redirects),
rebuilt on change (an entry edit incrementally, the builder's own code by restarting) and
reloaded in open pages.
"""

from __future__ import annotations

import functools
import gc
import io
import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from ..check.plan_check import FOLDER as PLANS
from ..pages.urls import NETLIFY
from .host import Handler, QuietServer, _servable, host_rules

ROOT = Path(__file__).resolve().parents[2]


# ``serve`` rebuilds as files are saved: an entry edit incrementally (incremental.py), its page
# written first and reloaded in open browsers within the 100 ms an author waits; anything else
# by a full build; and an edit to the builder's own code by starting serve again on the same
# port (re-executing the process), so that no page is ever built by code older than the files.

LIVE = Path(__file__).resolve().parent / "live"  # the browser side of serve: reload.js, sw.js
SOCKET_FD = "DERIVATION_BANK_SERVE_FD"  # the listening socket a restarted serve takes over
RESTARTED = "DERIVATION_BANK_SERVE_RESTARTED"  # what changed, for the restarted serve to say
POLL_S = 0.02  # without inotify, a stat of each source every 20 ms: a save is seen within 20 ms
SCAN_S = 0.5  # with inotify, which wakes serve at a save, a scan all the same now and then
SERVING_S = 0.001  # the interpreter's switch interval while serve serves (sys.setswitchinterval)
UNTIL_FIRST_S = 0.05  # ... and while it rebuilds, until the edited page is written
RELOAD_S = 0.05  # how long the rest of a rebuild waits for the edited page to be fetched


def _now() -> int:
    return time.time_ns() // 1000  # microseconds: exact in a JavaScript number


class Events:
    """When each page was last written, and the last rebuild's problems; told to every open page."""

    def __init__(self):
        self.changed = threading.Condition()
        self.pages: dict[str, int] = {}
        self.all = _now()  # every page at once (a full build)
        self.problems: str | None = None
        self.generation = 0
        self.served = threading.Condition()  # a page sent: (how many so far, the last one's URL)
        self.sent = (0, "")

    def written_at(self, url: str) -> int:
        with self.changed:
            return max(self.all, self.pages.get(url, 0))

    def built(self, urls: list[str]) -> None:
        with self.changed:
            stamp = _now()
            if "*" in urls:
                self.all, self.pages = stamp, {}
            self.pages.update({u: stamp for u in urls if u != "*" and (u.endswith("/") or u.endswith(".html"))})
            self.problems = None
            self.generation += 1
            self.changed.notify_all()

    def failed(self, report: str) -> None:
        with self.changed:
            self.problems = report
            self.generation += 1
            self.changed.notify_all()

    def state(self) -> tuple[int, bytes]:
        with self.changed:
            data = json.dumps({"all": self.all, "pages": self.pages, "problems": self.problems})
            return self.generation, f"data: {data}\n\n".encode()

    def wait(self, generation: int, timeout: float) -> None:
        with self.changed:
            self.changed.wait_for(lambda: self.generation != generation, timeout)

    def page_sent(self, url: str) -> None:
        with self.served:
            self.sent = (self.sent[0] + 1, url)
            self.served.notify_all()

    def await_page(self, urls: list[str], timeout: float) -> None:
        """Until one of ``urls`` is sent anew, or ``timeout``."""
        with self.served:
            before = self.sent[0]
            self.served.wait_for(lambda: self.sent[0] != before and self.sent[1] in urls, timeout)


class LiveHandler(Handler):
    """Handler with serve's additions: the reload script in every HTML page, its event stream,
    and a service worker that caches nothing (the site's would answer with pages since rebuilt)."""

    events: Events
    own = False  # this response is serve's own (no-store), not a file as the host sends it

    def host_headers(self) -> dict[str, str]:
        """netlify.toml's headers, but for serve's own responses its no-store stands: a page
        with the reload script, or serve's script, worker and events, is never kept."""
        headers = super().host_headers()
        return {k: v for k, v in headers.items() if k.lower() != "cache-control"} if self.own else headers

    def send_head(self):
        self.own = False
        path = urlsplit(self.path).path
        if path == "/__serve__/events":
            return self._stream()
        if path == "/__serve__/reload.js":
            return self._send_bytes((LIVE / "reload.js").read_bytes(), "text/javascript")
        if path == "/sw.js":
            return self._send_bytes((LIVE / "sw.js").read_bytes(), "text/javascript")
        if self._redirect():
            return None
        target = _servable(Path(self.translate_path(self.path)), self.directory)
        if target.is_dir() and path.endswith("/"):
            target = target / "index.html"
        if target.suffix == ".html" and target.is_file():
            return self._send_page(target, 200, path)
        not_found = Path(self.directory) / "404.html"
        if not target.exists() and not_found.is_file():
            return self._send_page(not_found, 404, path)
        return super().send_head()

    def _send_bytes(self, body: bytes, kind: str, status: int = 200):
        self.own = True
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        return io.BytesIO(body)

    def _send_page(self, target: Path, status: int, path: str):
        url = path[: -len("index.html")] if path.endswith("/index.html") else path
        served = self.events.written_at(url)  # before reading: a rewrite after this reloads the page
        tags = (
            f'<meta name="serve-build" content="{served}">'
            '<script type="module" src="/__serve__/reload.js"></script>\n</head>'
        )
        body = target.read_bytes().replace(b"</head>", tags.encode(), 1)
        self.events.page_sent(url)
        return self._send_bytes(body, "text/html; charset=utf-8", status)

    def _stream(self):
        """Server-sent events: the state now, then after each rebuild (a comment now and then keeps it open)."""
        self.close_connection = True
        self.own = True
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        try:
            self.wfile.write(b"retry: 250\n\n")
            while True:
                generation, message = self.events.state()
                self.wfile.write(message)
                self.wfile.flush()
                self.events.wait(generation, timeout=15)
                if self.events.state()[0] == generation:
                    self.wfile.write(b": still here\n\n")
        except (BrokenPipeError, ConnectionResetError, OSError):
            return None


def _listening(port: int, handler: type) -> QuietServer:
    """The server on 127.0.0.1:port, or on the socket a restarted serve inherited (the same port,
    never closed, so open pages only reconnect)."""
    inherited = os.environ.pop(SOCKET_FD, None)
    if inherited is None:
        return QuietServer(("127.0.0.1", port), handler)
    httpd = QuietServer(("127.0.0.1", port), handler, bind_and_activate=False)
    httpd.socket.close()
    httpd.socket = socket.socket(fileno=int(inherited))
    httpd.server_address = httpd.socket.getsockname()
    return httpd


def _commits() -> list[Path]:
    """Git's log of HEAD, which every commit and checkout appends to: the pages carry the last commit's date."""
    try:
        found = subprocess.run(
            ["git", "rev-parse", "--git-path", "logs/HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return []
    return [(ROOT / found.stdout.strip()).resolve()] if found.returncode == 0 and found.stdout.strip() else []


def _sources(entries: Path, extra: list[Path] = ()) -> dict[Path, tuple]:
    """Every file a build reads that an author edits, with its modification stamp (by its resolved
    path).  Each folder is listed and resolved once, a file on its own only if it is a link: serve
    looks at every source at each save, before it rebuilds."""
    found = {}
    for p in (*extra, NETLIFY):
        _stamp(p.resolve(), p, found)
    presets = Path(entries) / "presets"
    folders = [(Path(entries), (".yaml",)), (_plans(entries), (".yaml",))]
    folders += [(ROOT / "templates", (".html",)), (ROOT / "pyodide_app", None)]
    folders += [(presets / name, (".yaml",)) for name in _names(presets) if (presets / name).is_dir()]
    code = ROOT / "site_builder"
    folders += [(Path(top), (".py", ".json", ".mjs")) for top, _, _ in os.walk(code)]
    for folder, suffixes in folders:
        base = folder.resolve()
        try:
            listing = list(os.scandir(folder))
        except OSError:
            continue
        for item in listing:
            if suffixes is None or item.name.endswith(suffixes):
                path = Path(item.path).resolve() if item.is_symlink() else base / item.name
                _stamp(path, item, found)
    return found


def _plans(entries: Path) -> Path:
    """The plans' folder, entries/plans/: a plan saved is a full build, as a preset is."""
    return Path(entries) / PLANS


def _names(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def _stamp(path: Path, item, found: dict) -> None:
    try:
        stat = item.stat()
    except OSError:
        return
    found[path] = (stat.st_mtime_ns, stat.st_size)


class Watch:
    """Wakes serve when a file is saved: Linux's inotify through ctypes (no dependency), on the
    folders of the sources; elsewhere (or if inotify fails), a short poll.  What changed is always
    found by comparing the sources' stamps, so a missed or spurious wake-up costs only time."""

    # IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE: a file written and
    # closed, renamed into place (as editors save), removed, or touched; not each partial write.
    MASK = 0x4 | 0x8 | 0x40 | 0x80 | 0x200

    def __init__(self, folders: list[Path]):
        self.fd = None
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        except (OSError, AttributeError):
            return
        if fd < 0:
            return
        for folder in folders:
            if folder.is_dir() and libc.inotify_add_watch(fd, os.fsencode(folder), self.MASK) < 0:
                os.close(fd)
                return
        self.fd = fd

    def wait(self) -> bool:
        """Until a save (True) or SCAN_S without one (False; polling, always False)."""
        if self.fd is None:
            time.sleep(POLL_S)
            return False
        ready, _, _ = select.select([self.fd], [], [], SCAN_S)
        if ready:
            try:
                while os.read(self.fd, 65536):
                    pass
            except BlockingIOError:
                pass
        return bool(ready)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _folders(entries: Path, extra: list[Path]) -> list[Path]:
    """The folders the sources of ``_sources`` are in."""
    presets = Path(entries) / "presets"
    code = ROOT / "site_builder"
    return [
        Path(entries),
        _plans(entries),
        presets,
        *(p for p in presets.glob("*") if p.is_dir()),
        ROOT / "templates",
        ROOT / "pyodide_app",
        code,
        *(p for p in code.rglob("*") if p.is_dir() and p.name != "__pycache__"),
        NETLIFY.parent,
        *(p.parent for p in extra),
    ]


def _is_code(path: Path) -> bool:
    return path.is_relative_to(ROOT / "site_builder")


def _shown(paths) -> str:
    return ", ".join(sorted(str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p) for p in paths))


def _restart(httpd: QuietServer, entries: Path, out: Path, port: int, changed: set[Path]) -> str:
    """Start serve again with the new code, on the same listening socket; unless the new code
    does not even import, in which case say why and keep serving."""
    said = _shown(changed)
    trial = subprocess.run(
        [
            sys.executable,
            "-c",
            "import site_builder.cli, site_builder.serve.serve, site_builder.serve.host, site_builder.serve.incremental",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if trial.returncode != 0:
        report = f"{said} changed, but the new code fails to import:\n{trial.stderr.strip()}"
        print(report, flush=True)
        print("serving the last good build with the code serve started with; save a fix to restart", flush=True)
        return report
    print(f"{said} changed: restarting serve with the new code", flush=True)
    fd = httpd.socket.fileno()
    os.set_inheritable(fd, True)
    env = {**os.environ, SOCKET_FD: str(fd), RESTARTED: said}
    argv = [sys.executable, "-m", "site_builder", "--entries", str(entries), "serve", "--port", str(port)]
    sys.stdout.flush()
    os.execve(sys.executable, [*argv, "--out", str(out)], env)


def serve(entries: Path, out: Path, port: int) -> int:
    """Build, serve on 127.0.0.1:port, rebuild whenever a source changes; Ctrl-C stops."""
    from ..errors import BuildFailed
    from ..tex import katex_process
    from .incremental import Site

    # The server's threads answer a reloading page while the rest of the site is rebuilt: let them
    # take the interpreter every 1 ms rather than every 5 (the page's files then come at once).
    # Until the edited page is written there is nothing new to answer with: the rebuild keeps the
    # interpreter (UNTIL_FIRST_S), rather than hand it over at every request for the old page.
    sys.setswitchinterval(SERVING_S)
    restarted = os.environ.pop(RESTARTED, None)
    if restarted:
        print(f"restarted with the new code of {restarted}", flush=True)
    events = Events()

    first = [False]  # the next pages announced are an edit's first

    def announce(urls: list[str]) -> None:
        sys.setswitchinterval(SERVING_S)
        events.built(urls)
        if first[0] and "*" not in urls:
            # The edited page is written: the rest of the site waits for an open page to fetch
            # it (its reload, told by the event stream), at most RELOAD_S, rather than contend with it.
            first[0] = False
            events.await_page(urls, RELOAD_S)

    site = Site(entries, out, announce=announce)
    katex = katex_process.install()
    untidy = [False]

    def rebuild(changed: set[Path] | None) -> None:
        sys.setswitchinterval(UNTIL_FIRST_S)
        first[0] = True
        try:
            print(site.update(changed) if changed else site.full(), flush=True)
        except BuildFailed as failed:
            report = failed.problems.report()
            print(report, flush=True)
            print("serving the last good build", flush=True)
            events.failed(report)
        finally:
            sys.setswitchinterval(SERVING_S)
        # The bank and the site kept in memory are many objects that live on: keep them out of
        # later collections (a full one took 20-50 ms, in the middle of the next edit's rebuild;
        # 0.2 s at ten times the bank), and collect the garbage among them once serve is idle.
        gc.freeze()
        untidy[0] = True

    def tidy() -> None:
        if untidy[0]:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            untidy[0] = False

    rebuild(None)
    tidy()
    site.warm()
    commits = _commits()
    watch = Watch(_folders(entries, commits))
    stamps = _sources(entries, commits)
    headers, redirects = host_rules()
    handler = type(
        "ServeHandler", (LiveHandler,), {"headers_rules": headers, "redirect_rules": redirects, "events": events}
    )
    httpd = _listening(port, functools.partial(handler, directory=str(out)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    print(f"serving {out} at http://127.0.0.1:{httpd.server_address[1]}/  (Ctrl-C to stop)", flush=True)
    try:
        while True:
            woken = watch.wait()
            now = _sources(entries, commits)
            if now == stamps:
                if not woken:
                    tidy()  # a wait with no save: serve is idle
                continue
            changed = {p for p in now.keys() | stamps.keys() if now.get(p) != stamps.get(p)}
            stamps = now
            if any(_is_code(p) for p in changed):
                katex.close()
                watch.close()
                events.failed(_restart(httpd, entries, out, port, {p for p in changed if _is_code(p)}))
                katex = katex_process.install()
                watch = Watch(_folders(entries, commits))
                continue
            if NETLIFY.resolve() in changed:
                handler.headers_rules, handler.redirect_rules = host_rules()
            rebuild(changed)
    except KeyboardInterrupt:
        print("stopped")
    finally:
        katex.close()
    return 0
