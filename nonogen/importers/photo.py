"""Photos (an opaque border, many colours) into cells: colours or black and white that read at a glance.

Measured on photos at 20-45 cells (issue 24), these beat quantizing pixels
and voting: specks 32 % -> 14 % in colour, 23 % -> 3 % in black and white.

* **Colour** (:func:`colour_photo`): SLIC superpixels (scikit-image) smooth
  the picture without blurring its edges; its pixels are then clustered by
  k-means in CIELAB, and each cell takes the cluster nearest to its mean
  colour (the cells' own colours would make clusters of the blends along
  every edge). The background is
  the cluster that holds most border cells, and clusters closer than
  :data:`MERGE_DE` (CIEDE2000) are merged, so two near-identical dark browns
  do not become two clue colours.
* **Black and white** (:func:`bw_photo`): the cells' colours are projected on
  their first principal axis (CLAHE luminance instead when the picture is
  flat), and separately taken as lightness L*; each tone is cut at half the
  global Otsu threshold plus half a local Gaussian mean (sigma
  :data:`LOCAL_SIGMA` cells), so a subject in shadow and one in light both
  separate from what is right around them, and the side that leaves the
  border emptier is inked first, then the other side. The cut that reads
  best (:func:`~.quality.reads`: readability less its one-cell blocks) is kept.

Both end with the grid-scale cleanup of :mod:`.cleanup`.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from ..colorspace import delta_e, from_lab, to_lab
from ..palette import BW_PALETTE
from .binarize import otsu_threshold
from .cleanup import clean
from .frame import Frame, cell_mean, over_white
from .quality import reads
from .quantize import Colouring

__all__ = ["colour_photo", "bw_photo", "cell_lab", "MERGE_DE"]

MERGE_DE = 12.0
"""Clusters whose centres are closer than this (CIEDE2000) are one colour: solvers confuse them on paper."""
LOCAL_SIGMA = 4.0
"""Cells of the Gaussian whose local mean is half the black-and-white threshold."""
FLAT_SPREAD = 12.0
"""Standard deviation (CIELAB units) along the first axis under which a picture is flat: CLAHE first."""
SEGMENTS_PER_CELL = 2.0
"""SLIC superpixels per cell: small enough that few straddle an edge (one per cell read slightly worse)."""
KMEANS_ROUNDS = 30
BLEND_SHARE = 0.1
BLEND_DISTANCE = 6.0
"""A cluster with under BLEND_SHARE of the pixels within BLEND_DISTANCE (CIELAB) of the line between two
bigger clusters is the blend along their edge, not a colour of the picture."""
SAMPLE_PIXELS = 20_000
"""Pixels (evenly spaced) that k-means clusters: pixels, not cells, so the blends on edges stay a minority."""
EXTRA_CLUSTERS = 2
"""Clusters beyond ``k + 1`` that k-means finds before the closest are merged: a small distinct colour
(stripes, an eye) gets its own cluster instead of being split between two big ones."""


def cell_lab(frame: Frame) -> np.ndarray:
    """Each cell's mean colour in CIELAB (cells x 3), over white."""
    return to_lab(cell_mean(over_white(frame.rgba), frame.labels, frame.n_cells))


def _smoothed_lab(frame: Frame) -> np.ndarray:
    """The picture's pixels (h x w x 3, CIELAB) painted in their SLIC superpixel's mean colour.

    Edges stay sharp and texture and noise go, so the clusters are the
    picture's regions, not its grain."""
    from skimage.segmentation import slic  # loads scipy (0.4 s): paid by reading a picture

    rgb = over_white(frame.rgba)
    if frame.cell_px >= 3:
        segments = slic(rgb / 255.0, n_segments=max(4, int(frame.n_cells * SEGMENTS_PER_CELL)), compactness=10.0,
                        start_label=0, channel_axis=-1)
        flat = segments.ravel()
        counts = np.maximum(np.bincount(flat), 1)
        means = np.stack([np.bincount(flat, weights=rgb[..., k].ravel()) / counts for k in range(3)], axis=1)
        rgb = means[segments]
    return to_lab(rgb)


def _border_cells(rows: int, cols: int) -> np.ndarray:
    edge = np.zeros((rows, cols), dtype=bool)
    edge[0], edge[-1], edge[:, 0], edge[:, -1] = True, True, True, True
    return edge.ravel()


def _kmeans(points: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Lloyd's k-means with a deterministic k-means++ start: (centres, each point's cluster)."""
    rng = np.random.default_rng(0)
    k = min(k, len(np.unique(points.round(1), axis=0)))
    centres = [points[np.argmin(np.linalg.norm(points - points.mean(axis=0), axis=1))]]
    for _ in range(1, k):
        d2 = _nearest(points, np.array(centres))[1]
        centres.append(points[rng.choice(len(points), p=d2 / d2.sum())] if d2.sum() > 0 else points[0])
    c = np.array(centres, dtype=np.float64)
    which = np.zeros(len(points), dtype=np.int64)
    for _ in range(KMEANS_ROUNDS):
        which = _nearest(points, c)[0]
        counts = np.bincount(which, minlength=len(c))
        sums = np.stack([np.bincount(which, weights=points[:, j], minlength=len(c)) for j in range(3)], axis=1)
        new = np.where(counts[:, None] > 0, sums / np.maximum(counts, 1)[:, None], c)
        if np.allclose(new, c):
            break
        c = new
    return c, which


def _nearest(points: np.ndarray, centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each point's nearest centre and the squared distance to it, one centre at a time (no n x k x 3 array)."""
    best = np.full(len(points), np.inf)
    which = np.zeros(len(points), dtype=np.int64)
    for j, c in enumerate(centres):
        d2 = ((points - c) ** 2).sum(axis=1)
        closer = d2 < best
        best[closer], which[closer] = d2[closer], j
    return which, best


def _blends(centres: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Clusters that are the blend along the edge between two bigger ones: few pixels, on the line between them.

    Superpixels straddling an edge average its two sides; such a cluster
    would colour the edge cells in a third colour the picture does not have.
    """
    share = counts / max(counts.sum(), 1)
    out = np.zeros(len(centres), dtype=bool)
    for c in np.flatnonzero(share < BLEND_SHARE):
        for a in range(len(centres)):
            for b in range(a + 1, len(centres)):
                if c in (a, b) or out[a] or out[b] or min(share[a], share[b]) <= share[c]:
                    continue
                ab = centres[b] - centres[a]
                t = float(np.clip(np.dot(centres[c] - centres[a], ab) / max(np.dot(ab, ab), 1e-9), 0.0, 1.0))
                if np.linalg.norm(centres[a] + t * ab - centres[c]) < BLEND_DISTANCE:
                    out[c] = True
    return out


def _merge_close(
    centres: np.ndarray, counts: np.ndarray, background: int, limit: float, most: int
) -> tuple[np.ndarray, np.ndarray]:
    """Merge the closest pair of centres (count-weighted) until at most ``most`` are left, all ``limit`` apart.

    The background keeps its colour.
    Returns the kept centres (background first) and, per old centre, its new index.
    """
    alive = list(range(len(centres)))
    cols = centres.astype(np.float64).copy()
    weight = counts.astype(np.float64).copy()
    owner = np.arange(len(centres))
    while len(alive) > 1:
        d = delta_e(cols[alive][:, None], cols[alive][None])
        np.fill_diagonal(d, np.inf)
        i, j = np.unravel_index(np.argmin(d), d.shape)
        if d[i, j] >= limit and len(alive) <= most:
            break
        a, b = alive[i], alive[j]
        if b == background:
            a, b = b, a
        if a != background:
            cols[a] = (cols[a] * weight[a] + cols[b] * weight[b]) / max(weight[a] + weight[b], 1e-9)
        weight[a] += weight[b]
        owner[owner == b] = a
        alive.remove(b)
    order = [background] + sorted((c for c in alive if c != background), key=lambda c: -weight[c])
    index = np.zeros(len(centres), dtype=np.int64)
    for new, old in enumerate(order):
        index[owner == old] = new
    return cols[order], index


def colour_photo(frame: Frame, k: int, min_distance: float,
                 background: Optional[tuple[int, int, int]] = None) -> Colouring:
    """The colour cells of a photo with at most ``k`` colours besides the background (module docstring).

    ``background`` is the user's background colour: the cluster nearest to it
    is the background instead of the one holding most border cells. A photo
    cut out to its subject (transparent around it) is coloured by
    :func:`_colour_subject` instead.
    """
    if frame.background is None and np.any(frame.rgba[..., 3] < 128):
        return _colour_subject(frame, k, min_distance)
    smooth = _smoothed_lab(frame)
    step = max(1, int(np.ceil(np.sqrt(smooth.shape[0] * smooth.shape[1] / SAMPLE_PIXELS))))
    sample = np.ascontiguousarray(smooth[::step, ::step].reshape(-1, 3))
    centres, sample_which = _kmeans(sample, k + 1 + EXTRA_CLUSTERS)
    centres = centres[~_blends(centres, np.bincount(sample_which, minlength=len(centres)))]
    lab = cell_mean(smooth, frame.labels, frame.n_cells)
    which = _nearest(lab, centres)[0]
    border = _border_cells(frame.rows, frame.cols)
    if background is not None:
        bg = int(np.argmin(np.linalg.norm(centres - to_lab(np.array(background, dtype=np.float64)), axis=1)))
    else:
        bg = int(np.argmax(np.bincount(which[border], minlength=len(centres))))
    counts = np.bincount(which, minlength=len(centres))
    kept, _ = _merge_close(centres, counts, bg, min_distance, k + 1)
    cost = delta_e(lab[:, None], kept[None])  # cells x colours
    grid = np.argmin(cost, axis=1).reshape(frame.rows, frame.cols)
    cost = cost.reshape(frame.rows, frame.cols, -1)
    grid, changed = clean(grid, cost)
    return _finish(grid, cost, [tuple(int(round(v)) for v in from_lab(c)) for c in kept],
                   {"method": "superpixels + k-means", "clusters": len(centres), "merged": len(centres) - len(kept),
                    "cleanup_changed": changed})


PAPER_LAB = np.array([100.0, 0.0, 0.0])
"""White paper in CIELAB: a puzzle's background whatever the photo's was."""


def _colour_subject(frame: Frame, k: int, min_distance: float) -> Colouring:
    """A subject cut out of a photo in at most ``k`` flat colours on plain paper.

    The clusters come from the subject's pixels alone, so the background's
    colours take none of the ``k``; every cell the subject mostly covers
    takes a subject colour, every other cell the paper. A subject colour
    near white (a sail, a cup's rim) is darkened until it stands
    ``min_distance`` (CIEDE2000) from the paper: drawn as paper it would
    vanish from the picture.
    """
    smooth = _smoothed_lab(frame)
    opaque = frame.rgba[..., 3] >= 128
    pixels = smooth[opaque]
    step = max(1, int(np.ceil(len(pixels) / SAMPLE_PIXELS)))
    sample = np.ascontiguousarray(pixels[::step])
    centres, which = _kmeans(sample, k + EXTRA_CLUSTERS)
    centres = centres[~_blends(centres, np.bincount(which, minlength=len(centres)))]
    counts = np.bincount(_nearest(sample, centres)[0], minlength=len(centres))
    kept, _ = _merge_close(np.vstack([PAPER_LAB, centres]), np.concatenate([[0], counts]), 0, min_distance, k + 1)
    for c in range(1, len(kept)):
        while delta_e(kept[c], PAPER_LAB) < min_distance and kept[c][0] > 0:
            kept[c] = kept[c] * [0.97, 1.0, 1.0]
    inside = cell_mean(opaque.astype(np.float64), frame.labels, frame.n_cells) >= 0.5
    lab = cell_mean(smooth, frame.labels, frame.n_cells)
    cost = delta_e(lab[:, None], kept[None])
    cost[inside, 0] = np.inf  # the subject never becomes paper, nor anything else the paper
    cost[~inside, 1:] = np.inf
    grid = np.argmin(cost, axis=1).reshape(frame.rows, frame.cols)
    cost = np.minimum(cost, 1e3).reshape(frame.rows, frame.cols, -1)
    grid, changed = clean(grid, cost)
    return _finish(grid, cost, [tuple(int(round(v)) for v in from_lab(c)) for c in kept],
                   {"method": "subject superpixels + k-means", "clusters": len(centres),
                    "merged": len(centres) + 1 - len(kept), "cleanup_changed": changed})


def _finish(grid: np.ndarray, cost: np.ndarray, rgbs: list, info: dict) -> Colouring:
    """Drop unused colours (keeping the background first, then by cell count), runner-up and confidence."""
    used = [0] + sorted((c for c in range(1, len(rgbs)) if np.any(grid == c)),
                        key=lambda c: -np.count_nonzero(grid == c))
    remap = np.full(len(rgbs), -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    sub = cost[..., used]
    order = np.argsort(sub, axis=-1)
    new = remap[grid]
    runner = np.where(order[..., 0] == new, order[..., 1] if sub.shape[-1] > 1 else order[..., 0], order[..., 0])
    mine = np.take_along_axis(sub, new[..., None], -1)[..., 0]
    other = np.take_along_axis(sub, runner[..., None], -1)[..., 0]
    sure = np.clip((other - mine) / 20.0 + 0.5, 0.0, 1.0)
    return Colouring(new.astype(np.uint8), [rgbs[c] for c in used], runner.astype(np.uint8), sure, info)


def bw_photo(frame: Frame, reference: np.ndarray) -> Colouring:
    """Black-and-white cells of a photo: each tone (module docstring) cut and cleaned, inked on either side,
    the one that reads best kept (:func:`~.quality.reads`). Every score is reported.

    Both sides are tried because the border rule guesses wrong on a light
    subject in a dark frame: the smoke under a rocket at night became a slab.
    """
    candidates = [c for values, how in _tones(frame) for c in _cut(frame, values, how)]
    scored = [reads(c.grid, reference, BW_PALETTE) for c in candidates]
    best = candidates[int(np.argmax(scored))]
    best.info["scores"] = {f"{c.info['tone']}, {c.info['ink']} ink": round(v, 4)
                           for c, v in zip(candidates, scored, strict=True)}
    return best


def _cut(frame: Frame, values: np.ndarray, how: str) -> list[Colouring]:
    """One tone cut at half Otsu + half the local mean, cleaned: the side leaving the border emptier inked first,
    then the other side."""
    from scipy.ndimage import gaussian_filter  # scipy: 0.4 s to load, paid by reading a picture

    v = values.reshape(frame.rows, frame.cols)
    span = float(v.max() - v.min()) or 1.0
    scaled = (v - v.min()) * (255.0 / span)
    t_global = otsu_threshold(scaled)
    t = 0.5 * t_global + 0.5 * gaussian_filter(scaled, LOCAL_SIGMA, mode="nearest")
    low = scaled < t
    border = _border_cells(frame.rows, frame.cols).reshape(v.shape)
    dark_first = low[border].mean() <= (~low)[border].mean()
    cuts = []
    for dark in (dark_first, not dark_first):
        ink = low if dark else ~low
        margin = (scaled - t) * (50.0 / 255.0) * np.where(low == ink, 1.0, -1.0)  # > 0: leans to the paper side
        cost = np.stack([-margin / 2, margin / 2], axis=-1)
        grid, changed = clean(ink.astype(np.int64), cost)
        info = {"method": "tone cut", "tone": how, "threshold": int(t_global), "ink": "dark" if dark else "light",
                "cleanup_changed": changed}
        cuts.append(_finish(grid, cost, [(255, 255, 255), (0, 0, 0)], info))
    return cuts


def _tones(frame: Frame) -> list[tuple[np.ndarray, str]]:
    """Per cell: the position along the colours' first principal axis (CLAHE luminance instead when the
    picture is flat), and the lightness L* (a white sail on a light blue sky differs there, not on the axis)."""
    lab = cell_lab(frame)
    centred = lab - lab.mean(axis=0)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    axis = vt[0] * (1 if vt[0][0] >= 0 else -1)  # lighter is larger, like luminance
    spread = float(s[0] / np.sqrt(max(len(lab) - 1, 1)))
    lightness = (lab[:, 0], "lightness")
    if spread >= FLAT_SPREAD:
        return [(centred @ axis, "principal axis"), lightness]
    from skimage.exposure import equalize_adapthist  # loads scipy (0.4 s): paid by reading a picture

    lum = over_white(frame.rgba) @ np.array([0.299, 0.587, 0.114]) / 255.0
    return [(cell_mean(equalize_adapthist(np.clip(lum, 0, 1)), frame.labels, frame.n_cells), "CLAHE luminance"),
            lightness]
