"""The test suite's duration, recorded in BENCHMARKS.md's "The test suite" section.

    python -m benchmarks.suite [--out BENCHMARKS.md]     (or: make bench-suite)

Runs the suite as ``make test`` runs it (``python -m pytest``, every test, on this machine) once,
with pytest's own timing, and writes the whole run's wall time, the test count, the machine's
cores and load, and the slowest tests.  A duration is a figure to record, never a pass/fail
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


def measure() -> dict:
    """One run of the whole suite: its wall time, its summary line and its slowest tests."""
    load = os.getloadavg()[0]
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--durations={SLOWEST}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    wall = time.monotonic() - started
    lines = done.stdout.splitlines()
    summary = next((line.strip("= ") for line in reversed(lines) if re.search(r"\d+ (passed|failed)", line)), "")
    slowest = [m.groups() for m in (re.match(r"\s*([\d.]+)s (call|setup|teardown)\s+(\S+)", x) for x in lines) if m]
    return {"wall": wall, "summary": summary, "slowest": slowest, "code": done.returncode, "load": load}


def section(found: dict) -> str:
    """The section's Markdown, between its markers."""
    minutes, seconds = divmod(round(found["wall"]), 60)
    met = "✓" if found["wall"] <= TARGET_S and found["code"] == 0 else "✗"
    rows = "\n".join(f"| {float(s):.1f} s | {when} | `{name}` |" for s, when, name in found["slowest"])
    return (
        f"{BEGIN}\n## The test suite\n\n"
        f"`make test`'s tests (`python -m pytest`), run once on {os.cpu_count()} cores"
        f" (load average {found['load']:.1f} at the start): **{minutes} min {seconds:02d} s**"
        f" — {found['summary'] or 'no summary'}.\n\n"
        f"| target | met | measured |\n|---|---|---|\n"
        f"| The suite in at most 10 minutes on a 2-core machine | {met} | {minutes} min {seconds:02d} s |\n\n"
        f"The slowest tests:\n\n| time | phase | test |\n|---|---|---|\n{rows}\n{END}\n"
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
