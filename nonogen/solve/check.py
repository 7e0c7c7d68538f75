"""The clue check every grid the engine reports passes, at C speed when the C module is built.

:func:`nonogen.clues.satisfies` derives each line's clue in Python: on a
random 30x30 colour grid, whose blocks of different colours touch all the
time, that took 0.3 ms, a tenth of the whole verdict. Here the C module's
``grid_meets`` run-length encodes the grid's lines and compares the runs
with the puzzle's clue tuples as it goes (a loop of its own that shares
nothing with the line solver, so it still catches a solver bug). Without the C
module (or with ``NONOGEN_PURE_PYTHON``) :func:`~nonogen.clues.satisfies` does it.
"""
from __future__ import annotations

from ..clues import satisfies
from ..grids import rows_of
from ..model import Puzzle
from . import propagate

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

__all__ = ["meets_clues", "checked"]


def meets_clues(puzzle: Puzzle, grid: Any) -> bool:
    """Whether ``grid`` meets every clue and given of ``puzzle``: the same answer as :func:`~nonogen.clues.satisfies`.

    >>> from nonogen.clues import puzzle_from_grid
    >>> p = puzzle_from_grid([[1, 1, 0], [0, 1, 1]])
    >>> meets_clues(p, [[1, 1, 0], [0, 1, 1]]), meets_clues(p, [[1, 0, 1], [0, 1, 1]]), meets_clues(p, [[1, 1]])
    (True, False, False)
    """
    if not propagate.NATIVE:  # read when asked, as Grid does: the benchmark turns it off for its Python baseline
        return satisfies(puzzle, grid)
    try:
        rows = rows_of(grid)
    except (ValueError, TypeError):
        return False
    width, height = puzzle.width, puzzle.height
    if len(rows) != height or set(map(len, rows)) != {width}:
        return False
    return (propagate._linelogic.grid_meets(b"".join(rows), width, height, puzzle.rows + puzzle.cols)
            and all(rows[r][c] == v for r, c, v in puzzle.givens))


def checked(puzzle: Puzzle, grid: Any) -> Any:
    """``grid``, once it meets every clue and given of ``puzzle``: every grid the engine reports passes here, and one
    that does not is a solver bug (AssertionError), never a verdict."""
    if not meets_clues(puzzle, grid):  # pragma: no cover - would be a solver bug
        raise AssertionError("solver produced a grid that breaks the clues")
    return grid
