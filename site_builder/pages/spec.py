"""The page spec of one entry (``runtime.page.PageSpec``), made by one function: ``page_spec``."""

from __future__ import annotations

import json

from ..load.entry import Entry
from ..load.presets import devices as preset_devices
from ..runtime import page
from .results import Results

PRESET_FILE = "presets.json"


def preset_file(entry: Entry, filling: dict) -> dict[str, bytes]:
    """``{path: bytes}``: the presets that fill ``entry`` (``filling``, fill.spec's: kind ->
    [page.Preset], only their mapped values), beside its page, or nothing when none does."""
    if not filling:
        return {}
    return {
        entry.url.strip("/") + "/" + PRESET_FILE: json.dumps(
            filling, ensure_ascii=False, separators=(",", ":")
        ).encode()
    }


def page_spec(
    entry: Entry, results: Results, meta: page.Meta, targets: dict, presets: dict, versions: page.Versions
) -> page.PageSpec:
    """What ``entry``'s page carries for the browser.  ``targets``: entry key -> Entry, for the
    feeds' pages; ``presets``: kind -> id -> Preset (only those that fill this entry are carried);
    ``versions``: the entry's versions (``versions.Versions.spec``)."""
    spec: page.PageSpec = {
        **entry.spec(),
        "meta": meta,
        # The page draws its first charts from these; their table is already in the HTML.
        "sweeps": [{k: v for k, v in sweep.items() if k != "text"} for sweep in results.sweeps],
        "feeds": [{"url": targets[str(f.entry)].url, "inputs": dict(f.inputs)} for f in entry.feeds],
        "labels": {**{i.name: i.label for i in entry.inputs}, **{o.name: o.label for o in entry.outputs}},
        "protocol": entry.protocol,
        "solve": solve_spec(entry, results.run),
        "versions": versions,
    }
    filling = results.filling
    if filling:
        # Which presets fill this entry, by id; their values and sources (``preset_file``), which
        # only the preset menus and the comparison use, are fetched when the reader first uses them.
        spec["presets"] = {kind: [{"id": p["id"]} for p in items] for kind, items in filling.items()}
        spec["presets_src"] = entry.url + PRESET_FILE
        spec["kinds"] = {kind: page.KIND_LABELS[kind] for kind in filling}
    mapping = [[f.input, f.field, f.op, f.factor, f.optional] for f in entry.fill if f.kind == "model"]
    if mapping:
        spec["config_fill"] = mapping  # what a pasted config.json fills (runtime/hfconfig.py, in the worker)
    solved = (spec["solve"] or {}).get("outputs", [])
    if any(o.unit == "B" and o.name in solved for o in entry.outputs):
        found = preset_devices(presets)
        if found:
            spec["devices"] = found  # a byte target a device's printed memory matches is said so
    return spec


def solve_spec(entry: Entry, defaults: dict) -> page.Solve | None:
    """What the page's solve panel offers: the numeric inputs it may free, the numeric outputs it
    may aim at (a list is neither), and the default question (the entry's ``solve`` pairing, else the
    first of each)."""
    inputs = [i.name for i in entry.inputs if i.type in ("real", "integer")]
    outputs = [
        o.name
        for o in entry.outputs
        if isinstance(defaults["outputs"][o.name]["value"], (int, float))
        and not isinstance(defaults["outputs"][o.name]["value"], bool)
    ]
    if not inputs or not outputs:
        return None
    pairing = entry.question or {}
    return {
        "input": pairing.get("input") if pairing.get("input") in inputs else inputs[0],
        "output": pairing.get("output") if pairing.get("output") in outputs else outputs[0],
        "inputs": inputs,
        "outputs": outputs,
    }
