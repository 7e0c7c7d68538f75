"""A photo's grid redrawn flat: a smooth map from the grid's cells to the photo's pixels, fitted to the grid's
crossings and carried out past the grid over the clue margins, through which the page is drawn anew upright.

The map is a homography fitted to every crossing (perspective), a cubic correction of what it leaves (a page
bent towards a book's spine), and what the cubic leaves in turn, taken straight between the crossings (a page
curling sharply); past the grid, over the clues, where no line is drawn, the correction goes on straight from the
grid's edge.

Where a page curls sharply at a corner the map still misses the edge's last crossings; before the canvas is read,
its clue margins are moved to follow the grid's top and left lines as drawn (:func:`edges_followed`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from .lattice import Grid

__all__ = ["Flat", "redraw", "edges_followed"]

SHARP = 0.1
"""Share of a cell the cubic must miss a crossing by before what it leaves is followed between the crossings: less
is the crossings' own noise, which the cubic smooths out."""


@dataclass(frozen=True)
class Flat:
    """One grid of a photo redrawn flat: the grey canvas (0 ink .. 255 paper) and the grid's lines in it."""

    gray: np.ndarray
    grid: Grid
    photo_pitch: float  # the grid's mean cell side in the photo, pixels
    frame: Optional[tuple[float, float, float, float]] = None
    """Left, top, right, bottom of the lattice found, when it holds the clue cells too (a magazine's layout):
    nothing outside it is a clue."""


def _terms(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The polynomial terms of the map's smooth correction (degree 3 in the grid's normalised coordinates)."""
    return np.stack([np.ones_like(u), u, v, u * u, u * v, v * v, u ** 3, u * u * v, u * v * v, v ** 3], axis=-1)


class _Map:
    """From the grid's cells (u across, v down; crossings at whole numbers) to the photo's pixels: a homography
    fitted to every crossing, and a cubic correction of what it leaves (a bent page)."""

    def __init__(self, crossings: np.ndarray) -> None:
        import cv2

        rows, cols = crossings.shape[:2]
        v, u = np.mgrid[0:rows, 0:cols].astype(np.float64)
        self.scale = (max(cols - 1, 1), max(rows - 1, 1))
        ideal = np.stack([u.ravel(), v.ravel()], axis=1)
        seen = crossings.reshape(-1, 2)
        self.homography, _ = cv2.findHomography(ideal, seen, 0)
        rest = seen - self._projected(ideal[:, 0], ideal[:, 1])
        terms = _terms(ideal[:, 0] / self.scale[0], ideal[:, 1] / self.scale[1])
        self.correction = np.linalg.lstsq(terms, rest, rcond=None)[0]
        leftover = (rest - terms @ self.correction).reshape(rows, cols, 2)
        pitch = float(np.median(np.linalg.norm(np.diff(crossings, axis=1), axis=2))) if cols > 1 else 0.0
        self.leftover = leftover if np.abs(leftover).max() > SHARP * pitch else np.zeros_like(leftover)

    def _projected(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        h = self.homography
        w = h[2, 0] * u + h[2, 1] * v + h[2, 2]
        return np.stack([(h[0, 0] * u + h[0, 1] * v + h[0, 2]) / w, (h[1, 0] * u + h[1, 1] * v + h[1, 2]) / w], -1)

    def __call__(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Photo pixels of cell coordinates; past the grid the correction goes on as a straight line from the grid's
        edge (a cubic's own way there swings: clue rows drifted half a cell at a 38-wide grid's far left)."""
        a, b = u / self.scale[0], v / self.scale[1]
        ca, cb = np.clip(a, 0, 1), np.clip(b, 0, 1)
        edge = _terms(ca, cb) @ self.correction
        step = 1e-3
        along = (_terms(ca + step, cb) - _terms(ca - step, cb)) @ self.correction / (2 * step)
        down = (_terms(ca, cb + step) - _terms(ca, cb - step)) @ self.correction / (2 * step)
        return (self._projected(u, v) + edge + along * (a - ca)[..., None] + down * (b - cb)[..., None]
                + self._between(ca * self.scale[0], cb * self.scale[1]))

    def _between(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """What the cubic leaves at the crossings, straight between them (a page curls into the spine more
        sharply than a cubic bends: the lines drawn near it ran through the cells); past the grid, the edge's."""
        from scipy.ndimage import map_coordinates

        at = np.stack([v.ravel(), u.ravel()])
        out = [map_coordinates(self.leftover[..., k], at, order=1, mode="nearest") for k in (0, 1)]
        return np.stack(out, axis=-1).reshape(u.shape + (2,))


def _margin(mapping: _Map, shape: tuple[int, int], cells: int, towards: tuple[int, int], most: int) -> int:
    """How many cells the page reaches past the grid's left (``towards`` (-1, 0)) or top ((0, -1)) edge, at most
    ``most``: as far as the photo goes along the edge's middle."""
    h, w = shape
    mid = cells / 2
    for k in range(1, most + 1):
        u, v = (-k, mid) if towards[0] else (mid, -k)
        x, y = mapping(np.array([u], float), np.array([v], float))[0]
        if not (0 <= x < w and 0 <= y < h):
            return k - 1
    return most


def redraw(flat: np.ndarray, crossings: np.ndarray) -> Flat:
    """The grid and its clue margins drawn anew upright through the fitted map; the grid's lines in the canvas."""
    import cv2

    rows, cols = crossings.shape[0] - 1, crossings.shape[1] - 1
    mapping = _Map(crossings)
    across = np.linalg.norm(np.diff(crossings, axis=1), axis=2).mean()
    down = np.linalg.norm(np.diff(crossings, axis=0), axis=2).mean()
    photo_pitch = float((across + down) / 2)
    pitch = int(np.clip(round(photo_pitch), 32, 48))
    left = _margin(mapping, flat.shape, rows, (-1, 0), int(0.7 * cols) + 4)
    top = _margin(mapping, flat.shape, cols, (0, -1), int(0.7 * rows) + 4)
    width, height = (left + cols + 1) * pitch, (top + rows + 1) * pitch
    step = 4
    gy, gx = np.mgrid[0:height + step:step, 0:width + step:step].astype(np.float64)
    seen = mapping(gx.ravel() / pitch - left, gy.ravel() / pitch - top).reshape(gx.shape + (2,)).astype(np.float32)
    # the map between its samples, every ``step`` pixels: a resize would put sample k at pixel step * k + 1.5 (it
    # aligns pixel centres), and drew the page a pixel and a half right of and below the grid it declares
    scaling = np.array([[step, 0, 0], [0, step, 0]], np.float32)
    full = cv2.warpAffine(seen, scaling, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    canvas = cv2.remap(flat, full[..., 0], full[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                       borderValue=255)
    xs = tuple(float((left + j) * pitch) for j in range(cols + 1))
    ys = tuple(float((top + k) * pitch) for k in range(rows + 1))
    return Flat(np.clip(canvas, 0, 255).astype(np.uint8), Grid(xs, ys), photo_pitch)


EDGE_REACH = 0.6
"""How far, in cells, from where the grid's top and left lines should be on the canvas they are looked for
(:func:`edges_followed`)."""
EDGE_LEAST = 0.1
"""Share of a cell an edge must stray by somewhere before the margin is moved to follow it: less is the drawing's
own noise."""


def _drawn_edge(gray: np.ndarray, lines: tuple[float, ...], edge: float, pitch: float) -> np.ndarray:
    """For each cell along a grid's edge (``lines`` across it, the edge at ``edge`` along the rows of ``gray``), how
    far below ``edge`` its line is drawn: the darkest row within :data:`EDGE_REACH` cells, when where it should be
    is not dark already. Smoothed over three cells: a digit's bar close to the line may be one cell's darkest."""
    lo, hi = max(0, int(edge - EDGE_REACH * pitch)), min(gray.shape[0], int(edge + EDGE_REACH * pitch) + 1)
    at = int(round(edge)) - lo
    offsets = []
    for a, b in zip(lines, lines[1:], strict=False):
        profile = gray[lo:hi, int(a + 0.2 * pitch):int(b - 0.2 * pitch)].mean(axis=1)
        darkest, paper = float(profile.min()), float(np.percentile(profile, 90))
        there = float(profile[max(0, at - 1):at + 2].min())
        offsets.append(0.0 if there <= (darkest + paper) / 2 else float(lo + int(np.argmin(profile)) - edge))
    if not offsets:
        return np.zeros(0)
    padded = np.pad(np.asarray(offsets), 1, mode="edge")
    return np.median(np.stack([padded[:-2], padded[1:-1], padded[2:]]), axis=0)


def edges_followed(flat: Flat) -> Flat:
    """The canvas with its clue margins moved to follow the grid's top and left lines as they are drawn: where a
    page curls sharply at a corner, the map misses the edge's last crossings, and the line there bows half a cell
    into the grid (a simulated photo's last column: the clue number nearest the grid fell inside it and was lost).
    The margins move cell by cell along the edge, fading out over the grid's first cell."""
    import cv2

    gray, grid, pitch = flat.gray.astype(np.float32), flat.grid, flat.grid.pitch
    top = _drawn_edge(gray, grid.xs, grid.ys[0], pitch)
    left = _drawn_edge(gray.T, grid.ys, grid.xs[0], pitch)
    if max(np.abs(top).max(initial=0), np.abs(left).max(initial=0)) < EDGE_LEAST * pitch:
        return flat
    h, w = gray.shape
    x, y = np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32)
    down = np.interp(x, (np.asarray(grid.xs[:-1]) + grid.xs[1:]) / 2, top)
    across = np.interp(y, (np.asarray(grid.ys[:-1]) + grid.ys[1:]) / 2, left)
    fade_y = np.clip((grid.ys[0] + pitch - y) / (0.5 * pitch), 0, 1)
    fade_x = np.clip((grid.xs[0] + pitch - x) / (0.5 * pitch), 0, 1)
    map_x = (x[None, :] + across[:, None] * fade_x[None, :]).astype(np.float32)
    map_y = (y[:, None] + down[None, :] * fade_y[:, None]).astype(np.float32)
    moved = cv2.remap(flat.gray, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return Flat(moved, grid, flat.photo_pitch, flat.frame)
