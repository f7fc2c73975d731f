"""Versions: each entry's, preset's and plan's numbered versions, the site's releases, and the gate
that refuses a change to an entry's numbers without a new version.

``entries/_versions.yaml`` holds them.  A version records its date, the release that published
it, what changed and why, the erratum or source where one applies, and a fingerprint of
everything that determines the numbers (for an entry: its formula, its inputs with their
defaults, domains and choices, its outputs' formats and units; for a preset: its values; for a
plan: its inputs, the steps it composes and how they are fed, and its answers).  A
superseded version keeps its ``spec`` (formula, inputs, outputs), so that the page can run the
older formula on the same runtime and a cited number can always be recomputed.

A bank folder without the file is unversioned: every entry is at version 1 and nothing is gated
(the error fixtures are such folders).
"""

from __future__ import annotations

import datetime
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..cache import kept_for
from ..errors import Problems
from ..runtime.architecture import SHAPES
from ..runtime.calculator import Calculator
from .entry import Entry, Where
from .yamlfile import read

FILE = "_versions.yaml"
PARTS = ("formula", "inputs", "outputs")  # what determines an entry's numbers, fingerprinted apart
VERSION_KEYS = {"version", "date", "release", "changed", "why", "fingerprint"}
OPTIONAL_KEYS = {"erratum", "source", "errata", "spec"}


@dataclass(frozen=True)
class Release:
    number: int
    date: str
    summary: str
    where: Where | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Version:
    """One numbered version of an entry or a preset."""

    version: int
    date: str
    release: int
    changed: str
    why: str
    fingerprint: dict = field(hash=False)  # part -> its fingerprint (an entry: formula, inputs, outputs)
    erratum: str = ""  # where the version departs from the printed book, in words
    source: str = ""  # the paper, datasheet or erratum list that prompted the change
    errata: tuple = ()  # ids of the entry's cases whose printed value the bank corrects
    spec: dict | None = field(default=None, hash=False)  # a superseded entry version: formula, inputs, outputs
    where: Where | None = field(default=None, compare=False)

    def history(self) -> dict:
        """The version as the page shows it (``runtime.page.History``)."""
        line = {"version": self.version, "date": self.date, "release": self.release}
        line.update({"changed": self.changed, "why": self.why})
        line.update({k: getattr(self, k) for k in ("erratum", "source") if getattr(self, k)})
        if self.errata:
            line["errata"] = list(self.errata)
        return line


@dataclass(frozen=True)
class Versions:
    releases: tuple[Release, ...]
    entries: dict  # entry key -> (Version, ...), oldest first
    presets: dict  # "kind/id" -> (Version, ...)
    path: Path | None = None  # None: an unversioned folder
    plans: dict = field(default_factory=dict)  # plan id -> (Version, ...)

    @property
    def release(self) -> int:
        """The site's release number: the newest release."""
        return max((r.number for r in self.releases), default=1)

    def of(self, key: str) -> tuple[Version, ...]:
        return self.entries.get(key, ())

    def current(self, key: str) -> int:
        found = self.of(key)
        return found[-1].version if found else 1

    def plan_current(self, plan_id: str) -> int:
        found = self.plans.get(plan_id, ())
        return found[-1].version if found else 1

    def spec(self, key: str) -> dict:
        """What an entry's page carries about its versions (``runtime.page.Versions``)."""
        found = self.of(key)
        return {
            "current": self.current(key),
            "release": self.release,
            "history": [v.history() for v in found],
            "older": {str(v.version): v.spec for v in found if v.spec is not None},
        }


# ----------------------------------------------------------------------------- fingerprints


def _hash(value) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


WORDS = ("label", "counted", "index")  # an output's keys that change no number (``numbers``)


def numbers(spec: dict) -> dict:
    """What determines an entry's numbers, from its calculator spec: the formula, every input
    (default, type, domain, choices: the variants), every output's name, format, unit and validity.
    Labels are words, ``counted`` only names what a model's fill is compared with, and ``index``
    only names a list's elements (j = 2, 3): changing any of them changes no number."""
    return {
        "formula": spec["formula"],
        "inputs": spec["inputs"],
        "outputs": [{k: v for k, v in o.items() if k not in WORDS} for o in spec["outputs"]],
    }


def fingerprint(spec: dict) -> dict:
    """part -> fingerprint of ``numbers(spec)``."""
    found = numbers(spec)
    return {part: _hash(found[part]) for part in PARTS}


def entry_spec(entry: Entry) -> dict:
    """The part of an entry's spec that a superseded version keeps: enough to run it again."""
    spec = entry.spec()
    return {k: spec[k] for k in PARTS}


def preset_fingerprint(preset) -> dict:
    """A preset's values, typed and derived (a change to the count changes the numbers); the widths
    read straight off typed fields (architecture.SHAPES) are held by those fields."""
    return {"values": _hash({name: value.value for name, value in sorted(preset.values.items()) if name not in SHAPES})}


PLAN_PARTS = ("inputs", "steps", "outputs")  # what determines a plan's own numbers (its entries have theirs)


def plan_fingerprint(plan, entries: dict) -> dict:
    """A plan's inputs (defaults, domains), its steps (the entry each runs and what feeds each of
    its inputs) and its answers (the output each reads, its format and unit); words are left out."""
    spec = plan.spec(entries)
    words = ("label", "title", "url", "help", "counted")
    found = {
        "inputs": [{k: v for k, v in i.items() if k not in words} for i in spec["inputs"]],
        "steps": [{k: v for k, v in s.items() if k not in words} for s in spec["steps"]],
        "outputs": [{k: v for k, v in o.items() if k not in words} for o in spec["outputs"]],
    }
    return {part: _hash(found[part]) for part in PLAN_PARTS}


def flow(print_: dict) -> str:
    """A fingerprint as written in the file: ``{formula: 3f2a..., inputs: ..., outputs: ...}``."""
    return "{" + ", ".join(f"{k}: {v}" for k, v in print_.items()) + "}"


# ----------------------------------------------------------------------------- loading


def unversioned(entries: list[Entry]) -> Versions:
    return Versions((Release(1, "1970-01-01", "Unversioned."),), {}, {}, None, {})


# The last reading of each versions file: (its text, the Versions read, the problems recorded).
# serve reads the file again at every edit, and at ten times the bank its histories take a
# quarter of a second to read; the same text reads the same way (a Versions is never changed).
_READ: dict[Path, tuple[str, Versions, tuple]] = {}


def load_versions(root: Path, entries: list[Entry], problems: Problems) -> Versions:
    path = Path(root) / FILE
    if not path.exists():
        return unversioned(entries)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = None  # read() reports it
    last = _READ.get(path)
    if last is not None and text is not None and last[0] == text:
        for item in last[2]:
            problems.add(item.path, item.line, item.message)
        return last[1]
    before = len(problems)
    found = read(path, problems, "expected 'releases:', 'entries:', 'presets:' and 'plans:'")
    if found is None:
        return unversioned(entries)
    versions = _versions(path, found[1], found[2], problems)
    _READ.clear()  # one file is kept: a test's many bank folders do not pile up
    _READ[path] = (found[0], versions, tuple(problems.items[before:]))  # the text it was read from
    return versions


def _versions(path: Path, raw, tree, problems: Problems) -> Versions:
    if not isinstance(raw, dict) or not isinstance(raw.get("releases"), list):
        problems.add(path, 1, "expected 'releases:' (a list), 'entries:', 'presets:' and 'plans:' (mappings)")
        return unversioned([])
    releases = []
    for k, item in enumerate(raw["releases"]):
        line = tree.line(("releases", k))
        if not isinstance(item, dict) or set(item) != {"release", "date", "summary"}:
            problems.add(path, line, f"releases[{k}]: keys are release, date and summary, all required")
            continue
        if item["release"] != k + 1:
            problems.add(path, line, f"releases[{k}]: releases are numbered 1, 2, 3, ... in order; expected {k + 1}")
        releases.append(Release(item["release"], _date(item["date"]), str(item["summary"]).strip(), Where(path, line)))
    known = {r.number for r in releases}
    histories = {}
    for kind in ("entries", "presets", "plans"):
        items = raw.get(kind) or {}
        if not isinstance(items, dict):
            problems.add(path, tree.line((kind,)), f"{kind}: expected a mapping of each one's versions")
            continue
        histories[kind] = {
            str(key): _history(path, tree, (kind, key), versions, known, problems) for key, versions in items.items()
        }
    return Versions(
        tuple(releases), histories.get("entries", {}), histories.get("presets", {}), path, histories.get("plans", {})
    )


def _date(value) -> str:
    return value.isoformat() if isinstance(value, datetime.date) else str(value)


def _history(path, tree, at, items, releases, problems) -> tuple[Version, ...]:
    name = f"{at[0]}.{at[1]}"
    if not isinstance(items, list) or not items:
        problems.add(path, tree.line(at), f"{name}: expected a list of versions, oldest first")
        return ()
    found = []
    for k, item in enumerate(items):
        line = tree.line((*at, k))
        if not isinstance(item, dict) or not VERSION_KEYS <= set(item) <= VERSION_KEYS | OPTIONAL_KEYS:
            keys = ", ".join(sorted(VERSION_KEYS))
            problems.add(
                path, line, f"{name}[{k}]: a version needs {keys} (and may have {', '.join(sorted(OPTIONAL_KEYS))})"
            )
            continue
        if item["version"] != k + 1:
            problems.add(path, line, f"{name}[{k}]: versions are numbered 1, 2, 3, ... oldest first; expected {k + 1}")
            continue
        if item["release"] not in releases:
            problems.add(
                path,
                tree.line((*at, k, "release")),
                f"{name}[{k}]: release {item['release']!r} is not listed under releases",
            )
        if not isinstance(item["fingerprint"], dict):
            problems.add(path, tree.line((*at, k, "fingerprint")), f"{name}[{k}].fingerprint: expected a mapping")
            continue
        found.append(
            Version(
                item["version"],
                _date(item["date"]),
                item["release"],
                " ".join(str(item["changed"]).split()),
                " ".join(str(item["why"]).split()),
                {str(a): str(b) for a, b in item["fingerprint"].items()},
                " ".join(str(item.get("erratum", "")).split()),
                " ".join(str(item.get("source", "")).split()),
                tuple(item.get("errata", ())),
                item.get("spec"),
                Where(path, line),
            )
        )
    return tuple(found)


# ----------------------------------------------------------------------------- the gate


# Presets are frozen: each one's fingerprint taken once (cache.kept_for).  serve gates every
# preset again at each edit.
_PRESET_PRINTS: dict = {}


def _preset_print(preset) -> dict:
    return kept_for(_PRESET_PRINTS, preset, lambda: preset_fingerprint(preset), bound=4096)


def check_versions(
    versions: Versions,
    entries: list[Entry],
    presets: dict,
    problems: Problems,
    plans: dict | None = None,
    only: set | None = None,
) -> None:
    """Every entry, preset and plan has versions; the newest one's fingerprint is what the entry
    (preset, plan) is now; each superseded entry version keeps the spec its fingerprint was taken of.
    ``only``: the keys of the entries and plans whose fingerprints to take (a rebuild's: the others'
    are what they were when the last good bank passed)."""
    if versions.path is None:
        return
    path = versions.path
    keys = {e.key for e in entries}
    for key, history in versions.entries.items():
        if key not in keys:
            problems.add(path, history[0].where.line if history else 1, f"entries.{key}: no entry has the id {key}")
    for entry in entries:
        if only is None or entry.key in only:
            _gate_entry(entry, versions.of(entry.key), path, problems)
    listed = {f"{kind}/{pid}": preset for kind, by_id in presets.items() for pid, preset in by_id.items()}
    for key, history in versions.presets.items():
        if key not in listed:
            problems.add(path, history[0].where.line if history else 1, f"presets.{key}: no preset is {key}")
    for key, preset in sorted(listed.items()):
        history = versions.presets.get(key, ())
        now = _preset_print(preset)
        where = preset.where
        if not history:
            problems.add(path, 1, f"preset {key} has no version; add it under presets with fingerprint {flow(now)}")
        elif history[-1].fingerprint != now:
            problems.add(
                where.path,
                where.line,
                f"preset {key}: its values changed since version {history[-1].version} without a new version; "
                f"add version {history[-1].version + 1} to {FILE} (date, what changed and why, the release) "
                f"with fingerprint {flow(now)}",
            )
    if plans is not None:  # (the plans are gated once they are loaded: bank.STEPS)
        _gate_plans(versions, {e.key: e for e in entries}, plans, problems, only)


def _gate_plans(versions: Versions, entries: dict, plans: dict, problems: Problems, only: set | None = None) -> None:
    path = versions.path
    for key, history in versions.plans.items():
        if key not in plans:
            problems.add(path, history[0].where.line if history else 1, f"plans.{key}: no plan is {key}")
    for key, (plan, _) in sorted(plans.items()):
        if only is not None and key not in only:
            continue  # its fingerprint is what it was when the last good bank passed
        history = versions.plans.get(key, ())
        now = plan_fingerprint(plan, entries)
        if not history:
            problems.add(path, 1, f"plan {key} has no version; add it under plans with fingerprint {flow(now)}")
            continue
        changed = [part for part in PLAN_PARTS if history[-1].fingerprint.get(part) != now[part]]
        if changed:
            problems.add(
                plan.where.path,
                plan.where.line,
                f"plan {key}: its {' and '.join(changed)} changed since version {history[-1].version} without a new "
                f"version; add version {history[-1].version + 1} to {FILE} (date, what changed and why, the "
                f"release) with fingerprint {flow(now)}",
            )


def _fails(entry: Entry, v: Version) -> str:
    """Why a superseded version's spec cannot run at its defaults on today's runtime ('' when it can)."""
    try:
        Calculator({"id": f"{entry.key}@{v.version}", **v.spec}).run({})
    except Exception as exc:  # an author's spec: any failure is reported, never raised
        return str(exc) or type(exc).__name__
    return ""


def _gate_entry(entry: Entry, history: tuple[Version, ...], path: Path, problems: Problems) -> None:
    now = fingerprint(entry.spec())
    if not history:
        problems.add(
            entry.where.path,
            entry.at("id").line,
            f"entry {entry.key} has no version; add version 1 under entries in {FILE} with fingerprint {flow(now)}",
        )
        return
    cases = {c.id: c for c in entry.cases}
    for v in history:
        for case_id in v.errata:
            case = cases.get(case_id)
            if case is None or not any(k.erratum for k in case.checks):
                problems.add(
                    path,
                    v.where.line,
                    f"entries.{entry.key}: version {v.version} names errata of case {case_id!r}, which has none",
                )
    for v in history[:-1]:
        if v.spec is None:
            problems.add(
                path,
                v.where.line,
                f"entries.{entry.key}: version {v.version} is superseded and keeps no spec; "
                "copy its formula, inputs and outputs under spec, so that its numbers can be recomputed",
            )
        elif _fails(entry, v):
            problems.add(
                path, v.where.line, f"entries.{entry.key}: version {v.version}'s spec does not run: {_fails(entry, v)}"
            )
        elif fingerprint(v.spec) != v.fingerprint:
            problems.add(
                path,
                v.where.line,
                f"entries.{entry.key}: version {v.version}'s spec is not the one fingerprinted {flow(v.fingerprint)}",
            )
    last = history[-1]
    changed = [part for part in PARTS if last.fingerprint.get(part) != now[part]]
    if changed:
        problems.add(
            entry.where.path,
            entry.at(changed[0]).line,
            f"entry {entry.key}: its {' and '.join(changed)} changed since version {last.version} without a new "
            f"version; add version {last.version + 1} to {FILE} (date, what changed and why, the release; "
            f"version {last.version} keeps its spec) with fingerprint {flow(now)}",
        )
