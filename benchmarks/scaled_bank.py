"""A bank ``factor`` times larger, made of copies of the real entries and plans: how the build's
and serve's cost grows with the bank.

    python -m benchmarks.scaled_bank OUT [--factor 10]      (writes OUT/, a folder like entries/)

Copy ``k`` (2 to ``factor``) of an entry is a toolkit entry (the bank's numbers stop at 50):
``entries/35-kv-cache-size.yaml`` becomes ``toolkit-x2-35.yaml`` with id ``x2-35``, and
``toolkit-softmax.yaml`` becomes ``toolkit-x2-softmax.yaml``.  What the bank holds unique is
renamed the same way: the entry's id, its file, its cases' ids (unique bank-wide, so its
versions' errata name them too); a plan's id is its file's name (``plans/x2train-plan.yaml``).
Each copy of the bank is whole: a copy's ``related`` and ``feeds`` name the same copy's entries,
and a copied plan's steps run them, so every entry is as much used as its original.  Everything
else is the original's, so every copy checks as its original does: its formula, inputs, outputs,
TeX and presets, and its versions in ``_versions.yaml`` (a fingerprint covers the numbers, not the
id; a copied plan's steps name other entries, so its newest version takes the fingerprint the
bank's own check computes).  The presets, chapters and synthesis prompts are the real ones, once.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import yaml

from site_builder.load.yamlfile import LOADER

ROOT = Path(__file__).resolve().parent.parent
VERSIONS = "_versions.yaml"


class _Dumper(yaml.SafeDumper):
    """Text of several lines as a block, as authors write statements and formulas; a copy's
    versions written out in full, as an author would, not as a YAML alias of the original's."""

    def ignore_aliases(self, data) -> bool:
        return True


def _text(dumper: yaml.SafeDumper, text: str):
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|" if "\n" in text else None)


_Dumper.add_representer(str, _text)


def _load(text: str):
    return yaml.load(text, Loader=LOADER)  # the bank's own reading of YAML (libyaml's, where installed)


def _dump(data, path: Path) -> None:
    path.write_text(
        yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=10_000), encoding="utf-8"
    )


def copy_id(entry_id, k: int) -> str:
    """The id of copy ``k`` of an entry or a case: 35 -> 'x2-35', 'softmax' -> 'x2-softmax'."""
    return f"x{k}-{entry_id}"


def generate(out: Path, factor: int, source: Path = ROOT / "entries") -> dict:
    """``out`` (made anew) holds ``source``'s bank and ``factor - 1`` copies of each of its entries
    and plans; {"entries", "plans"}: how many of each it holds."""
    if factor < 1:
        raise ValueError(f"factor: {factor} is not a whole number of banks (1 or more)")
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(source, out)
    versions = _load((source / VERSIONS).read_text(encoding="utf-8"))
    entries = sorted(p for p in source.glob("*.yaml") if not p.name.startswith("_"))
    plans = sorted((source / "plans").glob("*.yaml"))
    for k in range(2, factor + 1):
        for path in entries:
            raw = _load(path.read_text(encoding="utf-8"))
            original = str(raw["id"])
            raw["id"] = copy_id(original, k)
            for case in raw.get("cases", []):
                case["id"] = copy_id(case["id"], k)
            raw["related"] = [copy_id(ref, k) for ref in raw.get("related", [])]
            for feed in raw.get("feeds", []):
                feed["entry"] = copy_id(feed["entry"], k)
            _dump(raw, out / f"toolkit-{raw['id']}.yaml")
            if original in versions.get("entries", {}):
                versions["entries"][raw["id"]] = [
                    {**v, "errata": [copy_id(c, k) for c in v["errata"]]} if "errata" in v else v
                    for v in versions["entries"][original]
                ]
        for path in plans:
            raw = _load(path.read_text(encoding="utf-8"))
            original = raw["id"]
            raw["id"] = f"x{k}{original}"  # a plan's id is one word before '-plan': its page is /plans/x2train/
            for step in raw["steps"]:
                step["entry"] = copy_id(step["entry"], k)
            _dump(raw, out / "plans" / f"{raw['id']}.yaml")
            if original in versions.get("plans", {}):
                versions["plans"][raw["id"]] = [dict(v) for v in versions["plans"][original]]
    if factor > 1 and plans:
        for plan_id, fingerprint in _plan_fingerprints(out, {p.stem for p in plans}).items():
            versions["plans"][plan_id][-1]["fingerprint"] = fingerprint
    _dump(versions, out / VERSIONS)
    return {"entries": len(entries) * factor, "plans": len(plans) * factor}


def _plan_fingerprints(bank: Path, skip: set) -> dict:
    """plan id -> the fingerprint of what its newest version is now, as the bank's check takes it:
    each plan but those in ``skip`` checked against the entries its steps run (no other entry loaded)."""
    from site_builder.check.check import check_entry
    from site_builder.check.plan_check import check_plan, load_plan, plan_files
    from site_builder.errors import Problems
    from site_builder.load.fill import resolve_case_presets
    from site_builder.load.load import load_file
    from site_builder.load.presets import load_presets
    from site_builder.load.versions import plan_fingerprint

    problems = Problems()
    presets = load_presets(bank, problems)
    entries, calculators, found = {}, {}, {}
    for path in plan_files(bank):
        plan = None if path.stem in skip else load_plan(path, problems)
        if plan is None:
            continue
        for key in {step.entry_key for step in plan.steps} - set(entries):
            entry = load_file(bank / f"toolkit-{key}.yaml", problems)
            entry = resolve_case_presets([entry], bank, problems, presets)[0]
            entries[key], calculators[key] = entry, check_entry(entry, problems)
        checked = check_plan(plan, entries, calculators, presets, problems)
        if checked:
            found[plan.id] = plan_fingerprint(checked[0], entries)
    if problems:
        raise ValueError(f"the generated bank's plans do not check:\n{problems.report()}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scaled_bank")
    parser.add_argument("out", type=Path, help="the folder to write (replaced if it exists)")
    parser.add_argument("--factor", type=int, default=10, help="how many banks' worth of entries (default 10)")
    args = parser.parse_args(argv)
    found = generate(args.out, args.factor)
    print(f"wrote {args.out}: {found['entries']} entries, {found['plans']} plans")
    return 0


if __name__ == "__main__":
    sys.exit(main())
