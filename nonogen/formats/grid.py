"""A goal grid drawn in characters, the input of ``nonogen clues``: rows of text, one character per cell.

Not a puzzle format (it holds a picture, not clues), so it is not in the
registry; :func:`grid_from_text` reads it and the clues are derived from it.
"""
from __future__ import annotations

import numpy as np

from ..errors import FormatError
from ..palette import Color, distinct_colors

__all__ = ["grid_from_text", "BACKGROUND_CHARS", "FILLED_CHARS"]

BACKGROUND_CHARS = ".0 _-"
FILLED_CHARS = "#1Xx*"


def grid_from_text(text: str, path: str = "<grid>") -> tuple[np.ndarray, tuple[Color, ...]]:
    """Parse a goal grid drawn in characters: background ``.0 _-``, black ``#1Xx*``, other characters colours.

    >>> grid, palette = grid_from_text(".#\\n##\\n")
    >>> grid.tolist(), len(palette)
    ([[0, 1], [1, 1]], 2)
    """
    lines = [line.rstrip("\r") for line in text.split("\n") if line.strip() and not line.startswith(";")]
    if not lines:
        raise FormatError("expected rows of characters, found none", path=path)
    width = max(len(line) for line in lines)
    chars: list[str] = []
    for number, line in enumerate(lines, 1):
        for ch in line.ljust(width):
            if ch not in BACKGROUND_CHARS and ch not in FILLED_CHARS and ch not in chars:
                chars.append(ch)
    palette = [Color("white", "#ffffff", ".")]
    if chars:
        hues = distinct_colors(len(chars))
        palette += [Color(f"color-{ch}", hues[i], ch) for i, ch in enumerate(chars)]
        black_index = None
    else:
        palette.append(Color("black", "#000000", "#"))
        black_index = 1
    index = {c.char: i for i, c in enumerate(palette)}
    grid = np.zeros((len(lines), width), dtype=np.uint8)
    for r, line in enumerate(lines):
        for c, ch in enumerate(line.ljust(width)):
            if ch in BACKGROUND_CHARS:
                continue
            if ch in FILLED_CHARS:
                if black_index is None:
                    palette.append(Color("black", "#000000", "#"))
                    black_index = index["#"] = len(palette) - 1
                grid[r, c] = black_index
            else:
                grid[r, c] = index[ch]
    return grid, tuple(palette)
