"""A cheap road to ``multiple`` for black-and-white puzzles that line logic leaves open.

On a random 30x30 grid (each cell black with probability 1/2) line logic
decides only a sixth of the cells, and nearly every such puzzle has several
solutions. The full road there, probing every open cell and then SAT, spends
two thirds of its time probing. This one guesses a solution instead (a
depth-first search in C line logic, cells and colours in the order of belief
propagation's confidence) and looks for a second one next to it: blocks that
move by one cell along a closed cycle of rows and columns (the smallest is a
2x2 ``[[1, 0], [0, 1]]`` turned into ``[[0, 1], [1, 0]]``), else by going on
with the search past the first. All of that is one call of the C module
(guess.c): about 1 ms on a random 30x30 grid. A grid found so is checked
against every clue, so it proves ``multiple`` without any SAT call; when
nothing is found the caller goes the full road, with the guessed solution in
hand as its first.
"""
from __future__ import annotations

import time
from array import array

from ..clues import satisfies_beside
from ..grids import Rows, split_rows
from ..model import Puzzle
from .check import checked
from .deadline import Deadline, Timeout
from . import several
from .propagate import Grid
from .result import VerifyResult

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Optional

__all__ = ["early_multiple", "worth_guessing", "guess_two", "swap_neighbour"]

BLACK_SHARE = 0.45  # share of black cells from which guessing pays: on sparser TAAI puzzles it mostly dead-ends
ROUNDS = 4  # belief-propagation rounds before the first try; each later try runs twice as many more
TRIES = 4  # tries before the puzzle goes back to probing and SAT
FAILURES = 30  # dead ends the first try may meet; each later try may meet four times as many
MORE = 30  # dead ends the search may meet going on past its first solution when no cycle of block moves finds another
CYCLE_ROWS = 3  # rows in the longest cycle of block moves tried (2: the 2x2 swap alone)


def early_multiple(puzzle: Puzzle, grid: Grid, state, reference: Optional[Rows], deadline: Deadline,
                   stats: dict) -> tuple[Optional[VerifyResult], Optional[Rows]]:
    """Before probing: ``multiple`` from the black-and-white guess (:func:`guess_two`) or the colour search
    (:mod:`.several`), else ``None``; and the reference the full road goes on with (the guessed solution when no
    second one turned up). ``state`` is the session's state after line logic."""
    if reference is None and worth_guessing(puzzle, grid):
        reference, second = guess_two(puzzle, grid, state.masks, deadline, stats)
        if second is not None:
            return VerifyResult("multiple", solution=reference, second_solution=second, difficulty="search",
                                stats=stats), reference
    if several.worth_trying(puzzle, grid, state.open_after_line):
        try:
            return several.multiple_early(puzzle, grid, state.masks, reference, deadline, stats), reference
        except Timeout:
            return VerifyResult("timeout", message="gave up during search", stats=stats), reference
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


def guess_two(puzzle: Puzzle, grid: Grid, masks, deadline: Deadline, stats: dict) -> tuple[Optional[Rows], Optional[Rows]]:
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
    first = second = None
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
