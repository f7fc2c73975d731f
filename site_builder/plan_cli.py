"""``compute train-plan ...``: a plan on the command line, read and checked as the build reads it,
filled from presets (``--model``, ``--hardware``), run forwards or asked backwards (``--solve``)."""

from __future__ import annotations

import json
import sys

from .errors import BuildFailed, Problems


def compute_plan(args) -> int:
    from .check.plan_check import check_plan, load_plan, plan_files
    from .load.fill import filled, plan_departures
    from .load.load import BANK_FILE, TOOLKIT_FILE, entry_files, load_file
    from .load.presets import load_presets
    from .runtime.api import json_safe
    from .runtime.calculator import Calculator
    from .runtime.domain import DomainError
    from .runtime.numbers import NBSP

    problems = Problems()
    files = {p.stem: p for p in plan_files(args.entries)}
    if args.entry not in files:
        print(f"no plan {args.entry!r}; plans: {', '.join(sorted(files)) or 'none'}", file=sys.stderr)
        return 2
    plan = load_plan(files[args.entry], problems)
    presets = load_presets(args.entries, problems)
    if problems or plan is None:
        raise BuildFailed(problems)
    wanted = {s.entry_key for s in plan.steps}
    entries = {}
    for path in entry_files(args.entries):  # only the entries the plan runs
        m = BANK_FILE.fullmatch(path.name) or TOOLKIT_FILE.fullmatch(path.name)
        key = str(int(m["number"])) if m and "number" in m.groupdict() else (m["slug"] if m else "")
        if key in wanted:
            entry = load_file(path, problems)
            if entry is not None:
                entries[entry.key] = entry
    if problems:
        raise BuildFailed(problems)
    calculators = {s.entry_key: Calculator(entries[s.entry_key].spec()) for s in plan.steps if s.entry_key in entries}
    checked = check_plan(plan, entries, calculators, presets, problems)
    if checked is None:
        raise BuildFailed(problems)
    plan, calc = checked
    raw, used = {}, {}
    if args.config and args.model:
        print("--config and --model both name the model: give one", file=sys.stderr)
        return 2
    if args.model or args.hardware:
        chosen = _preset_inputs(args, plan)
        if chosen is None:
            return 2 if (args.model, args.hardware).count("list") == 0 else 0
        raw, used = chosen
    if args.config:  # the reader's own model, read as compute reads it for an entry
        from .config_file import config_inputs

        got = config_inputs(args, plan)
        if isinstance(got, int):
            return got
        path, reading, preset, values = got
        raw.update(values)
        used["model"] = preset
    outputs = {o.name for o in plan.outputs}
    targets = []
    for item in args.assignments:
        name, sep, value = item.partition("=")
        if not sep:
            print(f"{item!r}: expected name=value", file=sys.stderr)
            return 2
        name = name.strip()
        if args.solve and name.rstrip("<>").strip() in outputs:
            sense = {"<": "<=", ">": ">="}.get(name[-1:], "=")
            targets.append((name.rstrip("<>").strip(), sense, value.strip()))
            continue
        raw[name] = value
    for name, echo in calc.echoes(raw).items():
        print(f"note: {name}: {echo['text']}".replace(NBSP, " "), file=sys.stderr)
    if args.solve:
        if len(targets) != 1:
            print(
                f"--solve {args.solve}: give one target, output=value, output<=value or output>=value "
                f"(outputs: {', '.join(o.name for o in plan.outputs)})",
                file=sys.stderr,
            )
            return 2
        return _solve(args, plan, calc, raw, *targets[0])
    try:
        result = calc.run(raw)
    except DomainError as exc:
        print(f"{plan.id}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        out = {
            "plan": plan.id,
            **({"presets": {k: p.id for k, p in used.items()}} if used else {}),
            "inputs": result["inputs"],
            "outputs": {k: v["value"] for k, v in result["outputs"].items()},
            "steps": {k: {"entry": v["entry"], "href": v["href"]} for k, v in result["steps"].items()},
        }
        print(json.dumps(json_safe(out), allow_nan=False))
        return 0
    print(f"{plan.title} · entries {', '.join(calc.entries_used())}")
    given = {a.split("=")[0].strip() for a in args.assignments}
    for preset in used.values():
        every = filled(plan, preset)
        kept = {n: v for n, v in every.items() if n not in given}
        print(f"  from {preset.name}: {', '.join(f'{n}={v}' for n, v in kept.items())}")
        departs = plan_departures(plan, calc, preset) if kept == every else ""
        if departs:
            print(f"  note: {departs}")
    width = max(len(o.label) for o in plan.outputs)
    steps = {s["id"]: s for s in calc.steps}
    for o in plan.outputs:
        item = result["outputs"][o.name]
        step = steps[item["step"]]
        text = item["text"].replace(NBSP, " ")
        print(f"  {o.label:<{width}}  {text}  [entry {step['entry']}]")
    return 0


def _solve(args, entry, calc, raw: dict, output: str, sense: str, target: str) -> int:
    """The plan's inverse question: the solutions and the outputs at each; exit 2 when there is none."""
    from .runtime.domain import DomainError
    from .runtime.numbers import NBSP
    from .runtime.solve import solve

    try:
        result = solve(calc, raw, args.solve, output, sense, target)
    except DomainError as exc:
        print(f"entry {entry.key}: {exc}", file=sys.stderr)
        return 2
    code = 0 if result["status"] == "solved" else 2
    if "".join(target.split()) != "".join(result["target_text"].replace(NBSP, " ").split()):
        print(f"note: {output}: target {result['target_reading']}", file=sys.stderr)  # 80 gb: said how it was read
    if args.json:
        print(solve_json(entry.id, result))
        return code
    message = result["message"].replace(NBSP, " ")
    if code:
        print(f"entry {entry.key}: no solution: {message}", file=sys.stderr)
        return code
    symbol = {"=": "=", "<=": "≤", ">=": "≥"}[sense]
    label = next(o.label for o in entry.outputs if o.name == output)
    print(f"{entry.label} · {entry.title}")
    print(f"  {label} {symbol} {result['target_text'].replace(NBSP, ' ')}, solved for {args.solve}:")
    print(f"  {message}")
    width = max(len(o.label) for o in entry.outputs)
    for s in result["solutions"]:
        print(f"\n  at {args.solve} = {s['text']}:")
        for o in entry.outputs:
            text = s["run"]["outputs"][o.name]["text"].replace(NBSP, " ")
            print(f"    {o.label:<{width}}  {text}")
    return 0


def _preset_inputs(args, entry) -> tuple[dict, dict] | None:
    """The inputs --model / --hardware fill in a plan (the name=value arguments then override them)
    and the presets used, or None after printing the list asked for, or the ids that fill it when a
    name is unknown.  (An entry's are the Python API's: site_builder/api.py.)"""
    from .load.fill import filled, offered
    from .load.presets import load_presets

    problems = Problems()
    found = load_presets(args.entries, problems)
    if problems:
        raise BuildFailed(problems)
    offers = offered(entry, found)
    raw, used = {}, {}
    for kind, wanted in (("model", args.model), ("hardware", args.hardware)):
        if not wanted:
            continue
        choices = offers.get(kind, [])
        if wanted == "list" or wanted not in {p.id for p in choices}:
            ids = "\n".join(f"  {p.id:<16} {p.name} ({p.family})" for p in choices)
            if wanted == "list":
                print(
                    f"{kind} presets that fill {entry.label}:\n{ids}"
                    if choices
                    else f"no {kind} preset fills {entry.label}"
                )
            else:
                print(
                    f"--{kind} {wanted!r}: no {kind} preset of that name fills {entry.label}"
                    + (f"; these do:\n{ids}" if choices else f"; {entry.label} has no {kind} fill mapping"),
                    file=sys.stderr,
                )
            return None
        used[kind] = next(p for p in choices if p.id == wanted)
        raw.update(filled(entry, used[kind]))
    return raw, used


def solve_json(source_id, result: dict) -> str:
    """A solve's answer (the runtime's) as the command's --json prints it, for an entry or a plan."""
    from .runtime.api import json_safe
    from .runtime.numbers import NBSP

    out = {
        "entry": source_id,
        **{k: result[k] for k in ("input", "output", "sense", "target", "status")},
        "solutions": [
            {
                **{k: s[k] for k in ("value", "text", "kind")},
                **({"neighbour": s["neighbour"]["value"]} if "neighbour" in s else {}),
                "inputs": s["run"]["inputs"],
                "outputs": {k: v["value"] for k, v in s["run"]["outputs"].items()},
            }
            for s in result["solutions"]
        ],
        "turns": [t["value"] for t in result["turns"]],
        "range": [result["range"]["low"], result["range"]["high"]],
        "message": result["message"].replace(NBSP, " "),
    }
    return json.dumps(json_safe(out), allow_nan=False)
