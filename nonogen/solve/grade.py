"""A difficulty grade people understand (1 very easy ... 5 needs search), from how a person would solve it.

The grade replays the puzzle the way a careful human solver works, with the
engine's exact line logic standing in for the human's:

1. **Line passes.** Every line is read once per pass; a pass reads only the
   lines whose cells changed in the pass before. Many passes mean long
   chains where each line unlocks the next.
2. **Lookahead sweeps.** When no line says more, the solver tries each value
   of each open cell and follows the lines from it; a value that leads to a
   contradiction is ruled out. One sweep collects every such deduction, then
   line passes resume. Each sweep is a moment a person must reason over
   several lines at once.
3. **Search.** When a whole sweep finds nothing, only guessing (SAT search)
   goes on: grade 5.

The measures are counts of logical steps, never of cache misses or seconds,
so the grade of a puzzle is the same whatever the engine did before.
Each harder step can only raise the score (see :func:`score`).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Optional


from ..model import Puzzle, Puzzle3D
from .deadline import Deadline, Timeout
from .line import LineAutomaton
from .propagate import Contradiction, Grid, _bits, _linelogic
from .result import VerifyResult

__all__ = ["Grade", "Measures", "GRADE_NAMES", "grade2d", "measure2d", "score", "grade_of_score", "rate", "rate3d", "score3d"]

MIN_DEPTH = 2
"""The shallowest lookahead: the cell's row or column, read once more, meets the other (line logic is at a fixpoint)."""

BOTH_WAYS_DEPTH = 6
"""Depth given to deductions only the agreement of both branches finds (see :meth:`_Replay.both_ways`)."""

GRADE_NAMES = {1: "very easy", 2: "easy", 3: "medium", 4: "hard", 5: "needs search"}


@dataclass(frozen=True)
class Measures:
    """What a human-style solve of one puzzle took."""

    cells: int
    passes: int  # line passes in all (before, between and after lookahead sweeps)
    line_reads: int  # lines read in all passes
    sweeps: int  # lookahead sweeps that found something
    deductions: int  # values ruled out by lookahead
    depth: int  # the deepest sweep: passes its easiest contradiction took (0: no lookahead)
    search: bool  # lookahead ran dry with cells still open


@dataclass(frozen=True)
class Grade:
    """A grade 1-5 with its name and the numeric score behind it (``grade == floor(score)``)."""

    grade: int
    name: str
    score: float
    measures: Measures

    def to_dict(self) -> dict:
        return {"grade": self.grade, "grade_name": self.name, "score": self.score, "measures": asdict(self.measures)}


def _line_solver(clue, native: bool):
    if native:
        return lambda domain: _linelogic.solve_line(clue, domain)
    automaton = LineAutomaton(clue)

    def solve(domain):
        result = automaton.live_states(domain)
        return None if result is None else result[1]

    return solve


class _Replay:
    """The human-style solve: synchronous line passes and lookahead sweeps over one puzzle's masks."""

    def __init__(self, puzzle: Puzzle, deadline: Deadline, grid: Optional[Grid] = None):
        self.grid = grid if grid is not None and grid.puzzle is puzzle else Grid(puzzle)
        self.deadline = deadline
        native = _linelogic is not None and self.grid.native
        solvers: dict = {}
        self.solvers = [solvers.setdefault(c, _line_solver(c, native)) for c in puzzle.rows + puzzle.cols]
        self.masks = self.grid.masks[:]  # an array for the C module, a list for Python
        self.passes = self.line_reads = self.sweeps = self.deductions = 0
        self.depths: list[int] = []

    def line_passes(self, lines: set[int], masks=None, limit: Optional[int] = None) -> int:
        """Passes until no line changes (or ``limit`` passes): each pass reads the lines the previous one touched.

        Works on the replay's masks (counted) or on ``masks`` (a trial, not
        counted); returns the number of passes. Contradiction when a line has
        no placement left.
        """
        H, W = self.grid.height, self.grid.width
        counted = masks is None
        masks = self.masks if masks is None else masks
        passes = 0
        while lines and (limit is None or passes < limit):
            self.deadline.check()
            passes += 1
            touched: set[int] = set()
            for line in sorted(lines):
                cells = self.grid.cells[line]
                current = [masks[i] for i in cells]
                narrowed = self.solvers[line](current)
                if narrowed is None:
                    raise Contradiction(passes)
                for cell, old, new in zip(cells, current, narrowed):
                    if old != new:
                        if not new:
                            raise Contradiction(passes)
                        masks[cell] = new
                        touched.add(H + cell % W if line < H else cell // W)
                if counted:
                    self.line_reads += 1
            lines = touched
        if counted:
            self.passes += passes
        return passes

    def sweep(self) -> bool:
        """One lookahead sweep: every value of every open cell followed through the lines.

        Values that lead to a contradiction are ruled out, all at once (each
        is a valid deduction on its own), then line passes resume. The depth
        of a sweep is the fewest passes any of its contradictions took: the
        easiest lookahead a person could have found at that moment.
        """
        H, W = self.grid.height, self.grid.width
        ruled_out: dict[int, int] = {}
        depth = None
        for cell in self.grid.undecided(self.masks):
            for value in _bits(self.masks[cell]):
                self.deadline.check()
                trial = self.masks[:]
                trial[cell] = value
                try:
                    self.grid.propagate(trial, (cell // W, H + cell % W), self.deadline)
                    continue
                except Contradiction:
                    ruled_out[cell] = ruled_out.get(cell, 0) | value
                if depth is None or depth > MIN_DEPTH:
                    depth = min(depth or 10**9, self._depth(cell, value, depth))
        if not ruled_out:
            return False
        self.sweeps += 1
        self.depths.append(depth)
        for cell, values in ruled_out.items():
            self.deductions += bin(values).count("1")
            self.masks[cell] &= ~values
        self.line_passes({c // W for c in ruled_out} | {H + c % W for c in ruled_out})
        return True

    def both_ways(self) -> bool:
        """When no value leads to a contradiction: what every value of a cell agrees on (the engine's probing).

        Reasoning over both branches at once is the hardest lookahead a
        person does; it counts as a sweep of depth :data:`BOTH_WAYS_DEPTH`.
        """
        before = self.masks[:]
        self.grid.probe(self.masks, self.deadline)
        changed = [i for i, (a, b) in enumerate(zip(before, self.masks)) if a != b]
        if not changed:
            return False
        self.sweeps += 1
        self.depths.append(BOTH_WAYS_DEPTH)
        self.deductions += len(changed)
        return True

    def _depth(self, cell: int, value: int, limit: Optional[int]) -> int:
        """Passes from assuming ``value`` in ``cell`` to the contradiction (at most ``limit``)."""
        H, W = self.grid.height, self.grid.width
        trial = self.masks[:]
        trial[cell] = value
        try:
            self.line_passes({cell // W, H + cell % W}, trial, limit)
        except Contradiction as exc:
            return int(exc.args[0])
        return limit or 10**9


def measure2d(puzzle: Puzzle, deadline: Optional[Deadline] = None, grid: Optional[Grid] = None) -> Measures:
    """Replay a human-style solve (see the module docstring); Contradiction if the clues admit none.

    Raises :class:`~nonogen.solve.deadline.Timeout` at the deadline.
    """
    replay = _Replay(puzzle, deadline or Deadline(None), grid)
    replay.line_passes(set(range(puzzle.height + puzzle.width)))
    search = False
    while replay.grid.undecided(replay.masks):
        if not replay.sweep() and not replay.both_ways():
            search = True
            break
    cells = puzzle.height * puzzle.width
    return Measures(
        cells=cells,
        passes=replay.passes,
        line_reads=replay.line_reads,
        sweeps=replay.sweeps,
        deductions=replay.deductions,
        depth=max(replay.depths, default=0),
        search=search,
    )


SWEEPS_PER_BAND = 12
"""Lookahead moments that weigh as much as one more step of depth."""


def score(m: Measures) -> float:
    """The numeric difficulty, 1.0 to 5.0; no measure can lower it by growing.

    ============  ==============================================================
    score         what the solve needed
    ============  ==============================================================
    1.00 - 1.99   line logic only; higher for longer chains of passes for the size
    2.00 - 2.99   lookahead that meets a contradiction within 2-3 passes
    3.00 - 3.99   lookahead of 4-5 passes, or 13+ separate lookahead moments
    4.00 - 4.99   lookahead of 6+ passes, or 25+ moments
    5.00          lookahead ran dry: only search (guessing) goes on
    ============  ==============================================================

    Within a band the score rises with the lookahead moments and the chain
    length; every band starts above the highest score of the band below.
    """
    if m.search:
        return 5.0
    chains = min(1.0, m.passes / (2.0 * math.sqrt(m.cells) + 8.0))
    if not m.sweeps:
        return round(1.0 + 0.99 * chains, 2)
    band = 2 if m.depth <= 3 else 3 if m.depth <= 5 else 4
    band += (m.sweeps - 1) // SWEEPS_PER_BAND
    if band >= 5:
        return 4.99
    within = 0.5 * ((m.sweeps - 1) % SWEEPS_PER_BAND) / SWEEPS_PER_BAND + 0.49 * chains
    return round(band + within, 2)


def grade_of_score(value: float) -> int:
    """The grade 1-5 of a score."""
    return max(1, min(5, int(math.floor(value))))


def grade2d(puzzle: Puzzle, deadline: Optional[Deadline] = None, grid: Optional[Grid] = None) -> Grade:
    """The grade of a 2D puzzle (Contradiction when it has no solution, Timeout at the deadline).

    ``grid`` lends the engine's line cache when it belongs to ``puzzle``; the grade is the same without it.
    """
    m = measure2d(puzzle, deadline, grid)
    value = score(m)
    grade = grade_of_score(value)
    return Grade(grade, GRADE_NAMES[grade], value, m)


def rate(result: VerifyResult, puzzle: Puzzle, deadline: Deadline, grid: Optional[Grid] = None) -> VerifyResult:
    """Fill in the grade of a verified 2D puzzle: 5 when search is needed (or it has several solutions).

    Unsolvable and undecided puzzles, and a replay cut off by the deadline, stay ungraded.
    """
    if result.status == "multiple" or (result.status == "unique" and result.difficulty == "search"):
        result.grade, result.grade_name, result.score = 5, GRADE_NAMES[5], 5.0
    elif result.status == "unique":
        try:
            g = grade2d(puzzle, deadline, grid)
        except Timeout:
            result.stats["grade"] = "not rated within the time limit"
            return result
        result.grade, result.grade_name, result.score = g.grade, g.name, g.score
        result.stats["grade_measures"] = asdict(g.measures)
    return result


# --- Picross 3D ----------------------------------------------------------------------------------


def line_passes3d(puzzle: Puzzle3D, deadline: Optional[Deadline] = None) -> tuple[int, bool]:
    """Synchronous line passes over a level's shown clues: (passes, whether they solve it).

    As in 2D, a pass reads the lines whose cells the pass before changed.
    """
    from .line3d import LineIndex3D

    return LineIndex3D(puzzle).passes(puzzle.givens, deadline=deadline)


PASSES_PER_GRADE_3D = 3
"""Line passes that make one grade of a Picross 3D level (2 passes: grade 1.0)."""


def score3d(passes: int, solved: bool) -> float:
    """The numeric difficulty of a Picross 3D level, 1.0 to 5.0 (see :func:`rate3d`).

    Line logic alone scores 1.00-3.99 by the length of its chains: every
    :data:`PASSES_PER_GRADE_3D` passes beyond the first two add a grade. A
    level line logic does not finish is 5 (nonogen does not replay
    lookahead in 3D, so it cannot tell lookahead from search there).

    >>> score3d(2, True), score3d(6, True), score3d(40, True), score3d(2, False)
    (1.0, 2.33, 3.99, 5.0)
    """
    if not solved:
        return 5.0
    return round(1.0 + min(2.99, max(0, passes - 2) / PASSES_PER_GRADE_3D), 2)


def rate3d(result: VerifyResult, puzzle: Puzzle3D, deadline: Deadline, lines=None, hidden=()) -> VerifyResult:
    """Fill in the grade of a verified Picross 3D level (unique ones by their line passes, several solutions 5).

    ``lines`` lends the level's :class:`~nonogen.solve.line3d.LineIndex3D` when one is at hand (with the
    ``hidden`` lines it does not read); the grade is the same without it.
    """
    if result.status == "multiple":
        result.grade, result.grade_name, result.score = 5, GRADE_NAMES[5], 5.0
    elif result.status == "unique":
        try:
            if lines is None:
                passes, solved = line_passes3d(puzzle, deadline)
            else:
                passes, solved = lines.passes(puzzle.givens, hidden=set(hidden), deadline=deadline)
        except Timeout:
            result.stats["grade"] = "not rated within the time limit"
            return result
        value = score3d(passes, solved)
        grade = grade_of_score(value)
        result.grade, result.grade_name, result.score = grade, GRADE_NAMES[grade], value
        result.stats["grade_measures"] = {"passes": passes, "line_solvable": solved}
    return result
