"""Hiding Picross 3D clues: as many as possible (or a share, or a grade) while the level stays unique.

Greedy in a seeded order. Line logic answers first: a clue it can do without
goes (:mod:`~nonogen.make.trace3d`), and where it gets stuck without one, a
search from there finds a second solution (the clue stays) or proves there
is none (it goes). Only what the search leaves open is asked of a solver, on
the cubes still open. With ``line_solvable`` no solver is needed, since a
level line logic solves is unique.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np

from ..clues3d import LineRef, all_lines, clue_at, with_clues
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
"""A clause made and read into the solver, in propagations: python-sat takes one about as long as ten (0.7 and
0.07 us)."""
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
        _hide_incremental(order, limit, hidden, clock, report, trace, work)
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
    questions line logic leaves open, each asked of a solver. A level's
    questions grow with its clues, and each answer cost a pass over a CNF of
    the box: with the previous engine the 40-cube ``fixed_top.ply`` of
    trimesh asked 375 of them (13.5 s), ``octagonal_pocket.stl`` 264, and
    ``target.obj`` 73 (17 s). The search and the solver (on the residue, see
    :func:`_residue_rival`) answer most, but a residue can still be most of a
    thin plate. So searching and the solver have a budget in proportion to
    the cubes, in line reads (:data:`SEARCH_PER_CUBE`) and in solver work
    (:data:`SOLVER_PER_CUBE`: clauses made and propagations, both counted). A
    question neither settles within them keeps its clue: the level stays
    unique, with that clue more shown (28 of 1367 clues of the
    ``octagonal_pocket`` level, 20 of 1920 of ``fixed_top``'s). No row of the
    benchmark (bunny, torus, knot) comes near either budget.
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
    order: list[LineRef], limit: int, hidden: dict, clock: Clock, report: Callable[[int, int], None],
    trace: LineTrace, work: _Work,
) -> None:
    """Line logic first (:class:`LineTrace`), then a search, then a solver on what they leave open.

    A clue line logic can do without is hidden with no solver call
    (line-solvable implies unique: the solver would say the same). Where
    line logic gets stuck without the clue, a search from there finds a
    second solution (the clue stays) or proves there is none (it goes); the
    solver is asked only what the search leaves open, and only about the
    cubes still open (:func:`_residue_rival`). Line logic keeps answering
    once a clue it needed is hidden, from the fixpoint without it: the
    40-cube torus asks the solver nothing, where it asked 57 questions (9 s
    of its 13.6). Once the fixpoint no longer solves the level, line logic
    cannot do without any further clue (a clue fewer decides no more), so
    when the search and the solver have spent their budgets too, a clue
    stays without a question: taking it back and putting it again cost
    ``soup.stl`` at 30 cubes 63 of its 70 line reads a cube.
    """
    for k, ln in enumerate(order):
        if len(hidden) >= limit:
            break
        report(k, len(order))
        share = 2 * work.search // (len(order) - k)  # twice an even share of what is left: none starves
        if not trace.solved and share <= 0 and work.solver <= 0:  # see below
            if clock.deadline.expired():
                break
            work.undecided += 1
            continue
        if trace.hide(ln):  # line logic still solves it
            hidden[ln] = None
            continue
        before = trace.search_reads
        found = trace.search_without(ln, min(SEARCH_READS, share)) if share > 0 else None
        work.search -= trace.search_reads - before
        if found is None and work.solver > 0:  # undecided: the solver is asked
            found = _residue_rival(trace, ln, clock, work)
        elif found:
            trace.rivals += 1  # a checked second solution, no solver call
        if found is False:
            hidden[ln] = None
            trace.forget(ln)  # unique, but line logic no longer solves it
        elif found is None:  # undecided: the clue stays
            if clock.deadline.expired():
                break
            work.undecided += 1


def _residue_rival(trace: LineTrace, line: LineRef, clock: Clock, work: _Work) -> Optional[bool]:
    """Whether the shown clues but ``line``'s have a solution other than the goal (``None``: out of time or work).

    A solver of the residue only (:meth:`LineTrace.residue`): the shown
    lines with an open cube, the known cubes on them as unit clauses, and
    "some open cube of ``line`` is off the goal" (a second solution must
    differ from the goal on that line, or it would meet every shown clue).
    Every other line is the goal's whatever the open cubes are, so the
    answer is the whole box's. One solver over the whole box, kept between
    questions, read 6.7 million clauses on the 40-cube knot before its first
    answer (7 s), and each answer went over all of them; a residue is a few
    lines around the hidden one. It spends from the level's :class:`_Work`:
    a residue whose clauses do not fit in what is left is not built, and a
    search stops once the work is spent.
    """
    left = trace.residue(line)
    if left is None:
        return None
    grid, ks = left
    lines, goal = trace.lines, trace.goal
    k = lines.number[line]
    own = lines.line_cells[lines.line_start[k] : lines.line_start[k + 1]]
    own = own[grid[own] < 0]
    if own.size == 0:  # every cube of the line is known, so the goal's: a second solution would meet its clue
        return False
    enc = Encoder(lines.size)
    for j in ks.tolist():
        enc.add_line(lines.refs[j], (int(lines.count[j]), int(lines.groups[j])))
        if CLAUSE_WORK * enc.n_clauses() > work.solver:  # too big for what is left: undecided, what was made spent
            work.spend_solver(CLAUSE_WORK * enc.n_clauses())
            return None
    cells = np.unique(np.concatenate([own] + [lines.line_cells[lines.line_start[j] : lines.line_start[j + 1]]
                                              for j in ks.tolist()]))
    known = cells[grid[cells] >= 0]
    enc.add_units(np.where(grid[known] == 1, known + 1, -(known + 1)))
    enc.add_clause(np.where(goal[own] == 1, -(own + 1), own + 1).tolist())
    work.spend_solver(CLAUSE_WORK * enc.n_clauses())
    opened = cells[grid[cells] < 0]
    with new_solver("hiding", enc.clauses) as solver:
        if PHASES:  # rivals are usually small changes of the goal: start the search there
            solver.set_phases(np.where(goal[opened] == 1, opened + 1, -(opened + 1)).tolist())
        solver.prop_budget(max(1, work.solver))  # a limited call stops there: counted, not timed
        try:
            if clock.deadline.end is not None:
                return clock.solve(solver)  # None: out of time or of propagations
            clock.calls += 1
            return solver.solve_limited()
        finally:
            work.spend_solver(solver.accum_stats().get("propagations", 0))


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
