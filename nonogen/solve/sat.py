"""The one door to a SAT solver: a caller says what it asks, :func:`new_solver` picks the solver.

As python-sat's ``Solver(name=...)`` picks among its solvers, each choice is named here once, with its reason
(:data:`SOLVERS`), and nothing else in nonogen imports python-sat's solvers (ruff's banned-api, pyproject.toml).
"""
from __future__ import annotations

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Iterable, Sequence
    from pysat.solvers import Solver

__all__ = ["SOLVERS", "new_solver"]

SOLVERS = {
    # 2D residues (cnf.py): MiniSat (the GitHub version) finds the first solution of the random TAAI puzzles in
    # 60 % of CaDiCaL 1.9.5's time and is as fast on the survey set, with less start-up cost per solver; and a
    # timer can interrupt it at a deadline.
    "grid": "minisat-gh",
    # Picross 3D verification and repair (cnf3d.py's counters): chosen with that encoding, none measured against
    # it since. It cannot be interrupted: deadline.solve_limited gives it conflict slices.
    "box": "cadical195",
    # Hiding 3D clues: 1.7-2.3x faster than CaDiCaL on the many small assumption-based calls of one solver.
    "hiding": "glucose4",
    # Exact cover of packing levels (pack/sat.py): deterministic, so a search bounded by counted conflicts
    # gives the same answer on every machine, idle or loaded.
    "packing": "cadical195",
}
"""python-sat's name of the solver for each kind of question."""


def new_solver(kind: str, clauses: Iterable[Sequence[int]] = ()) -> Solver:
    """A new solver for questions of ``kind`` (a key of :data:`SOLVERS`) holding ``clauses``; the caller deletes it.

    >>> with new_solver("grid", [[1, 2], [-1]]) as solver:
    ...     solver.solve(), solver.get_model()
    (True, [-1, 2])
    """
    from pysat.solvers import Solver  # here: a puzzle line logic decides never needs python-sat

    return Solver(name=SOLVERS[kind], bootstrap_with=clauses)
