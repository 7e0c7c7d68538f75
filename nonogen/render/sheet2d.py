"""Printable 2D puzzle sheets and solutions, as SVG text or a Pillow image.

One pure function, :func:`sheet_shapes`, lays the sheet out as a list of
:mod:`nonogen.render.canvas` shapes (rectangles, lines, centred text), which
the canvas draws as SVG or PNG.

The sheet: clue numbers in the left and top margins (in coloured boxes for
colour puzzles, with black or white digits by contrast), the grid with a
heavier guide line every 5 cells, givens drawn in the grid (a filled cell, or
a dot for a cell given as background), and for a solution sheet every cell
painted.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np
from PIL import Image

from ..model import Puzzle
from ..palette import ink_on
from .canvas import Line, Picture, Rect, Shape, Text, to_png, to_svg

__all__ = ["Rect", "Line", "Text", "sheet_shapes", "sheet_picture", "sheet_size", "cell_center", "render_svg", "render_png"]

GUIDE_EVERY = 5
INK = "#000000"
THIN = "#9a9a9a"
GUIDE = "#333333"


@dataclass(frozen=True)
class _Layout:
    cell: float
    grid_x: float
    grid_y: float
    width: float
    height: float
    title_y: float


def _layout(puzzle: Puzzle, cell: float) -> _Layout:
    margin = cell / 2
    title_h = cell * 1.2 if puzzle.meta.get("title") else 0.0
    row_slots = max(1, max(len(r) for r in puzzle.rows))
    col_slots = max(1, max(len(c) for c in puzzle.cols))
    grid_x = margin + row_slots * cell
    grid_y = margin + title_h + col_slots * cell
    return _Layout(
        cell=cell,
        grid_x=grid_x,
        grid_y=grid_y,
        width=grid_x + puzzle.width * cell + margin,
        height=grid_y + puzzle.height * cell + margin,
        title_y=margin + title_h / 2,
    )


def sheet_size(puzzle: Puzzle, cell: float = 20) -> tuple[int, int]:
    """Width and height of the sheet in pixels (SVG user units) for a given cell size.

    >>> sheet_size(Puzzle(rows=[[(1, 1)], []], cols=[[(1, 1)], []]), cell=10)
    (40, 40)
    """
    lay = _layout(puzzle, cell)
    return int(round(lay.width)), int(round(lay.height))


def cell_center(puzzle: Puzzle, row: int, col: int, cell: float = 20) -> tuple[float, float]:
    """Sheet coordinates of the centre of grid cell ``(row, col)``: where tests and tools sample a PNG.

    >>> cell_center(Puzzle(rows=[[(1, 1)], []], cols=[[(1, 1)], []]), 1, 0, cell=10)
    (20.0, 30.0)
    """
    lay = _layout(puzzle, cell)
    return lay.grid_x + (col + 0.5) * cell, lay.grid_y + (row + 0.5) * cell


def _font_size(number: int, cell: float) -> float:
    return cell * (0.62 if number < 10 else 0.55 if number < 100 else 0.42)


def _clue_shapes(puzzle: Puzzle, lay: _Layout) -> list[Shape]:
    c = lay.cell
    shapes: list[Shape] = []

    def item(x: float, y: float, length: int, color: int) -> None:
        if puzzle.is_color:
            fill = puzzle.palette[color].rgb
            shapes.append(Rect(x + 1, y + 1, c - 2, c - 2, fill, stroke=THIN))
            ink = ink_on(fill, dark=INK)
        else:
            ink = INK
        shapes.append(Text(x + c / 2, y + c / 2, str(length), _font_size(length, c), ink))

    for r, clue in enumerate(puzzle.rows):
        y = lay.grid_y + r * c
        if not clue:
            shapes.append(Text(lay.grid_x - c / 2, y + c / 2, "0", _font_size(0, c), INK))
        for i, (length, color) in enumerate(clue):
            item(lay.grid_x - (len(clue) - i) * c, y, length, color)
    for col, clue in enumerate(puzzle.cols):
        x = lay.grid_x + col * c
        if not clue:
            shapes.append(Text(x + c / 2, lay.grid_y - c / 2, "0", _font_size(0, c), INK))
        for i, (length, color) in enumerate(clue):
            item(x, lay.grid_y - (len(clue) - i) * c, length, color)
    return shapes


def _cell_shapes(puzzle: Puzzle, lay: _Layout, solution: Optional[np.ndarray]) -> list[Shape]:
    c = lay.cell
    shapes: list[Shape] = [Rect(lay.grid_x, lay.grid_y, puzzle.width * c, puzzle.height * c, "#ffffff")]
    if solution is not None:
        for (r, col), value in np.ndenumerate(np.asarray(solution)):
            if value or puzzle.palette[0].rgb != "#ffffff":
                shapes.append(Rect(lay.grid_x + col * c, lay.grid_y + r * c, c, c, puzzle.palette[int(value)].rgb))
        return shapes
    for r, col, value in puzzle.givens:
        x, y = lay.grid_x + col * c, lay.grid_y + r * c
        if value:
            shapes.append(Rect(x, y, c, c, puzzle.palette[value].rgb))
        else:
            shapes.append(Rect(x + c * 0.4, y + c * 0.4, c * 0.2, c * 0.2, GUIDE))
    return shapes


def _grid_lines(puzzle: Puzzle, lay: _Layout) -> list[Shape]:
    c = lay.cell
    x0, y0 = lay.grid_x, lay.grid_y
    x1, y1 = x0 + puzzle.width * c, y0 + puzzle.height * c
    thin: list[Shape] = []
    bold: list[Shape] = []
    for i in range(puzzle.width + 1):
        edge = i in (0, puzzle.width)
        target = bold if edge or i % GUIDE_EVERY == 0 else thin
        target.append(Line(x0 + i * c, y0, x0 + i * c, y1, INK if edge else GUIDE if target is bold else THIN,
                           2.0 if edge else 1.5 if target is bold else 1.0))
    for j in range(puzzle.height + 1):
        edge = j in (0, puzzle.height)
        target = bold if edge or j % GUIDE_EVERY == 0 else thin
        target.append(Line(x0, y0 + j * c, x1, y0 + j * c, INK if edge else GUIDE if target is bold else THIN,
                           2.0 if edge else 1.5 if target is bold else 1.0))
    return thin + bold  # heavy lines last, so they are drawn on top


def sheet_shapes(puzzle: Puzzle, solution: Optional[np.ndarray] = None, cell: float = 20) -> list[Shape]:
    """Everything on the sheet, back to front (on white): clues, cells, grid lines, title.

    With ``solution`` (an ``H x W`` grid of colour indices) every cell is
    painted; without it the empty grid shows only the puzzle's givens.
    """
    lay = _layout(puzzle, cell)
    shapes = _clue_shapes(puzzle, lay)
    shapes += _cell_shapes(puzzle, lay, solution)
    shapes += _grid_lines(puzzle, lay)
    title = puzzle.meta.get("title")
    if title:
        shapes.append(Text(lay.width / 2, lay.title_y, str(title), cell * 0.7, INK))
    return shapes


def sheet_picture(puzzle: Puzzle, solution: Optional[np.ndarray] = None, cell: float = 20) -> Picture:
    """The sheet as a :class:`~nonogen.render.canvas.Picture` of ``sheet_size(puzzle, cell)`` units."""
    return Picture(*sheet_size(puzzle, cell), sheet_shapes(puzzle, solution, cell))


def render_svg(puzzle: Puzzle, solution: Optional[np.ndarray] = None, cell: float = 20) -> str:
    """The sheet as SVG text (see :func:`sheet_shapes`)."""
    return to_svg(sheet_picture(puzzle, solution, cell))


def render_png(puzzle: Puzzle, solution: Optional[np.ndarray] = None, cell: float = 20, scale: int = 1) -> Image.Image:
    """The sheet as an RGB Pillow image of ``sheet_size(puzzle, cell)`` times ``scale`` pixels."""
    return to_png(sheet_picture(puzzle, solution, cell), scale)
