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

from ..clues3d import LineRef, all_lines, clue_at, line_clue_3d, with_clues
from ..errors import OptionError
from ..model3d import Puzzle3D
from ..solve.cnf3d import Encoder, encode
from ..solve.deadline import Clock
from ..solve.grade import grade_of_score
from ..solve.grade3d import score3d
from ..solve.line3d import LineIndex3D
from ..solve.sat import new_solver
from ..solve.verify3d import check_size

if TYPE_CHECKING:
    from ..solve.sat import Solver

__all__ = ["HideResult", "check_share", "hide_clues", "hide_to_grade"]

PHASES = True
RIVAL_GUESSES = 12
"""Cells tried against the goal, one at a time, for a second solution before the solver is asked."""
RIVAL_RUNS = 100
"""Line-logic runs the search for a second solution may spend on one clue before the solver is asked. With 6 cells
and 40 runs the knot at 40 cubes (quadknot.obj) still asked the solver 5 times, each answer a rival, and building
the solver (6.7 million clauses) cost 7 s; with 12 and 100 line logic finds those rivals too, and the bunny and the
torus at 40, whose solver questions have no rival, take no longer (a run costs about a millisecond)."""


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
    trace = _LineTrace(lines or LineIndex3D(puzzle), puzzle) if line_solvable or incremental else None
    if trace is not None and line_solvable:
        for k, ln in enumerate(order):
            if len(hidden) >= limit or clock.deadline.expired() or not trace.solved:
                break
            report(k, total)
            if trace.hide(ln):
                hidden[ln] = None
    elif trace is not None:
        _hide_incremental(puzzle, goal, order, limit, hidden, clock, report, trace)
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
    if trace is not None and not line_solvable:
        stats["rivals_found"] = trace.rivals  # clues kept without a solver call
    stats["seconds"] = round(time.monotonic() - start, 4)
    return HideResult(with_clues(puzzle, shown), len(hidden), total, stats, list(hidden))


class _LineTrace:
    """Line logic that solves the level, kept between hiding steps: hiding a clue re-reads only what it changes.

    The trace lists every cell line logic decided, in order, with the line
    that decided it. A line that decided nothing can go without any work:
    the same reads minus its no-op ones still end at the solution. Otherwise
    its clue is taken back (:meth:`LineIndex3D.retract`): what it decided,
    and what was decided later from a line it had touched, is undecided, and
    line logic resumes from the lines that lost a cell. The rest still follows
    without the clue, so only what depended on it is redone (on the 40-cube
    bunny, a quarter of the line reads of resuming from the cells decided before
    its first decision). The verdicts are those of a fresh fixpoint per step.
    """

    def __init__(self, lines: LineIndex3D, puzzle: Puzzle3D):
        self.lines = lines
        self.start = lines.start_grid(puzzle.givens)
        self.active = lines.active()
        self.trace = (np.empty(lines.n_cells, dtype=np.int32), np.empty(lines.n_cells, dtype=np.int32))
        self.goal = np.asarray(puzzle.goal, dtype=np.int8).ravel()  # the box line logic reaches while it solves
        self.stuck: Optional[tuple[int, np.ndarray]] = None  # a clue line logic cannot do without, and where it stuck
        self.rivals = 0  # clues kept because rival_without found a second solution (no solver call)
        done = lines.run(self.start.copy(), self.active, trace=self.trace)
        self.solved = done.status == 1
        self._note(done.trace_len)

    def _note(self, length: int) -> None:
        self.length = length
        self.used = np.zeros(len(self.lines.refs), dtype=bool)  # the lines that decided a cell
        self.used[self.trace[1][:length]] = True

    def hide(self, line: LineRef) -> bool:
        """Hide ``line``'s clue if line logic still solves the level without it (and say whether it did)."""
        k = self.lines.number[line]
        self.active[k] = 0
        if not self.used[k]:
            return True
        grid = self.goal.copy()
        attempt = (self.trace[0].copy(), self.trace[1].copy())
        kept, unsettled = self.lines.retract(k, self.active, grid, attempt, self.length)
        done = self.lines.run(grid, self.active, start=unsettled, trace=attempt, trace_len=kept)
        if done.status != 1:
            self.active[k] = 1
            self.stuck = (k, grid)
            return False
        self.trace = attempt
        self._note(done.trace_len)
        return True

    def solves_without(self, line: LineRef) -> bool:
        """Whether line logic from the givens solves the level on the shown clues but ``line``'s (a fresh fixpoint:
        once a clue is hidden that line logic cannot do without, there is no solving trace to take it back from).
        When it does not, where it stuck is kept for :meth:`rival_without` and :meth:`known_without`."""
        k = self.lines.number[line]
        self.active[k] = 0
        grid = self.start.copy()
        done = self.lines.run(grid, self.active)
        self.active[k] = 1
        self.stuck = None if done.status == 1 else (k, grid)
        return done.status == 1

    def forget(self, line: LineRef) -> None:
        """``line``'s clue is hidden for good: line logic goes on without it."""
        self.active[self.lines.number[line]] = 0

    def known_without(self, line: LineRef) -> list[int]:
        """The cubes line logic decides without ``line``'s clue (where :meth:`hide` or :meth:`solves_without` stuck
        on it last), as literals of the solver's cube variables: every solution of the shown clues but that one has
        them, so a solver told them searches only the rest (0.7 s instead of 21.7 s for the first question of the
        40-cube torus, whose line logic left 42 cubes open)."""
        if self.stuck is None or self.stuck[0] != self.lines.number[line]:
            return []
        grid = self.stuck[1]
        known = np.flatnonzero(grid >= 0)
        return np.where(grid[known] == 1, known + 1, -(known + 1)).tolist()

    def rival_without(self, line: LineRef) -> Optional[np.ndarray]:
        """A second solution (the flat box) of the shown clues but ``line``'s, or ``None`` when none turned up.

        It is searched from where line logic got stuck after :meth:`hide`
        refused the clue: one open cube set against the goal (the line's own
        first), then line logic, setting further open cubes as in the goal
        first (depth first, at most :data:`RIVAL_RUNS` runs).

        A rival is usually a small change of the goal next to the hidden
        line, so the first guess or two find it; each costs one C line-logic
        run instead of a SAT call (20 ms on the 20-cube bunny). Only a rival
        checked against every shown clue counts, so the hiding keeps exactly
        the clues the solver would keep; when no guess finds one, the solver
        is asked.
        """
        k = self.lines.number[line]
        if self.stuck is None or self.stuck[0] != k:
            return None
        stuck = self.stuck[1]
        own = self.lines.line_cells[self.lines.line_start[k] : self.lines.line_start[k + 1]]
        open_own = own[stuck[own] < 0]
        others = np.flatnonzero(stuck < 0)
        guesses = np.concatenate([open_own, others[~np.isin(others, open_own)]])[:RIVAL_GUESSES]
        self.active[k] = 0
        budget = [RIVAL_RUNS]
        try:
            for cell in guesses.tolist():
                grid = stuck.copy()
                grid[cell] = 1 - self.goal[cell]
                if self._complete(grid, cell, budget):
                    return grid
                if budget[0] <= 0:
                    break
            return None
        finally:
            self.active[k] = 1

    def _complete(self, grid: np.ndarray, cell: int, budget: list[int]) -> bool:
        """Whether line logic from ``grid`` (``cell`` just set; filled in place), with further open cells set as
        in the goal first, fills the box into a solution of the shown clues, within ``budget`` line-logic runs."""
        budget[0] -= 1
        through = self.lines.cell_lines[self.lines.cell_start[cell] : self.lines.cell_start[cell + 1]]
        status = self.lines.run(grid, self.active, start=through).status
        if status == 1:
            return self._meets_clues(grid)
        if status < 0 or budget[0] <= 0:
            return False
        nxt = int(np.argmax(grid < 0))
        for value in (self.goal[nxt], 1 - self.goal[nxt]):  # the goal's value first: rivals are near it
            attempt = grid.copy()
            attempt[nxt] = value
            if self._complete(attempt, nxt, budget):
                grid[:] = attempt
                return True
            if budget[0] <= 0:
                return False
        return False

    def _meets_clues(self, box: np.ndarray) -> bool:
        """Whether ``box`` (flat, 0/1) has every shown line's count and groups: the proof that it is a solution.

        Only the lines through a cube where it differs from the goal are read: every other line is the goal's.
        """
        lines = self.lines
        differ = np.flatnonzero(box != self.goal)
        through = np.unique(np.concatenate([lines.cell_lines[lines.cell_start[c] : lines.cell_start[c + 1]]
                                            for c in differ.tolist()] or [np.zeros(0, np.int32)]))
        for k in through[self.active[through] == 1].tolist():
            values = box[lines.line_cells[lines.line_start[k] : lines.line_start[k + 1]]] == 1
            if line_clue_3d(values) != (lines.count[k], lines.groups[k]):
                return False
        return True


def _hide_incremental(
    puzzle: Puzzle3D, goal: np.ndarray, order: list[LineRef], limit: int, hidden: dict, clock: Clock,
    report: Callable[[int, int], None], trace: _LineTrace,
) -> None:
    """Line logic first (:class:`_LineTrace`), then one solver, one activation literal per line.

    A clue line logic can do without is hidden with no solver call
    (line-solvable implies unique: the solver would say the same), and a
    clue it finds a second solution without is kept; the solver is asked
    only the other questions, told the cubes line logic decides without the
    clue (they hold in every solution of the other clues). Line logic keeps
    answering once the solver has hidden a clue it could not do without,
    from a fresh fixpoint per clue (the trace it took clues back from no
    longer solves the level): on the 40-cube torus, 57 solver questions
    instead of 185, and 14 s for the level instead of 54 s.
    """
    with _HidingSolver(puzzle, goal, order, clock) as solver:
        for k, ln in enumerate(order):
            if len(hidden) >= limit:
                break
            report(k, len(order))
            if trace.hide(ln) if trace.solved else trace.solves_without(ln):  # line logic still solves it
                hidden[ln] = None
                solver.decide(ln, shown=False)
                trace.forget(ln)
                continue
            if trace.rival_without(ln) is not None:  # a checked second solution: the clue stays
                solver.decide(ln, shown=True)
                trace.rivals += 1
                continue
            found = solver.rival(ln, order[k + 1 :], trace.known_without(ln))
            if found is False:
                hidden[ln] = None
                solver.decide(ln, shown=False)
                trace.forget(ln)
                trace.solved = False  # unique, but line logic no longer solves it
            else:  # a rival solution without this clue, or out of time: keep it
                solver.decide(ln, shown=True)
                if found is None:
                    break


class _HidingSolver:
    """The incremental solver of the hiding, built on its first question: line logic often answers them all.

    Each clue's line is guarded by an activation literal; a decided clue
    becomes a unit clause (shown or hidden), and a question assumes every
    clue not yet decided shown. Building it for the 30-cube bunny (2 million
    clauses) took 3 s that bought nothing once line logic answered every
    question.
    """

    def __init__(self, puzzle: Puzzle3D, goal: np.ndarray, order: list[LineRef], clock: Clock):
        self.puzzle, self.goal, self.order, self.clock = puzzle, goal, order, clock
        self.decided: list[tuple[LineRef, bool]] = []
        self.solver: Optional[Solver] = None
        self.guard: dict[LineRef, int] = {}

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
        (``None``: out of time); ``known``: cube literals those clues imply (line logic's), assumed."""
        if self.solver is None:
            self._build()
        return self.clock.solve(self.solver, [self.guard[o] for o in undecided] + [-self.guard[line], *known])

    def _build(self) -> None:
        enc = Encoder(self.puzzle.size)
        for ln in self.order:
            self.guard[ln] = enc.new_var()
            clue = clue_at(self.puzzle, ln)
            assert clue is not None  # the order holds the lines with a clue
            enc.add_line(ln, clue, self.guard[ln])
        for x, y, z, v in self.puzzle.givens:
            enc.add_clause([enc.cell_lit(x, y, z, v)])
        enc.add_clause(enc.block(self.goal))
        enc.add_units(np.array([self.guard[ln] if shown else -self.guard[ln] for ln, shown in self.decided],
                               dtype=np.int64))
        self.solver = new_solver("hiding", enc.clauses)
        if PHASES:  # rivals are usually small changes of the goal: start the search there
            self.solver.set_phases((np.where(self.goal.ravel(), 1, -1) * np.arange(1, self.goal.size + 1)).tolist())
        self.decided = []


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
