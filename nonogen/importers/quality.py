"""How good a puzzle picture is, in numbers a batch can be sorted by.

* ``fidelity``: luminance SSIM (scikit-image) between the picture
  area-averaged to the grid and the solution with each of its colours painted
  in the mean luminance the picture has under that colour. Painting by means
  measures where the shapes are, not which side got the ink: a night sky left
  empty around a filled rocket scores like the photo's own light-on-dark.
* ``speck_share``: share of clue blocks of length 1 (rows and columns).
  Single cells are the tedious part of solving and mostly come from noise,
  thin diagonals and ragged edges.
* ``fill_share``: share of cells that are not background.
* ``min_palette_distance``: CIEDE2000 of the two closest palette entries.
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from ..palette import Color, min_palette_distance

__all__ = ["fidelity", "speck_share", "fill_share", "measure"]


def _runs(lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lengths and values of the maximal same-value runs of every row of ``lines`` (background included)."""
    n, m = lines.shape
    change = np.ones((n, m), dtype=bool)
    change[:, 1:] = lines[:, 1:] != lines[:, :-1]
    starts = np.flatnonzero(change.ravel())
    ends = np.append(starts[1:], n * m)
    # a run never crosses a row end because every row starts with a change
    return ends - starts, lines.ravel()[starts]


def speck_share(grid: np.ndarray) -> float:
    """Share of clue blocks (rows and columns) that are one cell long; 0 for an empty grid.

    >>> speck_share(np.array([[1, 1, 0], [0, 0, 1]]))
    0.8
    """
    grid = np.asarray(grid)
    total = specks = 0
    for lines in (grid, grid.T):
        lengths, values = _runs(lines)
        blocks = lengths[values != 0]
        total += blocks.size
        specks += int(np.count_nonzero(blocks == 1))
    return round(specks / total, 4) if total else 0.0


def fill_share(grid: np.ndarray) -> float:
    """Share of cells that are not background."""
    grid = np.asarray(grid)
    return round(float(np.count_nonzero(grid)) / grid.size, 4) if grid.size else 0.0


def fidelity(grid: np.ndarray, reference: np.ndarray) -> Optional[float]:
    """Luminance SSIM of the solution (each colour painted in the picture's mean under it) against ``reference``.

    ``reference`` is the picture's luma (0..255) area-averaged to the grid.
    ``None`` when the grid is too small for a 3x3 window.

    >>> ref = np.zeros((8, 8)); ref[2:6, 2:6] = 200
    >>> fidelity((ref > 100).astype(int), ref)
    1.0
    """
    from skimage.metrics import structural_similarity

    grid = np.asarray(grid)
    reference = np.asarray(reference, dtype=np.float64)
    side = min(grid.shape)
    if side < 3:
        return None
    painted = np.zeros_like(reference)
    for value in np.unique(grid):
        where = grid == value
        painted[where] = reference[where].mean()
    win = min(7, side if side % 2 else side - 1)
    return round(float(structural_similarity(reference, painted, data_range=255.0, win_size=win)), 4)


def measure(grid: np.ndarray, reference: Optional[np.ndarray], palette: Sequence[Color]) -> dict:
    """The quality figures of one puzzle picture, as the report carries them."""
    distance = min_palette_distance(palette)
    return {
        "fidelity": None if reference is None else fidelity(grid, reference),
        "min_palette_distance": None if distance == float("inf") else distance,
        "speck_share": speck_share(grid),
        "fill_share": fill_share(grid),
    }
