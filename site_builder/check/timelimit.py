"""The time a formula may take: one limit for the check, the build and the command line."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

FORMULA_SECONDS = 2.0


class FormulaTimeout(BaseException):
    """A formula that did not return in time: an endless loop, or a computation out of proportion.

    A BaseException, so that no handler of a formula's own errors mistakes it for one."""


@contextmanager
def time_limit(seconds: float = FORMULA_SECONDS):
    """Interrupt the formulas run inside after ``seconds`` (main thread only; elsewhere, no limit)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum, frame):
        raise FormulaTimeout(f"did not return within {seconds:g} s (an endless loop?)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
