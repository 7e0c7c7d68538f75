"""A difficulty grade people understand (1 very easy ... 5 needs search), from how a person would solve it.

The grade replays the puzzle the way a careful human solver works, always
with the easiest reasoning that still makes progress:

1. **Overlap passes.** What a person sees on one line: the cells every
   placement of a block covers, between its leftmost and rightmost
   placement, and the cells no block reaches (pbnsolve's left-right overlap
   line solver). A pass reads the lines whose cells changed in the pass
   before; many passes mean long chains where each line unlocks the next.
2. **Hard line deductions.** When overlaps stall, a line where complete line
   logic (every placement at once) finds more: one at a time, the line that
   gives most, then overlap passes resume.
3. **Lookahead sweeps.** When no line says more, each value of each open
   cell is followed through the lines; a value that meets a contradiction is
   ruled out. The depth of a sweep is the passes its easiest contradiction
   took. When no value contradicts, what both values of a cell agree on.
4. **Search.** When lookahead finds nothing, only guessing goes on: grade 5.

:func:`score` turns the counts into grade points: size and work (line reads
per line, pbnsolve's work figure) add a fraction of a grade per doubling,
hard line deductions a little, needing lookahead a whole grade, more sweeps
and deeper ones more. The measures are counts of logical steps, never of
cache misses or seconds, so a puzzle always gets the same grade, and more of
any step never lowers the score.
"""
from __future__ import annotations

import math
from array import array
from collections import namedtuple
from functools import cached_property, partial
from itertools import compress, count
from operator import ne

from ..model import Puzzle
from .deadline import Deadline, Timeout
from .propagate import Contradiction, Grid, _bits, _end, _linelogic, open_count
from .result import VerifyResult

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Optional

__all__ = ["Grade", "Measures", "Replay", "GRADE_NAMES", "graded", "measure2d", "replay", "score", "grade_of_score",
           "rate"]

_KINDS = {ord("o"): "overlap", ord("h"): "hard line"}
"""The step kinds the C module's line logic (replay.c) reports, by their letters."""

GRADE_NAMES = {1: "very easy", 2: "easy", 3: "medium", 4: "hard", 5: "needs search"}

MIN_DEPTH = 2
"""The shallowest lookahead: the cell's row or column, read once more, meets the other (line logic is at a fixpoint)."""

DEEP = 6
"""Lookahead depth from which deductions all count as deep (their depth is not measured further)."""

BOTH_WAYS_DEPTH = 7
"""Depth given to deductions only the agreement of both branches finds (see :meth:`_Replay.both_ways`)."""


class Measures(namedtuple("Measures", "cells lines passes line_reads hard_lines sweeps deductions depth search")):
    """What a human-style solve of one puzzle took (see the module docstring).

    A named tuple, built by ``collections.namedtuple``: ``typing.NamedTuple`` would load typing on every verify.
    """

    __slots__ = ()

    cells: int
    lines: int  # rows and columns
    passes: int  # line passes in all: the length of the chains
    line_reads: int  # lines read in all passes
    hard_lines: int  # line deductions the overlap of the extreme placements does not make
    sweeps: int  # lookahead sweeps that found something
    deductions: int  # values ruled out by lookahead
    depth: int  # the deepest sweep: passes its easiest contradiction took (0: no lookahead)
    search: bool  # lookahead ran dry with cells still open


class Grade(namedtuple("Grade", "grade name score measures")):
    """A grade 1-5 with its name and the numeric score behind it (``grade == floor(score)``)."""

    __slots__ = ()

    grade: int
    name: str
    score: float
    measures: Measures

    def to_dict(self) -> dict:
        return {"grade": self.grade, "grade_name": self.name, "score": self.score, "measures": self.measures._asdict()}


def _line_readers(clue, native: bool):
    """``(complete, deductions)`` for one clue: complete line logic's masks, and those with the overlap rule's.

    ``deductions(domain)`` is ``(complete, overlap)`` or None; the C module
    works both out in one pass over the line.
    """
    if native:
        return partial(_linelogic.solve_line, clue), partial(_linelogic.deductions, clue)
    from .line import LineAutomaton, overlap, solve_line  # here: the C module reads the lines when it is built

    automaton = LineAutomaton(clue)
    complete = partial(solve_line, automaton)

    def deductions(domain):
        full = complete(domain)
        return None if full is None else (full, overlap(automaton, domain))

    return complete, deductions


class _Replay:
    """The human-style solve: overlap passes, hard line deductions, lookahead, over one puzzle's masks.

    Each pass, hard line deduction and sweep is a step; ``step`` records the one that fixed each cell
    (-1: none yet, or known from the start) and ``kinds`` the kind of each step that fixed any.
    """

    native_line_logic = True
    """Whether line logic runs in the C module (replay.c) when it is built; this class is its reference."""

    def __init__(self, puzzle: Puzzle, deadline: Deadline, grid: Optional[Grid] = None):
        self.grid = grid if grid is not None and grid.puzzle is puzzle else Grid(puzzle)
        self.deadline = deadline
        native = _linelogic is not None and self.grid.native
        self.masks = self.grid.masks[:]  # an array for the C module, a list for Python
        self.lines_c = self.grid.c_lines if native and self.native_line_logic else None
        self.passes = self.line_reads = self.hard_lines = self.sweeps = self.deductions = self.depth = 0
        self.hard: dict[int, int] = {}  # line -> cells complete logic finds there beyond the overlap
        self.step = array("i", [-1]) * len(self.masks)
        self.kinds = ["start"]
        self.fixed: list[int] = []  # cells the step under way has fixed

    @cached_property
    def _readers(self) -> tuple[list, list]:
        """Each line's :func:`_line_readers`, for the Python replay: made when first asked (the C replay never asks)."""
        clues = self.grid.puzzle.rows + self.grid.puzzle.cols
        readers = {c: _line_readers(c, _linelogic is not None and self.grid.native) for c in set(clues)}
        return [readers[c][0] for c in clues], [readers[c][1] for c in clues]

    def _close(self, kind: str) -> None:
        """End a step: when it fixed cells, it becomes the next step of ``kinds``."""
        if self.fixed:
            for cell in self.fixed:
                self.step[cell] = len(self.kinds)
            self.kinds.append(kind)
            self.fixed = []

    def _read(self, line: int) -> tuple[int, ...]:
        """The masks of ``line``'s cells (rows and columns are slices of the flat masks)."""
        return tuple(self.masks[self.grid.slices[line]])

    def _apply(self, line: int, current, narrowed, touched: set[int]) -> None:
        """Write ``narrowed`` over ``line`` and note the crossing lines of the cells that changed.

        The changed places are found by ``map``/``compress`` rather than a Python loop: lines
        of 500 cells made that loop a third of grading the stress puzzles.
        """
        if 0 in narrowed:
            raise Contradiction(0)
        changed = list(compress(count(), map(ne, current, narrowed)))
        if changed:
            self.masks[self.grid.slices[line]] = (array("I", narrowed) if isinstance(self.masks, array)
                                                  else list(narrowed))
            cross = self.grid.height if line < self.grid.height else 0  # a row's cell k lies on column k, and back
            touched.update(map(cross.__add__, changed))
            cells = self.grid.cells[line]
            self.fixed.extend(cells[k] for k in changed if not narrowed[k] & (narrowed[k] - 1))

    def overlap_passes(self, lines: set[int]) -> None:
        """Passes of the overlap rule until no line changes: each pass reads the lines the one before touched.

        A line where complete line logic would find more is remembered
        (with how many cells more) for :meth:`line_logic`.
        """
        while lines:
            self.deadline.check()
            self.passes += 1
            touched: set[int] = set()
            for line in sorted(lines):
                self.line_reads += 1
                current = self._read(line)
                found = self._readers[1][line](current)
                if found is None:
                    raise Contradiction(0)
                full, seen = found
                if full == current:
                    self.hard.pop(line, None)
                    continue
                gained = sum(map(ne, full, seen))
                if gained:
                    self.hard[line] = gained
                else:
                    self.hard.pop(line, None)
                self._apply(line, current, seen, touched)
            self._close("overlap")
            lines = touched

    def line_logic(self, lines: set[int]) -> None:
        """Overlap passes; when they stall, the hard line deduction that gives most, then overlap again."""
        if self.lines_c is not None:
            return self._line_logic_c(lines)
        self.overlap_passes(lines)
        while self.hard:
            line = max(self.hard, key=lambda ln: (self.hard[ln], -ln))
            del self.hard[line]
            current = self._read(line)
            touched: set[int] = set()
            narrowed = self._readers[0][line](current)
            if narrowed is None:
                raise Contradiction(0)
            self._apply(line, current, narrowed, touched)
            self._close("hard line")
            self.hard_lines += 1
            self.overlap_passes(touched | {line})

    def _line_logic_c(self, lines: set[int]) -> None:
        """:meth:`line_logic` in the C module: the same steps, counts and ``step``/``kinds``."""
        assert self.lines_c is not None  # line_logic calls this only with the C module
        status, passes, reads, hard, kinds = self.lines_c.replay_lines(
            self.masks, list(lines), self.step, len(self.kinds), _end(self.deadline))
        self.passes += passes
        self.line_reads += reads
        self.hard_lines += hard
        self.kinds.extend(map(_KINDS.__getitem__, kinds))
        if status == 1:
            raise Contradiction(0)
        if status == 2:
            raise Timeout()

    def sweep(self) -> bool:
        """One lookahead sweep: every value of every open cell followed through the lines.

        Values that lead to a contradiction are ruled out, all at once (each
        is a valid deduction on its own), then line logic resumes. The depth
        of a sweep is the fewest passes any of its contradictions took: the
        easiest lookahead a person could have found at that moment.
        """
        H, W = self.grid.height, self.grid.width
        ruled_out = self.grid.refutations(self.masks, self.deadline)
        if not ruled_out:
            return False
        depth = DEEP
        for cell, values in ruled_out.items():
            for value in _bits(values):
                if depth > MIN_DEPTH:
                    depth = min(depth, self._depth(cell, value, depth))
        self.sweeps += 1
        self.depth = max(self.depth, depth)
        for cell, values in ruled_out.items():
            self.deductions += bin(values).count("1")
            self.masks[cell] &= ~values
            if not self.masks[cell] & (self.masks[cell] - 1):
                self.fixed.append(cell)
        self._close("lookahead")
        self.line_logic({c // W for c in ruled_out} | {H + c % W for c in ruled_out})
        return True

    def both_ways(self) -> bool:
        """When no value leads to a contradiction: what every value of a cell agrees on (the engine's probing).

        Reasoning over both branches at once is the hardest lookahead a
        person does; it counts as a sweep of depth :data:`BOTH_WAYS_DEPTH`.
        """
        before = self.masks[:]
        self.grid.probe(self.masks, self.deadline)
        if before == self.masks:
            return False
        self.sweeps += 1
        self.deductions += sum(a != b for a, b in zip(before, self.masks, strict=True))
        self.depth = max(self.depth, BOTH_WAYS_DEPTH)
        self.fixed = [i for i, (a, b) in enumerate(zip(before, self.masks, strict=True)) if a != b and not b & (b - 1)]
        self._close("both ways")
        return True

    def _depth(self, cell: int, value: int, limit: int = DEEP) -> int:
        """Synchronous passes of line logic from assuming ``value`` in ``cell`` to its contradiction (at most
        ``limit``)."""
        if self.lines_c is not None:
            return self.lines_c.depth(self.masks, cell, value, limit)
        H, W = self.grid.height, self.grid.width
        trial = self.masks[:]
        trial[cell] = value
        lines = {cell // W, H + cell % W}
        slices, cells_of = self.grid.slices, self.grid.cells
        for passes in range(1, limit):
            touched: set[int] = set()
            for line in sorted(lines):  # ascending, as the C replay reads them: the order can move the depth
                current = trial[slices[line]]
                narrowed = self._readers[0][line](current)
                if narrowed is None:
                    return passes
                cells = cells_of[line]
                for k, (old, new) in enumerate(zip(current, narrowed, strict=True)):
                    if old != new:
                        trial[cells[k]] = new
                        touched.add(H + cells[k] % W if line < H else cells[k] // W)
            lines = touched
        return limit

    def run(self) -> Measures:
        """The whole solve: line logic, then lookahead while cells stay open (Contradiction, Timeout)."""
        self.line_logic(set(range(self.grid.height + self.grid.width)))
        search = False
        try:
            while open_count(self.masks):  # some cell still has two or more colours
                if not self.sweep() and not self.both_ways():
                    search = True
                    break
        finally:
            self.grid.forget_refutations()
        H, W = self.grid.height, self.grid.width
        return Measures(cells=H * W, lines=H + W, passes=self.passes, line_reads=self.line_reads,
                        hard_lines=self.hard_lines, sweeps=self.sweeps, deductions=self.deductions, depth=self.depth,
                        search=search)


def measure2d(puzzle: Puzzle, *, deadline: Optional[Deadline] = None, grid: Optional[Grid] = None) -> Measures:
    """Replay a human-style solve (see the module docstring); Contradiction if the clues admit none.

    Raises :class:`~nonogen.solve.deadline.Timeout` at the deadline.
    """
    return _Replay(puzzle, deadline or Deadline(None), grid).run()


class Replay(namedtuple("Replay", "kinds step measures")):
    """A careful human solve of a 2D puzzle, step by step: the steps the grade measures, for people to watch.

    ``kinds[k]`` names step ``k``: ``"start"`` (known before any reasoning:
    givens, empty lines), then ``"overlap"`` (an overlap pass), ``"hard
    line"`` (a hard line deduction), ``"lookahead"`` (a lookahead sweep) and
    ``"both ways"`` (what every value of a cell agrees on); a step that fixes
    no cell is left out. ``step[r][c]`` is the step that fixed cell ``(r, c)``,
    -1 if none did. ``measures`` are the grade's counts of the same solve,
    ``None`` when it was cut off (by the deadline, or clues with no solution).
    """

    __slots__ = ()

    kinds: list[str]
    step: list[list[int]]
    measures: Optional[Measures]

    def cells(self, k: int) -> list[tuple[int, int]]:
        """The cells step ``k`` fixed, in reading order."""
        return [(r, c) for r, row in enumerate(self.step) for c, s in enumerate(row) if s == k]

    def to_dict(self) -> dict:
        """``{"step": [[...]], "kinds": [...]}``: plain JSON, as the studio's page reads it."""
        return {"step": self.step, "kinds": self.kinds}


def replay(puzzle: Puzzle, *, deadline: Optional[Deadline] = None, grid: Optional[Grid] = None) -> Replay:
    """Which cells a careful solver fixes in which step: the grade's own solve, recorded (see :class:`Replay`).

    Cut off by the deadline or a contradiction, it shows how far the solver came.

    >>> shown = replay(Puzzle(rows=[[(2, 1)], [(1, 1)]], cols=[[(2, 1)], [(1, 1)]]))
    >>> shown.kinds, shown.step, shown.measures.passes
    (['start', 'overlap'], [[1, 1], [1, 1]], 2)
    """
    solve = _Replay(puzzle, deadline or Deadline(None), grid)
    try:
        measures: Optional[Measures] = solve.run()
    except (Timeout, Contradiction):
        measures = None
    start, W = solve.grid.masks, puzzle.width
    step = [0 if s < 0 and start[i] and not start[i] & (start[i] - 1) else s for i, s in enumerate(solve.step)]
    return Replay(solve.kinds, [step[r * W : (r + 1) * W] for r in range(puzzle.height)], measures)


# Grade points of each measure (see :func:`score`), calibrated on the shared collections so that no
# grade holds more than half of a collection's unique puzzles (scripts/bench_grade.py prints the spread).
SIZE_POINTS = 0.2  # per doubling of the cells beyond SIZE_BASE
SIZE_BASE = 100
WORK_POINTS = 0.4  # per doubling of the line reads per line beyond WORK_BASE
WORK_BASE = 3.0
HARD_POINTS = 0.1  # per doubling of 1 + the hard line deductions
LOOKAHEAD_POINTS = 1.0  # for needing lookahead at all
SWEEP_POINTS = 0.5  # per doubling of the lookahead sweeps
DEPTH_POINTS = 0.3  # per pass of depth beyond MIN_DEPTH


def score(m: Measures) -> float:
    """The numeric difficulty, 1.0 to 5.0: 1 plus grade points for each measure; 5 when search is needed.

    Every term grows with its measure and none can fall, so more of any step
    never lowers the score. Lookahead adds a whole grade at once; size and
    work add a fraction per doubling, so a big puzzle line logic solves can
    outrank a small one that needs a short lookahead. Below 5 the score stops
    at 4.99: only search makes a 5.

    >>> score(Measures(50, 15, 6, 47, 0, 0, 0, 0, False))  # webpbn #1, 10x5, overlaps only
    1.02
    >>> score(Measures(110, 21, 5, 59, 0, 1, 69, 2, False))  # webpbn #23, 11x10, one short lookahead
    2.02
    >>> score(Measures(3025, 110, 202, 2029, 30, 0, 0, 0, False))  # webpbn #7604, 55x55, long chains
    3.52
    """
    if m.search:
        return 5.0
    size = math.log2(max(1.0, m.cells / SIZE_BASE))
    work = math.log2(max(1.0, m.line_reads / max(1, m.lines) / WORK_BASE))
    value = 1.0 + SIZE_POINTS * size + WORK_POINTS * work + HARD_POINTS * math.log2(1 + m.hard_lines)
    if m.sweeps:
        value += LOOKAHEAD_POINTS + SWEEP_POINTS * math.log2(m.sweeps) + DEPTH_POINTS * max(0, m.depth - MIN_DEPTH)
    return math.floor(min(value, 4.99) * 100) / 100  # floored: the grade is the floor of the exact value


def grade_of_score(value: float) -> int:
    """The grade 1-5 of a score."""
    return max(1, min(5, int(math.floor(value))))


def graded(m: Measures) -> Grade:
    """The grade the measures of a replay (:func:`measure2d`, :func:`replay`) earn."""
    value = score(m)
    return Grade(grade_of_score(value), GRADE_NAMES[grade_of_score(value)], value, m)


def rate(
    result: VerifyResult, puzzle: Puzzle, *, deadline: Optional[Deadline] = None, grid: Optional[Grid] = None,
    measures: Optional[Measures] = None,
) -> VerifyResult:
    """Fill in the grade of a verified 2D puzzle: 5 when search is needed (or it has several solutions).

    Unsolvable and undecided puzzles, and a replay cut off by the deadline, stay ungraded. ``measures`` of a
    replay already made (the studio shows one) are graded as they are, instead of solving the puzzle again.
    """
    if result.status == "multiple" or (result.status == "unique" and result.difficulty == "search"):
        result.grade, result.grade_name, result.score = 5, GRADE_NAMES[5], 5.0
    elif result.status == "unique":
        try:
            g = graded(measure2d(puzzle, deadline=deadline, grid=grid) if measures is None else measures)
        except Timeout:
            result.stats["grade"] = "not rated within the time limit"
            return result
        result.grade, result.grade_name, result.score = g.grade, g.name, g.score
        result.stats["grade_measures"] = g.measures._asdict()
    return result
