"""A YAML file held to a JSON Schema: its text, its plain data with the line of every node, and
the ways it breaks the schema, worded for an author.

Entries (load.py) and presets (presets.py) both read their files through this module; it knows
neither.  YAML is parsed once here.  Problems are collected, never raised one at a time.
"""

from __future__ import annotations

import datetime
import json
import marshal
import os
import re
import sys
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from ..cache import FOLDER, Cache, key
from ..errors import Problems

if TYPE_CHECKING:
    import jsonschema

# libyaml's composer, where installed, is ten times faster and keeps the same node marks.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def read_schema(path: Path) -> tuple[str, dict]:
    """A JSON Schema file's text (what validation verdicts are cached by) and its content, read once."""
    text = path.read_text(encoding="utf-8")
    return text, json.loads(text)


class Tree:
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
                    self.problems.add(self.path, key_node.start_mark.line + 1, f"{show(at)}: key {key!r} is not text")
                    continue
                if key in out:
                    self.problems.add(self.path, key_node.start_mark.line + 1, f"{show(at + (key,))}: duplicate key")
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

    def under(self, at) -> Lines:
        """The lines of the paths inside ``at``, relative to it: an item's ``lines`` (entry.Located)."""
        return Lines(self.lines, tuple(at))


class Lines(Mapping):
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


def show(at) -> str:
    """('inputs', 2, 'default') -> 'inputs[2].default'."""
    text = ""
    for part in at:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "entry"


def _no_hint(at: tuple) -> str | None:
    return None


def _message(error: jsonschema.ValidationError, hint: Callable[[tuple], str | None]) -> tuple[tuple, str]:
    at = tuple(error.absolute_path)
    where = show(at)
    kind = error.validator
    if kind == "required":
        missing = re.search(r"'([^']+)'", error.message).group(1)
        return at, f"{where}: missing key '{missing}'"
    if kind == "additionalProperties":
        allowed = ", ".join(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in error.schema.get("properties", {})]
        return at + (extra[0],), f"{show(at + (extra[0],))}: unknown key '{extra[0]}'; allowed: {allowed}"
    if kind == "type":
        return at, f"{where}: expected {error.validator_value}, got {type(error.instance).__name__} {error.instance!r}"
    if kind == "enum":
        return at, f"{where}: {error.instance!r} is not one of {', '.join(map(str, error.validator_value))}"
    if kind == "pattern":
        return at, f"{where}: {error.instance!r} {hint(at) or f'does not match {error.validator_value}'}"
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


def schema_errors(
    raw: dict, text: str, schema_path: Path, what: str = "entry", hint: Callable[[tuple], str | None] = _no_hint
) -> list[tuple[tuple, str]]:
    """(path in the file, message) for each way ``raw`` breaks the schema at ``schema_path``; a
    message about the whole file names it ``what`` (an entry, a preset); ``hint(path)`` says what
    a value that misses its pattern should look like (None: the pattern itself is shown).

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
        at, message = _message(error, hint)
        found.append((at, f"{what}:{message[len('entry:') :]}" if message.startswith("entry:") else message))
    if not found:
        cache.put(k, "valid")
        cache.save()
    return found


def _pure_yaml_error(text: str) -> yaml.YAMLError:
    try:
        yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        return exc
    return yaml.YAMLError("not valid YAML")


def compose(path: Path, problems: Problems, empty: str) -> tuple[str, yaml.Node] | None:
    """A YAML file's text and node tree, or None with the problem recorded: unreadable, not YAML
    (worded the same with or without libyaml), or empty (``empty`` says what it should hold)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.add(path, 1, f"cannot read: {exc}")
        return None
    node = _compose_text(path, text, problems, empty)
    return None if node is None else (text, node)


def _compose_text(path: Path, text: str, problems: Problems, empty: str) -> yaml.Node | None:
    try:
        node = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError:
        exc = _pure_yaml_error(text)
        mark = getattr(exc, "problem_mark", None)
        problems.add(path, mark.line + 1 if mark else 1, f"not valid YAML: {getattr(exc, 'problem', exc)}")
        return None
    if node is None:
        problems.add(path, 1, f"empty file; {empty}")
        return None
    return node


# What a parse depends on besides the text: this module's reading of nodes, and the parser.
PARSED_BY = ("tree-2", yaml.__version__, LOADER.__name__, sys.version)


def _to_tuple(value):
    return ("date", value.isoformat()) if type(value) is datetime.date else value


def _from_tuple(value):
    return datetime.date.fromisoformat(value[1]) if isinstance(value, tuple) else value


def _dates(data, change):
    """``data`` with ``change`` applied to every leaf: the same object when nothing changed."""
    if isinstance(data, dict):
        out = {k: _dates(v, change) for k, v in data.items()}
        return data if all(out[k] is data[k] for k in data) else out
    if isinstance(data, list):
        out = [_dates(v, change) for v in data]
        return data if all(a is b for a, b in zip(out, data)) else out
    return change(data)


def read(path: Path, problems: Problems, empty: str) -> tuple[str, dict | list | object, Tree] | None:
    """A YAML file's text, its plain data and its tree of lines, or None with the problem recorded.

    Parsing is most of the time a build spends reading, and depends only on the text: a file
    parsed before without a problem is read back from .cache/yaml/ (one file per text, as marshal
    writes plain data: a YAML date is kept as a tuple, which plain YAML data never holds, and a
    file whose parse recorded a problem is parsed every time)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.add(path, 1, f"cannot read: {exc}")
        return None
    k = key(*PARSED_BY, text)
    kept = FOLDER / "yaml" / f"{k}.marshal"
    try:
        raw, lines, block_lines, dated = marshal.loads(kept.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        pass
    else:
        tree = Tree(path, problems)
        tree.lines, tree.block_lines = lines, block_lines
        return text, _dates(raw, _from_tuple) if dated else raw, tree
    found = _compose_text(path, text, problems, empty)
    if found is None:
        return None
    tree = Tree(path, problems)
    before = len(problems)
    raw = tree.build(found)
    if len(problems) == before:
        plain = _dates(raw, _to_tuple)
        try:
            data = marshal.dumps((plain, tree.lines, tree.block_lines, plain is not raw))
        except ValueError:  # a YAML type marshal cannot write (a timestamp, binary): parsed every time
            return text, raw, tree
        try:
            kept.parent.mkdir(parents=True, exist_ok=True)
            tmp = kept.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, kept)
        except OSError:
            pass  # a read-only checkout reads without a cache
    return text, raw, tree
