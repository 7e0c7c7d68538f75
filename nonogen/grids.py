"""2D grids of colour indices without numpy: rows of bytes inside, numpy arrays for the user.

Verifying a small puzzle file takes a few milliseconds, and importing numpy
takes 0.1 s, so the model, the readers and the engine keep a 2D grid as a
tuple of ``bytes`` rows, one colour index per byte (a palette has at most
255 colours). Users get numpy arrays as ever: a :class:`GridField` turns the
rows into an array the first time its attribute is read, and only then is
numpy imported (by :mod:`nonogen.arrays`, the 2D core's one door to it). Code
on the verify path reads the rows with :func:`rows_in`.
"""
from __future__ import annotations

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Optional, Union
    import numpy as np

__all__ = ["Rows", "GridField", "rows_of", "rows_in", "to_array", "flat", "split_rows", "shape_of"]

Rows = tuple[bytes, ...]
"""A grid as its rows, top to bottom, each ``bytes`` of colour indices left to right."""


_RANGE = "grid values must be colour indices from 0 to 255"


_BYTES = {bytes}


def _is_rows(value: object) -> bool:
    return type(value) is tuple and set(map(type, value)) <= _BYTES  # every row bytes, at C speed


def rows_of(grid: Any) -> Rows:
    """Any 2D grid (rows of bytes, a numpy array, nested sequences of ints) as :data:`Rows`.

    Raises ``ValueError`` for a grid that is not 2D or holds a value outside 0-255.

    >>> rows_of([[0, 1], [2, 0]])
    (b'\\x00\\x01', b'\\x02\\x00')
    """
    if _is_rows(grid):
        return grid
    if hasattr(grid, "__array__"):  # a numpy array: its own methods, no Python loop over the cells
        array = grid.__array__()
        if array.ndim != 2:
            raise ValueError(f"a 2D grid is needed, got {array.ndim} dimensions")
        if array.size and (array.min() < 0 or array.max() > 255):
            raise ValueError(_RANGE)
        return tuple(row.tobytes() for row in array.astype("uint8"))
    try:
        rows = tuple(bytes(int(v) for v in row) for row in grid)
    except ValueError:  # bytes() refuses values outside 0-255
        raise ValueError(_RANGE) from None
    if rows and any(len(row) != len(rows[0]) for row in rows):
        raise ValueError("a 2D grid is needed: its rows differ in length")
    return rows


def split_rows(cells: Union[bytes, bytearray], width: int) -> Rows:
    """Row-major cells (cell ``r * width + c``) as :data:`Rows`: the inverse of :func:`flat`.

    >>> split_rows(b"\\x00\\x01\\x02\\x00", 2)
    (b'\\x00\\x01', b'\\x02\\x00')
    """
    cells = bytes(cells)
    ends = range(width, len(cells) + width, width)  # the rows as slices, cut at C speed
    return tuple(map(cells.__getitem__, map(slice, range(0, len(cells), width), ends)))


def shape_of(rows: Rows) -> tuple[int, int]:
    """``(height, width)`` of a grid's rows."""
    return len(rows), len(rows[0]) if rows else 0


def flat(grid: Any) -> bytes:
    """The cells of a 2D grid in row-major order (cell ``r * width + c``); ``bytes`` are taken as flat already."""
    if isinstance(grid, (bytes, bytearray)):
        return bytes(grid)
    return b"".join(rows_of(grid))


def to_array(rows: Rows, writable: bool = False) -> "np.ndarray":
    """The rows as a ``height x width`` numpy ``uint8`` array (read-only unless ``writable``)."""
    from .arrays import array_of  # numpy: loaded when a user reads a grid as an array, never to verify

    return array_of(b"".join(rows), shape_of(rows), writable)


_SLOT = "_grid_"


class GridField:
    """An attribute holding a 2D grid: set as rows or an array, read as a numpy array.

    The value is stored as it is given; the first read of a value given as
    rows builds the array once (writable when ``writable``, as the engine's
    results always were) and keeps it.
    """

    def __init__(self, writable: bool = False):
        self.writable = writable
        self.slot = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = _SLOT + name

    def __get__(self, obj: Any, owner: Optional[type] = None) -> Any:
        if obj is None:
            return None  # read on the class
        value = obj.__dict__.get(self.slot)
        if value is not None and _is_rows(value):
            value = to_array(value, self.writable)
            obj.__dict__[self.slot] = value
        return value

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__[self.slot] = value


def rows_in(obj: Any, name: str) -> Optional[Rows]:
    """The grid in ``obj``'s :class:`GridField` ``name`` as rows, without importing numpy for it."""
    value = obj.__dict__.get(_SLOT + name)
    return None if value is None else rows_of(value)
