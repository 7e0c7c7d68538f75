"""Clue derivation and checking of Picross 3D levels, and the geometry of a box's lines.

The twin of :mod:`nonogen.clues`, apart because boxes are numpy arrays.
"""
from __future__ import annotations

from typing import Callable, Iterator, Optional, Sequence, Union

import numpy as np

from .clues import satisfies
from .model import Puzzle
from .model3d import AXES, Clue3D, Puzzle3D

__all__ = [
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


def line_clue_3d(line: Union[Sequence[bool], np.ndarray]) -> Clue3D:
    """Count and group class of one line of cubes: groups 1 (plain, also for 0), 2 (circle), 3 (square).

    >>> line_clue_3d([1, 1, 0, 1]), line_clue_3d([0, 0]), line_clue_3d([1, 0, 1, 0, 1])
    ((3, 2), (0, 1), (3, 3))
    """
    cubes = np.asarray(line, dtype=bool)
    count = int(cubes.sum())
    groups = int(np.count_nonzero(cubes[1:] & ~cubes[:-1]) + (cubes[0] if cubes.size else 0))
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
    if puzzle.goal is None:
        return None
    meets = satisfies_3d(puzzle, puzzle.goal) if isinstance(puzzle, Puzzle3D) else satisfies(puzzle, puzzle.goal)
    return puzzle.goal if meets else None


def satisfies_3d(puzzle: Puzzle3D, cells: np.ndarray) -> bool:
    """Whether ``cells`` meets every shown clue and given of ``puzzle``."""
    cells = np.asarray(cells, dtype=bool)
    if cells.shape != puzzle.size:
        return False
    full = derive_clues_3d(cells)
    for axis in AXES:
        for row_have, row_want in zip(full[axis], puzzle.clues[axis], strict=True):
            if any(w is not None and w != h for h, w in zip(row_have, row_want, strict=True)):
                return False
    return all(cells[x, y, z] == bool(v) for x, y, z, v in puzzle.givens)


# --- line geometry -------------------------------------------------------------------------------

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
