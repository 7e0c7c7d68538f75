"""Printable 2D puzzle sheets, solutions and answer grids, as :class:`~nonogen.render.canvas.Picture` objects.

:func:`sheet_picture` lays the sheet out as plain shapes (rectangles, lines,
text), which :func:`nonogen.output.save_picture` writes as SVG, PNG or PDF.

The sheet, top to bottom: an optional caption line ("Puzzle 7 · grade 2") and
title, wrapped to the sheet's width; clue numbers in the left and top margins
(in coloured boxes for colour puzzles, with black or white digits by
contrast); the grid with a heavier guide line every 5 cells, givens drawn in
it (a filled cell, or a dot for a cell given as background), or on a solution
sheet every cell painted; and on request a colour legend (swatch and name of
each colour), which a printed colour puzzle needs because a grey printer or a
colour-blind solver cannot tell the clue boxes apart by hue alone.

Every length is a multiple of ``cell``, so the sheet scales as a whole; the
smallest text is a 3-digit clue at 0.42 cell, which print layouts check
against their minimum size. A ``dense`` sheet, for a big puzzle on small
paper, lets the digits fill more of their cell (two digits at 0.72 cell, three
at 0.5), so the printed grid can shrink further before its clues get too small.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import numpy as np
from ..model import Puzzle
from ..colorspace import readable_names
from ..palette import ink_on
from .canvas import Line, Picture, Rect, Shape, Text, flow, text_width, wrap_text

__all__ = [
    "Rect", "Line", "Text", "sheet_shapes", "sheet_picture", "sheet_size", "cell_center", "grid_origin",
    "answer_picture", "ANSWER_MARGIN",
]

GUIDE_EVERY = 5
INK = "#000000"
THIN = "#9a9a9a"
GUIDE = "#333333"
TITLE_EM, CAPTION_EM, LEGEND_EM = 0.7, 0.6, 0.6  # font sizes in cells
TITLE_LINE, CAPTION_LINE, LEGEND_ROW = 1.2, 1.0, 1.2  # line heights in cells
SWATCH = 0.8  # legend swatch side in cells
MAX_TEXT_CELLS = 20  # a long title or legend may widen the sheet to this many cells, then it wraps
ANSWER_MARGIN = 1.5  # units around an answer grid: room for the outer line's half width


@dataclass(frozen=True)
class _LegendItem:
    x: float  # left edge of the swatch, relative to the legend's left edge
    row: int
    rgb: str
    label: str


@dataclass(frozen=True)
class _Layout:
    cell: float
    margin: float
    grid_x: float
    grid_y: float
    width: float
    height: float
    inner: float  # width available to text lines
    caption: tuple[str, ...]
    title: tuple[str, ...]
    legend: tuple[_LegendItem, ...]
    legend_y: float



def _legend_entries(puzzle: Puzzle) -> list[tuple[str, str]]:
    """``(rgb, label)`` of each colour a solver paints, and of the background when it is not white."""
    names = readable_names(puzzle.palette)
    entries = [(c.rgb, name) for c, name in zip(puzzle.palette[1:], names[1:], strict=True)]
    bg = puzzle.palette[0]
    if bg.rgb != "#ffffff":
        entries.append((bg.rgb, f"{names[0]}, background"))
    return entries


def _item_width(label: str, cell: float) -> float:
    return (SWATCH + 0.3) * cell + text_width(label, LEGEND_EM * cell)


def _flow_legend(entries: list[tuple[str, str]], cell: float, width: float) -> list[_LegendItem]:
    """Legend items left to right, starting a new row when the next one would pass ``width``."""
    spots = flow([_item_width(label, cell) for _, label in entries], width, 0.8 * cell)
    return [_LegendItem(x, row, rgb, label) for (x, row), (rgb, label) in zip(spots, entries, strict=True)]


def _layout(puzzle: Puzzle, cell: float, title: Optional[str], caption: str, legend: bool) -> _Layout:
    margin = cell / 2
    title = str(puzzle.meta.get("title", "")) if title is None else title
    row_slots = max(1, max(len(r) for r in puzzle.rows))
    col_slots = max(1, max(len(c) for c in puzzle.cols))
    content = (row_slots + puzzle.width) * cell
    entries = _legend_entries(puzzle) if legend and puzzle.is_color else []
    wants = [text_width(title, TITLE_EM * cell), text_width(caption, CAPTION_EM * cell)]
    wants += [_item_width(label, cell) for _, label in entries]
    inner = max(content, min(max(wants), MAX_TEXT_CELLS * cell))
    caption_lines = tuple(wrap_text(caption, CAPTION_EM * cell, inner)) if caption else ()
    title_lines = tuple(wrap_text(title, TITLE_EM * cell, inner)) if title else ()
    header = len(caption_lines) * CAPTION_LINE * cell + len(title_lines) * TITLE_LINE * cell
    grid_x = margin + (inner - content) / 2 + row_slots * cell
    grid_y = margin + header + col_slots * cell
    items = tuple(_flow_legend(entries, cell, inner))
    legend_y = grid_y + puzzle.height * cell + 0.5 * cell
    legend_h = (items[-1].row + 1) * LEGEND_ROW * cell + 0.3 * cell if items else 0.0
    return _Layout(cell, margin, grid_x, grid_y, inner + 2 * margin, grid_y + puzzle.height * cell + legend_h + margin,
                   inner, caption_lines, title_lines, items, legend_y)


def sheet_size(puzzle: Puzzle, cell: float = 20, *, title: Optional[str] = None, caption: str = "",
               legend: bool = False) -> tuple[int, int]:
    """Width and height of the sheet in units (CSS pixels) for a given cell size, rounded up.

    >>> sheet_size(Puzzle(rows=[[(1, 1)], []], cols=[[(1, 1)], []]), cell=10)
    (40, 40)
    """
    return _size(_layout(puzzle, cell, title, caption, legend))


def _size(lay: _Layout) -> tuple[int, int]:
    return math.ceil(lay.width - 1e-9), math.ceil(lay.height - 1e-9)


def grid_origin(puzzle: Puzzle, cell: float = 20, *, title: Optional[str] = None, caption: str = "",
                legend: bool = False) -> tuple[float, float]:
    """Sheet coordinates of the grid's top-left corner (same keyword arguments as :func:`sheet_picture`)."""
    lay = _layout(puzzle, cell, title, caption, legend)
    return lay.grid_x, lay.grid_y


def cell_center(puzzle: Puzzle, row: int, col: int, cell: float = 20, **options) -> tuple[float, float]:
    """Sheet coordinates of the centre of grid cell ``(row, col)``: where tests and tools sample a PNG.

    >>> cell_center(Puzzle(rows=[[(1, 1)], []], cols=[[(1, 1)], []]), 1, 0, cell=10)
    (20.0, 30.0)
    """
    x, y = grid_origin(puzzle, cell, **options)
    return x + (col + 0.5) * cell, y + (row + 0.5) * cell


def _font_size(number: int, cell: float, dense: bool = False) -> float:
    """Clue font size: two digits at 0.6 cell still fit a cell, and decide how small a printed sheet may get.

    Dense: "88" at 0.72 cell is 0.8 cell wide, still clear of the cell's sides.
    """
    if dense:
        return cell * (0.72 if number < 100 else 0.5)
    return cell * (0.62 if number < 10 else 0.6 if number < 100 else 0.42)


def _clue_shapes(puzzle: Puzzle, lay: _Layout, dense: bool = False) -> list[Shape]:
    c = lay.cell
    shapes: list[Shape] = []

    def item(x: float, y: float, length: int, color: int) -> None:
        if puzzle.is_color:
            fill = puzzle.palette[color].rgb
            shapes.append(Rect(x + 1, y + 1, c - 2, c - 2, fill, stroke=THIN))
            ink = ink_on(fill, dark=INK)
        else:
            ink = INK
        shapes.append(Text(x + c / 2, y + c / 2, str(length), _font_size(length, c, dense), ink))

    for r, clue in enumerate(puzzle.rows):
        y = lay.grid_y + r * c
        if not clue:
            shapes.append(Text(lay.grid_x - c / 2, y + c / 2, "0", _font_size(0, c, dense), INK))
        for i, (length, color) in enumerate(clue):
            item(lay.grid_x - (len(clue) - i) * c, y, length, color)
    for col, clue in enumerate(puzzle.cols):
        x = lay.grid_x + col * c
        if not clue:
            shapes.append(Text(x + c / 2, lay.grid_y - c / 2, "0", _font_size(0, c, dense), INK))
        for i, (length, color) in enumerate(clue):
            item(x, lay.grid_y - (len(clue) - i) * c, length, color)
    return shapes


def _painted(puzzle: Puzzle, solution: np.ndarray, x0: float, y0: float, c: float) -> list[Shape]:
    """One square per cell that is not plain white."""
    shapes: list[Shape] = []
    for (r, col), value in np.ndenumerate(np.asarray(solution)):
        if value or puzzle.palette[0].rgb != "#ffffff":
            shapes.append(Rect(x0 + col * c, y0 + r * c, c, c, puzzle.palette[int(value)].rgb))
    return shapes


def _cell_shapes(puzzle: Puzzle, lay: _Layout, solution: Optional[np.ndarray]) -> list[Shape]:
    c = lay.cell
    shapes: list[Shape] = [Rect(lay.grid_x, lay.grid_y, puzzle.width * c, puzzle.height * c, "#ffffff")]
    if solution is not None:
        return shapes + _painted(puzzle, solution, lay.grid_x, lay.grid_y, c)
    for r, col, value in puzzle.givens:
        x, y = lay.grid_x + col * c, lay.grid_y + r * c
        if value:
            shapes.append(Rect(x, y, c, c, puzzle.palette[value].rgb))
        else:
            shapes.append(Rect(x + c * 0.4, y + c * 0.4, c * 0.2, c * 0.2, GUIDE))
    return shapes


def _grid_lines(puzzle: Puzzle, x0: float, y0: float, c: float) -> list[Shape]:
    """Thin lines between cells, heavier ones every 5 cells and round the edge (drawn last, on top)."""
    x1, y1 = x0 + puzzle.width * c, y0 + puzzle.height * c
    thin: list[Shape] = []
    bold: list[Shape] = []

    def add(i: int, n: int, line: tuple[float, float, float, float]) -> None:
        edge = i in (0, n)
        target = bold if edge or i % GUIDE_EVERY == 0 else thin
        color = INK if edge else GUIDE if target is bold else THIN
        target.append(Line(*line, color, 2.0 if edge else 1.5 if target is bold else 1.0))

    for i in range(puzzle.width + 1):
        add(i, puzzle.width, (x0 + i * c, y0, x0 + i * c, y1))
    for j in range(puzzle.height + 1):
        add(j, puzzle.height, (x0, y0 + j * c, x1, y0 + j * c))
    return thin + bold


def _header_shapes(lay: _Layout) -> list[Shape]:
    """Caption lines, then title lines, centred over the sheet."""
    shapes: list[Shape] = []
    y, cx = lay.margin, lay.width / 2
    for line in lay.caption:
        shapes.append(Text(cx, y + CAPTION_LINE * lay.cell / 2, line, CAPTION_EM * lay.cell, INK))
        y += CAPTION_LINE * lay.cell
    for line in lay.title:
        shapes.append(Text(cx, y + TITLE_LINE * lay.cell / 2, line, TITLE_EM * lay.cell, INK))
        y += TITLE_LINE * lay.cell
    return shapes


def _legend_shapes(lay: _Layout) -> list[Shape]:
    c, left = lay.cell, lay.margin
    shapes: list[Shape] = []
    for item in lay.legend:
        cy = lay.legend_y + (item.row + 0.5) * LEGEND_ROW * c
        x = left + item.x
        shapes.append(Rect(x, cy - SWATCH * c / 2, SWATCH * c, SWATCH * c, item.rgb, stroke=GUIDE))
        shapes.append(Text(x + (SWATCH + 0.3) * c, cy, item.label, LEGEND_EM * c, INK, anchor="start"))
    return shapes


def sheet_shapes(puzzle: Puzzle, solution: Optional[np.ndarray] = None, cell: float = 20, *,
                 title: Optional[str] = None, caption: str = "", legend: bool = False,
                 dense: bool = False) -> list[Shape]:
    """Everything on the sheet, back to front (on white): clues, cells, grid lines, header, legend.

    With ``solution`` (an ``H x W`` grid of colour indices) every cell is
    painted; without it the empty grid shows only the puzzle's givens.
    ``title=None`` takes the puzzle's own title (``""``: none); ``dense``
    draws larger digits (see the module's note).
    """
    return _shapes(puzzle, _layout(puzzle, cell, title, caption, legend), solution, dense)


def _shapes(puzzle: Puzzle, lay: _Layout, solution: Optional[np.ndarray], dense: bool) -> list[Shape]:
    shapes = _clue_shapes(puzzle, lay, dense)
    shapes += _cell_shapes(puzzle, lay, solution)
    shapes += _grid_lines(puzzle, lay.grid_x, lay.grid_y, lay.cell)
    return shapes + _header_shapes(lay) + _legend_shapes(lay)


def sheet_picture(puzzle: Puzzle, solution: Optional[np.ndarray] = None, cell: float = 20, *,
                  title: Optional[str] = None, caption: str = "", legend: bool = False,
                  dense: bool = False) -> Picture:
    """The sheet (see :func:`sheet_shapes`) as a picture of ``sheet_size(puzzle, cell, ...)`` units.

    ``caption`` is a smaller line above the title, e.g. ``"Puzzle 7 · grade 2"``;
    ``legend`` adds the colour legend under the grid of a colour puzzle.
    """
    lay = _layout(puzzle, cell, title, caption, legend)  # once: laying out a big colour sheet measures every clue
    return Picture(*_size(lay), _shapes(puzzle, lay, solution, dense))


def answer_picture(puzzle: Puzzle, solution: np.ndarray, cell: float = 20) -> Picture:
    """Only the painted grid, with its guide lines: the compact answer key of a puzzle book.

    The grid's top-left corner is at ``(ANSWER_MARGIN, ANSWER_MARGIN)``.
    """
    m = ANSWER_MARGIN
    shapes: list[Shape] = [Rect(m, m, puzzle.width * cell, puzzle.height * cell, "#ffffff")]
    shapes += _painted(puzzle, solution, m, m, cell)
    shapes += _grid_lines(puzzle, m, m, cell)
    return Picture(puzzle.width * cell + 2 * m, puzzle.height * cell + 2 * m, shapes)
