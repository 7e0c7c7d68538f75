"""The ``nonogen-pack`` level text format: pieces and boards drawn with characters.

Example (a 2x3 board, piece A pre-placed, B left to the player)::

    nonogen-pack 1
    title Tiny
    board
    AA.
    A..

    piece A L3
    ##
    #.

    piece B L3
    ##
    #.

Lines:

* ``nonogen-pack 1`` -- optional header (writers emit it).
* ``title``/``author``/``license``/``source`` ``TEXT`` -- metadata.
* ``board`` followed by the board's rows: ``.`` free, ``#`` blocked, a piece's
  character = that piece pre-placed there. ``board WxH`` is an all-free board.
* ``piece C [NAME]`` followed by the piece drawn with ``#`` (or ``C``) and ``.``.
* ``pieces classic`` -- the 12 IQ Puzzler Pro pieces, named ``A`` .. ``L``.
* ``place C ROW COL`` followed by piece ``C`` drawn as placed, its bounding box's
  top-left at 1-based ``ROW``, ``COL``; for tools that list positions.
* ``solution`` followed by the completed board (optional, checked on reading).

A drawing ends at a blank line or the next keyword line. Lines starting with
``# `` (hash, space) are comments.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator, Optional

from ..errors import FileLimitError, FormatError, NonogenError
from ..files import write_file
from .level import BLOCKED, FREE, MAX_SIDE, Level, cells_by_char
from .pieces import CLASSIC_PIECES, PIECE_CHARS, Piece, shape_from_rows, shape_to_rows

__all__ = ["loads", "dumps", "load", "dump", "SUFFIX"]

SUFFIX = ".pack"
_META_KEYS = ("title", "author", "license", "source")
_KEYWORDS = ("nonogen-pack", "board", "piece", "pieces", "place", "solution") + _META_KEYS
_DRAWING_CHARS = set(PIECE_CHARS) | {BLOCKED, FREE}
MAX_BYTES = 1024 * 1024
"""Largest level file read: a 64x64 board with every piece drawn takes a few kilobytes."""


def _is_keyword(line: str) -> bool:
    word = line.split(maxsplit=1)[0] if line.strip() else ""
    return word in _KEYWORDS and (" " in line.strip() or word in ("board", "solution"))


class _Reader:
    """Walks the lines, handing out keyword lines with the drawing lines that follow them."""

    def __init__(self, text: str):
        self.lines = text.splitlines()

    def blocks(self) -> Iterator[tuple[int, list[str], list[str]]]:
        i = 0
        n = len(self.lines)
        while i < n:
            line = self.lines[i].strip()
            i += 1
            if not line or line.startswith("# "):
                continue
            if not _is_keyword(line):
                raise FormatError(f"expected a keyword ({', '.join(_KEYWORDS)}), got {line[:30]!r}", line=i)
            start = i
            drawing: list[str] = []
            while i < n:
                row = self.lines[i].strip()
                if not row or _is_keyword(row) or row.startswith("# "):
                    break
                if len(row) > MAX_SIDE or len(drawing) >= MAX_SIDE:
                    raise FileLimitError(f"a drawing is at most {MAX_SIDE}x{MAX_SIDE} cells (the largest board)",
                                         line=i + 1)
                bad = set(row) - _DRAWING_CHARS
                if bad:
                    raise FormatError(f"unexpected character {sorted(bad)[0]!r} in a drawing", line=i + 1)
                drawing.append(row)
                i += 1
            yield start, line.split(), drawing


def loads(text: str) -> Level:
    """Parse a level; a mistake raises :class:`FormatError` naming the line.

    >>> lvl = loads("board\\nA.\\n\\npiece A I1\\n#\\n\\npiece B I1\\n#\\n")
    >>> lvl.placed["A"], lvl.width, lvl.height
    (((0, 0),), 2, 1)
    """
    pieces: list[Piece] = []
    board: Optional[list[str]] = None
    board_line = 0
    places: list[tuple[int, str, int, int, list[str]]] = []
    solution: Optional[list[str]] = None
    meta: dict[str, str] = {}
    defined: dict[str, int] = {}  # piece char -> line: a second definition is refused at once
    for line_no, words, drawing in _Reader(text).blocks():
        key = words[0]
        try:
            if key == "nonogen-pack":
                if words[1:] != ["1"]:
                    raise FormatError("only version 1 of nonogen-pack is known", line=line_no)
            elif key in _META_KEYS:
                meta[key] = " ".join(words[1:])
            elif key == "board":
                if board is not None:
                    raise FormatError(f"a second 'board' (the first is on line {board_line})", line=line_no)
                board, board_line = _read_board(words, drawing, line_no), line_no
            elif key == "pieces":
                if words[1:] != ["classic"]:
                    raise FormatError("expected 'pieces classic'", line=line_no)
                pieces.extend(_define(p, defined, line_no) for p in CLASSIC_PIECES)
            elif key == "piece":
                pieces.append(_define(_read_piece(words, drawing, line_no), defined, line_no))
            elif key == "place":
                places.append(_read_place(words, drawing, line_no))
            elif key == "solution":
                if solution is not None:
                    raise FormatError("a second 'solution'", line=line_no)
                solution = drawing
            if key not in ("board", "piece", "place", "solution") and drawing:
                raise FormatError(f"'{key}' takes no drawing", line=line_no + 1)
        except FormatError:
            raise
        except NonogenError as exc:
            raise FormatError(str(exc), line=line_no) from None
    if board is None:
        raise FormatError("no 'board' line")
    return _build(board, board_line, pieces, places, solution, meta)


def _define(piece: Piece, defined: dict[str, int], line_no: int) -> Piece:
    """``piece``, after checking its character was not taken by an earlier definition."""
    if piece.char in defined:
        raise FormatError(f"piece {piece.char} is defined twice (first on line {defined[piece.char]})", line=line_no)
    defined[piece.char] = line_no
    return piece


def _read_board(words: list[str], drawing: list[str], line_no: int) -> list[str]:
    if len(words) == 2:
        if drawing:
            raise FormatError("'board WxH' takes no drawing", line=line_no + 1)
        size = words[1].lower().split("x")
        if len(size) != 2 or not all(s.isdigit() and s.isascii() for s in size):
            raise FormatError(f"expected 'board WxH', got {' '.join(words)[:40]!r}", line=line_no)
        if any(len(s) > 4 or not 1 <= int(s) <= MAX_SIDE for s in size):
            raise FileLimitError(f"board {words[1][:20]}: each side must be between 1 and {MAX_SIDE}", line=line_no)
        w, h = int(size[0]), int(size[1])
        return [FREE * w] * h
    if len(words) != 1 or not drawing:
        raise FormatError("expected 'board' followed by the board's rows", line=line_no)
    if len({len(row) for row in drawing}) != 1:
        raise FormatError("board rows have different lengths", line=line_no + 1)
    return drawing


def _read_piece(words: list[str], drawing: list[str], line_no: int) -> Piece:
    if len(words) not in (2, 3) or len(words[1]) != 1:
        raise FormatError("expected 'piece C [NAME]' with a one-character name C", line=line_no)
    ch = words[1]
    if not drawing:
        raise FormatError(f"piece {ch} has no drawing", line=line_no)
    bad = set("".join(drawing)) - {BLOCKED, FREE, ch}
    if bad:
        raise FormatError(f"piece {ch}: draw cells with '#' or '{ch}', got {sorted(bad)[0]!r}", line=line_no + 1)
    name = words[2] if len(words) == 3 else f"{ch}{sum(row.count('#') + row.count(ch) for row in drawing)}"
    return Piece(ch, name, shape_from_rows(drawing, marks=BLOCKED + ch))


def _read_place(words: list[str], drawing: list[str], line_no: int) -> tuple[int, str, int, int, list[str]]:
    if len(words) != 4 or len(words[1]) != 1 or not all(w.isdigit() and w.isascii() and len(w) <= 4 for w in words[2:]):
        raise FormatError("expected 'place C ROW COL' (1-based, at most 4 digits) followed by the placed piece",
                          line=line_no)
    if not drawing:
        raise FormatError(f"place {words[1]}: no drawing of the placed piece", line=line_no)
    return line_no, words[1], int(words[2]) - 1, int(words[3]) - 1, drawing


def _build(board, board_line, pieces, places, solution, meta) -> Level:
    cells = cells_by_char(board)
    blocked = cells.pop(BLOCKED, [])
    cells.pop(FREE, None)
    placed = {ch: list(where) for ch, where in cells.items()}
    known = {p.char for p in pieces}
    for ch in placed:
        if ch not in known:
            raise FormatError(f"board uses piece {ch} but no 'piece {ch}' is defined", line=board_line)
    for line_no, ch, r0, c0, drawing in places:
        if ch in placed:
            raise FormatError(f"piece {ch} is placed twice", line=line_no)
        placed[ch] = [(r0 + r, c0 + c) for r, c in shape_from_rows(drawing, marks=BLOCKED + ch)]
    try:
        return Level(len(board[0]), len(board), tuple(pieces), frozenset(blocked), placed,
                     solution and tuple(solution), meta)
    except NonogenError as exc:
        raise FormatError(str(exc)) from None


def dumps(level: Level) -> str:
    """The strict text form of a level (round-trips through :func:`loads`)."""
    out = ["nonogen-pack 1"]
    out += [f"{key} {level.meta[key]}" for key in _META_KEYS if level.meta.get(key)]
    out += ["board", *level.rows(), ""]
    for p in level.pieces:
        out += [f"piece {p.char} {p.name}", *shape_to_rows(p.shape), ""]
    if level.solution is not None:
        out += ["solution", *level.solution, ""]
    return "\n".join(out)


def load(path: str | Path) -> Level:
    """Read a level file; errors name the file and line."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise FormatError(f"cannot read: {why}", path=str(path)) from None
    if len(data) > MAX_BYTES:
        raise FileLimitError(f"file is larger than {MAX_BYTES >> 10} KB, the most nonogen reads for a level",
                             path=str(path))
    try:
        return loads(text)
    except FormatError as exc:
        raise exc.with_path(str(path)) from None


def dump(level: Level, path: str | Path, *, force: bool = False) -> Path:
    """Write ``level`` to ``path`` atomically, as every nonogen file is (an existing file only with ``force``)."""
    return write_file(Path(path), dumps(level), force)
