"""Immutable puzzle types: the 2D (optionally coloured) nonogram and the Picross 3D box.

Grids are numpy arrays of colour indices to the user (kept as rows of bytes
inside, see :mod:`nonogen.grids`, so that verifying needs no numpy). Index 0
is always the background (never clued); indices 1.. are the palette's
foreground colours. A black and white puzzle is simply a puzzle whose
palette has one foreground colour.
"""
from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Optional, Sequence

from .errors import PuzzleError
from .grids import GridField, rows_in, rows_of, shape_of
from .palette import BW_PALETTE, Color

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

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
    lines = tuple(lines)
    if _canonical(lines, n_colors):
        return lines  # the common case for readers and derive_clues: tuples of valid (length, colour) tuples
    frozen = []
    for i, line in enumerate(lines):
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


def _canonical(lines: tuple, n_colors: int) -> bool:
    """Whether every line is a tuple of ``(length >= 1, colour in 1..n)`` int tuples.

    Each distinct block is checked once: a 1000x1000 file has a million blocks but a few dozen kinds.
    """
    if not all(type(line) is tuple for line in lines):
        return False
    try:
        blocks = set(chain.from_iterable(lines))
    except TypeError:  # a list among the blocks
        return False
    return all(
        type(it) is tuple and len(it) == 2 and type(it[0]) is int and type(it[1]) is int
        and it[0] >= 1 and 1 <= it[1] <= n_colors
        for it in blocks
    )


class _Frozen:
    """Fields set once, by ``__init__``; :meth:`replace` makes a changed copy (validated like a new one).

    Plain classes rather than frozen dataclasses: :mod:`dataclasses` costs a
    seventh of a small puzzle's whole ``nonogen verify`` to import.
    """

    _FIELDS: tuple[str, ...] = ()

    def _set(self, **values: Any) -> None:
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} cannot change: use .replace({name}=...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} cannot change: use .replace({name}=...)")

    def replace(self, **changes: Any) -> Any:
        """A copy with some fields changed."""
        unknown = set(changes) - set(self._FIELDS)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        return type(self)(**{name: changes[name] if name in changes else getattr(self, name) for name in self._FIELDS})

    __hash__ = None  # type: ignore[assignment]


def _same_optional_array(a: Optional["np.ndarray"], b: Optional["np.ndarray"]) -> bool:
    if a is None or b is None:
        return a is None and b is None
    import numpy as np

    return np.array_equal(a, b)


def _readonly(array: "np.ndarray") -> "np.ndarray":
    import numpy as np

    array = np.array(array, copy=True)
    array.setflags(write=False)
    return array


class Puzzle(_Frozen):
    """A 2D nonogram: row and column clues over a palette, with optional goal and givens.

    ``rows[r]`` lists the blocks of row ``r`` left to right and ``cols[c]`` the
    blocks of column ``c`` top to bottom, as ``(length, colour)`` pairs.
    ``goal`` is the intended solution (``height x width`` colour indices) when
    known; ``givens`` are cells revealed to the solver as ``(row, col, colour)``.

    >>> p = Puzzle(rows=[[(1, 1)], []], cols=[[(1, 1)], []])
    >>> p.width, p.height, p.is_color
    (2, 2, False)
    """

    _FIELDS = ("rows", "cols", "palette", "goal", "givens", "meta")
    rows: tuple[LineClue, ...]
    cols: tuple[LineClue, ...]
    palette: tuple[Color, ...]
    goal: Optional["np.ndarray"] = GridField()  # type: ignore[assignment]
    givens: tuple[tuple[int, int, int], ...]
    meta: Mapping[str, str]

    def __init__(
        self,
        rows: Iterable[Iterable[Sequence[int]]],
        cols: Iterable[Iterable[Sequence[int]]],
        palette: Sequence[Color] = BW_PALETTE,
        goal: Any = None,
        givens: Iterable[Sequence[int]] = (),
        meta: Optional[Mapping[str, str]] = None,
    ):
        palette = tuple(palette)
        if len(palette) < 2:
            raise PuzzleError("a palette needs a background and at least one colour")
        if len({c.char for c in palette}) != len(palette) or len({c.name for c in palette}) != len(palette):
            raise PuzzleError("palette colour names and codes must be distinct")
        n = len(palette) - 1
        self._set(palette=palette, rows=_freeze_lines(rows, n, "row"), cols=_freeze_lines(cols, n, "column"))
        if not self.rows or not self.cols:
            raise PuzzleError("a puzzle needs at least one row and one column")
        self._set(goal=self._checked_goal(goal))
        checked = set()
        for r, c, v in givens:
            if not (0 <= r < self.height and 0 <= c < self.width and 0 <= v <= n):
                raise PuzzleError(f"given ({r}, {c}, {v}) is outside the grid or palette")
            checked.add((int(r), int(c), int(v)))
        self._set(givens=tuple(sorted(checked)), meta=dict(meta or {}))

    def __repr__(self) -> str:
        return (f"Puzzle({self.width}x{self.height}, {self.n_colors} colour{'s' * self.is_color}, "
                f"goal={rows_in(self, 'goal') is not None}, givens={len(self.givens)}, title={self.meta.get('title')!r})")

    def _checked_goal(self, goal: Any) -> Optional[tuple[bytes, ...]]:
        try:
            goal = None if goal is None else rows_of(goal)
        except ValueError as exc:
            raise PuzzleError(f"goal: {exc}") from None
        except TypeError:
            raise PuzzleError("goal must be a 2D grid of colour indices") from None
        if goal is None:
            return None
        height, width = shape_of(goal)
        if (height, width) != (self.height, self.width):
            raise PuzzleError(f"goal is {width}x{height} cells, expected {self.width}x{self.height}")
        if max(b"".join(goal)) > self.n_colors:
            raise PuzzleError("goal uses a colour that is not in the palette")
        return goal

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

    def replace(self, **changes: Any) -> "Puzzle":
        """A copy with some fields changed (``goal``, ``givens``, ``meta`` ...)."""
        changes.setdefault("goal", rows_in(self, "goal"))  # as rows: reading the field would load numpy
        return super().replace(**changes)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Puzzle):
            return NotImplemented
        return (
            self.rows == other.rows
            and self.cols == other.cols
            and self.palette == other.palette
            and rows_in(self, "goal") == rows_in(other, "goal")
            and self.givens == other.givens
            and dict(self.meta) == dict(other.meta)
        )

    def same_clues(self, other: "Puzzle") -> bool:
        """Whether two puzzles pose the same problem (clues and colours), ignoring metadata."""
        return (
            self.rows == other.rows
            and self.cols == other.cols
            and [c.rgb for c in self.palette[1:]] == [c.rgb for c in other.palette[1:]]
        )

    def grid_to_text(self, grid: Any) -> list[str]:
        """Rows of a solution grid as strings of palette codes (``.`` background, ``#`` black)."""
        chars = [c.char for c in self.palette]
        return ["".join(chars[v] for v in row) for row in rows_of(grid)]


# --- Picross 3D ------------------------------------------------------------------------------

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


class Puzzle3D(_Frozen):
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
    size: tuple[int, int, int]
    clues: Mapping[str, tuple[tuple[Optional[Clue3D], ...], ...]]
    goal: Optional["np.ndarray"]
    givens: tuple[tuple[int, int, int, int], ...]
    meta: Mapping[str, str]
    palette: tuple[Color, ...]
    colors: Optional["np.ndarray"]

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
            import numpy as np

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
        import numpy as np

        colors = np.asarray(colors)
        if colors.shape != self.size:
            raise PuzzleError(f"colors has shape {colors.shape}, expected {self.size}")
        if colors.size and (colors.min() < 0 or colors.max() >= max(1, len(self.palette))):
            raise PuzzleError("colors uses an index that is not in the palette")
        if self.goal is not None and np.any(colors[~self.goal] != 0):
            raise PuzzleError("colors gives a colour to a cell the goal leaves empty")
        self._set(colors=_readonly(colors.astype(np.uint8)))

    def rgb(self) -> Optional["np.ndarray"]:
        """The ``(X, Y, Z, 3)`` colour of every cube (``None`` when the level has no colours)."""
        if self.colors is None or len(self.palette) < 2:
            return None
        import numpy as np

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
