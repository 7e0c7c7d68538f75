"""Uniqueness repair for 2D puzzles made from pictures: reveal givens, or edit the picture.

A picture rarely makes a unique nonogram by itself (a diagonal pair of cells
is the classic trap). Two repairs, both greedy and both built on the engine:

* ``givens``: reveal cells of the intended picture. Candidates are cells
  where another solution differs from the target; the one whose reveal lets
  line logic decide the most cells is taken, until the puzzle is unique (or
  line-solvable when asked). A final pass drops every given that turned out
  not to be needed, so the set is minimal (no given can be removed), though
  not necessarily the smallest possible.
* ``edit``: change picture cells instead, preferring cells the importer was
  least sure about (near the threshold, split votes). Each step tries the
  least-confident candidates and keeps the change that leaves line logic the
  fewest undecided cells. If the edit budget runs out, givens finish the job.

Line logic is the cheap score; ``verify`` is the proof. Every question about
one clue set goes to one :class:`~nonogen.solve.session.Session`, which keeps
the line-logic fixpoint and the line cache between questions.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from ..clues import line_clue
from ..errors import PuzzleError
from ..model import Puzzle
from ..solve.deadline import TIMEOUT, Deadline
from ..solve.grade import rate
from ..solve.result import VerifyResult
from ..solve.session import Given, Session

__all__ = ["Repair2D", "repair", "ease", "ease_to_grade", "MODES"]

MODES = ("givens", "edit", "off")
CANDIDATES_PER_STEP = 32
"""How many cells each greedy step scores with line logic: enough to find a good one, cheap enough to stay fast."""
EDIT_WORK = 40_000
"""Cells x candidates scored per edit step: big puzzles score fewer (least-confident first), and the
cut depends only on the size, so the result stays deterministic."""


@dataclass
class Repair2D:
    """The repaired puzzle (goal = the final picture), that picture, the report, and the engine session.

    ``session`` holds the final clues (givens not included), so later
    questions about the result cost nothing that was already known.
    """

    puzzle: Puzzle
    grid: np.ndarray
    report: dict[str, Any] = field(default_factory=dict)
    session: Optional[Session] = None


def _done(
    session: Session, givens: tuple, target: np.ndarray, need_line: bool, clock: Deadline
) -> tuple[bool, Optional[np.ndarray]]:
    """Whether the goal is reached; if not, cells where some other solution differs (None if unknown)."""
    decided = session.decided(givens)
    if bool((decided >= 0).all()):
        return True, None
    if need_line:
        return False, decided < 0
    result = session.verify(target, givens=givens, timeout=clock.left(), grade=False)
    if result.status == "unique":
        return True, None
    if result.status == "multiple" and result.second_solution is not None:
        return False, result.second_solution != target
    return False, decided < 0


def _spread(cells: np.ndarray, confidence: Optional[np.ndarray], limit: int) -> list[tuple[int, int]]:
    """Up to ``limit`` candidate cells: least confident first (ties in reading order), else an even spread in
    reading order (deterministic). Sorted by numpy: a Python sort of every open cell cost a photo's repair a
    second."""
    rows, cols = np.nonzero(cells)
    if confidence is not None:
        order = np.lexsort((cols, rows, confidence[rows, cols]))[:limit]
    elif len(rows) <= limit:
        order = np.arange(len(rows))
    else:
        order = (np.arange(limit) * (len(rows) / limit)).astype(np.int64)
    return [(int(rows[i]), int(cols[i])) for i in order]


# --- givens ---------------------------------------------------------------------------------------


def _add_givens(
    session: Session, target: np.ndarray, need_line: bool, clock: Deadline, hard: bool = False
) -> tuple[tuple[Given, ...], bool]:
    """Greedily reveal target cells until done; returns the added givens (sorted) and whether the goal was reached.

    A trial reveal is scored incrementally: from the fixpoint of the givens
    so far, only the new given's row and column are run again. The cell that
    leaves line logic the least to do is taken, or with ``hard`` the most
    (it still rules out the rival solution, but gives the solver less help).
    """
    givens: tuple[Given, ...] = ()
    while not clock.expired():
        decided = session.decided(givens)
        done, open_cells = _done(session, givens, target, need_line, clock)
        if done:
            return givens, True
        if open_cells is None or not open_cells.any():
            return givens, False
        best = None
        for r, c in _spread(open_cells & (decided < 0), None, CANDIDATES_PER_STEP):
            given = (r, c, int(target[r, c]))
            score = session.undecided_count(givens + (given,))
            if best is None or (score > best[0] if hard else score < best[0]):
                best = (score, given)
        if best is None:
            return givens, False
        givens = tuple(sorted(givens + (best[1],)))
    return givens, False


def ease(session: Session, givens: tuple[Given, ...], target: np.ndarray) -> Optional[Given]:
    """The one target cell whose reveal leaves line logic the fewest open cells (``None``: all decided).

    This is how the greedy repair picks givens; aiming at a lower grade
    takes the same steps one at a time, checking the grade after each.
    """
    decided = session.decided(givens)
    best = None
    for r, c in _spread(decided < 0, None, CANDIDATES_PER_STEP):
        given = (r, c, int(target[r, c]))
        score = session.undecided_count(givens + (given,))
        if best is None or score < best[0]:
            best = (score, given)
    return None if best is None else best[1]


def _prune_givens(
    session: Session, givens: tuple[Given, ...], target: np.ndarray, need_line: bool, clock: Deadline
) -> tuple[Given, ...]:
    """Drop each added given that the puzzle does not need (last in sorted order first)."""
    for given in reversed(givens):
        if clock.expired():
            break
        trial = tuple(g for g in givens if g != given)
        if _done(session, trial, target, need_line, clock)[0]:
            givens = trial
    return givens


# --- edits ----------------------------------------------------------------------------------------


def _edit_candidates(
    grid: np.ndarray, open_cells: np.ndarray, alternative: np.ndarray, confidence: Optional[np.ndarray], edited: set
) -> list[tuple[int, int]]:
    mask = open_cells & (alternative != grid)
    for rc in edited:
        mask[rc] = False
    return _spread(mask, confidence, CANDIDATES_PER_STEP)


def _edit_picture(
    session: Session,
    target: np.ndarray,
    alternative: np.ndarray,
    confidence: Optional[np.ndarray],
    need_line: bool,
    max_edits: int,
    clock: Deadline,
) -> tuple[Session, np.ndarray, list[dict[str, int]], bool]:
    """Greedy picture edits; returns the session of the edited clues, its grid, the edits and whether the goal was
    reached.

    Each trial edit is a new clue set, so it gets a session of its own; the
    winner's session carries on.
    """
    grid = target.copy()
    edits: list[dict[str, int]] = []
    edited: set = set()
    givens = session.puzzle.givens
    while len(edits) < max_edits and not clock.expired():
        done, open_cells = _done(session, (), grid, need_line, clock)
        if done:
            return session, grid, edits, True
        if open_cells is None:
            break
        best = None
        limit = max(4, min(CANDIDATES_PER_STEP, EDIT_WORK // grid.size))
        for r, c in _edit_candidates(grid, open_cells, alternative, confidence, edited)[:limit]:
            trial_grid = grid.copy()
            trial_grid[r, c] = alternative[r, c]
            if not trial_grid.any():
                continue
            trial = Session(_edited(session.puzzle, trial_grid, r, c, _givens_on(givens, trial_grid)))
            score = trial.undecided_count()
            if best is None or score < best[0]:
                best = (score, (r, c), trial_grid, trial)
        if best is None:
            break
        _, (r, c), new_grid, session = best
        edits.append({"row": r, "col": c, "from": int(grid[r, c]), "to": int(new_grid[r, c])})
        edited.add((r, c))
        grid = new_grid
    done, _ = _done(session, (), grid, need_line, clock)
    return session, grid, edits, done


def _edited(puzzle: Puzzle, grid: np.ndarray, row: int, col: int, givens: tuple) -> Puzzle:
    """``puzzle`` (whose goal is ``grid`` but for the cell at ``row``, ``col``) with that cell's row and column
    clues derived again: the other lines' clues are the same, and deriving every line for each trial was a quarter
    of a photo's repair."""
    rows, cols = list(puzzle.rows), list(puzzle.cols)
    rows[row], cols[col] = line_clue(grid[row]), line_clue(grid[:, col])
    return Puzzle(rows, cols, puzzle.palette, goal=grid, givens=givens, meta=puzzle.meta)


def _givens_on(givens: tuple, grid: np.ndarray) -> tuple:
    """The user's givens that still agree with an edited grid."""
    return tuple(g for g in givens if int(grid[g[0], g[1]]) == g[2])


# --- the public entry point -------------------------------------------------------------------------


def repair(
    puzzle: Puzzle,
    target: np.ndarray,
    *,
    mode: str = "givens",
    line_solvable: bool = False,
    confidence: Optional[np.ndarray] = None,
    alternative: Optional[np.ndarray] = None,
    timeout: Optional[float] = TIMEOUT,
    max_edits: Optional[int] = None,
    hard: bool = False,
    grade: bool = True,
) -> Repair2D:
    """Make ``puzzle`` (whose intended solution is ``target``) unique, or report why it is not.

    ``hard`` chooses givens that help line logic the least (for harder puzzles).
    ``grade`` adds the finished puzzle's grade to the report (``grade``,
    ``grade_name``, ``score``) from the last proof, without a new one; as
    every engine door does, it grades unless told ``grade=False``.

    ``mode`` is ``"givens"``, ``"edit"`` or ``"off"`` (report only);
    ``line_solvable`` keeps repairing until line logic alone solves it.
    ``confidence`` and ``alternative`` come from the importer and steer
    edits (defaults: every cell equally sure; B&W cells flip, colour cells
    take the value another solution gives them). ``max_edits`` defaults to 5 %
    of the cells (at least 3). The report always lists the ambiguous cells
    of the puzzle as given (before any repair).
    """
    if mode not in MODES:
        raise PuzzleError(f"unknown repair mode {mode!r}: expected one of {', '.join(MODES)}")
    target = np.asarray(target, dtype=np.uint8)
    started = time.monotonic()
    clock = Deadline(timeout)
    timings: dict[str, float] = {}
    session = Session(puzzle)

    tick = time.monotonic()
    first = session.verify(target, timeout=clock.left(), grade=False)
    timings["verify"] = time.monotonic() - tick
    if first.status == "unsolvable":
        raise PuzzleError("the target picture does not meet the puzzle's clues")
    tick = time.monotonic()
    ambiguous, ambiguity_note = _ambiguity(session, target, first.status, clock)
    timings["ambiguity"] = time.monotonic() - tick

    tick = time.monotonic()
    final, added, grid, edits, note = _run_mode(
        session, target, mode, line_solvable, confidence, alternative, max_edits, first, clock, hard
    )
    timings["repair"] = time.monotonic() - tick

    tick = time.monotonic()
    changed = final is not session or added
    last = final.verify(grid, givens=added, timeout=clock.left(), grade=False) if changed else first
    if grade:
        rate(last, final.with_givens(added), deadline=clock, grid=final.grid)
    is_line = last.status == "unique" and bool((final.decided(added) >= 0).all())
    timings["final_verify"] = time.monotonic() - tick
    repaired = final.with_givens(added)
    report = {
        "status": last.status,
        "initial_status": first.status,
        "repair": mode,
        "givens": [list(g) for g in repaired.givens],
        "givens_added": len([g for g in repaired.givens if g not in puzzle.givens]),
        "edits": edits,
        "edit_count": len(edits),
        "ambiguous_count": None if ambiguous is None else int(ambiguous.sum()),
        "ambiguous_cells": None if ambiguous is None else [[int(r), int(c)] for r, c in np.argwhere(ambiguous)],
        "line_solvable": is_line,
        "difficulty": "line" if is_line else last.difficulty,
        "work": last.work,
        "seconds": round(time.monotonic() - started, 3),
        "timings": {k: round(v, 3) for k, v in timings.items()},
        "message": "; ".join(m for m in (ambiguity_note, note, last.message) if m),
        "grade": last.grade,
        "grade_name": last.grade_name,
        "score": last.score,
    }
    return Repair2D(puzzle=repaired.replace(goal=grid), grid=grid, report=report, session=final)


def _ambiguity(session: Session, target: np.ndarray, status: str, clock: Deadline) -> tuple[Optional[np.ndarray], str]:
    if status == "unique":
        return np.zeros(target.shape, dtype=bool), ""
    if status != "multiple":
        return None, "ambiguous cells not computed (verification did not finish)"
    mask, complete = session.ambiguity(target, timeout=clock.left())
    if not complete:
        return None, "ambiguous cells not computed (time limit)"
    return mask, ""


def _run_mode(
    session: Session,
    target: np.ndarray,
    mode: str,
    need_line: bool,
    confidence: Optional[np.ndarray],
    alternative: Optional[np.ndarray],
    max_edits: Optional[int],
    first: VerifyResult,
    clock: Deadline,
    hard: bool = False,
) -> tuple[Session, tuple[Given, ...], np.ndarray, list, str]:
    """Apply the repair mode; returns the final clues' session, the added givens, the grid, the edits and a note."""
    good = first.status == "unique" and (not need_line or bool((session.decided() >= 0).all()))
    if mode == "off" or good or first.status == "timeout":
        note = "" if good or mode == "off" else "not repaired: verification timed out"
        return session, (), target, [], note
    edits: list = []
    grid = target
    note = ""
    if mode == "edit":
        if alternative is None:
            alternative = _default_alternative(session.puzzle, target, first)
        if max_edits is None:
            max_edits = max(3, target.size // 20)
        session, grid, edits, ok = _edit_picture(session, target, alternative, confidence, need_line, max_edits, clock)
        if ok:
            return session, (), grid, edits, note
        note = f"picture edits alone did not suffice ({len(edits)} made); givens finish the repair"
    givens, ok = _add_givens(session, grid, need_line, clock, hard)
    if ok:
        givens = _prune_givens(session, givens, grid, need_line, clock)
    else:
        note = "; ".join(filter(None, [note, "repair stopped at the time limit"]))
    return session, givens, grid, edits, note


def _default_alternative(puzzle: Puzzle, target: np.ndarray, first: VerifyResult) -> np.ndarray:
    """B&W cells flip; colour cells take another solution's value where it differs (else stay)."""
    if not puzzle.is_color:
        return (1 - target).astype(np.uint8)
    second = first.second_solution
    return target.copy() if second is None else np.asarray(second, dtype=np.uint8)


def ease_to_grade(result: Repair2D, grade: int, clock: Deadline) -> Repair2D:
    """A unique repair with cells revealed one at a time until its grade is at most ``grade``.

    Each further given is the one that helps line logic most (:func:`ease`),
    so few are needed; making from a picture and the studio's "aim at a grade"
    both take this loop. A result that is not unique is returned as it is.
    """
    session, grid = result.session, result.grid
    if session is None or result.report["status"] != "unique":
        return result
    added = tuple(g for g in result.puzzle.givens if g not in session.puzzle.givens)
    current, extra = result.report["grade"], 0  # the repair graded its last proof
    rating: Optional[VerifyResult] = None  # the last proof's, once a given is added
    while current is not None and current > grade and not clock.expired():
        given = ease(session, added, grid)
        if given is None:
            break
        added, extra = tuple(sorted(added + (given,))), extra + 1
        rating = session.verify(grid, givens=added, timeout=clock.left(), grade=True)
        current = rating.grade
    if rating is None:
        return result
    puzzle = session.with_givens(added).replace(goal=grid)
    report = dict(result.report)
    report.update(givens=[list(g) for g in puzzle.givens], givens_added=report["givens_added"] + extra,
                  line_solvable=rating.difficulty == "line", difficulty=rating.difficulty,
                  grade=rating.grade, grade_name=rating.grade_name, score=rating.score)
    return Repair2D(puzzle, grid, report, session)
