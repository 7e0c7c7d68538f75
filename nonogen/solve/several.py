"""Two solutions before probing: the short way to ``multiple`` for colour puzzles with many solutions.

A random colour grid (each cell background or one of a few colours) nearly
always has several solutions, and line logic leaves a small, loose residue:
50-150 open cells of a 30x30 grid. Probing that residue, encoding it for SAT
and computing belief phases took four fifths of the verdict, and none of them
can change it: probing only fixes cells every solution shares, so it never
solves a puzzle with two solutions nor finds it unsolvable, and SAT would
only confirm two solutions that are easy to find.

So after line logic a colour puzzle's residue is searched depth first, with
line logic after each assumption (the C module's ``two_solutions``), within
a budget of assumptions and of line work. The first solution is checked for
a second one four cells away: two rows and two columns whose crossings hold
colours ``X Y / Y X`` that can swap to ``Y X / X Y`` without changing any clue.
Without one the search goes on. Two solutions make the verdict ``multiple``
(difficulty ``search``, as the full path says); anything less decides
nothing, and the full path goes on from the same line-logic state, so unique
and unsolvable puzzles get the verdict and difficulty they always got.
"""
from __future__ import annotations

from array import array

from ..grids import Rows, flat, split_rows
from ..model import Puzzle
from .check import checked
from .deadline import Deadline
from .propagate import Grid
from .result import VerifyResult

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Optional

__all__ = ["worth_trying", "multiple_early", "two_solutions", "BUDGET", "STEPS", "MAX_OPEN"]

BUDGET = 2000
"""Assumptions the search may make; a random 30x30 colour residue takes 20-60 to give two solutions."""

STEPS = 20_000
"""Line work the search may do (propagate.c's steps: one per line, more for long lines of many blocks).
A random 30x30 colour residue takes 60-250; the cap keeps a large unique puzzle's detour to tens of ms."""

MAX_OPEN = 50_000
"""Open cells after line logic above which the short way is not tried (a 60x60 random colour grid leaves 1,900
and gets its two solutions in 9 ms instead of 0.2 s; past the budgets a miss costs tens of milliseconds)."""


def worth_trying(puzzle: Puzzle, grid: Grid, open_cells: int) -> bool:
    """Whether :func:`two_solutions` should run first: a colour puzzle with a small residue, and the C module."""
    return grid.native and len(puzzle.palette) > 2 and 0 < open_cells <= MAX_OPEN


def two_solutions(grid: Grid, masks, deadline: Deadline) -> Optional[tuple[Rows, Rows, str]]:
    """Two different solutions from the line-logic fixpoint ``masks`` and how the second was found
    (``"swap"`` or ``"search"``), or ``None`` when the search does not find two.

    Raises :class:`~nonogen.solve.deadline.Timeout` at the deadline.
    """
    found, _, swapped = grid.two_solutions(array("I", masks), BUDGET, STEPS, deadline)
    if len(found) < 2:
        return None
    return split_rows(found[0], grid.width), split_rows(found[1], grid.width), "swap" if swapped else "search"


def multiple_early(
    puzzle: Puzzle, grid: Grid, masks, reference: Optional[Rows], deadline: Deadline, stats: dict
) -> Optional[VerifyResult]:
    """``multiple`` when :func:`two_solutions` finds two, else ``None`` (the full path decides).

    With a ``reference`` (the grid whose uniqueness is asked) it comes first,
    then one of the two that differs from it. Both grids pass the clue check.
    """
    found = two_solutions(grid, masks, deadline)
    if found is None:
        return None
    first, second, how = found
    if reference is not None:
        first, second = reference, first if flat(first) != flat(reference) else second
    checked(puzzle, first)
    checked(puzzle, second)
    stats.update(shortcut="two solutions before probing", second_by=how)
    return VerifyResult("multiple", solution=first, second_solution=second, difficulty="search", stats=stats)
