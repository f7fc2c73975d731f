"""entries/plans/*.yaml -> checked plans: read like entries (plan.schema.json, every line kept),
then checked against the bank: every step names an entry, every binding an input of it and a
plan input or an earlier step's output of the same dimension, no cycle, every answer an
entry's output, every case reproduced.  Problems are collected as ``path:line: message``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from ..errors import Problems
from ..load.entry import Case, Check, Input, Output, Where
from ..load.fill import filled, offered, resolve_case_presets
from ..load.fill import read as read_fill
from ..load.plan import Plan, PlanOutput, Step
from ..load.presets import fields
from ..load.yamlfile import read, schema_errors
from ..runtime import units as unit_table
from ..runtime.domain import Domain, DomainError
from ..runtime.page import RESERVED
from ..runtime.plan import PlanCalculator
from .check import _check_cases, _dimension_words

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "load" / "plan.schema.json"
FOLDER = "plans"


def plan_files(entries_dir: Path) -> list[Path]:
    return sorted((Path(entries_dir) / FOLDER).glob("*.yaml"))


def load_plan(path: Path, problems: Problems) -> Plan | None:
    """One plan file as a typed Plan (not yet checked against the bank), or None with its problems."""
    before = len(problems)
    found = read(path, problems, "a plan needs the keys listed in docs/plans.md")
    if found is None:
        return None
    text, raw, tree = found
    if not isinstance(raw, dict):
        problems.add(path, 1, "plan: expected a mapping of keys (docs/plans.md)")
        return None
    for at, message in schema_errors(raw, text, SCHEMA_PATH, what="plan"):
        problems.add(path, tree.line(at), message)
    if len(problems) > before:
        return None

    def where(*at) -> Where:
        return Where(path, tree.line(at))

    if raw["id"] != path.stem:
        problems.add(
            path, tree.line(("id",)), f"id: {raw['id']!r} must live in plans/{raw['id']}.yaml, not {path.name}"
        )
    cases = tuple(
        Case(
            **{k: v for k, v in case.items() if k != "checks"},
            checks=tuple(
                Check(**check, where=where("cases", c, "checks", k), lines=tree.under(("cases", c, "checks", k)))
                for k, check in enumerate(case["checks"])
            ),
            where=where("cases", c),
            lines=tree.under(("cases", c)),
        )
        for c, case in enumerate(raw.get("cases", []))
    )
    return Plan(
        id=raw["id"],
        title=raw["title"],
        summary=raw["summary"],
        aliases=tuple(raw.get("aliases", ())),
        headline=tuple(raw.get("headline", ())),
        inputs=tuple(
            Input(
                **{k: (tuple(v) if k == "choices" else v) for k, v in item.items()},
                where=where("inputs", i),
                lines=tree.under(("inputs", i)),
            )
            for i, item in enumerate(raw["inputs"])
        ),
        steps=tuple(
            Step(
                id=s["id"],
                entry=s["entry"],
                inputs=dict(s["inputs"]),
                set=dict(s.get("set", {})),
                why=s.get("why", ""),
                where=where("steps", k),
                lines=tree.under(("steps", k)),
            )
            for k, s in enumerate(raw["steps"])
        ),
        answers=tuple(
            PlanOutput(
                name=o["name"],
                source=o["from"],
                label=o.get("label", ""),
                help=o.get("help", ""),
                where=where("outputs", k),
                lines=tree.under(("outputs", k)),
            )
            for k, o in enumerate(raw["outputs"])
        ),
        cases=cases,
        fill=tuple(
            read_fill(kind, name, text, where("fill", kind, name), tree.under(("fill", kind, name)))
            for kind, mapping in raw.get("fill", {}).items()
            for name, text in mapping.items()
        ),
        where=Where(path, 1),
        lines=tree.lines,
    )


def _add(problems: Problems, where: Where | None, message: str) -> None:
    problems.add(where.path, where.line, message)


def _same_dimension(unit: str, other: str) -> bool:
    if unit not in unit_table.UNITS or other not in unit_table.UNITS:
        return True  # an unknown unit is reported where it is written
    return unit_table.dimension(unit) == unit_table.dimension(other)


def _check_inputs(plan: Plan, problems: Problems) -> bool:
    ok = True
    seen: set[str] = set()
    for k, item in enumerate(plan.inputs):
        if item.name in seen:
            _add(problems, item.at("name"), f"inputs[{k}].name: {item.name!r} is declared twice")
            ok = False
        seen.add(item.name)
        if item.name in RESERVED:
            _add(problems, item.at("name"), f"inputs[{k}].name: {item.name!r} is kept by the page's links")
            ok = False
        if item.unit not in unit_table.UNITS:
            _add(problems, item.at("unit"), f"inputs[{k}].unit: unknown unit {item.unit!r}")
            ok = False
        if item.type in ("real", "integer", "list") and not item.domain:
            _add(problems, item.at("type"), f"inputs[{k}]: a {item.type} input needs a domain")
            ok = False
            continue
        if item.type == "choice" and not item.choices:
            _add(problems, item.at("type"), f"inputs[{k}]: a choice input needs choices")
            ok = False
            continue
        try:
            Domain.from_spec(item.spec()).read(item.default)
        except DomainError as exc:
            _add(problems, item.at("default"), f"inputs[{k}].default: {exc.message}")
            ok = False
        except ValueError as exc:
            _add(problems, item.at("domain"), f"inputs[{k}].domain: {exc}")
            ok = False
    return ok


def _order(plan: Plan, problems: Problems) -> tuple[str, ...] | None:
    """The steps in an order where each follows the steps it reads; None (reported) on a cycle."""
    reads = {
        s.id: [src[1] for src in s.sources().values() if src[0] == "step" and src[1] in {t.id for t in plan.steps}]
        for s in plan.steps
    }
    order: list[str] = []
    state: dict[str, str] = {}

    def visit(step_id: str, path: list[str]) -> bool:
        if state.get(step_id) == "done":
            return True
        if state.get(step_id) == "open":
            cycle = path[path.index(step_id) :] + [step_id]
            step = plan.step(cycle[0])
            _add(
                problems, step.where, f"steps: cycle: {' -> '.join(cycle)}; a step may read only steps it does not feed"
            )
            return False
        state[step_id] = "open"
        for other in reads[step_id]:
            if not visit(other, path + [step_id]):
                return False
        state[step_id] = "done"
        order.append(step_id)
        return True

    for s in plan.steps:
        if not visit(s.id, []):
            return None
    return tuple(order)


def _values(item: Input) -> set[str]:
    return {str(c["value"]) for c in item.choices}


def _check_steps(plan: Plan, entries: dict, problems: Problems) -> bool:
    ok = True
    inputs = {i.name: i for i in plan.inputs}
    ids = [s.id for s in plan.steps]
    steps = {s.id: s for s in plan.steps}
    used: set[str] = set()
    for k, step in enumerate(plan.steps):
        if ids.count(step.id) > 1 and ids.index(step.id) != k:
            _add(problems, step.at("id"), f"steps[{k}].id: {step.id!r} is used by an earlier step")
            ok = False
        entry = entries.get(step.entry_key)
        if entry is None:
            _add(problems, step.at("entry"), f"steps[{k}].entry: no entry {step.entry!r} in the bank")
            ok = False
            continue
        entry_inputs = {i.name: i for i in entry.inputs}
        for name, text in step.inputs.items():
            at = step.at("inputs", name)
            if name not in entry_inputs:
                _add(
                    problems,
                    at,
                    f"steps[{k}].inputs.{name}: entry {entry.key} has no input {name!r}; "
                    f"inputs: {', '.join(entry_inputs)}",
                )
                ok = False
                continue
            target = entry_inputs[name]
            source = step.source(name)
            if source[0] == "input":
                if source[1] not in inputs:
                    _add(
                        problems,
                        at,
                        f"steps[{k}].inputs.{name}: no plan input {source[1]!r}; inputs: {', '.join(inputs)}",
                    )
                    ok = False
                    continue
                used.add(source[1])
                origin_unit, origin = inputs[source[1]].unit, f"plan input {source[1]!r}"
                if inputs[source[1]].type == "choice" or target.type == "choice":
                    if inputs[source[1]].type != target.type:
                        _add(
                            problems,
                            at,
                            f"steps[{k}].inputs.{name}: {origin} is a {inputs[source[1]].type} input but entry "
                            f"{entry.key}'s input {name!r} is a {target.type} input",
                        )
                        ok = False
                    elif not _values(inputs[source[1]]) <= _values(target):
                        extra = sorted(_values(inputs[source[1]]) - _values(target))
                        _add(
                            problems,
                            at,
                            f"steps[{k}].inputs.{name}: {origin} offers {', '.join(extra)}, which entry "
                            f"{entry.key}'s input {name!r} does not take",
                        )
                        ok = False
                    continue
            else:
                other = steps.get(source[1])
                if other is None:
                    _add(problems, at, f"steps[{k}].inputs.{name}: no step {source[1]!r}; steps: {', '.join(ids)}")
                    ok = False
                    continue
                other_entry = entries.get(other.entry_key)
                if other_entry is None:
                    ok = False
                    continue
                outputs = {o.name: o for o in other_entry.outputs}
                if source[2] not in outputs:
                    _add(
                        problems,
                        at,
                        f"steps[{k}].inputs.{name}: entry {other_entry.key} (step {other.id}) has no output "
                        f"{source[2]!r}; outputs: {', '.join(outputs)}",
                    )
                    ok = False
                    continue
                origin_unit, origin = outputs[source[2]].unit, f"{text!r}"
            if not _same_dimension(target.unit, origin_unit):
                _add(
                    problems,
                    at,
                    f"steps[{k}].inputs.{name}: {origin} is in {origin_unit!r} ({_dimension_words(origin_unit)})"
                    f" but entry {entry.key}'s input {name!r} is in {target.unit!r}"
                    f" ({_dimension_words(target.unit)}); a plan carries values unconverted, so both must have"
                    " the same dimension",
                )
                ok = False
        for name, value in step.set.items():
            at = step.at("set", name)
            if name not in entry_inputs:
                _add(
                    problems,
                    at,
                    f"steps[{k}].set.{name}: entry {entry.key} has no input {name!r}; inputs: {', '.join(entry_inputs)}",
                )
                ok = False
                continue
            if name in step.inputs:
                _add(problems, at, f"steps[{k}].set.{name}: {name!r} is bound in inputs too; give it one source")
                ok = False
                continue
            try:
                Domain.from_spec(entry_inputs[name].spec()).read(value)
            except DomainError as exc:
                _add(problems, at, f"steps[{k}].set.{name}: {exc.message}")
                ok = False
    for item in plan.inputs:
        if item.name not in used and ok:
            _add(problems, item.at("name"), f"inputs: {item.name!r} is bound to no step's input")
            ok = False
    return ok


def _typed_outputs(plan: Plan, entries: dict, problems: Problems) -> tuple[Output, ...] | None:
    """Each answer as the entry output it reads, under the plan's name and label."""
    steps = {s.id: s for s in plan.steps}
    found, names = [], set()
    for k, answer in enumerate(plan.answers):
        if answer.name in names:
            _add(problems, answer.at("name"), f"outputs[{k}].name: {answer.name!r} is declared twice")
            return None
        names.add(answer.name)
        step = steps.get(answer.step)
        if step is None:
            _add(problems, answer.at("from"), f"outputs[{k}].from: no step {answer.step!r}; steps: {', '.join(steps)}")
            return None
        entry = entries[step.entry_key]
        outputs = {o.name: o for o in entry.outputs}
        if answer.output not in outputs:
            _add(
                problems,
                answer.at("from"),
                f"outputs[{k}].from: entry {entry.key} (step {step.id}) has no output {answer.output!r}; "
                f"outputs: {', '.join(outputs)}",
            )
            return None
        o = outputs[answer.output]
        found.append(
            replace(
                o,
                name=answer.name,
                label=answer.label or o.label,
                help=answer.help or o.help,
                where=answer.where,
                lines=answer.lines,
            )
        )
    for k, name in enumerate(plan.headline):
        if name not in names:
            _add(problems, plan.at("headline", k), f"headline: {name!r} is not an output of this plan")
            return None
    return tuple(found)


def _check_fill(plan: Plan, problems: Problems) -> bool:
    vocabulary = fields()
    names = [i.name for i in plan.inputs]
    ok = True
    for item in plan.fill:
        at = f"fill.{item.kind}.{item.input}"
        if item.input not in names:
            _add(problems, item.where, f"{at}: no input {item.input!r}; inputs: {', '.join(names)}")
            ok = False
        if item.field not in vocabulary[item.kind]:
            _add(
                problems,
                item.where,
                f"{at}: {item.field!r} is not a {item.kind} field; fields: {', '.join(vocabulary[item.kind])}",
            )
            ok = False
    return ok


# plan id -> (what its runs depend on, the plan and calculator that passed): serve checks again,
# at every edit, each plan that runs the edited entry, under every preset, though an edit to an
# entry's words (most edits) changes no number.  A plan's runs are a function of the plan (every
# field and line), its runtime spec (the entries' calculator specs, which each Calculator is made
# from) and the presets: the same three pass the same way, and the plan is taken as it passed.
_PASSED: dict[str, tuple[tuple, tuple[Plan, PlanCalculator]]] = {}


def check_plan(
    plan: Plan, entries: dict, calculators: dict, presets: dict, problems: Problems
) -> tuple[Plan, PlanCalculator] | None:
    """The plan checked against the bank (``entries``: key -> Entry; ``calculators``: key -> the
    entries' checked Calculators), with its calculator; None when a problem was recorded."""
    before = len(problems)
    if not (_check_inputs(plan, problems) & _check_steps(plan, entries, problems) & _check_fill(plan, problems)):
        return None
    order = _order(plan, problems)
    outputs = _typed_outputs(plan, entries, problems)
    if order is None or outputs is None or len(problems) > before:
        return None
    if any(s.entry_key not in calculators for s in plan.steps):
        return None  # an entry that failed its own check: reported at the entry
    plan = replace(plan, outputs=outputs, order=order)
    spec = plan.spec(entries)
    depends = (repr(plan), plan.lines, json.dumps(spec, ensure_ascii=False, default=repr), presets)
    passed = _PASSED.get(plan.id)
    if passed is not None and passed[0] == depends:
        return passed[1]
    calc = PlanCalculator(spec, calculators)
    try:
        calc.remembered({})
    except DomainError as exc:
        where = plan.at("inputs") if exc.name == "inputs" else next(i for i in plan.inputs if i.name == exc.name).where
        _add(problems, where, f"the defaults are rejected: {exc}")
        return None
    for kind, chosen in offered(plan, presets).items():
        for preset in chosen:
            try:
                calc.remembered(filled(plan, preset))  # kept: the page's departures read it
            except DomainError as exc:
                where = plan.at("fill", kind, exc.name) if exc.name != "inputs" else plan.at("fill", kind)
                _add(problems, where, f"fill.{kind}: preset {preset.id!r} gives inputs the plan rejects: {exc}")
    plan = resolve_case_presets([plan], Path(), problems, presets)[0]
    _check_cases(plan, calc, problems)
    if len(problems) > before:
        return None
    _PASSED[plan.id] = (depends, (plan, calc))
    return plan, calc


def load_plans(
    entries_dir: Path,
    bank_entries: list,
    calculators: dict,
    presets: dict,
    problems: Problems,
    kept: dict | None = None,
) -> dict:
    """plan id -> (Plan, PlanCalculator) for every plan file that loads and checks; ``kept``: plans
    checked before whose verdict still holds (their files and entries unchanged), taken as they are."""
    entries = {e.key: e for e in bank_entries}
    found = {}
    for path in plan_files(entries_dir):
        if kept and path.stem in kept:  # a plan's id is its file's name
            found[path.stem] = kept[path.stem]
            continue
        plan = load_plan(path, problems)
        if plan is None:
            continue
        checked = check_plan(plan, entries, calculators, presets, problems)
        if checked is not None:
            found[plan.id] = checked
    return found
