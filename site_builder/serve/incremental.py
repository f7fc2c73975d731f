"""Rebuilding after an edit, for ``serve``: the edited entry's page first, then every other file it changed.

A full build loads and checks the whole bank (most of its second).  An entry edit changes one
file, so ``Site.update`` loads and checks that file only, against the last good bank kept in
memory: its fields, formula, cases and plots; then what ties it to the others (ids, related
entries, feeds in and out, presets, chapters, synthesis prompts); and typesets only its own TeX.
The pages come from the same function as a full build's (``build.site_files``), the edited
entry's first: its page is written and announced before the others are rendered.  Then every
file whose bytes changed is written (the site version, in every page, follows the sources), and
files no longer built are removed: the folder ends byte-identical to a full build of the same
sources.  Anything else (presets, chapters, synthesis, templates, browser files) is a full build.

A failed update writes nothing: the last good site stays served, and the failing files are
checked again with the next edit, so a problem is reported until it is fixed.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from ..bank import Bank, assemble, rebuild
from ..build import site_files, source_date, write_file, write_site
from ..errors import BuildFailed, Problems
from ..tex.typeset import typeset_bank


def url_of(path: str) -> str:
    """The URL a site file is served at: 35/index.html -> /35/."""
    return "/" + (path[: -len("index.html")] if path.endswith("index.html") else path)


def _css_lines(css: str) -> set[str]:
    return set(css.splitlines(keepends=True))


class Site:
    """The last good build of ``entries_dir``, written to ``out``; ``announce(urls)`` hears of written pages."""

    def __init__(self, entries_dir: Path, out: Path, announce=lambda urls: None):
        self.entries_dir = Path(entries_dir)
        self.out = Path(out)
        self.announce = announce
        self.checked: Bank | None = None
        self.files: dict[str, bytes | Path] = {}
        self.css: dict[str, set[str]] = {}  # entry key -> its TeX's style rules ("" -> the synthesis prompts')
        self.failing: set[Path] = set()  # entry files whose last update failed
        self.date: str | None = None  # build.source_date() at the last full build

    # ------------------------------------------------------------------ full

    def full(self) -> str:
        """A full build, written as ``build`` writes it.  BuildFailed leaves the last good site."""
        start = time.perf_counter()
        checked = assemble(self.entries_dir)
        date = source_date()  # the last commit's: serve builds in full again after a commit
        files, counts = site_files(checked, self.entries_dir, date=date)
        write_site(files, self.out)
        self.checked, self.files, self.failing, self.date = checked, files, set(), date
        self.css = {e.key: _css_lines(typeset_bank([e], Problems())[1]) for e in checked.entries}
        self.css[""] = _css_lines(typeset_bank([], Problems(), checked.prompts)[1]) if checked.prompts else set()
        self.announce(["*"])
        return (
            f"built {counts['pages']} pages ({counts['entries']} entries), "
            f"{counts['cases']} cases reproduced, in {time.perf_counter() - start:.2f} s -> {self.out}"
        )

    # ------------------------------------------------------------------ incremental

    def warm(self) -> None:
        """Rebuild one entry's page in memory, writing nothing: the first edit then finds every
        module imported and every lazy table made (that first rebuild is otherwise several times slower)."""
        if self.checked is None or not self.checked.entries:
            return
        # An edited file is new text, so its schema is checked again: the validator, slow to
        # import (about 0.1 s), is imported now rather than in the first edit's rebuild.
        import jsonschema  # noqa: F401

        class Done(Exception):
            pass

        def stop(pages: dict) -> None:
            raise Done

        entry = self.checked.entries[0]
        try:
            checked, first, _ = self._checked({entry.where.path.resolve()})
            site_files(checked, self.entries_dir, first=first, on_first=stop, date=self.date)
        except (Done, BuildFailed):
            pass

    def is_entry(self, path: Path) -> bool:
        return (
            path.parent.resolve() == self.entries_dir.resolve()
            and path.suffix == ".yaml"
            and not path.name.startswith("_")
        )

    def update(self, changed: set[Path]) -> str:
        """Rebuild after ``changed`` files were saved: incrementally when they are all entry files."""
        changed = {Path(p).resolve() for p in changed}
        if self.checked is None or not all(self.is_entry(p) for p in changed):
            return self.full()
        start = time.perf_counter()
        paths = changed | self.failing
        try:
            checked, first, css = self._checked(paths)
        except BuildFailed:
            self.failing = paths
            raise
        timings = {}

        def write_first(pages: dict) -> None:
            self._write(pages)
            timings["first"] = time.perf_counter() - start

        files, counts = site_files(
            checked, self.entries_dir, first=first, on_first=write_first if first else None, date=self.date
        )
        self._write(files, remove=True)
        self.checked, self.failing = checked, set()
        self.css.update(css)
        for key in set(self.css) - {e.key for e in checked.entries} - {""}:
            del self.css[key]
        names = ", ".join(p.name for p in sorted(changed))
        shown = f"its page in {timings['first'] * 1000:.0f} ms, " if "first" in timings else ""
        return f"rebuilt {names}: {shown}the whole site in {(time.perf_counter() - start) * 1000:.0f} ms"

    def _checked(self, paths: set[Path]) -> tuple[Bank, str | None, dict]:
        """The bank with ``paths`` loaded and checked anew by the build's own steps (bank.STEPS),
        or BuildFailed; the key of the first edited entry, and the style rules of the edited
        entries' TeX."""
        problems = Problems()
        draft = rebuild(self.checked, self.entries_dir, paths, problems)
        if problems:
            raise BuildFailed(problems)
        css = {key: _css_lines(rules) for key, rules in draft.rules.items()}
        touched = draft.touched
        lines = set().union(*(v for k, v in self.css.items() if k not in touched), *css.values())
        draft.css = "".join(sorted(lines))
        return draft.bank(), (draft.fresh[0].key if draft.fresh else None), css

    # ------------------------------------------------------------------ writing

    def _write(self, files: dict[str, bytes | Path], remove: bool = False) -> None:
        """Write the files whose content changed (each atomically), announce their pages; with
        ``remove``, ``files`` is the whole site and files no longer in it are deleted."""
        written = []
        for rel, content in sorted(files.items()):
            if self.files.get(rel) == content:
                continue
            target = self.out / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(f".{target.name}.new")
            write_file(tmp, content)
            os.replace(tmp, target)
            self.files[rel] = content
            written.append(rel)
        if remove:
            for rel in sorted(set(self.files) - set(files)):
                target = self.out / rel
                target.unlink(missing_ok=True)
                del self.files[rel]
                written.append(rel)
                folder = target.parent
                while folder != self.out and not any(folder.iterdir()):
                    folder.rmdir()
                    folder = folder.parent
        if written:
            self.announce([url_of(rel) for rel in written])
