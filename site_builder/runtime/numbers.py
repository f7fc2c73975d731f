"""Numbers as people type them and as the book prints them, read and written.

Standard library only: this file is shipped to the browser and runs in Pyodide.

Reading accepts ``70000000000``, ``7e10``, ``7E10``, ``70e9``, ``70,000,000,000``,
``1.56\\times10^{23}``, ``5.88 × 10²³``, ``87.5%``, ``7/39``, and the count suffixes
``k`` (or ``K``), ``M``, ``B``, ``T`` (``70B``, ``1.4T``, ``32K``), the binary ones ``Ki``, ``Mi``,
``Gi``, ``Ti`` (``32Ki`` is 32,768), powers (``2^17``, ``2**17``, ``2¹⁷``, ``3 × 2^10``) and digits
grouped by spaces (``131 072``).  Values are read exactly (``Decimal``, ``Fraction``) so that
``1.4T`` is the integer 1,400,000,000,000, not a float near it.

``K`` is a thousand, like ``k``: a context length written ``32K`` is read as 32,000, and
``reading`` says so, offering ``32Ki`` (32,768) in one step.  Inside a list, commas separate
the elements and never group thousands (``read_list``).

A comma is never silently a decimal comma, nor silently a thousands separator where it could
be one: ``1,234,567`` and ``1,250.5`` group thousands (nothing else could be meant);
``1,250`` is read as 1250 and ``reading`` says so, offering ``1.250`` one click away; ``0,125``,
``0,5`` and ``1,25`` are refused with the hint to write ``0.125`` (no number groups a leading
zero, nor fewer than three digits).
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

# Between a number's parts and before its unit, so that a line never breaks inside one value.
NBSP = "\u00a0"

SUFFIXES = {"k": 3, "M": 6, "B": 9, "T": 12}
# Also read: K is a thousand like k (a reader's 32K), and the binary suffixes (powers of 2¹⁰).
READ_SUFFIXES = {**SUFFIXES, "K": 3}
BINARY_SUFFIXES = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40}

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_TO_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")

_DECIMAL = r"(?:[1-9]\d{0,2}(?:,\d{3})+|\d{1,3}(?:[ \u00a0]\d{3})+|\d+)(?:\.\d*)?|\.\d+"
_EXP = r"[-+\u2212]?\d+"
_SUP = r"[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+"
_NUMBER = re.compile(
    rf"""
    (?P<sign>[-+\u2212]?)\s*
    (?P<mantissa>{_DECIMAL})
    (?:
        [eE](?P<exp>{_EXP})
      | \s*(?:\^|\*\*)\s*(?:\{{\s*(?P<powtex>{_EXP})\s*\}}|(?P<pow>{_EXP}))
      | (?P<powsup>{_SUP})
      | \s*(?:\\times|\\cdot|×|·|\*|x)\s*(?P<base>\d+)\s*(?:\^\s*\{{?\s*(?P<texexp>{_EXP})\s*\}}?|(?P<supexp>{_SUP}))
    )?
    \s*(?P<suffix>Ki|Mi|Gi|Ti|[kKMBT]|\\?%)?
    """,
    re.VERBOSE,
)
_GROUPED = r"[1-9]\d{0,2}(?:,\d{3})+|\d+"  # a whole number, its digits grouped or not
_FRACTION = re.compile(rf"(?P<sign>[-+\u2212]?)\s*(?P<num>{_GROUPED})\s*/\s*(?P<den>{_GROUPED})")


class NumberError(ValueError):
    """Text that is not a number in any accepted spelling."""


def _sign(text: str) -> int:
    return -1 if text in ("-", "\u2212") else 1


def read_exact(text: str) -> Fraction:
    """The exact rational value of ``text``; NumberError when it is not a number."""
    if not isinstance(text, str):
        raise NumberError(f"expected text, got {type(text).__name__}")
    return _read_exact(text)


@lru_cache(maxsize=4096)
def _read_exact(text: str) -> Fraction:
    """``read_exact`` of a text, read once: a build reads each default and preset value thousands of times."""
    s = text.strip().replace("\u2009", "").replace("\u202f", "").replace("{,}", ",")
    if not s:
        raise NumberError("empty")
    m = _FRACTION.fullmatch(s)
    if m:
        den = int(m["den"].replace(",", ""))
        if den == 0:
            raise NumberError(f"{text!r} divides by zero")
        return _sign(m["sign"]) * Fraction(int(m["num"].replace(",", "")), den)
    m = _NUMBER.fullmatch(s)
    if not m:
        raise NumberError(f"{text!r} is not a number{comma_hint(s)}")
    return _value(m, text)


# A comma between digits that cannot group thousands: a decimal comma (``0,125``, ``1,5``).
_DECIMAL_COMMA = re.compile(r"(?<![\d,])(\d+),(\d+)(?![\d,.])")


def comma_hint(text: str) -> str:
    """Why a number with a comma was refused, and how to write it: ``0,125`` -> ``(write 0.125)``."""
    if not re.search(r"\d,\d", text):
        return ""
    if len(_DECIMAL_COMMA.findall(text)) == 1 and text.count(",") == 1:
        dotted = _DECIMAL_COMMA.sub(r"\1.\2", text)
        return f": the decimal point is a dot (write {dotted})"
    return ": commas group digits in threes after a first group of 1 to 3 digits, not starting with 0 (or write it without commas)"


def _int(text: str) -> int:
    return int(text.replace("\u2212", "-"))


def _power(base: Fraction, exp: int, text: str) -> Fraction:
    if base == 0 and exp < 0:
        raise NumberError(f"{text!r} divides by zero")
    if base != 0 and abs(exp) * abs(math.log10(abs(base))) > 400:
        raise NumberError(f"{text!r} is out of range")
    return base**exp


def _value(m: re.Match, text: str) -> Fraction:
    value = Fraction(Decimal(re.sub(r"[, \u00a0]", "", m["mantissa"])))
    if m["pow"] or m["powtex"] or m["powsup"]:  # 2^17: the number written is the base
        value = _power(value, _int(m["pow"] or m["powtex"] or m["powsup"].translate(_SUPERSCRIPT)), text)
    elif m["base"]:  # 1.56 × 10^23, 3 × 2^10
        exp = _int(m["texexp"] or m["supexp"].translate(_SUPERSCRIPT))
        value *= _power(Fraction(int(m["base"])), exp, text)
    elif m["exp"]:
        exp = _int(m["exp"])
        if abs(exp) > 400:
            raise NumberError(f"{text!r} is out of range")
        value *= Fraction(10) ** exp
    suffix = m["suffix"]
    if suffix in READ_SUFFIXES:
        value *= 10 ** READ_SUFFIXES[suffix]
    elif suffix in BINARY_SUFFIXES:
        value *= 2 ** BINARY_SUFFIXES[suffix]
    elif suffix:
        value /= 100
    return _sign(m["sign"]) * value


def significant_digits(text: str) -> int:
    """Significant digits printed in a number's mantissa (``'0.0911'`` -> 3, ``'9,100'`` -> 4)."""
    s = text.strip()
    m = _NUMBER.fullmatch(s.replace("{,}", ","))
    if not m:
        raise NumberError(f"{text!r} is not a number")
    digits = m["mantissa"].replace(",", "").replace(".", "").lstrip("0")
    return max(len(digits), 1)


def _list_parts(text: str) -> list[str]:
    s = text.strip()
    if s[:1] in "([" and s[-1:] in ")]":
        s = s[1:-1]
    if re.search(r"[,;]", s):  # commas (or semicolons) separate; spaces may then group digits
        return [p.strip() for p in re.split(r"[,;]", s)]
    return s.split()


def read_list(text: str) -> list[Fraction]:
    """``(0, 0.2)``, ``[0.3, 0.7]``, ``0.3, 0.7``, ``0.3; 0.7`` or ``0.3 0.7``.

    Commas separate the elements and never group thousands: ``5,100,7`` is three numbers
    (``reading`` says so); with commas, spaces may group digits (``131 072, 65 536``)."""
    parts = _list_parts(text)
    if not any(parts):
        raise NumberError("empty list")
    if not all(parts):
        raise NumberError(f"{text.strip()!r} has an empty element between two commas")
    return [read_exact(p) for p in parts]


def _plain(value: Fraction) -> str:
    if value.denominator == 1:
        return grouped(value.numerator)
    return _significant(float(value), 6)


def reading(text, is_list: bool = False) -> dict | None:
    """How a value that could be read two ways was read, for the field's echo; None otherwise.

    ``{"text": "32K read as 32,000 (K = 10³)", "alternative": "32Ki", "alternative_text": "32,768"}``:
    ``k``/``K`` is a thousand, ``Ki`` is 2¹⁰ and the echo offers the other reading.  A list whose
    comma could be a thousands separator (``5,100,7``) says that it was read as separate numbers."""
    if not isinstance(text, str):
        return None
    s = text.strip()
    if is_list:
        if not re.search(r"\d,\d{3}(?!\d)", s):
            return None
        try:
            values = read_list(s)
        except NumberError:
            return None
        return {
            "text": f"read as {len(values)} numbers: {'; '.join(_plain(v) for v in values)} "
            "(in a list, commas separate the numbers, never thousands)"
        }
    m = _NUMBER.fullmatch(s.replace("\u2009", "").replace("\u202f", ""))
    if m and _ONE_GROUP.fullmatch(m["mantissa"]) and not m["suffix"] and not m["exp"]:
        return _comma_reading(m, s, text)
    if not m or not m["suffix"] or m["suffix"] not in ("k", "K", *BINARY_SUFFIXES):
        return None
    try:
        value = _value(m, text)
    except NumberError:
        return None
    suffix = m["suffix"]
    head = s[: m.start("suffix")].rstrip()
    if suffix in ("k", "K"):
        other, factor, what = head + "Ki", Fraction(1024, 1000), "10³"
    else:
        decimal = {"Ki": "k", "Mi": "M", "Gi": "B", "Ti": "T"}[suffix]
        other = head + decimal
        factor = Fraction(10 ** READ_SUFFIXES[decimal], 2 ** BINARY_SUFFIXES[suffix])
        what = f"2{_superscript(BINARY_SUFFIXES[suffix])}"
    return {
        "text": f"{s} read as {_plain(value)} ({suffix} = {what})",
        "alternative": other,
        "alternative_text": _plain(value * factor),
    }


# One comma and three digits, no decimals: 1,250 groups thousands, or is 1.25 with a decimal comma.
_ONE_GROUP = re.compile(r"[1-9]\d{0,2},\d{3}")


def _comma_reading(m: re.Match, s: str, text: str) -> dict | None:
    """``1,250`` read as 1,250 (the comma groups thousands), with ``1.250`` one click away."""
    try:
        value = _value(m, text)
    except NumberError:
        return None
    other = s[: m.start("mantissa")] + m["mantissa"].replace(",", ".") + s[m.end("mantissa") :]
    try:
        other_value = read_exact(other)
    except NumberError:
        return None
    return {
        "text": f"{s} read as {_plain(value)} (the comma groups thousands; the decimal point is a dot)",
        "alternative": other,
        "alternative_text": _plain(other_value),
    }


# ----------------------------------------------------------------------------- writing


def grouped(n: int) -> str:
    """A whole number as a reader reads it: digits in threes from four digits on (``32,768``,
    ``1,024``, ``-10,001``, ``512``).  The one grouping rule: every whole number the page, the
    command or the API writes for a reader is written by it (a decimal's whole part by the same
    ``,`` of the format spec); what a reader types back in (a field's value, a link) keeps
    ``write_input``'s spelling."""
    return f"{int(n):,}"


def shown_input(value) -> str:
    """An input's value written for a reader, not for typing back in: as ``write_input`` spells
    it, the whole numbers of a plain number or a fraction grouped (``405853388800`` ->
    ``405,853,388,800``, ``10000000000/9`` -> ``10,000,000,000/9``; ``1e300`` and ``70B`` as
    they are); a list element-wise, as ``listed`` separates them."""
    if isinstance(value, (list, tuple)):
        return ", ".join(shown_input(v) for v in value)
    return shown_text(write_input(value))


def shown_text(text: str) -> str:
    """A field's text as a card shows it for reading: a plain number's whole parts grouped
    (``70553706496`` -> ``70,553,706,496``), anything else as the reader typed it (``80B``, ``2^17``)."""
    if not _PLAIN.fullmatch(text.strip()):
        return text
    return _WHOLE.sub(lambda m: grouped(int(m[0])), text.strip())


_PLAIN = re.compile(r"[-\u2212]?\d+(?:\.\d+)?(?:\s*/\s*\d+)?")  # 1234.5, -7, 10000000000/9
_WHOLE = re.compile(r"(?<![\d.])\d+")  # a whole number, or a decimal's whole part


def index_span(symbol: str, first: int, count: int) -> str:
    """The indices of a list's ``count`` elements, from ``first``, as the statement names them:
    ``j = 2 to 3``, ``k = 0``."""
    last = first + max(count, 1) - 1
    span = grouped(first) if last == first else f"{grouped(first)} to {grouped(last)}"
    return f"{symbol}{NBSP}={NBSP}{span}"


def index_row(symbol: str, index: int) -> str:
    """One element's index, as a list's row is headed: ``j = 2`` (``12`` when the output names no
    index: its place, counted from 1)."""
    return f"{symbol}{NBSP}={NBSP}{grouped(index)}" if symbol else grouped(index)


# One way to write an output.  takes_n: written name:N (N figures or decimals; N optional);
# numeric: a number, that can be solved for, drawn and scaled; description: for docs and schema.
class Format(NamedTuple):
    """One output format: everything the runtime, the solver and the menus know of it."""

    name: str
    takes_n: bool  # written ``name:N``
    numeric: bool  # a number the solver, the checks and the elasticities can use
    description: str  # the schema's and the docs' words
    place: str = ""  # where its last printed digit sits: "significant" (N figures), "decimal", "unit"
    shift: int = 0  # for "decimal": the value's decimals are N + shift (a percentage: 2)
    digits: int | None = None  # N when none is written (a fraction that is none: 4 figures)
    menu: str = "plain"  # how the unit menu names it as a result's default ("auto": the unit's own scale)
    words: bool = False  # any text: a printed check is compared as words


# The output formats, the one list, and the only place a format's name decides anything: the
# schema's pattern and description, the docs' table and the loader's hint are held to it
# (tests/pages/test_page_spec.py); ``format_number`` writes each; the solver's tolerance, a rescaled
# result's figures and the unit menu's names read its columns.
FORMATS = (
    Format(
        "sig",
        True,
        True,
        "N significant figures, scientific beyond 10⁹",
        "significant",
        0,
        3,
        "plain, scientific from 10⁹",
    ),
    Format("fixed", True, True, "N decimals", "decimal", 0, 3),
    Format("percent", True, True, "a fraction written as a percentage with N decimals", "decimal", 2, 3),
    Format("sci", True, True, "always scientific", "significant", 0, 3, "scientific"),
    Format("si", True, True, "SI prefix glued to the unit: `1.342 GB`", "significant", 0, 3, "auto"),
    Format("int", False, True, "thousands separators", "unit", 0, None, "plain, in full"),
    Format("fraction", False, True, "`7/39` when the value is a simple fraction", "significant", 0, 4),
    Format("bool", False, False, "yes/no"),
    Format("text", False, False, "", words=True),
)
FORMAT_BY_NAME = {f.name: f for f in FORMATS}
NUMERIC = tuple(f.name for f in FORMATS if f.numeric)
FORMAT_PATTERN = (
    "^(("
    + "|".join(f.name for f in FORMATS if f.takes_n)
    + ")(:[0-9]+)?|"
    + "|".join(f.name for f in FORMATS if not f.takes_n)
    + ")$"
)
FORMAT = re.compile(FORMAT_PATTERN)


@lru_cache(maxsize=64)  # a list of 10,000 values asks for its format 30,000 times
def split_format(fmt: str) -> tuple[str, int | None]:
    """``"si:3"`` -> ``("si", 3)``, ``"int"`` -> ``("int", None)``; ValueError for no format."""
    if not FORMAT.fullmatch(fmt or ""):
        raise ValueError(f"unknown format {fmt!r}")
    kind, _, n = fmt.partition(":")
    return kind, int(n) if n else None


def format_of(fmt: str) -> tuple[Format, int | None]:
    """``"si:3"`` -> (the si row of FORMATS, 3); ValueError for no format."""
    kind, n = split_format(fmt)
    return FORMAT_BY_NAME[kind], n


def half_last_place(fmt: str, target: float) -> float:
    """Half a unit in the last place ``fmt`` prints at ``target``: how near a solved value must
    come to a target to print as it (FORMATS' ``place``, ``shift`` and ``digits``)."""
    f, n = format_of(fmt)
    n = f.digits if n is None or not f.takes_n else n
    if f.place == "unit":
        return 0.5
    if f.place == "decimal":
        return 0.5 * 10.0 ** -(n + f.shift)
    if target == 0 or not math.isfinite(target):
        return 1e-12
    return 0.5 * 10.0 ** (math.floor(math.log10(abs(target))) - (n or 4) + 1)


def figures(fmt: str) -> int:
    """The significant figures a result keeps when the reader shows it in another scale: its
    format's N where N counts figures, else 4."""
    f, n = format_of(fmt)
    return n if n is not None and f.place == "significant" else 4


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
    kind, n = split_format(fmt)
    n = 3 if n is None else n
    if kind == "text":
        return str(value)
    if kind == "bool":
        return "yes" if value else "no"
    if kind == "fraction" and isinstance(value, (int, Fraction)):
        value = Fraction(value)
        return (
            grouped(value.numerator)
            if value.denominator == 1
            else f"{grouped(value.numerator)}/{grouped(value.denominator)}"
        )
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
        return grouped(round(x)) if abs(x) < 1e15 else _scientific(x, 4)
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
        if split_format(fmt)[0] == "si" or not value:
            return listed([format_value(v, fmt, unit) for v in value])
        text = listed([format_number(v, fmt) for v in value])
    else:
        text = format_number(value, fmt)
    if split_format(fmt)[0] == "si":
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
    if isinstance(value, (int, float)):
        return _write_number(value)
    return _write_input(value)


@lru_cache(maxsize=4096, typed=True)  # typed: True, 1 and 1.0 are written apart
def _write_number(value: int | float) -> str:
    """``write_input`` of a number, written once: a build writes each default and preset value thousands of times."""
    return _write_input(value)


def _write_input(value) -> str:
    if isinstance(value, float) and math.isfinite(value):
        value = float(f"{value:.12g}")  # no floating-point noise: 5.000000000000001 is written 5
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        # Beyond the largest suffix's thousands: 3.528e23, not 352800000000T; exact digits when
        # twelve figures would round the count.
        digits = str(abs(value)).rstrip("0")
        if len(digits) <= 12:
            return f"{'-' * (value < 0)}{digits[0]}{'.' * (len(digits) > 1)}{digits[1:]}e{len(str(abs(value))) - 1}"
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool):
        # Not k: a thousand could be read as 1024 (the reader's 32k context), and a whole number
        # below a million reads as plainly without it (5120, not 5.12k).
        for suffix, exp in sorted(SUFFIXES.items(), key=lambda kv: -kv[1]):
            if exp < 6:
                continue
            scaled = Fraction(value, 10**exp)
            if abs(value) >= 10**exp and scaled.denominator in (1, 2, 4, 5, 10, 20, 25, 50, 100):
                text = f"{float(scaled):.15g}"  # :g alone kept six figures (859852.29B was written 859852B)
                if "e" not in text:
                    return text + suffix
        return str(value)
    if isinstance(value, float) and 1e6 <= abs(value) < 1e15:  # 32.4870845136B, not 32487084513.6
        for suffix, exp in sorted(SUFFIXES.items(), key=lambda kv: -kv[1]):
            if exp >= 6 and abs(value) >= 10**exp:
                return f"{value / 10**exp:.12g}{suffix}"
    if isinstance(value, float) and abs(value) >= 1e15 and math.isfinite(value):
        return _exponent(f"{value:.12g}")  # 8.27755935339e15, not 8277559353390000.0
    return _exponent(repr(value))


def _exponent(text: str) -> str:
    """An exponent as a reader types it: ``1.5e-7``, not ``1.5e-07``; ``1e300``, not ``1e+300``."""
    return re.sub(r"e\+?(-?)0*(\d)", r"e\1\2", text)
