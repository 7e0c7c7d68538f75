"""Black and white that keeps the shape: find the subject, try the ways to ink it, keep the best.

A luminance threshold alone fails two kinds of picture. On an icon with a dark
outline and light shading it keeps only the outline, which a majority vote
then breaks into scattered cells; on a bright subject against a dark sky it
fills the sky. So:

1. The **subject** is found first: opaque pixels when the picture has
   transparency, otherwise everything not connected to the border through
   colours like the border's (CIELAB distance to the border's main colours).
2. **Inkings** are made at cell level; all keep thin lines (:func:`cells.vote`)
   and lose specks.
3. Choosing. A subject cut out by transparency (an icon, a sprite) is drawn:
   the first inking with a sensible fill share wins, in this order: the
   *stencil* (strong dark parts of the subject, when they cover much of it: a
   dark ball), the *hollow* silhouette (the subject with its strong dark
   features inside carved out: a smiley's eyes, an envelope's flap), the plain
   silhouette, plain luminance. A subject found against an opaque border (a
   photo) is less sure, so there the best **score** wins: fidelity less half
   the share of one-cell blocks, with a penalty for a nearly empty or nearly
   full grid. Pixel art with transparency and pictures without a subject keep
   the luminance rule, ink on the side that leaves the border empty (the
   rocket, not the night sky). Every score is reported.

With ``fill`` the cells are ranked instead (subject first, darkest first)
and exactly that share is inked. A fixed ``threshold`` keeps the plain
luminance rule, dark is ink, for people who want exactly that.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from ..colorspace import median_cut, to_lab
from .cells import class_share, vote
from .cleanup import clean, share_cost
from .frame import Frame, cell_mean, luma, over_white
from .quality import fidelity, fill_share, likeness, speck_share

__all__ = ["Inking", "bw_cells", "subject_inkings", "subject_mask", "otsu_threshold", "halftone"]

SPECK_WEIGHT = 0.5
"""How much one-cell blocks count against fidelity when choosing an inking."""
FILL_RANGE = (0.06, 0.8)
"""Fill shares outside this range make a dull or a crowded puzzle; inkings there pay a penalty."""
CONTRAST = 60
"""Luma levels a feature must be darker than the subject's light part to count (shading is less)."""
STENCIL_SHARE = 0.4
"""When strong dark parts cover this share of the subject, they are the picture (hair, a dark ball): ink them."""
BORDER_SHARE = 0.03
INVERT_BORDER = 0.75
"""Share of the border cells an inking may fill before its other side is inked instead."""
BACKGROUND_DISTANCE = 10.0
"""CIELAB distance (after a blur of a quarter cell) within which a colour counts as one of the border's."""
"""Width of the border strip that models the background, as a share of the shorter side."""


@dataclass(frozen=True)
class Inking:
    """One way of inking the cells: the grid (rows x cols, 0/1), each cell's vote share for its value, and why."""

    grid: np.ndarray
    sure: np.ndarray
    name: str
    info: dict[str, Any] = field(default_factory=dict)


def otsu_threshold(values: np.ndarray, weights: Optional[np.ndarray] = None) -> int:
    """Otsu's threshold for 0..255 values: ``values < t`` is the dark class.

    Maximizes the between-class variance of the histogram; ties pick the
    middle of the best plateau so a two-tone picture splits halfway.

    >>> otsu_threshold(np.array([10, 10, 12, 200, 210, 220]))
    106
    """
    v = np.clip(np.asarray(values).ravel(), 0, 255).astype(np.int64)
    hist = np.bincount(v, weights=None if weights is None else np.asarray(weights).ravel(), minlength=256)[:256]
    hist = hist.astype(float)
    total = hist.sum()
    if total == 0:
        return 128
    weight0 = np.cumsum(hist)
    mean_cum = np.cumsum(hist * np.arange(256))
    weight1 = total - weight0
    with np.errstate(divide="ignore", invalid="ignore"):
        between = weight0 * weight1 * (mean_cum / weight0 - (mean_cum[-1] - mean_cum) / weight1) ** 2
    between = np.nan_to_num(between, nan=-1.0)
    best = np.flatnonzero(between >= between.max() - 1e-9 * max(between.max(), 1))
    return (int(best[0]) + int(best[-1])) // 2 + 1


# --- the subject --------------------------------------------------------------------------------


def subject_mask(frame: Frame) -> tuple[Optional[np.ndarray], str]:
    """Pixels of the subject (h x w bool) and how they were found: ``alpha``, ``border`` or ``none``.

    ``None`` when no subject stands out (it would cover almost nothing or
    almost everything): the whole picture is then judged by luminance.
    """
    rgba = frame.rgba
    if frame.background is None:
        mask = rgba[..., 3] >= 128
        return (mask, "alpha") if 0.002 < mask.mean() < 0.995 else (None, "none")
    mask = _border_subject(rgba, frame.cell_px)
    return (mask, "border") if 0.01 < mask.mean() < 0.95 else (None, "none")


def _border_subject(rgba: np.ndarray, cell_px: float) -> np.ndarray:
    """Everything not reachable from the border through pixels coloured like the border's main colours."""
    from scipy.ndimage import gaussian_filter, label  # scipy: 0.4 s to load, paid by reading a picture

    rgb = over_white(rgba)
    sigma = max(0.7, cell_px / 4)
    smooth = np.stack([gaussian_filter(rgb[..., k], sigma) for k in range(3)], axis=-1)
    lab = to_lab(smooth).astype(np.float32)
    h, w = lab.shape[:2]
    b = max(2, int(round(BORDER_SHARE * min(h, w))))
    edge = np.zeros((h, w), dtype=bool)
    edge[:b], edge[-b:], edge[:, :b], edge[:, -b:] = True, True, True, True
    side = np.zeros((h, w), dtype=np.int8)  # which side of the picture each border pixel lies on
    side[:, :b], side[:, -b:], side[:b], side[-b:] = 1, 2, 3, 4
    which, found = median_cut(np.round(smooth[edge]).clip(0, 255).astype(np.uint8), 4)
    centres = np.stack([lab[edge][which == c].mean(axis=0) for c in range(len(found))])
    centres = centres[_background_clusters(which, side[edge], len(centres))]
    dist = np.min(np.linalg.norm(lab[..., None, :] - centres[None, None].astype(np.float32), axis=-1), axis=-1)
    limit = BACKGROUND_DISTANCE
    regions, _ = label(dist < limit)
    border_regions = np.unique(np.concatenate([regions[0], regions[-1], regions[:, 0], regions[:, -1]]))
    background = np.isin(regions, border_regions[border_regions > 0])
    return ~background


def _background_clusters(which: np.ndarray, side: np.ndarray, k: int) -> np.ndarray:
    """Border colour clusters that are background: a tenth of the border or more, on two sides or more.

    A subject that touches one edge (a portrait's shoulders) is not background.
    """
    keep = np.zeros(k, dtype=bool)
    for c in range(k):
        mine = which == c
        on_sides = sum(1 for s in range(1, 5) if np.any(side == s) and np.mean(mine[side == s]) >= 0.1)
        keep[c] = mine.mean() >= 0.1 and on_sides >= 2
    if not keep.any():
        keep[np.argmax(np.bincount(which, minlength=k))] = True
    return keep


# --- inkings ---------------------------------------------------------------------------------------


def _inking(pixels: np.ndarray, frame: Frame, name: str, tidy: bool = True) -> Inking:
    """Cells from a pixel mask: with ``tidy``, thin lines kept and specks dropped; else a plain majority vote.

    Pixel art is never tidied (as in colour): its cells are the artist's, and a lone cell there is a detail
    (a crown's spike, an eye's glint), not noise; an author's own 1-pixel-a-cell drawing lost such cells in black
    and white while the same drawing in colour kept them."""
    tidy = tidy and not frame.pixel_art
    winner, _, share = vote(pixels.astype(np.int64), 2, frame, keep_lines=tidy)
    grid = winner.reshape(frame.rows, frame.cols).astype(np.uint8)
    sure = share[np.arange(share.shape[0]), winner].reshape(grid.shape)
    cleaned, changed = clean(grid, share_cost(share, frame.rows, frame.cols), smooth=False) if tidy else (grid, 0)
    return Inking(cleaned, sure, name, {"specks_removed": changed})


def _score(inking: Inking, reference: np.ndarray) -> float:
    fill = fill_share(inking.grid)
    if fill == 0:
        return -10.0
    fid = fidelity(inking.grid, reference)
    score = (0.0 if fid is None else fid) - SPECK_WEIGHT * speck_share(inking.grid)
    low, high = FILL_RANGE
    if fill < low:
        score -= 2 * (low - fill) / low
    if fill > high:
        score -= 2 * (fill - high) / (1 - high)
    return score


def _ranked(frame: Frame, subject: Optional[np.ndarray], lum: np.ndarray, share: float) -> Inking:
    """Exactly ``share`` of the cells inked: subject cells first, darkest first."""
    n = frame.n_cells
    dark = 1.0 - cell_mean(lum, frame.labels, n) / 255.0
    inside = np.ones(n) if subject is None else class_share(subject, frame)
    score = 2.0 * (inside > 0.5) + dark
    k = int(round(share * n))
    grid = np.zeros(n, dtype=np.uint8)
    grid[np.argsort(-score, kind="stable")[:k]] = 1
    sure = np.full((frame.rows, frame.cols), 0.75)
    return Inking(grid.reshape(frame.rows, frame.cols), sure, "fill")


def bw_cells(
    frame: Frame,
    reference: np.ndarray,
    threshold: Optional[int] = None,
    fill: Optional[float] = None,
    invert: bool = False,
    style: str = "auto",
) -> Inking:
    """The B&W cells of a picture (see the module docstring); ``reference`` is the grid-sized luma.

    ``style`` (``auto``, ``outline``, ``fill``) says whether a subject cut out
    by transparency is drawn as a two-cell outline plus its dark details; auto
    does so when the outline reads better (likeness less half the
    one-cell block share) than the inking chosen otherwise: light subjects,
    which every filled inking turns into a slab.
    """
    lum = luma(over_white(frame.rgba))
    if threshold is not None:
        chosen = _inking(lum < threshold, frame, "threshold", tidy=False)
        chosen.info["threshold"] = int(threshold)
        return _inverted(chosen) if invert else chosen
    subject, how = subject_mask(frame)
    if fill is not None:
        chosen = _ranked(frame, subject, lum, fill)
        chosen.info["subject"] = how
        return _inverted(chosen) if invert else chosen
    alpha_art = frame.pixel_art and frame.background is None
    outline = _outline(frame, subject, lum) if subject is not None and not alpha_art and style != "fill" else None
    if outline is not None and style == "outline":
        outline.info.update(subject=how, style="outline")
        return _inverted(outline) if invert else outline
    candidates = _candidates(frame, subject, lum, alpha_art)
    scores = {c.name: round(_score(c, reference), 4) for c in candidates}
    low, high = FILL_RANGE
    fit = [c for c in candidates if low <= fill_share(c.grid) <= high]
    if how == "alpha" and fit:  # a drawn subject: its shape first (see the module docstring)
        chosen = fit[0]
    else:
        chosen = max(candidates, key=lambda c: scores[c.name])
    if outline is not None and how == "alpha" and _reads(outline, reference) > _reads(chosen, reference):
        chosen = outline  # style auto: the outline reads better (a light page, a green bin)
    chosen.info.update(subject=how, scores=scores)
    return _inverted(chosen) if invert else chosen


def subject_inkings(frame: Frame) -> list[Inking]:
    """The drawings of a subject cut out by transparency: stencil, hollow, silhouette and outline (or none).

    A photo framed on its subject (:mod:`.subject`) offers these beside its
    tone cuts; :func:`bw_cells` draws icons from the same ones.
    """
    subject, _ = subject_mask(frame)
    if subject is None:
        return []
    lum = luma(over_white(frame.rgba))
    return _candidates(frame, subject, lum, alpha_art=False)[:-1] + [_outline(frame, subject, lum)]


def _reads(inking: Inking, reference: np.ndarray) -> float:
    """Recognisability less half the one-cell block share: how :func:`bw_cells` compares outline and fill."""
    return (likeness(inking.grid, reference) or 0.0) - SPECK_WEIGHT * speck_share(inking.grid)


def _candidates(frame: Frame, subject: Optional[np.ndarray], lum: np.ndarray, alpha_art: bool) -> list[Inking]:
    """The inkings worth scoring, the preferred one first (see :func:`bw_cells`)."""
    t = otsu_threshold(lum)
    plain = _ink_side(_inking(lum < t, frame, "luminance"), frame)
    plain.info["threshold"] = t
    if subject is None or alpha_art:
        return [plain]
    values = lum[subject]
    t = otsu_threshold(values)
    light = float(values[values >= t].mean()) if np.any(values >= t) else 255.0
    strong = subject & (lum < min(t, light - CONTRAST))
    silhouette = _inking(subject, frame, "silhouette")
    stencil = _inking(strong, frame, "stencil")  # its cells are also the features the hollow inking carves out
    inner = _interior(silhouette.grid)
    hollow = Inking((silhouette.grid & ~(stencil.grid & inner)).astype(np.uint8), silhouette.sure, "hollow")
    stencil.info["threshold"] = int(min(t, light - CONTRAST))
    share = float(strong.sum()) / max(float(subject.sum()), 1.0)
    first = [stencil, hollow] if share >= STENCIL_SHARE else [hollow, stencil]
    return first + [silhouette, plain]


OUTLINE_CELLS = 2
"""Thickness of a drawn outline: a one-cell outline is a one-cell clue block in every line that crosses it."""


def _outline(frame: Frame, subject: np.ndarray, lum: np.ndarray) -> Inking:
    """The silhouette's outer :data:`OUTLINE_CELLS` cells, plus the subject's strong dark parts inside."""
    from scipy.ndimage import binary_erosion  # scipy: 0.4 s to load, paid by reading a picture

    silhouette = _inking(subject, frame, "silhouette")
    inner = binary_erosion(silhouette.grid.astype(bool), iterations=OUTLINE_CELLS)
    values = lum[subject]
    t = otsu_threshold(values)
    light = float(values[values >= t].mean()) if np.any(values >= t) else 255.0
    details = _inking(subject & (lum < min(t, light - CONTRAST)), frame, "details")
    grid = (silhouette.grid.astype(bool) & ~inner) | (details.grid.astype(bool) & inner)
    return Inking(grid.astype(np.uint8), silhouette.sure, "outline", {"threshold": int(min(t, light - CONTRAST))})


def _interior(grid: np.ndarray) -> np.ndarray:
    """Cells of ``grid`` whose four neighbours are all set too (carving them keeps the outer shape)."""
    padded = np.pad(grid.astype(bool), 1)
    return padded[1:-1, 1:-1] & padded[:-2, 1:-1] & padded[2:, 1:-1] & padded[1:-1, :-2] & padded[1:-1, 2:]


def _ink_side(inking: Inking, frame: Frame) -> Inking:
    """Ink the other side when the inked side holds most of the border (the sky around a rocket, not the picture).

    Only a clear majority counts: ground along the bottom and the lower sides
    of a landscape is the picture's, not its background."""
    g = inking.grid
    border = np.concatenate([g[0], g[-1], g[1:-1, 0], g[1:-1, -1]])
    if border.mean() <= INVERT_BORDER:
        return inking
    return _inverted(inking, "light")


def _inverted(inking: Inking, name: Optional[str] = None) -> Inking:
    return Inking((1 - inking.grid).astype(np.uint8), inking.sure, name or inking.name,
                  dict(inking.info, inverted=True))


def halftone(reference: np.ndarray, fill: float) -> np.ndarray:
    """A black-and-white grid that renders grey levels as dot density (Floyd-Steinberg error diffusion).

    ``reference`` is the picture's luma per cell (0 black .. 255 white);
    the ink is scaled so that about ``fill`` of the cells are inked. Tones
    become textures, so the puzzle keeps the picture's shading at the cost
    of many small blocks: more lookahead for the solver, a harder puzzle.

    >>> int(halftone(np.full((4, 4), 127.0), 0.5).sum())
    8
    """
    ink = 255.0 - np.asarray(reference, dtype=float)
    mean = float(ink.mean()) or 1.0
    work = np.clip(ink * (min(max(fill, 0.01), 0.99) * 255.0 / mean), 0.0, 255.0)
    out = np.zeros(ink.shape, dtype=np.uint8)
    rows, cols = ink.shape
    for r in range(rows):
        for c in range(cols):
            on = work[r, c] >= 127.5
            out[r, c] = on
            error = work[r, c] - (255.0 if on else 0.0)
            if c + 1 < cols:
                work[r, c + 1] += error * 7 / 16
            if r + 1 < rows:
                if c > 0:
                    work[r + 1, c - 1] += error * 3 / 16
                work[r + 1, c] += error * 5 / 16
                if c + 1 < cols:
                    work[r + 1, c + 1] += error * 1 / 16
    return out
