"""Where a solve looks: the grid over the free input's domain (log-spaced where it spans
decades, whole numbers for an integer input) and the scan of the output over it, nearest the
current value first, within the evaluation budget.

Standard library only: shipped to the browser.  A part of ``solve.Problem``, which holds the
question and evaluates the formula (``self.y``, ``self.g``).
"""

from __future__ import annotations

import math

from .domain import LARGEST_WHOLE

MAX_EVALUATIONS = 200
SECONDS = 2.0  # below the page's 3 s watchdog, so a slow solve is reported, not killed
SLOW = 0.05  # seconds: one evaluation this slow stops the search going further out that way


class Spent(Exception):
    """The evaluation budget is used up."""


class Grid:
    """The points a solve evaluates first, and the output sampled there."""

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
            except Spent:
                break
            if fresh and self.took > self.slow:
                blocked[way] = x
                self.late = True
            if g is not None:
                samples.append((x, g))
        return sorted(samples)
