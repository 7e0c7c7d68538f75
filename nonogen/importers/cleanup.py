"""Grid-scale cleanup shared by every pipeline that is not exact pixel art: fewer specks, the same picture.

A puzzle's tedium is its one-cell clue blocks; most come from noise, ragged
edges and thin diagonals that a person does not see in the picture anyway.
Three passes, each cheap and each measured on photos and icons (issue 24):

1. :func:`majority`: a cell takes the value of its 3x3 block only when at
   least :data:`AGREE` of the nine cells agree on it, so edges and corners stay
   where they are and only isolated noise changes.
2. :func:`drop_small`: parts (8-connected, so a diagonal line is one part) and
   enclosed holes (4-connected) of fewer than :data:`MIN_PART` cells take the
   colour around them. Background touching the
   grid's edge is never a hole.
3. :func:`despeckle`: a cell that is a one-long block in its row *and* its
   column is either removed (it takes its cheapest neighbour's value) or grown
   into the neighbour that costs least, whichever costs less.
4. :func:`thicken` (photos): a cell that is a one-long block in its row *or*
   its column (a thin line, a stair step of a diagonal edge) is grown into a
   neighbour or removed when that leaves fewer one-long blocks in the lines it
   touches and fits the picture within :data:`THICKEN_TOLERANCE`; growing is
   preferred, so a mast or a tree's trunk becomes two cells wide, not lost.

Costs come from ``cost`` (rows x cols x classes): how badly a class fits a
cell, in CIEDE2000-like units (distance to the cell's own colour; lightness
margin; vote share scaled by :data:`SHARE_SCALE`). The first two passes change
a cell only when its new value costs at most :data:`TOLERANCE` more than its
own: noise goes, an eye or a dark window that stands out from what surrounds
it stays.
"""
from __future__ import annotations

from typing import Optional

import numpy as np
from scipy.ndimage import binary_dilation, label

from .quality import value_runs

__all__ = ["AGREE", "MIN_PART", "TOLERANCE", "THICKEN_TOLERANCE", "clean", "majority", "drop_small", "despeckle",
           "thicken", "share_cost"]

AGREE = 6
"""Cells of a 3x3 block that must agree before the middle cell changes to their value."""
MIN_PART = 3
"""Parts and enclosed holes smaller than this many cells are noise."""
TOLERANCE = 20.0
"""How much worse (CIEDE2000-like units) a cell's new value may fit it for majority and small-part removal."""
THICKEN_TOLERANCE = TOLERANCE
"""How much worse a cell may fit its new value when :func:`thicken` changes it: the other passes' tolerance.
On the 13 blind-batch photos in colour, one-cell blocks fell from 0.24 to 0.11 (median, default size; 0.06 at 30
wide); 12 left 0.13, 25 began to merge a mast into its sail."""
SHARE_SCALE = 25.0
"""Vote shares become costs as (1 - share) * this: a cell 90 % one colour is not changed by its neighbours."""
_FOUR = ((-1, 0), (1, 0), (0, -1), (0, 1))
_EIGHT = np.ones((3, 3), dtype=bool)


def share_cost(share: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """A cost table (rows x cols x classes) from vote shares (cells x classes), see :data:`SHARE_SCALE`."""
    return (SHARE_SCALE * (1.0 - np.asarray(share, dtype=np.float64))).reshape(rows, cols, -1)


def clean(grid: np.ndarray, cost: np.ndarray, smooth: bool = True) -> tuple[np.ndarray, int]:
    """The three passes in order (see the module docstring); returns the grid and how many cells changed.

    ``smooth=False`` skips the majority pass: drawn pictures (icons) carry
    their shape in one-cell lines that a 3x3 majority erases.
    """
    out = majority(grid, _stubborn(grid, cost)) if smooth else grid
    out = drop_small(out, _stubborn(out, cost))
    out = despeckle(out, cost)
    if smooth:
        out = thicken(out, cost)
    return out, int(np.count_nonzero(out != grid))


def _stubborn(grid: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """Per cell and value (values x rows x cols): True where that value fits the cell much worse than its own."""
    own = np.take_along_axis(cost, grid[..., None].astype(np.int64), -1)
    return np.moveaxis(cost - own > TOLERANCE, -1, 0)


def _neighbourhood(grid: np.ndarray, pad: int) -> np.ndarray:
    """The 3x3 block of every cell as a (9, rows, cols) stack; cells outside the grid read ``pad``."""
    rows, cols = grid.shape
    p = np.pad(grid.astype(np.int64), 1, constant_values=pad)
    return np.stack([p[1 + dr : rows + 1 + dr, 1 + dc : cols + 1 + dc] for dr in (-1, 0, 1) for dc in (-1, 0, 1)])


def majority(grid: np.ndarray, refuse: Optional[np.ndarray] = None, agree: int = AGREE) -> np.ndarray:
    """Each cell takes the value that at least ``agree`` cells of its 3x3 block hold (itself included).

    ``refuse`` (values x rows x cols) marks values a cell must not take.

    >>> g = np.zeros((5, 5), dtype=np.uint8); g[2, 2] = 1
    >>> int(majority(g).sum())
    0
    """
    block = _neighbourhood(grid, -1)
    out = grid.copy()
    for value in np.unique(grid):
        wins = (np.count_nonzero(block == value, axis=0) >= agree) & (grid != value)
        if refuse is not None:
            wins &= ~refuse[value]
        out[wins] = value
    return out


def drop_small(grid: np.ndarray, refuse: Optional[np.ndarray] = None, min_part: int = MIN_PART) -> np.ndarray:
    """Parts and enclosed holes under ``min_part`` cells take the most common colour around them.

    ``refuse`` (values x rows x cols) marks values a cell must not take: a
    part any of whose cells refuses the new colour stays.

    >>> g = np.ones((5, 5), dtype=np.uint8); g[2, 2] = 0
    >>> int(drop_small(g).sum())
    25
    """
    out = grid.copy()
    for value in np.unique(grid):
        parts, n = label(grid == value, _EIGHT if value else None)  # a diagonal line is one part, not specks
        if not n:
            continue
        sizes = np.bincount(parts.ravel())
        for part in np.flatnonzero(sizes[1:] < min_part) + 1:
            where = parts == part
            if value == 0 and (where[0].any() or where[-1].any() or where[:, 0].any() or where[:, -1].any()):
                continue  # background open to the edge: not a hole
            around = out[binary_dilation(where) & ~where]
            if not around.size:
                continue
            new = int(np.bincount(around.astype(np.int64)).argmax())
            if refuse is None or not refuse[new][where].any():
                out[where] = new
    return out


def _lone(grid: np.ndarray) -> np.ndarray:
    """Foreground cells that are a one-long block in both their row and their column."""
    p = np.pad(grid.astype(np.int64), 1, constant_values=-1)
    g = p[1:-1, 1:-1]
    alone = g > 0
    for dr, dc in _FOUR:
        alone &= p[1 + dr : p.shape[0] - 1 + dr, 1 + dc : p.shape[1] - 1 + dc] != g
    return alone


def despeckle(grid: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """Remove or grow every cell that is a one-long block both ways, whichever fits the picture better.

    ``cost`` is rows x cols x classes. Removing gives the cell the cheapest
    value among its four neighbours'; growing paints the cheapest neighbour in
    the cell's value. Cells are handled one at a time, so a change is seen by
    the next.

    >>> g = np.zeros((3, 5), dtype=np.uint8); g[1, 2] = 1
    >>> cost = np.zeros((3, 5, 2)); cost[..., 1] = 1.0; cost[1, 2] = (0.9, 0.1)
    >>> int(despeckle(g, cost).sum())
    0
    """
    out = grid.copy()
    rows, cols = grid.shape
    for r, c in zip(*np.nonzero(_lone(grid)), strict=True):
        if not _is_lone(out, r, c):
            continue
        mine = int(out[r, c])
        best: tuple[float, tuple[int, int], int] = (np.inf, (r, c), mine)
        for dr, dc in _FOUR:
            rr, cc = r + dr, c + dc
            if not (0 <= rr < rows and 0 <= cc < cols):
                continue
            other = int(out[rr, cc])
            remove = cost[r, c, other] - cost[r, c, mine]
            if remove < best[0]:
                best = (remove, (r, c), other)
            grow = cost[rr, cc, mine] - cost[rr, cc, other]
            if grow < best[0]:
                best = (grow, (rr, cc), mine)
        (tr, tc), value = best[1], best[2]
        out[tr, tc] = value
    return out


def _is_lone(grid: np.ndarray, r: int, c: int) -> bool:
    v = grid[r, c]
    if v == 0:
        return False
    rows, cols = grid.shape
    return all(not (0 <= r + dr < rows and 0 <= c + dc < cols) or grid[r + dr, c + dc] != v for dr, dc in _FOUR)


def _specks(line: np.ndarray) -> int:
    """One-long blocks of a value other than the background (0) in a line."""
    lengths, values = value_runs(line[None, :])
    return int(np.count_nonzero((lengths == 1) & (values != 0)))


def thicken(grid: np.ndarray, cost: np.ndarray, tolerance: float = THICKEN_TOLERANCE) -> np.ndarray:
    """Grow or remove thin runs, along rows and then along columns, when that leaves fewer one-long blocks in
    the lines they touch and every changed cell fits at most ``tolerance`` worse.

    A thin run is a stretch of cells of one value, one above the other, each
    a one-long block in its row (a vertical mast is one). Four changes are
    tried on the whole run: its cells take their left or right values, or it
    paints its left or right neighbours in its value. The one removing most
    one-long blocks wins; growing before removing, then the cheaper.

    >>> g = np.zeros((4, 5), dtype=np.int64); g[:, 2] = 1            # a one-cell-wide mast
    >>> cost = np.zeros((4, 5, 2)); cost[:, 2, 0] = 5.0; cost[:, 2, 1] = 0.0
    >>> thicken(g, cost)[0].tolist()                                    # two cells wide: no row has a speck
    [0, 1, 1, 0, 0]
    """
    out = grid.copy()
    for lines, costs in ((out, cost), (out.T, cost.transpose(1, 0, 2))):  # views: a change is seen by the next
        for c, top, bottom in _thin_runs(lines):
            _thicken_run(lines, costs, c, top, bottom, tolerance)
    return out


def _thin_runs(lines: np.ndarray) -> list[tuple[int, int, int]]:
    """(column, first row, last row + 1) of every stretch of one value whose cells are one-long in their rows."""
    p = np.pad(lines.astype(np.int64), ((0, 0), (1, 1)), constant_values=-1)
    g = p[:, 1:-1]
    thin = (g > 0) & (p[:, :-2] != g) & (p[:, 2:] != g)
    runs = []
    for c in range(lines.shape[1]):
        r = 0
        while r < lines.shape[0]:
            if not thin[r, c]:
                r += 1
                continue
            end = r + 1
            while end < lines.shape[0] and thin[end, c] and lines[end, c] == lines[r, c]:
                end += 1
            runs.append((c, r, end))
            r = end
    return runs


def _thicken_run(lines: np.ndarray, costs: np.ndarray, c: int, top: int, bottom: int, tolerance: float) -> None:
    width = lines.shape[1]
    rows = np.arange(top, bottom)
    value = lines[top, c]
    if np.any(lines[rows, c] != value):
        return  # an earlier change reached it
    best: Optional[tuple] = None
    for target, new in ((c, lines[rows, c - 1] if c > 0 else None), (c, lines[rows, c + 1] if c + 1 < width else None),
                        (c - 1, np.full(len(rows), value)), (c + 1, np.full(len(rows), value))):
        if new is None or not 0 <= target < width:
            continue
        old = lines[rows, target].copy()
        extra = costs[rows, target, new] - costs[rows, target, old]
        if np.any(extra > tolerance) or np.array_equal(old, new):
            continue
        before = _run_specks(lines, rows, target)
        lines[rows, target] = new
        gain = before - _run_specks(lines, rows, target)
        lines[rows, target] = old
        key = (gain, bool(np.all(new == value)), -float(extra.sum()))
        if gain > 0 and (best is None or key > best[0]):
            best = (key, target, new)
    if best is not None:
        lines[rows, best[1]] = best[2]


def _run_specks(lines: np.ndarray, rows: np.ndarray, column: int) -> int:
    """One-long blocks in the given rows and in one column: what a change to those cells can alter."""
    return sum(_specks(lines[r]) for r in rows) + _specks(lines[:, column])
