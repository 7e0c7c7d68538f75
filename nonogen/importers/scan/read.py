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

from . import photoread
from .assign import Item, clue_items
from .colour import Box, contrast_gray, item_colours, panel_colour, unboxed
from .givens import Given, cell_givens
from .glyphs import Ink, page_ink
from .lattice import Grid, find_grids
from .pages import Page
from .raster import raster_items
from .textlayer import text_items

__all__ = ["Found", "read_page", "read_upright"]

DRAWN_PAPER = 0.2
"""Share of a picture's pixels its most common grey holds at least when it was drawn, not photographed: measured,
renders and screenshots 0.53 to 0.93, photos (real and simulated) 0.015 to 0.033."""


@dataclass(frozen=True)
class Found:
    """A grid found on a page and the numbers read as its clues (rows left to right, columns top to bottom)."""

    page: int
    grid: Grid
    rows: tuple[tuple[Item, ...], ...]
    cols: tuple[tuple[Item, ...], ...]
    source: str  # "text" (a PDF's text layer) or "pixels"
    dropped: tuple[Item, ...] = ()  # what a photo's column clues held that fits no column (a smudge, a stray)
    legible: bool = True  # a photo whose digits read as surely as a readable one's (:func:`.photoread.legible`)
    givens: tuple[Given, ...] = ()  # cells printed known in the grid (:mod:`.givens`; an upright page's only)


def _coloured(items: list[Item], boxes: list[Box], page: Page, contrast: np.ndarray, grid: Grid) -> list[Item]:
    """The items with their colours (a page in colour only: on a grey page every clue is the one ink)."""
    if page.rgb is None:
        return items
    numbers = [i for i in items if i.value >= 0]
    panel = panel_colour(numbers, grid, page.rgb, contrast)
    colours = dict(zip(map(id, numbers), item_colours(numbers, boxes, page.gray, page.rgb, contrast, panel),
                       strict=True))
    return [replace(i, colour=colours[id(i)]) if id(i) in colours else i for i in items]


def read_page(page: Page) -> list[Found]:
    """Every puzzle grid on ``page`` with its clues read; grids without any clue number are left out.

    A photo (:func:`_photographed`) is read redrawn flat first (:mod:`.photo`, :mod:`.photoread`), and when that
    reads soundly (:func:`.photoread.sound`: a grid, every clue possible, the rows' and columns' totals equal) that
    is its reading: read as a clean sheet first, a photo took twice the time (nono4: 3.7 s, its clean reading
    unsound anyway). A picture whose grids do not read soundly is read both ways, and the better reading is kept:
    the one with more grids that read soundly, or more grids; the upright one when they are as good (a sheet with
    a stained digit keeps its reading, where the misread clue shows, rather than a redrawn one that misreads it
    more plausibly). Upright grids that touch are pieces of one (a magazine's thick lines every five cells cut its
    lattice into blocks): then the redrawn reading is kept when it reads as many grids soundly.
    """
    again = photoread.read_photo(page) if page.words is None and _photographed(page.gray) else None
    if again is not None and _all_sound(again):
        return again  # a photo read soundly redrawn: its reading as a clean sheet (a second of work) is not needed
    found = read_upright(page)
    if page.words is None and not _all_sound(found):
        again = photoread.read_photo(page) if again is None else again
        better, good = _score(again), _score(found)
        if better[:2] > good[:2] or (_pieces(found) and better[0] >= good[0]):  # not a closer miss
            return again
    return found


def _photographed(gray: np.ndarray) -> bool:
    """Whether ``gray`` looks like a photo: its paper is grain and noise, its most common grey under
    :data:`DRAWN_PAPER` of its pixels (a render's or a screenshot's paper is one grey: over half of them)."""
    return float(np.bincount(gray.ravel(), minlength=256).max()) < DRAWN_PAPER * gray.size


def _all_sound(found: list[Found]) -> bool:
    return bool(found) and all(photoread.sound(f.rows, f.cols) for f in found)


def _score(found: list[Found]) -> tuple[int, int, int]:
    """How good a page's reading looks: grids that read soundly, grids, and how far from sound the rest are (the
    cells by which rows and columns differ, the clues that cannot fit; fewer is better)."""
    off = 0
    for f in found:
        lines = [(items, len(f.cols)) for items in f.rows] + [(items, len(f.rows)) for items in f.cols]
        off += sum(photoread.least_length(items) > length for items, length in lines)
        off += abs(sum(i.value for line in f.rows for i in line) - sum(i.value for line in f.cols for i in line))
    return sum(photoread.sound(f.rows, f.cols) for f in found), len(found), -off


def _pieces(found: list[Found]) -> bool:
    """Whether two of the grids found touch, side by side or one over the other: pieces of one grid."""
    for k, a in enumerate(found):
        for b in found[k + 1:]:
            (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = a.grid.box, b.grid.box
            near = max(a.grid.pitch, b.grid.pitch)
            across = min(ax1, bx1) - max(ax0, bx0) > near and min(abs(ay1 - by0), abs(by1 - ay0)) <= near
            down = min(ay1, by1) - max(ay0, by0) > near and min(abs(ax1 - bx0), abs(bx1 - ax0)) <= near
            if across or down:
                return True
    return False


def read_upright(page: Page) -> list[Found]:
    """The grids of an upright page (a sheet, a screenshot, a PDF), read as they are (no photo's second try)."""
    contrast = contrast_gray(page.gray, page.rgb)
    colours = page.gray[..., None] if page.rgb is None else page.rgb
    photographed = page.words is None and _photographed(page.gray)  # a speck is as likely as a given's dot
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
        rows, cols = clue_items(_coloured(items, boxes, page, contrast, grid), grid)
        if any(rows) or any(cols):
            found.append(Found(page.number, grid, tuple(map(tuple, rows)), tuple(map(tuple, cols)), source,
                               givens=() if photographed else cell_givens(contrast, colours, grid)))
    return found
