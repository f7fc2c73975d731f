"""An entry's results across every preset of a kind, computed at build time: "Every model".

For an entry that takes a model (or an accelerator), ``table`` runs the entry's own calculator
once per preset of that kind, each filled through the entry's ``fill:`` mapping (fill.filled)
with the entry's defaults otherwise, and keeps the headline and the other single-valued results
as the page writes them (the runtime's text) with their values for sorting.  A preset that does
not fill the entry, or whose values the entry rejects, is a row that says why.  ``files`` writes
one small JSON file per kind beside the page (``every-model.json``), which the page fetches only
when the reader opens its table (pyodide_app/every.js).
"""

from __future__ import annotations

import json

from ..load.entry import Entry
from ..load.fill import departures, filled, offers
from ..load.presets import Preset
from ..runtime.calculator import Calculator
from ..runtime.page import KIND_LABELS

COLUMNS = 6  # results a table shows: the headline first, then the entry's next single-valued results
FILE = "every-{kind}.json"


def columns(entry: Entry, calc: Calculator) -> list[dict]:
    """The results a table shows: the headlines, then the other outputs whose value is one number."""
    run = calc.remembered({})
    heads = list(entry.headlines)
    ordered = [o for o in entry.outputs if o.name in heads] + [o for o in entry.outputs if o.name not in heads]
    single = [o for o in ordered if isinstance(run["outputs"][o.name]["value"], (int, float))]
    return [{"name": o.name, "label": o.label, "unit": o.unit} for o in single[:COLUMNS]]


def _why_not(entry: Entry, preset: Preset) -> str:
    missing = [f.field for f in entry.fill if f.kind == preset.kind and not f.optional and not preset.has(f.field)]
    return f"does not fill this entry: it lacks {', '.join(missing)}"


def row(entry: Entry, calc: Calculator, preset: Preset, shown: list[dict]) -> dict:
    """One preset's row: its results as text and value, or ``why`` it has none."""
    out = {"id": preset.id, "name": preset.name, "family": preset.family}
    if not offers(entry, preset):
        return {**out, "why": _why_not(entry, preset)}
    try:
        run = calc.remembered(filled(entry, preset))  # run once by the check (fill.check_fill)
    except Exception as exc:  # a DomainError names the input; anything else is the formula's
        name = getattr(exc, "name", "")
        return {**out, "why": f"not computed: {name + ': ' if name else ''}{getattr(exc, 'message', exc)}"}
    cells = {}
    for column in shown:
        result = run["outputs"][column["name"]]
        value = result["value"]
        number = value if isinstance(value, (int, float)) and value == value and abs(value) != float("inf") else None
        flag = result.get("flag")  # words, not a number: the same in every unit
        cells[column["name"]] = {"text": flag or result["text"], "value": number, **({"flag": True} if flag else {})}
    departs = departures(entry, preset, calc)
    return {**out, "values": cells, **({"departs": departs} if departs else {})}


def table(entry: Entry, calc: Calculator, presets: dict[str, dict[str, Preset]], kind: str) -> dict:
    """The whole table of one kind: columns, then every preset of the kind by family and name."""
    shown = columns(entry, calc)
    chosen = sorted(presets.get(kind, {}).values(), key=lambda p: (p.family, p.name))
    return {
        "entry": entry.key,
        "kind": kind,
        "label": KIND_LABELS[kind],
        "columns": shown,
        "rows": [row(entry, calc, p, shown) for p in chosen],
    }


def kinds(entry: Entry) -> list[str]:
    """The preset kinds an entry takes (those its fill mapping names), in the page's order."""
    return [k for k in KIND_LABELS if any(f.kind == k for f in entry.fill)]


def files(entry: Entry, calc: Calculator, presets: dict[str, dict[str, Preset]]) -> dict[str, bytes]:
    """``{path: bytes}``: one ``every-<kind>.json`` beside the entry's page per kind it takes."""
    base = entry.url.strip("/")
    return {
        f"{base}/{FILE.format(kind=kind)}": json.dumps(
            table(entry, calc, presets, kind), ensure_ascii=False, separators=(",", ":")
        ).encode()
        for kind in kinds(entry)
    }
