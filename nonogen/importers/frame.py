"""Where the picture's pixels fall on the grid: aspect fitting, working resolution, cells, per-cell means.

Pure functions over numpy arrays. A :class:`Frame` is the picture as the
rest of the importer sees it: RGBA pixels at a working resolution whose
aspect matches the grid, the cell each pixel falls in, and the background.
Fitting never stretches silently: a picture whose aspect differs from the
grid's by more than one cell is padded, cropped or stretched as asked, and
the caller gets a sentence saying so.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import numpy as np
from PIL import Image, ImageColor

from ..errors import InputError

__all__ = ["Frame", "FITS", "content_box", "border_background", "background_rgb_of",
           "content_weight", "border_pixels", "pixel_art_scale",
           "fit_to_aspect", "working_pixels", "cell_labels", "cell_mean", "over_white", "luma"]

FITS = ("auto", "subject", "pad", "crop", "stretch")
"""``auto`` is ``subject`` for photos and ``pad`` for anything else; ``subject`` frames a photo on its subject
(:mod:`.subject`) and pads; the others say what happens when the grid has another aspect than the picture."""
WORK_PX_PER_CELL = 8
"""Pixels per cell side kept for the analysis (at least this, under twice this): enough to see a line a
fifth of a cell wide and to vote, few enough that a 24-megapixel photo costs what a small one does."""


@dataclass(frozen=True)
class Frame:
    """The picture laid over the grid: ``rgba`` (h x w x 4) at working size, each pixel's cell, the background.

    ``background`` is ``None`` when the picture's border is transparent (the
    paper shows through), else the border's most common colour.
    """

    rgba: np.ndarray
    labels: np.ndarray
    rows: int
    cols: int
    background: Optional[tuple[int, int, int]]
    pixel_art: bool

    @property
    def n_cells(self) -> int:
        return self.rows * self.cols

    @property
    def cell_px(self) -> float:
        """Pixels per cell side (the smaller of the two directions)."""
        return min(self.rgba.shape[0] / self.rows, self.rgba.shape[1] / self.cols)


def over_white(rgba: np.ndarray) -> np.ndarray:
    """RGB floats (0..255) of the picture composited over white paper."""
    alpha = rgba[..., 3:4].astype(np.float32) / 255.0
    return rgba[..., :3].astype(np.float32) * alpha + 255.0 * (1.0 - alpha)


def luma(rgb: np.ndarray) -> np.ndarray:
    """ITU-R 601 luma (what Pillow's ``L`` gives) of RGB floats."""
    return rgb @ np.array([0.299, 0.587, 0.114], dtype=np.float32)


def cell_labels(h: int, w: int, rows: int, cols: int) -> np.ndarray:
    """For each pixel (row-major), the index of the cell it falls in; cells split the picture evenly."""
    cy = (np.arange(h) * rows) // h
    cx = (np.arange(w) * cols) // w
    return (cy[:, None] * cols + cx[None, :]).ravel()


def cell_mean(values: np.ndarray, labels: np.ndarray, n_cells: int) -> np.ndarray:
    """Mean of per-pixel ``values`` (h x w, or h x w x k) in each cell: the BOX filter as bincounts."""
    flat = values.reshape(labels.size, -1).astype(np.float64)
    counts = np.maximum(np.bincount(labels, minlength=n_cells), 1)
    out = np.stack([np.bincount(labels, weights=flat[:, k], minlength=n_cells) / counts
                    for k in range(flat.shape[1])], 1)
    return out[:, 0] if values.ndim == 2 else out


def pixel_art_scale(rgba: np.ndarray) -> tuple[int, int]:
    """The integer factors ``(sx, sy)`` by which a picture is an exact NEAREST upscale of a smaller one.

    Every colour change along x must fall on a multiple of ``sx`` (and the
    width must be one too); same along y. ``(1, 1)`` means no upscale.

    >>> small = np.arange(6, dtype=np.uint8).reshape(2, 3, 1).repeat(4, axis=2)
    >>> pixel_art_scale(small.repeat(5, axis=0).repeat(5, axis=1))
    (5, 5)
    >>> pixel_art_scale(small)
    (1, 1)
    """
    h, w = rgba.shape[:2]
    flat = rgba.reshape(h, w, -1)
    col_change = np.flatnonzero(np.any(flat[:, 1:] != flat[:, :-1], axis=(0, 2))) + 1
    row_change = np.flatnonzero(np.any(flat[1:] != flat[:-1], axis=(1, 2))) + 1
    sx = math.gcd(w, *map(int, col_change)) if col_change.size else w
    sy = math.gcd(h, *map(int, row_change)) if row_change.size else h
    if not col_change.size and not row_change.size:
        return 1, 1
    if not col_change.size:
        sx = sy if w % sy == 0 else 1
    if not row_change.size:
        sy = sx if h % sx == 0 else 1
    return int(sx), int(sy)


def fit_to_aspect(
    rgba: np.ndarray,
    cols: int,
    rows: int,
    fit: str,
    weight: Optional[np.ndarray] = None,
    background: Optional[tuple[int, int, int]] = None,
) -> tuple[np.ndarray, Optional[str]]:
    """The picture padded or cropped to the grid's aspect (or left to stretch), and a note when it changed.

    Nothing happens when the aspect is off by less than one cell (rounding a
    side to whole cells always is). ``crop`` keeps the window holding most of
    ``weight`` (the subject), so a tall rocket in a wide photo stays in;
    ``pad`` adds margins of the ``background`` colour (transparent when it is
    ``None``), which read as background.
    """
    h, w = rgba.shape[:2]
    if abs(w * rows / h - cols) <= 1 and abs(h * cols / w - rows) <= 1:
        return rgba, None
    shape = f"{w}x{h} pixels into {cols}x{rows} cells"
    if fit == "stretch":
        return rgba, f"aspect ratio differs ({shape}): stretched"
    wide = w * rows > h * cols  # the picture is wider than the grid's aspect (else taller): decided exactly,
    # not from the rounded sides, which can both round to "fits" on one side while the other is off by a cell
    want_w, want_h = max(1, round(h * cols / rows)), max(1, round(w * rows / cols))
    if fit == "pad":
        if wide:
            pad = [(max(0, want_h - h) // 2, max(0, want_h - h) - max(0, want_h - h) // 2), (0, 0), (0, 0)]
        else:
            pad = [(0, 0), (max(0, want_w - w) // 2, max(0, want_w - w) - max(0, want_w - w) // 2), (0, 0)]
        fill = (0, 0, 0, 0) if background is None else (*background, 255)
        out = np.stack([np.pad(rgba[..., k], pad[:2], constant_values=fill[k]) for k in range(4)], axis=-1)
        return out, f"aspect ratio differs ({shape}): padded with background"
    if wide:
        want_w = min(want_w, w)
        x0 = _best_window(np.ones(w) if weight is None else weight.sum(axis=0), want_w)
        return rgba[:, x0 : x0 + want_w], f"aspect ratio differs ({shape}): cropped left/right"
    want_h = min(want_h, h)
    y0 = _best_window(np.ones(h) if weight is None else weight.sum(axis=1), want_h)
    return rgba[y0 : y0 + want_h], f"aspect ratio differs ({shape}): cropped top/bottom"


def _best_window(profile: np.ndarray, size: int) -> int:
    """Start of the ``size``-long window holding the most of ``profile`` (centred on ties)."""
    sums = np.convolve(profile.astype(np.float64), np.ones(size), mode="valid")
    best = np.flatnonzero(sums >= sums.max() - 1e-9 * max(1.0, float(sums.max())))
    return int(best[len(best) // 2])


def working_pixels(rgba: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The picture area-averaged (box filter, alpha premultiplied) to :data:`WORK_PX_PER_CELL` pixels per cell
    when it has more than half as many again, or repeated up (NEAREST) until every cell has a pixel."""
    h, w = rgba.shape[:2]
    if min(h / rows, w / cols) > 1.5 * WORK_PX_PER_CELL:
        img = Image.fromarray(np.ascontiguousarray(rgba), "RGBA").convert("RGBa")
        size = (cols * WORK_PX_PER_CELL, rows * WORK_PX_PER_CELL)
        return np.asarray(img.resize(size, Image.Resampling.BOX).convert("RGBA"), dtype=np.uint8)
    k = max(math.ceil(rows / h), math.ceil(cols / w), 1)
    return rgba if k == 1 else rgba.repeat(k, axis=0).repeat(k, axis=1)


# --- the background and the content ------------------------------------------------------------


def content_box(rgba: np.ndarray, background_rgb: Optional[tuple[int, int, int]]) -> tuple[int, int, int, int]:
    """Bounding box ``(left, top, right, bottom)`` of pixels that differ from the background."""
    if background_rgb is None:
        content = rgba[..., 3] >= 128
    else:
        diff = np.abs(rgba[..., :3].astype(np.int16) - np.array(background_rgb, dtype=np.int16)).max(axis=2)
        content = (diff > 24) & (rgba[..., 3] >= 128)
    ys, xs = np.nonzero(content)
    if not ys.size:
        raise InputError("nothing to crop: the picture has no content apart from its background")
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def border_pixels(rgba: np.ndarray) -> np.ndarray:
    return np.concatenate([rgba[0], rgba[-1], rgba[1:-1, 0], rgba[1:-1, -1]])


TRANSPARENT_SHARE = 0.1
"""Share of a picture's pixels that, transparent and reaching its border, make transparency its background even
when its subject covers most of the border: a horseshoe magnet drawn edge to edge on a transparent canvas was
taken for a black photo and drawn inverted. A photo with rounded or clipped corners is transparent only there."""


def border_background(rgba: np.ndarray) -> Optional[tuple[int, int, int]]:
    """``None`` (transparency) if most border pixels are transparent, or some are and transparency covers
    :data:`TRANSPARENT_SHARE` of the picture; else the most frequent opaque border colour."""
    border = border_pixels(rgba)
    clear = np.count_nonzero(border[:, 3] < 128)
    clear_share = np.count_nonzero(rgba[..., 3] < 128) / rgba[..., 3].size
    if clear * 2 > len(border) or (clear and clear_share >= TRANSPARENT_SHARE):
        return None
    opaque = border[border[:, 3] >= 128, :3]
    values, counts = np.unique(opaque, axis=0, return_counts=True)
    return tuple(int(v) for v in values[np.argmax(counts)])  # type: ignore[return-value]


def content_weight(rgba: np.ndarray, background_rgb: Optional[tuple[int, int, int]]) -> np.ndarray:
    """Per pixel, how much it differs from the background (for a crop that keeps the subject)."""
    if background_rgb is None:
        return rgba[..., 3].astype(np.float32) / 255.0
    diff = np.abs(rgba[..., :3].astype(np.int16) - np.array(background_rgb, dtype=np.int16)).max(axis=2)
    return (diff > 24).astype(np.float32)


def background_rgb_of(rgba: np.ndarray, background: Optional[str]) -> Optional[tuple[int, int, int]]:
    """The picture's background colour as the import takes it: ``background`` (a colour name or ``#rrggbb``; the
    option), else its border's (:func:`border_background`), ``None`` for transparency. The studio frames the
    picture under its grid with the same answer."""
    if background is None:
        return border_background(rgba)
    if background.lower() in ("transparent", "none"):
        return None
    try:
        return tuple(ImageColor.getrgb(background)[:3])  # type: ignore[return-value]
    except ValueError:
        raise InputError(f"background {background!r}: not a colour (expected a name or #rrggbb)") from None
