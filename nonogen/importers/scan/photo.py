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
   by band, and every crossing of the grid.
4. :mod:`.rectify`: a smooth map from the grid's cells to the photo's pixels is fitted to the crossings and
   carried out past the grid over the clue margins, and the page is drawn anew through it: the grid upright,
   square and evenly spaced (at least 32 pixels a cell: a photo's small digits read better drawn larger), the
   clues upright beside it.

The canvas is then read as a clean sheet with the grid already known (:mod:`.photoread`).
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from .edges import extended
from .lattice import MIN_CELLS, MIN_PITCH, without_clue_cells
from .rectify import Flat, redraw

__all__ = ["Flat", "flatten", "flat_grids", "MAX_CELLS"]

MAX_CELLS = 120
"""Most cells a photo's grid may have each way (more: it is no puzzle, or a misread lattice)."""
SHRINK = 4
"""The paper's brightness is estimated on a copy this many times smaller (fast, and ink vanishes in its maximum)."""
STROKES = (11, 25)
"""Widest dark stroke, in pixels, taken for a line, first and second try. A magazine's thick outer frame is 14
pixels wide in a phone's photo (at 11 it is lost, and the border fits the first line inside it); but at 25 the edge
of a shadow across a page counts as a stroke too and joins the grid's net (a 24x12 grid read as 38x55), so a page
is looked at with 25 only when its grids read with 11 do not read soundly (:func:`.read.read_page` keeps the
better reading)."""


def flatten(gray: np.ndarray) -> np.ndarray:
    """``gray`` divided by the paper's brightness around each pixel: even light, paper near 255 (float32)."""
    import cv2

    h, w = gray.shape
    small = cv2.resize(gray, (max(1, w // SHRINK), max(1, h // SHRINK)), interpolation=cv2.INTER_AREA)
    paper = cv2.dilate(small, np.ones((9, 9), np.uint8))
    paper = cv2.GaussianBlur(paper.astype(np.float32), (0, 0), 3)
    paper = cv2.resize(paper, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(gray.astype(np.float32) / np.maximum(paper, 1.0) * 255.0, 0, 255)


def _strokes(flat: np.ndarray, stroke: int) -> np.ndarray:
    """Dark strokes up to ``stroke`` pixels wide (uint8 0/1): pixels well darker than the paper just around them
    (a black-hat), so texture and what is left of the light do not count."""
    import cv2

    closed = cv2.morphologyEx(flat, cv2.MORPH_CLOSE, np.ones((stroke, stroke), np.uint8))
    depth = closed - flat
    return (depth > max(25.0, 0.25 * float(np.percentile(depth, 99.9)))).astype(np.uint8)


def _nets(strokes: np.ndarray) -> list[np.ndarray]:
    """The pixels (N x 2, x y) of each connected net of strokes big enough to be a grid, largest first."""
    import cv2

    h, w = strokes.shape
    count, labels, stats, _ = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    least = max(MIN_PITCH * MIN_CELLS * 2, min(h, w) // 12)
    found = []
    for label in range(1, count):
        x, y, bw, bh, area = stats[label]
        if bw >= least and bh >= least and area < 0.5 * bw * bh:
            found.append((bw * bh, label, x, y, bw, bh))
    out = []
    for _, label, x, y, bw, bh in sorted(found, reverse=True)[:6]:
        ys, xs = np.nonzero(labels[y:y + bh, x:x + bw] == label)
        out.append(np.stack([xs + x, ys + y], axis=1).astype(np.float64))
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


def _outer(points: np.ndarray) -> Optional[np.ndarray]:
    """The net's four corners (top-left, top-right, bottom-right, bottom-left) where its fitted sides meet.

    The net's extreme points along the diagonals are the corners, roughly; each side is then fitted to the net's
    outermost pixels between its two rough corners.
    """
    x, y = points[:, 0].astype(int), points[:, 1].astype(int)
    rough = [points[np.argmin(x + y)], points[np.argmax(x - y)], points[np.argmax(x + y)], points[np.argmin(x - y)]]
    sides = []
    for a, b, horizontal, first in ((0, 1, True, True), (3, 2, True, False), (0, 3, False, True),
                                    (1, 2, False, False)):
        along, across = (x, y) if horizontal else (y, x)
        k = 0 if horizontal else 1
        lo, hi = sorted((rough[a][k], rough[b][k]))
        cut = 0.1 * (hi - lo)
        inside = (along >= lo + cut) & (along <= hi - cut)
        if inside.sum() < 8:
            return None
        base = int(lo + cut)
        edge = np.full(int(hi - cut) - base + 1, np.inf if first else -np.inf)
        (np.minimum if first else np.maximum).at(edge, along[inside] - base, across[inside])
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


def _peaks(profile: np.ndarray) -> list[tuple[float, float]]:
    """Positions of the dark lines in a profile of darkness: peaks that stand out from their surroundings (thin grey
    lines stand out less than thick ones, so the bar is a tenth of the clearest, or the noise's), centred; with
    how far each stands out."""
    from scipy.signal import find_peaks

    steps = np.abs(np.diff(profile))
    noise = float(np.median(steps)) + 0.5
    _, found = find_peaks(profile, prominence=0.0)
    if not len(found["prominences"]):
        return []
    need = max(4 * noise, 0.1 * float(np.max(found["prominences"])))
    at, kept = find_peaks(profile, prominence=need, distance=MIN_PITCH - 1)
    out = []
    for i, strength in zip(at, kept["prominences"], strict=True):
        lo, hi = max(0, i - 2), min(len(profile), i + 3)
        weights = np.clip(profile[lo:hi] - profile[lo:hi].min(), 0, None) + 1e-9
        out.append((float(np.average(np.arange(lo, hi), weights=weights)), float(strength)))
    return out


def _indexed(peaks: list[tuple[float, float]], pitch: float) -> list[tuple[int, float]]:
    """Each peak (position, strength) numbered by the lines since the first, the spacing tracked as it goes (a
    missing line is skipped; of two peaks closer than a line's spacing the stronger is kept: the other is a
    digit's edge or a speck)."""
    out: list[tuple[int, float, float]] = []
    local = pitch
    for p, strength in peaks:
        if not out:
            out.append((0, p, strength))
            continue
        gap = p - out[-1][1]
        if gap < 0.6 * local:
            if strength > out[-1][2]:
                out[-1] = (out[-1][0], p, strength)
            continue
        steps = max(1, round(gap / local))
        out.append((out[-1][0] + steps, p, strength))
        if steps == 1:
            local = 0.7 * local + 0.3 * gap
    return [(k, p) for k, p, _ in out]


def _bands(frame: np.ndarray, span: tuple[int, int], across: tuple[int, int]) -> Optional[list[np.ndarray]]:
    """The lines crossing ``frame`` across its rows within ``span``, found in bands of columns within ``across``:
    for each line index, (band centre, position) samples; None when the bands disagree on the count."""
    lo, hi = span
    a0, a1 = across
    bands = int(np.clip(round((a1 - a0) / 120), 3, 10))
    edges = np.linspace(a0, a1, bands + 1)
    darkness = 255.0 - frame
    found = []
    for b0, b1 in zip(edges, edges[1:], strict=False):
        profile = darkness[lo:hi, int(b0):int(b1)].mean(axis=1)
        found.append(((b0 + b1) / 2, [(lo + p, s) for p, s in _peaks(profile)]))
    gaps = np.concatenate([np.diff([q for q, _ in p]) for _, p in found if len(p) > 1] or [np.zeros(0)])
    gaps = gaps[gaps >= MIN_PITCH]
    if not len(gaps):
        return None
    pitch = float(np.median(gaps))
    numbered = [(centre, _indexed(p, pitch)) for centre, p in found]
    counts = [n[-1][0] for _, n in numbered if n]
    if not counts:
        return None
    values, votes = np.unique(counts, return_counts=True)
    cells = int(values[np.argmax(votes)])
    if not MIN_CELLS <= cells <= MAX_CELLS or votes.max() < 0.5 * bands:
        return None
    lines: list[list[tuple[float, float]]] = [[] for _ in range(cells + 1)]
    for centre, n in numbered:
        if n and n[-1][0] == cells:
            for k, p in n:
                lines[k].append((centre, p))
    return [np.asarray(samples, np.float64).reshape(-1, 2) for samples in lines]


def _curves(samples: list[np.ndarray]) -> Optional[list[np.ndarray]]:
    """A polynomial (position over the band centre) for each line; a line seen in no band is set between its
    neighbours."""
    fits: list[Optional[np.ndarray]] = []
    for s in samples:
        if len(s) == 0:
            fits.append(None)
        else:
            fits.append(np.polyfit(s[:, 0], s[:, 1], min(2, len(s) - 1)))
    known = [k for k, f in enumerate(fits) if f is not None]
    if len(known) < 2 or known[0] != 0 or known[-1] != len(fits) - 1:
        return None
    out = []
    for k, f in enumerate(fits):
        if f is None:
            a = max(i for i in known if i < k)
            b = min(i for i in known if i > k)
            fa, fb = np.pad(fits[a], (3 - len(fits[a]), 0)), np.pad(fits[b], (3 - len(fits[b]), 0))  # type: ignore[arg-type]
            f = fa + (fb - fa) * (k - a) / (b - a)
        out.append(np.pad(f, (3 - len(f), 0)))
    return out


def _crossings(rows: list[np.ndarray], cols: list[np.ndarray]) -> np.ndarray:
    """Where each row line (y over x) meets each column line (x over y): (rows, cols, 2) x y."""
    out = np.zeros((len(rows), len(cols), 2))
    for k, r in enumerate(rows):
        for j, c in enumerate(cols):
            x = float(np.polyval(c, 0.0))
            y = float(np.polyval(r, x))
            for _ in range(4):
                x = float(np.polyval(c, y))
                y = float(np.polyval(r, x))
            out[k, j] = (x, y)
    return out


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
    reach = pad - 4
    rows = _bands(frame, (pad - reach, int(pad + height + reach)), (pad, int(pad + width)))
    cols = _bands(frame.T, (pad - reach, int(pad + width + reach)), (pad, int(pad + height)))
    if rows is None or cols is None:
        return None
    row_curves, col_curves = _curves(rows), _curves(cols)
    if row_curves is None or col_curves is None:
        return None
    crossings = _crossings(row_curves, col_curves)
    back = cv2.perspectiveTransform(crossings.reshape(-1, 1, 2), np.linalg.inv(to_frame))
    return back.reshape(crossings.shape)


def _without_clue_cells(flat: Flat) -> Flat:
    """The flat grid less the clue cells inside its frame: a magazine draws its clue numbers in boxes of the
    grid's own lattice, so the frame found holds them (:func:`.lattice.without_clue_cells`)."""
    from dataclasses import replace

    grid = without_clue_cells(flat.gray, flat.grid, checked=True)
    return flat if grid is None or grid == flat.grid else replace(flat, grid=grid)


def flat_grids(gray: np.ndarray, stroke: int = STROKES[0]) -> list[Flat]:
    """Every grid of the photo ``gray`` (0 ink .. 255 paper), each redrawn flat with its clue margins; its lines are
    strokes up to ``stroke`` pixels wide."""
    import cv2

    flat = flatten(gray)
    out: list[Flat] = []
    found: list[np.ndarray] = []  # the borders of the grids found, largest first
    for points in _nets(_strokes(flat, stroke)):
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
