"""The build: entries -> ``{path: bytes}`` -> an output folder swapped in atomically.

``build`` computes the whole site in memory and touches no disk but for reading;
``write_site`` is the one function that writes, into a temporary folder that replaces
the old site only once complete.  A failed build leaves the last good site as it was.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from .bank import Bank, assemble
from .cache import Cache, key
from .check.plan_check import plan_files as plan_sources
from .load.entry import Entry
from .load.load import text_digest
from .load.presets import preset_files
from .pages import preset_table, search
from .pages.plan_page import plan_files
from .pages.render import Renderer
from .pages.results import Results, results
from .pages.spec import preset_file, sweeps_file, versions_file
from .pages.urls import aliases, site_url
from .ship import offline, stdlib, xz
from .ship.assets import assets, digest, package_version, static, vendored

ROOT = Path(__file__).resolve().parent.parent


def source_date() -> str:
    """The date of the sources (the last commit), so that two builds of one commit are identical."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return time.strftime("%Y-%m-%d", time.gmtime(int(os.environ["SOURCE_DATE_EPOCH"])))
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%cs"], cwd=ROOT, capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or "1970-01-01"
    except (OSError, subprocess.SubprocessError):
        return "1970-01-01"


def licences() -> dict:
    """What the project's files say about licences: a licence file, if any, and package.json's
    ``license`` for our code; package-lock.json's for each package the site serves."""
    package = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    files = sorted(
        p.name for p in ROOT.iterdir() if p.is_file() and p.name.upper().startswith(("LICENSE", "LICENCE", "COPYING"))
    )
    served = [
        (name, lock[f"node_modules/{name}"]["version"], lock[f"node_modules/{name}"].get("license", "not stated"))
        for name in package.get("dependencies", {})
    ]
    return {"files": files, "code": package.get("license", ""), "served": served}


_QR: dict[tuple[str, str], str] = {}  # (segno's version, url) -> its code, as made or read from the cache


def _qr_svgs(urls: list[str]) -> dict[str, str]:
    """QR codes of entry URLs; encoding picks among eight masks, slowly, so results are cached
    (and segno, slow to import too, is imported only for a code not made before); serve, which
    asks for every code at each edit, keeps them in memory too."""
    version = importlib.metadata.version("segno")
    found = {url: _QR[(version, url)] for url in urls if (version, url) in _QR}
    if len(found) == len(urls):
        return found
    cache = Cache("qr")
    for url in urls:
        k = key(version, url)
        if cache.get(k) is None:
            import segno

            cache.put(k, segno.make(url, error="m").svg_inline(scale=4, title=f"QR code: {url}"))
        found[url] = _QR[(version, url)] = cache.get(k)
    cache.save()
    return found


def build(entries_dir: Path) -> tuple[dict[str, bytes | Path], dict]:
    """The whole site as ``{path: bytes}`` (vendored files as paths to link), and counts for the summary."""
    return site_files(assemble(entries_dir), entries_dir)


def source_digests(entries: list[Entry], entries_dir: Path) -> list[bytes]:
    """The digest of each source's text, in a stable order, for the site's version: an entry's as
    the bank read it (``Entry.text_digest``: serve, which rebuilds the edited entries, reads no
    other entry file again), every other file's (presets, plans, the bank's own files) read now."""
    read = {e.where.path.name: e.text_digest for e in entries if e.text_digest and e.where is not None}
    top = sorted(Path(entries_dir).glob("*.yaml"), key=lambda p: p.name)  # the folder's order, as Paths sort
    found = [read.get(p.name) or _file_digest(p) for p in top]
    found += [_file_digest(p) for p in preset_files(entries_dir) + plan_sources(entries_dir)]
    return [f.encode() for f in found]


_DIGESTS: dict[Path, tuple[tuple[int, int], str]] = {}  # path -> (its stamp when read, its digest)


def _file_digest(path: Path) -> str:
    """A source file's ``text_digest``, read again only when its stamp (modification time, size),
    by which serve sees a save, has changed: after an entry's edit, serve reads no preset or plan."""
    stat = path.stat()
    stamp = (stat.st_mtime_ns, stat.st_size)
    kept = _DIGESTS.get(path)
    if kept is None or kept[0] != stamp:
        kept = _DIGESTS[path] = (stamp, text_digest(path.read_text(encoding="utf-8")))
    return kept[1]


def site_files(
    checked: Bank, entries_dir: Path, first: str | None = None, on_first=None, date: str | None = None
) -> tuple[dict[str, bytes | Path], dict]:
    """The site of a checked bank, as ``build``.  ``serve`` rebuilds an edited entry this way:
    ``first`` (an entry's key) is rendered before the other pages and its files handed to
    ``on_first`` at once, so the page being edited is on screen before the rest is done; and
    ``date``, the sources' date it read at its last full build (until a commit changes it)."""
    entries, calculators, typeset, math_css = checked.entries, checked.calculators, checked.typeset, checked.css
    prompts, intro = checked.prompts, checked.intro
    files: dict[str, bytes | Path] = {**static(), **vendored()}
    startup, snapshot, inputs = stdlib.startup_files()
    pyodide_version = package_version("pyodide")
    stdlib_path = f"pyodide/{pyodide_version}/stdlib-startup-{digest(startup)}.zip"
    files[stdlib_path] = startup
    # The same two files xz-compressed, for pages on a far server (see xz.py).
    files[stdlib_path + ".xz"] = xz.compressed(startup, stdlib_path)
    wasm = f"pyodide/{pyodide_version}/pyodide.asm.wasm"
    files[wasm + ".xz"] = xz.compressed(files[wasm], wasm)
    # Made from that zip and only valid with it; named by the hash of what made both.
    files[f"snapshot/{pyodide_version}/{inputs[:10]}.snapshot"] = snapshot
    files["search-index.json"] = search.index_json(entries, checked.chapters, [p for p, _ in checked.plans.values()])
    version = digest(
        *source_digests(entries, entries_dir),
        *(v for v in files.values() if isinstance(v, bytes)),
        math_css.encode(),
    )
    renderer = Renderer(
        entries,
        typeset,
        assets(files, version),
        site_url(),
        source_date() if date is None else date,
        presets=checked.presets,
        chapters=checked.chapters,
        versions=checked.versions,
        plans=[p for p, _ in checked.plans.values()],
        math_css=math_css,
    )
    qr_codes = _qr_svgs([site_url() + e.url for e in entries])
    for entry in sorted(entries, key=lambda e: e.key != first):  # stable: the bank's order otherwise
        computed = results(entry, calculators[entry.key], qr_codes[site_url() + entry.url], checked.presets)
        made = entry_files(renderer, entry, computed)
        made.update(
            preset_table.files(entry, calculators[entry.key], checked.presets)
        )  # "Every model", opened on demand
        made.update(preset_file(entry, computed.filling))  # the presets' values, fetched on first use
        made.update(sweeps_file(entry, computed))  # the charts' first points, fetched when drawn early
        made.update(versions_file(entry, checked.versions.spec(entry.key)))  # a link's older version, fetched then
        files.update(made)
        if entry.key == first and on_first is not None:
            on_first(made)
    files.update(plan_files(renderer, checked.plans, entries))
    files["index.html"] = renderer.index().encode()
    files["404.html"] = renderer.not_found().encode()
    files["chapters/index.html"] = renderer.chapters().encode()
    files["toolkit/index.html"] = renderer.toolkit().encode()
    files["about/index.html"] = renderer.about(licences(), prompts).encode()
    files["manifest.webmanifest"] = renderer.web_manifest().encode()
    files["changes/index.html"] = renderer.changes().encode()
    files["changes.atom"] = renderer.changes_feed().encode()
    files["errata/index.html"] = renderer.errata().encode()
    files["notation/index.html"] = renderer.notation().encode()
    if prompts:
        files["synthesis/index.html"] = renderer.synthesis(prompts, intro).encode()
    files.update(renderer.math_sheets)  # each page's math rules, shared by the pages that use the same
    redirects = {alias.strip("/") + "/index.html" for alias in aliases(entries)}
    pages = sum(path.endswith(".html") and path not in redirects for path in files)  # an alias's page only forwards
    files["sw.js"] = offline.service_worker(files)
    counts = {
        "pages": pages,
        "entries": len(entries),
        "cases": sum(len(e.cases) for e in entries),
    }
    return files, counts


def entry_files(renderer: Renderer, entry: Entry, computed: Results) -> dict[str, bytes]:
    """One entry's files: its page, its QR code and the pages of its aliases."""
    html = renderer.entry(entry, computed)
    files = {entry.url.strip("/") + "/index.html": html.encode(), **renderer.math_sheets_of(html)}
    files[entry.url.strip("/") + "/qr.svg"] = computed.qr.replace(
        "<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1
    ).encode()
    for alias, target in aliases([entry]).items():
        files[alias.strip("/") + "/index.html"] = renderer.alias(renderer.by_url[target]).encode()
    return files


def write_file(target: Path, content: bytes | Path) -> None:
    """One file of the site: bytes written, or a vendored file linked (copied where links fail)."""
    if isinstance(content, Path):
        try:
            os.link(content, target)
        except OSError:
            shutil.copyfile(content, target)
    else:
        target.write_bytes(content)


def write_site(files: dict[str, bytes | Path], out: Path) -> None:
    """Write every file into a fresh folder beside ``out``, then swap it in."""
    out = Path(out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-new-", dir=out.parent))
    try:
        for rel, content in sorted(files.items()):
            target = tmp / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            write_file(target, content)
        old = out.with_name(f".{out.name}-old")
        if old.exists():
            shutil.rmtree(old)
        if out.exists():
            out.rename(old)
        tmp.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def build_site(entries_dir: Path, out: Path) -> str:
    start = time.perf_counter()
    files, counts = build(entries_dir)
    write_site(files, out)
    seconds = time.perf_counter() - start
    return (
        f"built {counts['pages']} pages ({counts['entries']} entries), "
        f"{counts['cases']} cases reproduced, in {seconds:.2f} s -> {out}"
    )
