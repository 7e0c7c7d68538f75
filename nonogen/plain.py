"""Plain JSON types from what nonogen computes: one converter for every report, record and file.

Reports hold numpy arrays and scalars and paths; JSON holds lists, numbers
and text. This sits at the centre (it imports nothing of nonogen, and not
numpy either: arrays and numpy scalars are recognised by their ``tolist``),
so the engine's results, the file writers and the CLI share it.
"""
from __future__ import annotations

import os

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

__all__ = ["to_jsonable"]


def to_jsonable(value: Any) -> Any:
    """``value`` with numpy arrays and scalars (also inside dicts and lists) as plain JSON types, paths as text.

    >>> import numpy as np
    >>> to_jsonable({"a": np.arange(2), "b": (np.int64(3), np.bool_(True))})
    {'a': [0, 1], 'b': [3, True]}
    """
    if hasattr(value, "tolist"):  # a numpy array or scalar
        return value.tolist()
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, os.PathLike):  # a Path, known without importing pathlib (4 ms of a verify)
        return os.fspath(value)
    return value
