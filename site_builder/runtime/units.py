"""Units: every unit an entry may name, its dimension, and the ways a reader may display it.

Standard library only: shipped to the browser.  Values are always computed in base units
(bytes, FLOPs, seconds, counts); only the display changes.  Byte quantities may be shown in
GB (10^9) or GiB (2^30), FLOPs plainly, scientifically or in PFLOP/s-days, large counts with
k/M/B/T suffixes.  A unit missing from this table cannot ship (a test checks every entry).
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction

from .numbers import (
    NBSP,
    NumberError,
    comma_hint,
    figures,
    format_number,
    format_of,
    format_value,
    grouped,
    listed,
    read_exact,
    significant_digits,
    with_unit,
)

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
    "terms": (NONE, "plain"),
    "evaluations": (NONE, "plain"),
    "micro-batches": (NONE, "plain"),
    "chunks": (NONE, "plain"),
    "experts": (NONE, "plain"),
    "matrices": (NONE, "plain"),
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
    "days": (NONE, "plain"),
    "device-hours": (NONE, "plain"),
    "USD": ({"money": 1}, "plain"),
    "USD/device-hour": ({"money": 1}, "plain"),
    "USD/Mtok": ({"money": 1}, "plain"),
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


# How an entry's own format writes a family's values, named for the menu's default option.
def default_name(fam: str, formats: list[str]) -> str:
    """The unit menu's default option, named by what it shows: 'Default: kB, MB, GB… (10³ steps)'."""
    names = []
    for fmt in formats:
        menu = format_of(fmt)[0].menu
        name = CHOICES.get(fam, {}).get("auto", "with an SI prefix") if menu == "auto" else menu
        if name not in names:
            names.append(name)
    return "Default: " + (names[0] if len(names) == 1 else "as each result is written")


SUFFIX_STEPS = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")]
# choice -> (exact factor from the base unit, the unit written after the number)
SCALED = {
    "GB": (1e9, "GB"),
    "GiB": (2**30, "GiB"),
    "GB/s": (1e9, "GB/s"),
    "GiB/s": (2**30, "GiB/s"),
    "pfsd": (PFLOP_S_DAY, "PFLOP/s-days"),
}


def family(unit: str) -> str:
    return UNITS[unit][1]


def dimension(unit: str) -> dict:
    return UNITS[unit][0]


def plain_integer(x: float) -> str:
    """A whole number in full, from the value's shortest decimal: 5.88e23 -> 588,000,000,000,000,000,000,000."""
    if not math.isfinite(x):
        return format_number(x, "int")
    return grouped(int(Decimal(repr(round(x, 0) if abs(x) < 1e15 else x))))


def write(value, fmt: str, unit: str, choice: str | None) -> str:
    """``value`` (in base units) as the reader chose to see it; the entry's own format otherwise."""
    fam = UNITS.get(unit, (NONE, "plain"))[1]
    if not choice or choice not in CHOICES.get(fam, {}) or isinstance(value, (bool, str)):
        return format_value(value, fmt, unit)
    if isinstance(value, (list, tuple)):
        return listed([write(v, fmt, unit, choice) for v in value])
    n = figures(fmt)
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


# Families whose values a display choice rescales (a byte count shown in GB), not only respells.
RESCALED = ("bytes", "byte-rate", "flop", "flop-rate")
# How a rescaled family is written when the reader chose nothing: as results in it are by default.
RESCALED_DEFAULT = {"bytes": "auto", "byte-rate": "auto", "flop-rate": "auto", "flop": None}


def rescaled(unit: str) -> bool:
    """Whether a value in ``unit`` is shown in a scale (GB, PFLOP/s) rather than as it is typed."""
    return unit in UNITS and family(unit) in RESCALED


def write_given(value, typed: str, unit: str, choice: str | None) -> str:
    """An input's value, typed as ``typed`` (``2.6843545602e11``, ``244,140``, ``70B``), as the page
    shows it beside the results: in the reader's scale where its unit has one (``268.43545602 GB``,
    with the typed figures, none lost or invented); otherwise as typed, with its unit
    (``244,140 tokens``, ``70B parameters``: a count keeps the way it was written)."""
    if not rescaled(unit) or isinstance(value, (bool, str, list, tuple)):
        return with_unit(typed, unit)
    try:
        n = significant_digits(typed)
    except NumberError:
        n = 4
    fam = family(unit)
    chosen = choice if choice in CHOICES.get(fam, {}) else RESCALED_DEFAULT[fam]
    if chosen is None:
        return format_value(value, f"sig:{n}", unit)
    return write(value, f"sig:{n}", unit, chosen)


# ----------------------------------------------------------------------------- reading

# SI prefixes a reader may put before a unit (``80 GB``, ``327.7 kB``, ``1.5 ms``), and
# binary ones before bytes (``1.25 GiB``).
PREFIXES = {
    "Y": 24,
    "Z": 21,
    "E": 18,
    "P": 15,
    "T": 12,
    "G": 9,
    "M": 6,
    "k": 3,
    "m": -3,
    "µ": -6,
    "μ": -6,
    "u": -6,
    "n": -9,
}
BINARY = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
# Other ways a reader may write a unit: what the display choices write, and plain words.
ALIASES = {"B": ("bytes", "byte"), "FLOP": ("FLOPs",), "B/s": ("bytes/s",)}
WHOLE_LABELS = {"FLOP": {"PFLOP/s-days": PFLOP_S_DAY, "PFLOP/s-day": PFLOP_S_DAY}}


def _prefixed(text: str, binary: bool) -> Fraction:
    """A number, or a number followed by an SI (or, for bytes, binary) prefix: ``80G``, ``1.25Gi``."""
    try:
        return read_exact(text)
    except NumberError:
        pass
    if binary and text[-2:] in BINARY and text[:-2].strip():
        return read_exact(text[:-2].rstrip()) * 2 ** BINARY[text[-2:]]
    if text[-1:] in PREFIXES and text[:-1].strip():
        return read_exact(text[:-1].rstrip()) * Fraction(10) ** PREFIXES[text[-1:]]
    raise NumberError(f"{text!r} is not a number")


def _byte_prefix(rest: str) -> str:
    """A byte prefix as people type it, in its one spelling: ``80 g`` -> ``80 G``, ``80gi`` -> ``80Gi``
    (no one means millibytes: ``m`` is mega)."""
    if rest[-2:].lower() in {b.lower() for b in BINARY} and rest[:-2].strip():
        return rest[:-2] + rest[-2].upper() + "i"
    if rest[-1:].lower() in "kmgtpezy" and rest[:-1].strip() and not rest[-2:-1].isalpha():
        return rest[:-1] + ("k" if rest[-1] in "kK" else rest[-1].upper())
    return rest


def read(text: str, unit: str = "") -> Fraction:
    """A value typed in an output's unit, as the reader sees it, in base units (exact).

    ``80 GB``, ``80GB``, ``80 gb``, ``1.25 GiB``, ``327.7 kB``, ``5 PFLOP/s-days``, ``1e24 FLOP``,
    ``70B tokens``, ``8%``, ``0.98``: the unit (or one of its display forms) may follow the
    number, with an SI prefix (binary ones too for bytes, whose unit and prefix are read in
    either case); without a unit the number is read as ``numbers.read_exact`` reads it (``70B``
    is then 70 billion; see ``read_shown`` for a bare number in the unit shown).  NumberError
    when it is not such a value."""
    if not isinstance(text, str):
        raise NumberError(f"expected text, got {type(text).__name__}")
    s = " ".join(text.replace(NBSP, " ").replace("\u202f", " ").replace("\u2009", " ").split())
    if not s:
        raise NumberError("empty")
    for label, factor in WHOLE_LABELS.get(unit, {}).items():
        if s.endswith(label) and s[: -len(label)].strip():
            return read_exact(s[: -len(label)].strip()) * Fraction(factor)
    labels = [unit, *ALIASES.get(unit, ())] if unit else []
    if unit and unit.endswith("s") and len(unit) > 2 and "/" not in unit:
        labels.append(unit[:-1])  # 1 token
    bytes_like = unit in UNITS and family(unit) in ("bytes", "byte-rate")
    for label in sorted(labels, key=len, reverse=True):
        ends = s.lower().endswith(label.lower()) if bytes_like else s.endswith(label)
        if ends and s[: -len(label)].strip():
            rest = s[: -len(label)].rstrip()
            try:
                return _prefixed(_byte_prefix(rest) if bytes_like else rest, binary=bytes_like)
            except NumberError:
                break
    try:
        return _prefixed(s, binary=False)
    except NumberError:
        pass
    where = f" in {unit}" if unit else ""
    raise NumberError(f"{text!r} is not a number{where}{comma_hint(s)}")


# A number with no unit, no suffix and no exponent: read in the unit the result is shown in.
_BARE = re.compile(r"[-+\u2212]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)")
_WRITTEN_NUMBER = re.compile(r"[-+\u2212]?[\d,.]+(?:\s*×\s*10[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)?")


def unit_shown(written: str) -> str:
    """The unit part of a value as written: ``161.1 GB`` -> ``GB``, ``1.4T tokens`` -> ``T tokens``."""
    text = written.replace(NBSP, " ").strip()
    m = _WRITTEN_NUMBER.match(text)
    label = text[m.end() :].strip() if m else ""
    return label if re.match(r"[^\W\d_]", label) else ""  # a unit starts with a letter (not 7/276's /276)


def read_shown(text: str, unit: str, shown: str) -> tuple[Fraction, str]:
    """A target typed for a result shown as ``shown`` (``161.1 GB``): ``read``, except that a bare
    number is read in the unit shown (``80`` is 80 GB there).  Returns the value and the unit a
    bare number was read in ('' when the text named its own, or the unit scales nothing: a
    percentage's bare number stays a fraction, as the book writes its targets)."""
    s = " ".join(str(text).split())
    label = unit_shown(shown)
    if _BARE.fullmatch(s) and label and label != unit and "%" not in label:
        try:
            factor = read(f"1 {label}", unit)
        except NumberError:
            factor = Fraction(1)
        if factor != 1:
            return read(s, unit) * factor, label
    return read(s, unit), ""
