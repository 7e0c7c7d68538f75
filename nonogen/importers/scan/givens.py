"""The givens a sheet prints in its grid: cells the solver is told at the start.

A sheet marks a given empty cell with a small dot in its middle, and a given
filled cell by painting it its colour (nonogen's sheets do both; so do books
that make a hard puzzle easier). Read without them, a puzzle that is unique as
printed verifies as having several solutions. Only an upright page is read
for givens: on a photo a speck or a stain is as likely as a dot.

A grid whose cells are mostly painted is a tinted grid (a dark theme, a
panel), not one full of givens: then no cell is a given.
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from .lattice import Grid

__all__ = ["Given", "cell_givens", "puzzle_givens"]

Given = tuple[int, int, Optional[tuple[int, int, int]]]
"""A given cell: its row, its column, and its colour when it is filled (None: a given empty cell)."""

INK = 230
"""A pixel of the contrast (0 ink .. 255 paper) under this is something drawn."""
INSIDE = 0.15
"""Each side of a cell left out (in cells) when it is looked at: its lines and their blur."""
FILLED = 0.9
"""A cell this much drawn inside is painted: a filled given."""
DOT = (0.005, 0.12, 0.4)
"""A dot: at least and at most this share of the cell's inside drawn, all of it within this share of the cell of
its middle each way (nonogen's dot is a fifth of a cell across: 4 % of the cell)."""
MOSTLY = 0.5
"""More than this share of the cells painted: the grid is tinted, nothing is a given."""
GIVEN_COLOUR = 80
"""A filled given's colour this near (strongest channel) to one of the clues' colours is that colour."""


def cell_givens(contrast: np.ndarray, colours: np.ndarray, grid: Grid) -> tuple[Given, ...]:
    """The given cells of ``grid``: ``contrast`` is the page dark on white, ``colours`` its pixels (height x
    width x channels) for a filled cell's colour."""
    out: list[Given] = []
    for r in range(grid.height):
        for c in range(grid.width):
            given = _given(contrast, colours, grid, r, c)
            if given is not None:
                out.append(given)
    if sum(g[2] is not None for g in out) > MOSTLY * grid.width * grid.height:
        return ()
    return tuple(out)


def _given(contrast: np.ndarray, colours: np.ndarray, grid: Grid, r: int, c: int) -> Optional[Given]:
    """Cell ``r, c`` as a given, looked at inside its lines: painted nearly all over (filled, in the painting's
    colour), or a small mark wholly in its middle (an empty cell's dot); anything else (a cross a solver drew, a
    stain reaching a side) is no given."""
    x0, x1, y0, y1 = grid.xs[c], grid.xs[c + 1], grid.ys[r], grid.ys[r + 1]
    pad_x, pad_y = INSIDE * (x1 - x0), INSIDE * (y1 - y0)
    box = (slice(int(round(y0 + pad_y)), int(round(y1 - pad_y))), slice(int(round(x0 + pad_x)), int(round(x1 - pad_x))))
    drawn = contrast[box] < INK
    if drawn.size == 0 or not drawn.any():
        return None
    share = float(drawn.mean())
    if share >= FILLED:
        fill = np.median(colours[box][drawn].reshape(-1, colours.shape[2]), axis=0)
        return r, c, tuple(int(v) for v in np.broadcast_to(fill, (3,)))  # type: ignore[return-value]
    low, high, reach = DOT
    if not low <= share <= high:
        return None
    ys, xs = np.nonzero(drawn)
    h, w = drawn.shape
    middle = (abs(ys - (h - 1) / 2) <= reach * h / 2).all() and (abs(xs - (w - 1) / 2) <= reach * w / 2).all()
    return (r, c, None) if middle else None


def puzzle_givens(read: Sequence[Given], palette: Sequence) -> list[tuple[int, int, int]]:
    """The givens read in a grid as the puzzle's: an empty one colour 0, a filled one the clue colour nearest its
    fill (a fill like none of the clues' colours is left out: no cell can be a colour no clue has)."""
    inks = np.array([colour.rgb_tuple for colour in palette[1:]], np.int16).reshape(-1, 3)
    out = []
    for r, c, fill in read:
        if fill is None:
            out.append((r, c, 0))
            continue
        distance = np.abs(inks - np.asarray(fill, np.int16)).max(axis=1)
        if len(distance) and distance.min() <= GIVEN_COLOUR:
            out.append((r, c, int(distance.argmin()) + 1))
    return out
