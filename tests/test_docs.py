"""The documentation and the schema describe the same format, key for key."""

from __future__ import annotations

import re
from pathlib import Path

from site_builder.load.load import schema

DOC = Path(__file__).resolve().parent.parent / "docs" / "entry-format.md"
SECTIONS = {
    "Top-level keys": None,
    "An input": "input",
    "An output": "output",
    "A plot": "plot",
    "A feed": "feed",
    "A question": "solve",
    "A case": "case",
    "An inverse case": "inverse",
    "A check": "check",
}


def documented() -> dict[str, set[str]]:
    keys, section = {}, None
    for line in DOC.read_text().splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
            keys[section] = set()
        m = re.match(r"\| `(\w+)` \|", line)
        if m and section:
            keys[section].add(m.group(1))
    return keys


def test_docs_list_every_key_the_schema_accepts_and_no_other():
    docs = documented()
    for section, definition in SECTIONS.items():
        node = schema() if definition is None else schema()["$defs"][definition]
        assert docs[section] == set(node["properties"]), section


def test_schema_requires_what_the_docs_call_required():
    for line in DOC.read_text().splitlines():
        m = re.match(r"\| `(\w+)` \| yes \|", line)
        if m:
            key = m.group(1)
            assert any(key in node.get("required", []) for node in [schema(), *schema()["$defs"].values()]), key
