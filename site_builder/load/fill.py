"""An entry's ``fill:`` mapping: which field of a preset fills which input.

Read from its text here (``read``: 'layers', 'context?', 'memory / 1e9'), checked against the
inputs and the preset fields (``check_fill``), and used: which presets an entry offers
(``offers``, ``offered``), the inputs one fills (``filled``), a case that names presets
(``resolve_case_presets``) and what the page carries to fill itself (``spec``).  The presets
themselves, their files and their derived values, are presets.py's.
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from ..errors import Problems
from ..runtime import page
from ..runtime.calculator import Calculator
from ..runtime.model_fill import departures as _departures
from ..runtime.model_fill import plan_says
from ..runtime.numbers import write_input
from .entry import Entry, Fill, Where
from .presets import KINDS, Preset, fields, load_presets, preset_architecture

__all__ = [
    *("Fill", "read", "offers", "fill_value", "filled", "offered", "spec", "departures", "plan_departures"),
    *("check_fill", "resolve_case_presets"),
]

# What the schema's pattern admits: a field, '?' when the preset may lack it, a factor converting units.
FILL = re.compile(r"(?P<field>[a-z][a-z0-9_]*)(?P<optional>\?)?(?:\s*(?P<op>[*/])\s*(?P<factor>[0-9.]+(?:e[0-9]+)?))?")


def read(kind: str, name: str, text: str, where: Where, lines: dict) -> Fill:
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


def offers(entry: Entry, preset: Preset) -> bool:
    """A preset is offered on an entry when it has every field the entry's mapping for its kind requires."""
    items = [f for f in entry.fill if f.kind == preset.kind]
    return bool(items) and all(preset.has(f.field) for f in items if not f.optional)


def fill_value(item: Fill, preset: Preset) -> str:
    """The input's value as a reader would type it, converted by the mapping's factor when it has one."""
    value = preset.get(item.field)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if item.factor:
        exact = Fraction(value) if isinstance(value, int) else Fraction(str(value))
        exact = exact * Fraction(item.factor) if item.op == "*" else exact / Fraction(item.factor)
        value = int(exact) if exact.denominator == 1 else float(exact)
    return write_input(value)


def filled(entry: Entry, preset: Preset) -> dict[str, str]:
    """input name -> the text the preset puts in it (optional fields the preset lacks are left alone)."""
    return {f.input: fill_value(f, preset) for f in entry.fill if f.kind == preset.kind and preset.has(f.field)}


def departures(entry: Entry, preset: Preset, calc: Calculator | None = None) -> str:
    """What the page and ``compute`` say beside a fill from ``preset`` where one of the entry's
    outputs marked ``counted:`` is not the model's architecture count (runtime/model_fill.py);
    "" when every such output agrees, or the entry has none.  ``calc``: the entry's, when made."""
    outputs = [o.spec() for o in entry.outputs if o.counted]
    if preset.kind != "model" or not outputs or not offers(entry, preset):
        return ""
    run = (calc or Calculator(entry.spec())).remembered(filled(entry, preset))  # the check ran it
    values = {name: value.value for name, value in preset.values.items()}
    return _departures(outputs, run["outputs"], values, preset.name, preset_architecture(preset))


def plan_departures(plan, calc, preset: Preset) -> str:
    """``departures`` for a plan (``calc``: its PlanCalculator): every step whose entry marks an
    output ``counted:`` (the training and serving plans' entry 16), as the model fills the plan."""
    counted = {key: [o for o in c.outputs if o.get("counted")] for key, c in calc.calculators.items() if c.outputs}
    if preset.kind != "model" or not any(counted.values()) or not offers(plan, preset):
        return ""
    run = calc.remembered(filled(plan, preset))  # the plan's check ran it
    values = {name: value.value for name, value in preset.values.items()}
    arch = preset_architecture(preset)
    for step in run["steps"].values():
        outputs = counted.get(step["entry"]) or []
        results = {n: {"value": v} for n, v in step["outputs"].items()}
        said = _departures(outputs, results, values, preset.name, arch, plan_says(step["entry"]))
        if said:
            return said
    return ""


def offered(entry: Entry, presets: dict[str, dict[str, Preset]]) -> dict[str, list[Preset]]:
    """kind -> the presets that fill this entry, by family and name."""
    return {
        kind: sorted((p for p in presets.get(kind, {}).values() if offers(entry, p)), key=lambda p: (p.family, p.name))
        for kind in KINDS
        if any(f.kind == kind for f in entry.fill)
    }


def spec(
    entry: Entry, presets: dict[str, dict[str, Preset]], calc: Calculator | None = None
) -> dict[str, list[page.Preset]]:
    """What the page needs to fill this entry: only the offered presets, only their mapped values.

    Each preset: id, name, family, sources (title, url, where; listed once), and for each input
    its text and the index of its source.  ``calc``: the entry's checked calculator, which has
    already run each preset's fill (``departures``), when there is one."""
    out = {}
    counts = isinstance(entry, Entry) and any(o.counted for o in entry.outputs)  # a plan composes entries' counts
    counting = (calc or Calculator(entry.spec())) if counts else None
    for kind, chosen in offered(entry, presets).items():
        if not chosen:
            continue
        items = []
        for preset in chosen:
            sources: list[dict] = []
            values = {}
            for f in entry.fill:
                if f.kind != kind or not preset.has(f.field):
                    continue
                value = preset.values[f.field]
                cite = preset.sources[value.source].cite() if value.source else {}
                if cite not in sources:
                    sources.append(cite)
                values[f.input] = [
                    fill_value(f, preset),
                    sources.index(cite),
                    f.field + (f" = {value.derived}" if value.derived else ""),
                ]
            item = {"id": preset.id, "name": preset.name, "family": preset.family, "sources": sources, "values": values}
            departs = departures(entry, preset, counting) if counting else ""
            if departs:
                item["departs"] = departs  # said beside the fill: the entry's count is not the architecture's
            items.append(item)
        out[kind] = items
    return out


def check_fill(entries: list[Entry], presets: dict, calculators: dict, problems: Problems) -> None:
    """Mappings name real inputs and fields, and every offered preset computes on the entry."""
    vocabulary = fields()
    for entry in entries:
        names = [i.name for i in entry.inputs]
        bad = False
        seen: dict[str, str] = {}
        for item in entry.fill:
            at = f"fill.{item.kind}.{item.input}"
            if item.input not in names:
                problems.add(
                    item.where.path, item.where.line, f"{at}: no input {item.input!r}; inputs: {', '.join(names)}"
                )
                bad = True
            if item.field not in vocabulary[item.kind]:
                problems.add(
                    item.where.path,
                    item.where.line,
                    f"{at}: {item.field!r} is not a {item.kind} field; fields: {', '.join(vocabulary[item.kind])}",
                )
                bad = True
            if item.input in seen:
                problems.add(
                    item.where.path,
                    item.where.line,
                    f"{at}: {item.input!r} is filled by the {seen[item.input]} mapping too",
                )
                bad = True
            seen[item.input] = item.kind
        for output in entry.outputs:
            if output.counted and not any(f.kind == "model" for f in entry.fill):
                where = output.at("counted") or entry.where
                problems.add(
                    where.path,
                    where.line,
                    f"outputs.{output.name}.counted: {output.counted} is a model's count, but the entry has no"
                    " fill.model mapping to fill it from a model; add one or leave counted out",
                )
        calc = calculators.get(entry.key)
        if bad or calc is None:
            continue
        for kind, chosen in offered(entry, presets).items():
            for preset in chosen:
                try:
                    calc.remembered(filled(entry, preset))  # kept: "Every model" and the page read it
                except Exception as exc:  # a DomainError names the input; anything else is the formula's
                    where = entry.at("fill", kind, getattr(exc, "name", ""))  # that input's fill line
                    problems.add(
                        where.path,
                        where.line,
                        f"fill.{kind}: preset {preset.id!r} gives inputs the entry rejects: {exc}",
                    )


def resolve_case_presets(
    entries: list[Entry], root: Path, problems: Problems, presets: dict | None = None
) -> list[Entry]:
    """A case that names presets takes its inputs from them through the entry's fill mapping;
    the inputs it writes itself override them.  The preset files' own problems are reported
    where the bank loads them (bank.gather), not here; ``presets``, when the caller has them loaded."""
    if presets is None:
        presets = load_presets(root, Problems())
    out = []
    for entry in entries:
        cases = []
        for case in entry.cases:
            if case.preset:
                inputs: dict = {}
                for kind, pid in case.preset.items():
                    preset = presets.get(kind, {}).get(pid)
                    where = case.at("preset", kind) or entry.where
                    if preset is None:
                        known = ", ".join(sorted(presets.get(kind, {}))) or "none"
                        problems.add(
                            where.path,
                            where.line,
                            f"case {case.id}: preset.{kind}: no {kind} preset {pid!r}; presets: {known}",
                        )
                    elif not offers(entry, preset):
                        missing = [
                            f.field for f in entry.fill if f.kind == kind and not f.optional and not preset.has(f.field)
                        ]
                        why = f"it lacks {', '.join(missing)}" if missing else f"the entry has no fill.{kind} mapping"
                        problems.add(
                            where.path,
                            where.line,
                            f"case {case.id}: preset.{kind}: {pid!r} cannot fill this entry: {why}",
                        )
                    else:
                        inputs.update(filled(entry, preset))
                inputs.update(case.inputs)
                case = replace(case, inputs=inputs)
            cases.append(case)
        out.append(replace(entry, cases=tuple(cases)))
    return out
