"""Two solutions before probing: the short way to ``multiple`` for colour puzzles with many solutions.

A random colour grid (each cell background or one of a few colours) nearly
always has several solutions, and line logic leaves a small residue: 50-150
open cells of a 30x30 grid. Probing that residue and computing belief
phases for the SAT solver cost four fifths of the verdict, and neither can
change it: probing only fixes cells every solution shares, so it never
solves a puzzle with two solutions nor finds it unsolvable, and phases only
order the search. So after line logic a colour puzzle is first asked, for a
small conflict budget, for two solutions of the residue; when it has them
the verdict is ``multiple`` (difficulty ``search``, as the full path would
say). Otherwise nothing is decided here and the full path goes on from the
same line-logic state, so unique and unsolvable puzzles get the verdict and
difficulty they always got.

The second solution is first looked for next to the first: two rows and two
columns whose four crossing cells hold colours ``X Y / Y X`` can often swap to
``Y X / X Y`` without changing any clue (:func:`swapped`). Only when no such
swap exists does the SAT solver, which holds everything it learned about the
first solution, look for a solution that differs from it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..clues import _clue
from ..grids import Rows, flat, split_rows
from ..model import Puzzle
from .deadline import Deadline, solve_budgeted

if TYPE_CHECKING:  # pragma: no cover
    from .cnf import Encoding

__all__ = ["two_solutions", "swapped", "QUICK_CONFLICTS", "QUICK_MAX_OPEN"]

QUICK_CONFLICTS = 1000
"""Conflicts each of the two searches may take; a random 30x30 residue needs a few dozen at most."""

QUICK_MAX_OPEN = 4000
"""Open cells after line logic above which the short way is not tried: probing first pays off there."""


def worth_trying(puzzle: Puzzle, open_cells: int) -> bool:
    """Whether :func:`two_solutions` should run first: a colour puzzle with a small residue."""
    return len(puzzle.palette) > 2 and 0 < open_cells <= QUICK_MAX_OPEN


def two_solutions(
    puzzle: Puzzle, enc: "Encoding", reference: Optional[Rows], deadline: Deadline
) -> Optional[tuple[Rows, Rows]]:
    """Two different solutions of the residue ``enc`` encodes, or ``None`` when they are not found cheaply.

    With a ``reference`` (a grid that meets the clues) the first is the
    reference itself and only a different one is searched for.
    """
    if reference is not None:
        second = swapped(puzzle, reference, enc.undecided)
        if second is not None:
            return reference, second
    with enc.new_solver(deadline) as solver:
        if reference is not None:
            solver.add_clause(enc.blocking_clause(reference))
            if not solve_budgeted(solver, deadline, QUICK_CONFLICTS):
                return None
            return reference, enc.decode(solver.get_model())
        if not solve_budgeted(solver, deadline, QUICK_CONFLICTS):
            return None
        model = solver.get_model()
        first = enc.decode(model)
        second = swapped(puzzle, first, enc.undecided)
        if second is not None:
            return first, second
        solver.add_clause(enc.blocking_clause(first))
        solver.set_phases(model)  # a second solution is usually a few cells away from the first
        if not solve_budgeted(solver, deadline, QUICK_CONFLICTS):
            return None
        return first, enc.decode(solver.get_model())


def swapped(puzzle: Puzzle, grid: Rows, open_cells: list[int]) -> Optional[Rows]:
    """Another solution that differs from ``grid`` in four cells, or ``None`` when there is none.

    Cells ``(r1, c1)`` and ``(r2, c2)`` of colour X and ``(r1, c2)`` and
    ``(r2, c1)`` of colour Y (X != Y) may trade colours; the swap keeps every
    colour count of the four lines, and when the clues of rows r1, r2 and
    columns c1, c2 come out the same, the new grid is a solution. Only cells
    line logic left open can differ between solutions, so only they are tried.
    """
    W = puzzle.width
    cells = bytearray(flat(grid))
    by_row: dict[int, set[int]] = {}
    for cell in open_cells:
        by_row.setdefault(cell // W, set()).add(cell % W)
    rows = sorted(r for r, cols in by_row.items() if len(cols) > 1)
    for i, r1 in enumerate(rows):
        cols1 = sorted(by_row[r1])
        base1 = r1 * W
        for r2 in rows[i + 1:]:
            base2, cols2 = r2 * W, by_row[r2]
            common = [c for c in cols1 if c in cols2 and cells[base2 + c] != cells[base1 + c]]
            for j, c1 in enumerate(common):
                x, y = cells[base1 + c1], cells[base2 + c1]
                for c2 in common[j + 1:]:
                    if cells[base1 + c2] == y and cells[base2 + c2] == x and _swap_keeps_clues(puzzle, cells, r1, r2, c1, c2):
                        return split_rows(bytes(cells), W)
    return None


def _swap_keeps_clues(puzzle: Puzzle, cells: bytearray, r1: int, r2: int, c1: int, c2: int) -> bool:
    """Swap the four cells; keep the swap (True) when the four lines' clues are unchanged, else undo it."""
    W, H = puzzle.width, puzzle.height
    a, b, c, d = r1 * W + c1, r1 * W + c2, r2 * W + c1, r2 * W + c2
    cells[a], cells[b], cells[c], cells[d] = cells[b], cells[a], cells[d], cells[c]
    view = bytes(cells)
    if (_clue(view[r1 * W:(r1 + 1) * W]) == puzzle.rows[r1] and _clue(view[r2 * W:(r2 + 1) * W]) == puzzle.rows[r2]
            and _clue(view[c1::W][:H]) == puzzle.cols[c1] and _clue(view[c2::W][:H]) == puzzle.cols[c2]):
        return True
    cells[a], cells[b], cells[c], cells[d] = cells[b], cells[a], cells[d], cells[c]
    return False
