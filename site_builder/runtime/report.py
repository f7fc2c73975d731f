"""The answer of a solve in words and data: the output's range over the domain (with its
limits at open ends), the solutions that reproduce the target when run forwards, and the
message (``over s ≥ 1, KV cache size ranges from 327.7 kB to ∞; it is at most 80 GB for
s ≤ 244,140``).

Standard library only: shipped to the browser.  A part of ``solve.Problem``.
"""

from __future__ import annotations

import math

from . import units as unit_table
from .domain import DomainError
from .numbers import SUFFIXES, format_number, format_of, grouped, write_input
from .page import DEFAULT_FORMAT
from .roots import STOP

SENSE_WORDS = {"=": "", "<=": "at most ", ">=": "at least "}


def typed(value, integer: bool) -> str:
    """A solved value as a reader would type it: ``244,140``, ``0.9``, ``1.4e12``."""
    if integer:
        n = int(value)
        short = write_input(n)  # 2T, 70B: as readers type large counts, when that is exact and short
        if abs(n) >= 10**7 and short[-1:] in SUFFIXES and len(short.rstrip("kMBT").replace(".", "").lstrip("-")) <= 4:
            return short
        return grouped(n)
    x = float(value)
    if x.is_integer() and abs(x) < 1e6:
        return grouped(int(x))
    text = repr(x)
    if "e" in text or abs(x) >= 1e6:
        for digits in range(1, 18):
            mantissa = f"{x:.{digits - 1}e}"
            if float(mantissa) == x:
                text = mantissa
                break
        head, _, exp = text.partition("e")
        head = head.rstrip("0").rstrip(".") if "." in head else head
        text = f"{head}e{int(exp)}"
    return text


def _over(domain, name: str) -> str:
    """'over s ≥ 1', 'over 0 < p < 1', 'over all x'."""
    iv = domain.interval
    lo, hi = math.isfinite(iv.lo), math.isfinite(iv.hi)
    show = _bound
    if lo and hi:
        return f"over {show(iv.lo)} {'≤' if iv.lo_closed else '<'} {name} {'≤' if iv.hi_closed else '<'} {show(iv.hi)}"
    if lo:
        return f"over {name} {'≥' if iv.lo_closed else '>'} {show(iv.lo)}"
    if hi:
        return f"over {name} {'≤' if iv.hi_closed else '<'} {show(iv.hi)}"
    return f"over all {name}"


def _bound(x: float) -> str:
    return grouped(int(x)) if float(x).is_integer() and abs(x) < 1e15 else format_number(x, "sig:6")


def _label(output: dict) -> str:
    label = output.get("label", output["name"])
    return label[0].lower() + label[1:] if label[1:2].islower() else label


def _and(items: list[str], word: str = "and") -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


class Report:
    """The found crossings checked forwards and written for the reader."""

    def _range(self):
        """The lowest and highest output seen, with the limits at the domain's open ends: a
        power-law growth towards an end is a divergence (∞), a power-law decay a limit of 0."""
        finite = sorted((x, y) for x, y in self.cache.items() if y is not None)
        if not finite:
            return None, None
        ys = [y for _, y in finite]
        low, high = min(ys), max(ys)
        iv = self.domain.interval
        for end, closed, side in ((iv.hi, iv.hi_closed, finite[::-1]), (iv.lo, iv.lo_closed, finite)):
            if closed or len(side) < 2:
                continue
            x2, y2 = side[0]  # the sample nearest the end

            def closeness(x, end=end):
                return abs(x) if math.isinf(end) else (1 / abs(x - end) if x != end else math.inf)

            r2 = closeness(x2)
            if math.isinf(y2):
                low, high = (low, math.inf) if y2 > 0 else (-math.inf, high)
                continue
            farther = [(x, y) for x, y in side[1:] if 0 < closeness(x) <= r2 / 10]
            if not farther or not 0 < r2 < math.inf:
                continue
            x1, y1 = farther[0]
            r1 = closeness(x1)
            if y1 == 0 or y2 == 0 or (y1 > 0) != (y2 > 0) or math.isinf(y1):
                continue
            exponent = math.log(abs(y2) / abs(y1)) / math.log(r2 / r1)
            if exponent > 1e-3:  # |y| grows as a power of the closeness to the end: it diverges
                low, high = (low, math.inf) if y2 > 0 else (-math.inf, high)
            elif exponent < -1e-3:  # it shrinks as a power: its limit there is 0
                low, high = (min(low, 0.0), high) if y2 > 0 else (low, max(high, 0.0))
        for _, pole in self.poles:
            low, high = (low, math.inf) if pole > 0 else (-math.inf, high)
        return low, high

    def _reproduces(self, y, kind: str, jump: bool = False) -> bool:
        """A value run forwards meets the target: to the printed precision for =, and for a real
        boundary; for a whole-number boundary, on the right side of it."""
        if not isinstance(y, (int, float)) or isinstance(y, bool) or not math.isfinite(float(y)):
            return False
        y = float(y)
        close = abs(y - self.target) <= self.tol
        slack = self._slack()
        meets = y <= self.target + slack if self.sense == "<=" else y >= self.target - slack
        if self.sense == "=":
            return close
        return meets if kind == "integer" or jump else meets and close

    def _typed(self, x) -> str:
        return typed(x, self.integer)

    def _shown(self, x) -> str:
        """``x`` as the page shows the freed input beside the results: in their scale where its
        unit has one (a byte count in GB), else as typed, with its unit."""
        return self.calc.write_given(self.free, x, self._typed(x), self.units)

    def _said(self, x) -> str:
        """``x`` in a sentence: as typed (``s ≤ 244,140``), or in the results' scale where the
        input's unit has one (``budget ≥ 268.43545602 GB``, not ``2.6843545602e11``)."""
        unit = self.calc.input_units.get(self.free, "")
        return self._shown(x) if unit_table.rescaled(unit) else self._typed(x)

    def _run(self, x):
        return self.calc.run({**self.raw, self.free: x}, self.units)

    def _report(self, found, turns, gaps, everywhere) -> dict:
        low, high = self._range()
        free, target_text = self.free, self.write(self.target)
        solutions = []
        for s in found:
            x = s["x"]
            try:
                run = self._run(x)
            except DomainError:
                continue
            if not self._reproduces(run["outputs"][self.name]["value"], s["kind"], s.get("jump", False)):
                continue  # does not reproduce the target when run forwards: not reported
            item = {
                "value": x,
                "text": self._typed(x),
                "shown": self._shown(x),
                "said": self._said(x),
                "root": s["root"],
                "kind": s["kind"],
                "side": s["side"],
                "run": run,
            }
            if s["neighbour"] is not None:
                n = s["neighbour"]
                ny = self.y(n)
                item["neighbour"] = {
                    "value": n,
                    "text": self._typed(n),
                    "shown": self._shown(n),
                    "said": self._said(n),
                    "output_text": self._distinct(ny) if ny is not None else "—",
                }
            solutions.append(item)
        over = _over(self.domain, free)
        tried = [x for x, y in self.cache.items() if y is not None]
        if self.late and tried:  # only part of the domain was searched: say which
            over = f"over {self._said(min(tried))} ≤ {free} ≤ {self._said(max(tried))}"
        label = _label(self.output)
        if low is None:
            head = f"{over}, the formula rejects every value of {free}"
        elif self._flat(low, high):
            here = self.cache.get(self.current)
            head = f"{over}, {label} is {self.write(low if here is None else here)} throughout"
        else:
            head = f"{over}, {label} ranges from {self.write(low)} to {self.write(high)}"
        words = SENSE_WORDS[self.sense]
        if solutions:
            status = "solved"
            if self.sense == "=":
                tail = f"it is {target_text} at " + _and([f"{free} = {s['said']}" for s in solutions])
            else:
                tail = f"it is {words}{target_text} for " + self._where(solutions)
            neighbours = [s for s in solutions if "neighbour" in s]
            if self.sense != "=" and neighbours:
                tail += (
                    " ("
                    + "; ".join(
                        f"{free} = {s['neighbour']['said']} gives {s['neighbour']['output_text']}" for s in neighbours
                    )
                    + ")"
                )
        elif everywhere:
            status = "solved"
            # Flat over a search cut short (self.late) says nothing of the values never tried.
            flat = low is not None and self._flat(low, high) and not self.late
            tail = f"it does not depend on {free}" if flat else f"it is {words}{target_text} throughout"
        else:
            status = "none"
            if low is not None and self.target > high:
                tail = f"it never reaches {target_text}"
            elif low is not None and self.target < low:
                tail = f"it never falls to {target_text}"
            elif self.sense == "<=":
                tail = f"it never falls to {target_text}"
            elif self.sense == ">=":
                tail = f"it never reaches {target_text}"
            elif gaps and self.integer:
                a, b = gaps[0]
                tail = (
                    f"no whole {free} gives {target_text}: {free} = {self._said(a)} gives {self._distinct(self.y(a))} "
                    f"and {free} = {self._said(b)} gives {self._distinct(self.y(b))}"
                )
            elif gaps:
                a, b = gaps[0]
                tail = f"it jumps past {target_text} between {free} = {self._said(a)} and {free} = {self._said(b)}"
            else:
                tail = f"no {free} gives {target_text}"
        message = f"{head}; {tail}"
        turn_items = [
            {"value": t, "text": self._said(float(f"{t:.3g}")) if not self.integer else self._said(t)} for t in turns
        ]
        if turn_items:
            message += " (it turns at " + _and([f"{free} = {t['text']}" for t in turn_items]) + ")"
        if self.late:
            message += "; the formula is slow beyond, so no further values were tried"
        return {
            "input": free,
            "output": self.name,
            "sense": self.sense,
            "target": self.target,
            "target_text": target_text,
            "target_reading": self.reading(),
            "status": status,
            "solutions": solutions,
            "turns": turn_items,
            "range": {
                "low": low,
                "high": high,
                "low_text": self.write(low) if low is not None else "—",
                "high_text": self.write(high) if high is not None else "—",
            },
            "message": message,
            "evaluations": self.evaluations,
            "cut": self.late,
        }

    def _flat(self, low, high) -> bool:
        """The output does not move over the domain, beyond rounding noise."""
        if not (math.isfinite(low) and math.isfinite(high)):
            return False
        return high - low <= max(self.tol * STOP, 1e-12 * max(abs(low), abs(high)))

    def _where(self, solutions) -> str:
        """The values that meet an inequality, from its boundaries: 's ≤ 244,140', '1 ≤ x ≤ 3 or x ≥ 7'."""
        parts, opened = [], None
        free = self.free
        for s in sorted(solutions, key=lambda s: s["value"]):
            if s["side"] == "above":
                if opened is not None:
                    parts.append(f"{free} ≥ {opened}")
                opened = s["said"]
            elif opened is not None:
                parts.append(f"{opened} ≤ {free} ≤ {s['said']}")
                opened = None
            else:
                parts.append(f"{free} ≤ {s['said']}")
        if opened is not None:
            parts.append(f"{free} ≥ {opened}")
        return _and(parts, "or")

    def _distinct(self, y) -> str:
        """The output at a neighbour, with digits enough to differ from the target as written."""
        text = self.write(y)
        if text != self.write(self.target) or y == self.target:
            return text
        f, n = format_of(self.output.get("format", DEFAULT_FORMAT))
        kind, n = (f.name, f.digits if n is None else n) if f.takes_n else ("sig", 6)  # no N to widen: figures
        for extra in range(1, 10):
            wider = dict(self.output, format=f"{kind}:{n + extra}")
            text = self.calc.write(wider, y, self.units)
            if text != self.calc.write(wider, self.target, self.units):
                return text
        return text
