"""entries/*.yaml -> Entry objects, validated against entry.schema.json, every node's line kept.

YAML is parsed once here.  Problems are collected, never raised one at a time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from .cache import Cache, key
from .entry import PART_TITLES, Case, Chapter, Check, Entry, Feed, Fill, Input, Output, Plot, Synthesis, Where
from .errors import Problems
from .runtime import page
from .runtime.numbers import FORMATS

if TYPE_CHECKING:
    import jsonschema

SCHEMA_PATH = Path(__file__).with_name("entry.schema.json")
# libyaml's composer, where installed, is ten times faster and keeps the same node marks.
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
BANK_FILE = re.compile(r"(?P<number>\d{2})-(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*)\.yaml")
TOOLKIT_FILE = re.compile(r"toolkit-(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*)\.yaml")


@cache
def read_schema(path: Path) -> tuple[str, dict]:
    """A JSON Schema file's text (what validation verdicts are cached by) and its content, read once."""
    text = path.read_text(encoding="utf-8")
    return text, json.loads(text)


def schema() -> dict:
    return read_schema(SCHEMA_PATH)[1]


class _Tree:
    """Plain data from a YAML node, with the line of every path (1-based)."""

    def __init__(self, path: Path, problems: Problems):
        self.path = path
        self.problems = problems
        self.lines: dict[tuple, int] = {}
        self.block_lines: dict[tuple, int] = {}
        self._constructor = yaml.SafeLoader("")

    def build(self, node, at: tuple = ()):
        self.lines.setdefault(at, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            out = {}
            for key_node, value_node in node.value:
                key = self._constructor.construct_object(key_node)
                if not isinstance(key, str):
                    self.problems.add(self.path, key_node.start_mark.line + 1, f"{_show(at)}: key {key!r} is not text")
                    continue
                if key in out:
                    self.problems.add(self.path, key_node.start_mark.line + 1, f"{_show(at + (key,))}: duplicate key")
                self.lines[at + (key,)] = key_node.start_mark.line + 1
                out[key] = self.build(value_node, at + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, at + (i,)) for i, item in enumerate(node.value)]
        if node.style in ("|", ">"):
            self.block_lines[at] = node.start_mark.line + 2
        else:
            self.block_lines[at] = node.start_mark.line + 1
        return self._constructor.construct_object(node)

    def line(self, at) -> int:
        at = tuple(at)
        while at and at not in self.lines:
            at = at[:-1]
        return self.lines.get(at, 1)

    def under(self, at) -> _Lines:
        """The lines of the paths inside ``at``, relative to it: an item's ``lines`` (entry.Located)."""
        return _Lines(self.lines, tuple(at))


class _Lines(Mapping):
    """A view of a file's path -> line table from inside one item: ``("default",)`` reads
    ``("inputs", 0, "default")``.  A view, not a copy: making one per item costs nothing."""

    def __init__(self, table: dict, prefix: tuple):
        self.table, self.prefix = table, prefix

    def __getitem__(self, path: tuple) -> int:
        return self.table[self.prefix + tuple(path)]

    def __contains__(self, path) -> bool:
        return self.prefix + tuple(path) in self.table

    def __iter__(self):
        n = len(self.prefix)
        return (path[n:] for path in self.table if path[:n] == self.prefix)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _show(at) -> str:
    """('inputs', 2, 'default') -> 'inputs[2].default'."""
    text = ""
    for part in at:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "entry"


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


def _message(error: jsonschema.ValidationError) -> tuple[tuple, str]:
    at = tuple(error.absolute_path)
    where = _show(at)
    kind = error.validator
    if kind == "required":
        missing = re.search(r"'([^']+)'", error.message).group(1)
        return at, f"{where}: missing key '{missing}'"
    if kind == "additionalProperties":
        allowed = ", ".join(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in error.schema.get("properties", {})]
        return at + (extra[0],), f"{_show(at + (extra[0],))}: unknown key '{extra[0]}'; allowed: {allowed}"
    if kind == "type":
        return at, f"{where}: expected {error.validator_value}, got {type(error.instance).__name__} {error.instance!r}"
    if kind == "enum":
        return at, f"{where}: {error.instance!r} is not one of {', '.join(map(str, error.validator_value))}"
    if kind == "pattern":
        hint = _PATTERN_HINTS.get(
            "fill" if at[:1] == ("fill",) else at[-1] if at else "", f"does not match {error.validator_value}"
        )
        return at, f"{where}: {error.instance!r} {hint}"
    if kind == "oneOf":
        described = error.schema.get("description") or "a value of another type"
        return at, f"{where}: {error.instance!r} is not valid here; expected {described[0].lower() + described[1:]}"
    if kind in ("minimum", "maximum"):
        return at, f"{where}: {error.instance!r} is {'below' if kind == 'minimum' else 'above'} {error.validator_value}"
    if kind == "minItems":
        return at, f"{where}: needs at least {error.validator_value} item(s)"
    if kind == "minLength":
        return at, f"{where}: must not be empty"
    if kind == "uniqueItems":
        return at, f"{where}: has duplicate items"
    return at, f"{where}: {error.message}"


def _pure_yaml_error(text: str) -> yaml.YAMLError:
    try:
        yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        return exc
    return yaml.YAMLError("not valid YAML")


def schema_errors(
    raw: dict, text: str, schema_path: Path = SCHEMA_PATH, what: str = "entry"
) -> list[tuple[tuple, str]]:
    """(path in the file, message) for each way ``raw`` breaks the schema at ``schema_path``; a
    message about the whole file names it ``what`` (an entry, a preset).

    Validation is slow and depends only on the file's text and the schema, so a file that
    validated before unchanged is not validated (nor jsonschema imported) again.  Errors of an
    ``if`` or ``allOf`` are left out: the errors of their branches say what is wrong."""
    cache = Cache("schema")
    schema_text, found_schema = read_schema(schema_path)
    k = key(schema_text, text)
    if cache.get(k) == "valid":
        return []
    import jsonschema  # slow to import, and needed only for a file not validated before

    validator = jsonschema.Draft202012Validator(found_schema)
    errors = sorted(validator.iter_errors(raw), key=lambda e: list(map(str, e.absolute_path)))
    found = []
    for error in errors:
        if error.validator in ("if", "allOf"):
            continue
        at, message = _message(error)
        found.append((at, f"{what}:{message[len('entry:') :]}" if message.startswith("entry:") else message))
    if not found:
        cache.put(k, "valid")
        cache.save()
    return found


def compose(path: Path, problems: Problems, empty: str) -> tuple[str, yaml.Node] | None:
    """A YAML file's text and node tree, or None with the problem recorded: unreadable, not YAML
    (worded the same with or without libyaml), or empty (``empty`` says what it should hold)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.add(path, 1, f"cannot read: {exc}")
        return None
    try:
        node = yaml.compose(text, Loader=YAML_LOADER)
    except yaml.YAMLError:
        exc = _pure_yaml_error(text)
        mark = getattr(exc, "problem_mark", None)
        problems.add(path, mark.line + 1 if mark else 1, f"not valid YAML: {getattr(exc, 'problem', exc)}")
        return None
    if node is None:
        problems.add(path, 1, f"empty file; {empty}")
        return None
    return text, node


def load_file(path: Path, problems: Problems) -> Entry | None:
    """One entry file, or None (with problems recorded) when it cannot be read into an Entry."""
    found = compose(path, problems, "an entry needs the keys listed in docs/entry-format.md")
    if found is None:
        return None
    text, node = found
    tree = _Tree(path, problems)
    before = len(problems)
    raw = tree.build(node)
    for at, message in schema_errors(raw, text):
        problems.add(path, tree.line(at), message)
    if len(problems) > before:
        return None
    return _entry(path, raw, tree, problems)


# Keys built into typed items (or copied) by _entry itself; every other key is passed on as it is.
STRUCTURED = frozenset({"inputs", "outputs", "cases", "plots", "feeds", "fill", "solve"})


def _entry(path: Path, raw: dict, tree: _Tree, problems: Problems) -> Entry | None:
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
        Output(**item, where=where("outputs", i), lines=tree.under(("outputs", i)))
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
            _fill(kind, name, text, where("fill", kind, name), tree.under(("fill", kind, name)))
            for kind, mapping in raw.get("fill", {}).items()
            for name, text in mapping.items()
        ),
        lines=tree.lines,
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


FILL = re.compile(r"(?P<field>[a-z][a-z0-9_]*)(?P<optional>\?)?(?:\s*(?P<op>[*/])\s*(?P<factor>[0-9.]+(?:e[0-9]+)?))?")


def _fill(kind: str, name: str, text: str, where: Where, lines: dict) -> Fill:
    """'layers', 'context?', 'memory / 1e9' -> Fill (the schema's pattern has admitted the text)."""
    m = FILL.fullmatch(text.strip())
    return Fill(
        kind=kind,
        input=name,
        field=m["field"],
        optional=bool(m["optional"]),
        op=m["op"] or "",
        factor=m["factor"] or "",
        where=where,
        lines=lines,
    )


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
    tree = _Tree(path, problems)
    raw = tree.build(yaml.compose(path.read_text(encoding="utf-8"), Loader=YAML_LOADER))
    prompts = []
    for k, item in enumerate(raw.get("prompts", [])):
        unknown = set(item) - {"id", "text", "entries", "groups", "correction"}
        if unknown or not {"id", "text"} <= set(item) or ("entries" in item) == ("groups" in item):
            problems.add(
                path,
                tree.line(("prompts", k)),
                f"prompts[{k}]: keys are id, text, entries (or groups) and optionally correction",
            )
            continue
        groups = ()
        if "groups" in item:
            if not all(isinstance(g, dict) and set(g) == {"label", "entries"} for g in item["groups"]):
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
    tree = _Tree(path, problems)
    try:
        node = yaml.compose(path.read_text(encoding="utf-8"), Loader=YAML_LOADER)
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


def load_all(root: Path, problems: Problems, presets: dict | None = None) -> list[Entry]:
    """Every entry file; a case naming presets takes its inputs from them (``presets``, when the
    caller has loaded them already)."""
    entries = [e for e in (load_file(p, problems) for p in entry_files(root)) if e is not None]
    if any(case.preset for e in entries for case in e.cases):
        from .presets import resolve_case_presets  # presets imports this module

        entries = resolve_case_presets(entries, Path(root), problems, presets)
    if not entries and not problems:
        problems.add(Path(root), 1, "no entries: expected entries/NN-slug.yaml files")
    return sorted(entries, key=lambda e: (not e.in_bank, e.id if e.in_bank else 0, e.key))
