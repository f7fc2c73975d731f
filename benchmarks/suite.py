"""The test suite's duration, recorded in BENCHMARKS.md's "The test suite" section.

    python -m benchmarks.suite [--out BENCHMARKS.md]     (or: make bench-suite)

Runs the tests as ``.ci/run`` runs them, once: its ``make`` commands but lint (``make test``: every
test, on the Makefile's test workers, the link property at length), with pytest's own timing, and
writes each command's wall time and their sum, the test counts, the machine's cores and load, and
the slowest tests.  A duration is a figure to record, never a pass/fail
test: the target (at most 10 minutes on a 2-core machine) is said met or not.  ``make bench``
keeps this section as it is when it rewrites the rest of the file.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.common import kept_section, write_section

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- suite: written by python -m benchmarks.suite -->", "<!-- /suite -->"
TARGET_S = 600  # ten minutes of tests on a 2-core machine
SLOWEST = 12
CI = ROOT / ".ci" / "run"


def ci_commands(script: Path = CI) -> dict[str, dict[str, str]]:
    """.ci/run's test commands in its order: {make target: the environment it sets}, lint left out.
    A line that runs make in another form (a flag, a wrapper such as ``time``, two commands) is
    refused with its line, rather than left out of the suite's figure unsaid."""
    found = {}
    for n, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1):
        words = line.split()
        if "make" not in words or line.lstrip().startswith("#"):
            continue
        at = words.index("make")
        setting, rest = words[:at], words[at + 1 :]
        if (
            len(rest) != 1
            or rest[0].startswith("-")
            or not all(re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", w) for w in setting)
        ):
            raise ValueError(
                f"{script}:{n}: {line.strip()!r} is not of the form 'NAME=value ... make target', "
                "the one form the suite's figure runs as CI does"
            )
        if rest[0] != "lint":
            found[rest[0]] = dict(w.split("=", 1) for w in setting)
    return found


def _run(target: str, settings: dict[str, str]) -> dict:
    """``make <target>`` once, as .ci/run runs it, with pytest's timing asked for."""
    started = time.monotonic()
    done = subprocess.run(
        ["make", "-s", target, f"PY={sys.executable}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=dict(os.environ, **settings, PYTEST_ADDOPTS=f"-q -rfE -p no:cacheprovider --durations={SLOWEST}"),
    )
    wall = time.monotonic() - started
    lines = done.stdout.splitlines()
    summary = next((line.strip("= ") for line in reversed(lines) if re.search(r"\d+ (passed|failed)", line)), "")
    slowest = [m.groups() for m in (re.match(r"\s*([\d.]+)s (call|setup|teardown)\s+(\S+)", x) for x in lines) if m]
    failed = [x.strip() for x in lines if x.startswith(("FAILED ", "ERROR "))]  # pytest's -rfE summary
    return {"wall": wall, "summary": summary, "slowest": slowest, "code": done.returncode, "failed": failed}


def measure() -> dict:
    """One run of .ci/run's tests: the wall time of all, each command's, and the slowest tests of all."""
    load = os.getloadavg()[0]
    runs = {target: _run(target, settings) for target, settings in ci_commands().items()}
    slowest = sorted((s for r in runs.values() for s in r["slowest"]), key=lambda s: -float(s[0]))[:SLOWEST]
    return {
        "wall": sum(r["wall"] for r in runs.values()),
        "summary": "; ".join(f"make {t}: {r['summary'] or 'no summary'}" for t, r in runs.items()),
        "commands": {t: r["wall"] for t, r in runs.items()},
        "slowest": slowest,
        "failed": [f for r in runs.values() for f in r.get("failed", [])],
        "code": max(r["code"] for r in runs.values()),
        "load": load,
    }


def section(found: dict) -> str:
    """The section's Markdown, between its markers."""
    clock = lambda s: "{} min {:02d} s".format(*divmod(round(s), 60))
    met = "✓" if found["wall"] <= TARGET_S and found["code"] == 0 else "✗"
    rows = "\n".join(f"| {float(s):.1f} s | {when} | `{name}` |" for s, when, name in found["slowest"])
    each = ", ".join(f"`make {t}` {clock(s)}" for t, s in found.get("commands", {}).items())
    return (
        f"{BEGIN}\n## The test suite\n\n"
        f"`.ci/run`'s tests, run once on {os.cpu_count()} cores"
        f" (load average {found['load']:.1f} at the start): **{clock(found['wall'])}**"
        f"{f' ({each})' if each else ''} — {found['summary'] or 'no summary'}.\n\n"
        f"| target | met | measured |\n|---|---|---|\n"
        f"| The suite in at most 10 minutes on a 2-core machine | {met} | {clock(found['wall'])} |\n\n"
        + (
            "Failed in this run:\n\n" + "".join(f"- `{f}`\n" for f in found["failed"]) + "\n"
            if found.get("failed")
            else ""
        )
        + f"The slowest tests:\n\n| time | phase | test |\n|---|---|---|\n{rows}\n{END}\n"
    )


def kept(text: str) -> str:
    """The suite section of a BENCHMARKS.md text ('' when it has none), for ``make bench`` to keep."""
    return kept_section(text, BEGIN, END)


def write(out: Path, found: dict) -> None:
    write_section(out, BEGIN, END, section(found), in_place=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.suite")
    parser.add_argument("--out", type=Path, default=ROOT / "BENCHMARKS.md")
    args = parser.parse_args(argv)
    found = measure()
    write(args.out, found)
    print(f"{found['summary']} in {found['wall']:.0f} s; wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
