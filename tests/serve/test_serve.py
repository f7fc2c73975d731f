"""`serve`: an entry edit rebuilt incrementally ends as a full build would write it, the edited
page is written (and announced) first, a bad edit keeps the last good site, only serve's own
server adds the reload script, a saved plan is built, and an edit to the builder's code restarts
serve with it.

None of it depends on the bank's size: the tests build conftest's small banks (entries 35 and 36;
for the incremental rebuild, with a toolkit entry, the serving plan and the entries it takes), in
a fraction of the whole bank's time.  tests/test_pipeline.py rebuilds an edit against the whole bank."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from site_builder import cache
from site_builder.build import build_site
from site_builder.errors import BuildFailed
from site_builder.serve.host import SiteServer
from site_builder.serve.incremental import Site
from site_builder.serve.serve import LIVE, Events, LiveHandler
from tests.support import ROOT


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _differences(a: Path, b: Path) -> list[str]:
    left, right = _tree(a), _tree(b)
    return sorted(k for k in left.keys() | right.keys() if left.get(k) != right.get(k))


@pytest.fixture
def bank_copy(small_entries, tmp_path) -> Path:
    copy = tmp_path / "entries"
    shutil.copytree(small_entries, copy)
    return copy


@pytest.fixture
def planned_copy(small_entries_with_plan, tmp_path) -> Path:
    copy = tmp_path / "entries"
    shutil.copytree(small_entries_with_plan, copy)
    return copy


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name} no longer holds {old!r}: choose another edit"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.node
def test_incremental_rebuild_writes_what_a_full_build_writes(planned_copy, tmp_path):
    """On a small bank with a page of each kind that shows entry 35's title (entries that link to
    it, a plan that takes it, the synthesis prompts), and a toolkit entry: the whole bank has only
    more of each (tests/test_pipeline.py rebuilds an edit against the whole bank, without pages)."""
    heard = []
    site = Site(planned_copy, tmp_path / "served", announce=lambda urls: heard.append(list(urls)))
    site.full()
    kv = next(planned_copy.glob("35-*.yaml"))
    # The title shows on other pages (index, chapters, search, pages that link to it); the new
    # TeX was never typeset before; the notes change only this page and the site version.
    _edit(kv, "title: KV cache size", "title: KV cache size, edited")
    _edit(kv, "derived from what is stored and per what.", r"derived from what is stored ($\sqrt{\beta_{e}}$).")
    heard.clear()
    first_page = {}
    site.announce = lambda urls: (
        heard.append(list(urls)),
        first_page.setdefault("bytes", (tmp_path / "served/35/index.html").read_bytes()),
    )
    site.update({kv})
    build_site(planned_copy, tmp_path / "full")
    assert _differences(tmp_path / "served", tmp_path / "full") == []
    # The edited page came first, already as the full build writes it; the rest after.
    # ... with its alias page and the stylesheet of its math's rules (its TeX changed)
    sheet = re.search(rb'href="(/static/math/[0-9a-f]+\.css)"', first_page["bytes"]).group(1).decode()
    assert heard[0] == ["/35/", "/kv-cache-size/", sheet]
    assert first_page["bytes"] == (tmp_path / "full/35/index.html").read_bytes()
    assert {"/", "/chapters/", "/search-index.json", "/sw.js", "/36/"} <= set(heard[1])


@pytest.mark.node
def test_a_bad_edit_keeps_the_last_good_site_until_fixed(bank_copy, tmp_path):
    site = Site(bank_copy, tmp_path / "served")
    site.full()
    before = _tree(tmp_path / "served")
    kv = next(bank_copy.glob("35-*.yaml"))
    good = kv.read_text(encoding="utf-8")
    _edit(kv, "derived from what is stored and per what.", r"derived from $\frac{ what.")
    with pytest.raises(BuildFailed) as failed:
        site.update({kv})
    assert [(e.path.name, e.line) for e in failed.value.problems.sorted()] == [(kv.name, 11)]
    assert _tree(tmp_path / "served") == before
    # Another file's edit checks the failing one again: still failing, still nothing written.
    other = next(bank_copy.glob("36-*.yaml"))
    _edit(other, "title: ", "title: Edited ")
    with pytest.raises(BuildFailed):
        site.update({other})
    assert _tree(tmp_path / "served") == before
    kv.write_text(good, encoding="utf-8")
    site.update({kv})
    build_site(bank_copy, tmp_path / "full")
    assert _differences(tmp_path / "served", tmp_path / "full") == []


def _get(url: str) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_only_serve_adds_the_reload_script(tmp_path):
    (tmp_path / "35").mkdir()
    page = b"<!doctype html><html><head><title>t</title></head><body>35</body></html>\n"
    (tmp_path / "35" / "index.html").write_bytes(page)
    (tmp_path / "404.html").write_bytes(page.replace(b"35", b"not found"))
    (tmp_path / "sw.js").write_bytes(b"// the site's precaching worker\n")
    events = Events()
    with SiteServer(tmp_path) as plain:
        assert _get(plain.url + "/35/")[2] == page
    with SiteServer(tmp_path, handler=LiveHandler, events=events) as live:
        status, headers, body = _get(live.url + "/35/")
        served = int(re.search(rb'<meta name="serve-build" content="(\d+)">', body).group(1))
        assert served == events.written_at("/35/")
        assert b'<script type="module" src="/__serve__/reload.js"></script>\n</head>' in body
        assert body.replace(re.search(rb"<meta name=\"serve-build\".*?</script>\n", body).group(0), b"") == page
        assert "script-src 'self'" in headers["Content-Security-Policy"]  # netlify.toml's headers still apply
        status, _, body = _get(live.url + "/missing/")
        assert status == 404 and b"/__serve__/reload.js" in body
        status, headers, script = _get(live.url + "/__serve__/reload.js")
        assert status == 200 and headers["Content-Type"] == "text/javascript" and b"EventSource" in script
        worker = _get(live.url + "/sw.js")[2]  # serve's own, which answers nothing from a cache
        assert worker == (LIVE / "sw.js").read_bytes() and b'"fetch"' not in worker
        with urllib.request.urlopen(live.url + "/__serve__/events", timeout=10) as stream:
            lines = [stream.readline() for _ in range(4)]
            assert lines[0].startswith(b"retry:")
            state = json.loads(lines[2].removeprefix(b"data: "))
            assert state == {"all": events.all, "pages": {}, "problems": None}
            events.built(["/35/", "/static/style.css"])
            state = json.loads(stream.readline().removeprefix(b"data: "))
            assert set(state["pages"]) == {"/35/"} and state["pages"]["/35/"] > served


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


class _Served:
    """What a serve process has said: ``until(text)`` reads its output up to a line that starts with
    ``text``; ``port``, the one its "serving ... at http://127.0.0.1:PORT/" line named last."""

    def __init__(self, proc: subprocess.Popen):
        self.proc, self.said, self.port = proc, [], None

    def until(self, start: str) -> None:
        for line in self.proc.stdout:
            self.said.append(line)
            found = re.search(r" at http://127\.0\.0\.1:(\d+)/", line)
            if line.startswith("serving ") and found:
                self.port = int(found.group(1))
            if line.startswith(start):
                return
        pytest.fail("serve stopped:\n" + "".join(self.said))


@contextmanager
def _serving(arguments: list[str], cwd: Path = ROOT, env: dict | None = None, limit: float | None = 180):
    """``python -m site_builder <arguments> serve --port 0`` run in ``cwd`` with ``env`` added to
    the environment: serve takes a free port itself (one found free beforehand could be taken by
    another test's server by the time serve binds it).  A serve that never says it is stopped after
    ``limit`` seconds, which ends the wait (None: a browser's own waits end the test)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "site_builder", *arguments, "--port", "0"],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    stop = threading.Timer(limit, proc.terminate) if limit else None
    if stop:
        stop.start()
    try:
        yield _Served(proc)
    finally:
        if stop:
            stop.cancel()
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.node
@pytest.mark.browser
def test_a_saved_entry_reloads_the_open_page(browser, bank_copy, tmp_path):
    """In Chromium: /35/ from a running serve, under its service worker, reloads with a saved edit;
    a bad edit shows its problem over the last good page; the fix takes it away."""
    run = ["--entries", str(bank_copy), "serve", "--out", str(tmp_path / "served")]
    with _serving(run, limit=None) as serve:
        context = browser.new_context(service_workers="allow")  # while serve builds
        page = context.new_page()
        serve.until("serving ")
        page.goto(f"http://127.0.0.1:{serve.port}/35/")
        page.wait_for_selector("text=derived from what is stored and per what.")
        # The site registers its service worker once Python is ready; serve's own takes its place,
        # and the page it controls must still come fresh from the server after an edit.
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")
        kv = next(bank_copy.glob("35-*.yaml"))
        good = kv.read_text(encoding="utf-8")
        # serve's stamps hold the copy's modification time, from before serve started and built:
        # the edit's is later (no pause needed).
        _edit(kv, "derived from what is stored and per what.", "derived from what is stored, saved live.")
        page.wait_for_selector("text=derived from what is stored, saved live.")
        _edit(kv, "derived from what is stored, saved live.", r"derived from $\frac{ what.")
        banner = page.wait_for_selector("pre.serve-problems")
        assert f"{kv.name}:11:" in banner.inner_text()
        assert "saved live" in page.inner_text("main")  # the last good page stays
        kv.write_text(good, encoding="utf-8")
        page.wait_for_selector("text=derived from what is stored and per what.")
        page.wait_for_selector("pre.serve-problems", state="detached")
        context.close()


@pytest.mark.node
def test_an_edit_to_the_builder_restarts_serve_with_the_new_code(small_entries, tmp_path):
    """serve never builds with code older than the sources: after a builder module is saved, the
    served pages come from the new code (the process restarts on the same port and says why)."""
    project = tmp_path / "project"
    for name in ("site_builder", "templates", "pyodide_app"):
        shutil.copytree(ROOT / name, project / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(small_entries, project / "entries")
    # The checkout's derived artefacts, for the copy to start from: each is keyed by a hash of all
    # it depends on, so the copy builds what it would cold, without making Pyodide's start-up
    # snapshot again (most of a cold build).  Linked, not copied: every writer of .cache/ replaces
    # a file whole (a new file moved into place), so the copy never changes the checkout's.
    if cache.FOLDER.is_dir():
        (project / ".cache").mkdir()
        for found in cache.FOLDER.iterdir():
            if found.is_file():
                _link_or_copy(found, project / ".cache" / found.name)
    for name in ("netlify.toml", "package.json", "package-lock.json", "pyproject.toml"):
        shutil.copy2(ROOT / name, project / name)
    (project / "node_modules").symlink_to(ROOT / "node_modules")
    run = ["serve", "--out", str(tmp_path / "served")]
    # the copy's own modules (not the checkout's), and its derived artefacts kept with it
    with _serving(run, project, {"PYTHONPATH": str(project)}) as serve:

        def served() -> str:
            return _get(f"http://127.0.0.1:{serve.port}/35/")[2].decode()

        serve.until("serving ")
        assert "Compute it in your browser." in served()
        # copytree kept render.py's modification time, from before serve started: the edit's is later
        _edit(
            project / "site_builder" / "pages" / "render.py", "Compute it in your browser.", "Compute it with new code."
        )
        serve.until("restarted with the new code of site_builder/pages/render.py")
        serve.until("serving ")
        assert "Compute it with new code." in served()


@pytest.mark.node
def test_a_saved_plan_is_built_and_served(planned_copy, tmp_path):
    """A plan is a source as an entry is: saving entries/plans/serve-plan.yaml rebuilds the site
    (in full, as a preset's save does), and the plan's page carries the edit."""
    run = ["--entries", str(planned_copy), "serve", "--out", str(tmp_path / "served")]
    with _serving(run) as serve:
        serve.until("serving ")
        assert "Serving plan" in _get(f"http://127.0.0.1:{serve.port}/plans/serve/")[2].decode()
        # The copy's modification time is from before serve started: the save's is later.
        _edit(planned_copy / "plans" / "serve-plan.yaml", "title: Serving plan", "title: Serving plan, saved live")
        serve.until("built ")
        assert "Serving plan, saved live" in _get(f"http://127.0.0.1:{serve.port}/plans/serve/")[2].decode()
