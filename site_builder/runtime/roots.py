"""The root finding of a solve: the output's turns (golden section), every crossing of the
target between neighbouring samples, refined by a safeguarded false position (Illinois, with
bisection) for a real input and by bisection for a whole number, and the shortest decimal that
still reproduces the target.

Standard library only: shipped to the browser.  A part of ``solve.Problem``.
"""

from __future__ import annotations

import math
from decimal import Decimal

from .grid import MAX_EVALUATIONS, Spent

STOP = 1e-3  # refine until within this share of the printed precision


def shortest(lo: float, hi: float) -> list[float]:
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


class Roots:
    """The crossings of the target and the turns of the output, from the grid's samples."""

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
                except Spent:
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
        for x in shortest(min(flat), max(flat)):
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
            except Spent:
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
        except Spent:
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
            except Spent:
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
            candidates = [x for x in shortest(*span) if x in self.domain.interval]
        try:
            for x in candidates:
                if check(x):
                    return self._solution(x, None, kind, other, root=best)
        except Spent:
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
