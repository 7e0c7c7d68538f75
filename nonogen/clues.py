"""Clue derivation and checking: the rules of RULES.md as small pure functions."""
from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Sequence, Union

from .grids import Rows, flat, rows_of, shape_of
from .model import AXES, BW_PALETTE, ClueItem, Clue3D, Color, LineClue, Puzzle, Puzzle3D

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = [
    "line_clue",
    "derive_clues",
    "puzzle_from_grid",
    "satisfies",
    "clue_problems",
    "line_clue_3d",
    "derive_clues_3d",
    "puzzle3d_from_cells",
    "satisfies_3d",
    "valid_goal",
    "LineRef",
    "all_lines",
    "line_cells",
    "clue_at",
    "with_clues",
]


def line_clue(line: Sequence[int]) -> LineClue:
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
        if run.count(run[0]) == len(run):  # one colour: the usual block
            clue.append((len(run), run[0]))
        else:  # blocks of different colours touch
            clue.extend((sum(1 for _ in group), colour) for colour, group in groupby(run))
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
    for color in range(1, puzzle.n_colors + 1):
        in_rows = sum(n for line in puzzle.rows for n, c in line if c == color)
        in_cols = sum(n for line in puzzle.cols for n, c in line if c == color)
        if in_rows != in_cols:
            name = puzzle.palette[color].name
            problems.append(f"colour {name}: rows hold {in_rows} cells, columns hold {in_cols}")
    return problems


def min_length(clue: LineClue) -> int:
    """Fewest cells a line needs for ``clue``: block lengths plus one gap between same colours.

    >>> min_length(((2, 1), (1, 1), (1, 2)))
    5
    """
    gaps = sum(1 for a, b in zip(clue, clue[1:]) if a[1] == b[1])
    return sum(n for n, _ in clue) + gaps


# --- Picross 3D ------------------------------------------------------------------------------


def line_clue_3d(line: Sequence[bool]) -> Clue3D:
    """Count and group class of one line of cubes: groups 1 (plain, also for 0), 2 (circle), 3 (square).

    >>> line_clue_3d([1, 1, 0, 1]), line_clue_3d([0, 0]), line_clue_3d([1, 0, 1, 0, 1])
    ((3, 2), (0, 1), (3, 3))
    """
    import numpy as np

    line = np.asarray(line, dtype=bool)
    count = int(line.sum())
    groups = int(np.count_nonzero(line[1:] & ~line[:-1]) + (line[0] if line.size else 0))
    return count, max(1, min(groups, 3))


def derive_clues_3d(cells: "np.ndarray") -> dict[str, tuple[tuple[Clue3D, ...], ...]]:
    """Every line's clue of a boolean box ``cells[x, y, z]``, in the ``nonogen-3d`` layout."""
    import numpy as np

    cells = np.asarray(cells, dtype=bool)
    X, Y, Z = cells.shape
    return {
        "x": tuple(tuple(line_clue_3d(cells[:, y, z]) for z in range(Z)) for y in range(Y)),
        "y": tuple(tuple(line_clue_3d(cells[x, :, z]) for z in range(Z)) for x in range(X)),
        "z": tuple(tuple(line_clue_3d(cells[x, y, :]) for y in range(Y)) for x in range(X)),
    }


def puzzle3d_from_cells(cells: "np.ndarray", **meta: str) -> Puzzle3D:
    """The level with every clue shown whose goal is ``cells``."""
    import numpy as np

    cells = np.asarray(cells, dtype=bool)
    return Puzzle3D(cells.shape, derive_clues_3d(cells), goal=cells, meta=meta)


def valid_goal(puzzle: Union[Puzzle, Puzzle3D]) -> Optional["np.ndarray"]:
    """The goal stored with the puzzle when it meets the clues (a goal that does not is no answer), else ``None``."""
    meets = satisfies_3d if isinstance(puzzle, Puzzle3D) else satisfies
    if puzzle.goal is not None and meets(puzzle, puzzle.goal):
        return puzzle.goal
    return None


def satisfies_3d(puzzle: Puzzle3D, cells: "np.ndarray") -> bool:
    """Whether ``cells`` meets every shown clue and given of ``puzzle``."""
    import numpy as np

    cells = np.asarray(cells, dtype=bool)
    if cells.shape != puzzle.size:
        return False
    full = derive_clues_3d(cells)
    for axis in AXES:
        for row_have, row_want in zip(full[axis], puzzle.clues[axis]):
            if any(w is not None and w != h for h, w in zip(row_have, row_want)):
                return False
    return all(cells[x, y, z] == bool(v) for x, y, z, v in puzzle.givens)


# --- Picross 3D line geometry ------------------------------------------------------------------

LineRef = tuple[str, int, int]
"""A line as ``(axis, i, j)``: ``("x", y, z)`` is ``cells[:, y, z]``, ``("y", x, z)``, ``("z", x, y)``."""


def all_lines(size: Sequence[int]) -> Iterator[LineRef]:
    """Every line of a box in ``nonogen-3d`` order (x lines, then y, then z).

    >>> len(list(all_lines((3, 5, 4))))
    47
    """
    X, Y, Z = size
    dims = {"x": (Y, Z), "y": (X, Z), "z": (X, Y)}
    for axis in AXES:
        a, b = dims[axis]
        for i in range(a):
            for j in range(b):
                yield axis, i, j


def line_cells(size: Sequence[int], line: LineRef) -> "np.ndarray":
    """Flat C-order indices of the cells of ``line``, in increasing coordinate order.

    >>> line_cells((2, 3, 4), ("y", 1, 2)).tolist()
    [14, 18, 22]
    """
    import numpy as np

    X, Y, Z = size
    axis, i, j = line
    if axis == "x":
        return np.arange(X) * Y * Z + i * Z + j
    if axis == "y":
        return i * Y * Z + np.arange(Y) * Z + j
    return i * Y * Z + j * Z + np.arange(Z)


def clue_at(puzzle: Puzzle3D, line: LineRef) -> Optional[Clue3D]:
    axis, i, j = line
    return puzzle.clues[axis][i][j]


def with_clues(puzzle: Puzzle3D, shown: Callable[[LineRef], bool]) -> Puzzle3D:
    """A copy of ``puzzle`` whose clue on line ``l`` is kept only where ``shown(l)``."""
    clues = {
        axis: tuple(
            tuple(c if shown((axis, i, j)) else None for j, c in enumerate(row))
            for i, row in enumerate(puzzle.clues[axis])
        )
        for axis in AXES
    }
    return puzzle.replace(clues=clues)
