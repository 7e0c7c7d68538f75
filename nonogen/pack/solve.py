"""Solve, verify and count packing levels, with the same verdicts as nonogram verification.

Statuses: ``unique`` (exactly one completion), ``multiple``, ``unsolvable``
(none) and ``timeout`` (undecided within the time limit); :func:`solve_level`
reports ``solved`` when it only looked for one completion. Every solution a
function returns has been checked against the level by
:meth:`Level.check_solution`, independently of the search that found it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..solve.deadline import TIMEOUT, Deadline
from .exact import SearchOutcome, compile_level, count_memo, search
from .level import Level
from .sat import sat_search

__all__ = ["PackResult", "solve_level", "verify_level", "count_solutions", "METHODS"]

METHODS = ("auto", "dlx", "sat")
AUTO_DLX_NODES = 60_000
"""How many steps ``auto`` lets the exact-cover search take before handing the level to SAT (about 0.25 s).

The search is 10-50x faster at finding completions on open boards, but it
fills cells in a fixed order and can spend seconds proving that a level whose
dead corner lies at the far end has no completion; SAT's learned clauses find
such contradictions in milliseconds. Counted in steps, not seconds, so that
which solver answers (and so which second completion a ``multiple`` verdict
shows) is the same on a loaded machine as on an idle one.
"""


@dataclass
class PackResult:
    """The verdict on one level and the evidence for it."""

    status: str
    solution: Optional[tuple[str, ...]] = None
    second_solution: Optional[tuple[str, ...]] = None
    count: int = 0
    complete: bool = True
    seconds: float = 0.0
    message: str = ""
    stats: dict = field(default_factory=dict)


def _run(level: Level, method: str, limit: Optional[int], keep: int, timeout: Optional[float],
         exclude=None, on_progress=None, max_conflicts: Optional[int] = None) -> tuple[SearchOutcome, float, dict]:
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    start = time.monotonic()
    deadline = Deadline(timeout)
    problem = compile_level(level)
    used = method
    if method in ("dlx", "auto"):
        outcome = search(problem, limit=limit, keep=keep, deadline=deadline, exclude=exclude,
                         on_progress=on_progress, max_nodes=AUTO_DLX_NODES if method == "auto" else None)
        used = "dlx"
        if method == "auto" and outcome.timed_out and not deadline.expired():
            outcome = sat_search(problem, limit=limit, keep=keep, deadline=deadline, exclude=exclude,
                                 max_conflicts=max_conflicts)
            used = "dlx+sat"
    else:
        outcome = sat_search(problem, limit=limit, keep=keep, deadline=deadline, exclude=exclude,
                             max_conflicts=max_conflicts)
    for rows in outcome.solutions:
        problem_text = level.check_solution(rows)
        if problem_text:  # a solver bug, never a user mistake: refuse to report it
            raise RuntimeError(f"{method} returned a wrong solution: {problem_text}")
    stats = {"method": used, "placements": len(problem.placements), "nodes": outcome.nodes}
    return outcome, time.monotonic() - start, stats


def solve_level(level: Level, *, timeout: Optional[float] = TIMEOUT, method: str = "auto") -> PackResult:
    """One completion of the level: status ``solved``, ``unsolvable`` or ``timeout``."""
    out, seconds, stats = _run(level, method, 1, 1, timeout)
    if out.solutions:
        return PackResult("solved", out.solutions[0], None, 1, False, seconds, "found a completion", stats)
    if out.timed_out:
        return PackResult("timeout", None, None, 0, False, seconds, f"no completion found in {timeout:g} s", stats)
    return PackResult("unsolvable", None, None, 0, True, seconds, "the pieces cannot complete the board", stats)


def verify_level(level: Level, *, timeout: Optional[float] = TIMEOUT, method: str = "auto",
                 use_solution: bool = True, max_conflicts: Optional[int] = None) -> PackResult:
    """Whether the level has exactly one completion (stops at the second one).

    With a known solution (``level.solution``, unless ``use_solution`` is off)
    it proves that one is the only completion: any other completion found is
    already the answer ``multiple``. ``max_conflicts`` bounds the SAT search
    in work rather than time (the status is then ``timeout`` too): a
    generator that must give the same level on every machine asks with it.
    """
    target = level.solution if use_solution else None
    if target is not None:
        out, seconds, stats = _run(level, method, 1, 1, timeout, exclude=target, max_conflicts=max_conflicts)
        if out.solutions:
            return PackResult("multiple", target, out.solutions[0], 2, False, seconds,
                              "another completion differs from the level's solution", stats)
        if out.timed_out:
            return PackResult("timeout", target, None, 1, False, seconds, _undecided(timeout, max_conflicts), stats)
        return PackResult("unique", target, None, 1, True, seconds, "the level's solution is the only completion",
                          stats)
    out, seconds, stats = _run(level, method, 2, 2, timeout, max_conflicts=max_conflicts)
    first = out.solutions[0] if out.solutions else None
    if out.count >= 2:
        return PackResult("multiple", first, out.solutions[1], 2, False, seconds, "at least two completions", stats)
    if out.timed_out:
        return PackResult("timeout", first, None, out.count, False, seconds,
                          f"{_undecided(timeout, max_conflicts)} ({out.count} completion(s) found)", stats)
    if first is None:
        return PackResult("unsolvable", None, None, 0, True, seconds, "the pieces cannot complete the board", stats)
    return PackResult("unique", first, None, 1, True, seconds, "exactly one completion", stats)


def _undecided(timeout: Optional[float], max_conflicts: Optional[int]) -> str:
    """Why a verdict is missing: the time limit, or the search's budget of conflicts.

    >>> _undecided(5, None), _undecided(None, 20000)
    ('undecided after 5 s', 'undecided within 20,000 conflicts or the time limit')
    """
    if max_conflicts is None:
        return f"undecided after {timeout:g} s"
    return f"undecided within {max_conflicts:,} conflicts or the time limit"


def count_solutions(level: Level, *, limit: Optional[int] = None, timeout: Optional[float] = TIMEOUT,
                    method: str = "auto", on_progress: Optional[Callable[[int, int], None]] = None,
                    max_nodes: Optional[int] = None) -> PackResult:
    """Count completions up to ``limit`` (None: all) within ``timeout`` seconds.

    ``complete`` says whether the count is exact; otherwise it is how many were
    found before the limit or the deadline stopped the search. Congruent
    pieces swapped in place count once. ``dlx`` counts with a memo of partly
    filled boards (:func:`~nonogen.pack.exact.count_memo`), as does ``auto``;
    ``sat`` enumerates. ``max_nodes`` stops the ``dlx`` count after that many
    search steps (status ``timeout``), the same on every machine.
    """
    if method == "sat":
        out, seconds, stats = _run(level, method, limit, 1, timeout, on_progress=on_progress)
        count, complete, timed_out, first = out.count, out.complete, out.timed_out, out.solutions[:1]
    else:
        start = time.monotonic()
        deadline = Deadline(timeout)
        problem = compile_level(level)
        memo = count_memo(problem, cap=limit, deadline=deadline, on_progress=on_progress, max_nodes=max_nodes)
        count, complete, timed_out = memo.count, memo.complete, memo.timed_out
        first = search(problem, limit=1, keep=1, deadline=deadline).solutions if count else []
        for rows in first:
            if level.check_solution(rows):
                raise RuntimeError(f"dlx returned a wrong solution: {level.check_solution(rows)}")
        seconds = time.monotonic() - start
        stats = {"method": "dlx-memo", "placements": len(problem.placements), "nodes": memo.nodes,
                 "states": memo.states}
    status = "complete" if complete else ("timeout" if timed_out else "limit")
    message = {
        "complete": f"exactly {count} completion(s)",
        "timeout": f"at least {count} completion(s); stopped after "
                   + (f"{timeout:g} s" if max_nodes is None else f"{max_nodes:,} search steps"),
        "limit": f"at least {count} completion(s); stopped at the limit",
    }[status]
    return PackResult(status, first[0] if first else None, None, count, complete, seconds, message, stats)
