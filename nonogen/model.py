"""Immutable puzzle types: the 2D (optionally coloured) nonogram and the Picross 3D box.

Grids are numpy arrays of colour indices. Index 0 is always the background
(never clued); indices 1.. are the palette's foreground colours. A black and
white puzzle is simply a puzzle whose palette has one foreground colour.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Optional, Sequence

import numpy as np

from .errors import PuzzleError
from .palette import BW_PALETTE, Color

__all__ = [
    "BACKGROUND",
    "Color",
    "BW_PALETTE",
    "ClueItem",
    "LineClue",
    "Puzzle",
    "Clue3D",
    "Puzzle3D",
    "AXES",
]

BACKGROUND = 0



ClueItem = tuple[int, int]
"""One block of a line clue: ``(length, colour index)`` with colour >= 1."""

LineClue = tuple[ClueItem, ...]


def _freeze_lines(lines: Iterable[Iterable[Sequence[int]]], n_colors: int, what: str) -> tuple[LineClue, ...]:
    frozen = []
    for i, line in enumerate(lines):
        if type(line) is tuple and all(
            type(it) is tuple and len(it) == 2 and type(it[0]) is int and type(it[1]) is int
            and it[0] >= 1 and 1 <= it[1] <= n_colors
            for it in line
        ):
            frozen.append(line)  # already canonical: the common case for readers and derive_clues
            continue
        items = []
        for item in line:
            length, color = int(item[0]), int(item[1])
            if length < 1:
                raise PuzzleError(f"{what} {i + 1}: block length must be at least 1, got {length}")
            if not 1 <= color <= n_colors:
                raise PuzzleError(f"{what} {i + 1}: colour index {color} is not in the palette")
            items.append((length, color))
        frozen.append(tuple(items))
    return tuple(frozen)


def _same_optional_array(a: Optional[np.ndarray], b: Optional[np.ndarray]) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return np.array_equal(a, b)


def _readonly(array: np.ndarray) -> np.ndarray:
    array = np.array(array, copy=True)
    array.setflags(write=False)
    return array


@dataclass(frozen=True, eq=False)
class Puzzle:
    """A 2D nonogram: row and column clues over a palette, with optional goal and givens.

    ``rows[r]`` lists the blocks of row ``r`` left to right and ``cols[c]`` the
    blocks of column ``c`` top to bottom, as ``(length, colour)`` pairs.
    ``goal`` is the intended solution (``height x width`` colour indices) when
    known; ``givens`` are cells revealed to the solver as ``(row, col, colour)``.

    >>> p = Puzzle(rows=[[(1, 1)], []], cols=[[(1, 1)], []])
    >>> p.width, p.height, p.is_color
    (2, 2, False)
    """

    rows: tuple[LineClue, ...]
    cols: tuple[LineClue, ...]
    palette: tuple[Color, ...] = BW_PALETTE
    goal: Optional[np.ndarray] = None
    givens: tuple[tuple[int, int, int], ...] = ()
    meta: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        palette = tuple(self.palette)
        if len(palette) < 2:
            raise PuzzleError("a palette needs a background and at least one colour")
        if len({c.char for c in palette}) != len(palette) or len({c.name for c in palette}) != len(palette):
            raise PuzzleError("palette colour names and codes must be distinct")
        n = len(palette) - 1
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731 - frozen dataclass
        set_("palette", palette)
        set_("rows", _freeze_lines(self.rows, n, "row"))
        set_("cols", _freeze_lines(self.cols, n, "column"))
        if not self.rows or not self.cols:
            raise PuzzleError("a puzzle needs at least one row and one column")
        if self.goal is not None:
            goal = np.asarray(self.goal)
            if goal.shape != (self.height, self.width):
                raise PuzzleError(f"goal is {goal.shape[::-1]} cells, expected {self.width}x{self.height}")
            if goal.size and (goal.min() < 0 or goal.max() > n):
                raise PuzzleError("goal uses a colour that is not in the palette")
            set_("goal", _readonly(goal.astype(np.uint8)))
        givens = []
        for r, c, v in self.givens:
            if not (0 <= r < self.height and 0 <= c < self.width and 0 <= v <= n):
                raise PuzzleError(f"given ({r}, {c}, {v}) is outside the grid or palette")
            givens.append((int(r), int(c), int(v)))
        set_("givens", tuple(sorted(set(givens))))
        set_("meta", dict(self.meta))

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.cols)

    @property
    def n_colors(self) -> int:
        """Number of foreground colours (1 for black and white)."""
        return len(self.palette) - 1

    @property
    def is_color(self) -> bool:
        return self.n_colors > 1

    def replace(self, **changes) -> "Puzzle":
        """A copy with some fields changed (``goal``, ``givens``, ``meta`` ...)."""
        return dataclasses.replace(self, **changes)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Puzzle):
            return NotImplemented
        return (
            self.rows == other.rows
            and self.cols == other.cols
            and self.palette == other.palette
            and _same_optional_array(self.goal, other.goal)
            and self.givens == other.givens
            and dict(self.meta) == dict(other.meta)
        )

    __hash__ = None  # type: ignore[assignment]

    def same_clues(self, other: "Puzzle") -> bool:
        """Whether two puzzles pose the same problem (clues and colours), ignoring metadata."""
        return (
            self.rows == other.rows
            and self.cols == other.cols
            and [c.rgb for c in self.palette[1:]] == [c.rgb for c in other.palette[1:]]
        )

    def grid_to_text(self, grid: np.ndarray) -> list[str]:
        """Rows of a solution grid as strings of palette codes (``.`` background, ``#`` black)."""
        chars = [c.char for c in self.palette]
        return ["".join(chars[v] for v in row) for row in np.asarray(grid)]

    def grid_from_text(self, lines: Sequence[str]) -> np.ndarray:
        """Inverse of :meth:`grid_to_text`."""
        index = {c.char: i for i, c in enumerate(self.palette)}
        try:
            return np.array([[index[ch] for ch in line] for line in lines], dtype=np.uint8)
        except KeyError as exc:
            raise PuzzleError(f"unknown colour code {exc.args[0]!r} in grid") from None


# --- Picross 3D ------------------------------------------------------------------------------

AXES = ("x", "y", "z")

Clue3D = tuple[int, int]
"""A Picross 3D line clue ``(count, groups)``: groups is 1 (plain), 2 (circle) or 3 (square, 3 or more)."""


@dataclass(frozen=True, eq=False)
class Puzzle3D:
    """A Picross 3D level: a box ``size = (X, Y, Z)`` with a clue (or ``None``, hidden) per line.

    ``clues["x"]`` has shape ``(Y, Z)`` and clues the line ``cells[:, y, z]``;
    ``clues["y"]`` has shape ``(X, Z)``; ``clues["z"]`` has shape ``(X, Y)``
    (the ``nonogen-3d`` contract). Each entry is a :data:`Clue3D` or ``None``.

    The solved model's look, for renderers and games: ``palette`` (entry 0
    stands for "no colour") and ``colors``, an ``(X, Y, Z)`` array of palette
    indices, non-zero only where the goal keeps a cube. Colours never
    constrain the solution.
    """

    size: tuple[int, int, int]
    clues: Mapping[str, tuple[tuple[Optional[Clue3D], ...], ...]]
    goal: Optional[np.ndarray] = None
    givens: tuple[tuple[int, int, int, int], ...] = ()
    meta: Mapping[str, str] = field(default_factory=dict)
    palette: tuple[Color, ...] = ()
    colors: Optional[np.ndarray] = None

    def __post_init__(self) -> None:
        size = tuple(int(s) for s in self.size)
        if len(size) != 3 or min(size) < 1:
            raise PuzzleError(f"size must be three positive numbers, got {self.size!r}")
        object.__setattr__(self, "size", size)
        X, Y, Z = size
        shapes = {"x": (Y, Z), "y": (X, Z), "z": (X, Y)}
        lengths = {"x": X, "y": Y, "z": Z}
        frozen = {}
        for axis in AXES:
            table = self.clues.get(axis)
            if table is None or len(table) != shapes[axis][0] or any(len(r) != shapes[axis][1] for r in table):
                raise PuzzleError(f"clues.{axis} must be {shapes[axis][0]} lists of {shapes[axis][1]} entries")
            rows = []
            for row in table:
                out = []
                for clue in row:
                    if clue is not None:
                        count, groups = int(clue[0]), int(clue[1])
                        if not 0 <= count <= lengths[axis] or groups not in (1, 2, 3):
                            raise PuzzleError(f"clue {clue!r} does not fit a line of {lengths[axis]} along {axis}")
                        if 0 < count < groups or (count == 0 and groups != 1):
                            raise PuzzleError(f"clue {clue!r}: {count} cubes cannot form {groups} groups")
                        clue = (count, groups)
                    out.append(clue)
                rows.append(tuple(out))
            frozen[axis] = tuple(rows)
        object.__setattr__(self, "clues", frozen)
        if self.goal is not None:
            goal = np.asarray(self.goal, dtype=bool)
            if goal.shape != size:
                raise PuzzleError(f"goal has shape {goal.shape}, expected {size}")
            object.__setattr__(self, "goal", _readonly(goal))
        object.__setattr__(self, "givens", tuple(sorted({tuple(int(v) for v in g) for g in self.givens})))
        object.__setattr__(self, "meta", dict(self.meta))
        self._check_colors()

    def _check_colors(self) -> None:
        palette = tuple(self.palette)
        object.__setattr__(self, "palette", palette)
        if self.colors is None:
            return
        colors = np.asarray(self.colors)
        if colors.shape != self.size:
            raise PuzzleError(f"colors has shape {colors.shape}, expected {self.size}")
        if colors.size and (colors.min() < 0 or colors.max() >= max(1, len(palette))):
            raise PuzzleError("colors uses an index that is not in the palette")
        if self.goal is not None and np.any(colors[~self.goal] != 0):
            raise PuzzleError("colors gives a colour to a cell the goal leaves empty")
        object.__setattr__(self, "colors", _readonly(colors.astype(np.uint8)))

    def rgb(self) -> Optional[np.ndarray]:
        """The ``(X, Y, Z, 3)`` colour of every cube (``None`` when the level has no colours)."""
        if self.colors is None or len(self.palette) < 2:
            return None
        table = np.array([c.rgb_tuple for c in self.palette], dtype=np.uint8)
        return table[self.colors]

    def replace(self, **changes) -> "Puzzle3D":
        return dataclasses.replace(self, **changes)

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

    __hash__ = None  # type: ignore[assignment]

    @property
    def n_clues(self) -> int:
        """Number of lines that carry a clue."""
        return sum(c is not None for axis in AXES for row in self.clues[axis] for c in row)

    @property
    def n_lines(self) -> int:
        X, Y, Z = self.size
        return Y * Z + X * Z + X * Y
