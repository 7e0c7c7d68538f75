"""A picture drawn in characters, one per cell: the input of ``nonogen clues``, and number-loom's ``char-grid``.

number-loom (a nonogram editor) reads and writes such grids as ``.txt``
files, often drawn with emoji squares: ``⬜`` for the white background,
``⬛`` for black, ``🟥🟩🟦🟨🟧🟪🟫`` for colours. Read as the format
``char-grid``, a grid is the puzzle whose goal is the picture (its clues
derived from it), so ``nonogen verify`` answers for it as for any puzzle.
A file of ``.txt`` counts as a grid only when no other text format fits and
it looks like one (:func:`looks_like`); nonogen reads the format, and does
not write it. No numpy: the 2D verify path stays free of it.
"""
from __future__ import annotations

from ..clues import puzzle_from_grid
from ..errors import FormatError
from ..model import Puzzle
from ..palette import Color, distinct_colors
from ._common import MAX_COLORS, check_count, check_size, split_lines

__all__ = ["grid_from_text", "BACKGROUND_CHARS", "FILLED_CHARS", "loads", "looks_like"]

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


def _rows(text: str) -> list[tuple[int, str]]:
    """``(line number, row)`` of the drawing: blank lines and ``;`` comment lines left out."""
    return [(n, line) for n, line in enumerate(split_lines(text), 1) if line.strip() and not line.startswith(";")]


def grid_from_text(text: str, path: str = "<grid>") -> tuple[list[list[int]], tuple[Color, ...]]:
    """Parse a goal grid drawn in characters: background ``.0 _-`` (and ``⬜``...), black ``#1Xx*`` (and ``⬛``...),
    the emoji squares in their colours, any other character a colour of its own. Short rows end in background.

    >>> grid_from_text(".#\\n##\\n")[0], [c.name for c in grid_from_text("⬜⬛\\n🟥⬜\\n")[1]]
    ([[0, 1], [1, 1]], ['white', 'black', 'red'])
    """
    rows = _rows(text)
    if not rows:
        raise FormatError("expected rows of characters, found none", path=path)
    palette = [Color("white", "#ffffff", ".")]
    index: dict[str, int] = {ch: 0 for ch in BACKGROUND_CHARS}
    grid = []
    try:
        width = max(len(line) for _, line in rows)
        check_size(width, len(rows), line=rows[0][0])
        for number, line in rows:
            row = []
            for ch in line.ljust(width):
                if ch not in index:
                    index[ch] = _new_color(ch, palette, number)
                row.append(index[ch])
            grid.append(row)
    except FormatError as exc:
        raise exc.with_path(path) from None
    if len(palette) == 1:  # a blank drawing is still black and white
        palette.append(Color("black", "#000000", "#"))
    return grid, _named(palette)


def _new_color(ch: str, palette: list[Color], line: int) -> int:
    """Add the colour that ``ch`` draws (black for every black character: one colour) and give its index."""
    if ch in FILLED_CHARS:
        black = next((i for i, c in enumerate(palette) if c.name == "black"), None)
        if black is not None:
            return black
        palette.append(Color("black", "#000000", "#"))
    else:
        name, rgb = SQUARE_COLORS.get(ch, (f"color-{ch}", ""))
        palette.append(Color(name, rgb or "#000000", ch))
    check_count(len(palette) - 1, MAX_COLORS, "colours", line)
    return len(palette) - 1


def _named(palette: list[Color]) -> tuple[Color, ...]:
    """Colours of other characters get distinct hues (never white or black), in the order first drawn."""
    plain = [i for i, c in enumerate(palette) if c.name.startswith("color-")]
    hues = distinct_colors(len(plain)) if plain else []
    for i, hue in zip(plain, hues):
        palette[i] = Color(palette[i].name, hue, palette[i].char)
    return tuple(palette)


_SQUARES = set("⬜⬛■█☐·") | set(SQUARE_COLORS)  # characters only a drawing has
_GRID_CHARS = set(BACKGROUND_CHARS + FILLED_CHARS + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") | _SQUARES


def looks_like(text: str) -> bool:
    """Two or more rows of one length, drawn in squares (``⬜⬛🟥``...) or in grid characters and letters on a
    background of ``.``, ``_``, ``-``, ``0`` or spaces, with at most 16 different characters.

    Tried after every other text format: a note or a word list has rows of different lengths, or no background.

    >>> looks_like("⬜⬛\\n🟥⬜\\n"), looks_like("..rr\\n.#r.\\n"), looks_like("hello\\nworld\\n"), looks_like("a b\\nc d\\n")
    (True, True, False, False)
    """
    rows = [line for _, line in _rows(text[:20000])]
    chars = set("".join(rows))
    letters = any(ch.isascii() and ch.isalpha() for ch in chars)
    background = chars & set(".0_-·☐⬜" if letters else ".0 _-·☐⬜")  # letters and spaces together: words
    return (len(rows) >= 2 and len({len(line) for line in rows}) == 1 and len(chars) <= 16 and chars <= _GRID_CHARS
            and not (letters and " " in chars) and bool(chars & _SQUARES or background)
            and bool(chars - set(BACKGROUND_CHARS)))


def loads(text: str) -> Puzzle:
    """The puzzle whose goal is the grid drawn in ``text``.

    >>> p = loads("⬜⬛⬜\\n⬛⬛⬛\\n")
    >>> p.rows, [c.name for c in p.palette]
    ((((1, 1),), ((3, 1),)), ['white', 'black'])
    """
    grid, palette = grid_from_text(text)
    return puzzle_from_grid(grid, palette)
