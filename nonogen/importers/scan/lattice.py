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

__all__ = ["Grid", "find_grids", "line_masks", "MIN_CELLS"]

MIN_CELLS = 2
MIN_PITCH = 5
"""Fewest pixels per cell a grid can be read at: smaller clues are not legible."""


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
    # refine: the pitch the whole span gives, with the count of cells it holds
    span = positions[-1] - positions[0]
    cells = round(span / pitch)
    if cells < MIN_CELLS:
        return ()
    pitch = span / cells
    expected = positions[0] + pitch * np.arange(cells + 1)
    for p in positions:
        if np.min(np.abs(expected - p)) > pitch / 4:
            return ()
    found = sum(1 for e in expected if min(abs(e - p) for p in positions) <= pitch / 4)
    if found < 0.5 * (cells + 1):
        return ()
    snapped = [min(positions, key=lambda p, e=e: abs(p - e)) for e in expected]  # type: ignore[misc]
    return tuple(s if abs(s - e) <= pitch / 4 else float(e) for s, e in zip(snapped, expected, strict=True))


def find_grids(gray: np.ndarray) -> list[Grid]:
    """Every grid on the page, top to bottom then left to right.

    ``gray`` is the page in 0 (black) .. 255 (white). Strokes darker than
    the paper by a third of the contrast count, so light grey thin lines are
    kept.
    """
    import cv2

    paper = float(np.percentile(gray, 90))
    ink = float(np.percentile(gray, 0.5))
    if paper - ink < 40:
        return []
    dark = (gray < paper - (paper - ink) / 3).astype(np.uint8)
    horizontal, vertical = line_masks(dark, max(12, min(gray.shape) // 40))
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
        ys = _lattice([y + p for p in _positions(hmask.sum(axis=1), 0.7 * w)])
        xs = _lattice([x + p for p in _positions(vmask.sum(axis=0), 0.7 * h)])
        if xs and ys:
            grids.append(Grid(xs, ys))
    return sorted(grids, key=lambda g: (round(g.ys[0] / 50), g.xs[0]))
