"""Clue derivation and checking: the rules of RULES.md as small pure functions."""
from __future__ import annotations

from typing import Callable, Iterator, Optional, Sequence, Union

import numpy as np

from .model import AXES, BW_PALETTE, Clue3D, Color, LineClue, Puzzle, Puzzle3D

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
    return _row_clues(np.asarray(line, dtype=np.int64).reshape(1, -1))[0]


def _row_clues(grid: np.ndarray) -> tuple[LineClue, ...]:
    """The clue of every row of a 2D grid, with one pass of numpy over the whole grid.

    Every reported solution is checked this way, so it is in the hot path of a
    batch: per-line numpy calls cost 3 % of the tournament sets' time.
    """
    height, width = grid.shape
    starts = np.ones((height, width), dtype=bool)
    starts[:, 1:] = grid[:, 1:] != grid[:, :-1]
    rows, cols = np.nonzero(starts)  # row-major: the runs of each row in order
    if not cols.size:
        return ((),) * height
    ends = np.empty_like(cols)
    ends[:-1] = cols[1:]
    ends[np.append(rows[1:] != rows[:-1], True)] = width  # a row's last run ends at the edge
    colours = grid[rows, cols]
    filled = colours != 0
    clues: list[list[tuple[int, int]]] = [[] for _ in range(height)]
    for row, length, colour in zip(rows[filled].tolist(), (ends - cols)[filled].tolist(), colours[filled].tolist()):
        clues[row].append((length, colour))
    return tuple(tuple(clue) for clue in clues)


def derive_clues(grid: np.ndarray) -> tuple[tuple[LineClue, ...], tuple[LineClue, ...]]:
    """Row and column clues of a grid of colour indices (booleans count as colour 1).

    >>> rows, cols = derive_clues(np.array([[1, 1], [0, 1]]))
    >>> rows
    (((2, 1),), ((1, 1),))
    >>> cols
    (((1, 1),), ((2, 1),))
    """
    grid = np.asarray(grid).astype(np.int64)
    if grid.ndim != 2:
        raise ValueError("a 2D grid is needed")
    return _row_clues(grid), _row_clues(np.ascontiguousarray(grid.T))


def puzzle_from_grid(
    grid: np.ndarray,
    palette: Optional[Sequence[Color]] = None,
    givens: Sequence[tuple[int, int, int]] = (),
    **meta: str,
) -> Puzzle:
    """The puzzle whose goal is ``grid``: clues derived, goal kept."""
    grid = np.asarray(grid).astype(np.uint8)
    rows, cols = derive_clues(grid)
    return Puzzle(rows, cols, tuple(palette or BW_PALETTE), goal=grid, givens=tuple(givens), meta=meta)


def satisfies(puzzle: Puzzle, grid: np.ndarray) -> bool:
    """Whether ``grid`` meets every clue and given of ``puzzle``: the check every reported solution passes."""
    grid = np.asarray(grid)
    if grid.shape != (puzzle.height, puzzle.width):
        return False
    rows, cols = derive_clues(grid)
    return (
        rows == puzzle.rows
        and cols == puzzle.cols
        and all(int(grid[r, c]) == v for r, c, v in puzzle.givens)
    )


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
    line = np.asarray(line, dtype=bool)
    count = int(line.sum())
    groups = int(np.count_nonzero(line[1:] & ~line[:-1]) + (line[0] if line.size else 0))
    return count, max(1, min(groups, 3))


def derive_clues_3d(cells: np.ndarray) -> dict[str, tuple[tuple[Clue3D, ...], ...]]:
    """Every line's clue of a boolean box ``cells[x, y, z]``, in the ``nonogen-3d`` layout."""
    cells = np.asarray(cells, dtype=bool)
    X, Y, Z = cells.shape
    return {
        "x": tuple(tuple(line_clue_3d(cells[:, y, z]) for z in range(Z)) for y in range(Y)),
        "y": tuple(tuple(line_clue_3d(cells[x, :, z]) for z in range(Z)) for x in range(X)),
        "z": tuple(tuple(line_clue_3d(cells[x, y, :]) for y in range(Y)) for x in range(X)),
    }


def puzzle3d_from_cells(cells: np.ndarray, **meta: str) -> Puzzle3D:
    """The level with every clue shown whose goal is ``cells``."""
    cells = np.asarray(cells, dtype=bool)
    return Puzzle3D(cells.shape, derive_clues_3d(cells), goal=cells, meta=meta)


def valid_goal(puzzle: Union[Puzzle, Puzzle3D]) -> Optional[np.ndarray]:
    """The goal stored with the puzzle when it meets the clues (a goal that does not is no answer), else ``None``."""
    meets = satisfies_3d if isinstance(puzzle, Puzzle3D) else satisfies
    if puzzle.goal is not None and meets(puzzle, puzzle.goal):
        return np.asarray(puzzle.goal)
    return None


def satisfies_3d(puzzle: Puzzle3D, cells: np.ndarray) -> bool:
    """Whether ``cells`` meets every shown clue and given of ``puzzle``."""
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


def line_cells(size: Sequence[int], line: LineRef) -> np.ndarray:
    """Flat C-order indices of the cells of ``line``, in increasing coordinate order.

    >>> line_cells((2, 3, 4), ("y", 1, 2)).tolist()
    [14, 18, 22]
    """
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
