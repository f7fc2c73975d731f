"""Every entry's headline says what it is: a label naming its subject, and a unit or a printed kind."""

from __future__ import annotations

import re

import pytest

from site_builder.load.entry import KINDS
from site_builder.load.load import schema
from tests.support import load_bank

ENTRIES = load_bank()[0]
# A label led by a pronoun or a bare adjective leans on the text around it: "Its lifecycle cost".
PRONOUN = re.compile(r"^(its|it|their|they|this|that|these|those|them|the same|the other)\b", re.IGNORECASE)


def headline_outputs():
    for entry in ENTRIES:
        outputs = {o.name: o for o in entry.outputs}
        for name in entry.headlines:
            yield pytest.param(entry, outputs[name], id=f"{entry.test_id}-{name}")


@pytest.mark.parametrize(("entry", "output"), list(headline_outputs()))
def test_headline_label_names_its_subject(entry, output):
    assert output.label.strip(), f"{entry.where.path.name}: the headline {output.name} has no label"
    assert not PRONOUN.match(output.label), (
        f"{entry.where.path.name}:{output.where.line}: the headline's label {output.label!r} leans on its neighbours;"
        " name the subject (e.g. 'Lifecycle cost of the cheapest candidate')"
    )
    words = re.findall(r"[A-Za-z]{2,}", output.label)
    assert len(words) >= 2, (
        f"{entry.where.path.name}:{output.where.line}: the headline's label {output.label!r} is a symbol or a bare noun;"
        " say of what (e.g. 'Parameters of the layer')"
    )


@pytest.mark.parametrize(("entry", "output"), list(headline_outputs()))
def test_headline_has_a_unit_or_a_printed_kind(entry, output):
    percent = output.format.startswith("percent")
    assert output.unit or percent or output.kind, (
        f"{entry.where.path.name}:{output.where.line}: the headline {output.name} has no unit and no kind"
        f" (one of {', '.join(KINDS)})"
    )


def test_the_schema_allows_exactly_the_kinds():
    enums = [v["enum"] for v in _walk(schema()) if isinstance(v, dict) and "scale" in v.get("enum", ())]
    assert enums == [list(KINDS)]


def _walk(node):
    yield node
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for child in children:
        yield from _walk(child)


@pytest.mark.node
def test_the_page_prints_the_kind_and_the_unit(site):
    """The built page shows the headline's kind in its label and its unit in its value."""
    for entry in ENTRIES:
        html = (site / entry.url.strip("/") / "index.html").read_text()
        for name in entry.headlines:
            output = next(o for o in entry.outputs if o.name == name)
            row = re.search(rf'<div class="result headline" id="output-{name}">(.*?)</div>', html, re.S)
            assert row, f"{entry.url}: no headline row for {name}"
            if output.kind:
                assert f'<span class="kind">({output.kind_text})</span>' in row.group(1), entry.url
            if output.unit and not output.format.startswith("si"):
                value = re.search(r"<output[^>]*>(.*?)</output>", row.group(1), re.S).group(1)
                assert value.endswith(output.unit) or "<table" in row.group(1) or value.endswith(output.unit[:-1]), (
                    f"{entry.url}: {value!r} lacks {output.unit}"
                )
