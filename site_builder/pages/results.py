"""What the build computes for one entry's page: its results, from its formula, by one function.

``results`` runs the formula at the defaults (the outputs, the charts' points, the
elasticities) and at each worked case; ``Renderer.entry`` lays them out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..check.check import answer as solved
from ..check.timelimit import FormulaTimeout, time_limit
from ..errors import BuildFailed, Problems
from ..load import fill
from ..load.entry import Entry
from ..runtime.calculator import Calculator
from ..runtime.numbers import index_row, shown_input
from ..runtime.report import typed


@dataclass(frozen=True)
class Results:
    """An entry's computed results, as its page shows them before Python runs in the browser."""

    run: dict  # the run on the default inputs: {"inputs", "outputs": {name: {value, text, ...}}}
    cases: dict  # case id -> {"inputs": [(symbol, name, text)], "checks": [(check, computed, label)]}
    sweeps: list  # each plot's points at the defaults (Calculator.sweep)
    elasticities: dict  # {input: {output: e or None}} at the defaults
    qr: str = ""  # the page's QR code (inline SVG)
    filling: dict = field(default_factory=dict)  # the presets that fill it (fill.spec): menus, spec, presets.json


def results(entry: Entry, calc: Calculator, qr: str = "", presets: dict | None = None) -> Results:
    """Everything the page of ``entry`` shows computed; BuildFailed if a chart's or the scaling
    panel's formula run does not finish.  ``presets``: kind -> id -> Preset, the bank's, of which
    those that fill ``entry`` are worked out once for the page, its spec and its presets file."""
    try:
        with time_limit():
            sweeps = [calc.sweep({}, p.spec()) for p in entry.plots]
            elasticities = calc.elasticities({})
    except FormulaTimeout as exc:
        problems = Problems()
        problems.add(
            entry.where.path,
            entry.at("plots").line,
            f"entry {entry.key}: a plot's or the scaling panel's formula run {exc}",
        )
        raise BuildFailed(problems) from None
    filling = fill.spec(entry, presets or {}, calc)
    return Results(calc.remembered({}), _case_rows(entry, calc), sweeps, elasticities, qr, filling)


def _inverse_rows(entry: Entry, calc: Calculator, case) -> dict:
    """An inverse case: its fixed inputs and the question (the freed input '?'), and each check
    at the solution its index picks: the freed input as refined, or an output there."""
    symbols = {i.name: i.symbol for i in entry.inputs}
    outputs = {o.name: o for o in entry.outputs}
    q = case.inverse
    answer = solved(calc, case)  # the check's own answer: each inverse case is solved once per build
    sense = {"=": "=", "<=": "≤", ">=": "≥"}[q["sense"]]
    asked = f"? ({outputs[q['output']].label} {sense} {answer['target_text']})"
    inputs = [(symbols[n], n, shown_input(v)) for n, v in case.inputs.items()] + [
        (symbols[q["input"]], q["input"], asked)
    ]
    label = next(i.label for i in entry.inputs if i.name == q["input"])
    checks = []
    for c in case.checks:
        k = c.index or 0
        found = answer["solutions"][k]
        several = f" (solution {k + 1})" if len(answer["solutions"]) > 1 else ""
        if c.output == q["input"]:
            root = found["root"]
            text = typed(root if isinstance(root, int) else float(f"{root:.6g}"), isinstance(root, int))
            checks.append((c, text, label + several))
        else:
            checks.append((c, found["run"]["outputs"][c.output]["text"], outputs[c.output].label + several))
    return {"inputs": inputs, "checks": checks}


def _case_rows(entry: Entry, calc: Calculator) -> dict:
    symbols = {i.name: i.symbol for i in entry.inputs}
    outputs = {o.name: o for o in entry.outputs}
    rows = {}
    for case in entry.cases:
        if case.solve:
            rows[case.id] = _inverse_rows(entry, calc, case)
            continue
        run = calc.remembered(case.inputs)
        checks = []
        for c in case.checks:
            value = run["outputs"][c.output]["value"]
            if c.index is not None:
                text = Calculator.write(outputs[c.output].spec(), value[c.index])
                index = run["outputs"][c.output].get("index")  # the statement's (j = 3), else the place from 1
                row = index_row(index["symbol"], index["first"] + c.index) if index else str(c.index + 1)
                label = f"{outputs[c.output].label} [{row}]"
            else:
                text, label = run["outputs"][c.output]["text"], outputs[c.output].label
            checks.append((c, text, label))
        rows[case.id] = {"inputs": [(symbols[n], n, shown_input(v)) for n, v in case.inputs.items()], "checks": checks}
    return rows
