"""The command line: ``python -m site_builder build|serve|check|compute``.  ``main(argv) -> int``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .errors import BuildFailed, Problems

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = ROOT / "entries"
SITE = ROOT / "_site"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m site_builder", description="Build, serve, check and compute the Derivation Bank."
    )
    p.add_argument("--entries", type=Path, default=ENTRIES, help="folder of entry YAML files (default: entries/)")
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the site into a folder, atomically")
    b.add_argument("--out", type=Path, default=SITE, help="output folder (default: _site/)")
    s = sub.add_parser("serve", help="build, serve on 127.0.0.1 and rebuild on change")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--out", type=Path, default=SITE)
    k = sub.add_parser("check", help="validate every entry and run every case")
    k.add_argument("only", nargs="*", type=Path, metavar="FILE", help="report only problems in these files")
    u = sub.add_parser("urls", help="print every published URL; --write updates netlify.toml's alias redirects")
    u.add_argument("--write", action="store_true", help="rewrite the alias block of netlify.toml")
    c = sub.add_parser("compute", help="evaluate an entry in CPython")
    c.add_argument("entry", help="entry id: 1-50 or a toolkit id")
    c.add_argument(
        "assignments",
        nargs="*",
        metavar="name=value",
        help="inputs; the rest take their defaults.  With --solve, one of them is the target: "
        "output=value, output<=value or output>=value (in the output's units: total<=80GB)",
    )
    c.add_argument("--solve", metavar="INPUT", help="ask it backwards: the values of INPUT where the target is met")
    c.add_argument("--json", action="store_true", help="print JSON")
    c.add_argument(
        "--model", metavar="ID", help="fill inputs from a published model (entries/presets/models/); 'list' lists them"
    )
    c.add_argument(
        "--hardware",
        metavar="ID",
        help="fill inputs from an accelerator (entries/presets/hardware/); 'list' lists them",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.command == "compute" and not any(x.startswith("-") for x in extra):
        args.assignments += extra  # name=value after --model ID: argparse stops the positionals at an option
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        if args.command == "check":
            return _check(args)
        if args.command == "compute":
            return _compute(args)
        if args.command == "urls":
            return _urls(args)
        if args.command == "build":
            from .build import build_site

            summary = build_site(args.entries, args.out)
            print(summary)
            return 0
        if args.command == "serve":
            from .serve import serve

            return serve(args.entries, args.out, args.port)
    except BuildFailed as failed:
        print(failed.problems.report(), file=sys.stderr)
        return 1
    return 2


def _check(args) -> int:
    from .bank import gather

    problems = Problems()
    checked = gather(args.entries, problems)
    entries = checked.entries
    if args.only:
        wanted = {p.resolve() for p in args.only}
        kept = Problems()
        kept.items = [e for e in problems.items if e.path.resolve() in wanted]
        problems = kept
    if problems:
        raise BuildFailed(problems)
    cases = sum(len(e.cases) for e in entries)
    checks = sum(len(c.checks) for e in entries for c in e.cases)
    print(
        f"0 errors: {len(entries)} entries ({sum(e.in_bank for e in entries)} bank, "
        f"{sum(not e.in_bank for e in entries)} toolkit), {cases} cases, {checks} checks reproduced, "
        f"{len(checked.calculators)} formulas"
    )
    return 0


def _compute(args) -> int:
    """Parse the assignments, ask the API (site_builder.api) and print its answer."""
    from . import api
    from .runtime.calculator import json_safe

    bank = api.Bank(args.entries)
    try:
        entry = bank.entry(args.entry)
    except api.UnknownEntry as exc:
        print(exc, file=sys.stderr)
        return 2
    if "list" in (args.model, args.hardware):
        kind = "model" if args.model == "list" else "hardware"
        choices = entry.presets(kind)
        ids = "\n".join(f"  {p.id:<16} {p.name} ({p.family})" for p in choices)
        print(f"{kind} presets that fill {entry.label}:\n{ids}" if choices else f"no {kind} preset fills {entry.label}")
        return 0
    targets, raw = [], {}
    for item in args.assignments:
        name, sep, value = item.partition("=")
        if not sep:
            print(f"{item!r}: expected name=value", file=sys.stderr)
            return 2
        name = name.strip()
        if args.solve and name.rstrip("<>").strip() in entry.outputs:
            targets.append(item)
            continue
        raw[name] = value
    try:
        if args.solve:
            if len(targets) != 1:
                raise api.InputError(entry.question_error(args.solve), "question")
            answer = entry.solve(targets[0], args.solve, model=args.model, hardware=args.hardware, **raw)
        else:
            answer = entry.run(model=args.model, hardware=args.hardware, **raw)
    except api.UnknownPreset as exc:
        print(f"--{exc}", file=sys.stderr)
        return 2
    except api.InputError as exc:
        print(f"--{exc}" if exc.name == "question" else exc, file=sys.stderr)
        return 2
    for note in answer.notes:
        print(f"note: {note}", file=sys.stderr)
    if args.solve:
        return _solve(args, entry, answer)
    if args.json:
        out = {
            "entry": entry.id,
            **({"presets": {f.preset.kind: f.preset.id for f in answer.presets}} if answer.presets else {}),
            "inputs": answer.inputs,
            "outputs": {k: q.value for k, q in answer.outputs.items()},
        }
        print(json.dumps(json_safe(out), allow_nan=False))  # JSON has no infinity: it reads as null
        return 0
    print(f"{entry.label} · {entry.title}")
    for f in answer.presets:  # where each filled constant came from; a name=value given wins
        print(
            f"  from {f.preset.name}: {', '.join(f'{n}={v}' for n, v in f.values.items())} "
            f"({'; '.join(f'{s.title}, {s.where}' for s in f.sources)})"
        )
    print("\n".join(repr(answer).splitlines()[1:]))
    return 0


def _solve(args, entry, answer) -> int:
    """The inverse question: the solutions and the outputs at each; exit 2 when there is none."""
    from .runtime.calculator import json_safe

    code = 0 if answer else 2
    if args.json:
        result = answer.raw
        out = {
            "entry": entry.id,
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
            "message": answer.message,
        }
        print(json.dumps(json_safe(out), allow_nan=False))
        return code
    if code:
        print(f"entry {entry.key}: no solution: {answer.message}", file=sys.stderr)
        return code
    print(repr(answer))
    return 0


def _urls(args) -> int:
    from .load import load_all
    from .urls import NETLIFY, netlify_with_aliases, url_map

    problems = Problems()
    entries = load_all(args.entries, problems)
    if problems:
        raise BuildFailed(problems)
    if args.write:
        NETLIFY.write_text(netlify_with_aliases(NETLIFY.read_text(), entries))
        print(f"updated the alias redirects in {NETLIFY.name}")
        return 0
    print("\n".join(url_map(entries)))
    return 0
