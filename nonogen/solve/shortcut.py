"""Cheap roads to ``multiple`` before probing, for puzzles line logic leaves open: :func:`early_multiple`.

Both roads are one depth-first search in C line logic (several.c): it
assumes a colour for an open cell, runs line logic, backtracks on a dead
end, and gives up at a budget, since what it has not found the full road
(probing, then SAT) decides. A grid found so is checked against every clue,
so two of them prove ``multiple`` without any SAT call.

Black and white (:func:`guess_two`). On a random 30x30 grid (each cell
black with probability 1/2) line logic decides only a sixth of the cells,
and nearly every such puzzle has several solutions. The full road spends
two thirds of its time probing. The guess orders the cells and colours by
belief propagation's confidence instead, and looks for a second solution
next to the first: blocks that move by one cell along a closed cycle of rows
and columns (the smallest is a 2x2 ``[[1, 0], [0, 1]]`` turned into
``[[0, 1], [1, 0]]``), else by going on with the search past the first. All
of that is one call of the C module (guess.c): about 1 ms on a random 30x30
grid. When nothing is found the full road goes on with the guessed solution
in hand as its first.

Colour (:func:`two_solutions`). A random colour grid nearly always has
several solutions, and line logic leaves a small, loose residue: 50-150
open cells of a 30x30 grid. Probing it, encoding it for SAT and computing
belief phases took four fifths of the verdict, and none of them can change
it: probing only fixes cells every solution shares. So the residue is
searched in grid order, and the first solution is checked for a second one
four cells away: two rows and two columns whose crossings hold colours
``X Y / Y X`` that can swap to ``Y X / X Y`` without changing any clue.
Without one the search goes on. Anything less than two solutions decides
nothing, and the full road goes on from the same line-logic state, so
unique and unsolvable puzzles get the verdict and difficulty they always got.
"""
from __future__ import annotations

import time
from array import array

from ..clues import satisfies_beside
from ..grids import Rows, flat, split_rows
from ..model import Puzzle
from .check import checked
from .deadline import Deadline, Timeout
from .propagate import Grid
from .result import VerifyResult

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Optional

__all__ = ["early_multiple", "worth_guessing", "guess_two", "swap_neighbour", "worth_searching", "two_solutions"]

BLACK_SHARE = 0.45  # share of black cells from which guessing pays: on sparser TAAI puzzles it mostly dead-ends
ROUNDS = 4  # belief-propagation rounds before the first try; each later try runs twice as many more
TRIES = 4  # tries before the puzzle goes back to probing and SAT
FAILURES = 30  # dead ends the first try may meet; each later try may meet four times as many
MORE = 30  # dead ends the search may meet going on past its first solution when no cycle of block moves finds another
CYCLE_ROWS = 3  # rows in the longest cycle of block moves tried (2: the 2x2 swap alone)

BUDGET = 2000
"""Assumptions the colour search may make; a random 30x30 colour residue takes 20-60 to give two solutions."""

STEPS = 20_000
"""Line work the colour search may do (propagate.c's steps: one per line, more for long lines of many blocks).
A random 30x30 colour residue takes 60-250; the cap keeps a large unique puzzle's detour to tens of ms."""

MAX_OPEN = 50_000
"""Open cells after line logic above which the colour search is not tried (a 60x60 random colour grid leaves 1,900
and gets its two solutions in 9 ms instead of 0.2 s; past the budgets a miss costs tens of milliseconds)."""


def early_multiple(puzzle: Puzzle, grid: Grid, state, reference: Optional[Rows], deadline: Deadline,
                   stats: dict) -> tuple[Optional[VerifyResult], Optional[Rows]]:
    """Before probing: ``multiple`` from the black-and-white guess (:func:`guess_two`) or the colour search
    (:func:`two_solutions`), else ``None``; and the reference the full road goes on with (the guessed solution
    when no second one turned up). ``state`` is the session's state after line logic."""
    if reference is None and worth_guessing(puzzle, grid):
        reference, second = guess_two(puzzle, grid, state.masks, deadline, stats)
        if second is not None:
            return VerifyResult("multiple", solution=reference, second_solution=second, difficulty="search",
                                stats=stats), reference
    if worth_searching(puzzle, grid, state.open_after_line):
        try:
            found = two_solutions(grid, state.masks, deadline)
        except Timeout:
            return VerifyResult("timeout", message="gave up during search", stats=stats), reference
        if found is not None:
            return _searched_multiple(puzzle, found, reference, stats), reference
    return None, reference


def worth_guessing(puzzle: Puzzle, grid: Grid) -> bool:
    """Whether a black-and-white puzzle that line logic left open is worth guessing at first: about half black.

    On the TAAI 2011 set the guess found two solutions for nearly every puzzle
    with at least 45 % black cells, and dead-ended on three quarters of the
    sparser ones, where it only added its cost to the full road. How much
    line logic left open does not matter: on the random 30x30 grids where it
    left less than half, the guess found two solutions in 1 ms each, where
    probing and SAT took 5 ms.
    """
    if not grid.native or len(puzzle.palette) != 2:
        return False
    black = sum(length for clue in puzzle.rows for length, _ in clue)
    return black >= BLACK_SHARE * puzzle.height * puzzle.width


def worth_searching(puzzle: Puzzle, grid: Grid, open_cells: int) -> bool:
    """Whether :func:`two_solutions` should run first: a colour puzzle with a small residue, and the C module."""
    return grid.native and len(puzzle.palette) > 2 and 0 < open_cells <= MAX_OPEN
def guess_two(puzzle: Puzzle, grid: Grid, masks, deadline: Deadline,
              stats: dict) -> tuple[Optional[Rows], Optional[Rows]]:
    """A guessed solution (or None), and another one near it (or None), from the line-logic fixpoint ``masks``.

    The guess decides the cells belief propagation is surest of first, each
    to its likeliest colour. The second is a cycle of block moves away
    (:func:`swap_neighbour`), else where the search goes on past the first.
    The first is checked against every clue, the second against those of the
    lines where it differs. Without a second one, the guess can stand in for
    SAT's first solution: the search then only has to block it. ``stats``
    gets what happened (``guess``: none, one or two), how the second was
    found (``second_by``: cycle or search) and how long it took.
    """
    start = time.monotonic()
    first = second = how = None
    try:
        first, second, how = grid.c_lines.guess_two(masks, ROUNDS, TRIES, FAILURES, MORE, CYCLE_ROWS,
                                                     -1.0 if deadline.end is None else deadline.end)
    except TimeoutError:
        pass  # the full road meets the deadline too, and says so
    if first is not None:
        first = checked(puzzle, split_rows(first, puzzle.width))
    if second is not None:
        second = split_rows(second, puzzle.width)
        if not satisfies_beside(puzzle, second, first):  # pragma: no cover - would be a solver bug
            raise AssertionError("solver produced a grid that breaks the clues")
        stats["second_by"] = how
    stats["guess"] = "none" if first is None else "two" if second else "one"
    stats["guess_seconds"] = round(time.monotonic() - start, 4)
    return first, second


def swap_neighbour(grid: Grid, rows: Rows, masks=None) -> Optional[Rows]:
    """Another grid with the same clues as the 0/1 grid ``rows``, made by moving blocks by one cell.

    Each row of a cycle moves one block by one cell (emptying one cell, filling
    its neighbour's neighbour or its neighbour), and so does each column it
    crosses; the cycle closes when the last column move lands in the row it
    started from. Rows and columns are used once each, so every line's clue
    stays as it was. Only cells open in ``masks`` (every cell by default) may
    change. ``None`` when no cycle of up to :data:`CYCLE_ROWS` rows exists.
    """
    if masks is None:
        masks = array("I", [3]) * (grid.height * grid.width)
    found = grid.c_lines.move_cycle(b"".join(rows), masks, CYCLE_ROWS)
    return None if found is None else split_rows(found, grid.width)


def two_solutions(grid: Grid, masks, deadline: Deadline) -> Optional[tuple[Rows, Rows, str]]:
    """Two different solutions from the line-logic fixpoint ``masks`` and how the second was found
    (``"swap"`` or ``"search"``), or ``None`` when the colour search does not find two.

    Raises :class:`~nonogen.solve.deadline.Timeout` at the deadline.
    """
    found, _, swapped = grid.two_solutions(array("I", masks), BUDGET, STEPS, deadline)
    if len(found) < 2:
        return None
    return split_rows(found[0], grid.width), split_rows(found[1], grid.width), "swap" if swapped else "search"


def _searched_multiple(puzzle: Puzzle, found: tuple[Rows, Rows, str], reference: Optional[Rows],
                       stats: dict) -> VerifyResult:
    """``multiple`` from :func:`two_solutions`' two grids. With a ``reference`` (the grid whose uniqueness is
    asked) it comes first, then one of the two that differs from it. Both grids pass the clue check."""
    first, second, how = found
    if reference is not None:
        first, second = reference, first if flat(first) != flat(reference) else second
    checked(puzzle, first)
    checked(puzzle, second)
    stats.update(shortcut="two solutions before probing", second_by=how)
    return VerifyResult("multiple", solution=first, second_solution=second, difficulty="search", stats=stats)
