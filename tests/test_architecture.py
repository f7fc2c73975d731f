"""docs/architecture.md stays true: every file it names exists, and every module of the build
and the runtime is named, with the noun it owns."""

from __future__ import annotations

import dataclasses
import json
import re

from site_builder.load.entry import Entry
from site_builder.load.load import STRUCTURED
from tests.support import ROOT

DOC = ROOT / "docs" / "architecture.md"
NAMED = re.compile(r"`((?:site_builder|pyodide_app|docs|tests|templates|entries)/[A-Za-z0-9_./-]*)`")


def test_every_file_the_architecture_names_exists():
    named = set(NAMED.findall(DOC.read_text()))
    assert len(named) > 30
    missing = sorted(path for path in named if not (ROOT / path).exists())
    assert not missing, f"docs/architecture.md names files that are gone: {missing}"


def test_every_module_is_in_the_architecture():
    named = set(NAMED.findall(DOC.read_text()))
    modules = sorted((ROOT / "site_builder").rglob("*.py"))
    unnamed = [
        str(p.relative_to(ROOT))
        for p in modules
        if p.name not in ("__init__.py", "__main__.py") and str(p.relative_to(ROOT)) not in named
    ]
    assert not unnamed, f"say in docs/architecture.md which noun these modules own: {unnamed}"


def test_a_plain_entry_key_needs_only_the_schema_the_entry_and_the_docs():
    """The architecture's promise for a new entry field: the loader passes every plain key of the
    schema to Entry, so each schema key is a field of Entry, and the docs' table lists it."""
    schema = json.loads((ROOT / "site_builder" / "load" / "entry.schema.json").read_text())
    fields = {f.name for f in dataclasses.fields(Entry)}
    assert set(schema["properties"]) <= fields
    assert STRUCTURED <= set(schema["properties"])
    table = (ROOT / "docs" / "entry-format.md").read_text().split("## Top-level keys", 1)[1].split("\n## ", 1)[0]
    assert {m for m in re.findall(r"^\| `([a-z_]+)` \|", table, re.M)} == set(schema["properties"])
