"""Which numbers on the page are whose clue: row clues left of the grid, column clues above it.

Shared by the text layer and the pixel readers: both give :class:`Item`\\ s
(a number, a confidence, a box in page pixels). A row's clue is the run of
numbers in its band left of the grid, taken from the grid outward until a gap
of :data:`MAX_GAP` cells. A column's clue is read from the text lines above
the grid, bottom up; a line that holds a word (not a number), or something
wider than a column or astride a column's edge, is a heading (a title, "Puzzle
7 · grade 2") and ends the clues, as does a gap of :data:`MAX_GAP` cells.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

import numpy as np

from .lattice import Grid

__all__ = ["Item", "clue_items", "text_lines", "MAX_GAP", "DIGIT_LIKENESS", "HEIGHT_SPREAD", "BLURRED_SPREAD",
           "CENTRED", "SPECK", "TRACK", "REREAD_ZERO"]

MAX_GAP = 2.5
"""Widest gap, in cells, between two numbers of one clue (or the first number and the grid)."""
HEIGHT_SPREAD, BLURRED_SPREAD = 0.25, 0.4
"""How much the heights of a text line's digits may differ (a fraction of their height) before the line is a
heading: capitals stand a third taller than small letters; a photo's blur fades a thin stroke's ends, so a
photo's digits differ by up to a third (its headings' letters are told by their likeness)."""
CENTRED = 0.3
"""How far, in cells, a photo's column clue may sit from its column's centre before its text line is a heading: a
column's clue numbers are centred over it (after the redraw all of the bench's hard photos' were within 0.2 cell),
while a title's words fall anywhere; its blurred letters may read as digits ("Puzzle 18" as "75 18"). A sheet's
lines need no such test (its letters do not look like digits) and other programs may set clues off centre."""
SPECK = 0.45
"""Something above the grid that is no number and lower than this share of the text's height is a speck (a photo's
paper grain, a JPEG block read as a "7"): passed over, where a letter of a title ends the column clues (a speck in
the top line of seed 5's hard page 2 dropped that whole line)."""
TRACK = 0.4
"""How far, in cells, the next number of a photo's row clue may sit above or below the last (rows are a cell
apart)."""
REREAD_ZERO = 0.6
"""Confidence in a number read as 0 beside other numbers and so read as its other reading (a zero is a clue only
alone; see :func:`_no_zero_among`): made by that rule, not by its digits, so a puzzle that shows a misread names it."""
LONE = 2
"""Numbers that a photo's text line among its column clues may hold and be passed over as a fragment
(:func:`_passed_over`: a digit's broken half, a smudge) rather than end the column clues: taken for a heading, one
lost the top seven numbers of 31 columns on a hard photo."""
FRAGMENT = 0.6
"""How close, in cells, a fragment that looks like no digit sits above the line of clues below it (the next line
of clues sits a cell above)."""
STRAYS = 0.2
"""Share of a photo's line of column clues that may be no column's number (a shadow's smudge read as "448" among
twenty clue numbers) and be dropped, before the line is taken for a heading: taken so, every clue above it was lost
(a 21x30 page lost the top of eight columns). A title's words fall off the columns nearly all."""
DIGIT_LIKENESS = 0.8
"""A line of glyphs above the grid whose mean likeness to digits is under this is text (a title), not clues:
digits of nonogen's sheets score 0.9 and more, the letters of "Heart" 0.64 to 0.73."""
NO_DIGIT = 0.45
"""A sheet's or a screenshot's blob whose likeness to digits is under this is no number: a phone game's picture
behind the clues, read as "499" (0.29) at the start of a row's clue. Digits of the bench's renders and screenshots
score over 0.8, a title's letters over 0.6."""
STACK_SLACK = 0.15
"""How far a line of column clues may stand from the kept lines' pitch, as a share of it, and continue them
(:func:`_stacked`)."""


@dataclass(frozen=True)
class Item:
    """A number read on the page (``value`` -1: not a number), how sure the reading is, and where it is."""

    value: int
    confidence: float
    box: tuple[float, float, float, float]
    text: str
    likeness: float = 1.0  # how much the glyphs look like digits (1: exactly; a text layer's numbers are 1)
    colour: Optional[tuple[int, int, int]] = None  # on a page in colour: its box's fill, else its digits' colour
    alternatives: tuple[int, ...] = ()  # other readings of a number read from pixels, most likely first

    @property
    def cx(self) -> float:
        return (self.box[0] + self.box[2]) / 2

    @property
    def cy(self) -> float:
        return (self.box[1] + self.box[3]) / 2

    @property
    def h(self) -> float:
        return self.box[3] - self.box[1]


def text_lines(items: list, height: float) -> list[list]:
    """``items`` (anything with ``cy``) in text lines, top to bottom: a new line where the centre drops by half a
    height."""
    lines: list[list] = []
    for item in sorted(items, key=lambda i: i.cy):
        if lines and item.cy - float(np.mean([o.cy for o in lines[-1]])) <= 0.5 * height:
            lines[-1].append(item)
        else:
            lines.append([item])
    return lines


def _row_clue(items: list[Item], left: float, pitch: float) -> list[Item]:
    """The numbers of one row's band, read outward from the grid's left edge ``left``, up to a gap, a blob that is
    no number, or one that looks like no digit (:data:`NO_DIGIT`)."""
    out: list[Item] = []
    edge = left
    for item in sorted(items, key=lambda i: -i.box[2]):
        if edge - item.box[2] > MAX_GAP * pitch or item.value < 0 or item.likeness < NO_DIGIT:
            break
        out.append(item)
        edge = item.box[0]
    return out[::-1]


def _tracked_row(band: list[Item], left: list[Item], edge: float, pitch: float) -> list[Item]:
    """The numbers of one row read outward from the grid's left edge ``edge``, each the nearest to the left of the
    last within :data:`TRACK` cells of its height: a photo's row bows past the grid, where no line shows where it
    goes (a page curling into the spine drops its far clues into the next row's band). The first is the band's
    nearest the grid (there the redraw is true)."""
    near = [i for i in band if edge - i.box[2] <= MAX_GAP * pitch]
    item = max(near, key=lambda i: i.box[2]) if near else None
    out: list[Item] = []
    while item is not None and item.value >= 0:
        out.append(item)
        last = item
        nxt = [i for i in left if i is not last and i.box[2] <= last.box[0] + 0.1 * pitch
               and last.box[0] - i.box[2] <= MAX_GAP * pitch and abs(i.cy - last.cy) <= TRACK * pitch]
        item = max(nxt, key=lambda i: (i.box[2], -abs(i.cy - last.cy))) if nxt else None
    return out[::-1]


def _column(item: Item, xs: tuple[float, ...]) -> int:
    """The column whose span holds the middle of ``item``."""
    return int(np.clip(np.searchsorted(xs, item.cx) - 1, 0, len(xs) - 2))


def _misplaced(item: Item, xs: tuple[float, ...], pitch: float, centred: float) -> bool:
    """Whether a number above the grid is no column's clue number: unread, wider than a cell, across a column's
    edge, off its column's centre by more than ``centred`` cells, or beyond the grid."""
    if item.value < 0 or item.box[2] - item.box[0] > 1.2 * pitch:
        return True
    if item.cx < xs[0] - 0.5 * pitch or item.cx > xs[-1] + 0.5 * pitch:
        return True
    c = _column(item, xs)
    if item.box[0] < xs[c] - 0.2 * pitch or item.box[2] > xs[c + 1] + 0.2 * pitch:
        return True
    return abs(item.cx - (xs[c] + xs[c + 1]) / 2) > centred * pitch


def _heading(line: list[Item], misplaced: list[bool], spread: float = HEIGHT_SPREAD, strays: float = 0.0,
             stacked: bool = False) -> bool:
    """Whether a text line above the grid is a heading rather than a line of column clues: its glyphs look little
    like digits (unless the line is ``stacked`` on the clues: :func:`_stacked`), mix heights, or more than
    ``strays`` of its numbers are ``misplaced`` (:func:`_misplaced`, each number's)."""
    if not stacked and float(np.mean([i.likeness for i in line])) < DIGIT_LIKENESS:
        return True
    # digits of one font are one height, text mixes capitals and small letters (a third shorter); but a photo's blur
    # shortens a thin "1" (its stroke's ends fade under the ink level) and leaves digits a pixel or two off
    heights = [i.h for i in line if i.text.strip("1")] or [i.h for i in line]
    low, high = np.percentile(heights, [10, 90])
    if high - low > max(1.5, spread * float(np.median(heights))):
        return True
    return sum(misplaced) > strays * len(line)


GRAIN = 0.6
"""Share of the clue text's height under which a blob that is no number and off every column is grain, not a word."""


def _without_grain(line: list[Item], misplaced: list[bool], height: float
                   ) -> tuple[list[Item], list[bool], list[Item]]:
    """A photo's text line of column clues less its grain: blobs that are no number (too small for the digits
    around them, :func:`.photoread._plausible`), under :data:`GRAIN` of the text's ``height`` and off every
    column's centre; and the grain. A title's words are as tall as digits and stay; so does a line of nothing but
    grain (the page's edge)."""
    grain = [off and i.value < 0 and i.h < GRAIN * height for i, off in zip(line, misplaced, strict=True)]
    if not any(grain) or all(grain):
        return line, misplaced, []
    return ([i for i, g in zip(line, grain, strict=True) if not g],
            [off for off, g in zip(misplaced, grain, strict=True) if not g],
            [i for i, g in zip(line, grain, strict=True) if g])


def _stacked(line: list[Item], misplaced: list[bool], centres: list[float], needs: dict[int, int],
             grid: Grid) -> bool:
    """Whether a text line continues the column clues below it: it stands above the last line kept at the pitch the
    kept lines (``centres``, at least two) keep, and each of its numbers reads sure, in its column's place, over a
    column whose clue numbers below (the cells they need: ``needs``) leave it room in the column. A line of one or
    two digits says little by how much they look like digits: a program's bitmap "6" atop the first column
    (likeness 0.78) was taken for a title and dropped; nor does a blob beside the columns on that line (a phone
    game's picture left of the grid made the line of the top "1" of a four-number column a heading). A title's
    number read over the columns ("Puzzle 18" over a grid 9 cells high) does not fit."""
    if len(centres) < 2 or any(misplaced) or any(i.value < 0 or i.confidence < 1.0 for i in line):
        return False
    step = float(np.median(np.diff(centres[::-1])))
    rise = centres[-1] - float(np.mean([i.cy for i in line]))
    room = [needs.get(_column(i, grid.xs), grid.height) + 1 + i.value <= grid.height for i in line]
    return abs(rise - step) <= STACK_SLACK * step and all(room)


def _too_long(line: list[Item], length: int) -> bool:
    """Whether every number of a text line above the grid is longer than a column: no line of clues, however
    misread, is that; a title's letters read as digits are ("Puzzle 18" as "661 769 18" over a grid 9 cells high,
    each sure and over a column's centre)."""
    numbers = [i.value for i in line if i.value >= 0]
    return bool(numbers) and min(numbers) > length


def _apart(item: Item, tops: dict[int, float], grid: Grid) -> bool:
    """Whether a number above the grid stands more than :data:`MAX_GAP` cells above its column's clue (the top of
    the numbers kept in each column so far, ``tops``, or the grid when none): a column's numbers stand one on
    another. Lines of clues go on up as long as the tallest column's do; a title's "3" a line above them stood over a
    column whose clue ended four cells lower, and was read as that column's first number, sure (fresh seed 193,
    page 3)."""
    return tops.get(_column(item, grid.xs), grid.box[1]) - item.box[3] > MAX_GAP * grid.pitch


def _tops(items: list[Item], xs: tuple[float, ...]) -> dict[int, float]:
    """The top of the numbers of each column among ``items``."""
    tops: dict[int, float] = {}
    for item in items:
        c = _column(item, xs)
        tops[c] = min(tops.get(c, item.box[1]), item.box[1])
    return tops


def _needs(items: list[Item], xs: tuple[float, ...]) -> dict[int, int]:
    """The cells the numbers of each column among ``items`` need (their sum and a gap between each two)."""
    needs: dict[int, int] = {}
    for item in items:
        c = _column(item, xs)
        needs[c] = needs.get(c, -1) + 1 + item.value
    return needs


def _passed_over(line: list[Item], misplaced: list[bool], grid: Grid, edge: float, below: Optional[float],
                 spread: float) -> bool:
    """Whether a photo's text line among its column clues is a fragment, not their end: at most :data:`LONE` numbers
    over the columns, either none in its column's place and no farther than a cell above the clues below, or
    looking like no line of digits (:func:`_heading`) with its centre within :data:`FRAGMENT` of a cell of the line
    below's: a digit's broken top or a smudge, set apart from its line by the page's bend."""
    x0, _, x1, _ = grid.box
    if len(line) > LONE or not all(x0 < i.cx < x1 for i in line):
        return False
    if all(misplaced) and edge - max(i.box[3] for i in line) <= grid.pitch:
        return True
    close = below is not None and below - float(np.mean([i.cy for i in line])) < FRAGMENT * grid.pitch
    return close and _heading(line, misplaced, spread)


def clue_items(items: list[Item], grid: Grid, *,
               spread: float = HEIGHT_SPREAD, centred: float = 1.0, strays: float = 0.0,
               tracked: bool = False,
               dropped: Optional[list[Item]] = None) -> tuple[list[list[Item]], list[list[Item]]]:
    """The items of each row clue (left to right) and each column clue (top to bottom); ``spread``: how much the
    heights of a line's digits may differ, as a fraction of their height, before it is a heading (a photo's blur
    needs more: :data:`BLURRED_SPREAD`); ``centred``: how far a column clue may sit from its column's centre, in
    cells (a photo's: :data:`CENTRED`); ``strays``: the share of a line of column clues that may be
    :func:`_misplaced` and dropped before the line is a heading (a photo's: :data:`STRAYS`); ``tracked``: a row's
    clue followed outward number by number, not taken from its band (a photo's, see :func:`_tracked_row`);
    ``dropped`` (a list) is given the strays dropped from lines of column clues: a clue number may be under one."""
    x0, y0, x1, y1 = grid.box
    pitch = grid.pitch
    slack = 0.25 * pitch
    rows: list[list[Item]] = []
    left = [i for i in items if i.box[2] <= x0 + slack and y0 < i.cy < y1]
    wide = [i for i in items if i.box[2] <= x0 + slack and y0 - 0.5 * pitch < i.cy < y1 + 0.5 * pitch]
    for r in range(grid.height):
        band = [i for i in left if grid.ys[r] <= i.cy < grid.ys[r + 1]]
        rows.append(_tracked_row(band, wide, x0, pitch) if tracked else _row_clue(band, x0, pitch))
    above = [i for i in items if i.box[3] <= y0 + slack and x0 - 3 * pitch < i.cx < x1 + 0.5 * pitch]
    height = float(np.median([i.h for i in above])) if above else pitch
    above = [i for i in above if i.value >= 0 or i.h >= SPECK * height]
    kept: list[Item] = []
    edge, below = y0, None
    centres: list[float] = []  # of the lines kept, bottom up
    for line in reversed(text_lines(above, height)):
        misplaced = [_misplaced(i, grid.xs, pitch, centred) for i in line]
        if strays:  # grain beside a line's numbers makes it no heading (seed 19 page 15 lost the top of 4 columns)
            line, misplaced, grain = _without_grain(line, misplaced, height)
            if dropped is not None:
                dropped.extend(grain)
        if strays and _passed_over(line, misplaced, grid, edge, below, spread):
            if dropped is not None:
                dropped.extend(line)
            continue
        over = [k for k, i in enumerate(line) if x0 <= i.cx <= x1]
        stacked = bool(over) and _stacked([line[k] for k in over], [misplaced[k] for k in over], centres,
                                          _needs(kept, grid.xs), grid)
        if stacked and len(over) < len(line):  # what stands beside the grid's columns is no clue (a game's picture)
            if dropped is not None:
                dropped.extend(i for k, i in enumerate(line) if k not in over)
            line, misplaced = [line[k] for k in over], [misplaced[k] for k in over]
        bottom = max(i.box[3] for i in line)
        if (edge - bottom > MAX_GAP * pitch or _heading(line, misplaced, spread, strays, stacked)
                or _too_long(line, grid.height)):
            break
        if strays:  # a photo's: what stands far above its column's clue is none of it, but no heading either
            tops = _tops(kept, grid.xs)
            misplaced = [off or _apart(i, tops, grid) for i, off in zip(line, misplaced, strict=True)]
        kept.extend(i for i, off in zip(line, misplaced, strict=True) if not off)  # a line kept: its strays only
        if dropped is not None:
            dropped.extend(i for i, off in zip(line, misplaced, strict=True) if off)
        below = float(np.mean([i.cy for i in line]))
        centres.append(below)
        edge = min(i.box[1] for i in line)
    cols: list[list[Item]] = [[] for _ in range(grid.width)]
    for item in kept:
        cols[_column(item, grid.xs)].append(item)
    return ([_no_zero_among(row) for row in rows],
            [_no_zero_among(sorted(col, key=lambda i: (i.cy, i.cx))) for col in cols])


def _no_zero_among(line: list[Item]) -> list[Item]:
    """The line's items with a 0 beside other numbers read as its first other reading: a zero stands only alone,
    and a blurred "11" or "12" whose digits touch reads as a sure "0" (its other reading is then the blob cut in
    two, :func:`.glyphs.read_words`); dropped, the number was lost from its clue."""
    if sum(i.value >= 0 for i in line) < 2:
        return line
    return [replace(i, value=i.alternatives[0], text=str(i.alternatives[0]), confidence=min(i.confidence, REREAD_ZERO),
                    alternatives=i.alternatives[1:]) if i.value == 0 and i.alternatives else i for i in line]
