"""Numbers as people type them and as the book prints them, read and written.

Standard library only: this file is shipped to the browser and runs in Pyodide.

Reading accepts ``70000000000``, ``7e10``, ``7E10``, ``70e9``, ``70,000,000,000``,
``1.56\\times10^{23}``, ``5.88 × 10²³``, ``87.5%``, ``7/39``, and the count suffixes
``k``, ``M``, ``B``, ``T`` (``70B``, ``1.4T``).  Values are read exactly (``Decimal``,
``Fraction``) so that ``1.4T`` is the integer 1,400,000,000,000, not a float near it.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction

# Between a number's parts and before its unit, so that a line never breaks inside one value.
NBSP = "\u00a0"

SUFFIXES = {"k": 3, "M": 6, "B": 9, "T": 12}

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_TO_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")

_DECIMAL = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+"
_NUMBER = re.compile(
    rf"""
    (?P<sign>[-+\u2212]?)\s*
    (?P<mantissa>{_DECIMAL})
    (?:
        [eE](?P<exp>[-+\u2212]?\d+)
      | \s*(?:\\times|\\cdot|×|·|\*|x)\s*10\s*(?:\^\s*\{{?\s*(?P<texexp>[-+\u2212]?\d+)\s*\}}?|(?P<supexp>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))
    )?
    \s*(?P<suffix>[kMBT]|\\?%)?
    """,
    re.VERBOSE,
)
_FRACTION = re.compile(r"(?P<sign>[-+\u2212]?)\s*(?P<num>\d+)\s*/\s*(?P<den>\d+)")


class NumberError(ValueError):
    """Text that is not a number in any accepted spelling."""


def _sign(text: str) -> int:
    return -1 if text in ("-", "\u2212") else 1


def read_exact(text: str) -> Fraction:
    """The exact rational value of ``text``; NumberError when it is not a number."""
    if not isinstance(text, str):
        raise NumberError(f"expected text, got {type(text).__name__}")
    s = text.strip().replace("\u2009", "").replace("\u202f", "").replace("{,}", ",")
    if not s:
        raise NumberError("empty")
    m = _FRACTION.fullmatch(s)
    if m:
        den = int(m["den"])
        if den == 0:
            raise NumberError(f"{text!r} divides by zero")
        return _sign(m["sign"]) * Fraction(int(m["num"]), den)
    m = _NUMBER.fullmatch(s)
    if not m and _NUMBER.fullmatch(s[:-1]) and s.endswith("K"):  # 32K: a thousand, or 2¹⁰ as in "32K context"?
        raise NumberError(f"{text!r} is ambiguous: write {s[:-1]}k for thousands, or the number in full")
    if not m:
        raise NumberError(f"{text!r} is not a number")
    exp = m["exp"] or m["texexp"] or (m["supexp"] or "").translate(_SUPERSCRIPT) or "0"
    exp = int(exp.replace("\u2212", "-"))
    if abs(exp) > 400:
        raise NumberError(f"{text!r} is out of range")
    value = Fraction(Decimal(m["mantissa"].replace(",", "")))
    suffix = m["suffix"]
    if suffix in SUFFIXES:
        exp += SUFFIXES[suffix]
    elif suffix:
        value /= 100
    return _sign(m["sign"]) * value * Fraction(10) ** exp


def significant_digits(text: str) -> int:
    """Significant digits printed in a number's mantissa (``'0.0911'`` -> 3, ``'9,100'`` -> 4)."""
    s = text.strip()
    m = _NUMBER.fullmatch(s.replace("{,}", ","))
    if not m:
        raise NumberError(f"{text!r} is not a number")
    digits = m["mantissa"].replace(",", "").replace(".", "").lstrip("0")
    return max(len(digits), 1)


def read_float(text: str) -> float:
    value = read_exact(text)
    result = float(value)
    if math.isinf(result):
        raise NumberError(f"{text!r} is too large")
    return result


def read_list(text: str) -> list[Fraction]:
    """``(0, 0.2)``, ``[0.3, 0.7]`` or ``0.3, 0.7`` (also ``;`` or spaces between)."""
    s = text.strip()
    if s[:1] in "([" and s[-1:] in ")]":
        s = s[1:-1]
    parts = [p for p in re.split(r"[,;\s]+(?![0-9]{3}\b)|;", s) if p.strip()]
    if not parts:
        raise NumberError("empty list")
    return [read_exact(p) for p in parts]


# ----------------------------------------------------------------------------- writing

FORMAT = re.compile(r"(?P<kind>sig|fixed|percent|sci|si|int|fraction|bool|text)(?::(?P<n>\d+))?")

_SI = [(24, "Y"), (21, "Z"), (18, "E"), (15, "P"), (12, "T"), (9, "G"), (6, "M"), (3, "k")]


def _superscript(exp: int) -> str:
    return str(exp).translate(_TO_SUPERSCRIPT)


def _strip_zeros(text: str) -> str:
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def _scientific(x: float, n: int) -> str:
    if x == 0:
        return "0"
    mantissa, exp = f"{x:.{max(n - 1, 0)}e}".split("e")
    return f"{_strip_zeros(mantissa)}{NBSP}×{NBSP}10{_superscript(int(exp))}"


def _significant(x: float, n: int) -> str:
    if x == 0:
        return "0"
    exp = int(f"{x:.{max(n - 1, 0)}e}".split("e")[1])
    if -4 <= exp < 9:
        decimals = max(n - 1 - exp, 0)
        return _strip_zeros(f"{x:,.{decimals}f}")
    return _scientific(x, n)


def _nonfinite(x: float) -> str | None:
    if math.isnan(x):
        return "undefined"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return None


def format_number(value, fmt: str) -> str:
    """Write one value for a reader.  ``fmt`` is ``kind[:n]``, see ``FORMAT``.

    ``si`` ends in its prefix (``'160 G'``), to be followed directly by the unit."""
    m = FORMAT.fullmatch(fmt)
    if not m:
        raise ValueError(f"unknown format {fmt!r}")
    kind, n = m["kind"], int(m["n"] or 3)
    if kind == "text":
        return str(value)
    if kind == "bool":
        return "yes" if value else "no"
    if kind == "fraction" and isinstance(value, (int, Fraction)):
        value = Fraction(value)
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    x = float(value)
    special = _nonfinite(x)
    if special:
        return special
    if kind == "fraction":
        frac = Fraction(x).limit_denominator(10_000)
        if abs(float(frac) - x) <= 1e-12 * max(1.0, abs(x)):
            return format_number(frac, "fraction")
        return _significant(x, 4)
    if kind == "int":
        return f"{round(x):,}" if abs(x) < 1e15 else _scientific(x, 4)
    if kind == "fixed":
        return f"{x:,.{n}f}"
    if kind == "percent":
        return f"{x * 100:,.{n}f}%"
    if kind == "sci":
        return _scientific(x, n)
    if kind == "si":
        for exp, prefix in _SI:
            if abs(x) >= 10**exp * (1 - 0.5 * 10 ** (1 - n)):
                return f"{_significant(x / 10**exp, n)}{NBSP}{prefix}"
        return _significant(x, n) + NBSP
    return _significant(x, n)


def listed(texts: list[str]) -> str:
    """Several values in parentheses; one value as it is; no value as "none"."""
    if len(texts) == 1:
        return texts[0]
    return "(" + ", ".join(texts) + ")" if texts else "none"


def format_value(value, fmt: str, unit: str = "") -> str:
    """A value with its unit: a scalar as ``format_number``, a list element-wise (see ``listed``)."""
    if isinstance(value, (list, tuple)):
        if fmt.split(":")[0] == "si" or not value:
            return listed([format_value(v, fmt, unit) for v in value])
        text = listed([format_number(v, fmt) for v in value])
    else:
        text = format_number(value, fmt)
    if fmt.split(":")[0] == "si":
        return (text + unit).strip()
    return with_unit(text, unit)


def with_unit(text: str, unit: str) -> str:
    """A written number and its unit, never broken apart: ``1.5 tokens``, ``1 token``."""
    if not unit:
        return text
    if text == "1" and unit.endswith("s") and len(unit) > 2 and "/" not in unit:
        unit = unit[:-2] if unit.endswith(("ches", "shes", "sses", "xes")) else unit[:-1]
    return f"{text}{NBSP}{unit}"


def write_input(value) -> str:
    """A default as a reader would type it: ``70000000000`` -> ``70B``, ``2.0`` -> ``2``."""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return ", ".join(write_input(v) for v in value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        for suffix, exp in sorted(SUFFIXES.items(), key=lambda kv: -kv[1]):
            scaled = Fraction(value, 10**exp)
            if abs(value) >= 10**exp and scaled.denominator in (1, 2, 4, 5, 10, 20, 25, 50, 100):
                text = f"{float(scaled):g}"
                if "e" not in text:
                    return text + suffix
        return str(value)
    return repr(value).replace("e+", "e")
