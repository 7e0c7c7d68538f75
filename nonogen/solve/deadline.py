"""Time limits, the one clock: every stage of a proof honours them, the SAT solver included.

2D and 3D verification, making puzzles and packing all keep time with
:class:`Deadline` and call SAT solvers through :func:`solve_limited`, so a
timeout means the same thing everywhere.
"""
from __future__ import annotations

import time
from contextlib import contextmanager

from ..signals import on_main_thread, signal

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # the SAT solver loads on first use: a line-solvable puzzle never needs it
    from typing import Iterator, Optional, Sequence
    from .sat import Solver

__all__ = ["TIMEOUT", "Deadline", "Timeout", "OutOfTime", "Clock", "interrupt_at", "read_limit", "solve_limited",
           "solve_budgeted"]

TIMEOUT = 60.0
"""Seconds one question to the engine may take unless the caller says: every door's default, 2D and 3D alike."""


class Timeout(Exception):
    """The deadline passed before the work was done."""


class OutOfTime(BaseException):
    """:func:`interrupt_at`'s deadline passed inside work that keeps no clock of its own.

    A ``BaseException``, like ``KeyboardInterrupt``: a reader's ``except Exception`` (which turns a
    bug into a one-line error) must not swallow it and report the file as broken.
    """


def read_limit(timeout: Optional[float]) -> Optional[float]:
    """How long reading one file may take under a time limit of ``timeout`` seconds a puzzle.

    Half the limit, at least a second: reading and proving together then stay within 1.5 times
    the limit plus a second, and a legitimate bundle of a thousand puzzles (0.3 s to read) is not
    cut short by a small limit. A 16 MB file of blank lines took 20 s to read at ``--timeout 5``.

    >>> read_limit(10), read_limit(0.2), read_limit(None)
    (5.0, 1.0, None)
    """
    return None if timeout is None else max(float(timeout) / 2, 1.0)


@contextmanager
def interrupt_at(seconds: Optional[float]) -> Iterator[None]:
    """Raise :class:`OutOfTime` inside the block once ``seconds`` have passed, wherever it is.

    For work with no deadline checks of its own (the file readers: pure loops over text), so
    that a time limit also covers them. A timer signal interrupts Python code between two
    steps; C calls finish first (the readers' C calls are linear in the file). Only the main
    thread receives signals: elsewhere, and without a limit, the block runs unbounded.
    """
    if seconds is None or not on_main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise OutOfTime()

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, max(float(seconds), 0.001), AGAIN_EVERY)
    try:
        yield
    finally:
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
        finally:  # a last signal may land just before the timer stops: the handler still goes back
            signal.signal(signal.SIGALRM, previous)


AGAIN_EVERY = 0.05
"""Seconds between the timer's signals once :func:`interrupt_at`'s limit has passed. Python drops an exception
raised where it cannot propagate (a ``__del__``, the weakref callback that ends an import): with one signal, a
limit that passed there was lost and the work ran on unbounded."""


class Deadline:
    """A point in time (``None``: never); ``check()`` raises :class:`Timeout` once it has passed."""

    def __init__(self, seconds: Optional[float]):
        self.end = None if seconds is None else time.monotonic() + seconds

    def earliest(self, other: "Deadline") -> "Deadline":
        """Whichever of the two deadlines comes first."""
        return self if self.remaining() <= other.remaining() else other

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


class Clock:
    """A deadline plus solver-call statistics, shared by everything one request does."""

    def __init__(self, timeout: Optional[float]):
        self.deadline = Deadline(timeout)
        self.calls = 0
        self.solve_seconds = 0.0

    def solve(self, solver: Solver, assumptions: Sequence[int] = ()) -> Optional[bool]:
        """Solve within the deadline; ``None`` when it passes first."""
        self.calls += 1
        start = time.monotonic()
        try:
            return solve_limited(solver, self.deadline, assumptions)
        except Timeout:
            return None
        finally:
            self.solve_seconds += time.monotonic() - start

    def stats(self) -> dict:
        ms = 1000 * self.solve_seconds / self.calls if self.calls else 0.0
        return {"solver_calls": self.calls, "solve_seconds": round(self.solve_seconds, 4), "ms_per_call": round(ms, 3)}


def solve_limited(solver: Solver, deadline: Deadline, assumptions: Sequence[int] = ()) -> bool:
    """``solver.solve`` that gives up at the deadline (raises :class:`Timeout`).

    Solvers that can be interrupted (MiniSat, Glucose) get a timer that
    interrupts them at the deadline. CaDiCaL holds the GIL and cannot be
    interrupted, so it searches in slices of a conflict budget, each sized to
    fit the time left at the conflict rate measured so far (one slice of
    50,000 conflicts takes 7 s on the 80x95 Faase); learned clauses survive
    from one slice to the next.
    """
    deadline.check()
    assumptions = list(assumptions)
    if deadline.end is None:
        return bool(solver.solve(assumptions=assumptions))
    try:
        solver.clear_interrupt()
    except NotImplementedError:
        return _solve_in_slices(solver, deadline, assumptions)
    import threading  # here: only a SAT search needs its timer thread, and line logic decides most puzzles

    timer = threading.Timer(max(0.0, deadline.remaining()), solver.interrupt)
    timer.start()
    try:
        result = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
    finally:
        timer.cancel()
    if result is None:
        solver.clear_interrupt()
        raise Timeout()
    return bool(result)


def solve_budgeted(solver: Solver, deadline: Deadline, conflicts: int) -> Optional[bool]:
    """:func:`solve_limited` for at most ``conflicts`` conflicts: ``None`` when they are spent first.

    Learned clauses stay with the solver, so a search cut into slices (to
    change its phases between them) loses little. The budget is lifted
    afterwards: a later plain call must not inherit it.
    """
    solver.conf_budget(conflicts)
    try:
        return solve_limited(solver, deadline)
    except Timeout:
        if deadline.expired():
            raise
        return None  # the budget ran out, not the time
    finally:
        solver.conf_budget(-1)


def _solve_in_slices(solver: Solver, deadline: Deadline, assumptions: list[int]) -> bool:
    budget, rate = 2000, None  # rate: conflicts per second, at least
    while True:
        deadline.check()
        if rate is not None:
            budget = int(max(100, min(2 * budget, 50000, 0.8 * rate * deadline.remaining())))
        solver.conf_budget(budget)
        start = time.monotonic()
        result = solver.solve_limited(assumptions=assumptions)
        if result is not None:
            return bool(result)
        rate = budget / max(time.monotonic() - start, 1e-6)
