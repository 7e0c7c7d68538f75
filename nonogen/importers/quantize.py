"""Colour: a palette whose entries a solver can tell apart on paper, chosen in CIELAB.

1. Candidate colours: the picture's exact colours when it has few (pixel art,
   flat drawings keep their real colours), else Pillow's median cut to
   :data:`CANDIDATES` colours, never dithered.
2. Merging: the closest candidates are merged one pair at a time (CIEDE2000,
   weighted by pixel counts as Ward's method does), until at most ``k``
   colours are left *and* every pair, the background included, is at least
   ``min_distance`` apart. A small colour far from all others (a sun, a red
   house, a dark outline) costs more to merge than two big shades of brown,
   so it survives. Colours close to the background join the background.
3. Cells: a vote per cell that keeps thin lines, then lone cells are removed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from ..colorspace import delta_e, from_lab, median_cut, to_lab
from .cells import peel_outline, thicken_outline, vote
from .cleanup import clean, share_cost
from .frame import Frame, over_white

__all__ = ["Colouring", "color_cells", "exact_colours", "CANDIDATES"]

CANDIDATES = 48
"""Colours the median cut offers to the merging step: enough that no salient colour is lost early."""
EXACT_MAX = 64
"""A picture with at most this many distinct colours keeps them as candidates, exactly."""


@dataclass(frozen=True)
class Colouring:
    """Cells (rows x cols, 0 = background), the palette RGBs (background first), runner-up per cell, vote share."""

    grid: np.ndarray
    rgbs: list[tuple[int, int, int]]
    alternative: np.ndarray
    sure: np.ndarray
    info: dict[str, Any] = field(default_factory=dict)


def exact_colours(rgb: np.ndarray, limit: int = EXACT_MAX) -> Optional[tuple[np.ndarray, np.ndarray]]:
    """The distinct colours of ``rgb`` (n x 3 uint8) and each pixel's index, or ``None`` if over ``limit``."""
    packed = (rgb[:, 0].astype(np.int64) << 16) | (rgb[:, 1].astype(np.int64) << 8) | rgb[:, 2]
    values, index = np.unique(packed, return_inverse=True)
    if len(values) > limit:
        return None
    colours = np.stack([(values >> 16) & 255, (values >> 8) & 255, values & 255], axis=1)
    return colours, index.ravel()


def _candidates(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
    """Candidate colours (m x 3), each pixel's candidate, and whether they are the picture's exact colours."""
    exact = exact_colours(rgb)
    if exact is not None:
        return exact[0], exact[1], True
    index, colours = median_cut(rgb, CANDIDATES)
    return colours, index, False


def _merge(lab: np.ndarray, counts: np.ndarray, fixed: int, k: int,
           min_distance: float) -> tuple[np.ndarray, np.ndarray]:
    """Greedy Ward-style merging in CIELAB; returns each candidate's group (a root candidate) and the colours.

    The fixed candidate (the background) keeps its colour; every other group's
    colour is the count-weighted mean of its members.
    """
    m = len(lab)
    group = np.arange(m)
    cols = lab.astype(np.float64).copy()
    weight = counts.astype(np.float64).copy()
    alive = np.ones(m, dtype=bool)
    while True:
        ids = np.flatnonzero(alive)
        if len(ids) <= 1:
            break
        d = delta_e(cols[ids][:, None, :], cols[ids][None, :, :])
        np.fill_diagonal(d, np.inf)
        too_close = d < min_distance
        if len(ids) - 1 <= k and not too_close.any():
            break
        w = weight[ids]
        cost = (w[:, None] * w[None, :] / np.maximum(w[:, None] + w[None, :], 1e-9)) * d**2
        if too_close.any():
            cost = np.where(too_close, cost, np.inf)
        i, j = np.unravel_index(np.argmin(cost), cost.shape)
        a, b = int(ids[i]), int(ids[j])
        if b == fixed:
            a, b = b, a
        keep_colour = a == fixed
        total = weight[a] + weight[b]
        if not keep_colour:
            cols[a] = (cols[a] * weight[a] + cols[b] * weight[b]) / max(total, 1e-9)
        weight[a] = total
        alive[b] = False
        group[group == b] = a
    return group, cols


def color_cells(
    frame: Frame, k: int, min_distance: float, background: Optional[tuple[int, int, int]], style: str = "auto"
) -> Colouring:
    """The colour cells of a picture with at most ``k`` foreground colours (see the module docstring).

    ``background`` is ``None`` for a transparent border (the paper, white, is
    the background and transparent pixels belong to it) or the background RGB.
    ``style`` ``fill`` gives one-cell outer outlines the colour they enclose;
    ``outline`` and ``auto`` thicken them to two cells.
    """
    h, w = frame.rgba.shape[:2]
    flat = frame.rgba.reshape(-1, 4)
    rgb = np.round(over_white(flat[None])[0]).astype(np.uint8)
    clear = flat[:, 3] < 128 if background is None else np.zeros(len(flat), dtype=bool)
    cands, index, exact = _candidates(rgb[~clear])
    counts = np.bincount(index, minlength=len(cands)).astype(np.float64)
    bg_rgb = (255, 255, 255) if background is None else tuple(int(v) for v in background)
    cands = np.vstack([cands, np.array(bg_rgb)[None]])  # the background, fixed, last
    counts = np.append(counts, float(clear.sum()) + 1.0)
    fixed = len(cands) - 1
    lab = to_lab(cands.astype(np.float64))
    group, cols = _merge(lab, counts, fixed, k, min_distance)
    roots = [g for g in np.unique(group) if g != fixed]
    roots.sort(key=lambda g: -counts[group == g].sum())
    klass = np.zeros(len(cands), dtype=np.int64)
    for i, g in enumerate(roots, start=1):
        klass[group == g] = i
    pixel_class = np.zeros(h * w, dtype=np.int64)  # transparent pixels: background
    pixel_class[~clear] = klass[index]
    rgbs = [bg_rgb] + [tuple(int(round(v)) for v in from_lab(cols[g])) for g in roots]
    return _to_cells(frame, pixel_class.reshape(h, w), rgbs, exact, len(cands) - 1, style)


def _to_cells(frame: Frame, pixel_class: np.ndarray, rgbs: list, exact: bool, n_candidates: int,
              style: str) -> Colouring:
    n_classes = len(rgbs)
    winner, runner, share = vote(pixel_class, n_classes, frame, keep_lines=not frame.pixel_art)
    grid = winner.reshape(frame.rows, frame.cols)
    sure = share[np.arange(share.shape[0]), winner].reshape(grid.shape)
    peeled = changed = 0
    if not frame.pixel_art:
        if style == "fill":
            grid, peeled = peel_outline(grid)
        else:  # light rims go, dark outlines are drawn two cells thick
            lightness = to_lab(np.array(rgbs, dtype=np.float64))[:, 0]
            grid, peeled = peel_outline(grid, lightness)
            grid, thickened = thicken_outline(grid, lightness)
            peeled += thickened
        grid, changed = clean(grid, share_cost(share, frame.rows, frame.cols), smooth=False)
    used = [0] + [c for c in range(1, n_classes) if np.any(grid == c)]
    used.sort(key=lambda c: (c != 0, -int(np.count_nonzero(grid == c)), c))
    remap = np.zeros(n_classes, dtype=np.int64)
    remap[used] = np.arange(len(used))
    alt = remap[runner.reshape(grid.shape)]
    info = {"exact_colours": exact, "candidates": n_candidates, "specks_removed": changed, "outline_peeled": peeled}
    return Colouring(remap[grid].astype(np.uint8), [rgbs[c] for c in used], alt.astype(np.uint8), sure, info)
