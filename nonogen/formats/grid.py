"""A picture drawn in characters, one per cell: the input of ``nonogen clues``, and number-loom's ``char-grid``.

number-loom (a nonogram editor) reads and writes such grids as ``.txt``
files, often drawn with emoji squares: ``⬜`` for the white background,
``⬛`` for black, ``🟥🟩🟦🟨🟧🟪🟫`` for colours. Read as the format
``char-grid``, a grid is the puzzle whose goal is the picture (its clues
derived from it), so ``nonogen verify`` answers for it as for any puzzle.
A file of ``.txt`` counts as a grid only when no other text format fits and
it looks like one (:func:`looks_like`); nonogen reads the format, and does
not write it. No numpy: the 2D verify path stays free of it.

A cell is what a reader of the file sees as one character, not one code
point (:func:`cells`): phones write ``⬛`` as ``⬛`` + U+FE0F, and counting
code points made a 5x5 heart a 10x5 puzzle. For the same reason a file that
is not UTF-8 is refused here, where other readers take it as Windows-1252:
a stray byte there turns every emoji into three cells of other colours.
"""
from __future__ import annotations

import unicodedata
from itertools import islice

from ..clues import puzzle_from_grid
from ..errors import FormatError
from ..model import Puzzle
from ..palette import Color, distinct_colors
from ._common import MAX_COLORS, MAX_LINE_CHARS, MAX_SIDE, check_count

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Iterable, Iterator, Optional

__all__ = ["grid_from_text", "BACKGROUND_CHARS", "FILLED_CHARS", "cells", "loads", "looks_like"]

NAME = "char-grid"
SUFFIXES = (".txt",)

BACKGROUND_CHARS = ".0 _-wW·☐⬜"
"""Background: nonogen's own ``.0 _-``, and what number-loom takes for white (``w``, ``·``, ``☐``, ``⬜``)."""
FILLED_CHARS = "#1Xx*■█⬛"
"""Black."""
SQUARE_COLORS = {"🟥": ("red", "#ff0000"), "🟩": ("green", "#00ff00"), "🟦": ("blue", "#0000ff"),
                 "🟨": ("yellow", "#ffff00"), "🟧": ("orange", "#ffa500"), "🟪": ("purple", "#800080"),
                 "🟫": ("brown", "#8b4513")}
"""The emoji squares in the colours they show (number-loom's own choice of RGB)."""

_BACKGROUND, _FILLED = frozenset(BACKGROUND_CHARS), frozenset(FILLED_CHARS)
_OWN = _BACKGROUND | _FILLED | frozenset(SQUARE_COLORS)  # the drawing's own characters


# --- cells: user-perceived characters --------------------------------------------------------------------------

_ZWJ = "\u200d"
_KINDS: dict[str, str] = {}  # character -> kind, filled as characters are met (a drawing uses few; capped)


def _kind(ch: str) -> str:
    """How ``ch`` takes part in a cell: ``extend`` (attaches to the cell before it), ``zwj``, ``ri`` (a regional
    indicator, half a flag), ``invisible`` (a format character such as U+200B) or ``base`` (starts a cell)."""
    kind = _KINDS.get(ch)
    if kind is None:
        code, category = ord(ch), unicodedata.category(ch)
        if ch == _ZWJ:
            kind = "zwj"
        elif 0x1F1E6 <= code <= 0x1F1FF:
            kind = "ri"
        elif category[0] == "M" or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F:
            kind = "extend"  # marks (keycap U+20E3 too), skin tones, the tags of 🏴 subdivision flags
        else:
            kind = "invisible" if category == "Cf" else "base"
        if len(_KINDS) < 4096:  # a long-running studio reads many texts: the cache stays small
            _KINDS[ch] = kind
    return kind


def _joins(base: str, following: str) -> bool:
    """Whether a ZWJ between a cell that starts with ``base`` and ``following`` joins them: 🐈 ZWJ ⬛ is one emoji.

    Emoji (category ``So``) join; letters do not, and no emoji starts with one of the drawing's own
    squares, so a joiner after ``⬜`` (as some apps put between emoji) joins nothing: it shows two squares.
    """
    return (base not in _OWN and _kind(following) == "base"
            and unicodedata.category(base) == "So" == unicodedata.category(following))


def _cell_end(line: str, start: int) -> int:
    """Where the cell starting at ``line[start]`` ends: after its marks, skin tone, flag half and ZWJ parts."""
    end, n = start + 1, len(line)
    if _kind(line[start]) == "ri" and end < n and _kind(line[end]) == "ri":
        end += 1  # two regional indicators are one flag
    while end < n:
        kind = _kind(line[end])
        if kind == "extend":
            end += 1
        elif kind == "zwj" and end + 1 < n and _joins(line[start], line[end + 1]):
            end += 2
        else:
            break
    return end


def cells(line: str) -> Iterator[str]:
    """The cells of one row: its user-perceived characters, without variation selectors (U+FE0E, U+FE0F).

    A cell is a character with what attaches to it (combining marks, a keycap U+20E3, a skin tone
    U+1F3FB..U+1F3FF), two regional indicators (a flag), or emoji joined by ZWJ (🐈 ZWJ ⬛): a small
    grapheme clustering, enough for drawings. Two cells are one colour when they are the same text, so
    a selector is dropped (``⬛`` and ``⬛`` + U+FE0F are one square) and a skin tone kept (🟫🏽 is not 🟫).
    A joiner or other format character that joins nothing (U+200D, U+200B) is invisible and dropped.

    >>> list(cells("⬛\\ufe0f⬜\\ufe0f")), list(cells("⬜\\u200d⬛")), list(cells("🟫🏽.\\u200b"))
    (['⬛', '⬜'], ['⬜', '⬛'], ['🟫🏽', '.'])
    >>> list(cells("🐈\\u200d⬛🇫🇷1\\ufe0f\\u20e3e\\u0301")) == ["🐈\\u200d⬛", "🇫🇷", "1\\u20e3", "e\\u0301"]
    True
    """
    line = line.replace("\ufe0f", "").replace("\ufe0e", "")
    if line.isascii() or all(_kind(ch) == "base" for ch in set(line)):
        return iter(line)  # one cell per character: every drawing of plain squares, at C speed
    return _clusters(line)


def _clusters(line: str) -> Iterator[str]:
    """The cells of ``line`` found one by one, those of format characters alone (category Cf) left out."""
    start = 0
    while start < len(line):
        end = _cell_end(line, start)
        cell = line[start:end]
        if not all(unicodedata.category(ch) == "Cf" for ch in cell):  # stops at the first visible character
            yield cell
        start = end


# --- reading ----------------------------------------------------------------------------------------------------


def _rows(text: str) -> list[tuple[int, str]]:
    """``(line number, row)`` of the drawing: blank lines and ``;`` comment lines left out.

    ``\\n``, ``\\r\\n`` and ``\\r`` (old Mac files) each end a line: a file of ``\\r`` alone was one long row.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [(n, line) for n, line in enumerate(lines, 1) if line.strip() and not line.startswith(";")]


def grid_from_text(text: str, path: Optional[str] = None) -> tuple[list[list[int]], tuple[Color, ...]]:
    """Parse a goal grid drawn in characters: background ``.0 _-`` (and ``⬜``...), black ``#1Xx*`` (and ``⬛``...),
    the emoji squares in their colours, any other cell a colour of its own. Short rows end in background.

    Cells are :func:`cells`; errors name ``path`` when given (the registry names the file otherwise).

    >>> grid_from_text(".#\\n##\\n")[0], [c.name for c in grid_from_text("⬜⬛\\n🟥⬜\\n")[1]]
    ([[0, 1], [1, 1]], ['white', 'black', 'red'])
    >>> grid_from_text("⬜\\ufe0f⬛\\ufe0f\\r⬛🟫🏽\\r")[0]
    [[0, 1], [1, 2]]
    """
    try:
        _refuse_not_utf8(text)
        drawn: list[str] = ["."]  # the cell each colour was first drawn with; 0 is the background
        index = dict.fromkeys(BACKGROUND_CHARS, 0)
        grid = []
        for number, line in _rows(text):
            row = _row(cells(line), index, drawn, number)
            if row:  # a line of invisible characters only is blank
                grid.append(row)
                check_count(len(grid), MAX_SIDE, "rows", number)
        if not grid:
            raise FormatError("expected rows of characters, found none")
    except FormatError as exc:
        raise (exc.with_path(path) if path else exc) from None
    width = max(map(len, grid))
    return [row + [0] * (width - len(row)) for row in grid], _palette(drawn)


def _refuse_not_utf8(text: str) -> None:
    """Refuse text the registry decoded as Windows-1252 because it is not UTF-8 (it marks it ``bad_byte``)."""
    bad = getattr(text, "bad_byte", None)
    if bad is not None:
        line, byte = bad
        raise FormatError(f"byte 0x{byte:02x} is not UTF-8; save the file as UTF-8", line=line)


def _row(row_cells: Iterable[str], index: dict[str, int], drawn: list[str], line: int) -> list[int]:
    """The colour indices of one row's cells, each new cell a new colour; more than MAX_SIDE cells refused."""
    row = []
    for cell in islice(row_cells, MAX_SIDE + 1):  # a 16 MB row is never held as cells
        colour = index.get(cell)
        if colour is None:
            colour = index[cell] = _new_color(cell, drawn, line)
        row.append(colour)
    check_count(len(row), MAX_SIDE, "cells in a row", line)
    return row


def _new_color(cell: str, drawn: list[str], line: int) -> int:
    """Add the colour that ``cell`` draws (black for every black character: one colour) and give its index."""
    if cell in _FILLED and "#" in drawn:
        return drawn.index("#")
    drawn.append("#" if cell in _FILLED else cell)
    check_count(len(drawn) - 1, MAX_COLORS, "colours", line)
    return len(drawn) - 1


def _palette(drawn: list[str]) -> tuple[Color, ...]:
    """The colours of the cells first drawn: black, the squares in theirs, any other cell a distinct hue.

    A colour's code is its cell when that is one character, else the cell's first character or a free
    letter: a Color's code is one character, and 🟫🏽 may be drawn beside 🟫 (its code is never ``🟫``,
    which this reader takes for brown, nor ``#`` or another of the drawing's own characters).
    """
    if len(drawn) == 1:  # a blank drawing is still black and white
        drawn = [*drawn, "#"]
    others = [cell for cell in drawn[1:] if cell != "#" and cell not in SQUARE_COLORS]
    hues = dict(zip(others, distinct_colors(len(others)) if others else [], strict=True))
    used = {cell for cell in drawn if len(cell) == 1}
    palette = [Color("white", "#ffffff", ".")]
    for cell in drawn[1:]:
        if cell == "#":
            palette.append(Color("black", "#000000", "#"))
        elif cell in SQUARE_COLORS:
            palette.append(Color(*SQUARE_COLORS[cell], cell))
        else:
            palette.append(Color(f"color-{cell}", hues[cell], _code(cell, used)))
    return tuple(palette)


def _code(cell: str, used: set[str]) -> str:
    """A one-character code for ``cell`` that no other colour has (added to ``used``)."""
    if len(cell) == 1:
        return cell
    first = () if cell[0] in _OWN else (cell[0],)
    free = (ch for ch in (*first, *"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") if ch not in used)
    code = next(free, None) or next(chr(c) for c in range(0xE000, 0xF900) if chr(c) not in used)
    used.add(code)
    return code


# --- sniffing ---------------------------------------------------------------------------------------------------

_SQUARES = set("⬜⬛■█☐·") | set(SQUARE_COLORS)  # characters only a drawing has
_GRID_CHARS = set(BACKGROUND_CHARS + FILLED_CHARS + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") | _SQUARES
_SNIFF_CHARS = 2 * (MAX_LINE_CHARS + 2)
"""How much of a text sniffing looks at: two rows of the longest line a reader takes, so a drawing as wide as
a reader allows (2000 cells, a skin tone and a selector on each) is seen whole: 20,000 characters cut 141 rows."""


def looks_like(text: str) -> bool:
    """Two or more rows of one length, drawn in squares (``⬜⬛🟥``...) or in grid characters and letters on a
    background of ``.``, ``_``, ``-``, ``0`` or spaces, with at most 16 different cells.

    Tried after every other text format: a note or a word list has rows of different lengths, or no background.
    Only the first :data:`_SNIFF_CHARS` characters are read, and only whole rows of them.

    >>> (looks_like("⬜⬛\\n🟥⬜\\n"), looks_like("..rr\\n.#r.\\n"), looks_like("hello\\nworld\\n"),
    ...  looks_like("a b\\nc d\\n"))
    (True, True, False, False)
    >>> looks_like("⬜\\ufe0f⬛\\ufe0f\\r⬛⬜\\r"), looks_like("⬜⬛⬛⬛⬛⬛⬛\\n" * 30_000)  # 240,000 characters
    (True, True)
    """
    head = text[:_SNIFF_CHARS]
    if len(head) < len(text):  # the last row may be cut short: leave it out
        head = head[: max(head.rfind("\n"), head.rfind("\r")) + 1]
    rows = [line for _, line in _rows(head)]
    if len(rows) < 2 or not all(ch in _GRID_CHARS or _kind(ch) != "base" for ch in set("".join(rows))):
        return False
    widths, drawn = set(), set()
    for line in rows:
        row = list(cells(line))
        widths.add(len(row))
        drawn.update(row)
        if len(widths) > 1 or len(drawn) > 16:
            return False
    return _drawn_on_background({cell[0] for cell in drawn}, drawn)


def _drawn_on_background(bases: set[str], drawn: set[str]) -> bool:
    """Cells of grid characters on a background or in squares; letters and spaces together are words."""
    letters = any(ch.isascii() and ch.isalpha() for ch in bases)
    background = bases & set(".0_-·☐⬜" if letters else ".0 _-·☐⬜")
    return (bases <= _GRID_CHARS and not (letters and " " in bases) and bool(bases & _SQUARES or background)
            and bool(drawn - _BACKGROUND))


def loads(text: str) -> Puzzle:
    """The puzzle whose goal is the grid drawn in ``text``.

    >>> p = loads("⬜⬛⬜\\n⬛⬛⬛\\n")
    >>> p.rows, [c.name for c in p.palette]
    ((((1, 1),), ((3, 1),)), ['white', 'black'])
    """
    grid, palette = grid_from_text(text)
    return puzzle_from_grid(grid, palette)
