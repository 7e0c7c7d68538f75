"""Photos of printed pages: the light made even, each grid found as a (perhaps bent) quadrilateral, and the page
around it redrawn flat, so the clean-sheet reader reads it.

A photo's grid is neither upright nor straight: the camera looks at the page from an angle (perspective), turns
it a little (roll), and a book's page curls into the spine (its lines bow). The way here:

1. :func:`flatten`: the light is made even by dividing by the paper's own brightness (a wide maximum filter of a
   shrunk copy: ink is dark and thin, so the maximum is paper), which takes out gradients and shadows.
2. The grid's outer border: the largest net of dark strokes is a grid's candidate; each of its four sides is
   found by a robust fit to the net's outermost pixels (digits touching the border are outliers), the corners where
   they meet. A homography takes the quadrilateral to a rectangle.
3. There the lines are nearly straight: in bands across the grid, the profile of darkness shows each line as a
   peak (thin grey lines too: they are found by averaging, not by a threshold). Counted in each band, tracked
   with the local spacing (a bent page's cells narrow towards the spine), they give every line's position band
   by band, and every crossing of the grid (:mod:`.bands`).
4. :mod:`.rectify`: a smooth map from the grid's cells to the photo's pixels is fitted to the crossings and
   carried out past the grid over the clue margins, and the page is drawn anew through it: the grid upright,
   square and evenly spaced (at least 32 pixels a cell: a photo's small digits read better drawn larger), the
   clues upright beside it.

The canvas is then read as a clean sheet with the grid already known (:mod:`.photoread`).
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from .bands import frame_crossings
from .edges import extended
from .lattice import MIN_CELLS, MIN_PITCH, without_clue_cells
from .rectify import Flat, redraw

__all__ = ["Flat", "flatten", "flat_grids"]

SHRINK = 4
"""The paper's brightness is estimated on a copy this many times smaller (fast, and ink vanishes in its maximum)."""
STROKE = 11
"""Widest dark stroke, in pixels, taken for a line. A magazine's thick outer frame is 14 pixels wide in a phone's
photo, but its lines every five cells are thick too: at 11 its lattice falls into blocks of five by five cells,
joined again into one net (:func:`_nets`), and the frame is found beyond the first line inside it
(:func:`.edges.extended`). A second look with strokes up to 25 pixels (a shadow's edge joined the grid's net there:
a 24x12 grid read as 38x55) read no page better once blocks were joined: not on the real pictures nor on the
bench's photos, seeds 3 and 5; it doubled the time of a page that does not read soundly."""


def flatten(gray: np.ndarray, window: int = 9, blur: float = 3.0, shrink: int = SHRINK) -> np.ndarray:
    """``gray`` divided by the paper's brightness around each pixel: even light, paper near 255 (float32). The
    paper is the brightest pixel within ``window`` pixels, smoothed by ``blur``, both on a copy ``shrink`` times
    smaller (the whole photo's light; the reader evens each cell's again at full size, :func:`.photoread._evened`)."""
    import cv2

    h, w = gray.shape
    small = gray if shrink == 1 else cv2.resize(gray, (max(1, w // shrink), max(1, h // shrink)),
                                                interpolation=cv2.INTER_AREA)
    paper = cv2.dilate(small, np.ones((window, window), np.uint8))
    paper = cv2.GaussianBlur(paper.astype(np.float32), (0, 0), blur)
    if shrink != 1:
        paper = cv2.resize(paper, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(gray.astype(np.float32) / np.maximum(paper, 1.0) * 255.0, 0, 255)


def _strokes(flat: np.ndarray, stroke: int) -> np.ndarray:
    """Dark strokes up to ``stroke`` pixels wide (uint8 0/1): pixels well darker than the paper just around them
    (a black-hat), so texture and what is left of the light do not count."""
    import cv2

    closed = cv2.morphologyEx(flat, cv2.MORPH_CLOSE, np.ones((stroke, stroke), np.uint8))
    depth = closed - flat
    return (depth > max(25.0, 0.25 * float(np.percentile(depth, 99.9)))).astype(np.uint8)


def _nets(strokes: np.ndarray, stroke: int) -> list[np.ndarray]:
    """The pixels (N x 2, x y) of each net of strokes big enough to be a grid, largest first.

    Nets whose boxes come within two strokes' width of each other are one: a magazine's lines every five cells
    are thicker than a stroke, so its lattice falls apart into blocks of five by five cells, each a net of its
    own, side by side."""
    import cv2
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    h, w = strokes.shape
    count, labels, stats, _ = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    least = max(MIN_PITCH * MIN_CELLS * 2, min(h, w) // 12)
    big = np.array([k for k in range(1, count) if stats[k, 2] >= least and stats[k, 3] >= least
                    and stats[k, 4] < 0.5 * stats[k, 2] * stats[k, 3]], np.int64)
    if not len(big):
        return []
    left, top = stats[big, 0].astype(np.int64), stats[big, 1].astype(np.int64)
    right, bottom = left + stats[big, 2], top + stats[big, 3]
    near = 2 * stroke
    touching = ((left[:, None] <= right[None] + near) & (left[None] <= right[:, None] + near)
                & (top[:, None] <= bottom[None] + near) & (top[None] <= bottom[:, None] + near))
    _, joined = connected_components(csr_matrix(touching), directed=False)
    found = []
    for net in range(int(joined.max()) + 1):
        mine = joined == net
        x0, y0, x1, y1 = int(left[mine].min()), int(top[mine].min()), int(right[mine].max()), int(bottom[mine].max())
        found.append(((x1 - x0) * (y1 - y0), big[mine], x0, y0, x1, y1))
    out = []
    for _, ks, x0, y0, x1, y1 in sorted(found, key=lambda f: -f[0])[:6]:
        ys, xs = np.nonzero(np.isin(labels[y0:y1, x0:x1], ks))
        out.append(np.stack([xs + x0, ys + y0], axis=1).astype(np.float64))
    return out


def _robust_line(t: np.ndarray, v: np.ndarray, start: np.ndarray) -> Optional[np.ndarray]:
    """Coefficients (quadratic, highest first) of v over t fitted to the majority, from the line ``start``: points
    far off (a digit touching the border) are dropped; None when too few stay (no straight side: no grid)."""
    if len(t) < 8:
        return None
    coef = start
    keep = np.ones(len(t), bool)
    for degree in (1, 1, 2, 2):
        off = np.abs(np.polyval(coef, t) - v)
        limit = max(2.0, 2.5 * float(np.median(off)))
        keep = off <= limit
        if keep.sum() < max(8, 0.5 * len(t)):
            return None
        coef = np.polyfit(t[keep], v[keep], degree)
    return coef


def _outermost(net: np.ndarray, first: bool) -> np.ndarray:
    """For each column of the mask ``net``, the row of its first (``first``) or last pixel; NaN where it has none."""
    rows = net.argmax(axis=0) if first else net.shape[0] - 1 - net[::-1].argmax(axis=0)
    return np.where(net.any(axis=0), rows.astype(np.float64), np.nan)


def _outer(points: np.ndarray) -> Optional[np.ndarray]:
    """The net's four corners (top-left, top-right, bottom-right, bottom-left) where its fitted sides meet.

    The net's extreme points along the diagonals are the corners, roughly; each side is then fitted to the net's
    outermost pixels between its two rough corners.
    """
    x, y = points[:, 0].astype(int), points[:, 1].astype(int)
    rough = [points[np.argmin(x + y)], points[np.argmax(x - y)], points[np.argmax(x + y)], points[np.argmin(x - y)]]
    net = np.zeros((y.max() + 1, x.max() + 1), bool)
    net[y, x] = True
    sides = []
    for a, b, horizontal, first in ((0, 1, True, True), (3, 2, True, False), (0, 3, False, True),
                                    (1, 2, False, False)):
        along = x if horizontal else y
        k = 0 if horizontal else 1
        lo, hi = sorted((rough[a][k], rough[b][k]))
        cut = 0.1 * (hi - lo)
        inside = (along >= lo + cut) & (along <= hi - cut)
        if inside.sum() < 8:
            return None
        base = int(lo + cut)
        edge = _outermost(net if horizontal else net.T, first)[base:int(hi - cut) + 1]
        edge[:max(0, int(np.ceil(lo + cut)) - base)] = np.nan
        t = np.nonzero(np.isfinite(edge))[0]
        ends = np.array([rough[a][k], rough[b][k]])
        if ends[1] == ends[0]:
            return None
        start = np.polyfit(ends, np.array([rough[a][1 - k], rough[b][1 - k]]), 1)
        coef = _robust_line((t + base).astype(float), edge[t], start)
        if coef is None:
            return None
        sides.append(coef)
    top, bottom, left, right = sides
    corners = []
    pairs = ((top, left, rough[0]), (top, right, rough[1]), (bottom, right, rough[2]), (bottom, left, rough[3]))
    for across, down, near in pairs:
        cx = float(near[0])
        for _ in range(8):  # y = h(x), x = v(y): alternate until they meet
            cx = float(np.polyval(down, np.polyval(across, cx)))
        corners.append((cx, float(np.polyval(across, cx))))
    return np.asarray(corners, np.float64)


def _lattice(flat: np.ndarray, corners: np.ndarray) -> Optional[np.ndarray]:
    """Every crossing of the grid whose border has these corners, in the photo's pixels: (rows+1, cols+1, 2)."""
    import cv2

    width = (np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[3])) / 2
    height = (np.linalg.norm(corners[3] - corners[0]) + np.linalg.norm(corners[2] - corners[1])) / 2
    if min(width, height) < MIN_PITCH * MIN_CELLS:
        return None
    pad = 12
    target = np.array([[pad, pad], [pad + width, pad], [pad + width, pad + height], [pad, pad + height]], np.float32)
    to_frame = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    size = (int(width + 2 * pad), int(height + 2 * pad))
    frame = cv2.warpPerspective(flat, to_frame, size, flags=cv2.INTER_LINEAR, borderValue=255)
    crossings = frame_crossings(frame, pad, (width, height))
    if crossings is None:
        return None
    back = cv2.perspectiveTransform(crossings.reshape(-1, 1, 2), np.linalg.inv(to_frame))
    return back.reshape(crossings.shape)


def _without_clue_cells(flat: Flat) -> Flat:
    """The flat grid less the clue cells inside its frame: a magazine draws its clue numbers in boxes of the
    grid's own lattice, so the frame found holds them (:func:`.lattice.without_clue_cells`). The frame is kept:
    nothing outside it is a clue there."""
    from dataclasses import replace

    grid = without_clue_cells(flat.gray, flat.grid, checked=True)
    return flat if grid is None or grid == flat.grid else replace(flat, grid=grid, frame=flat.grid.box)


def flat_grids(gray: np.ndarray, stroke: int = STROKE) -> list[Flat]:
    """Every grid of the photo ``gray`` (0 ink .. 255 paper), each redrawn flat with its clue margins; its lines are
    strokes up to ``stroke`` pixels wide."""
    import cv2

    flat = flatten(gray)
    out: list[Flat] = []
    found: list[np.ndarray] = []  # the borders of the grids found, largest first
    for points in _nets(_strokes(flat, stroke), stroke):
        middle = points.mean(axis=0)
        if any(cv2.pointPolygonTest(q.astype(np.float32), (float(middle[0]), float(middle[1])), False) >= 0
               for q in found):
            continue  # a piece of a grid already found (a faint line cut its net in two)
        with np.errstate(all="ignore"):  # a degenerate fit's corner is NaN or infinite, passed over below
            corners = _outer(points)
        if corners is None or not np.isfinite(corners).all() or np.abs(corners).max() > 4 * max(flat.shape):
            continue  # no border fits: two sides' lines (nearly) parallel put a corner far off the photo
        crossings = _lattice(flat, corners)
        if crossings is not None and np.isfinite(crossings).all():
            out.append(_without_clue_cells(redraw(flat, extended(flat, crossings))))
            found.append(corners)
    return out
