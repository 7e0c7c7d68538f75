"""Verification of 2D puzzles: line logic, then probing, then SAT for whatever is left.

The verdict never rests on line logic being clever: line logic and probing
only fix cells that every solution shares, and SAT decides the rest,
including the uniqueness proof (block the known solution, re-solve). How far
the chain had to go is the difficulty rating. Probing runs in C (about a
microsecond per line run) and has a time budget, so it pays for itself: on
most puzzles it either finishes the job or hands SAT a smaller problem.

Each function here asks one question of a fresh :class:`~nonogen.solve.session.Session`;
callers with many questions about one puzzle keep a session instead.
"""
from __future__ import annotations

import time

from ..errors import PuzzleError, SolverTimeout
from ..model import Puzzle
from .deadline import TIMEOUT
from .propagate import Contradiction
from .result import VerifyResult
from .session import Session

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Optional
    import numpy as np

__all__ = ["verify2d", "timed_session", "ambiguous_cells", "ambiguity", "line_solve"]


def verify2d(
    puzzle: Puzzle,
    *,
    target: Any = None,
    timeout: Optional[float] = TIMEOUT,
    strategy: str = "full",
    grade: bool = True,
) -> VerifyResult:
    """Decide whether a 2D ``puzzle`` has exactly one solution.

    With a ``target`` (or a goal stored in the puzzle that meets the clues)
    the question is "is this the only solution?": a first solution different
    from it proves ``multiple`` at once. Without one, the first solution found
    is blocked and the search run again.

    ``strategy`` is ``"full"`` (line logic, probing, SAT), ``"line"`` (no
    probing: difficulty is ``None`` for a unique puzzle line logic does not
    finish) or ``"sat"`` (SAT on the whole puzzle, no line logic: the
    benchmark's baseline).

    >>> from nonogen.clues import puzzle_from_grid
    >>> verify2d(puzzle_from_grid([[1, 0, 0], [0, 1, 0], [0, 0, 1]])).status  # a diagonal: also the anti-diagonal
    'multiple'
    >>> verify2d(puzzle_from_grid([[1, 1], [1, 0]])).difficulty
    'line'
    """
    session, left = timed_session(puzzle, timeout=timeout)
    return session.verify(target, timeout=left, strategy=strategy, grade=grade)


def timed_session(puzzle: Puzzle, *, timeout: Optional[float]) -> tuple[Session, Optional[float]]:
    """A new :class:`Session` of ``puzzle`` and what is left of ``timeout`` once it is set up.

    Setting up is part of the time limit: a million cells take a third of a second, four million a second.
    """
    start = time.monotonic()
    session = Session(puzzle)
    return session, None if timeout is None else max(0.0, timeout - (time.monotonic() - start))


def line_solve(puzzle: Puzzle) -> tuple["np.ndarray", bool]:
    """Cells decided by complete line logic alone (-1 where undecided), and whether that is all of them.

    A puzzle is *line-solvable* when the second value is True; such a puzzle
    is unique and a person can solve it one line at a time. Raises
    :class:`~nonogen.errors.PuzzleError` when line logic finds a contradiction.

    >>> line_solve(Puzzle(rows=[[(1, 1)], [(1, 1)]], cols=[[(1, 1)], [(1, 1)]]))[1]
    False
    """
    try:
        decided = Session(puzzle).decided()
    except Contradiction:
        raise PuzzleError("line logic finds no way to fill some line: the puzzle has no solution") from None
    return decided, bool((decided >= 0).all())


def ambiguous_cells(puzzle: Puzzle, reference: Any, *, timeout: Optional[float] = TIMEOUT) -> "np.ndarray":
    """Cells whose value differs in some solution: the complement of the backbone.

    Raises :class:`~nonogen.errors.SolverTimeout` when the scan does not
    finish in time; :func:`ambiguity` returns what was found instead.

    >>> from nonogen.clues import puzzle_from_grid
    >>> g = [[1, 0, 0], [0, 1, 0], [0, 0, 0]]
    >>> ambiguous_cells(puzzle_from_grid(g), g).astype(int).tolist()
    [[1, 1, 0], [1, 1, 0], [0, 0, 0]]
    """
    mask, complete = ambiguity(puzzle, reference, timeout=timeout)
    if not complete:
        raise SolverTimeout(f"ambiguity check gave up after {timeout} s")
    return mask


def ambiguity(puzzle: Puzzle, reference: Any, *, timeout: Optional[float] = TIMEOUT) -> tuple["np.ndarray", bool]:
    """The ambiguous cells found within ``timeout``, and whether that is all of them.

    See :meth:`~nonogen.solve.session.Session.ambiguity`.
    """
    return Session(puzzle).ambiguity(reference, timeout=timeout)


