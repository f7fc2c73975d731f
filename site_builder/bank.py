"""The bank assembled: every entry file, the presets, chapters and synthesis prompts loaded,
checked and typeset, as the build renders them and the check command counts them.

The pipeline is written once, in ``STEPS``: the full build (``gather``) and ``serve``'s
rebuild of edited entries (``incremental.Site``, through ``rebuild``) run the same steps in
the same order, so serve cannot publish what a build refuses.  A full build's draft reads
every file anew; a rebuild's reads the edited entry files and keeps the rest of the last good
bank, so each step checks what is new and what ties it to the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .check.check import check_chapters, check_entry, check_feeds, check_ids, check_synthesis
from .check.plan_check import load_plans
from .errors import BuildFailed, Problems
from .load.fill import check_fill, resolve_case_presets
from .load.load import entry_files, load_chapters, load_file, load_synthesis, order
from .load.presets import load_presets
from .load.versions import Versions, check_versions, load_versions, unversioned
from .tex.math import Typeset
from .tex.typeset import typeset_bank


@dataclass(frozen=True)
class Bank:
    """The bank after checking: what the build renders, and what the check command counts."""

    entries: list
    calculators: dict
    typeset: Typeset  # every TeX fragment of the bank, typeset
    css: str
    prompts: tuple
    intro: str
    presets: dict = field(default_factory=dict)  # kind -> id -> Preset (entries/presets/)
    chapters: dict = field(default_factory=dict)  # chapter number -> Chapter, from entries/_chapters.yaml
    versions: Versions = field(default_factory=lambda: unversioned([]))  # entries/_versions.yaml
    plans: dict = field(default_factory=dict)  # plan id -> (Plan, PlanCalculator), from entries/plans/


@dataclass
class Draft:
    """The bank while the steps assemble it.  ``old`` is the last good bank a rebuild starts
    from (None: the whole bank is read); ``paths`` the entry files read anew (None: all)."""

    root: Path
    old: Bank | None = None
    paths: frozenset | None = None
    entries: list = field(default_factory=list)  # every entry, in the bank's order
    fresh: list = field(default_factory=list)  # the entries read anew, which the steps check
    gone: list = field(default_factory=list)  # the old bank's entries of the files read anew
    calculators: dict = field(default_factory=dict)
    presets: dict = field(default_factory=dict)
    prompts: tuple = ()
    intro: str = ""
    chapters: dict = field(default_factory=dict)
    typeset: Typeset = field(default_factory=Typeset)
    css: str = ""
    rules: dict = field(default_factory=dict)  # a rebuild's: entry key -> the style rules of its TeX
    versions: Versions = field(default_factory=lambda: unversioned([]))
    plans: dict = field(default_factory=dict)

    @property
    def whole(self) -> bool:
        return self.old is None

    @property
    def touched(self) -> set:
        return {e.key for e in self.fresh} | {e.key for e in self.gone}

    def bank(self) -> Bank:
        return Bank(
            self.entries,
            self.calculators,
            self.typeset,
            self.css,
            self.prompts,
            self.intro,
            self.presets,
            self.chapters,
            self.versions,
            self.plans,
        )


def _load(d: Draft, problems: Problems) -> None:
    """The entry files asked for; for the whole bank, the presets, synthesis prompts and chapters too."""
    if d.whole:
        d.presets = load_presets(d.root, problems)  # loaded once: cases that name presets read them too
        d.prompts, d.intro = load_synthesis(d.root, problems)
        d.chapters = load_chapters(d.root, problems)
        paths = entry_files(d.root)
    else:
        old = d.old
        d.presets, d.prompts, d.intro, d.chapters = old.presets, old.prompts, old.intro, old.chapters
        d.calculators = dict(old.calculators)
        d.typeset = old.typeset
        paths = [p for p in sorted(d.paths) if p.exists()]  # a removed file: its pages go with it
        names = {p.name for p in d.paths}  # resolving every entry's path costs more than the rest of this step
        d.gone = [e for e in old.entries if e.where.path.name in names and e.where.path.resolve() in d.paths]
        for entry in d.gone:
            d.calculators.pop(entry.key, None)
    d.fresh = [e for e in (load_file(p, problems) for p in paths) if e is not None]


def _resolve_presets(d: Draft, problems: Problems) -> None:
    """A case that names presets takes its inputs from them; then the bank is put in order."""
    if any(case.preset for e in d.fresh for case in e.cases):
        d.fresh = resolve_case_presets(d.fresh, d.root, problems, d.presets)
    kept = [] if d.whole else [e for e in d.old.entries if all(e is not g for g in d.gone)]
    d.entries = sorted(kept + d.fresh, key=order)
    if not d.entries and not problems:
        problems.add(Path(d.root), 1, "no entries: expected entries/NN-slug.yaml files")


def _ids(d: Draft, problems: Problems) -> None:
    check_ids(d.entries, problems)


def _entries(d: Draft, problems: Problems) -> None:
    """Each entry read anew on its own: fields, formula, question, cases, plots."""
    for entry in d.fresh:
        calc = check_entry(entry, problems)
        if calc is not None:
            d.calculators[entry.key] = calc


def _feeds(d: Draft, problems: Problems) -> None:
    """The feeds of the entries read anew, and those into them."""
    touched = d.touched
    sources = (
        None if d.whole else [e for e in d.entries if e.key in touched or any(str(f.entry) in touched for f in e.feeds)]
    )
    check_feeds(d.entries, d.calculators, problems, sources=sources)


def _fill(d: Draft, problems: Problems) -> None:
    check_fill(d.fresh, d.presets, d.calculators, problems)


def _synthesis(d: Draft, problems: Problems) -> None:
    check_synthesis(d.prompts, d.entries, problems)


def _chapters(d: Draft, problems: Problems) -> None:
    check_chapters(d.chapters, d.entries, problems)


def _versions(d: Draft, problems: Problems) -> None:
    """Every entry's, preset's and plan's numbered versions; what determines the numbers is its
    newest one's.  The file is read anew, so serve checks it as a build does; a rebuild takes the
    fingerprints of the entries read anew and of the plans checked anew (``_plans``), the others'
    being what they were when the last good bank passed."""
    d.versions = load_versions(d.root, d.entries, problems)
    only = None
    if not d.whole:
        only = d.touched | {pid for pid, checked in d.plans.items() if checked is not d.old.plans.get(pid)}
    check_versions(d.versions, d.entries, d.presets, problems, d.plans, only=only)


def _plans(d: Draft, problems: Problems) -> None:
    """The plans (entries/plans/), checked against the bank's entries as they now are.  A rebuild
    (whose plan files are unchanged: an edit to one is a full build) checks again only the plans
    that run an entry read anew; the others' verdict and calculators hold as they were."""
    touched = d.touched
    kept = (
        None
        if d.whole
        else {pid: p for pid, p in d.old.plans.items() if not any(s.entry_key in touched for s in p[0].steps)}
    )
    d.plans = load_plans(d.root, d.entries, d.calculators, d.presets, problems, kept)


def _typeset(d: Draft, problems: Problems) -> None:
    """The TeX read anew: the whole bank's in one KaTeX run, or each edited entry's with its style rules."""
    if d.whole:
        d.typeset, d.css = typeset_bank(d.entries, problems, d.prompts) if d.entries else (Typeset(), "")
        return
    for entry in d.fresh:
        own, rules = typeset_bank([entry], problems)
        d.typeset = d.typeset.merged(own)
        d.rules[entry.key] = rules


Step = Callable[[Draft, Problems], None]
# The pipeline, in order: what a build runs, and what serve runs on an edit.
STEPS: tuple[tuple[str, Step], ...] = (
    ("load", _load),
    ("presets", _resolve_presets),
    ("ids", _ids),
    ("entries", _entries),
    ("feeds", _feeds),
    ("fill", _fill),
    ("synthesis", _synthesis),
    ("chapters", _chapters),
    ("plans", _plans),
    ("versions", _versions),  # after the plans: they are versioned too
    ("typeset", _typeset),
)
# Every step but typesetting: the bank checked, with no KaTeX run (the tests' shared bank).
CHECKS = tuple(step for step in STEPS if step[0] != "typeset")


def run(draft: Draft, problems: Problems, steps=None) -> Draft:
    """``draft`` after each step in turn (``STEPS`` unless told)."""
    for _name, step in STEPS if steps is None else steps:
        step(draft, problems)
    return draft


def gather(entries_dir: Path, problems: Problems, steps=None) -> Bank:
    """Load every entry and the synthesis prompts, check them and typeset their TeX, recording problems."""
    return run(Draft(Path(entries_dir)), problems, steps).bank()


def rebuild(old: Bank, entries_dir: Path, paths: set[Path], problems: Problems) -> Draft:
    """The steps again for the entry files ``paths`` (resolved), the rest kept from ``old``."""
    return run(Draft(Path(entries_dir), old=old, paths=frozenset(paths)), problems)


def assemble(entries_dir: Path) -> Bank:
    """Load, check and typeset, or BuildFailed with every problem found."""
    problems = Problems()
    bank = gather(entries_dir, problems)
    if problems:
        raise BuildFailed(problems)
    return bank
