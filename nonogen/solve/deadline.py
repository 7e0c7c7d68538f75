"""Time limits that every stage of a proof honours, including the SAT solver."""
from __future__ import annotations

import time
from typing import Optional, Sequence

from pysat.solvers import Solver

__all__ = ["Deadline", "Timeout", "solve_limited"]


class Timeout(Exception):
    """The deadline passed before the work was done."""


class Deadline:
    """A point in time (``None``: never); ``check()`` raises :class:`Timeout` once it has passed."""

    def __init__(self, seconds: Optional[float]):
        self.end = None if seconds is None else time.monotonic() + seconds

    def remaining(self) -> float:
        return float("inf") if self.end is None else self.end - time.monotonic()

    def left(self, minimum: float = 0.05) -> Optional[float]:
        """Seconds left as a ``timeout=`` argument for a sub-task (``None``: no limit)."""
        return None if self.end is None else max(minimum, self.remaining())

    def expired(self) -> bool:
        return self.end is not None and time.monotonic() >= self.end

    def check(self) -> None:
        if self.expired():
            raise Timeout()


def solve_limited(solver: Solver, deadline: Deadline, assumptions: Sequence[int] = ()) -> bool:
    """``solver.solve`` that gives up at the deadline (raises :class:`Timeout`).

    CaDiCaL holds the GIL and cannot be interrupted from a thread, so the
    search runs in slices of a conflict budget and the clock is read between
    slices; learned clauses survive from one slice to the next.
    """
    budget = 2000
    while True:
        deadline.check()
        solver.conf_budget(budget)
        result = solver.solve_limited(assumptions=list(assumptions))
        if result is not None:
            return bool(result)
        budget = min(budget * 2, 50000)
