"""A photo's lattice carried out to its frame: a line one cell past the outermost found, drawn along the whole
side, is the grid's too.

The grid's border in a photo is fitted to the outermost strokes (:mod:`.photo`); a thick frame that runs into a
printed drop shadow is one wide dark band, no stroke, and the border is then fitted to the first line inside it:
the outermost row or column of cells is lost. Here each side of the lattice is tried one cell further out: where
the photo is as dark as a drawn line along nearly all of that side, the line is there (the frame's inner edge).
A row of clue digits a cell outside the grid is no line: digits leave gaps, and they sit between where lines would
be. A side that runs off the photo (a page photographed to its edge) is judged on the part the photo shows.
"""
from __future__ import annotations

import numpy as np

__all__ = ["extended"]

ALONG = 0.8
"""Share of a side's length that must be as dark as a drawn line for a line to be there."""
ACROSS = 0.15
"""How far, in cells, either side of where the next line would be it may lie (a bent page's cells vary)."""
MOST = 1
"""Lines added past each side at most (a thick frame hides one; a drop shadow beyond it is dark all along too)."""


def _darkest(flat: np.ndarray, ends: np.ndarray, step: np.ndarray) -> np.ndarray:
    """Along the polyline ``ends`` (N x 2, x y), every pixel: the darkest value within ``step`` (the offset to the
    next line, x y) times :data:`ACROSS` either side; NaN where the line is off the photo."""
    import cv2

    points = []
    for a, b, s in zip(ends, ends[1:], step, strict=False):
        n = max(2, int(np.linalg.norm(b - a)))
        t = np.linspace(0, 1, n, endpoint=False)[:, None]
        offsets = np.linspace(-ACROSS, ACROSS, 7)[:, None, None] * s
        points.append((a + (b - a) * t)[None] + offsets)
    grid = np.concatenate(points, axis=1).astype(np.float32)
    values = cv2.remap(np.asarray(flat, np.float32), grid[..., 0], grid[..., 1], cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_CONSTANT, borderValue=255.0).min(axis=0)
    h, w = flat.shape
    centre = grid[len(grid) // 2]
    values[(centre[:, 0] < 0) | (centre[:, 0] > w - 1) | (centre[:, 1] < 0) | (centre[:, 1] > h - 1)] = np.nan
    inner = slice(int(0.05 * len(values)), max(int(0.95 * len(values)), 1))
    return values[inner]


def _share(values: np.ndarray, level: float) -> float:
    """The share of ``values`` the photo shows that are under ``level``; 0 when it shows under half of them."""
    shown = values[~np.isnan(values)]
    return float(np.mean(shown < level)) if len(shown) >= 0.5 * max(len(values), 1) else 0.0


def _is_line(flat: np.ndarray, last: np.ndarray, before: np.ndarray) -> bool:
    """Whether a line runs one cell past ``last`` (crossings of the outermost line; ``before``: the one inside)."""
    step = last - before
    drawn = _darkest(flat, last, step)
    beyond = _darkest(flat, last + step, step)
    if not len(drawn) or not len(beyond):
        return False
    if np.isnan(drawn).all():
        return False
    level = (float(np.nanmedian(drawn)) + 255.0) / 2
    if _share(drawn, level) < ALONG:
        return False
    between = _darkest(flat, last + step / 2, step)  # the cells' middle: paper, or digits with gaps between
    return _share(beyond, level) >= ALONG and _share(between, level) < 0.5


def extended(flat: np.ndarray, crossings: np.ndarray) -> np.ndarray:
    """``crossings`` (rows+1, cols+1, 2, photo pixels x y) with a row or column of crossings added past each side
    where a line is drawn one cell further out (:func:`_is_line`), at most :data:`MOST` a side."""
    out = crossings
    for _ in range(2):  # the rows' sides, then the columns' (on the array turned)
        for at_end in (False, True):
            for _ in range(MOST):
                last, before = (out[-1], out[-2]) if at_end else (out[0], out[1])
                if not _is_line(flat, last, before):
                    break
                new = (2 * last - before)[None]
                out = np.concatenate([out, new] if at_end else [new, out], axis=0)
        out = out.transpose(1, 0, 2)
    return out
