"""From per-pixel classes to cells: a vote that keeps thin lines, and a cleanup that removes specks.

A plain majority vote per cell erases every line thinner than half a cell:
the dark outline that carries an icon's shape falls apart into a few
scattered cells. So each class's thin parts (what a morphological opening
of about a cell removes) are reduced to their skeleton, and a cell that the
skeleton crosses for at least half its side takes that class. The skeleton
is one pixel wide, so a line becomes exactly one cell wide wherever it lies
against the cell borders.

Specks (single cells no neighbour shares) make clue blocks of length 1 that
people find tedious and that rarely belong to the picture; they are removed
unless the picture is sure of them.
"""
from __future__ import annotations

from typing import Optional

import numpy as np
from scipy.ndimage import distance_transform_edt, label

from .frame import Frame, cell_mean

__all__ = ["line_cells", "vote", "drop_specks"]

LINE_FRACTION = 0.5
"""A skeleton must cross this much of a cell's side for the cell to take the line's class."""
LINE_MIN_SHARE = 0.12
"""...and the line must cover at least this share of the cell (a skeleton's tip alone does not count)."""
SURE_SPECK = 0.85
"""A lone cell whose vote share is at least this stays: a dot the picture really has (an eye, a star)."""


def line_cells(mask: np.ndarray, frame: Frame) -> np.ndarray:
    """Cells (flat bool) that a thin structure of ``mask`` (pixel bool, h x w) runs through."""
    from skimage.morphology import skeletonize  # scikit-image: loaded by the first picture with thin lines to keep

    if frame.cell_px < 2.5 or not mask.any():
        return np.zeros(frame.n_cells, dtype=bool)
    radius = max(1.0, frame.cell_px * 0.3)
    thin = mask & ~_opening(mask, radius)
    if not thin.any():
        return np.zeros(frame.n_cells, dtype=bool)
    skeleton = skeletonize(thin)
    count = np.bincount(frame.labels, weights=skeleton.ravel().astype(np.float64), minlength=frame.n_cells)
    return count >= LINE_FRACTION * frame.cell_px


def _opening(mask: np.ndarray, radius: float) -> np.ndarray:
    """Morphological opening by a disk, with two Euclidean distance transforms (linear time at any radius):
    the pixels covered by some disk of ``radius`` that fits inside ``mask``."""
    centres = distance_transform_edt(np.pad(mask, 1)) > radius
    if not centres.any():
        return np.zeros_like(mask)
    return (distance_transform_edt(~centres) <= radius)[1:-1, 1:-1]


def vote(classes: np.ndarray, n_classes: int, frame: Frame,
         keep_lines: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per cell: the winning class, the runner-up and the share of each class (cells x classes).

    Class 0 is the background. With ``keep_lines``, a cell crossed by the
    skeleton of a thin foreground structure takes that structure's class
    (the darkest-first order of the classes settles crossings).
    """
    n = frame.n_cells
    labels = frame.labels
    votes = np.bincount(labels * n_classes + classes.ravel(), minlength=n * n_classes).reshape(n, n_classes)
    share = votes / np.maximum(votes.sum(axis=1, keepdims=True), 1)
    order = np.argsort(-share, axis=1, kind="stable")
    winner, runner = order[:, 0].copy(), order[:, 1].copy() if n_classes > 1 else order[:, 0].copy()
    if keep_lines and frame.cell_px >= 2.5:
        h, w = frame.rgba.shape[:2]
        for c in range(1, n_classes):
            mask = (classes == c).reshape(h, w)
            lines = line_cells(mask, frame) & (share[:, c] >= LINE_MIN_SHARE) & (winner != c)
            if lines.any():
                runner[lines] = winner[lines]
                winner[lines] = c
    return winner, runner, share


def drop_specks(grid: np.ndarray, share: np.ndarray) -> tuple[np.ndarray, int]:
    """Replace lone cells (no 8-neighbour of the same value) by their 4 neighbours' most common value.

    Eight neighbours, so a diagonal line (whose cells touch only at corners)
    is not a row of specks.

    ``share`` is the winning class's vote share per cell (rows x cols): sure
    cells stay. Returns the new grid and how many cells changed.
    """
    rows, cols = grid.shape
    padded = np.pad(grid.astype(np.int64), 1, constant_values=-1)
    shifts = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
    around = np.stack([padded[1 + dr : rows + 1 + dr, 1 + dc : cols + 1 + dc] for dr, dc in shifts])
    neighbours = around[[1, 3, 4, 6]]  # up, left, right, down
    lone = ~np.any(around == grid[None], axis=0) & (share < SURE_SPECK)
    out = grid.copy()
    for r, c in zip(*np.nonzero(lone), strict=True):
        values = neighbours[:, r, c]
        values = values[values >= 0]
        if values.size:
            counts = np.bincount(values)
            out[r, c] = int(np.argmax(counts))
    return out, int(np.count_nonzero(out != grid))


def peel_outline(grid: np.ndarray, lightness: Optional[np.ndarray] = None) -> tuple[np.ndarray, int]:
    """Give one-cell-thick outer outlines the colour of what they enclose, when that is not background.

    With ``lightness`` (L* per class) only rims lighter than what they
    enclose go: the blend a reduced edge leaves, a highlight.

    A cell next to the background whose opposite neighbour (further in) has
    another foreground colour is a line one cell thick around a coloured
    shape. The shape already carries the outline there, and such lines make a
    one-cell clue block in every line that crosses them. Outlines around
    background-coloured insides (a white envelope, a page) carry the shape
    and stay. Returns the grid and how many cells changed.
    """
    g = np.pad(grid.astype(np.int64), 1, constant_values=0)
    out = g.copy()
    core = g[1:-1, 1:-1]
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        outside = g[1 + dr : g.shape[0] - 1 + dr, 1 + dc : g.shape[1] - 1 + dc]
        inside = np.pad(g, 1, constant_values=0)[2 - dr : g.shape[0] - dr, 2 - dc : g.shape[1] - dc]
        peel = (core > 0) & (outside == 0) & (inside > 0) & (inside != core)
        if lightness is not None:
            peel &= lightness[core] > lightness[inside]
        out[1:-1, 1:-1][peel] = inside[peel]
    new = out[1:-1, 1:-1].astype(grid.dtype)
    return new, int(np.count_nonzero(new != grid))


def thicken_outline(grid: np.ndarray, lightness: Optional[np.ndarray] = None) -> tuple[np.ndarray, int]:
    """Thicken one-cell outer outlines around coloured shapes to two cells (the opposite of :func:`peel_outline`).

    A two-cell outline makes blocks of two where a one-cell one makes specks,
    and keeps the outline that carries an icon's shape. Inside may be another
    colour or background that the outline encloses (a page, an envelope).
    With ``lightness`` (L* per class) only outlines darker than what they
    enclose thicken (a lighter rim is a blend or a highlight, not an outline).
    Returns the grid and how many cells changed.
    """
    g = np.pad(grid.astype(np.int64), 2, constant_values=0)
    parts, _ = label(g == 0)
    g[(g == 0) & (parts != parts[0, 0])] = -1  # enclosed background: -1 while we look
    out = g.copy()
    core = g[2:-2, 2:-2]
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        outside = g[2 + dr : g.shape[0] - 2 + dr, 2 + dc : g.shape[1] - 2 + dc]
        inside = g[2 - dr : g.shape[0] - 2 - dr, 2 - dc : g.shape[1] - 2 - dc]
        beyond = g[2 - 2 * dr : g.shape[0] - 2 - 2 * dr, 2 - 2 * dc : g.shape[1] - 2 - 2 * dc]
        thin = (core > 0) & (outside == 0) & (inside != 0) & (inside != core) & (beyond != core)
        if lightness is not None:
            thin &= lightness[core] < lightness[np.maximum(inside, 0)]
        rows, cols = np.nonzero(thin)
        out[rows + 2 - dr, cols + 2 - dc] = core[thin]
    out[out == -1] = 0
    new = out[2:-2, 2:-2].astype(grid.dtype)
    return new, int(np.count_nonzero(new != grid))


def class_share(mask: np.ndarray, frame: Frame) -> np.ndarray:
    """Share of each cell's pixels where ``mask`` holds (flat, cells)."""
    return cell_mean(mask.astype(np.float32), frame.labels, frame.n_cells)
