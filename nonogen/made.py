"""What a making pipeline returns: the puzzle (or level), its solution and its report, ready to save.

Both pipelines, picture -> nonogram (:func:`nonogen.from_image`) and model ->
Picross 3D level (:func:`nonogen.from_mesh`), return a :class:`Made`, so a
caller handles either the same way: look at ``report``, play with ``puzzle``,
write the folder the command line writes with :func:`nonogen.save`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

import numpy as np

from .model import Puzzle
from .model3d import Puzzle3D

__all__ = ["Made"]


@dataclass(frozen=True)
class Made:
    """A made puzzle: ``puzzle`` (its goal is ``solution``), ``solution`` and ``report`` (plain JSON types).

    ``report["status"]`` is the verdict of the puzzle as saved (``unique`` once
    repaired); the report lists what was repaired, hidden or warned about.
    """

    puzzle: Union[Puzzle, Puzzle3D]
    solution: np.ndarray
    report: dict[str, Any] = field(default_factory=dict)

    @property
    def is_level(self) -> bool:
        """Whether this is a Picross 3D level (else a 2D nonogram)."""
        return isinstance(self.puzzle, Puzzle3D)
