"""Verification of 2D puzzles: line logic, then probing, then SAT for whatever is left.

The verdict never rests on line logic being clever: line logic and probing
only fix cells that every solution shares, and SAT decides the rest,
including the uniqueness proof (block the known solution, re-solve). How far
the chain had to go is the difficulty rating. Probing runs in C (about a
microsecond per line run) and has a time budget, so it pays for itself: on
most puzzles it either finishes the job or hands SAT a smaller problem.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from ..clues import clue_problems, satisfies
from ..errors import PuzzleError, SolverTimeout
from ..model import Puzzle
from .cnf import Encoding
from .deadline import Deadline, Timeout, solve_limited
from .propagate import Contradiction, Grid

__all__ = ["VerifyResult", "verify", "ambiguous_cells", "ambiguity", "line_solve", "STATUSES"]

STATUSES = ("unique", "multiple", "unsolvable", "timeout")

# Probing costs a full propagation per candidate value; it gets at most this
# share of the time left (and this many seconds). Cut short, SAT takes over
# from the facts found so far and stats["probing"] says "cut short".
PROBE_SHARE = 0.25
PROBE_MAX_SECONDS = 3.0


@dataclass
class VerifyResult:
    """What :func:`verify` found out about a puzzle.

    ``difficulty`` is how far a solver had to go: ``"line"`` (line logic alone
    solves it), ``"probe"`` (line logic plus probing single cells) or
    ``"search"`` (needed SAT search). ``work`` is line-solver runs per line.
    """

    status: str
    solution: Optional[np.ndarray] = None
    second_solution: Optional[np.ndarray] = None
    difficulty: Optional[str] = None
    work: float = 0.0
    seconds: float = 0.0
    message: str = ""
    stats: dict = field(default_factory=dict)

    @property
    def ambiguous(self) -> Optional[np.ndarray]:
        """Cells where the two reported solutions differ (``multiple`` only).

        Usually only some of the ambiguous cells: :func:`ambiguity` finds them all.
        """
        if self.solution is None or self.second_solution is None:
            return None
        return self.solution != self.second_solution


def _checked(puzzle: Puzzle, grid: np.ndarray) -> np.ndarray:
    """Every grid reported goes through the independent clue check first."""
    if not satisfies(puzzle, grid):  # pragma: no cover - would be a solver bug
        raise AssertionError("solver produced a grid that breaks the clues")
    return grid


def verify(
    puzzle,
    target: Optional[np.ndarray] = None,
    timeout: Optional[float] = 60.0,
    strategy: str = "full",
) -> VerifyResult:
    """Decide whether ``puzzle`` has exactly one solution.

    With a ``target`` (or a goal stored in the puzzle that meets the clues)
    the question is "is this the only solution?": a first solution different
    from it proves ``multiple`` at once. Without one, the first solution found
    is blocked and the search run again. Picross 3D levels go to
    :func:`nonogen.solve.picross3d.verify3d`.

    ``strategy`` is ``"full"`` (line logic, probing, SAT), ``"line"`` (no
    probing: difficulty is ``None`` for a unique puzzle line logic does not
    finish) or
    ``"sat"`` (SAT on the whole puzzle, no line logic: the benchmark's
    baseline).

    >>> from nonogen.clues import puzzle_from_grid
    >>> verify(puzzle_from_grid(np.eye(3, dtype=int))).status  # a diagonal: also the anti-diagonal
    'multiple'
    >>> verify(puzzle_from_grid(np.array([[1, 1], [1, 0]]))).difficulty
    'line'
    """
    from ..model import Puzzle3D

    if isinstance(puzzle, Puzzle3D):
        from .picross3d import verify3d

        return verify3d(puzzle, target=target, timeout=timeout)
    if strategy not in ("full", "line", "sat"):
        raise ValueError(f"unknown strategy {strategy!r}")
    start = time.monotonic()
    result = _verify(puzzle, target, Deadline(timeout), strategy)
    result.seconds = time.monotonic() - start
    return result


def _reference(puzzle: Puzzle, target: Optional[np.ndarray]) -> Optional[np.ndarray]:
    if target is not None:
        target = np.asarray(target, dtype=np.uint8)
        if not satisfies(puzzle, target):
            raise PuzzleError("the target grid does not meet the puzzle's clues")
        return target
    if puzzle.goal is not None and satisfies(puzzle, puzzle.goal):
        return np.asarray(puzzle.goal)
    return None


def _verify(puzzle: Puzzle, target: Optional[np.ndarray], deadline: Deadline, strategy: str) -> VerifyResult:
    problems = clue_problems(puzzle)
    if problems:
        return VerifyResult("unsolvable", message="; ".join(problems))
    reference = _reference(puzzle, target)
    grid = Grid(puzzle)
    masks = grid.masks
    n_lines = puzzle.height + puzzle.width
    stats: dict = {}

    def finish(status: str, **kw) -> VerifyResult:
        stats["line_runs"] = grid.line_runs
        return VerifyResult(status, work=round(grid.line_runs / n_lines, 2), stats=stats, **kw)

    def solved(difficulty: str) -> VerifyResult:
        return finish("unique", solution=_checked(puzzle, grid.to_array(masks).astype(np.uint8)), difficulty=difficulty)

    if strategy != "sat":
        try:
            grid.propagate(masks, range(n_lines), deadline)
        except Contradiction:
            return finish("unsolvable", difficulty="line", message="line logic finds no way to fill some line")
        except Timeout:
            return finish("timeout", message="gave up before line logic finished")
        if not grid.undecided(masks):
            return solved("line")
        stats["undecided_after_line"] = len(grid.undecided(masks))
    if strategy == "full":
        try:
            if _probe(grid, masks, deadline, stats):
                return solved("probe")
        except Contradiction:
            return finish("unsolvable", difficulty="probe", message="probing finds no way to fill some line")
    try:
        status, first, second = _search(grid, masks, reference, deadline, stats)
    except Timeout:
        return finish("timeout", message="gave up during SAT search")
    except Contradiction:  # a line the encoder finds impossible: probing was cut short, or "sat" skipped line logic
        difficulty = "probe" if strategy == "full" else None
        return finish("unsolvable", difficulty=difficulty, message="some line cannot be filled")
    first = None if first is None else _checked(puzzle, first)
    second = None if second is None else _checked(puzzle, second)
    # "sat" rates nothing; "line" does not probe, so a unique puzzle line logic leaves open stays unrated.
    difficulty = "search" if strategy == "full" or (strategy == "line" and status != "unique") else None
    return finish(status, solution=first, second_solution=second, difficulty=difficulty)


def _probe(grid: Grid, masks, deadline: Deadline, stats: dict) -> bool:
    """Probe what line logic left open; True if that solves the puzzle (then it is unique).

    Probing only fixes cells that every solution shares, so whatever it
    fixes also shrinks the SAT problem. It gets at most a share of the time
    left; cut short, the facts found so far still stand and
    ``stats["probing"]`` says so.
    """
    budget = _earliest(Deadline(min(PROBE_MAX_SECONDS, PROBE_SHARE * deadline.remaining())), deadline)
    start = time.monotonic()
    try:
        done = grid.probe(masks, budget)
        stats["probing"] = "complete"
    except Timeout:
        done = False
        stats["probing"] = "cut short"
    stats["probe_seconds"] = round(time.monotonic() - start, 4)
    stats["undecided_after_probe"] = len(grid.undecided(masks))
    return done


def _earliest(a: Deadline, b: Deadline) -> Deadline:
    return a if a.remaining() < b.remaining() else b


def _search(grid: Grid, masks: list[int], reference, deadline: Deadline, stats: dict):
    """SAT on the residue: returns (status, first solution, second solution)."""
    t0 = time.monotonic()
    enc = Encoding(grid, masks, deadline)
    stats["sat_vars"] = enc.n_vars
    stats["sat_clauses"] = len(enc.clauses)
    stats["encode_seconds"] = round(time.monotonic() - t0, 4)
    with enc.new_solver() as solver:
        if reference is not None:
            solver.add_clause(enc.blocking_clause(reference))
            solver.set_phases(enc.phases(reference))
            if not solve_limited(solver, deadline):
                return "unique", reference, None
            return "multiple", reference, enc.decode(solver.get_model())
        if not solve_limited(solver, deadline):
            return "unsolvable", None, None
        model = solver.get_model()
        first = enc.decode(model)
        solver.add_clause(enc.blocking_clause(first))
        solver.set_phases(model)  # a second solution is usually a few cells away from the first
        if not solve_limited(solver, deadline):
            return "unique", first, None
        return "multiple", first, enc.decode(solver.get_model())


def line_solve(puzzle: Puzzle) -> tuple[np.ndarray, bool]:
    """Cells decided by complete line logic alone (-1 where undecided), and whether that is all of them.

    A puzzle is *line-solvable* when the second value is True; such a puzzle
    is unique and a person can solve it one line at a time. Raises
    :class:`~nonogen.errors.PuzzleError` when line logic finds a contradiction.

    >>> line_solve(Puzzle(rows=[[(1, 1)], [(1, 1)]], cols=[[(1, 1)], [(1, 1)]]))[1]
    False
    """
    grid = Grid(puzzle)
    try:
        grid.propagate(grid.masks, range(puzzle.height + puzzle.width), Deadline(None))
    except Contradiction:
        raise PuzzleError("line logic finds no way to fill some line: the puzzle has no solution") from None
    decided = grid.to_array(grid.masks)
    return decided, bool((decided >= 0).all())


def ambiguous_cells(puzzle: Puzzle, reference: np.ndarray, timeout: Optional[float] = 60.0) -> np.ndarray:
    """Cells whose value differs in some solution: the complement of the backbone.

    Raises :class:`~nonogen.errors.SolverTimeout` when the scan does not
    finish in time; :func:`ambiguity` returns what was found instead.

    >>> from nonogen.clues import puzzle_from_grid
    >>> g = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 0]])
    >>> ambiguous_cells(puzzle_from_grid(g), g).astype(int).tolist()
    [[1, 1, 0], [1, 1, 0], [0, 0, 0]]
    """
    mask, complete = ambiguity(puzzle, reference, timeout)
    if not complete:
        raise SolverTimeout(f"ambiguity check gave up after {timeout} s")
    return mask


def ambiguity(puzzle: Puzzle, reference: np.ndarray, timeout: Optional[float] = 60.0) -> tuple[np.ndarray, bool]:
    """The ambiguous cells found within ``timeout``, and whether that is all of them.

    Line logic and probing fix most backbone cells for free (on TAAI 2011
    puzzle 100, all but 23 of the 588 that line logic leaves open). The rest
    are settled one at a time by one incremental solver: "is there a solution
    where this cell differs from ``reference``?" A solution marks every cell
    where it differs, and the next search starts from it (its phases), where
    another solution is usually close. A refusal proves the cell is in the
    backbone; it becomes a unit clause that every later search profits from.
    On the hardest TAAI puzzles this takes 7-21 s where asking "does any
    remaining cell differ?" took 17-32 s. On a timeout the cells found so
    far are returned with ``False``: each of them is certainly ambiguous.
    """
    reference = np.asarray(reference, dtype=np.uint8)
    if not satisfies(puzzle, reference):
        raise PuzzleError("the reference grid does not meet the puzzle's clues")
    deadline = Deadline(timeout)
    grid = Grid(puzzle)
    ambiguous = np.zeros(puzzle.height * puzzle.width, dtype=bool)
    shape = (puzzle.height, puzzle.width)
    try:
        grid.propagate(grid.masks, range(puzzle.height + puzzle.width), deadline)
        if grid.undecided(grid.masks):
            _probe(grid, grid.masks, deadline, {})
        candidates = grid.undecided(grid.masks)
        if not candidates:
            return ambiguous.reshape(shape), True
        enc = Encoding(grid, grid.masks, deadline)
        flat = reference.ravel()
        with enc.new_solver() as solver:
            solver.set_phases(enc.phases(flat))
            while candidates:
                cell, candidates = candidates[0], candidates[1:]
                same = enc.lit(cell, int(flat[cell]))
                if solve_limited(solver, deadline, [-same]):
                    model = solver.get_model()
                    ambiguous |= enc.decode(model).ravel() != flat
                    solver.set_phases(model)
                    candidates = [i for i in candidates if not ambiguous[i]]
                else:
                    solver.add_clause([same])
    except Timeout:
        return ambiguous.reshape(shape), False
    return ambiguous.reshape(shape), True
