"""entries/*.yaml -> Entry objects, validated against entry.schema.json, every node's line kept.

YAML is parsed once here.  Problems are collected, never raised one at a time.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import yaml

from ..errors import Problems
from ..runtime import page
from ..runtime.numbers import FORMATS
from . import fill, yamlfile
from .entry import PART_TITLES, Case, Chapter, Check, Entry, Feed, Index, Input, Output, Plot, Synthesis, Where
from .yamlfile import LOADER, Tree, compose, read_schema

SCHEMA_PATH = Path(__file__).with_name("entry.schema.json")
BANK_FILE = re.compile(r"(?P<number>\d{2})-(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*)\.yaml")
TOOLKIT_FILE = re.compile(r"toolkit-(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*)\.yaml")


def schema() -> dict:
    return read_schema(SCHEMA_PATH)[1]


# The output formats as an author writes them: sig:N, ..., int, ..., text.
FORMAT_NAMES = [f"{f.name}:N" if f.takes_n else f.name for f in FORMATS]
_PATTERN_HINTS = {
    "domain": "is not an interval such as '[0, 1]', '(0, inf)'",
    "length": "is not an interval such as '[2, 64]'",
    "range": "is not an interval such as '(0.3333, 0.5)'",
    "format": "is not a format: " + ", ".join(FORMAT_NAMES[:-1]) + " or " + FORMAT_NAMES[-1],
    "name": "is not a Python identifier",
    "output": "is not a Python identifier",
    "input": "is not a Python identifier",
    "id": "must be letters, digits and hyphens",
    "url": "is not an https:// address",
    "fill": "is not a preset field: write layers, context? (optional) or memory / 1e9 (converted)",
}


def _hint(at: tuple) -> str | None:
    """What a value of an entry that misses its pattern should look like, by the key it is under."""
    return _PATTERN_HINTS.get("fill" if at[:1] == ("fill",) else at[-1] if at else "")


def schema_errors(raw: dict, text: str) -> list[tuple[tuple, str]]:
    """(path in the file, message) for each way an entry's data breaks entry.schema.json."""
    return yamlfile.schema_errors(raw, text, SCHEMA_PATH, "entry", _hint)


def load_file(path: Path, problems: Problems) -> Entry | None:
    """One entry file, or None (with problems recorded) when it cannot be read into an Entry."""
    before = len(problems)
    found = yamlfile.read(path, problems, "an entry needs the keys listed in docs/entry-format.md")
    if found is None:
        return None
    text, raw, tree = found
    for at, message in schema_errors(raw, text):
        problems.add(path, tree.line(at), message)
    if len(problems) > before:
        return None
    return _entry(path, raw, tree, problems, text_digest(text))


def text_digest(text: str) -> str:
    """A source's text, hashed for the site's version (``Entry.text_digest``, build.site_files)."""
    return hashlib.sha256(text.encode()).hexdigest()


# Keys built into typed items (or copied) by _entry itself; every other key is passed on as it is.
STRUCTURED = frozenset({"inputs", "outputs", "cases", "plots", "feeds", "fill", "solve"})


def _entry(path: Path, raw: dict, tree: Tree, problems: Problems, digest: str = "") -> Entry | None:
    def where(*at) -> Where:
        return Where(path, tree.line(at))

    slug = _slug(path, raw["id"], problems, where("id"))
    inputs = tuple(
        Input(
            **{k: (tuple(v) if k == "choices" else v) for k, v in item.items()},
            where=where("inputs", i),
            lines=tree.under(("inputs", i)),
        )
        for i, item in enumerate(raw["inputs"])
    )
    outputs = tuple(
        Output(
            **{k: (Index(**v) if k == "index" else v) for k, v in item.items()},
            where=where("outputs", i),
            lines=tree.under(("outputs", i)),
        )
        for i, item in enumerate(raw["outputs"])
    )
    cases = tuple(
        Case(
            **{k: v for k, v in case.items() if k != "checks"},
            checks=tuple(
                Check(**check, where=where("cases", c, "checks", k), lines=tree.under(("cases", c, "checks", k)))
                for k, check in enumerate(case["checks"])
            ),
            where=where("cases", c),
            lines=tree.under(("cases", c)),
        )
        for c, case in enumerate(raw["cases"])
    )
    blocks = {key: tree.block_lines.get((key,), tree.line((key,))) for key in ("statement", "formula", "notes")}
    # Keys the schema admits that hold plain values (text, numbers, lists of them) go to Entry as
    # they are, lists as tuples: a new plain key needs only the schema, Entry and the docs.
    plain = {k: (tuple(v) if isinstance(v, list) else v) for k, v in raw.items() if k not in STRUCTURED}
    return Entry(
        **plain,
        slug=slug,
        inputs=inputs,
        outputs=outputs,
        cases=cases,
        where=Where(path, 1),
        block_lines=blocks,
        plots=tuple(
            Plot(
                chart=_chart(p),
                caption=p.get("caption", ""),
                where=where("plots", k),
                lines=tree.under(("plots", k)),
            )
            for k, p in enumerate(raw.get("plots", []))
        ),
        solve=dict(raw["solve"]) if "solve" in raw else None,
        feeds=tuple(
            Feed(
                entry=f["entry"],
                label=f["label"],
                inputs=dict(f["inputs"]),
                where=where("feeds", k),
                lines=tree.under(("feeds", k)),
            )
            for k, f in enumerate(raw.get("feeds", []))
        ),
        fill=tuple(
            fill.read(kind, name, text, where("fill", kind, name), tree.under(("fill", kind, name)))
            for kind, mapping in raw.get("fill", {}).items()
            for name, text in mapping.items()
        ),
        lines=tree.lines,
        text_digest=digest,
    )


def _chart(p: dict) -> page.Plot:
    """A plot's keys as the page reads them: the YAML's own, defaults filled in."""
    chart: page.Plot = {
        "x": p["x"],
        "y": list(p["y"]),
        "from": p["from"],
        "to": p["to"],
        "log_x": p.get("log_x", False),
        "log_y": p.get("log_y", False),
        "points": p.get("points", page.PLOT_POINTS),
    }
    if p.get("when"):
        chart["when"] = dict(p["when"])
    return chart


def _slug(path: Path, entry_id, problems: Problems, where: Where) -> str:
    """Names carry conventions: entries/07-slug.yaml holds id 7; entries/toolkit-slug.yaml holds id 'slug'."""
    bank, toolkit = BANK_FILE.fullmatch(path.name), TOOLKIT_FILE.fullmatch(path.name)
    if isinstance(entry_id, int):
        if not bank or int(bank["number"]) != entry_id:
            problems.add(
                path, where.line, f"id: {entry_id} must live in entries/{entry_id:02d}-<slug>.yaml, not {path.name}"
            )
            return path.stem
        return bank["slug"]
    if not toolkit or toolkit["slug"] != entry_id:
        problems.add(
            path,
            where.line,
            f"id: toolkit entry {entry_id!r} must live in entries/toolkit-{entry_id}.yaml, not {path.name}",
        )
    return entry_id


def entry_files(root: Path) -> list[Path]:
    """Entry files; a name starting with '_' marks a file that is not an entry."""
    return sorted(p for p in Path(root).glob("*.yaml") if not p.name.startswith("_"))


SYNTHESIS_FILE = "_synthesis.yaml"


def load_synthesis(root: Path, problems: Problems) -> tuple[tuple[Synthesis, ...], str]:
    """The bank's synthesis prompts and their introduction from entries/_synthesis.yaml, if present."""
    path = Path(root) / SYNTHESIS_FILE
    if not path.exists():
        return (), ""
    found = compose(path, problems, "the synthesis file holds an intro and a list under 'prompts:'")
    if found is None:
        return (), ""
    tree = Tree(path, problems)
    raw = tree.build(found[1])
    if not isinstance(raw, dict):
        problems.add(path, 1, "expected an intro and a list under 'prompts:', one item per prompt")
        return (), ""
    if not isinstance(raw.get("prompts", []), list):
        problems.add(path, tree.line(("prompts",)), "prompts: expected a list, one item per prompt")
        return (), ""
    if not isinstance(raw.get("intro", ""), str):
        problems.add(path, tree.line(("intro",)), "intro: expected text")
        return (), ""
    prompts = []
    for k, item in enumerate(raw.get("prompts", [])):
        unknown = set(item) - {"id", "text", "entries", "groups", "correction"} if isinstance(item, dict) else {k}
        if unknown or not {"id", "text"} <= set(item) or ("entries" in item) == ("groups" in item):
            problems.add(
                path,
                tree.line(("prompts", k)),
                f"prompts[{k}]: keys are id, text, entries (or groups) and optionally correction",
            )
            continue
        if "entries" in item and not isinstance(item["entries"], list):
            problems.add(
                path, tree.line(("prompts", k, "entries")), f"prompts[{k}].entries: expected a list of entries"
            )
            continue
        groups = ()
        if "groups" in item:
            if not isinstance(item["groups"], list) or not all(
                isinstance(g, dict) and set(g) == {"label", "entries"} and isinstance(g["entries"], list)
                for g in item["groups"]
            ):
                problems.add(
                    path, tree.line(("prompts", k, "groups")), f"prompts[{k}].groups: each group is label and entries"
                )
                continue
            groups = tuple((g["label"], tuple(g["entries"])) for g in item["groups"])
        entries = tuple(item["entries"]) if "entries" in item else tuple(e for _, group in groups for e in group)
        prompts.append(
            Synthesis(
                item["id"],
                item["text"],
                entries,
                item.get("correction", ""),
                Where(path, tree.line(("prompts", k))),
                groups,
                lines=tree.under(("prompts", k)),
            )
        )
    return tuple(prompts), raw.get("intro", "")


CHAPTERS_FILE = "_chapters.yaml"
CHAPTER_COUNT = 17


def load_chapters(root: Path, problems: Problems) -> dict[int, Chapter]:
    """What each chapter covers, from entries/_chapters.yaml if present: every chapter 1-17 once,
    in order, each with its part, a short description and a longer one."""
    path = Path(root) / CHAPTERS_FILE
    if not path.exists():
        return {}
    tree = Tree(path, problems)
    try:
        node = yaml.compose(path.read_text(encoding="utf-8"), Loader=LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problems.add(path, mark.line + 1 if mark else 1, f"not valid YAML: {getattr(exc, 'problem', exc)}")
        return {}
    raw = tree.build(node) if node is not None else None
    items = raw.get("chapters") if isinstance(raw, dict) else None
    if not isinstance(items, list):
        problems.add(path, 1, "expected a list under 'chapters:', one item per chapter 1-17")
        return {}
    chapters: dict[int, Chapter] = {}
    keys = {"chapter", "part", "short", "covers"}
    for k, item in enumerate(items):
        line = tree.line(("chapters", k))
        if not isinstance(item, dict) or set(item) != keys:
            problems.add(path, line, f"chapters[{k}]: keys are chapter, part, short and covers, all required")
            continue
        number, part = item["chapter"], item["part"]
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= CHAPTER_COUNT:
            problems.add(
                path,
                tree.line(("chapters", k, "chapter")),
                f"chapters[{k}].chapter: {number!r} is not a chapter 1-{CHAPTER_COUNT}",
            )
            continue
        if number in chapters:
            problems.add(
                path, tree.line(("chapters", k, "chapter")), f"chapters[{k}]: chapter {number} is described twice"
            )
            continue
        if part not in PART_TITLES:
            problems.add(
                path,
                tree.line(("chapters", k, "part")),
                f"chapters[{k}].part: {part!r} is not one of {', '.join(PART_TITLES)}",
            )
            continue
        texts = {name: " ".join(str(item[name] or "").split()) for name in ("short", "covers")}
        empty = [name for name, text in texts.items() if not text]
        if empty:
            problems.add(path, tree.line(("chapters", k, empty[0])), f"chapters[{k}].{empty[0]}: must not be empty")
            continue
        if len(texts["short"]) > 60:
            problems.add(
                path,
                tree.line(("chapters", k, "short")),
                f"chapters[{k}].short: {len(texts['short'])} characters; at most 60 fit an entry's kicker",
            )
            continue
        chapters[number] = Chapter(
            number, part, texts["short"], texts["covers"], Where(path, line), lines=tree.under(("chapters", k))
        )
    missing = [n for n in range(1, CHAPTER_COUNT + 1) if n not in chapters]
    if missing and len(chapters) == len(items):
        problems.add(
            path,
            1,
            f"chapters: no description of chapter {', '.join(map(str, missing))}; every chapter 1-{CHAPTER_COUNT} needs one",
        )
    if list(chapters) != sorted(chapters):
        problems.add(path, 1, "chapters: list the chapters in order, 1 to 17")
    return chapters


def order(entry: Entry) -> tuple:
    """The bank's order: its entries by number, then the toolkit's by key."""
    return (not entry.in_bank, entry.id if entry.in_bank else 0, entry.key)


def load_all(root: Path, problems: Problems) -> list[Entry]:
    """Every entry file, as written (a case naming presets is filled in by the bank: bank.STEPS)."""
    entries = [e for e in (load_file(p, problems) for p in entry_files(root)) if e is not None]
    if not entries and not problems:
        problems.add(Path(root), 1, "no entries: expected entries/NN-slug.yaml files")
    return sorted(entries, key=order)
