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
from decimal import Decimal

from . import units as unit_table
from .domain import LARGEST_WHOLE, DomainError
from .numbers import NBSP, NUMERIC, SUFFIXES, NumberError, format_number, split_format, write_input
from .page import DEFAULT_FORMAT

SENSES = ("=", "<=", ">=")
SENSE_WORDS = {"=": "", "<=": "at most ", ">=": "at least "}
MAX_EVALUATIONS = 200
SECONDS = 2.0  # below the page's 3 s watchdog, so a slow solve is reported, not killed
SLOW = 0.05  # seconds: one evaluation this slow stops the search going further out that way
STOP = 1e-3  # refine until within this share of the printed precision


class _Spent(Exception):
    """The evaluation budget is used up."""


def solve(
    calc, raw: dict, free: str, output: str, sense: str, target, units: dict | None = None, clock: bool = True
) -> dict:
    """``clock=False`` (the corpus, the build): no time limit and no slow-formula cut, so the
    answer is the same however busy the machine is; the evaluation limit still holds."""
    return _Problem(calc, raw, free, output, sense, target, units, clock).answer()


def printed_tolerance(fmt: str, target: float) -> float:
    """Half a unit in the last place the output's format prints at ``target``."""
    try:
        kind, n = split_format(fmt or DEFAULT_FORMAT)
    except ValueError:
        kind, n = "sig", 4
    n = 3 if n is None else n
    if kind == "int":
        return 0.5
    if kind == "fixed":
        return 0.5 * 10.0**-n
    if kind == "percent":
        return 0.5 * 10.0 ** -(n + 2)
    if kind == "fraction":
        n = 4  # what it prints when the value is no simple fraction
    if target == 0 or not math.isfinite(target):
        return 1e-12
    return 0.5 * 10.0 ** (math.floor(math.log10(abs(target))) - n + 1)


def typed(value, integer: bool) -> str:
    """A solved value as a reader would type it: ``244,140``, ``0.9``, ``1.4e12``."""
    if integer:
        n = int(value)
        short = write_input(n)  # 2T, 70B: as readers type large counts, when that is exact and short
        if abs(n) >= 10**7 and short[-1:] in SUFFIXES and len(short.rstrip("kMBT").replace(".", "").lstrip("-")) <= 4:
            return short
        return f"{n:,}"
    x = float(value)
    if x.is_integer() and abs(x) < 1e6:
        return f"{int(x):,}"
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


def _shortest(lo: float, hi: float) -> list[float]:
    """Decimals in [lo, hi], fewest significant digits first (up to three of them)."""
    lo, hi = min(lo, hi), max(lo, hi)
    found: list[float] = []
    scale = max(abs(lo), abs(hi))
    if scale == 0 or not math.isfinite(scale):
        return found
    top = math.floor(math.log10(scale))
    for digits in range(1, 18):
        step = Decimal(1).scaleb(top - digits + 1)
        first = (Decimal(lo) / step).to_integral_value(rounding="ROUND_CEILING") * step
        if first <= Decimal(hi):
            for candidate in (first, first + step):
                x = float(candidate)
                if lo <= x <= hi and x not in found:
                    found.append(x)
            if len(found) >= 3:
                break
    if lo <= 0 <= hi:
        found.insert(0, 0.0)
    return found[:3]


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
    return f"{int(x):,}" if float(x).is_integer() and abs(x) < 1e15 else format_number(x, "sig:6")


def _label(output: dict) -> str:
    label = output.get("label", output["name"])
    return label[0].lower() + label[1:] if label[1:2].islower() else label


def _and(items: list[str], word: str = "and") -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


class _Problem:
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

    # ------------------------------------------------------------------ reading
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

    # ------------------------------------------------------------------ evaluating
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
            raise _Spent()
        if time.monotonic() > self.deadline:
            self.late = True
            raise _Spent()
        self.evaluations += 1
        started = time.process_time()  # this process's CPU time: a busy machine does not make a formula slow
        y = self._value_at(x)
        self.took = time.process_time() - started
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

    # ------------------------------------------------------------------ the grid
    def grid(self) -> list:
        iv = self.domain.interval
        if self.integer:
            return self._integer_grid(iv)
        return self._real_grid(iv)

    def _integer_grid(self, iv) -> list[int]:
        lo = (math.ceil(iv.lo) if iv.lo_closed else math.floor(iv.lo) + 1) if math.isfinite(iv.lo) else -LARGEST_WHOLE
        hi = (math.floor(iv.hi) if iv.hi_closed else math.ceil(iv.hi) - 1) if math.isfinite(iv.hi) else LARGEST_WHOLE
        lo, hi = max(lo, -LARGEST_WHOLE), min(hi, LARGEST_WHOLE)
        if hi - lo <= 48:
            return list(range(lo, hi + 1))
        points = {lo, hi, self.current}
        points.update(range(lo, min(lo + 8, hi) + 1))
        points.update(range(max(hi - 3, lo), hi + 1))

        def spread(start: int, stop: int, sign: int) -> None:  # |values| from start to stop, 3 a decade
            if stop <= start:
                return
            base = max(start, 1)
            k = 0
            while True:
                v = round(base * 10 ** (k / 3))
                if v > stop:
                    break
                points.add(sign * v)
                k += 1

        if lo >= 0:
            spread(lo, hi, 1)
        elif hi <= 0:
            spread(-hi, -lo, -1)
        else:
            points.update(range(-4, 5))
            spread(1, hi, 1)
            spread(1, -lo, -1)
        return sorted(p for p in points if lo <= p <= hi)

    def _real_grid(self, iv) -> list[float]:
        c = abs(self.current) if self.current else 1.0
        points = {float(self.current)}
        lo, hi = iv.lo, iv.hi
        if math.isfinite(lo) and math.isfinite(hi):
            width = hi - lo
            points.update(lo + width * i / 16 for i in range(17))
            for k in range(1, 14):  # close to each end: where a divergence or a limit lives
                points.update((lo + width * 10.0**-k, hi - width * 10.0**-k))
            if lo > 0 and hi / lo > 1e3:
                points.update(self._logspace(lo, hi, 2))
            elif hi < 0 and lo / hi > 1e3:
                points.update(-p for p in self._logspace(-hi, -lo, 2))
        else:
            anchors = []  # log-spaced magnitudes around the current value, then far out
            anchors += [c * 10.0 ** (k / 2) for k in range(-24, 25)]
            anchors += [c * 10.0**k for k in (-100, -50, -24, -18, 18, 24, 50, 100)]
            anchors += [1e-300, 1e300]
            if lo >= 0 or (math.isfinite(lo) and lo > -c):  # a domain above some finite end
                base = lo if math.isfinite(lo) else 0.0
                points.update(base + a for a in anchors)
                points.update(base + c * 10.0**-k for k in range(1, 14) if base != 0)
                if lo > 0 and iv.lo_closed is False:
                    points.add(lo * (1 + 1e-12))
            elif hi <= 0 or (math.isfinite(hi) and hi < c):
                base = hi if math.isfinite(hi) else 0.0
                points.update(base - a for a in anchors)
            else:
                points.add(0.0)
                points.update(a for a in anchors)
                points.update(-a for a in anchors)
        if iv.lo_closed:
            points.add(lo)
        if iv.hi_closed:
            points.add(hi)
        return sorted(p for p in points if math.isfinite(p) and p in iv)

    @staticmethod
    def _logspace(a: float, b: float, per_decade: int) -> list[float]:
        n = max(2, int(math.log10(b / a) * per_decade) + 1)
        return [a * (b / a) ** (i / (n - 1)) for i in range(n)]

    # ------------------------------------------------------------------ the search
    def answer(self) -> dict:
        samples = self._sample(self.grid())
        try:
            turns = self._turns(samples)
        except _Spent:
            turns = []
        # every value computed so far (the grid, the turns' searches): no new evaluation
        samples = sorted((x, self.g(x)) for x, y in self.cache.items() if y is not None)
        solutions, gaps = [], []
        try:
            solutions, gaps = self._crossings(samples)
        except _Spent:
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

    def _sample(self, xs) -> list:
        """The output over the grid, nearest the current value first: when the formula slows
        down far out (or time runs out), what is near is known and what is far is left out."""

        def distance(x):
            if x > 0 and self.current > 0:
                return abs(math.log(x) - math.log(self.current))  # a ratio could underflow to 0
            return abs(x - self.current) / max(abs(self.current), 1.0) + 1e3 * ((x > 0) != (self.current > 0))

        blocked = {1: math.inf, -1: -math.inf}  # beyond these, points are skipped (too slow there)
        samples = []
        for x in sorted(xs, key=distance):
            way = 1 if x >= self.current else -1
            if (way == 1 and x > blocked[1]) or (way == -1 and x < blocked[-1]):
                continue
            fresh = x not in self.cache
            try:
                g = self.g(x)
            except _Spent:
                break
            if fresh and self.took > self.slow:
                blocked[way] = x
                self.late = True
            if g is not None:
                samples.append((x, g))
        return sorted(samples)

    def _slack(self) -> float:
        """Rounding noise allowed in meeting a <= or >= target (relative: a tiny target stays tiny)."""
        return 1e-12 * abs(self.target)

    def _turns(self, samples) -> list:
        """Where the sampled output changes direction, refined by golden-section search.  An
        "extreme" that runs off without bound is a pole (the output jumps through infinity),
        not a turn: it widens the range instead."""
        turns = []
        ys = [(x, self.y(x)) for x, _ in samples]
        ys = [(x, y) for x, y in ys if y is not None and math.isfinite(y)]
        for i in range(1, len(ys) - 1):
            (a, ya), (m, ym), (b, yb) = ys[i - 1], ys[i], ys[i + 1]
            scale = max(abs(ya), abs(ym), abs(yb))
            if (ym - ya) * (yb - ym) < 0 and min(abs(ym - ya), abs(yb - ym)) > 1e-12 * scale:
                if len(turns) >= 8:
                    break
                try:  # turns may take the budget up to 60%: the rest is kept for the crossings
                    x = self._extremum(a, m, b, ym > ya) if self.evaluations < 0.6 * MAX_EVALUATIONS else m
                except _Spent:
                    x = m
                y = self.y(x) if x in self.cache else ym
                if y is not None and abs(y - ym) > 100 * max(abs(ya - ym), abs(yb - ym)):
                    self.poles.append((x, math.copysign(math.inf, y)))
                    continue
                turns.append(x)
        return turns

    def _extremum(self, a, m, b, peak: bool):
        """The turn between a and b (m the highest or lowest sample there), by golden section;
        on a flat top, the shortest decimal where the output is still at its extreme."""
        log = a > 0 and b / a > 4
        to_u = math.log if log else float
        from_u = math.exp if log else float
        sign = -1.0 if peak else 1.0
        seen = {m: sign * self.y(m)}

        def h(u):
            x = self._whole(from_u(u))
            y = self.y(x)
            if y is None:
                return None
            if math.isfinite(y):
                seen[x] = sign * y
            return sign * y

        ratio = (math.sqrt(5) - 1) / 2
        ua, ub = to_u(a), to_u(b)
        c, d = ub - ratio * (ub - ua), ua + ratio * (ub - ua)
        hc, hd = h(c), h(d)
        for _ in range(16):
            if hc is None or hd is None:
                break
            if hc < hd:
                ub, d, hd = d, c, hc
                c = ub - ratio * (ub - ua)
                hc = h(c)
            else:
                ua, c, hc = c, d, hd
                d = ua + ratio * (ub - ua)
                hd = h(d)
            xa, xb = from_u(ua), from_u(ub)
            if (self.integer and xb - xa < 2) or abs(xb - xa) <= 1e-4 * max(abs(xa), abs(xb), 1e-300):
                break
        low = min(seen.values())
        flat = [x for x, v in seen.items() if v - low <= self.tol * STOP]
        best = min(flat, key=lambda x: seen[x])
        if self.integer or len(flat) < 2:
            return best
        for x in _shortest(min(flat), max(flat)):
            y = self.y(x)
            if y is not None and sign * y - low <= self.tol * STOP:
                return x
        return best

    def _whole(self, x):
        return round(x) if self.integer else x

    def _crossings(self, samples):
        """Every crossing between neighbouring samples, refined: (solutions, gaps).  For =, a run
        of samples on the target is one solution: the one nearest the current value."""
        solutions, gaps = [], []
        run: list = []
        for i, (x, g) in enumerate(samples):
            if self.sense == "=" and self._sign(g) == 0:
                run.append(x)
                continue
            if run:
                solutions.append(self._on_target(run))
                run = []
            if i == 0:
                continue
            a, ga = samples[i - 1]
            if self.sense == "=":
                if self._sign(ga) == 0 or self._sign(ga) == self._sign(g):
                    continue
            elif self._meets_g(ga) == self._meets_g(g):
                continue
            if any(a < pole < x for pole, _ in self.poles):
                continue  # it jumps through infinity here: no crossing to refine
            try:
                found = self._integer_crossing(a, ga, x, g) if self.integer else self._real_crossing(a, ga, x, g)
            except _Spent:
                break  # out of evaluations: what is found so far is reported
            if found is None:
                continue
            if isinstance(found, tuple) and found[0] == "gap":
                gaps.append(found[1:])
            else:
                solutions.append(found)
        if run:
            solutions.append(self._on_target(run))
        return solutions, gaps

    def _on_target(self, run):
        x = min(run, key=lambda v: (abs(v - self.current), v))
        return self._solution(x, None, "integer" if self.integer else "root")

    def _sign(self, g) -> int:
        """For =: 0 when the output is on the target: to a thousandth of the printed precision for
        a real input; exactly for a whole number (else its neighbours decide which is nearer)."""
        band = 0.0 if self.integer else self.tol * STOP
        return 0 if abs(g) <= band else (1 if g > 0 else -1)

    def _meets_g(self, g) -> bool:
        return g <= self._slack()

    def _integer_crossing(self, a, ga, b, gb):
        """Bisect whole numbers down to neighbours a, a + 1 on either side of the crossing."""
        while b - a > 1:
            if a > 0 and b > 4 * a:
                mid = round(math.sqrt(a * b))
            else:
                mid = (a + b) // 2
            mid = min(max(mid, a + 1), b - 1)
            gm = self.g(mid)
            for other in (mid + 1, mid - 1):  # a formula that takes only odd numbers, say
                if gm is None and a < other < b:
                    mid, gm = other, self.g(other)
            if gm is None:
                break  # the formula takes none of the numbers near the middle: a and b are neighbours
            if self.sense == "=" and self._sign(gm) == 0:
                return self._solution(mid, None, "integer")
            if self._same_side(gm, ga):
                a, ga = mid, gm
            else:
                b, gb = mid, gm
        if self.sense == "=":
            best, other = (a, b) if abs(ga) <= abs(gb) else (b, a)
            if not self.close(best):
                return ("gap", a, b)
            return self._solution(best, other, "integer")
        good, bad = (a, b) if self._meets_g(ga) else (b, a)
        return self._solution(good, bad, "integer")

    def _same_side(self, g1, g2) -> bool:
        if self.sense == "=":
            return (g1 < 0) == (g2 < 0)
        return self._meets_g(g1) == self._meets_g(g2)

    def _real_crossing(self, a, ga, b, gb):
        """Safeguarded false position (Illinois, with bisection) between a and b."""
        log = a > 0 and b / a > 4
        to_u = math.log if log else float
        from_u = math.exp if log else float
        ua, ub = to_u(a), to_u(b)
        xa, xb = a, b
        fa, fb = ga, gb  # the false-position weights (halved by Illinois)
        last = 0
        width = abs(ub - ua)
        stop = self.tol * STOP
        try:
            for step in range(100):
                meet_x, meet_g = (xa, ga) if self._meets_g(ga) else (xb, gb)
                if self.sense == "=":
                    if min(abs(ga), abs(gb)) <= stop:
                        break
                elif abs(meet_g) <= stop and abs(gb if meet_x == xa else ga) <= self.tol:
                    break  # both ends within the printed precision: the boundary is found
                if self.sense != "=" and abs(xb - xa) <= 1e-10 * max(abs(xa), abs(xb)):
                    break  # a jump across the target, located to ten digits
                if abs(xb - xa) <= 4 * math.ulp(max(abs(xa), abs(xb))):
                    break
                if math.isfinite(fa) and math.isfinite(fb) and fa != fb and step % 3 != 2:
                    u = ub - fb * (ub - ua) / (fb - fa)
                    if not (min(ua, ub) < u < max(ua, ub)):
                        u = (ua + ub) / 2
                else:
                    u = (ua + ub) / 2
                if step % 3 == 2 and abs(ub - ua) > width / 2:
                    u = (ua + ub) / 2
                if step % 3 == 2:
                    width = abs(ub - ua)
                x = from_u(u)
                if not (min(xa, xb) < x < max(xa, xb)):
                    break
                gx = self.g(x)
                if gx is None:
                    return None
                if self.sense == "=" and self._sign(gx) == 0:
                    xa, ga = x, gx
                    break
                if self._same_side(gx, ga):
                    ua, xa, ga, fa = u, x, gx, gx
                    if last == -1:
                        fb /= 2
                    last = -1
                else:
                    ub, xb, gb, fb = u, x, gx, gx
                    if last == 1:
                        fa /= 2
                    last = 1
        except _Spent:
            pass
        return self._real_solution(xa, ga, xb, gb)

    def _real_solution(self, xa, ga, xb, gb):
        if self.sense == "=":
            best = xa if abs(ga) <= abs(gb) else xb
        else:
            best = xa if self._meets_g(ga) else xb
        g_best = ga if best == xa else gb
        # the local slope, from one step of a ten-millionth: how far the input may move
        slope = 0.0
        if math.isfinite(g_best):
            h = max(abs(best), 1e-300) * 1e-7
            step = best + h if best + h in self.domain.interval else best - h
            try:
                g_step = self.g(step)
            except _Spent:
                g_step = None
            if g_step is not None and math.isfinite(g_step) and step != best:
                slope = (g_step - g_best) / (step - best)
        reach = 0.5 * self.tol / abs(slope) if slope else 0.0
        if not slope and self.sense == "=":  # flat where it meets the target: try short values near
            reach = 1e-3 * abs(best)
        if self.sense != "=":  # a jump: any value up to the bracket's width inside may do
            reach = max(reach, abs(xb - xa))
        if self.sense == "=":
            best, other = (xa, xb) if abs(ga) <= abs(gb) else (xb, xa)
            span = (best - reach, best + reach)
            check = self.close
            kind = "root"
        else:
            best, other = (xa, xb) if self._meets_g(ga) else (xb, xa)
            inward = 1.0 if best > other else -1.0  # towards the values that meet
            span = (best, best + inward * reach)
            kind = "boundary"

            def check(x):
                return self.meets(x) and self.close(x)

        candidates = []
        if reach:
            candidates = [x for x in _shortest(*span) if x in self.domain.interval]
        try:
            for x in candidates:
                if check(x):
                    return self._solution(x, None, kind, other, root=best)
        except _Spent:
            pass
        if best in self.cache and check(best):
            return self._solution(best, None, kind, other, root=best)
        if self.sense != "=" and self.meets(best) and abs(xb - xa) <= 1e-9 * max(abs(xa), abs(xb)):
            found = self._solution(best, None, kind, other, root=best)  # the output jumps across the target here
            found["jump"] = True
            return found
        return ("gap", xa, xb)

    def _solution(self, x, neighbour, kind, other=None, root=None):
        side = None
        if self.sense != "=":
            across = neighbour if neighbour is not None else other
            if across is not None:
                side = "below" if across > x else "above"
        return {"x": x, "neighbour": neighbour, "kind": kind, "side": side, "root": x if root is None else root}

    # ------------------------------------------------------------------ the report
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
            flat = low is not None and self._flat(low, high)
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
        kind, n = split_format(self.output.get("format", DEFAULT_FORMAT))
        n = 3 if n is None else n
        if kind in ("int", "fraction"):
            kind, n = "sig", 6
        for extra in range(1, 10):
            wider = dict(self.output, format=f"{kind}:{n + extra}")
            text = self.calc.write(wider, y, self.units)
            if text != self.calc.write(wider, self.target, self.units):
                return text
        return text
