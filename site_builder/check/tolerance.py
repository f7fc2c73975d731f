"""How a printed number bounds a computed one.

A number printed with d significant figures stands for every value that rounds to it:
'0.366' admits [0.3655, 0.3665], '9,100' with digits 2 admits [9050, 9150].  ``exact``
admits only the value itself (up to floating-point noise).  A verbal claim ('over a
third') is an interval.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..load.entry import Check
from ..runtime.domain import Interval
from ..runtime.numbers import NumberError, format_of, read_exact, read_list, significant_digits

FLOAT_NOISE = 1e-9


def _target(check: Check) -> str:
    return check.value if check.value is not None else check.printed


def problem(check: Check, output_format: str = "sig") -> str | None:
    """Why ``check`` cannot be tested against an output written as ``output_format``, or None."""
    if check.erratum is not None and check.value is None:
        return "an erratum needs value: the correct number to test"
    if check.range is not None:
        try:
            Interval.parse(check.range)
        except ValueError as exc:
            return f"range: {exc}"
        return None
    text = _target(check)
    if text.strip().lower() in ("true", "false", "yes", "no") or format_of(output_format)[0].words:
        return None
    try:
        read_list(text) if text.strip()[:1] in "([" else read_exact(text)
    except NumberError:
        return (
            f"printed {check.printed!r} is not a number; give value (the number it states) "
            f"or range (for a verbal claim)"
        )
    return None


def half_unit(text: str, digits) -> float:
    """Half a unit in the last printed place of ``text`` (0 for exact)."""
    if digits == "exact":
        return 0.0
    value = float(read_exact(text))
    if value == 0:
        return 0.0
    d = digits if isinstance(digits, int) else significant_digits(text)
    return 0.5 * 10 ** (math.floor(math.log10(abs(value))) - d + 1)


def _close(actual: float, expected: Fraction | float, tol: float) -> bool:
    expected = float(expected)
    slack = tol + FLOAT_NOISE * max(1.0, abs(expected))
    return abs(actual - expected) <= slack


def verify(check: Check, actual) -> str | None:
    """None when ``actual`` agrees with the check, else what the book says against what we compute."""
    if check.index is not None:
        if not isinstance(actual, list) or check.index >= len(actual):
            return f"{check.output}[{check.index}]: output has no such element ({actual!r})"
        actual = actual[check.index]
    name = check.output + (f"[{check.index}]" if check.index is not None else "")
    if check.range is not None:
        interval = Interval.parse(check.range)
        if isinstance(actual, (int, float)) and not isinstance(actual, bool) and actual in interval:
            return None
        return f"{name}: computed {actual!r}, outside {interval} claimed by {check.printed!r}"
    text = _target(check).strip()
    if text.lower() in ("true", "false", "yes", "no"):
        if isinstance(actual, bool) and actual == (text.lower() in ("true", "yes")):
            return None
        return f"{name}: computed {actual!r}, book says {text!r}"
    if isinstance(actual, str):
        return None if actual == text else f"{name}: computed {actual!r}, book says {text!r}"
    if text[:1] in "([":
        expected = read_list(text)
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{name}: computed {actual!r}, book prints {check.printed!r}"
        parts = [p.strip() for p in text.strip("()[]").split(",")]
        ok = all(_close(a, e, half_unit(p, check.digits)) for a, e, p in zip(actual, expected, parts))
        return None if ok else f"{name}: computed {actual!r}, book prints {check.printed!r}"
    expected = read_exact(text)
    tol = half_unit(text, check.digits) if "/" not in text else 0.0
    if isinstance(actual, list) or isinstance(actual, bool) or not _close(float(actual), expected, tol):
        stated = (
            f"expected {check.value} (printed {check.printed!r})" if check.value else f"book prints {check.printed!r}"
        )
        return f"{name}: computed {actual!r}, {stated}, tolerance ±{tol:g}"
    return None


def book_disagrees(check: Check, actual) -> bool:
    """For an erratum: True when the printed value really is off (so the erratum is real)."""
    try:
        printed = read_exact(check.printed)
    except NumberError:
        return True  # a verbal claim; its erratum note carries the argument
    if check.index is not None:
        actual = actual[check.index]
    return not _close(float(actual), printed, half_unit(check.printed, None))
