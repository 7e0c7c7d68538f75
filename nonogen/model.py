"""Immutable puzzle types: the 2D (optionally coloured) nonogram (the Picross 3D box is :mod:`nonogen.model3d`).

Grids are numpy arrays of colour indices to the user (kept as rows of bytes
inside, see :mod:`nonogen.grids`, so that verifying needs no numpy). Index 0
is always the background (never clued); indices 1.. are the palette's
foreground colours. A black and white puzzle is simply a puzzle whose
palette has one foreground colour.
"""
from __future__ import annotations

from functools import partial
from itertools import chain
from operator import itemgetter

from .errors import PuzzleError
from .grids import GridField, rows_in, rows_of, shape_of
from .palette import BW_PALETTE, Color

try:  # CPython's built-in sha256 (3.10, 3.11): hashlib loads OpenSSL, a fifth of a small verify's start-up
    from _sha256 import sha256
except ImportError:  # pragma: no cover - other Pythons: the same digest from hashlib
    from hashlib import sha256

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, TypeGuard
    import numpy as np

__all__ = ["BACKGROUND", "Color", "BW_PALETTE", "ClueItem", "LineClue", "Puzzle"]

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


_TUPLE = {tuple}


def _canonical(lines: tuple, n_colors: int) -> TypeGuard[tuple[LineClue, ...]]:
    """Whether every line is a tuple of ``(length >= 1, colour in 1..n)`` int tuples.

    Each distinct block is checked once: a 1000x1000 file has a million blocks but a few dozen kinds.
    """
    if not set(map(type, lines)) <= _TUPLE:  # every line a tuple, at C speed
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


class Frozen:
    """What both puzzle kinds share: fields set once, by ``__init__``; :meth:`replace` makes a changed copy
    (validated like a new one); :meth:`clue_hash`; ``kind_name``, what people call the kind in messages.

    Plain classes rather than frozen dataclasses: :mod:`dataclasses` costs a
    seventh of a small puzzle's whole ``nonogen verify`` to import.
    """

    _FIELDS: tuple[str, ...] = ()
    kind_name = ""
    _normal_clues: Callable[[], str]  # each kind's clues as text in a normal form: what the hash is of

    def clue_hash(self) -> str:
        """sha256 of the clues in a normal form: the same puzzle gives the same hash in every format.

        >>> palette = [BW_PALETTE[0], Color("red", "#ff0000", "r"), Color("blue", "#0000ff", "b")]
        >>> red_blue = Puzzle(rows=[[(1, 1), (1, 2)]], cols=[[(1, 1)], [(1, 2)]], palette=palette)
        >>> blue_red = Puzzle(rows=[[(1, 2), (1, 1)]], cols=[[(1, 2)], [(1, 1)]], palette=palette)
        >>> red_blue.clue_hash() == blue_red.clue_hash()  # the colours renumbered by first appearance
        True
        """
        return sha256(self._normal_clues().encode()).hexdigest()

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


class Puzzle(Frozen):
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
    dimensions = 2  # how callers that must not load the 3D half (numpy) tell a puzzle from a Picross 3D level
    kind_name = "puzzle"  #: what people call this kind of puzzle, in messages and on title pages
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
                f"goal={rows_in(self, 'goal') is not None}, givens={len(self.givens)}, "
                f"title={self.meta.get('title')!r})")

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
        chars = {k: c.char for k, c in enumerate(self.palette)}  # str.translate maps them at C speed
        return [row.decode("latin-1").translate(chars) for row in rows_of(grid)]

    def differences(self, first: Any, second: Any) -> list[tuple[int, int]]:
        """The cells ``(row, col)`` where two grids differ, in reading order (read as rows: no numpy)."""
        pairs = enumerate(zip(rows_of(first), rows_of(second), strict=False))
        return [(r, c) for r, (a, b) in pairs if a != b for c in range(len(a)) if a[c] != b[c]]

    def size_text(self, by: str = "x") -> str:
        """Width ``by`` height, as people read a size: ``"20x15"``."""
        return f"{self.width}{by}{self.height}"

    def size_fields(self) -> dict[str, int]:
        """The size as plain fields (a verify record's): width, height and how many colours."""
        return {"width": self.width, "height": self.height, "colors": self.n_colors}

    def _normal_clues(self) -> str:
        """The clues as compact JSON, colours renumbered in order of first appearance (rows, then columns):
        palettes that name or order the colours differently do not matter."""
        lines = (*self.rows, *self.cols)
        order: dict = {}
        for line in lines:  # usually the first line or two name every colour
            order.update(dict.fromkeys(map(itemgetter(1), line)))
            if len(order) == self.n_colors:
                break
        names = {c: k for k, c in enumerate(order, 1)}
        h = self.height
        return (f'{{"kind":"2d","width":{self.width},"height":{h},'
                f'"rows":{_json_lines(lines[:h], names)},"cols":{_json_lines(lines[h:], names)}}}')


def _json_lines(lines: tuple, names: dict[int, int]) -> str:
    """``json.dumps`` (no spaces) of clue lines with colour ``c`` written ``names[c]``, each distinct block spelled
    once.

    A 2000x2000 puzzle's clues hold 4 million blocks of a few dozen kinds: json took 2 s over them.

    >>> _json_lines((((2, 3), (1, 1)), ()), {3: 1, 1: 2})
    '[[[2,1],[1,2]],[]]'
    """
    spelled = {block: f"[{block[0]},{names[block[1]]}]" for block in set(chain.from_iterable(lines))}
    return "[[" + "],[".join(map(",".join, map(partial(map, spelled.__getitem__), lines))) + "]]"
