"""One page read: its grids, and for each the clue numbers of every row and column with their confidences.

The grid comes from the page's lines (:mod:`.lattice`); the numbers from the
PDF's text layer when it has one (:mod:`.textlayer`, exact), else from the
pixels (:mod:`.raster`, the digit reader). A grid with no number beside it
(an answer key, a blank grid) is no puzzle and is left out.
"""
from __future__ import annotations

from dataclasses import dataclass

from .assign import Item, clue_items
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


def read_page(page: Page) -> list[Found]:
    """Every puzzle grid on ``page`` with its clues read; grids without any clue number are left out."""
    grids = find_grids(page.gray)
    inks: dict[int, Ink] = {}  # by the stroke length they leave out: grids of one page mostly share a pitch
    found = []
    for grid in grids:
        if page.words is not None:
            items, source = text_items(page.words, grid), "text"
        else:
            key = round(grid.pitch)
            if key not in inks:
                inks[key] = page_ink(page.gray, grid.pitch)
            items, source = raster_items(inks[key], grid), "pixels"
        rows, cols = clue_items(items, grid)
        if any(rows) or any(cols):
            found.append(Found(page.number, grid, tuple(map(tuple, rows)), tuple(map(tuple, cols)), source))
    return found
