"""One page read: its grids, and for each the clue numbers of every row and column with their confidences.

The page is first made dark ink on light paper (:mod:`.colour`: dark themes,
coloured digits). The grid comes from the page's lines (:mod:`.lattice`); the
numbers from the PDF's text layer when it has one (:mod:`.textlayer`, exact),
else from the pixels (:mod:`.raster`, the digit reader), once any filled clue
boxes are painted out. On a page in colour every number gets its colour. A
grid with no number beside it (an answer key, a blank grid) is no puzzle and
is left out.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .assign import Item, clue_items
from .colour import Box, contrast_gray, item_colours, unboxed
from .glyphs import Ink, page_ink
from .lattice import Grid, find_grids
from .pages import Page
from .raster import raster_items
from .textlayer import text_items

__all__ = ["Found", "read_page"]


@dataclass(frozen=True)
class Found:
    """A grid found on a page and the numbers read as its clues (rows left to right, columns top to bottom)."""

    page: int
    grid: Grid
    rows: tuple[tuple[Item, ...], ...]
    cols: tuple[tuple[Item, ...], ...]
    source: str  # "text" (a PDF's text layer) or "pixels"


def _coloured(items: list[Item], boxes: list[Box], page: Page, contrast: np.ndarray) -> list[Item]:
    """The items with their colours (a page in colour only: on a grey page every clue is the one ink)."""
    if page.rgb is None:
        return items
    numbers = [i for i in items if i.value >= 0]
    colours = dict(zip(map(id, numbers), item_colours(numbers, boxes, page.gray, page.rgb, contrast), strict=True))
    return [replace(i, colour=colours[id(i)]) if id(i) in colours else i for i in items]


def read_page(page: Page) -> list[Found]:
    """Every puzzle grid on ``page`` with its clues read; grids without any clue number are left out."""
    contrast = contrast_gray(page.gray, page.rgb)
    grids = find_grids(contrast)
    inks: dict[int, tuple[Ink, list[Box]]] = {}  # by pitch: grids of one page mostly share one
    found = []
    for grid in grids:
        key = round(grid.pitch)
        if key not in inks:
            clean, boxes = unboxed(contrast, page.gray, page.rgb, grid.pitch)
            inks[key] = (page_ink(clean, grid.pitch) if page.words is None else None, boxes)  # type: ignore[assignment]
        ink, boxes = inks[key]
        if page.words is not None:
            items, source = text_items(page.words, grid), "text"
        else:
            items, source = raster_items(ink, grid), "pixels"
        rows, cols = clue_items(_coloured(items, boxes, page, contrast), grid)
        if any(rows) or any(cols):
            found.append(Found(page.number, grid, tuple(map(tuple, rows)), tuple(map(tuple, cols)), source))
    return found
