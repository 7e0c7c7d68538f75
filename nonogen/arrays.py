"""The numpy arrays users get for 2D grids: the one door from the numpy-free 2D core to numpy.

The model, the readers and the 2D engine keep grids as rows of bytes
(:mod:`nonogen.grids`), so verifying never loads numpy; a user reading a
grid (``puzzle.goal``, ``result.solution``) gets an array made here.
"""
from __future__ import annotations

import numpy as np

__all__ = ["array_of"]


def array_of(cells: bytes, shape: tuple[int, int], writable: bool = False) -> np.ndarray:
    """Row-major ``uint8`` cells as a ``shape`` array, read-only (a view of ``cells``) unless ``writable``.

    >>> array_of(b"\\x00\\x01\\x02\\x00", (2, 2)).tolist()
    [[0, 1], [2, 0]]
    """
    array = np.frombuffer(cells, dtype=np.uint8).reshape(shape)
    return array.copy() if writable else array
