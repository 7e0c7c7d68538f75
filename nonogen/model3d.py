"""The Picross 3D level: a box of cubes with a clue (count and group class) per line, or none where hidden.

The twin of :mod:`nonogen.model`'s 2D puzzle, in a module of its own because
its goal and colours are numpy arrays, while a 2D puzzle needs no numpy.
"""
from __future__ import annotations

import json
from typing import Any, Iterable, Mapping, Optional, Sequence

import numpy as np

from .errors import PuzzleError
from .model import Frozen
from .palette import Color

__all__ = ["AXES", "Clue3D", "Puzzle3D"]

AXES = ("x", "y", "z")

Clue3D = tuple[int, int]
"""A Picross 3D line clue ``(count, groups)``: groups is 1 (plain), 2 (circle) or 3 (square, 3 or more)."""


def _frozen_clues(clues: Mapping[str, Any], size: tuple[int, int, int]) -> dict[str, tuple]:
    """The clue tables of a box, checked against its size and the clue rules, as tuples."""
    X, Y, Z = size
    shapes = {"x": (Y, Z), "y": (X, Z), "z": (X, Y)}
    lengths = {"x": X, "y": Y, "z": Z}
    frozen = {}
    for axis in AXES:
        table = clues.get(axis)
        if table is None or len(table) != shapes[axis][0] or any(len(r) != shapes[axis][1] for r in table):
            raise PuzzleError(f"clues.{axis} must be {shapes[axis][0]} lists of {shapes[axis][1]} entries")
        frozen[axis] = tuple(tuple(_clue3d(clue, lengths[axis], axis) for clue in row) for row in table)
    return frozen


def _clue3d(clue: Optional[Sequence[int]], length: int, axis: str) -> Optional[Clue3D]:
    if clue is None:
        return None
    count, groups = int(clue[0]), int(clue[1])
    if not 0 <= count <= length or groups not in (1, 2, 3):
        raise PuzzleError(f"clue {clue!r} does not fit a line of {length} along {axis}")
    if 0 < count < groups or (count == 0 and groups != 1):
        raise PuzzleError(f"clue {clue!r}: {count} cubes cannot form {groups} groups")
    return count, groups


def _same_optional_array(a: Optional[np.ndarray], b: Optional[np.ndarray]) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return np.array_equal(a, b)


def _readonly(array: np.ndarray) -> np.ndarray:
    array = np.array(array, copy=True)
    array.setflags(write=False)
    return array


class Puzzle3D(Frozen):
    """A Picross 3D level: a box ``size = (X, Y, Z)`` with a clue (or ``None``, hidden) per line.

    ``clues["x"]`` has shape ``(Y, Z)`` and clues the line ``cells[:, y, z]``;
    ``clues["y"]`` has shape ``(X, Z)``; ``clues["z"]`` has shape ``(X, Y)``
    (the ``nonogen-3d`` contract). Each entry is a :data:`Clue3D` or ``None``.

    The solved model's look, for renderers and games: ``palette`` (entry 0
    stands for "no colour") and ``colors``, an ``(X, Y, Z)`` array of palette
    indices, non-zero only where the goal keeps a cube. Colours never
    constrain the solution.
    """

    _FIELDS = ("size", "clues", "goal", "givens", "meta", "palette", "colors")
    dimensions = 3
    kind_name = "Picross 3D level"  #: what people call this kind of puzzle, in messages and on title pages
    size: tuple[int, int, int]
    clues: Mapping[str, tuple[tuple[Optional[Clue3D], ...], ...]]
    goal: Optional[np.ndarray]
    givens: tuple[tuple[int, int, int, int], ...]
    meta: Mapping[str, str]
    palette: tuple[Color, ...]
    colors: Optional[np.ndarray]

    def __init__(
        self,
        size: Sequence[int],
        clues: Mapping[str, Sequence[Sequence[Optional[Sequence[int]]]]],
        goal: Any = None,
        givens: Iterable[Sequence[int]] = (),
        meta: Optional[Mapping[str, str]] = None,
        palette: Sequence[Color] = (),
        colors: Any = None,
    ):
        box = tuple(int(s) for s in size)
        if len(box) != 3 or min(box) < 1:
            raise PuzzleError(f"size must be three positive numbers, got {size!r}")
        self._set(size=box, clues=_frozen_clues(clues, box), goal=None, colors=None, palette=tuple(palette))
        if goal is not None:
            goal = np.asarray(goal, dtype=bool)
            if goal.shape != box:
                raise PuzzleError(f"goal has shape {goal.shape}, expected {box}")
            self._set(goal=_readonly(goal))
        self._set(givens=tuple(sorted({tuple(int(v) for v in g) for g in givens})), meta=dict(meta or {}))
        self._check_colors(colors)

    def __repr__(self) -> str:
        X, Y, Z = self.size
        return f"Puzzle3D({X}x{Y}x{Z}, {self.n_clues} of {self.n_lines} clues shown, title={self.meta.get('title')!r})"

    def _check_colors(self, colors: Any) -> None:
        if colors is None:
            return
        colors = np.asarray(colors)
        if colors.shape != self.size:
            raise PuzzleError(f"colors has shape {colors.shape}, expected {self.size}")
        if colors.size and (colors.min() < 0 or colors.max() >= max(1, len(self.palette))):
            raise PuzzleError("colors uses an index that is not in the palette")
        if self.goal is not None and np.any(colors[~self.goal] != 0):
            raise PuzzleError("colors gives a colour to a cell the goal leaves empty")
        self._set(colors=_readonly(colors.astype(np.uint8)))

    def rgb(self) -> Optional[np.ndarray]:
        """The ``(X, Y, Z, 3)`` colour of every cube (``None`` when the level has no colours)."""
        if self.colors is None or len(self.palette) < 2:
            return None
        table = np.array([c.rgb_tuple for c in self.palette], dtype=np.uint8)
        return table[self.colors]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Puzzle3D):
            return NotImplemented
        return (
            self.size == other.size
            and self.clues == other.clues
            and _same_optional_array(self.goal, other.goal)
            and self.givens == other.givens
            and dict(self.meta) == dict(other.meta)
            and self.palette == other.palette
            and _same_optional_array(self.colors, other.colors)
        )

    @property
    def n_clues(self) -> int:
        """Number of lines that carry a clue."""
        return sum(c is not None for axis in AXES for row in self.clues[axis] for c in row)

    @property
    def n_lines(self) -> int:
        X, Y, Z = self.size
        return Y * Z + X * Z + X * Y

    def grid_to_text(self, grid: Any) -> str:
        """A box of cubes as one string of ``1`` (kept) and ``0`` (empty), in C order."""
        return "".join("1" if v else "0" for v in np.asarray(grid).ravel())

    def differences(self, first: Any, second: Any) -> list[tuple[int, ...]]:
        """The cells ``(x, y, z)`` where two boxes differ, in C order."""
        return [tuple(map(int, ix)) for ix in zip(*np.nonzero(np.asarray(first) != np.asarray(second)), strict=True)]

    def size_text(self, by: str = "x") -> str:
        """The sides ``X``, ``Y`` and ``Z`` joined by ``by``: ``"8x6x4"``."""
        return by.join(map(str, self.size))

    def size_fields(self) -> dict[str, list[int]]:
        """The size as plain fields (a verify record's)."""
        return {"size": list(self.size)}

    def _normal_clues(self) -> str:
        """The size and clue tables as compact JSON (a 3D clue names no colour)."""
        clues = {axis: [[None if c is None else list(c) for c in row] for row in self.clues[axis]] for axis in AXES}
        return json.dumps({"kind": "3d", "size": list(self.size), "clues": clues}, separators=(",", ":"))
