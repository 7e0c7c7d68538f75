"""Uniqueness repair for 2D puzzles made from pictures: reveal givens, or edit the picture.

A picture rarely makes a unique nonogram by itself (a diagonal pair of cells
is the classic trap). Two repairs, both greedy and both built on the solver:

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

Line logic (``line_solve``) is the cheap score; ``verify`` is the proof.
Everything here is pure: puzzles and grids in, a :class:`RepairResult` out.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from .clues import puzzle_from_grid
from .errors import PuzzleError, SolverTimeout
from .model import Puzzle
from .solve import ambiguous_cells, line_solve, verify
from .solve.deadline import Deadline
from .solve.propagate import Grid

__all__ = ["RepairResult", "repair", "MODES"]

MODES = ("givens", "edit", "off")
CANDIDATES_PER_STEP = 32
"""How many cells each greedy step scores with line logic: enough to find a good one, cheap enough to stay fast."""
EDIT_WORK = 40_000
"""Cells x candidates scored per edit step: big puzzles score fewer (least-confident first), and the
cut depends only on the size, so the result stays deterministic."""


@dataclass
class RepairResult:
    """The repaired puzzle (goal = the final picture), that picture, and the report for people."""

    puzzle: Puzzle
    grid: np.ndarray
    report: dict[str, Any] = field(default_factory=dict)


def _undecided(puzzle: Puzzle) -> int:
    """Cells line logic leaves open: the score every greedy step minimizes."""
    decided, _ = line_solve(puzzle)
    return int(np.count_nonzero(decided < 0))


def _done(
    puzzle: Puzzle, target: np.ndarray, need_line: bool, clock: Deadline, decided: Optional[np.ndarray] = None
) -> tuple[bool, Optional[np.ndarray]]:
    """Whether the goal is reached; if not, cells where some other solution differs (None if unknown).

    ``decided`` is the line-logic fixpoint when the caller already has it.
    """
    if decided is None:
        decided, _ = line_solve(puzzle)
    if bool((decided >= 0).all()):
        return True, None
    if need_line:
        return False, decided < 0
    result = verify(puzzle, target, timeout=clock.left())
    if result.status == "unique":
        return True, None
    if result.status == "multiple" and result.second_solution is not None:
        return False, result.second_solution != target
    return False, decided < 0


def _spread(cells: np.ndarray, confidence: Optional[np.ndarray], limit: int) -> list[tuple[int, int]]:
    """Up to ``limit`` candidate cells: least confident first, then an even spread (deterministic)."""
    coords = [tuple(int(v) for v in rc) for rc in np.argwhere(cells)]
    if confidence is not None:
        coords.sort(key=lambda rc: (float(confidence[rc]), rc))
        return coords[:limit]
    if len(coords) <= limit:
        return coords
    step = len(coords) / limit
    return [coords[int(i * step)] for i in range(limit)]


# --- givens ---------------------------------------------------------------------------------------


class _GivenScorer:
    """Scores "reveal this cell" by how many cells line logic then leaves open, incrementally.

    Line logic is monotone, so the fixpoint with one more given is reached by
    starting from the current fixpoint and re-running only the given's row and
    column. That makes a trial cost a few line runs instead of a whole
    ``line_solve``; the engine's per-line cache is shared by all trials.
    """

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.grid = Grid(puzzle)
        self.masks = self.grid.masks
        self.deadline = Deadline(None)
        self.grid.propagate(self.masks, range(puzzle.height + puzzle.width), self.deadline)

    def decided(self) -> np.ndarray:
        return self.grid.to_array(self.masks)

    def score(self, given: tuple[int, int, int]) -> int:
        r, c, v = given
        masks = self.masks[:]
        masks[r * self.puzzle.width + c] = 1 << v
        self.grid.propagate(masks, [r, self.puzzle.height + c], self.deadline)
        return len(self.grid.undecided(masks))


def _add_givens(puzzle: Puzzle, target: np.ndarray, need_line: bool, clock: Deadline) -> tuple[Puzzle, bool]:
    """Greedily reveal target cells until done; returns the puzzle and whether the goal was reached."""
    while not clock.expired():
        scorer = _GivenScorer(puzzle)
        decided = scorer.decided()
        done, open_cells = _done(puzzle, target, need_line, clock, decided)
        if done:
            return puzzle, True
        if open_cells is None or not open_cells.any():
            return puzzle, False
        best = None
        for r, c in _spread(open_cells & (decided < 0), None, CANDIDATES_PER_STEP):
            given = (r, c, int(target[r, c]))
            score = scorer.score(given)
            if best is None or score < best[0]:
                best = (score, given)
        if best is None:
            return puzzle, False
        puzzle = puzzle.replace(givens=puzzle.givens + (best[1],))
    return puzzle, False


def _prune_givens(puzzle: Puzzle, keep: tuple, target: np.ndarray, need_line: bool, clock: Deadline) -> Puzzle:
    """Drop each added given that the puzzle does not need (newest first); ``keep`` are the user's own."""
    for given in reversed(puzzle.givens):
        if given in keep or clock.expired():
            continue
        trial = puzzle.replace(givens=tuple(g for g in puzzle.givens if g != given))
        if _done(trial, target, need_line, clock)[0]:
            puzzle = trial
    return puzzle


# --- edits ----------------------------------------------------------------------------------------


def _edit_candidates(
    grid: np.ndarray, open_cells: np.ndarray, alternative: np.ndarray, confidence: Optional[np.ndarray], edited: set
) -> list[tuple[int, int]]:
    mask = open_cells & (alternative != grid)
    for rc in edited:
        mask[rc] = False
    return _spread(mask, confidence, CANDIDATES_PER_STEP)


def _edit_picture(
    puzzle: Puzzle,
    target: np.ndarray,
    alternative: np.ndarray,
    confidence: Optional[np.ndarray],
    need_line: bool,
    max_edits: int,
    clock: Deadline,
) -> tuple[Puzzle, np.ndarray, list[dict[str, int]], bool]:
    """Greedy picture edits; returns the puzzle, its grid, the edits and whether the goal was reached."""
    grid = target.copy()
    edits: list[dict[str, int]] = []
    edited: set = set()
    meta, palette, givens = dict(puzzle.meta), puzzle.palette, puzzle.givens
    while len(edits) < max_edits and not clock.expired():
        done, open_cells = _done(puzzle, grid, need_line, clock)
        if done:
            return puzzle, grid, edits, True
        if open_cells is None:
            break
        best = None
        limit = max(4, min(CANDIDATES_PER_STEP, EDIT_WORK // grid.size))
        for r, c in _edit_candidates(grid, open_cells, alternative, confidence, edited)[:limit]:
            trial_grid = grid.copy()
            trial_grid[r, c] = alternative[r, c]
            if not trial_grid.any():
                continue
            trial = puzzle_from_grid(trial_grid, palette, givens=_givens_on(givens, trial_grid), **meta)
            score = _undecided(trial)
            if best is None or score < best[0]:
                best = (score, (r, c), trial_grid, trial)
        if best is None:
            break
        _, (r, c), new_grid, puzzle = best
        edits.append({"row": r, "col": c, "from": int(grid[r, c]), "to": int(new_grid[r, c])})
        edited.add((r, c))
        grid = new_grid
    done, _ = _done(puzzle, grid, need_line, clock)
    return puzzle, grid, edits, done


def _givens_on(givens: tuple, grid: np.ndarray) -> tuple:
    """The user's givens that still agree with an edited grid."""
    return tuple(g for g in givens if int(grid[g[0], g[1]]) == g[2])


# --- the public entry point -------------------------------------------------------------------------


def repair(
    puzzle: Puzzle,
    target: np.ndarray,
    mode: str = "givens",
    line_solvable: bool = False,
    confidence: Optional[np.ndarray] = None,
    alternative: Optional[np.ndarray] = None,
    timeout: Optional[float] = 60.0,
    max_edits: Optional[int] = None,
) -> RepairResult:
    """Make ``puzzle`` (whose intended solution is ``target``) unique, or report why it is not.

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

    tick = time.monotonic()
    first = verify(puzzle, target, timeout=clock.left())
    timings["verify"] = time.monotonic() - tick
    if first.status == "unsolvable":
        raise PuzzleError("the target picture does not meet the puzzle's clues")
    tick = time.monotonic()
    ambiguous, ambiguity_note = _ambiguity(puzzle, target, first.status, clock)
    timings["ambiguity"] = time.monotonic() - tick

    tick = time.monotonic()
    final, grid, edits, note = _run_mode(
        puzzle, target, mode, line_solvable, confidence, alternative, max_edits, first, clock
    )
    timings["repair"] = time.monotonic() - tick

    tick = time.monotonic()
    last = verify(final, grid, timeout=clock.left()) if (final is not puzzle) else first
    decided, is_line = line_solve(final) if last.status == "unique" else (None, False)
    timings["final_verify"] = time.monotonic() - tick
    added = [list(g) for g in final.givens if g not in puzzle.givens]
    report = {
        "status": last.status,
        "initial_status": first.status,
        "repair": mode,
        "givens": [list(g) for g in final.givens],
        "givens_added": len(added),
        "edits": edits,
        "edit_count": len(edits),
        "ambiguous_count": None if ambiguous is None else int(ambiguous.sum()),
        "ambiguous_cells": None if ambiguous is None else [[int(r), int(c)] for r, c in np.argwhere(ambiguous)],
        "line_solvable": bool(is_line),
        "difficulty": "line" if is_line else last.difficulty,
        "work": last.work,
        "seconds": round(time.monotonic() - started, 3),
        "timings": {k: round(v, 3) for k, v in timings.items()},
        "message": "; ".join(m for m in (ambiguity_note, note, last.message) if m),
    }
    return RepairResult(puzzle=final.replace(goal=grid), grid=grid, report=report)


def _ambiguity(puzzle: Puzzle, target: np.ndarray, status: str, clock: Deadline) -> tuple[Optional[np.ndarray], str]:
    if status == "unique":
        return np.zeros(target.shape, dtype=bool), ""
    if status != "multiple":
        return None, "ambiguous cells not computed (verification did not finish)"
    try:
        return ambiguous_cells(puzzle, target, timeout=clock.left()), ""
    except SolverTimeout:
        return None, "ambiguous cells not computed (time limit)"


def _run_mode(
    puzzle: Puzzle,
    target: np.ndarray,
    mode: str,
    need_line: bool,
    confidence: Optional[np.ndarray],
    alternative: Optional[np.ndarray],
    max_edits: Optional[int],
    first: Any,
    clock: Deadline,
) -> tuple[Puzzle, np.ndarray, list, str]:
    """Apply the repair mode; returns the final puzzle, its grid, the edits and a note."""
    good = first.status == "unique" and (not need_line or line_solve(puzzle)[1])
    if mode == "off" or good or first.status == "timeout":
        note = "" if good or mode == "off" else "not repaired: verification timed out"
        return puzzle, target, [], note
    edits: list = []
    grid = target
    note = ""
    if mode == "edit":
        if alternative is None:
            alternative = _default_alternative(puzzle, target, first)
        if max_edits is None:
            max_edits = max(3, target.size // 20)
        puzzle, grid, edits, ok = _edit_picture(puzzle, target, alternative, confidence, need_line, max_edits, clock)
        if ok:
            return puzzle, grid, edits, note
        note = f"picture edits alone did not suffice ({len(edits)} made); givens finish the repair"
    keep = puzzle.givens
    puzzle, ok = _add_givens(puzzle, grid, need_line, clock)
    if ok:
        puzzle = _prune_givens(puzzle, keep, grid, need_line, clock)
    else:
        note = "; ".join(filter(None, [note, "repair stopped at the time limit"]))
    return puzzle, grid, edits, note


def _default_alternative(puzzle: Puzzle, target: np.ndarray, first: Any) -> np.ndarray:
    """B&W cells flip; colour cells take another solution's value where it differs (else stay)."""
    if not puzzle.is_color:
        return (1 - target).astype(np.uint8)
    second = first.second_solution
    return target.copy() if second is None else np.asarray(second, dtype=np.uint8)
