"""Hiding Picross 3D clues: as many as possible (or a share, or a grade) while the level stays unique.

Greedy in a seeded order. Line logic answers first: a clue it can do without
goes, and a clue whose absence lets a few guesses finish into a second
solution stays. Only the rest is asked of one incremental solver with one
activation literal per line; with ``line_solvable`` no solver is needed,
since a level line logic solves is unique.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Optional, Sequence

import numpy as np

from ..clues3d import LineRef, all_lines, clue_at, line_cells, with_clues
from ..errors import OptionError
from ..model3d import Puzzle3D
from ..solve.cnf3d import Encoder, encode
from ..solve.deadline import Clock
from ..solve.grade import grade_of_score
from ..solve.grade3d import score3d
from ..solve.line3d import LineIndex3D
from ..solve.sat import new_solver
from ..solve.verify3d import check_size
from .trace3d import LineTrace

if TYPE_CHECKING:
    from ..solve.sat import Solver

__all__ = ["HideResult", "check_share", "hide_clues", "hide_to_grade"]

PHASES = True
SEARCH_READS = 5_000
"""Line reads the search for a second solution (or the proof there is none) may spend on one clue before the solver
is asked (:meth:`LineTrace.search_without`)."""
SEARCH_PER_CUBE = 100
"""Line reads all the searches of a level may spend, a cube of the box (see :class:`_Work`)."""
SOLVER_PER_CUBE = 400
"""Work the solver may do for a level, a cube of the box: propagations, and :data:`CLAUSE_WORK` a clause it reads."""
CLAUSE_WORK = 10
"""A clause read into the solver, in propagations: python-sat takes one about as long as ten (0.7 and 0.07 us)."""
SMALL_BOX = 4096
"""A level of fewer cubes gets the budgets of this many: small levels keep the solver's exact answers."""


@dataclass
class HideResult:
    """The level after hiding, how many clues went, and what the solver spent."""

    puzzle: Puzzle3D
    hidden: int
    total: int
    stats: dict
    sequence: list = field(default_factory=list)
    """The hidden lines in the order they were hidden: hiding only the first ``k`` keeps the level unique."""

    @property
    def share(self) -> float:
        return self.hidden / self.total if self.total else 0.0


def check_share(fraction: Optional[float]) -> None:
    """Refuse a share of clues to hide outside 0..1 (``None``, as many as possible, is fine)."""
    if fraction is not None and not 0.0 <= fraction <= 1.0:
        raise OptionError("hide", fraction, "a share between 0 and 1")


def hide_clues(
    puzzle: Puzzle3D,
    *,
    fraction: Optional[float] = None,
    seed: int = 0,
    line_solvable: bool = False,
    incremental: bool = True,
    timeout: Optional[float] = 600.0,
    on_progress: Optional[Callable[[int, int], None]] = None,
    lines: Optional[LineIndex3D] = None,
) -> HideResult:
    """Remove clues greedily in a seeded order while the goal stays the only solution.

    ``puzzle`` must be unique (with its goal and givens). ``fraction`` stops
    once that share of clues is hidden. ``line_solvable`` hides a clue only
    if line logic still solves the level (no solver needed: line-solvable
    implies unique). ``incremental=False`` rebuilds a fresh solver for every
    check: the benchmark's baseline. A timeout keeps the clues decided so far.
    ``on_progress(done, total)`` hears of each clue decided (a big level
    takes minutes). ``lines`` lends the level's line index (built here when not given).
    """
    check_size(puzzle.size)
    check_share(fraction)
    goal = np.asarray(puzzle.goal, dtype=bool)
    order = [ln for ln in all_lines(puzzle.size) if clue_at(puzzle, ln) is not None]
    total = len(order)
    random.Random(seed).shuffle(order)
    limit = total if fraction is None else int(np.floor(fraction * total + 1e-9))
    clock = Clock(timeout)
    report = on_progress or (lambda done, total: None)
    hidden: dict[LineRef, None] = {}  # an ordered set: the order clues were hidden in
    start = time.monotonic()
    shown = lambda ln: ln not in hidden  # noqa: E731
    trace = LineTrace(lines or LineIndex3D(puzzle), puzzle) if line_solvable or incremental else None
    work = _Work(int(np.prod(puzzle.size)))
    if trace is not None and line_solvable:
        for k, ln in enumerate(order):
            if len(hidden) >= limit or clock.deadline.expired() or not trace.solved:
                break
            report(k, total)
            if trace.hide(ln):
                hidden[ln] = None
    elif trace is not None:
        _hide_incremental(puzzle, goal, order, limit, hidden, clock, report, trace, work)
    else:
        for k, ln in enumerate(order):
            if len(hidden) >= limit:
                break
            report(k, total)
            hidden[ln] = None
            enc = encode(with_clues(puzzle, shown))
            with new_solver("box", enc.clauses) as solver:
                solver.add_clause(enc.block(goal))
                if clock.solve(solver) is not False:
                    hidden.pop(ln, None)
    report(total, total)
    stats = clock.stats()
    if trace is not None:
        stats["line_reads"] = trace.line_reads  # line logic's work of hiding, taking clues back
    if trace is not None and not line_solvable:
        stats["rivals_found"] = trace.rivals  # clues kept without a solver call
        stats.update(search_reads=trace.search_reads, solver_work=work.solver_spent, undecided=work.undecided)
    stats["seconds"] = round(time.monotonic() - start, 4)
    return HideResult(with_clues(puzzle, shown), len(hidden), total, stats, list(hidden))


class _Work:
    """What a level's hiding may spend beyond taking clues back, counted so that a level is the same on every machine.

    Line logic takes each clue back from its trace (:class:`LineTrace`), and
    that work grows about with the cubes. What grew faster was the rest:
    questions line logic leaves open, each asked of a solver over the whole
    box. A level's questions grow with its clues, and each answer cost a pass
    over millions of clauses: the 40-cube ``reference.obj`` of trimesh asked
    431 of them (42 s), where it asked 1 at 30 cubes (1.6 s); a 30-cube blob
    (trimesh's ``soup.stl``) had not finished after 16 minutes. So searching
    and the solver have a budget in proportion to the cubes, in line reads
    (:data:`SEARCH_PER_CUBE`) and in solver work (:data:`SOLVER_PER_CUBE`:
    clauses read and propagations made, both counted by the solver). A
    question neither can settle once they are spent keeps its clue: the
    level stays unique, with that clue more shown. No level of the benchmark
    comes near either budget.
    """

    def __init__(self, cubes: int):
        cubes = max(cubes, SMALL_BOX)
        self.search = SEARCH_PER_CUBE * cubes  # line reads left for searching
        self.solver = SOLVER_PER_CUBE * cubes  # solver work left
        self.solver_spent = 0
        self.undecided = 0  # clues kept because the budgets were spent

    def spend_solver(self, amount: int) -> None:
        self.solver -= amount
        self.solver_spent += amount


def _hide_incremental(
    puzzle: Puzzle3D, goal: np.ndarray, order: list[LineRef], limit: int, hidden: dict, clock: Clock,
    report: Callable[[int, int], None], trace: LineTrace, work: _Work,
) -> None:
    """Line logic first (:class:`LineTrace`), then one solver, one activation literal per line.

    A clue line logic can do without is hidden with no solver call
    (line-solvable implies unique: the solver would say the same). Where
    line logic gets stuck without the clue, a search from there finds a
    second solution (the clue stays) or proves there is none (it goes); the
    solver is asked only what the search leaves open, told the cubes known
    without the clue (they hold in every solution of the other clues). Line
    logic keeps answering once a clue it needed is hidden, from the fixpoint
    without it: the 40-cube torus asks the solver nothing, where it asked 57
    questions (9 s of its 13.6).
    """
    with _HidingSolver(puzzle, goal, order, clock, work) as solver:
        for k, ln in enumerate(order):
            if len(hidden) >= limit:
                break
            report(k, len(order))
            if trace.hide(ln):  # line logic still solves it
                hidden[ln] = None
                solver.decide(ln, shown=False)
                continue
            before = trace.search_reads
            share = 2 * work.search // (len(order) - k)  # twice an even share of what is left: none starves
            found = trace.search_without(ln, min(SEARCH_READS, share)) if share > 0 else None
            work.search -= trace.search_reads - before
            if found is None and work.solver > 0:  # undecided: the solver is asked
                found = solver.rival(ln, order[k + 1 :], trace.known_without(ln))
            elif found:
                trace.rivals += 1  # a checked second solution, no solver call
            if found is False:
                hidden[ln] = None
                solver.decide(ln, shown=False)
                trace.forget(ln)  # unique, but line logic no longer solves it
            else:  # a rival solution without this clue, or undecided: keep it
                solver.decide(ln, shown=True)
                if found is None and clock.deadline.expired():
                    break
                work.undecided += found is None


class _HidingSolver:
    """The incremental solver of the hiding, built on its first question: line logic often answers them all.

    Each clue's line is guarded by an activation literal; a decided clue
    becomes a unit clause (shown or hidden), and a question assumes every
    clue not yet decided shown. Building it for the 30-cube bunny (2 million
    clauses) took 3 s that bought nothing once line logic answered every
    question. It spends from the level's :class:`_Work`: it is not built when
    its clauses would not fit, and a question stops once the work is spent.
    """

    def __init__(self, puzzle: Puzzle3D, goal: np.ndarray, order: list[LineRef], clock: Clock, work: _Work):
        self.puzzle, self.goal, self.order, self.clock, self.work = puzzle, goal, order, clock, work
        self.decided: list[tuple[LineRef, bool]] = []
        self.solver: Optional[Solver] = None
        self.guard: dict[LineRef, int] = {}  # true: the line's clue is shown
        self.asked: dict[LineRef, int] = {}  # true: some cube of the line is off the goal

    def __enter__(self) -> "_HidingSolver":
        return self

    def __exit__(self, *exc) -> None:
        if self.solver is not None:
            self.solver.delete()

    def decide(self, line: LineRef, shown: bool) -> None:
        if self.solver is None:
            self.decided.append((line, shown))
        else:
            self.solver.add_clause([self.guard[line] if shown else -self.guard[line]])

    def rival(self, line: LineRef, undecided: list[LineRef], known: Sequence[int] = ()) -> Optional[bool]:
        """Whether a solution other than the goal meets the clues shown so far and ``undecided``, without ``line``'s
        (``None``: out of time or of work); ``known``: cube literals those clues imply (line logic's), assumed."""
        if self.work.solver <= 0 or (self.solver is None and not self._build()):
            return None
        assert self.solver is not None
        before = self.solver.accum_stats().get("propagations", 0)
        self.solver.prop_budget(max(1, self.work.solver))  # a limited call stops there: counted, not timed
        try:
            assumptions = [self.guard[o] for o in undecided] + [-self.guard[line], self.asked[line], *known]
            if self.clock.deadline.end is not None:
                return self.clock.solve(self.solver, assumptions)  # None: out of time or of propagations
            self.clock.calls += 1
            return self.solver.solve_limited(assumptions=assumptions)
        finally:
            self.solver.prop_budget(-1)
            self.work.spend_solver(self.solver.accum_stats().get("propagations", 0) - before)

    def _build(self) -> bool:
        """Make the solver, unless its clauses are more than the work left (then nothing is spent on it)."""
        enc = Encoder(self.puzzle.size)
        block = np.asarray(enc.block(self.goal))
        for ln in self.order:
            self.guard[ln], self.asked[ln] = enc.new_var(), enc.new_var()
            clue = clue_at(self.puzzle, ln)
            assert clue is not None  # the order holds the lines with a clue
            enc.add_line(ln, clue, self.guard[ln])
            enc.add_clause([-self.asked[ln], *block[line_cells(self.puzzle.size, ln)].tolist()])
        for x, y, z, v in self.puzzle.givens:
            enc.add_clause([enc.cell_lit(x, y, z, v)])
        enc.add_units(np.array([self.guard[ln] if shown else -self.guard[ln] for ln, shown in self.decided],
                               dtype=np.int64))
        size = CLAUSE_WORK * enc.n_clauses()
        if size > self.work.solver:
            self.work.solver = 0
            return False
        self.work.spend_solver(size)
        self.solver = new_solver("hiding", enc.clauses)
        if PHASES:  # rivals are usually small changes of the goal: start the search there
            self.solver.set_phases((np.where(self.goal.ravel(), 1, -1) * np.arange(1, self.goal.size + 1)).tolist())
        self.decided = []
        return True


def hide_to_grade(
    puzzle: Puzzle3D, hiding: HideResult, *, grade: int, notes: list, lines: Optional[LineIndex3D] = None
) -> HideResult:
    """Keep the longest prefix of the hidden clues whose level is still of the asked grade.

    Hiding more clues lengthens the chains line logic must follow, so the
    score grows (not strictly) along the prefix; a binary search finds the
    last prefix at or below the grade. When that is below (the grade lies
    beyond every prefix, or one more clue jumps past it), the closest level
    is kept and a note says why.
    """
    sequence = hiding.sequence
    lines = lines or LineIndex3D(puzzle)

    cells = int(np.prod(puzzle.size))

    def grade_at(k: int) -> int:
        passes, solved = lines.passes(puzzle.givens, hidden=set(sequence[:k]))[:2]
        return grade_of_score(score3d(passes, solved, cells))

    lo, hi = 0, len(sequence)  # the answer k: the largest with grade_at(k) <= grade
    if grade_at(0) > grade:
        notes.append(f"grade {grade} not reached: with every clue shown it is grade {grade_at(0)}")
        hi = 0
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if grade_at(mid) <= grade:
            lo = mid
        else:
            hi = mid - 1
    reached = grade_at(lo)
    if reached < grade:
        what = "line-solvable" if grade <= 3 else "unique"
        if lo == len(sequence):
            notes.append(f"grade {grade} not reached: with every clue hidden that keeps it {what}, "
                         f"it is grade {reached}")
        else:
            notes.append(f"grade {grade} not reached: hiding one clue more jumps past it")
    hidden = set(sequence[:lo])
    return HideResult(with_clues(puzzle, lambda ln: ln not in hidden), lo, hiding.total, hiding.stats, sequence[:lo])
