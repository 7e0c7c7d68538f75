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
OFF_LINE = 0.12
"""Share of a cell by which a line's position in one band may stray from the straight line through its two
neighbouring bands' (a page's bend moves it less; a digit's edge, taken for it, more)."""
BAND = 120
"""Width in pixels of the bands across a grid in which its lines are found: narrow enough that a line bends little
within one (a page curling into the spine), wide enough that a line is a clear peak over a band's digits."""


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


def _nets(strokes: np.ndarray, stroke: int) -> list[np.ndarray]:
    """The pixels (N x 2, x y) of each net of strokes big enough to be a grid, largest first.

    Nets whose boxes come within two strokes' width of each other are one: a magazine's lines every five cells
    are thicker than a stroke, so its lattice falls apart into blocks of five by five cells, each a net of its
    own, side by side."""
    import cv2

    h, w = strokes.shape
    count, labels, stats, _ = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    least = max(MIN_PITCH * MIN_CELLS * 2, min(h, w) // 12)
    big = [k for k in range(1, count) if stats[k, 2] >= least and stats[k, 3] >= least
           and stats[k, 4] < 0.5 * stats[k, 2] * stats[k, 3]]
    group = {k: k for k in big}

    def root(k: int) -> int:
        while group[k] != k:
            k = group[k]
        return k

    near = 2 * stroke
    for i, a in enumerate(big):
        ax, ay, aw, ah = stats[a, :4]
        for b in big[i + 1:]:
            bx, by, bw, bh = stats[b, :4]
            if bx <= ax + aw + near and ax <= bx + bw + near and by <= ay + ah + near and ay <= by + bh + near:
                group[root(b)] = root(a)
    members: dict[int, list[int]] = {}
    for k in big:
        members.setdefault(root(k), []).append(k)
    found = []
    for ks in members.values():
        x0 = min(stats[k, 0] for k in ks)
        y0 = min(stats[k, 1] for k in ks)
        x1 = max(stats[k, 0] + stats[k, 2] for k in ks)
        y1 = max(stats[k, 1] + stats[k, 3] for k in ks)
        found.append(((x1 - x0) * (y1 - y0), ks, x0, y0, x1, y1))
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


def _shift(known: dict[int, float], lines: list[tuple[int, float]], pitch: float) -> Optional[int]:
    """By how many lines a band's numbering (``lines``, from its first peak) is behind its neighbour's (``known``,
    line number to position): the shift that puts most of its peaks within a fifth of a cell of the neighbour's
    same lines; None when no shift does (the band miscounts, or sees another lattice)."""
    best, best_hits = None, 0
    for s in range(-4, 5):
        common = [(known[k + s], p) for k, p in lines if k + s in known]
        hits = sum(abs(a - b) <= 0.2 * pitch for a, b in common)
        if len(common) >= 3 and hits >= 0.8 * len(common) and hits > best_hits:
            best, best_hits = s, hits
    return best


def _bands(frame: np.ndarray, span: tuple[int, int],
           across: tuple[int, int]) -> Optional[tuple[np.ndarray, np.ndarray]]:
    """The lines crossing ``frame`` across its rows within ``span``, found in bands of columns within ``across``:
    the bands' centres, and each line's position in each band (lines x bands, NaN where a band did not see it);
    None when too few bands agree.

    Each band numbers its lines from its first; a neighbouring band's numbering is matched to it by the shift
    that lines most of them up (:func:`_shift`), so a band that does not see an outer line (a bent page's edge
    leaves the frame; a thick frame merges with a shadow) still counts the others right, and the lines are
    followed across the page as far as it bends."""
    lo, hi = span
    a0, a1 = across
    bands = int(np.clip(round((a1 - a0) / BAND), 3, 40))
    edges = np.linspace(a0, a1, bands + 1)
    darkness = 255.0 - frame
    found = []
    for b0, b1 in zip(edges, edges[1:], strict=False):
        profile = darkness[lo:hi, int(b0):int(b1)].mean(axis=1)
        found.append([(lo + p, s) for p, s in _peaks(profile)])
    gaps = np.concatenate([np.diff([q for q, _ in p]) for p in found if len(p) > 1] or [np.zeros(0)])
    gaps = gaps[gaps >= MIN_PITCH]
    if not len(gaps):
        return None
    pitch = float(np.median(gaps))
    numbered = [_indexed(p, pitch) for p in found]
    middle = bands // 2
    at: list[Optional[dict[int, float]]] = [None] * bands
    at[middle] = dict(numbered[middle])
    for order in (range(middle + 1, bands), range(middle - 1, -1, -1)):
        known = at[middle]
        for b in order:
            s = _shift(known, numbered[b], pitch) if numbered[b] and known else None
            if s is not None:
                at[b] = known = {k + s: p for k, p in numbered[b]}
    seen = [a for a in at if a is not None]
    if len(seen) < 0.5 * bands:
        return None
    counts: dict[int, int] = {}
    for a in seen:
        for k in a:
            counts[k] = counts.get(k, 0) + 1
    kept = [k for k, n in counts.items() if n >= max(2, 0.25 * len(seen))]
    if not kept:
        return None
    first, last = min(kept), max(kept)
    if not MIN_CELLS <= last - first <= MAX_CELLS:
        return None
    used = [b for b in range(bands) if at[b] is not None]
    positions = np.full((last - first + 1, len(used)), np.nan)
    for column, b in enumerate(used):
        for k, p in at[b].items():  # type: ignore[union-attr]
            if first <= k <= last:
                positions[k - first, column] = p
    return ((edges[:-1] + edges[1:]) / 2)[used], positions


def _smooth(positions: np.ndarray) -> np.ndarray:
    """``positions`` (lines x bands) less the samples off their line's run across the bands (a digit's edge taken
    for the line in a band of clues): one at a time, the one furthest from the straight line through its two
    neighbours, while that is over :data:`OFF_LINE` of a cell."""
    out = positions.copy()
    if out.shape[1] < 3:
        return out
    pitch = float(np.nanmedian(np.diff(out, axis=0))) if len(out) > 1 else 0.0
    for _ in range(out.size):
        inner = np.abs(out[:, 1:-1] - (out[:, :-2] + out[:, 2:]) / 2)
        ends = np.abs(np.stack([out[:, 0] - 2 * out[:, 1] + out[:, 2], out[:, -1] - 2 * out[:, -2] + out[:, -3]], 1))
        off = np.concatenate([ends[:, :1], inner, ends[:, 1:]], axis=1)
        if np.isnan(off).all() or np.nanmax(off) <= OFF_LINE * pitch:
            break
        k, b = (int(i) for i in np.unravel_index(np.nanargmax(off), off.shape))
        # the sample, or a neighbour it is measured against: the one furthest from its own neighbours
        near = [j for j in (b - 1, b, b + 1) if 0 <= j < out.shape[1]]
        out[k, max(near, key=lambda j: _kink(out[k], j))] = np.nan
    return out


def _kink(line: np.ndarray, j: int) -> float:
    """How far ``line``'s sample ``j`` is from the straight line through its two neighbours (at an end, the two
    next inward); 0 when one of them is missing."""
    near = (j - 1, j + 1) if 0 < j < len(line) - 1 else (1, 2) if j == 0 else (j - 1, j - 2)
    a, b = line[near[0]], line[near[1]]
    if np.isnan(a) or np.isnan(b) or np.isnan(line[j]):
        return 0.0
    return float(abs(line[j] - (a + b) / 2)) if 0 < j < len(line) - 1 else float(abs(line[j] - 2 * a + b))


def _filled(positions: np.ndarray) -> Optional[np.ndarray]:
    """Every line's position in every band (lines x bands): where a band did not see a line, the next line's there
    moved by how far apart the two are where both are seen (lines run alike across the page); a line seen nowhere
    is set evenly between its neighbours. None when the two outer lines are seen nowhere."""
    out = positions.copy()
    if np.isnan(out[0]).all() or np.isnan(out[-1]).all():
        return None
    for _ in range(len(out)):
        missing = np.isnan(out)
        if not missing.any():
            return out
        for k in np.nonzero(missing.any(axis=1) & ~missing.all(axis=1))[0]:
            for n in (k - 1, k + 1):
                if 0 <= n < len(out):
                    both = ~np.isnan(out[k]) & ~np.isnan(out[n])
                    if both.any():
                        gap = np.isnan(out[k]) & ~np.isnan(out[n])
                        out[k, gap] = out[n, gap] + float(np.median(out[k, both] - out[n, both]))
        for k in np.nonzero(np.isnan(out).all(axis=1))[0]:
            a = max(i for i in range(k) if not np.isnan(out[i]).all())
            b = min(i for i in range(k + 1, len(out)) if not np.isnan(out[i]).all())
            out[k] = out[a] + (out[b] - out[a]) * (k - a) / (b - a)
    return None if np.isnan(out).any() else _fitted(out)


def _fitted(lines: np.ndarray) -> np.ndarray:
    """Each line (lines x bands) as a cubic over the bands where one fits it within :data:`OFF_LINE` of a cell
    (a sheet's warp and gentle bend: the fit averages the bands' noise out); a line bent more sharply (a page
    curling into the spine) keeps its samples, taken straight between them."""
    if lines.shape[1] < 6 or len(lines) < 2:
        return lines
    pitch = float(np.median(np.diff(lines, axis=0)))
    t = np.linspace(-1, 1, lines.shape[1])
    out = lines.copy()
    for k, line in enumerate(lines):
        smooth = np.polyval(np.polyfit(t, line, 3), t)
        if np.abs(smooth - line).max() <= OFF_LINE * abs(pitch):
            out[k] = smooth
    return out


def _along(centres: np.ndarray, values: np.ndarray, at: np.ndarray) -> np.ndarray:
    """``values`` (…, bands) at the band ``centres`` read at ``at`` (…) between them, straight on past the ends."""
    i = np.clip(np.searchsorted(centres, at) - 1, 0, len(centres) - 2)
    t = (at - centres[i]) / (centres[i + 1] - centres[i])
    lo = np.take_along_axis(values, i[..., None], -1)[..., 0]
    hi = np.take_along_axis(values, (i + 1)[..., None], -1)[..., 0]
    return lo + (hi - lo) * t


def _crossings(rows: tuple[np.ndarray, np.ndarray], cols: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Where each row line meets each column line: (rows, cols, 2) x y. A row line is its y at the column bands'
    centres (x), a column line its x at the row bands' centres (y); between them, straight."""
    (xc, ys), (yc, xs) = rows, cols
    shape = (len(ys), len(xs))
    row_of = np.broadcast_to(ys[:, None, :], shape + ys.shape[1:])
    col_of = np.broadcast_to(xs[None, :, :], shape + xs.shape[1:])
    x = np.broadcast_to(xs[None, :, len(yc) // 2], shape).copy()
    y = _along(xc, row_of, x)
    for _ in range(5):
        x = _along(yc, col_of, y)
        y = _along(xc, row_of, x)
    return np.stack([x, y], axis=-1)


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
    row_lines, col_lines = _filled(_smooth(rows[1])), _filled(_smooth(cols[1]))
    if row_lines is None or col_lines is None:
        return None
    crossings = _crossings((rows[0], row_lines), (cols[0], col_lines))
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
