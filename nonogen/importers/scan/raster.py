"""Clue numbers read from pixels: the glyphs beside a grid, grouped into words and read by the digit reader."""
from __future__ import annotations

import numpy as np

from .assign import Item, text_lines
from .glyphs import SLOT_PITCH, Glyph, Ink, digit_gap, read_words, words_of
from .lattice import Grid

__all__ = ["raster_items"]


def _split_wide(word: list[Glyph], most: float, digit_apart: float) -> list[list[Glyph]]:
    """A word wider than one clue slot may be two numbers whose gap was small: cut it at its widest gap, when that
    is wider than ``digit_apart`` (the page's widest gap within a number). A word whose gaps are all the page's
    digit gaps is one number, however wide: clues set as text are not held to a cell (Simon Tatham's Pattern draws
    a bold "21" 26 pixels wide beside cells of 24)."""
    width = max(g.x1 for g in word) - min(g.x0 for g in word)
    gaps = [b.x0 - a.x1 for a, b in zip(word, word[1:], strict=False)]
    if width <= most or not gaps or max(gaps) <= digit_apart:
        return [word]
    cut = int(np.argmax(gaps)) + 1
    return _split_wide(word[:cut], most, digit_apart) + _split_wide(word[cut:], most, digit_apart)


def _split_at_columns(word: list[Glyph], xs: tuple[float, ...]) -> list[list[Glyph]]:
    """A word above the grid cut where a column's edge passes between two glyphs' centres (dense clues touch)."""
    out = [[word[0]]]
    for a, b in zip(word, word[1:], strict=False):
        if any(a.cx < x < b.cx for x in xs):
            out.append([b])
        else:
            out[-1].append(b)
    return out


def _text_like(word: list[Glyph], pitch: float) -> bool:
    """Whether a word above the grid is text, not a number: more glyphs than a clue has digits, or too wide."""
    width = max(g.x1 for g in word) - min(g.x0 for g in word)
    return len(word) > 3 or width > 2 * pitch or (len(word) == 3 and width > 1.2 * pitch)


def _walled(ink: Ink, x: float, top: int, bottom: float) -> bool:
    """Whether a drawn line runs down column ``x`` from ``top`` to ``bottom``: the grid's left line carried on up
    through the column clues to the frame, as a magazine draws it, walls off its top-left corner (a picture there is
    no clue), and its right line walls off what lies past the frame (a printed shadow's grain)."""
    c, lo, hi = int(round(x)), max(0, top), int(bottom)
    strip = ink.gray[lo:hi, max(0, c - 2):c + 3]
    if strip.size == 0 or hi - lo < 2:
        return False
    return float(np.mean(strip.min(axis=1) < (ink.paper + ink.dark) / 2)) >= 0.9


TITLE_COLUMNS = 0.5
"""Share of the grid's columns a text line above it may reach over and still be taken for a title by its crumbs
(:func:`_lettered`): a line of clue numbers over 32 columns with one speck of grain among them was taken for one,
and every column clue was lost."""


def _lettered(line: list[Glyph], crumbs: list[Glyph], height: float, grid: Grid) -> bool:
    """Whether a text line above the grid holds, between its glyphs, the flat crumbs a blurred word leaves: a
    photo's title ("Puzzle 15") keeps its tall letters ("P" read as a "6") while its small ones fade to the bars of
    their strokes, too low to be glyphs; clue numbers have nothing but paper between them (a speck is no wider than
    it is high). A line over :data:`TITLE_COLUMNS` of the grid's columns or more is clues, crumbs or not."""
    x0, x1 = min(g.x0 for g in line), max(g.x1 for g in line)
    y0, y1 = min(g.y0 for g in line), max(g.y1 for g in line)
    if not any(x0 < c.cx < x1 and y0 < c.cy < y1 and c.w >= max(0.5 * height, 2 * c.h) for c in crumbs):
        return False
    return len({int(np.searchsorted(grid.xs, g.cx)) for g in line}) < TITLE_COLUMNS * grid.width


def raster_items(ink: Ink, grid: Grid) -> list[Item]:
    """Every number left of and above ``grid``, read from its glyphs, with its confidence."""
    x0, y0, x1, y1 = grid.box
    pitch = grid.pitch
    slack = 0.25 * pitch
    low = max(3, 0.2 * pitch)
    near = [g for g in ink.glyphs
            if low <= g.h <= 1.5 * pitch and g.w <= 4 * pitch and not (x0 < g.cx < x1 and y0 < g.cy < y1)]
    crumbs = [g for g in ink.glyphs if g.h < low and g.y1 <= y0 and x0 - 3 * pitch < g.cx < x1 + 0.5 * pitch]
    left = [g for g in near if g.x1 <= x0 + slack and y0 < g.cy < y1]
    above = [g for g in near if g.y1 <= y0 + slack and x0 - 3 * pitch < g.cx < x1 + 0.5 * pitch
             and g.y0 >= y0 - 60 * pitch]
    above = [g for g in above if not (g.cx < x0 - 0.5 * pitch and _walled(ink, x0, g.y0, y0)  # a corner's picture
                                      or g.cx > x1 and _walled(ink, x1, g.y0, y0))]  # the frame's shadow
    words: list[list[Glyph]] = []
    headings: list[bool] = []  # of the words above the grid, which are pieces of a word too wide for a clue
    bands = [[g for g in left if grid.ys[r] <= g.cy < grid.ys[r + 1]] for r in range(grid.height)]
    within = digit_gap(bands)
    for band in bands:
        if band:
            height = float(np.median([g.h for g in band]))
            for word in words_of(band, height, lambda x: int((x0 - x) // pitch), within, SLOT_PITCH):
                words.extend(_split_wide(word, 1.05 * pitch, within * height))
    if above:
        height = float(np.median([g.h for g in above]))
        for line in text_lines(above, height):
            line_height = float(np.median([g.h for g in line]))
            lettered = _lettered(line, crumbs, line_height, grid)
            for word in words_of(line, line_height, lambda x: int(np.searchsorted(grid.xs, x))):
                wide = lettered or _text_like(word, pitch)
                parts = _split_at_columns(word, grid.xs)
                words.extend(parts)
                headings.extend([wide] * len(parts))
    items = []
    for k, w in enumerate(read_words(ink, words)):
        heading = k >= len(words) - len(headings) and headings[k - len(words) + len(headings)]
        items.append(Item(-1 if heading else w.value, w.confidence, tuple(float(v) for v in w.box),  # type: ignore[arg-type]
                          w.text, w.likeness, alternatives=w.alternatives))
    return items
