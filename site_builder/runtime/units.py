"""Units: every unit an entry may name, its dimension, and the ways a reader may display it.

Standard library only: shipped to the browser.  Values are always computed in base units
(bytes, FLOPs, seconds, counts); only the display changes.  Byte quantities may be shown in
GB (10^9) or GiB (2^30), FLOPs plainly, scientifically or in PFLOP/s-days, large counts with
k/M/B/T suffixes.  A unit missing from this table cannot ship (a test checks every entry).
"""

from __future__ import annotations

import math
from decimal import Decimal

from .numbers import format_number, format_value, listed, with_unit

# dimension: exponents of the base quantities a mix-up could confuse.
BYTES = {"bytes": 1}
FLOPS = {"flop": 1}
TIME = {"time": 1}
NONE: dict = {}

# unit -> (dimension, display family)
UNITS: dict[str, tuple[dict, str]] = {
    "": (NONE, "plain"),
    "B": (BYTES, "bytes"),
    "B/s": ({"bytes": 1, "time": -1}, "byte-rate"),
    "B/param": (BYTES, "plain"),
    "FLOP": (FLOPS, "flop"),
    "FLOP/s": ({"flop": 1, "time": -1}, "flop-rate"),
    "FLOP/B": ({"flop": 1, "bytes": -1}, "plain"),
    "MAC": (NONE, "count"),
    "s": (TIME, "plain"),
    "tokens/s": ({"time": -1}, "plain"),
    "parameters": (NONE, "count"),
    "tokens": (NONE, "count"),
    "samples": (NONE, "count"),
    "examples": (NONE, "count"),
    "sequences": (NONE, "count"),
    "members": (NONE, "count"),
    "chars": (NONE, "count"),
    "steps": (NONE, "plain"),
    "layers": (NONE, "plain"),
    "blocks": (NONE, "plain"),
    "stages": (NONE, "plain"),
    "devices": (NONE, "plain"),
    "heads": (NONE, "plain"),
    "positions": (NONE, "plain"),
    "micro-batches": (NONE, "plain"),
    "stage-units": (NONE, "plain"),
    "time units": (NONE, "plain"),
    "units": (NONE, "plain"),
    "px": (NONE, "plain"),
    "bits": (NONE, "plain"),
    "nats": (NONE, "plain"),
    "bits/token": (NONE, "plain"),
    "nats/token": (NONE, "plain"),
    "bits/char": (NONE, "plain"),
    "characters/token": (NONE, "plain"),
    "tokens/parameter": (NONE, "plain"),
    "d²": (NONE, "plain"),
    "dB": (NONE, "plain"),
    "×": (NONE, "plain"),
}

PFLOP_S_DAY = 1e15 * 86_400

# family -> choice -> (label shown in the menu, how to write a value)
CHOICES: dict[str, dict[str, str]] = {
    "bytes": {"auto": "kB, MB, GB… (10³ steps)", "GB": "GB (10⁹ bytes)", "GiB": "GiB (2³⁰ bytes)", "bytes": "bytes"},
    "byte-rate": {"auto": "kB/s, MB/s, GB/s…", "GB/s": "GB/s (10⁹ B/s)", "GiB/s": "GiB/s (2³⁰ B/s)"},
    "flop": {"sci": "scientific", "plain": "plain", "pfsd": "PFLOP/s-days"},
    "flop-rate": {"auto": "TFLOP/s, PFLOP/s…", "sci": "scientific"},
    "count": {"suffix": "k, M, B, T", "plain": "plain", "sci": "scientific"},
}
SUFFIX_STEPS = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")]
# choice -> (exact factor from the base unit, the unit written after the number)
SCALED = {"GB": (1e9, "GB"), "GiB": (2**30, "GiB"), "GB/s": (1e9, "GB/s"), "GiB/s": (2**30, "GiB/s"),
          "pfsd": (PFLOP_S_DAY, "PFLOP/s-days")}


def family(unit: str) -> str:
    return UNITS[unit][1]


def dimension(unit: str) -> dict:
    return UNITS[unit][0]


def _digits(fmt: str) -> int:
    head, _, n = fmt.partition(":")
    return int(n) if n.isdigit() and head in ("sig", "si", "sci") else 4


def plain_integer(x: float) -> str:
    """A whole number in full, from the value's shortest decimal: 5.88e23 -> 588,000,000,000,000,000,000,000."""
    if not math.isfinite(x):
        return format_number(x, "int")
    return f"{int(Decimal(repr(round(x, 0) if abs(x) < 1e15 else x))):,}"


def write(value, fmt: str, unit: str, choice: str | None) -> str:
    """``value`` (in base units) as the reader chose to see it; the entry's own format otherwise."""
    fam = UNITS.get(unit, (NONE, "plain"))[1]
    if not choice or choice not in CHOICES.get(fam, {}) or isinstance(value, (bool, str)):
        return format_value(value, fmt, unit)
    if isinstance(value, (list, tuple)):
        return listed([write(v, fmt, unit, choice) for v in value])
    n = _digits(fmt)
    x = float(value)
    if choice in SCALED:
        factor, label = SCALED[choice]
        return with_unit(format_number(x / factor, f"sig:{n}"), label)
    if fam in ("bytes", "byte-rate", "flop-rate") and choice == "auto":
        return format_value(x, f"si:{n}", unit)
    if choice == "plain" or choice == "bytes":
        return with_unit(plain_integer(x), unit)
    if choice == "sci":
        return with_unit(format_number(x, f"sci:{n}"), unit)
    if fam == "count":  # suffix
        for step, suffix in SUFFIX_STEPS:
            if abs(x) >= step:
                return with_unit(format_number(x / step, f"sig:{n}") + suffix, unit)
    return format_value(value, fmt, unit)
