"""The grade of a Picross 3D level: 1-3 by the line passes that solve it, 5 when line logic does not.

The twin of :mod:`nonogen.solve.grade`, on the same scale (size points per
doubling, grade names), apart because 3D line logic works on numpy boxes.
"""
from __future__ import annotations

import math
from typing import Collection, Optional

from ..clues3d import LineRef
from ..model3d import Puzzle3D
from .deadline import Deadline, Timeout
from .grade import GRADE_NAMES, SIZE_POINTS, grade_of_score
from .line3d import LineIndex3D, LinePasses
from .result import VerifyResult

__all__ = ["score3d", "rate3d", "rate_passes", "PASSES_PER_GRADE_3D", "SIZE_BASE_3D"]

PASSES_PER_GRADE_3D = 3
"""Line passes that make one grade of a Picross 3D level (2 passes on a level of SIZE_BASE_3D cubes: grade 1.0)."""

SIZE_BASE_3D = 125
"""Cubes of the smallest level that gets no size points (5x5x5); each doubling beyond adds SIZE_POINTS, as in 2D."""


def score3d(passes: int, solved: bool, cells: int) -> float:
    """The numeric difficulty of a Picross 3D level of ``cells`` cubes, 1.0 to 5.0 (see :func:`rate3d`).

    Line logic alone scores 1.00-3.99: :data:`SIZE_POINTS` per doubling of
    the cubes beyond :data:`SIZE_BASE_3D`, and a grade for every
    :data:`PASSES_PER_GRADE_3D` passes beyond the first two (long chains). A
    level line logic does not finish is 5 (nonogen does not replay lookahead
    in 3D, so it cannot tell lookahead from search there).

    >>> (score3d(2, True, 125), score3d(6, True, 125), score3d(6, True, 1000), score3d(40, True, 125),
    ...  score3d(2, False, 125))
    (1.0, 2.33, 2.93, 3.99, 5.0)
    """
    if not solved:
        return 5.0
    value = 1.0 + SIZE_POINTS * math.log2(max(1.0, cells / SIZE_BASE_3D)) + max(0, passes - 2) / PASSES_PER_GRADE_3D
    return math.floor(min(value, 3.99) * 100) / 100


def rate3d(
    result: VerifyResult, puzzle: Puzzle3D, *, deadline: Optional[Deadline] = None, lines: Optional[LineIndex3D] = None,
    hidden: Collection[LineRef] = (),
) -> VerifyResult:
    """Fill in the grade of a verified Picross 3D level (unique ones by their line passes, several solutions 5).

    ``lines`` lends the level's :class:`~nonogen.solve.line3d.LineIndex3D` when one is at hand (with the
    ``hidden`` lines it does not read); the grade is the same without it.
    """
    measured = None
    if result.status == "unique":
        try:
            measured = (lines or LineIndex3D(puzzle)).passes(puzzle.givens, hidden=set(hidden), deadline=deadline)
        except Timeout:
            pass
    return rate_passes(result, puzzle, measured)


def rate_passes(result: VerifyResult, puzzle: Puzzle3D, measured: Optional[LinePasses]) -> VerifyResult:
    """Fill in the grade from line passes already run (``None``: cut off by the deadline): what :func:`rate3d` does.

    A graded :func:`~nonogen.solve.verify3d.verify3d` runs the passes once, for its difficulty and this grade.
    """
    if result.status == "multiple":
        result.grade, result.grade_name, result.score = 5, GRADE_NAMES[5], 5.0
    elif result.status == "unique" and measured is None:
        result.stats["grade"] = "not rated within the time limit"
    elif result.status == "unique" and measured is not None:  # (None: the elif above)
        value = score3d(measured.passes, measured.solved, math.prod(puzzle.size))
        grade = grade_of_score(value)
        result.grade, result.grade_name, result.score = grade, GRADE_NAMES[grade], value
        result.stats["grade_measures"] = {"passes": measured.passes, "line_solvable": measured.solved}
    return result
