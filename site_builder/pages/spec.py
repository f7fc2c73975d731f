"""The page spec of one entry (``runtime.page.PageSpec``), made by one function: ``page_spec``."""

from __future__ import annotations

import json

from ..load.entry import Entry
from ..load.presets import devices as preset_devices
from ..runtime import page
from .results import Results

PRESET_FILE = "presets.json"
VERSIONS_FILE = "versions.json"
SWEEPS_FILE = "sweeps.json"


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


def sweeps(results: Results) -> list[page.Sweep]:
    """The defaults' points of each plot, without their text (the page's tables have it)."""
    return [{k: v for k, v in sweep.items() if k != "text"} for sweep in results.sweeps]


def sweeps_file(entry: Entry, results: Results) -> dict[str, bytes]:
    """``{path: bytes}``: the defaults' points of the entry's plots beside its page, which the
    charts read only when they are drawn before the page's Python is ready; nothing without plots."""
    if not entry.plots:
        return {}
    points = json.dumps(sweeps(results), ensure_ascii=False, separators=(",", ":")).encode()
    return {entry.url.strip("/") + "/" + SWEEPS_FILE: points}


def versions_file(entry: Entry, versions: page.Versions) -> dict[str, bytes]:
    """``{path: bytes}``: an entry's history and its older versions' specs (``versions``, the
    entry's ``versions.Versions.spec``), beside its page, which only a link to an older version
    reads; nothing for an entry at its first version."""
    if versions["current"] == 1:
        return {}
    kept = {"history": versions["history"], "older": versions["older"]}
    return {
        entry.url.strip("/") + "/" + VERSIONS_FILE: json.dumps(kept, ensure_ascii=False, separators=(",", ":")).encode()
    }


def page_spec(
    entry: Entry, results: Results, meta: page.Meta, targets: dict, presets: dict, versions: page.Versions
) -> page.PageSpec:
    """What ``entry``'s page carries for the browser.  ``targets``: entry key -> Entry, for the
    feeds' pages; ``presets``: kind -> id -> Preset (only those that fill this entry are carried);
    ``versions``: the entry's versions (``versions.Versions.spec``)."""
    spec: page.PageSpec = {
        **{k: v for k, v in entry.spec().items() if k != "formula"},  # (the page shows it: read from there)
        "meta": meta,
        "feeds": [{"url": targets[str(f.entry)].url, "inputs": dict(f.inputs)} for f in entry.feeds],
        "protocol": entry.protocol,
        "solve": solve_spec(entry, results.run),
        # The current version (the link names it); the history and the older versions' formulas
        # are fetched when a link asks for an older version (``versions_file``).
        "versions": {
            "current": versions["current"],
            "release": versions["release"],
            **({"src": entry.url + VERSIONS_FILE} if versions["current"] > 1 else {}),
        },
    }
    if entry.plots:
        # The points the charts are drawn from before Python is ready (their table is in the HTML).
        spec["sweeps_src"] = entry.url + SWEEPS_FILE
    filling = results.filling
    if filling:
        # Which presets fill this entry are the preset menus' options (the browser reads their ids
        # there); their values and sources (``preset_file``), which only the preset menus and the
        # comparison use, are fetched when the reader first uses them.
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
