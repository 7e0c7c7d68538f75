"""Polyomino pieces: shapes as cell sets, their distinct orientations, and the IQ Puzzler Pro set.

A shape is a tuple of ``(row, col)`` cells normalised so the smallest row and
column are 0 and the cells are sorted; two shapes are the same piece in the
same orientation exactly when their normalised tuples are equal.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from ..errors import PuzzleError

__all__ = [
    "Cell",
    "Shape",
    "Piece",
    "normalize",
    "orientations",
    "canonical",
    "is_connected",
    "shape_from_rows",
    "shape_to_rows",
    "CLASSIC_PIECES",
    "PIECE_CHARS",
]

Cell = tuple[int, int]
Shape = tuple[Cell, ...]

# Characters that may name a piece in level files, in the order generators hand them out.
PIECE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def normalize(cells: Iterable[Cell]) -> Shape:
    """Translate cells so the top-left of their bounding box is (0, 0), sorted.

    >>> normalize([(3, 5), (2, 5), (2, 6)])
    ((0, 0), (0, 1), (1, 0))
    """
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def orientations(shape: Iterable[Cell]) -> list[Shape]:
    """The distinct rotations and reflections of a shape (1, 2, 4 or 8 of them).

    Duplicates are removed so a symmetric piece is not tried twice in the same
    place, which would double-count solutions.

    >>> len(orientations([(0, 0), (0, 1), (1, 0), (1, 1)]))  # square
    1
    >>> len(orientations([(0, 0), (1, 0), (1, 1), (1, 2)]))  # L-tetromino
    8
    """
    seen: list[Shape] = []
    cells = list(shape)
    for _ in range(2):
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]  # rotate a quarter turn
            norm = normalize(cells)
            if norm not in seen:
                seen.append(norm)
        cells = [(r, -c) for r, c in cells]  # mirror
    return sorted(seen)


def canonical(shape: Iterable[Cell]) -> Shape:
    """One representative of a shape's orientations: equal for congruent pieces.

    >>> canonical([(0, 0), (0, 1)]) == canonical([(0, 0), (1, 0)])
    True
    """
    return orientations(shape)[0]


def is_connected(cells: Iterable[Cell]) -> bool:
    """Whether cells form one edge-connected group (an empty set is not).

    >>> is_connected([(0, 0), (1, 1)])
    False
    """
    cells = set(cells)
    if not cells:
        return False
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)


def shape_from_rows(rows: Sequence[str], marks: str = "#") -> Shape:
    """Cells of a drawing where any character in ``marks`` is a cell and ``.`` is empty.

    >>> shape_from_rows(["#..", "###"])
    ((0, 0), (1, 0), (1, 1), (1, 2))
    """
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in marks]
    if not cells:
        raise PuzzleError("a piece needs at least one cell")
    return normalize(cells)


def shape_to_rows(shape: Iterable[Cell], mark: str = "#") -> list[str]:
    """Inverse of :func:`shape_from_rows` (``.`` for holes in the bounding box).

    >>> shape_to_rows([(0, 0), (1, 0), (1, 1)])
    ['#.', '##']
    """
    shape = normalize(shape)
    h = 1 + max(r for r, _ in shape)
    w = 1 + max(c for _, c in shape)
    grid = [["."] * w for _ in range(h)]
    for r, c in shape:
        grid[r][c] = mark
    return ["".join(row) for row in grid]


@dataclass(frozen=True)
class Piece:
    """A named polyomino: one character for drawings, a human name and its cells.

    >>> Piece("A", "L3", ((0, 0), (0, 1), (1, 0))).size
    3
    """

    char: str
    name: str
    shape: Shape

    def __post_init__(self) -> None:
        if len(self.char) != 1 or self.char not in PIECE_CHARS:
            raise PuzzleError(f"piece {self.char!r}: a piece is named by one letter or digit")
        if not self.shape:
            raise PuzzleError(f"piece {self.char}: a piece needs at least one cell")
        if not is_connected(self.shape):
            raise PuzzleError(f"piece {self.char}: its cells are not connected")
        object.__setattr__(self, "shape", normalize(self.shape))

    @property
    def size(self) -> int:
        return len(self.shape)

    def orientations(self) -> list[Shape]:
        return orientations(self.shape)


def _classic() -> tuple[Piece, ...]:
    drawings = [
        ("V5", ["#..", "#..", "###"]),
        ("L5", ["#...", "####"]),
        ("F5", [".#.", "###", "#.."]),
        ("W5", ["#..", "##.", ".##"]),
        ("U5", ["#.#", "###"]),
        ("Y5", ["####", ".#.."]),
        ("N5", ["##..", ".###"]),
        ("P5", ["###", "##."]),
        ("T4", ["###", ".#."]),
        ("S4", ["##.", ".##"]),
        ("L4", ["#..", "###"]),
        ("L3", ["##", "#."]),
    ]
    return tuple(Piece(PIECE_CHARS[i], name, shape_from_rows(rows)) for i, (name, rows) in enumerate(drawings))


CLASSIC_PIECES: tuple[Piece, ...] = _classic()
"""The 12 IQ Puzzler Pro pieces (55 cells) named A..L, as listed in the project's rules."""
