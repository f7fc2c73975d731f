"""The page spec and the rules the build and the browser share: each written once, in the runtime,
and what repeats it elsewhere (the schema, the docs, the loader's hint) held to it."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest

from site_builder.cli import main
from site_builder.errors import shown
from site_builder.load import _PATTERN_HINTS, schema
from site_builder.runtime import page
from site_builder.runtime.numbers import FORMAT_PATTERN, FORMATS, NUMERIC, split_format

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "entry-format.md"
SPEC = re.compile(r'<script type="application/json" id="entry-spec">(.*?)</script>', re.S)


def written(f, code: str = "") -> str:
    """One format as the docs list it: `sig:N` (what it writes)."""
    name = f"{code}{f.name}:N{code}" if f.takes_n else f"{code}{f.name}{code}"
    return f"{name} ({f.description.replace('`', '') if not code else f.description})" if f.description else name


# ----------------------------------------------------------------------------- output formats


def test_the_schema_admits_exactly_the_formats_of_the_table():
    node = schema()["$defs"]["output"]["properties"]["format"]
    assert node["pattern"] == FORMAT_PATTERN
    assert node["description"] == "How to write the value: " + ", ".join(written(f) for f in FORMATS) + "."


def test_the_docs_list_the_formats_of_the_table():
    row = next(line for line in DOC.read_text().splitlines() if line.startswith("| `format` |"))
    assert f"How to write the value: {', '.join(written(f, '`') for f in FORMATS)}." in row


def test_the_loaders_hint_names_every_format():
    names = [f"{f.name}:N" if f.takes_n else f.name for f in FORMATS]
    assert _PATTERN_HINTS["format"] == f"is not a format: {', '.join(names[:-1])} or {names[-1]}"


@pytest.mark.parametrize(
    "text, split", [("si:3", ("si", 3)), ("sig:12", ("sig", 12)), ("sig", ("sig", None)), ("int", ("int", None))]
)
def test_split_format(text, split):
    assert split_format(text) == split


@pytest.mark.parametrize("text", ["money", "int:3", "bool:1", "sig:", "si:x", "", "sig:4 "])
def test_split_format_rejects_what_the_schema_rejects(text):
    with pytest.raises(ValueError):
        split_format(text)
    assert not re.fullmatch(FORMAT_PATTERN, text)


def test_numeric_formats_are_the_tables():
    assert NUMERIC == tuple(f.name for f in FORMATS if f.numeric)
    assert "bool" not in NUMERIC and "text" not in NUMERIC and "fraction" in NUMERIC


# ----------------------------------------------------------------------------- defaults written once


def test_the_chart_points_default_is_written_once():
    points = schema()["$defs"]["plot"]["properties"]["points"]["description"]
    assert f"(default {page.PLOT_POINTS})" in points
    row = next(line for line in DOC.read_text().splitlines() if line.startswith("| `points` |"))
    assert f"(default {page.PLOT_POINTS})" in row


def test_a_plot_keeps_the_yaml_names_and_its_defaults(bank):
    entries, _ = bank
    plots = [p for e in entries for p in e.plots]
    assert plots
    for plot in plots:
        chart = plot.spec()
        assert {"x", "y", "from", "to", "log_x", "log_y", "points"} <= set(chart)
        assert "start" not in chart and "stop" not in chart
        assert plot["from"] == chart["from"] and plot["to"] == chart["to"]


# ----------------------------------------------------------------------------- reserved query names

RESERVED_FIXTURE = ROOT / "tests" / "bad_entries" / "input-name-reserved"


@pytest.mark.parametrize("name", page.RESERVED)
def test_an_input_named_like_a_page_parameter_is_rejected(name, tmp_path, capsys):
    folder = tmp_path / "bank"
    shutil.copytree(RESERVED_FIXTURE, folder)
    yaml = folder / "01-toy.yaml"
    yaml.write_text(re.sub(r"\bsolve\b", name, yaml.read_text()))
    # The fixture's message, word for word, for this name (the list of reserved names stays as it is).
    listed = "(embed, units, solve, model, hardware, show)"
    expected = (RESERVED_FIXTURE / "expected.txt").read_text().replace("{here}", shown(folder))
    assert listed in expected
    expected = re.sub(r"\bsolve\b", name, expected.replace(listed, "@")).replace("@", listed)
    assert main(["--entries", str(folder), "check"]) == 1
    assert capsys.readouterr().err == expected


def test_the_docs_name_every_reserved_name():
    row = next(line for line in DOC.read_text().splitlines() if "keep for themselves" in line)
    assert all(f"`{name}`" in row for name in page.RESERVED)


def test_the_page_takes_its_reserved_names_from_the_spec(site):
    spec = json.loads(html.unescape(SPEC.search((site / "35" / "index.html").read_text()).group(1)))
    assert spec["reserved"] == list(page.RESERVED)
    script = (ROOT / "pyodide_app" / "page.js").read_text()
    assert "spec.reserved" in script
    assert not re.search(r'"embed",\s*"units"', script)  # no list of its own to drift
