"""The command line: ``python -m site_builder build|serve|check|compute|urls|presets``.  ``main(argv) -> int``."""

from __future__ import annotations

import argparse
import gc
import json
import sys
from contextlib import contextmanager
from pathlib import Path

from .config_file import config_inputs, read_config_file
from .errors import BuildFailed, Problems

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = ROOT / "entries"
SITE = ROOT / "_site"


@contextmanager
def _few_collections():
    """Python's cyclic collector run rarely: a build's objects nearly all live until it ends, so
    its frequent passes over them (some 390 young and 3 full ones) found almost nothing."""
    before = gc.get_threshold()
    gc.set_threshold(100_000, 50, 100)
    try:
        yield
    finally:
        gc.set_threshold(*before)


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
    c.add_argument("entry", help="entry id: 1-50 or a toolkit id; or a plan: train-plan, serve-plan")
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
    c.add_argument(
        "--config",
        type=Path,
        metavar="CONFIG_JSON",
        help="fill inputs from a model's Hugging Face config.json (printing the key each value came from)",
    )
    r = sub.add_parser("presets", help="the model presets: 'table' prints docs/models.md; 'import' reads a config.json")
    rs = r.add_subparsers(dest="action", required=True)
    rt = rs.add_parser("table", help="print docs/models.md, the table of every model's counts (--write rewrites it)")
    rt.add_argument("--write", action="store_true", help="rewrite docs/models.md")
    ri = rs.add_parser("import", help="write entries/presets/models/<id>.yaml from a config.json")
    ri.add_argument("config", type=Path, metavar="CONFIG_JSON")
    ri.add_argument("--id", help="the preset's id (default: from the config's name)")
    ri.add_argument("--name", help="the name the menu shows (default: the config's name)")
    ri.add_argument("--family", help="the menu's family (default: the config's model_type)")
    ri.add_argument("--url", help="the config's https address (default: its Hugging Face page, from its name)")
    ri.add_argument("--force", action="store_true", help="replace an existing preset file")
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
        if args.command == "presets":
            return _import(args) if args.action == "import" else _presets(args)
        if args.command == "build":
            from .build import build_site

            with _few_collections():
                summary = build_site(args.entries, args.out)
            print(summary)
            return 0
        if args.command == "serve":
            from .serve.serve import serve

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
        f"{len(checked.calculators)} formulas; {len(checked.plans)} plans, "
        f"{sum(len(plan.cases) for plan, _ in checked.plans.values())} plan cases"
    )
    return 0


def _compute(args) -> int:
    """The bank's Python API (site_builder/api.py) asked from the command line, and its answer printed."""
    from . import api
    from .runtime.api import json_safe

    if args.entry.endswith("-plan"):
        from .plan_cli import compute_plan

        return compute_plan(args)
    try:
        entry = api.Bank(args.entries).entry(args.entry)
    except api.UnknownEntry as exc:
        print(exc, file=sys.stderr)
        return 2
    for kind, wanted in (("model", args.model), ("hardware", args.hardware)):
        if wanted == "list":
            choices = entry.presets(kind)
            ids = "\n".join(f"  {p.id:<16} {p.name} ({p.family})" for p in choices)
            print(
                f"{kind} presets that fill {entry.label}:\n{ids}"
                if choices
                else f"no {kind} preset fills {entry.label}"
            )
            return 0
    inputs, targets = {}, []
    config_used = None
    if args.config:
        config_used = config_inputs(args, entry.source)
        if config_used is None:
            return 2
        if isinstance(config_used, int):
            return config_used
        inputs.update(config_used[3])
    for item in args.assignments:
        name, sep, value = item.partition("=")
        if not sep:
            print(f"{item!r}: expected name=value", file=sys.stderr)
            return 2
        name = name.strip()
        if args.solve and name.rstrip("<>").strip() in entry.outputs:
            sense = {"<": "<=", ">": ">="}.get(name[-1:], "=")
            targets.append((name.rstrip("<>").strip(), sense, value.strip()))
            continue
        inputs[name] = value
    presets = {"model": args.model, "hardware": args.hardware}
    if args.solve:
        if len(targets) != 1:
            print(f"--{entry.question_error(args.solve)}", file=sys.stderr)
            return 2
        return _solve(args, entry, presets, inputs, *targets[0])
    result = _asked(entry, presets, inputs, lambda: entry.run(**presets, **inputs))
    if result is None:
        return 2
    for note in result.notes:  # a value that could be read two ways: say how it was read
        print(f"note: {note}", file=sys.stderr)
    if args.json:
        out = {
            "entry": entry.id,
            **({"presets": {f.preset.kind: f.preset.id for f in result.presets}} if result.presets else {}),
            "inputs": result.inputs,
            "outputs": {k: q.value for k, q in result.outputs.items()},
        }
        # A list the statement indexes from its own start: entry 46's vote terms are j = 2, 3 at n = 3.
        index = {k: {"symbol": q.index_symbol, "first": q.index[0]} for k, q in result.outputs.items() if q.index}
        if index:
            out["index"] = index
        print(json.dumps(json_safe(out), allow_nan=False))  # JSON has no infinity: it reads as null
        return 0
    print(f"{entry.label} · {entry.title}")
    for filled in result.presets:  # where each filled constant came from; a name=value given wins
        preset = filled.preset.source
        print(
            f"  from {preset.name}: {', '.join(f'{n}={v}' for n, v in filled.values.items())} "
            f"({'; '.join(f'{s.title}, {s.where}' for s in filled.sources)})"
        )
        for line in _variants(entry.source, preset, filled.values):
            print(line)
        if filled.departs:
            print(f"  note: {filled.departs}")
    if config_used:
        path, reading, preset, got = config_used
        kept = {n: v for n, v in got.items() if n not in {a.split("=")[0].strip() for a in args.assignments}}
        print(f"  from {path} ({reading.name}, model_type {reading.model_type}):")
        for f in entry.source.fill:
            if f.kind == "model" and f.input in kept:
                value = preset.values[f.field]
                how = value.note or (f"{f.field} = {value.derived}" if value.derived else f.field)
                print(f"    {f.input} = {kept[f.input]}  ({how})")
        for line in _variants(entry.source, preset, kept):
            print(line)
        from .load.fill import departures

        departs = departures(entry.source, preset, entry.calculator) if kept == got else ""
        if departs:
            print(f"  note: {departs}")
    width = max(len(q.label) for q in result.outputs.values())
    for q in result.outputs.values():
        print(f"  {q.label:<{width}}  {q}")
    return 0


def _asked(entry, presets: dict, inputs: dict, ask):
    """``ask()``'s answer, or None after printing the API's refusal (and how values were read)."""
    from . import api

    try:
        return ask()
    except api.UnknownPreset as exc:
        print(f"--{exc}", file=sys.stderr)
    except api.InputError as exc:
        _notes(entry, presets, inputs)
        print(exc, file=sys.stderr)
    return None


def _notes(entry, presets: dict, inputs: dict) -> None:
    """The echo notes of a run the entry refused: how the values that read two ways were read."""
    try:
        _, _, notes = entry._raw(presets["model"], presets["hardware"], inputs)
    except Exception:  # the refusal itself is the message
        return
    for note in notes:
        print(f"note: {note}", file=sys.stderr)


def _variants(entry, preset, kept: dict) -> list[str]:
    """Which variant (choice input) a model selected and why, and which inputs take its counts."""
    from .runtime.architecture import DERIVED
    from .runtime.model_fill import CHOICES

    kinds = {i.name: i.type for i in entry.inputs}
    out = []
    for f in entry.fill:
        if f.kind != preset.kind or f.input not in kept or not preset.has(f.field):
            continue
        how = preset.values[f.field].derived
        if kinds.get(f.input) == "choice":
            if f.field in CHOICES:
                why = f"because {how}"
            else:
                cited = preset.sources_of(f.field)
                why = f"as its {f.field} ({cited[0].title}, {cited[0].where})" if cited else f"as its {f.field}"
            out.append(f"  {f.input} = {kept[f.input]}: {preset.name} selects it, {why}")
        elif f.field in DERIVED:
            out.append(f"  {f.input} = {kept[f.input]}: {how}")
    return out


def _solve(args, entry, presets: dict, inputs: dict, output: str, sense: str, target: str) -> int:
    """The inverse question: the solutions and the outputs at each; exit 2 when there is none."""
    from .runtime.numbers import NBSP

    answer = _asked(
        entry, presets, inputs, lambda: entry.solve(f"{output}{sense}{target}", args.solve, **presets, **inputs)
    )
    if answer is None:
        return 2
    for note in answer.notes:
        print(f"note: {note}", file=sys.stderr)
    result = answer.raw
    code = 0 if answer else 2
    if "".join(target.split()) != "".join(result["target_text"].replace(NBSP, " ").split()):
        print(f"note: {output}: target {result['target_reading']}", file=sys.stderr)  # 80 gb: said how it was read
    if args.json:
        from .plan_cli import solve_json

        print(solve_json(entry.id, result))
        return code
    if code:
        print(f"entry {entry.key}: no solution: {answer.message}", file=sys.stderr)
        return code
    print(answer)
    return 0


def _import(args) -> int:
    from .load.preset_import import slug, write_preset

    reading = read_config_file(args.config)
    if reading is None:
        return 2
    id = args.id or slug(reading.name)
    url = args.url or (f"https://huggingface.co/{reading.name}/blob/main/config.json" if "/" in reading.name else "")
    if not url.startswith("https://"):
        print(
            f"{args.config}: the config does not name its Hugging Face repository (_name_or_path); "
            "give its address with --url https://...",
            file=sys.stderr,
        )
        return 2
    folder = args.entries / "presets" / "models"
    try:
        target = write_preset(
            reading,
            folder,
            id=id,
            name=args.name or reading.name.rsplit("/", 1)[-1],
            family=args.family or reading.model_type,
            url=url,
            force=args.force,
        )
    except FileExistsError as exc:
        print(exc, file=sys.stderr)
        return 2
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"wrote {target}: {len(target.read_text().splitlines())} lines; add the model card's citation")
    return 0


def _presets(args) -> int:
    from .load import presets as P
    from .pages.model_table import DOC, table

    problems = Problems()
    found = P.load_presets(args.entries, problems)
    if problems:
        raise BuildFailed(problems)
    text = table(found["model"])
    if args.write:
        DOC.write_text(text)
        print(f"wrote {DOC.relative_to(ROOT)}")
    else:
        print(text, end="")
    return 0


def _urls(args) -> int:
    from .load.load import load_all
    from .pages.urls import NETLIFY, netlify_with_aliases, plan_urls, url_map

    problems = Problems()
    entries = load_all(args.entries, problems)
    if problems:
        raise BuildFailed(problems)
    if args.write:
        NETLIFY.write_text(netlify_with_aliases(NETLIFY.read_text(), entries))
        print(f"updated the alias redirects in {NETLIFY.name}")
        return 0
    print("\n".join(url_map(entries, plan_urls(args.entries))))
    return 0
