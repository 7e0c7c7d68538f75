"""Pictures of packing levels and solutions, written by :func:`nonogen.output.save_picture` as SVG, PNG or PDF.

A picture is laid out as :mod:`nonogen.render.canvas` shapes (cell squares,
piece outlines, labels), so every file format shows the same thing.
Each piece has its own colour and its letter, so the picture still reads in
greyscale; thick lines separate different pieces.
"""
from __future__ import annotations

from typing import Sequence

from ..palette import distinct_colors
from ..render.canvas import INK, Line, Picture, Rect, Text
from .level import BLOCKED, FREE, Level, cells_by_char
from .pieces import shape_to_rows

__all__ = ["Picture", "level_picture", "solution_picture", "piece_colors"]

BLOCKED_FILL = "#555555"
FREE_FILL = "#ffffff"
piece_colors = distinct_colors  # the name callers of this module know


def _grid(shapes: list, rows: Sequence[str], x0: float, y0: float, cell: float, colors: dict[str, str]) -> None:
    """Cells of a picture (board or piece) with thick lines between different owners."""
    h, w = len(rows), len(rows[0])
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            fill = BLOCKED_FILL if ch == BLOCKED else colors.get(ch, FREE_FILL)
            if ch == " ":
                continue
            shapes.append(Rect(x0 + c * cell, y0 + r * cell, cell, cell, fill))
    owner = lambda r, c: rows[r][c] if 0 <= r < h and 0 <= c < w else " "  # noqa: E731
    thin, thick = max(1.0, cell / 32), max(2.0, cell / 10)
    for r in range(h + 1):
        for c in range(w):
            a, b = owner(r - 1, c), owner(r, c)
            if a == " " and b == " ":
                continue
            width = thin if a == b else thick
            shapes.append(Line(x0 + c * cell, y0 + r * cell, x0 + (c + 1) * cell, y0 + r * cell, INK, width))
    for r in range(h):
        for c in range(w + 1):
            a, b = owner(r, c - 1), owner(r, c)
            if a == " " and b == " ":
                continue
            width = thin if a == b else thick
            shapes.append(Line(x0 + c * cell, y0 + r * cell, x0 + c * cell, y0 + (r + 1) * cell, INK, width))
    for ch, cells in cells_by_char(rows).items():
        if ch in (BLOCKED, FREE, " "):
            continue
        r, c = _label_cell(cells)
        shapes.append(Text(x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell, ch, cell * 0.5))


def _label_cell(cells: list[tuple[int, int]]) -> tuple[int, int]:
    """The piece cell nearest the piece's centre: the label stays inside bent pieces."""
    cr = sum(r for r, _ in cells) / len(cells)
    cc = sum(c for _, c in cells) / len(cells)
    return min(cells, key=lambda rc: ((rc[0] - cr) ** 2 + (rc[1] - cc) ** 2, rc))


def _colors(level: Level) -> dict[str, str]:
    return dict(zip((p.char for p in level.pieces), distinct_colors(len(level.pieces)), strict=True))


def solution_picture(level: Level, rows: Sequence[str], cell: float = 32) -> Picture:
    """The completed board, one colour per piece."""
    margin = cell / 2
    shapes: list = []
    _grid(shapes, rows, margin, margin, cell, _colors(level))
    return Picture(level.width * cell + 2 * margin, level.height * cell + 2 * margin, shapes)


def level_picture(level: Level, cell: float = 32) -> Picture:
    """The board with its pre-placed pieces, and the loose pieces laid out below it."""
    margin = cell / 2
    colors = _colors(level)
    shapes: list = []
    _grid(shapes, level.rows(), margin, margin, cell, colors)
    small = cell / 2
    width = max(level.width * cell, 4 * cell)
    x, y = margin, margin + level.height * cell + margin
    row_h = 0.0
    for piece in level.loose_pieces:
        drawing = [row.replace("#", piece.char).replace(".", " ") for row in shape_to_rows(piece.shape)]
        pw, ph = len(drawing[0]) * small, len(drawing) * small
        if x > margin and x + pw > margin + width:
            x, y, row_h = margin, y + row_h + small, 0.0
        _grid(shapes, drawing, x, y, small, colors)
        x += pw + small
        row_h = max(row_h, ph)
    total_h = y + row_h + margin if level.loose_pieces else margin * 2 + level.height * cell
    return Picture(width + 2 * margin, total_h, shapes)
