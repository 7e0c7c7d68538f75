"""Clue derivation and checking of 2D puzzles: the rules of RULES.md as small pure functions
(3D: :mod:`nonogen.clues3d`)."""
from __future__ import annotations

from collections import Counter
from itertools import chain
from operator import eq

from .grids import Rows, flat, rows_of, shape_of
from .model import BW_PALETTE, ClueItem, Color, LineClue, Puzzle

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Iterable, Optional, Sequence

__all__ = [
    "line_clue",
    "derive_clues",
    "puzzle_from_grid",
    "satisfies",
    "satisfies_beside",
    "clue_problems",
]


def line_clue(line: Iterable[int]) -> LineClue:
    """Run-length encode one line, dropping background runs.

    A run ends where the colour changes, even with no background between.

    >>> line_clue([0, 1, 1, 0, 1])
    ((2, 1), (1, 1))
    >>> line_clue([2, 2, 1, 0, 0])
    ((2, 2), (1, 1))
    >>> line_clue([0, 0])
    ()
    """
    return _clue(bytes(map(int, line)))  # not bytes(line): a numpy line would give its raw memory


def _clue(line: bytes) -> LineClue:
    """The clue of one line of colour indices, at C speed for the common case.

    Every reported solution is checked this way, so it is in the hot path of a
    batch: splitting at the background and counting leaves Python only one
    step per block.
    """
    clue: list[ClueItem] = []
    for run in line.split(b"\0"):
        if not run:
            continue
        colour = run[0]
        if run.count(colour) == len(run):  # one colour: the usual block
            clue.append((len(run), colour))
            continue
        start = 0  # blocks of different colours touch (a plain loop: twice as fast as groupby here)
        for at, value in enumerate(run):
            if value != colour:
                clue.append((at - start, colour))
                start, colour = at, value
        clue.append((len(run) - start, colour))
    return tuple(clue)


def _clues(rows: Rows) -> tuple[tuple[LineClue, ...], tuple[LineClue, ...]]:
    """Row and column clues of a grid's rows (columns are strided slices of the joined rows)."""
    cells, width = flat(rows), shape_of(rows)[1]
    return tuple(_clue(row) for row in rows), tuple(_clue(cells[c::width]) for c in range(width))


def derive_clues(grid: Any) -> tuple[tuple[LineClue, ...], tuple[LineClue, ...]]:
    """Row and column clues of a grid of colour indices (booleans count as colour 1).

    >>> rows, cols = derive_clues([[1, 1], [0, 1]])
    >>> rows
    (((2, 1),), ((1, 1),))
    >>> cols
    (((1, 1),), ((2, 1),))
    """
    return _clues(rows_of(grid))


def puzzle_from_grid(
    grid: Any,
    palette: Optional[Sequence[Color]] = None,
    givens: Sequence[tuple[int, int, int]] = (),
    **meta: str,
) -> Puzzle:
    """The puzzle whose goal is ``grid``: clues derived, goal kept."""
    rows = rows_of(grid)
    row_clues, col_clues = _clues(rows)
    return Puzzle(row_clues, col_clues, tuple(palette or BW_PALETTE), goal=rows, givens=tuple(givens), meta=meta)


def satisfies(puzzle: Puzzle, grid: Any) -> bool:
    """Whether ``grid`` meets every clue and given of ``puzzle``: the check every reported solution passes."""
    try:
        rows = rows_of(grid)
    except (ValueError, TypeError):
        return False
    if shape_of(rows) != (puzzle.height, puzzle.width):
        return False
    return _clues(rows) == (puzzle.rows, puzzle.cols) and all(rows[r][c] == v for r, c, v in puzzle.givens)


def satisfies_beside(puzzle: Puzzle, grid: Any, solution: Any) -> bool:
    """:func:`satisfies` for a ``grid`` next to a known ``solution``: only the lines where they differ are read.

    A second solution usually differs from the first in a few cells, so this
    checks it for the price of a few lines instead of all of them.

    >>> p = puzzle_from_grid([[1, 0], [0, 1]])
    >>> satisfies_beside(p, [[0, 1], [1, 0]], [[1, 0], [0, 1]]), satisfies_beside(p, [[1, 1], [0, 1]], [[1, 0], [0, 1]])
    (True, False)
    """
    try:
        rows, known = rows_of(grid), rows_of(solution)
    except (ValueError, TypeError):
        return False
    if shape_of(rows) != shape_of(known) or shape_of(rows) != (puzzle.height, puzzle.width):
        return False
    rows_changed = [r for r, (row, was) in enumerate(zip(rows, known, strict=True)) if row != was]
    cols_changed = {c for r in rows_changed
                    for c, (a, b) in enumerate(zip(rows[r], known[r], strict=True)) if a != b}
    cells, width = flat(rows), puzzle.width
    return (all(_clue(rows[r]) == puzzle.rows[r] for r in rows_changed)
            and all(_clue(cells[c::width]) == puzzle.cols[c] for c in cols_changed)
            and all(rows[r][c] == v for r, c, v in puzzle.givens))


def clue_problems(puzzle: Puzzle) -> list[str]:
    """Reasons, cheap to find, why a puzzle can have no solution (empty list: none found).

    Checks that each line's clue fits its length (same-colour neighbours need a
    gap) and that every colour's row total equals its column total.

    >>> clue_problems(Puzzle(rows=[[(3, 1)]], cols=[[(1, 1)]] * 2))
    ['row 1: clue needs 3 cells but the line has 2', 'colour black: rows hold 3 cells, columns hold 2']
    """
    problems = []
    for what, lines, length in (("row", puzzle.rows, puzzle.width), ("column", puzzle.cols, puzzle.height)):
        for i, clue in enumerate(lines):
            need = min_length(clue)
            if need > length:
                problems.append(f"{what} {i + 1}: clue needs {need} cells but the line has {length}")
    row_totals, col_totals = _colour_totals(puzzle.rows), _colour_totals(puzzle.cols)
    for color in range(1, puzzle.n_colors + 1):
        in_rows, in_cols = row_totals.get(color, 0), col_totals.get(color, 0)
        if in_rows != in_cols:
            name = puzzle.palette[color].name
            problems.append(f"colour {name}: rows hold {in_rows} cells, columns hold {in_cols}")
    return problems


def _colour_totals(lines: Sequence[LineClue]) -> dict[int, int]:
    """Cells of each colour the clue lines hold: the distinct blocks counted at C speed, then weighed."""
    totals: dict[int, int] = {}
    for (n, c), times in Counter(chain.from_iterable(lines)).items():
        totals[c] = totals.get(c, 0) + n * times
    return totals


def min_length(clue: LineClue) -> int:
    """Fewest cells a line needs for ``clue``: block lengths plus one gap between same colours.

    >>> min_length(((2, 1), (1, 1), (1, 2)))
    5
    """
    colours = [c for _, c in clue]
    return sum([n for n, _ in clue]) + sum(map(eq, colours, colours[1:]))
