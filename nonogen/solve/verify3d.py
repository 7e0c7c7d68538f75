"""Verification of Picross 3D levels: line logic first, SAT (CaDiCaL) when it leaves cells open; the rating.

Hidden clues constrain nothing, so a level is its shown clues and givens.
"""
from __future__ import annotations

import time
from typing import Optional, Sequence

import numpy as np

from ..clues3d import satisfies_3d
from ..errors import LimitError
from ..model3d import Puzzle3D
from .cnf3d import encode
from .deadline import TIMEOUT, Clock, Timeout
from .grade3d import rate_passes
from .line3d import LineIndex3D, LinePasses
from .result import VerifyResult
from .sat import new_solver

__all__ = ["verify3d", "MAX_SIDE", "check_size"]

MAX_SIDE = 100


def check_size(size: Sequence[int]) -> None:
    if max(size) > MAX_SIDE:
        raise LimitError(f"box {'x'.join(map(str, size))} is too large: at most {MAX_SIDE} cubes per side")


def verify3d(
    puzzle: Puzzle3D,
    *,
    target: Optional[np.ndarray] = None,
    timeout: Optional[float] = TIMEOUT,
    grade: bool = True,
    lines: Optional[LineIndex3D] = None,
) -> VerifyResult:
    """Decide whether a Picross 3D level has exactly one solution (hidden clues constrain nothing).

    With ``target`` (e.g. the level's goal) the first call already asks for a
    solution *other* than the target, which settles uniqueness in one solver
    call when the target fits the clues. Difficulty is ``'line'`` when line
    logic alone solves the level, else ``'search'``. ``grade`` also rates it
    for people (:func:`nonogen.solve.grade3d.rate3d`) from the same line
    passes, run once. ``lines`` lends the level's line index when the caller
    has one (its clues are the puzzle's).
    """
    measured, result = _verify3d(puzzle, target, timeout, lines)
    return rate_passes(result, puzzle, measured) if grade else result


def _verify3d(puzzle: Puzzle3D, target: Optional[np.ndarray], timeout: Optional[float],
              lines: Optional[LineIndex3D]) -> tuple[Optional[LinePasses], VerifyResult]:
    """The verdict, and for a unique level the line passes that rate it (``None`` when cut off by the time limit).

    Line passes come first: when they finish the box it is the only solution
    (and a contradiction means none), so no CNF is built: a solid ball
    filling 40^3 is proved in milliseconds, where its CNF took 3.9 GB.
    """
    check_size(puzzle.size)
    start = time.monotonic()
    clock = Clock(timeout)
    fields: dict = {"status": "timeout"}
    try:
        measured = (lines or LineIndex3D(puzzle)).passes(puzzle.givens, deadline=clock.deadline)
    except Timeout:
        return None, _finish(fields, clock, start, "no answer within the time limit (still reading the lines)")
    if measured.contradiction:
        fields["status"] = "unsolvable"
        return None, _finish(fields, clock, start, "no box of cubes meets every clue")
    if measured.solved:
        assert measured.cells is not None  # passes that solve the level return its cells
        fields["solution"] = measured.cells.astype(bool)
        return measured, _unique(fields, measured, puzzle, target, clock, start)
    return _verify_by_sat(puzzle, target, clock, start, measured)


def _verify_by_sat(puzzle: Puzzle3D, target: Optional[np.ndarray], clock: Clock, start: float,
                   measured: LinePasses) -> tuple[Optional[LinePasses], VerifyResult]:
    """The verdict from SAT (CaDiCaL) when line logic leaves cells open: a solution, then one other than it.

    The cubes line logic decided are unit clauses and the lines it finished are left out: SAT gets the residue.
    """
    fields: dict = {"status": "timeout"}
    try:
        enc = encode(puzzle, deadline=clock.deadline, known=measured.cells)
    except Timeout:
        return None, _finish(fields, clock, start, "no answer within the time limit (still encoding the clues)")
    with new_solver("box", enc.clauses) as solver:
        first: Optional[np.ndarray] = None
        if target is not None and satisfies_3d(puzzle, target):
            first = np.asarray(target, dtype=bool)
        else:
            found = clock.solve(solver)
            if found is None:
                return None, _finish(fields, clock, start, "no answer within the time limit")
            if not found:
                fields["status"] = "unsolvable"
                return None, _finish(fields, clock, start, "no box of cubes meets every clue")
            first = enc.decode(solver.get_model())
        solver.add_clause(enc.block(first))
        other = clock.solve(solver)
        fields["solution"] = first
        if other is None:
            return None, _finish(fields, clock, start, "found a solution; uniqueness undecided within the time limit")
        if other:
            fields["status"] = "multiple"
            fields["second_solution"] = enc.decode(solver.get_model())
            return None, _finish(fields, clock, start, "at least two solutions")
    return measured, _unique(fields, measured, puzzle, target, clock, start)


def _unique(fields: dict, measured: LinePasses, puzzle: Puzzle3D, target: Optional[np.ndarray], clock: Clock,
            start: float) -> VerifyResult:
    """A unique level's result: its difficulty and work from the line passes."""
    fields["status"] = "unique"
    fields["difficulty"] = "line" if measured.solved else "search"
    fields["work"] = float(measured.runs * 100 / max(1, puzzle.n_clues))
    message = "unique; line logic solves it" if measured.solved else "unique; needs search beyond line logic"
    if target is not None and not np.array_equal(fields["solution"], np.asarray(target, dtype=bool)):
        message += " (the given target does not meet the clues)"
    return _finish(fields, clock, start, message)


def _finish(fields: dict, clock: Clock, start: float, message: str) -> VerifyResult:
    fields["seconds"] = time.monotonic() - start
    fields["message"] = message
    fields["stats"] = clock.stats()
    return VerifyResult(**fields)
