"""How good a puzzle picture is, in numbers a batch can be sorted by.

* ``fidelity``: luminance SSIM (scikit-image) between the picture
  area-averaged to the grid and the solution with each of its colours painted
  in the mean luminance the picture has under that colour. Painting by means
  measures where the shapes are, not which side got the ink: a night sky left
  empty around a filled rocket scores like the photo's own light-on-dark.
* ``speck_share``: share of clue blocks of length 1 (rows and columns).
  Single cells are the tedious part of solving and mostly come from noise,
  thin diagonals and ragged edges.
* ``edge_f``: F-score of the solution's edges against the picture's (Canny
  at grid scale on both, one cell of tolerance): where the outlines are.
* ``recognisability``: (fidelity + edge F) / 2. Fidelity alone punishes an
  outline drawing and inking the light side, which people read well; edges
  alone ignore tone. The mean agreed with people better than either (issue 24).
* ``fill_share``: share of cells that are not background.
* ``min_palette_distance``: CIEDE2000 of the two closest palette entries.
* ``mean_delta_e``: mean CIEDE2000 between each cell's colour in the picture
  and its palette colour (how true the colours are; black and white is far).

Every reference is the picture laid on the grid exactly as the puzzle is
(padded or cropped the same way), never stretched to it.
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from ..colorspace import delta_e, min_palette_distance, to_lab
from ..palette import Color

__all__ = ["fidelity", "speck_share", "fill_share", "edge_f", "recognisability", "mean_delta_e", "measure", "reads"]

EDGE_SIGMA = 1.0
"""Gaussian sigma (cells) of the Canny edges: at grid scale a larger one loses a 20-cell picture's features."""


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
    from skimage.metrics import structural_similarity  # loads scipy (0.4 s): paid by reading a picture

    grid = np.asarray(grid)
    reference = np.asarray(reference, dtype=np.float64)
    side = min(grid.shape)
    if side < 3:
        return None
    win = min(7, side if side % 2 else side - 1)
    return round(float(structural_similarity(reference, _painted(grid, reference), data_range=255.0, win_size=win)), 4)


def _painted(grid: np.ndarray, reference: np.ndarray) -> np.ndarray:
    painted = np.zeros_like(reference)
    for value in np.unique(grid):
        painted[grid == value] = reference[grid == value].mean()
    return painted


def _edges(values: np.ndarray) -> np.ndarray:
    from skimage.feature import canny  # loads scipy (0.4 s): paid by reading a picture

    span = float(values.max() - values.min())
    if span <= 0:
        return np.zeros(values.shape, dtype=bool)
    return canny((values - values.min()) / span, sigma=EDGE_SIGMA, low_threshold=0.05, high_threshold=0.15)


def edge_f(grid: np.ndarray, reference: np.ndarray) -> Optional[float]:
    """F-score of the solution's Canny edges against the picture's, a cell of tolerance either way.

    The solution is painted in the picture's mean luma under each colour, so
    an edge counts wherever the tone changes, whichever side got the ink.

    >>> ref = np.zeros((12, 12)); ref[3:9, 3:9] = 200
    >>> edge_f((ref > 100).astype(int), ref)
    1.0
    """
    from scipy.ndimage import binary_dilation  # scipy: 0.4 s to load, paid by reading a picture

    grid = np.asarray(grid)
    reference = np.asarray(reference, dtype=np.float64)
    if min(grid.shape) < 3:
        return None
    want, got = _edges(reference), _edges(_painted(grid, reference))
    if not want.any() and not got.any():
        return 1.0
    if not want.any() or not got.any():
        return 0.0
    near = np.ones((3, 3), dtype=bool)
    precision = float((got & binary_dilation(want, near)).sum() / got.sum())
    recall = float((want & binary_dilation(got, near)).sum() / want.sum())
    return round(float(2 * precision * recall / (precision + recall)), 4) if precision + recall else 0.0


def recognisability(grid: np.ndarray, reference: np.ndarray) -> Optional[float]:
    """(fidelity + edge F-score) / 2: the figure that agreed with people (module docstring)."""
    tone, edges = fidelity(grid, reference), edge_f(grid, reference)
    return None if tone is None or edges is None else round((tone + edges) / 2, 4)


def mean_delta_e(grid: np.ndarray, reference_rgb: np.ndarray, palette: Sequence[Color]) -> float:
    """Mean CIEDE2000 between each cell's colour in the picture (rows x cols x 3) and its palette colour."""
    colours = np.array([c.rgb_tuple for c in palette], dtype=np.float64)
    want = to_lab(np.asarray(reference_rgb, dtype=np.float64))
    got = to_lab(colours[np.asarray(grid)])
    return round(float(delta_e(want, got).mean()), 2)


def measure(grid: np.ndarray, reference: Optional[np.ndarray], palette: Sequence[Color],
            reference_rgb: Optional[np.ndarray] = None) -> dict:
    """The quality figures of one puzzle picture, as the report carries them."""
    distance = min_palette_distance(palette)
    return {
        "recognisability": None if reference is None else recognisability(grid, reference),
        "fidelity": None if reference is None else fidelity(grid, reference),
        "edge_f": None if reference is None else edge_f(grid, reference),
        "mean_delta_e": None if reference_rgb is None else mean_delta_e(grid, reference_rgb, palette),
        "min_palette_distance": None if distance == float("inf") else distance,
        "speck_share": speck_share(grid),
        "fill_share": fill_share(grid),
    }


READABLE = 0.45
"""Recognisability under which a puzzle picture is unlikely to read at a glance. Edges are found even in a
busy photo's blobs, so a grid with many specks must also keep this much tone SSIM; an outline drawing
(few specks) may not, since SSIM punishes outlines that people read well (see bench_picture_quality)."""
BLOBBY = 0.15
"""Share of one-cell blocks over which the tone SSIM must hold too."""
SPECKY = {False: 0.2, True: 0.3}
"""Share of one-cell clue blocks over which a black-and-white (False) or colour (True) puzzle is tedious and its
picture noise: four times the bench set's median of black-and-white photos, twice that of colour photos."""


def readability_warnings(grid: np.ndarray, reference: np.ndarray, colour: bool) -> list[str]:
    """Sentences for the user when the picture will not read or is mostly specks, each with what to try."""
    rows, cols = np.asarray(grid).shape
    score, tone, specks = recognisability(grid, reference), fidelity(grid, reference), speck_share(grid)
    bigger = f"a larger size (about {round(1.5 * max(rows, cols))} cells on the long side)"
    advice = f"try fewer colours or {bigger}" if colour else f"try colours (about 4) or {bigger}"
    kind = "colour" if colour else "black and white"
    if score is not None and tone is not None and (score < READABLE or (tone < READABLE and specks > BLOBBY)):
        return [f"the picture may not read in {kind} at {cols}x{rows} (recognisability {score:.2f}, "
                f"tone {tone:.2f} of 1): {advice}"]
    if specks > SPECKY[colour]:
        return [f"{specks:.0%} of the clue blocks are single cells, so the picture is noisy and tedious: {advice}"]
    return []


def reads(grid: np.ndarray, reference: Optional[np.ndarray]) -> float:
    """How well a drawing of the picture reads, to choose between drawings: recognisability less twice the
    share of one-cell blocks (specks are what makes a drawing a blob field)."""
    return (recognisability(grid, reference) or 0.0) - 2.0 * speck_share(grid)
