"""Find puzzle grids on a page: lattices of straight lines, equally spaced, that enclose a rectangle.

Grid lines are the page's long straight strokes: an opening with a long thin
kernel keeps them and drops digits and letters (no stroke of a digit is as
long as a few cells). Each connected set of such strokes is a candidate; its
horizontal and vertical lines are the rows and columns of pixels it fills
most of the way across. A candidate is a grid when its lines are spaced
evenly (some may be missing, as in a filled answer key) and there are at
least :data:`MIN_CELLS` cells each way.

Thin lines are often light grey (nonogen draws them at #9a9a9a): strokes are
anything clearly darker than the paper, not only black.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Grid", "find_grids", "line_ink", "line_masks", "paper_and_ink", "without_clue_cells", "MIN_CELLS"]

MIN_CELLS = 2
MIN_PITCH = 5
"""Fewest pixels per cell a grid can be read at: smaller clues are not legible."""
CLUE_LINE = 0.5
"""Clue cells are cut off a lattice only when the row (column) of them next to the puzzle holds a number beside at
least this share of its columns (rows): every line's clue ends there. A few marks are a stain or a speck in the
grid, and the grid stays whole. On a photo the line beyond it must hold numbers in half as many (clues of one
number alone are rare): a bent page's block line redrawn a little off its place marks every cell of one column, and
the bench's hard page 3 of seed 3 (38x21) was cut to 7x20."""
STRAYS = 0.005
"""Share of a photo's grid's cells that may hold a mark that is no clue (a speck, the paper's grain)."""
RIDGE = 11
"""Widest stroke, in pixels, taken for a line: a page at 300 dpi draws a 2 pt frame 8 pixels wide."""


@dataclass(frozen=True)
class Grid:
    """A grid on the page: the pixel positions of its vertical (``xs``) and horizontal (``ys``) lines."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]

    @property
    def width(self) -> int:
        return len(self.xs) - 1

    @property
    def height(self) -> int:
        return len(self.ys) - 1

    @property
    def box(self) -> tuple[float, float, float, float]:
        """Left, top, right, bottom."""
        return self.xs[0], self.ys[0], self.xs[-1], self.ys[-1]

    @property
    def pitch(self) -> float:
        return float(min(np.median(np.diff(self.xs)), np.median(np.diff(self.ys))))


def line_masks(dark: np.ndarray, length: int) -> tuple[np.ndarray, np.ndarray]:
    """Horizontal and vertical strokes of the ``dark`` mask (uint8 0/1) at least ``length`` pixels long."""
    import cv2

    horizontal = cv2.morphologyEx(dark, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (length, 1)))
    vertical = cv2.morphologyEx(dark, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, length)))
    return horizontal, vertical


def _positions(profile: np.ndarray, need: float) -> list[float]:
    """Centres of the runs of ``profile`` at or over ``need``: one position per drawn line."""
    on = profile >= need
    out: list[float] = []
    start = None
    for i, flag in enumerate(np.append(on, False)):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            weights = profile[start:i].astype(float)
            out.append(float(np.average(np.arange(start, i), weights=weights)))
            start = None
    return out


def _misfit(positions: list[float], cells: int) -> "float | None":
    """How far ``positions`` are from ``cells`` equal cells over their span (mean, in cells), None when one is
    off by more than a quarter cell."""
    pitch = (positions[-1] - positions[0]) / cells
    expected = positions[0] + pitch * np.arange(cells + 1)
    off = [float(np.min(np.abs(expected - p))) / pitch for p in positions]
    return None if max(off) > 0.25 else float(np.mean(off))


def _lattice(positions: list[float]) -> tuple[float, ...]:
    """The evenly spaced lines among ``positions`` from the first to the last, or () if they are not even.

    The pitch is the most common spacing; a line that is not drawn (a filled
    stretch) is filled in where the pitch puts it; a position off the pitch
    by more than a quarter cell makes it no lattice.
    """
    if len(positions) < MIN_CELLS + 1:
        return ()
    gaps = np.diff(positions)
    small = gaps[gaps >= MIN_PITCH]
    if not len(small):
        return ()
    pitch = float(np.median(small))
    # refine: the pitch the whole span gives, with the count of cells it holds (the median gap of a lattice drawn
    # at a fractional pitch, 17 and 18 pixels in turn, may be off enough to miscount a long span by one)
    span = positions[-1] - positions[0]
    fits = [(_misfit(positions, cells), cells) for cells in {round(span / pitch) + d for d in (-1, 0, 1)}
            if cells >= MIN_CELLS]
    fits = [f for f in fits if f[0] is not None]
    if not fits:
        return ()
    cells = min(fits)[1]
    pitch = span / cells
    expected = positions[0] + pitch * np.arange(cells + 1)
    found = sum(1 for e in expected if min(abs(e - p) for p in positions) <= pitch / 4)
    if found < 0.5 * (cells + 1):
        return ()
    snapped = [min(positions, key=lambda p, e=e: abs(p - e)) for e in expected]  # type: ignore[misc]
    return tuple(s if abs(s - e) <= pitch / 4 else float(e) for s, e in zip(snapped, expected, strict=True))


def paper_and_ink(gray: np.ndarray) -> tuple[float, float]:
    """The paper's grey level (the 90th percentile) and the ink's: the darkest 5 % of what is not paper. Not the
    page's 0.5th percentile: a 5x5 puzzle on a Letter page at 150 dpi inks less than 0.5 % of it."""
    paper = float(np.percentile(gray, 90))
    drawn = gray[gray < paper - 20]
    return paper, float(np.percentile(drawn, 5)) if drawn.size >= 20 else paper


def line_ink(gray: np.ndarray) -> np.ndarray:
    """Thin strokes darker than what is on both sides of them (uint8 0/1): grid lines on any cell colour.

    A black-hat (closing minus the page) finds a stroke under :data:`RIDGE`
    pixels wide that is darker than its surroundings by a little: light grey
    lines on white, dark lines between mid-grey cells (Simon Tatham's Pattern
    shows unsolved cells grey), thick outer frames. Wide dark areas (filled
    cells, clue boxes) are no strokes.
    """
    import cv2

    paper, ink = paper_and_ink(gray)
    contrast = paper - ink
    if contrast < 40:
        return np.zeros(gray.shape, np.uint8)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (RIDGE, RIDGE))
    ridge = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, kernel)
    return (ridge >= max(16.0, 0.12 * contrast)).astype(np.uint8)


def _longest_runs(mask: np.ndarray) -> np.ndarray:
    """The longest unbroken run of each row of ``mask``: a drawn line is one stroke, a stack of clue boxes' sides
    is many short ones."""
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), np.int8)
    padded[:, 1:-1] = mask > 0
    out = np.zeros(mask.shape[0], np.int64)
    for r in np.nonzero(padded.any(axis=1))[0]:
        edges = np.flatnonzero(np.diff(padded[r]))
        out[r] = int((edges[1::2] - edges[::2]).max())
    return out


def _lines_of(mask: np.ndarray, full: float) -> list[float]:
    """Positions of the lines of a component's stroke mask (one per row of ``mask``): rows whose longest stroke
    runs at least 0.7 of the typical long one and 0.4 of ``full``, the component's extent across."""
    profile = _longest_runs(mask)
    long = profile[profile >= 0.4 * full]
    if not len(long):
        return []
    return _positions(profile, max(0.7 * float(np.median(long)), 0.4 * full))


def _ends(mask: np.ndarray, at: list[float], offset: int) -> tuple[float, float]:
    """Where the strokes of ``mask`` (one per column, at the columns ``at``) typically start and end, plus
    ``offset``: the vertical lines' ends are the grid's top and bottom edges."""
    starts, stops = [], []
    for a in at:
        c = int(round(a))
        column = mask[:, max(0, c - 1):c + 2].any(axis=1)
        on = np.flatnonzero(column)
        if len(on):
            starts.append(on[0])
            stops.append(on[-1])
    if not starts:
        return float("inf"), float("-inf")
    return float(np.median(starts)) + offset, float(np.median(stops)) + offset


def _extended(lines: tuple[float, ...], ends: tuple[float, float]) -> tuple[float, ...]:
    """``lines`` with a line added a pitch before the first or after the last while the crossing lines run on
    that far: an edge line drawn right against dark clue boxes is no ridge (:func:`line_ink`) and goes missing."""
    pitch = (lines[-1] - lines[0]) / (len(lines) - 1)
    out = list(lines)
    while out[0] - ends[0] >= 0.75 * pitch:
        out.insert(0, out[0] - pitch)
    while ends[1] - out[-1] >= 0.75 * pitch:
        out.append(out[-1] + pitch)
    return tuple(out)


def find_grids(gray: np.ndarray) -> list[Grid]:
    """Every grid on the page, top to bottom then left to right.

    ``gray`` is the page in 0 (ink) .. 255 (paper) (:func:`line_ink` finds
    its strokes). Cells at the grid's top and left that hold a number (clues
    in boxes drawn like cells) are cut off (:func:`without_clue_cells`).
    """
    import cv2

    horizontal, vertical = line_masks(line_ink(gray), max(12, min(gray.shape) // 40))
    both = cv2.dilate(horizontal | vertical, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(both, connectivity=8)
    grids = []
    for label in range(1, count):
        x, y, w, h, _area = stats[label]
        if w < MIN_PITCH * MIN_CELLS or h < MIN_PITCH * MIN_CELLS:
            continue
        inside = labels[y:y + h, x:x + w] == label
        hmask = horizontal[y:y + h, x:x + w] & inside
        vmask = vertical[y:y + h, x:x + w] & inside
        ys = _lattice([y + p for p in _lines_of(hmask, w)])
        xs = _lattice([x + p for p in _lines_of(vmask.T, h)])
        if xs and ys:
            ys = _extended(ys, _ends(vmask, [p - x for p in xs], y))
            xs = _extended(xs, _ends(hmask.T, [p - y for p in ys], x))
            grid = without_clue_cells(gray, Grid(xs, ys))
            if grid is not None:
                grids.append(grid)
    return sorted(grids, key=lambda g: (round(g.ys[0] / 50), g.xs[0]))


TALL_MARK = 0.45
"""A number in a cell is at least this share of the cell's inside high (:func:`_marks` looks at its middle 64 %):
a sheet's given, an empty cell's dot a sixth of a cell across, is not one. Taken for a clue cell, the dot in row 11
of a 30x30 colour sheet cut it to 30x19."""


def _has_number(cell: np.ndarray) -> bool:
    """Whether a cell's inside holds a mark (a digit: part of it unlike the rest), not one even colour nor the
    edge of a line beside it (:func:`_unlined`) nor a dot (:data:`TALL_MARK`)."""
    if cell.size == 0 or int(cell.max()) - int(cell.min()) <= 48:  # one even colour: most cells, at once
        return False
    marks = _unlined(np.abs(cell.astype(np.int16) - int(np.median(cell))) > 48)
    if marks.size == 0 or not 0.03 <= float(marks.mean()) <= 0.6:
        return False
    rows = np.flatnonzero(marks.any(axis=1))
    return bool(rows[-1] - rows[0] + 1 >= TALL_MARK * cell.shape[0])  # a dot is a given, not a number


def _unlined(marks: np.ndarray) -> np.ndarray:
    """A cell's marks less the rows and columns along its sides marked nearly across: a thick line beside a small
    cell reaches into its inside (a window's 9-pixel cells and 3-pixel lines every five: each cell under a thick
    line looked marked, and a 17x23 grid was cut down to its last seven rows as if the rest held clues)."""
    while marks.size:
        lined = [k for k, side in enumerate((marks[0], marks[-1], marks[:, 0], marks[:, -1])) if side.mean() >= 0.8]
        if not lined:
            break
        marks = (marks[1:], marks[:-1], marks[:, 1:], marks[:, :-1])[lined[0]]
    return marks


def _marks(gray: np.ndarray, grid: Grid) -> np.ndarray:
    """Which cells of ``grid`` hold a number (height x width booleans), each looked at inside its lines."""
    marks = np.zeros((grid.height, grid.width), bool)
    for r in range(grid.height):
        y0, y1 = grid.ys[r], grid.ys[r + 1]
        pad_y = 0.18 * (y1 - y0)
        for c in range(grid.width):
            x0, x1 = grid.xs[c], grid.xs[c + 1]
            pad_x = 0.18 * (x1 - x0)
            marks[r, c] = _has_number(gray[int(y0 + pad_y):int(y1 - pad_y), int(x0 + pad_x):int(x1 - pad_x)])
    return marks


def _empty_block(marks: np.ndarray) -> tuple[int, int]:
    """The top and left of the largest block of cells without a mark at the bottom right of ``marks``."""
    height, width = marks.shape
    best = (0, 0, 0)
    for top in range(height):
        below = marks[top:].any(axis=0)
        left = int(np.nonzero(below)[0].max()) + 1 if below.any() else 0
        area = (height - top) * (width - left)
        if area > best[0]:
            best = (area, top, left)
    return best[1], best[2]


def _stray_block(marks: np.ndarray) -> tuple[int, int]:
    """The top and left of the largest block at the bottom right of a photo's ``marks`` that holds a few marks at
    most (:data:`STRAYS`), none but one in its first row and column: a speck or the paper's grain marks a cell deep
    in a photo's grid, and one such mark made the grid its clue cells' width narrower."""
    height, width = marks.shape
    counts = np.zeros((height + 1, width + 1), np.int64)  # marks at and below-right of each cell
    counts[:-1, :-1] = marks[::-1, ::-1].cumsum(0).cumsum(1)[::-1, ::-1]
    best = (0, 0, 0)
    for top in range(height):
        for left in range(width):
            area = (height - top) * (width - left)
            if area <= best[0]:
                break
            inside = counts[top, left]
            edge = inside - counts[top + 1, left + 1]
            if inside <= max(2, area * STRAYS) and edge <= 1:
                best = (area, top, left)
                break
    return best[1], best[2]


def _clue_block(marks: np.ndarray) -> bool:
    """Whether cells cut off a photo's lattice (``marks``: lines of cells, the last next to the puzzle) are clue
    cells: the line next to the puzzle holds most lines' clues, the one before it half as many (a single line of
    cells is no block; see :data:`CLUE_LINE`)."""
    return len(marks) >= 2 and marks[-1].mean() >= CLUE_LINE and marks[-2].mean() >= CLUE_LINE / 2


def without_clue_cells(gray: np.ndarray, grid: Grid, *, checked: bool = False) -> "Grid | None":
    """The grid less its leading rows and columns of clue cells: web pages often draw clues in the table's own
    cells, so the lattice runs on over them. An unsolved grid's cells are empty: the grid is the largest block of
    empty cells at the bottom right of the lattice; ``checked`` (a photo, where a stain marks a cell): with a few
    marks in it allowed (:func:`_stray_block`), and only when the cells next to it hold most lines' clues
    (:data:`CLUE_LINE`; a colour sheet's boxes, filled, do not show as numbers in every line). None when nothing is
    left, or when what is cut off is no band of clues but a table of numbers, a Picross 3D level's view: more
    columns (rows) of clue cells than the grid's rows (columns) have cells (a colour line's blocks need no gap, so
    a line holds a number per cell at most), or on a clean page (not ``checked``) numbers in the very corner of
    the lattice, so no empty block is left. Read as puzzles, a level's views gave puzzles of 2x4 to 20x27 that could
    not be solved. (Gaps between a line's clue cells tell no table: a dark digit in an orange box is too faint in
    the contrast to mark its cell.)"""
    marks = _marks(gray, grid)
    if not marks.any():
        return grid
    top, left = _stray_block(marks) if checked else _empty_block(marks)
    if not checked and marks[top:, left:].any():
        return None  # no empty corner at all: numbers in the grid's own cells, a table
    while checked:  # no clues beside the block: marks in the grid (a stain, a speck, a curl), not clue cells
        kept = (top if top and _clue_block(marks[:top, left:]) else 0,
                left if left and _clue_block(marks[top:, :left].T) else 0)
        if kept == (top, left):
            break
        top, left = kept  # a side dropped: the other is checked again along the whole of it (a block of marks
        # low on the right made its last rows' left cells look like clue columns, and 25x17 was read as 2x17)
    if grid.width - left < MIN_CELLS or grid.height - top < MIN_CELLS:
        return None
    if left > grid.width - left or top > grid.height - top:
        return None  # more clue cells than a line's numbers can fill: a table of numbers (a Picross 3D view)
    return Grid(grid.xs[left:], grid.ys[top:])
