"""Where an input may live, and reading a reader's raw value into it.

Standard library only: shipped to the browser.  An input is one of four kinds:

- ``real``: a number in an interval, written ``"(0, 1]"``, ``"[1, inf)"``;
- ``integer``: a whole number in an interval;
- ``list``: numbers, each in ``domain``, with a ``length`` interval and optionally a
  required ``sum`` (a probability vector has ``sum: 1``);
- ``choice``: one of a list of values.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from .numbers import NumberError, grouped, read_exact, read_list, reading

_INTERVAL = re.compile(r"\s*([\[(])\s*([^,\s]+)\s*,\s*([^,\s]+)\s*([\])])\s*")
_INF = {"inf": math.inf, "+inf": math.inf, "∞": math.inf, "-inf": -math.inf, "−∞": -math.inf, "-∞": -math.inf}
SUM_TOLERANCE = 1e-9
LARGEST_WHOLE = 10**18  # far beyond any count in the book; beyond it, floats lose whole numbers anyway


class DomainError(ValueError):
    """A value outside what its input allows; ``name`` is the input."""

    def __init__(self, name: str, message: str):
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


@dataclass(frozen=True)
class Interval:
    lo: float
    hi: float
    lo_closed: bool
    hi_closed: bool

    @classmethod
    def parse(cls, text: str) -> Interval:
        m = _INTERVAL.fullmatch(text)
        if not m:
            raise ValueError(f"{text!r} is not an interval such as '[0, 1]', '(0, inf)'")
        lo, hi = (_bound(b) for b in (m[2], m[3]))
        if lo > hi:
            raise ValueError(f"{text!r} is empty: its lower end exceeds its upper end")
        lo_closed, hi_closed = m[1] == "[", m[4] == "]"
        if (math.isinf(lo) and lo_closed) or (math.isinf(hi) and hi_closed):
            raise ValueError(f"{text!r}: an infinite end must be open")
        return cls(lo, hi, lo_closed, hi_closed)

    def __contains__(self, x) -> bool:
        x = float(x)
        above = x >= self.lo if self.lo_closed else x > self.lo
        below = x <= self.hi if self.hi_closed else x < self.hi
        return above and below

    def __str__(self) -> str:
        return f"{'[' if self.lo_closed else '('}{_show(self.lo)}, {_show(self.hi)}{']' if self.hi_closed else ')'}"


def _bound(text: str) -> float:
    if text in _INF:
        return _INF[text]
    try:
        return float(read_exact(text))
    except NumberError:
        raise ValueError(f"{text!r} is not a number or inf") from None


def _show(x: float) -> str:
    """An end, a length or a sum as a message says it: whole numbers grouped (``[1, 10,001]``)."""
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return grouped(int(x)) if x == int(x) and abs(x) < 1e16 else repr(x)


@dataclass(frozen=True)
class Domain:
    """One input's kind and constraints, as the runtime sees them."""

    name: str
    kind: str  # real | integer | list | choice
    interval: Interval | None = None
    length: Interval | None = None
    integer_elements: bool = False
    total: float | None = None
    choices: tuple = ()

    @classmethod
    def from_spec(cls, spec: dict) -> Domain:
        kind = spec.get("type", "real")
        interval = Interval.parse(spec["domain"]) if spec.get("domain") else Interval(-math.inf, math.inf, False, False)
        if kind == "list":
            return cls(
                spec["name"],
                kind,
                interval,
                length=Interval.parse(spec.get("length", "[1, inf)")),
                integer_elements=bool(spec.get("integer_elements", False)),
                total=spec.get("sum"),
            )
        if kind == "choice":
            return cls(spec["name"], kind, choices=tuple(c["value"] for c in spec["choices"]))
        return cls(spec["name"], kind, interval)

    def describe(self) -> str:
        """What is allowed, for a reader: 'a whole number in [1, ∞)'."""
        if self.kind == "choice":
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.kind == "list":
            each = "whole numbers" if self.integer_elements else "numbers"
            text = f"a list of {_length(self.length)} {each}"
            if self.interval.lo > -math.inf or self.interval.hi < math.inf:
                text += f" in {self.interval}"
            if self.total is not None:
                text += f" summing to {_show(self.total)}"
            return text + ", separated by commas"
        return f"{'a whole number' if self.kind == 'integer' else 'a number'} in {self.interval}"

    def read(self, raw):
        """The value the formula receives, or DomainError saying what is allowed."""
        try:
            return self._read(raw)
        except NumberError as exc:
            raise DomainError(self.name, f"{exc}; expected {self.describe()}") from None

    def echo(self, raw) -> dict | None:
        """How a raw value that could be read two ways was read (``numbers.reading``), for the field."""
        if self.kind == "choice" or not isinstance(raw, str):
            return None
        return reading(raw, is_list=self.kind == "list")

    def _read(self, raw):
        if self.kind == "choice":
            for choice in self.choices:
                if raw == choice or str(raw).strip() == str(choice):
                    return choice
            raise DomainError(self.name, f"{_quote(raw)} is not allowed; expected {self.describe()}")
        if self.kind == "list":
            values = _exact_list(raw)
            if len(values) not in self.length:
                raise DomainError(
                    self.name, f"has {len(values)} element{'s' * (len(values) != 1)}; expected {self.describe()}"
                )
            out = [self._scalar(v, raw, self.integer_elements) for v in values]
            if self.total is not None and abs(math.fsum(out) - self.total) > SUM_TOLERANCE:
                raise DomainError(self.name, f"sums to {math.fsum(out):.12g}; expected {self.describe()}")
            return out
        if (type(raw) is float and math.isfinite(raw)) or (type(raw) is int and abs(raw) <= LARGEST_WHOLE):
            return self._number(raw, self.kind == "integer")
        return self._scalar(_exact(raw), raw, self.kind == "integer")

    def _number(self, raw: int | float, integer: bool):
        """``_scalar`` for a number already a Python number (a plan passing a step's output on): the
        same checks and the same value, without the exact fraction that reading text needs."""
        if integer and type(raw) is float and not raw.is_integer():
            raise DomainError(self.name, f"{_quote(raw)} is not whole; expected {self.describe()}")
        if integer and abs(raw) > LARGEST_WHOLE:
            raise DomainError(self.name, f"{_quote(raw)} is too large: whole numbers here go up to 10¹⁸")
        number = int(raw) if integer else float(raw)
        if number not in self.interval:
            raise DomainError(self.name, f"{_quote(raw)} is out of range; expected {self.describe()}")
        return number

    def _scalar(self, value: Fraction, raw, integer: bool):
        if integer and value.denominator != 1:
            raise DomainError(self.name, f"{_quote(raw)} is not whole; expected {self.describe()}")
        if integer and abs(value) > LARGEST_WHOLE:
            raise DomainError(self.name, f"{_quote(raw)} is too large: whole numbers here go up to 10¹⁸")
        try:
            number = int(value) if integer else float(value)
        except OverflowError:
            number = math.inf
        if not integer and (math.isinf(number) or (number == 0 and value != 0)):
            raise DomainError(
                self.name,
                f"{_quote(raw)} is too {'large' if number else 'small'} for a float; expected {self.describe()}",
            )
        if number not in self.interval:
            raise DomainError(self.name, f"{_quote(raw)} is out of range; expected {self.describe()}")
        return number


def _length(interval: Interval) -> str:
    """How many elements, in words: '3', 'one or more', '2 to 8'."""
    lo = interval.lo if interval.lo_closed or math.isinf(interval.lo) else math.floor(interval.lo) + 1
    hi = interval.hi if interval.hi_closed or math.isinf(interval.hi) else math.ceil(interval.hi) - 1
    if lo == hi:
        return _show(lo)
    if math.isinf(hi):
        return "one or more" if lo <= 1 else f"{_show(lo)} or more"
    return f"{_show(lo)} to {_show(hi)}"


def _quote(raw) -> str:
    text = raw if isinstance(raw, str) else repr(raw)
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _exact(raw) -> Fraction:
    if isinstance(raw, bool):
        raise NumberError(f"{raw!r} is not a number")
    if isinstance(raw, int):
        return Fraction(raw)
    if isinstance(raw, float):
        if not math.isfinite(raw):
            raise NumberError(f"{raw!r} is not finite")
        return Fraction(raw)
    if isinstance(raw, str):
        return read_exact(raw)
    raise NumberError(f"{_quote(raw)} is not a number")


def _exact_list(raw) -> list[Fraction]:
    if isinstance(raw, str):
        return read_list(raw)
    if isinstance(raw, (list, tuple)):
        return [_exact(v) for v in raw]
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return [_exact(raw)]
    raise NumberError(f"{_quote(raw)} is not a list of numbers")
