"""Packing levels: a board with blocked cells, a set of pieces, some of them pre-placed.

A solution (and any board picture) is a tuple of row strings: a piece's
character where that piece lies, ``#`` for a blocked cell, ``.`` for a free
cell nobody covers yet. Row strings are what the text format, the JSON output
and the renderers all use, so there is one representation to check.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Optional, Sequence

from ..errors import LimitError, PuzzleError
from .pieces import CLASSIC_PIECES, Cell, Piece, is_connected, normalize, orientations

__all__ = ["Level", "BLOCKED", "FREE", "MAX_SIDE", "classic_level"]

BLOCKED = "#"
FREE = "."
MAX_SIDE = 64
"""Largest board side; the solvers keep a board in one Python int of about (W+1)*H bits."""


@dataclass(frozen=True)
class Level:
    """A packing level: ``width`` x ``height`` board, pieces, pre-placed pieces, optional solution.

    ``placed`` maps a piece character to the absolute ``(row, col)`` cells it
    occupies. ``solution`` is the intended completion as row strings, when known.
    Construction checks everything a user can get wrong and raises
    :class:`~nonogen.errors.PuzzleError` with one clear sentence.

    >>> lvl = Level(2, 1, (Piece("A", "I2", ((0, 0), (0, 1))),))
    >>> lvl.rows()
    ('..',)
    """

    width: int
    height: int
    pieces: tuple[Piece, ...]
    blocked: frozenset[Cell] = frozenset()
    placed: Mapping[str, Sequence[Cell]] = field(default_factory=dict)  # sorted tuples once made
    solution: Optional[tuple[str, ...]] = None
    meta: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731 - frozen dataclass
        if not (1 <= self.width <= MAX_SIDE and 1 <= self.height <= MAX_SIDE):
            raise LimitError(f"board {self.width}x{self.height}: each side must be between 1 and {MAX_SIDE}")
        set_("pieces", tuple(self.pieces))
        set_("blocked", frozenset((int(r), int(c)) for r, c in self.blocked))
        set_("placed", {ch: tuple(sorted((int(r), int(c)) for r, c in cells)) for ch, cells in self.placed.items()})
        set_("meta", dict(self.meta))
        self._check_pieces()
        self._check_board()
        if self.solution is not None:
            set_("solution", tuple(self.solution))
            problem = self.check_solution(self.solution)
            if problem:
                raise PuzzleError(f"the level's solution is wrong: {problem}")

    # --- validation ---------------------------------------------------------------------------

    def _check_pieces(self) -> None:
        if not self.pieces:
            raise PuzzleError("a level needs at least one piece")
        chars = [p.char for p in self.pieces]
        dup = sorted({c for c in chars if chars.count(c) > 1})
        if dup:
            raise PuzzleError(f"piece {dup[0]} is defined twice")

    def _check_board(self) -> None:
        by_char = self.piece_map
        for r, c in self.blocked:
            if not self.on_board((r, c)):
                raise PuzzleError(f"blocked cell ({r}, {c}) is off the {self.width}x{self.height} board")
        owner: dict[Cell, str] = {}
        for ch, cells in self.placed.items():
            if ch not in by_char:
                raise PuzzleError(f"pre-placed piece {ch} is not in the piece list")
            for cell in cells:
                if not self.on_board(cell):
                    raise PuzzleError(f"pre-placed piece {ch} is off the board at row {cell[0] + 1}, "
                                      f"column {cell[1] + 1}")
                if cell in self.blocked:
                    raise PuzzleError(f"pre-placed piece {ch} covers a blocked cell at row {cell[0] + 1}, "
                                      f"column {cell[1] + 1}")
                if cell in owner:
                    raise PuzzleError(
                        f"pre-placed pieces {owner[cell]} and {ch} overlap at row {cell[0] + 1}, column {cell[1] + 1}"
                    )
                owner[cell] = ch
            if not is_connected(cells):
                raise PuzzleError(f"pre-placed piece {ch} is not connected on the board")
            if normalize(cells) not in orientations(by_char[ch].shape):
                raise PuzzleError(f"pre-placed piece {ch} on the board does not have the shape of piece {ch}")
        free = self.width * self.height - len(self.blocked)
        area = sum(p.size for p in self.pieces)
        if area != free:
            raise PuzzleError(f"the pieces cover {area} cells but the board has {free} free cells")

    def on_board(self, cell: Cell) -> bool:
        r, c = cell
        return 0 <= r < self.height and 0 <= c < self.width

    # --- views --------------------------------------------------------------------------------

    @property
    def piece_map(self) -> dict[str, Piece]:
        return {p.char: p for p in self.pieces}

    @property
    def loose_pieces(self) -> tuple[Piece, ...]:
        """The pieces the player still has to place."""
        return tuple(p for p in self.pieces if p.char not in self.placed)

    def rows(self, placed: Optional[Mapping[str, Iterable[Cell]]] = None) -> tuple[str, ...]:
        """The board as row strings, with ``placed`` (default: the pre-placed pieces) drawn on it."""
        grid = [[FREE] * self.width for _ in range(self.height)]
        for r, c in self.blocked:
            grid[r][c] = BLOCKED
        for ch, cells in (self.placed if placed is None else placed).items():
            for r, c in cells:
                grid[r][c] = ch
        return tuple("".join(row) for row in grid)

    def replace(self, **changes) -> "Level":
        """A copy with some fields changed (``placed``, ``solution``, ``meta`` ...)."""
        return dataclasses.replace(self, **changes)

    def with_placed(self, chars: Iterable[str], solution: Sequence[str]) -> "Level":
        """A copy whose pre-placed pieces are ``chars``, positioned as in ``solution``."""
        cells = cells_by_char(solution)
        return self.replace(placed={ch: tuple(cells[ch]) for ch in chars})

    def check_solution(self, rows: Sequence[str]) -> str:
        """Why ``rows`` is not a completion of this level, or ``""`` if it is.

        Every solver result goes through here, so a wrong answer is never reported.
        """
        if len(rows) != self.height or any(len(row) != self.width for row in rows):
            return f"expected {self.height} rows of {self.width} characters"
        cells = cells_by_char(rows)
        blocked = set(cells.pop(BLOCKED, []))
        if blocked != set(self.blocked):
            return "blocked cells differ from the board's"
        if FREE in cells:
            r, c = cells[FREE][0]
            return f"cell at row {r + 1}, column {c + 1} is not covered"
        by_char = self.piece_map
        for ch in set(by_char) - set(cells):
            return f"piece {ch} is not used"
        for ch, where in sorted(cells.items()):
            if ch not in by_char:
                return f"unknown piece {ch!r}"
            if normalize(where) not in orientations(by_char[ch].shape):
                return f"piece {ch} does not have its shape"
            if ch in self.placed and tuple(sorted(where)) != self.placed[ch]:
                return f"pre-placed piece {ch} was moved"
        return ""


def cells_by_char(rows: Sequence[str]) -> dict[str, list[Cell]]:
    """Cells of each character in a picture.

    >>> cells_by_char(["AB", "A#"])["A"]
    [(0, 0), (1, 0)]
    """
    found: dict[str, list[Cell]] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            found.setdefault(ch, []).append((r, c))
    return found


def classic_level(placed: Optional[Mapping[str, Iterable[Cell]]] = None) -> Level:
    """The IQ Puzzler Pro board (11 wide, 5 high) with its 12 pieces, optionally some pre-placed."""
    fixed = {ch: tuple(cells) for ch, cells in (placed or {}).items()}
    return Level(11, 5, CLASSIC_PIECES, placed=fixed, meta={"title": "IQ Puzzler Pro board"})

