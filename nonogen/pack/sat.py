"""Exact cover as SAT (python-sat): an independent second solver for packing levels.

One variable per placement; every free cell is covered by exactly one
placement and every shape type is placed exactly as many times as there are
pieces of that shape. It is slower than the bitmask search on plain levels but
shares no search code with it, which makes it the cross-check in tests and the
baseline in the benchmark.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from pysat.card import CardEnc, EncType  # python-sat's encodings; the solver comes through nonogen.solve.sat
from pysat.formula import IDPool

from ..solve.deadline import Deadline, Timeout, solve_limited
from ..solve.sat import new_solver
from .exact import ExactProblem, SearchOutcome

if TYPE_CHECKING:
    from ..solve.sat import Solver

__all__ = ["sat_search"]


def _clauses(problem: ExactProblem) -> tuple[list[list[int]], IDPool]:
    pool = IDPool(start_from=len(problem.placements) + 1)
    clauses: list[list[int]] = []
    covering: dict[int, list[int]] = {}
    of_type: list[list[int]] = [[] for _ in problem.types]
    for var, (t, mask) in enumerate(problem.placements, start=1):
        of_type[t].append(var)
        while mask:
            low = mask & -mask
            covering.setdefault(low, []).append(var)
            mask ^= low
    free = problem.goal ^ problem.start
    while free:
        low = free & -free
        free ^= low
        lits = covering.get(low, [])
        if not lits:
            return [[]], pool  # a free cell no placement can cover
        clauses += CardEnc.equals(lits=lits, bound=1, vpool=pool, encoding=EncType.seqcounter).clauses
    for t, lits in enumerate(of_type):
        need = len(problem.types[t])
        if len(lits) < need:
            return [[]], pool
        clauses += CardEnc.equals(lits=lits, bound=need, vpool=pool, encoding=EncType.seqcounter).clauses
    return clauses, pool


def sat_search(
    problem: ExactProblem,
    *,
    limit: Optional[int] = 2,
    keep: int = 2,
    deadline: Optional[Deadline] = None,
    exclude: Optional[tuple[str, ...]] = None,
    max_conflicts: Optional[int] = None,
) -> SearchOutcome:
    """Same contract as :func:`nonogen.pack.exact.search`, by SAT with blocking clauses.

    ``max_conflicts`` stops the search (as ``timed_out``) once the solver has met that many conflicts in all,
    the same on every machine (see :func:`_solve_counted`).
    """
    clauses, _ = _clauses(problem)
    n = len(problem.placements)
    found: list[tuple[str, ...]] = []
    count = 0
    calls = 0
    if exclude is not None:
        exclude = problem.canonical_rows(tuple(exclude))
    if [] in clauses:
        return SearchOutcome([], 0, True, False, 0)
    with new_solver("packing", clauses) as s:
        while limit is None or count < limit:
            try:
                if max_conflicts is None:
                    verdict: Optional[bool] = solve_limited(s, deadline or Deadline(None))
                else:
                    verdict = _solve_counted(s, deadline or Deadline(None), max_conflicts)
            except Timeout:
                return SearchOutcome(found, count, False, True, calls)
            calls += 1
            if verdict is None:  # the conflicts are spent
                return SearchOutcome(found, count, False, True, calls)
            if not verdict:
                return SearchOutcome(found, count, True, False, calls)
            model = s.get_model()
            chosen = [v for v in model[:n] if v > 0]
            s.add_clause([-v for v in chosen])
            rows = problem.rows([problem.placements[v - 1] for v in chosen])
            if exclude is not None and rows == exclude:
                continue
            count += 1
            if len(found) < keep:
                found.append(rows)
    return SearchOutcome(found, count, False, False, calls)


COUNTED_SLICE = 2_000
"""Conflicts in one slice of a counted search: the deadline is looked at between slices."""


def _solve_counted(solver: Solver, deadline: Deadline, max_conflicts: int) -> Optional[bool]:
    """Solve until ``max_conflicts`` conflicts have been met since the solver was made (``None``), or the deadline
    passes (:class:`Timeout`).

    The slices are a fixed number of conflicts, never sized by the time left as
    :func:`~nonogen.solve.deadline.solve_limited` sizes them: CaDiCaL is deterministic, so the same calls with the
    same budgets give the same answer, idle or loaded. The deadline only ends the whole search.
    """
    while True:
        spent = solver.accum_stats().get("conflicts", 0)
        if spent >= max_conflicts:
            return None
        deadline.check()
        solver.conf_budget(min(COUNTED_SLICE, max_conflicts - spent))
        verdict = solver.solve_limited()
        if verdict is not None:
            return bool(verdict)
