"""Asking an entry backwards: the values of one input where one output meets a target.

Standard library only: shipped to the browser.  The page, ``site_builder compute --solve``,
the corpus's inverse cases and the tests all solve with this one implementation, by
running the entry's own formula forwards; nothing is fitted.

    solve(calc, raw, free, output, sense, target) -> dict

- ``free`` is a real or integer input; every other input keeps its raw value (or default).
- ``sense`` is ``"="``, ``"<="`` or ``">="``; ``target`` a number, or text in the output's
  units as the reader sees them (``"80 GB"``, ``"8%"``, ``"0.98"``, ``"1e24"``).
- Real inputs: the formula is sampled over the input's whole domain (log-spaced where it
  spans decades), every crossing of the target is bracketed and refined by a safeguarded
  false position (Illinois, with bisection), stopping when the output is within a
  thousandth of the output's printed precision of the target.  The value reported is the
  shortest decimal that still reproduces the target to that precision (and, for ``<=`` /
  ``>=``, still meets it).
- Integer inputs: the whole number at the boundary, found by bisection, with the neighbour
  that misses (M = 81 meets, 80 does not).
- Several crossings are all reported, with the turns of the output between them.  None:
  status ``"none"``, and the message says the range the output reaches over the domain.
- Every reported value is run forwards again and must reproduce the target to the output's
  printed precision, else it is dropped.
- Values in texts are written as the page writes outputs (no-break spaces inside a value).
- At most ``MAX_EVALUATIONS`` evaluations of the formula and ``SECONDS`` of time; where the
  formula slows down far out (``SLOW`` for one evaluation) or time runs out, the search
  keeps to the values nearer the current one, and says so (``"cut": true``).

The result is plain JSON-able data::

    {"input": "s", "output": "total", "sense": "<=", "target": 8e10, "target_text": "80 GB",
     "status": "solved" | "none",
     "solutions": [{"value": 244140, "text": "244,140",   # as typed into the field
                    "shown": "244,140 tokens",   # beside the results: in their scale where the unit has one (268.4 GB)
                    "said": "244,140",   # in the message: ``text``, or ``shown`` where the unit has a scale
                    "kind": "root" | "boundary" | "integer",
                    "root": the crossing as refined, before "value" was shortened for the reader,
                    "side": "below" | "above" | None,   # for <= / >=: the values that meet lie below / above it
                    "run": Calculator.run at that value,
                    "neighbour": {"value", "text", "shown", "said", "output_text"}}],   # integer only: the whole number that misses
     "turns": [{"value", "text"}], "range": {"low", "high", "low_text", "high_text"},
     "message": "over s ≥ 1, KV cache size ranges from 327.7 kB to ∞; it is at most 80 GB for s ≤ 244,140"}

When every value of the domain meets the target, status is ``"solved"``, ``solutions`` is
empty and the message says so.
"""

from __future__ import annotations

import math
import time

from . import units as unit_table
from .domain import DomainError
from .grid import MAX_EVALUATIONS, SECONDS, SLOW, Grid, Spent
from .numbers import NBSP, NUMERIC, NumberError, half_last_place, split_format
from .page import DEFAULT_FORMAT
from .report import Report
from .roots import Roots

SENSES = ("=", "<=", ">=")


def solve(
    calc, raw: dict, free: str, output: str, sense: str, target, units: dict | None = None, clock: bool = True
) -> dict:
    """``clock=False`` (the corpus, the build): no time limit and no slow-formula cut, so the
    answer is the same however busy the machine is; the evaluation limit still holds."""
    return Problem(calc, raw, free, output, sense, target, units, clock).answer()


def printed_tolerance(fmt: str, target: float) -> float:
    """Half a unit in the last place the output's format prints at ``target`` (numbers.FORMATS)."""
    try:
        return half_last_place(fmt or DEFAULT_FORMAT, target)
    except ValueError:
        return half_last_place("sig:4", target)


class Problem(Grid, Roots, Report):
    """One question asked of an entry: the free input, the output, the sense and the target, and
    the formula evaluated at a value of the input (counted, cached, within the budget).  Where it
    looks is ``grid.Grid``, how it finds the crossings ``roots.Roots``, how it answers
    ``report.Report``."""

    def __init__(self, calc, raw, free, output, sense, target, units, clock=True):
        self.calc, self.units = calc, units
        domains = {d.name: d for d in calc.domains}
        if free not in domains:
            raise DomainError(
                "solve", f"{free!r} is not an input of entry {calc.id}; inputs: {', '.join(calc.defaults)}"
            )
        self.domain = domains[free]
        if self.domain.kind == "list":
            raise DomainError(
                "solve",
                f"{free} is a list input, and list inputs cannot be freed; solve for a real or whole-number input",
            )
        if self.domain.kind == "choice":
            raise DomainError(
                "solve", f"{free} is a choice, and choices stay fixed; solve for a real or whole-number input"
            )
        outputs = {o["name"]: o for o in calc.outputs}
        if output not in outputs:
            raise DomainError("solve", f"{output!r} is not an output of entry {calc.id}; outputs: {', '.join(outputs)}")
        self.output = outputs[output]
        if split_format(self.output.get("format", DEFAULT_FORMAT))[0] not in NUMERIC:
            raise DomainError("solve", f"{output} is not a number, so it cannot be solved for")
        if sense not in SENSES:
            raise DomainError("solve", f"sense {sense!r} is not one of =, <=, >=")
        self.free, self.name, self.sense = free, output, sense
        self.integer = self.domain.kind == "integer"
        self.raw = {k: v for k, v in raw.items() if k != free}
        values = calc.read(self.raw)  # the fixed inputs: DomainError names a bad one
        try:
            self.current = self.domain.read(raw[free]) if free in raw else values[free]
        except DomainError:
            self.current = values[free]
        self.values = values
        here = self._value_at(self.current)
        if here == "list":
            raise DomainError("solve", f"{output} is a list of numbers, so it cannot be solved for")
        self.typed = target
        self.target, self.bare_unit = self._read_target(target, "" if here is None else self.write(here))
        self.tol = printed_tolerance(self.output.get("format", DEFAULT_FORMAT), self.target)
        self.cache: dict = {}
        self.evaluations = 0
        self.deadline = time.monotonic() + SECONDS if clock else math.inf
        self.slow = SLOW if clock else math.inf
        self.late = False
        self.took = 0.0  # seconds the last evaluation took
        self.poles: list = []

    def _read_target(self, target, shown: str) -> tuple[float, str]:
        """The target in base units, and the unit a bare number was read in (the one ``shown``)."""
        unit = self.output.get("unit", "")
        bare = ""
        try:
            if isinstance(target, bool):
                raise NumberError(f"{target!r} is not a number")
            if isinstance(target, (int, float)):
                value = float(target)
            else:
                exact, bare = unit_table.read_shown(target, unit if unit in unit_table.UNITS else "", shown)
                value = float(exact)
        except (NumberError, OverflowError) as exc:
            raise DomainError(self.name, f"target: {exc}") from None
        if not math.isfinite(value):
            raise DomainError(self.name, f"target: {target!r} is not a finite number")
        return value, bare

    def reading(self) -> str:
        """How the typed target was read, for beside it: ``80 gb read as 80 GB``; a bare number
        says it was read in the unit shown."""
        typed = " ".join(str(self.typed).split())
        written = self.write(self.target).replace(NBSP, " ")
        if self.bare_unit:
            return f"{typed} read as {written} (a bare number is read in {self.bare_unit}, as the result is shown)"
        return f"{typed} read as {written}"

    def write(self, value) -> str:
        if isinstance(value, float) and math.isinf(value):
            return "∞" if value > 0 else "−∞"
        return self.calc.write(self.output, value, self.units)

    def _value_at(self, x):
        try:
            result = self.calc.evaluate({**self.values, self.free: x})[self.name]
        except (DomainError, ArithmeticError, ValueError, TypeError):
            return None
        except Exception:  # a formula that broke its contract here (FormulaError): no point
            return None
        if isinstance(result, (list, tuple)):
            return "list"
        if isinstance(result, bool) or not isinstance(result, (int, float)):
            return None
        try:
            y = float(result)
        except OverflowError:
            y = math.inf if result > 0 else -math.inf
        return None if math.isnan(y) else y

    def y(self, x):
        """The output at ``x`` (None where the formula rejects it), counted and cached."""
        if x in self.cache:
            return self.cache[x]
        if self.evaluations >= MAX_EVALUATIONS:
            raise Spent()
        if time.monotonic() > self.deadline:
            self.late = True
            raise Spent()
        self.evaluations += 1
        self.took = math.inf
        for _ in range(2):  # a slow evaluation is timed once more: one pause of a busy machine is not the formula's
            started = time.process_time()  # CPU time where there is one (in the browser it is the wall clock)
            y = self._value_at(x)
            self.took = min(self.took, time.process_time() - started)
            if self.took <= self.slow:
                break
        y = None if y == "list" else y
        self.cache[x] = y
        return y

    def g(self, x):
        """How far the output is past the target, oriented so that <= 0 meets it (for = : signed)."""
        y = self.y(x)
        if y is None:
            return None
        return self.target - y if self.sense == ">=" else y - self.target

    def meets(self, x) -> bool:
        y = self.y(x)
        if y is None:
            return False
        slack = self._slack()
        if self.sense == "<=":
            return y <= self.target + slack
        if self.sense == ">=":
            return y >= self.target - slack
        return abs(y - self.target) <= self.tol

    def close(self, x) -> bool:
        y = self.y(x)
        return y is not None and abs(y - self.target) <= self.tol

    def answer(self) -> dict:
        samples = self._sample(self.grid())
        try:
            turns = self._turns(samples)
        except Spent:
            turns = []
        # every value computed so far (the grid, the turns' searches): no new evaluation
        samples = sorted((x, self.g(x)) for x, y in self.cache.items() if y is not None)
        solutions, gaps = [], []
        try:
            solutions, gaps = self._crossings(samples)
        except Spent:
            pass
        if self.sense == "=" and not solutions and samples:
            # no crossing, but the output may touch the target within its printed precision
            # (a turn or an end that prints as the target): the nearest such value
            x, g = min(samples, key=lambda p: (abs(p[1]), abs(p[0] - self.current)))
            if abs(g) <= self.tol:
                solutions = [self._solution(x, None, "integer" if self.integer else "root")]
        if self.sense == "=":
            everywhere = bool(samples) and all(self._sign(g) == 0 for _, g in samples)
        else:
            everywhere = bool(samples) and all(self._meets_g(g) for _, g in samples)
        if everywhere:
            solutions = []
        return self._report(solutions, turns, gaps, everywhere)
