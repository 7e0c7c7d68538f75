"""Line logic for Picross 3D: complete single-line reasoning and its fixpoint over a box.

A person solves a level line by line; what line logic alone decides is the
"human-fair" part of a level, and a level it solves completely is unique.
"""
from __future__ import annotations

import copy
import heapq
import os
from functools import lru_cache
from typing import Collection, NamedTuple, Optional

import numpy as np

from ..clues3d import LineRef, all_lines, clue_at, line_cells
from ..model3d import Puzzle3D
from .deadline import Deadline

try:  # the C version of this module's line logic; optional (see pyproject.toml)
    from . import _line3d  # type: ignore[attr-defined]  # a C module: mypy reads no .so
except ImportError:  # pragma: no cover - built without a C compiler
    _line3d = None

__all__ = ["solve_line_3d", "LineIndex3D", "LinePasses", "LineRun", "line_fixpoint", "line_solve3d", "NATIVE"]

#: Whether line logic runs in C (``_line3d``). ``NONOGEN_PURE_PYTHON=1`` turns it off (the tests compare both).
NATIVE = _line3d is not None and not os.environ.get("NONOGEN_PURE_PYTHON")
NEVER = np.iinfo(np.int64).max
"""The time of a cell no line decided (see :meth:`LineIndex3D.retract`)."""


class LinePasses(NamedTuple):
    """What synchronous line passes over a level found: how many passes, whether they solve it, the line runs."""

    passes: int
    solved: bool
    runs: int
    cells: Optional[np.ndarray] = None
    """The box line logic reached (-1 undecided): the solution when ``solved``."""
    contradiction: bool = False
    """Some line has no completion: the level has no solution."""


class LineRun(NamedTuple):
    """One run of line logic: 1 solved, 0 stuck, -1 contradiction; line runs; passes; cells in the trace."""

    status: int
    runs: int
    passes: int
    trace_len: int


def _step(state: tuple[int, int, int], value: int, count: int, groups: int) -> Optional[tuple[int, int, int]]:
    c, k, last = state
    if not value:
        return (c, k, 0)
    c += 1
    k = min(3, k + (0 if last else 1))
    if c > count or (groups == 1 and k > 1) or (groups == 2 and k > 2):
        return None
    return (c, k, 1)


@lru_cache(maxsize=200_000)
def solve_line_3d(count: int, groups: int, known: tuple[int, ...]) -> Optional[tuple[int, ...]]:
    """Complete line logic for one Picross 3D line: every value some solution of the line allows.

    ``known`` holds -1 (unknown), 0 or 1 per cell; the result fixes each cell
    that has the same value in every completion, or is ``None`` when there is
    none. Dynamic programming over (cubes, groups so far, previous cell).

    >>> solve_line_3d(4, 1, (-1,) * 5)
    (-1, 1, 1, 1, -1)
    >>> solve_line_3d(3, 3, (-1,) * 5)
    (1, 0, 1, 0, 1)
    >>> solve_line_3d(2, 2, (1, 1, -1)) is None
    True
    """
    L = len(known)
    forward = [{(0, 0, 0)}]
    for i in range(L):
        options = (0, 1) if known[i] < 0 else (known[i],)
        nxt = set()
        for s in forward[-1]:
            for v in options:
                t = _step(s, v, count, groups)
                if t is not None:
                    nxt.add(t)
        forward.append(nxt)
    want = 0 if count == 0 else min(groups, 3)
    alive = {s for s in forward[L] if s[0] == count and (s[1] == want or (want == 3 and s[1] >= 3))}
    possible = [0] * L  # bit 1: value 0 possible, bit 2: value 1 possible
    for i in range(L - 1, -1, -1):
        options = (0, 1) if known[i] < 0 else (known[i],)
        keep = set()
        for s in forward[i]:
            for v in options:
                if _step(s, v, count, groups) in alive:
                    keep.add(s)
                    possible[i] |= 1 << v
        alive = keep
    if not alive:
        return None
    return tuple(-1 if p == 3 else (1 if p == 2 else 0) for p in possible)


class LineIndex3D:
    """A level's clued lines, indexed once as arrays: the cells of each line, its clue, the lines through each cell.

    Making a level asks line logic many questions about one box: is it
    solved with these givens, with these clues hidden, in how many passes.
    Each question would otherwise rebuild the same index (a 40-cube level
    has 4,800 lines); here it is built once per shape and the questions
    name what differs: the ``givens`` and the ``hidden`` lines. The arrays
    are what the C module reads (:meth:`run`).
    """

    def __init__(self, puzzle: Puzzle3D):
        self.size = tuple(puzzle.size)
        refs = [ln for ln in all_lines(self.size) if clue_at(puzzle, ln) is not None]
        self.refs: tuple[LineRef, ...] = tuple(refs)
        self.number = {ln: k for k, ln in enumerate(refs)}
        self.n_cells = int(np.prod(self.size))
        cells = [line_cells(self.size, ln) for ln in refs]
        lengths = np.array([len(c) for c in cells], dtype=np.int32)
        self.line_start = np.zeros(len(refs) + 1, dtype=np.int32)
        np.cumsum(lengths, out=self.line_start[1:])
        self.line_cells = (np.concatenate(cells) if cells else np.zeros(0)).astype(np.int32)
        clues = np.array([clue_at(puzzle, ln) for ln in refs], dtype=np.int32).reshape(-1, 2)
        self.count, self.groups = np.ascontiguousarray(clues[:, 0]), np.ascontiguousarray(clues[:, 1])
        owner = np.repeat(np.arange(len(refs), dtype=np.int32), lengths)
        order = np.argsort(self.line_cells, kind="stable")  # by cell, then by line
        self.cell_lines = owner[order].astype(np.int32)
        self.cell_start = np.zeros(self.n_cells + 1, dtype=np.int32)
        np.cumsum(np.bincount(self.line_cells, minlength=self.n_cells), out=self.cell_start[1:])
        self.box = (self.line_start, self.line_cells, self.count, self.groups, self.cell_start, self.cell_lines)
        self._memo: Optional[np.ndarray] = None
        self._work: Optional[tuple[np.ndarray, np.ndarray, np.ndarray]] = None

    def with_clues(self, puzzle: Puzzle3D) -> "LineIndex3D":
        """The index of ``puzzle``, a level of the same box with the same lines clued: the cells and lines shared,
        only the clues read again (the 3D editor asks about a level after each one-cube edit, which changes three
        clues; building the index took 10 ms of a 20-cube level's 30 ms answer). A fresh memo: a line's clue may
        have changed."""
        if tuple(puzzle.size) != self.size or puzzle.n_lines != len(self.refs):
            return LineIndex3D(puzzle)
        clues = [clue_at(puzzle, ln) for ln in self.refs]
        if any(clue is None for clue in clues):
            return LineIndex3D(puzzle)
        other = copy.copy(self)
        table = np.array(clues, dtype=np.int32).reshape(-1, 2)
        other.count, other.groups = np.ascontiguousarray(table[:, 0]), np.ascontiguousarray(table[:, 1])
        other.box = (self.line_start, self.line_cells, other.count, other.groups, self.cell_start, self.cell_lines)
        other._memo = other._work = None
        return other

    def memo(self) -> np.ndarray:
        """The C line solver's memory of this box's lines, made on first use and kept for every later run.

        Hiding the clues of a 40-cube level resumes line logic thousands of
        times from what the last answer keeps, reading lines in states they
        were read in before: remembered, such a read costs a look-up instead
        of its dynamic programme. About 64 slots a line, at most 2**18 (19 MB,
        its pages touched only as slots are used): on the 40-cube knot, whose
        hiding reads 42 million lines, its line logic took 23 s with 2**14
        slots (more than with none: they thrash), 16 s with 2**16, 14 s with 2**18.
        """
        if self._memo is None:
            slots = 1 << max(10, min(18, (64 * len(self.refs) - 1).bit_length()))
            self._memo = np.zeros(slots * _line3d.memo_size(), dtype=np.uint8)
        return self._memo

    def start_grid(self, givens=(), known: Optional[np.ndarray] = None) -> np.ndarray:
        """The flat box line logic starts from: ``known`` (or all unknown) with the givens filled in."""
        grid = np.full(self.n_cells, -1, dtype=np.int8) if known is None else known.ravel().astype(np.int8)
        _, Y, Z = self.size
        for x, y, z, v in givens:
            grid[(x * Y + y) * Z + z] = v
        return grid

    def active(self, hidden: Collection[LineRef] = ()) -> np.ndarray:
        """One byte per clued line: 1 where its clue is shown (not in ``hidden``)."""
        mask = np.ones(len(self.refs), dtype=np.uint8)
        for ln in hidden:
            k = self.number.get(ln)
            if k is not None:
                mask[k] = 0
        return mask

    def run(self, grid: np.ndarray, active: np.ndarray, *, synchronous: bool = False,
            start: Optional[np.ndarray] = None, trace: Optional[tuple[np.ndarray, np.ndarray]] = None,
            trace_len: int = 0, deadline: Optional[Deadline] = None, open_cells: int = -1) -> LineRun:
        """Line logic on the flat ``grid`` (changed in place) over the ``active`` lines, to a fixpoint.

        ``start`` lists the lines read first (every line by default); a line
        is read again when a cell of it changes: at once from a stack, or
        with ``synchronous`` in passes, each reading in line order what the
        pass before changed. Each decided cell and the line that decided it
        go into ``trace`` (two int32 arrays of a cell each) from ``trace_len``
        on. ``open_cells``, the grid's open cells when the caller counts them,
        says whether it is solved without a look at every cell (a run from a
        few lines then costs what it reads, not the box).
        """
        if start is None:
            start = np.arange(len(self.refs), dtype=np.int32)
        if trace is None:
            trace = (np.empty(self.n_cells, dtype=np.int32), np.empty(self.n_cells, dtype=np.int32))
        if deadline is not None:
            deadline.check()
        if NATIVE and max(self.size) <= 127:
            return LineRun(*_line3d.run(self.box, active, grid, start, synchronous, trace[0], trace[1], trace_len,
                                        self.memo(), open_cells))
        return _run_python(self, grid, active, synchronous, start, trace, trace_len, deadline)

    def retract(self, line: int, active: np.ndarray, cells: tuple[np.ndarray, np.ndarray, np.ndarray],
                log: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]) -> tuple[int, np.ndarray, int, int]:
        """Take line ``line``'s clue (inactive in ``active``) back from ``cells``, what line logic decided (changed in
        place): ``(grid, when, attr)``, a cell's value (-1 open), when it was decided (a count that grows along the
        runs; givens below every read) and the line that decided it (-1: none).

        Only what the clue touched is looked at: the cells the line decided,
        then, in the order they were decided, each cell a line decided after
        one of its cells was dropped. Such a cell is read again on the cells
        decided before it: it stays (its ``attr`` the line that decides it
        now) if its line or another active line through it still decides it,
        or is dropped (-1) and its lines' later decisions are checked in turn.
        What stays follows from the other clues alone, and a line with no cell
        dropped reads nothing new, so line logic run from the returned lines
        (the active ones with a cell dropped) reaches the fixpoint without the
        clue. The work grows with what the clue touched, not with the box: a
        replay of the whole trace made hiding a 40^3 ball's clues cost 29 us a
        cube against 19 at 20^3. ``log`` (four arrays of a cell each: cell,
        value, when, attr) receives what changed, to undo it. Returns how many
        cells were logged, those lines, how many cells were dropped, and the
        lines read again.
        """
        if NATIVE and max(self.size) <= 127:
            heap, marked, start = self._scratch()
            logged, n, dropped, runs = _line3d.retract(self.box, active, line, cells, log, heap, marked, start,
                                                      self.memo())
            return logged, start[:n].copy(), dropped, runs
        return _retract_python(self, line, active, cells, log)

    def _scratch(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """What retract works in, made once a box: a heap of cells, a mark a line (left unmarked), the lines marked."""
        if self._work is None:
            self._work = (np.empty(self.n_cells, dtype=np.int32), np.full(len(self.refs), NEVER, dtype=np.int64),
                          np.empty(len(self.refs), dtype=np.int32))
        return self._work

    def fixpoint(self, givens=(), *, known: Optional[np.ndarray] = None, hidden: Collection[LineRef] = (),
                 deadline: Optional[Deadline] = None) -> tuple[np.ndarray, bool, int]:
        """Line logic to a fixpoint: (cells -1/0/1, solved, line runs); see :func:`line_fixpoint`."""
        grid = self.start_grid(givens, known)
        done = self.run(grid, self.active(hidden), deadline=deadline)
        return grid.reshape(self.size), done.status == 1, done.runs

    def passes(self, givens=(), *, hidden: Collection[LineRef] = (), deadline: Optional[Deadline] = None) -> LinePasses:
        """Synchronous line passes: a pass reads the lines the pass before changed (all lines at first)."""
        grid = self.start_grid(givens)
        done = self.run(grid, self.active(hidden), synchronous=True, deadline=deadline or Deadline(None))
        return LinePasses(done.passes, done.status == 1, done.runs, grid.reshape(self.size), done.status < 0)


def _run_python(lines: LineIndex3D, grid: np.ndarray, active: np.ndarray, synchronous: bool, start: np.ndarray,
                trace: tuple[np.ndarray, np.ndarray], trace_len: int, deadline: Optional[Deadline]) -> LineRun:
    """What the C module's ``run`` does, in Python: the reference, and the fallback without a C compiler."""
    runs = passes = 0
    at = trace_len

    def read(k: int) -> Optional[list[int]]:
        """Line ``k`` read once: the cells it decided (``None``: no completion)."""
        nonlocal runs, at
        cells = lines.line_cells[lines.line_start[k] : lines.line_start[k + 1]]
        before = tuple(int(v) for v in grid[cells])
        runs += 1
        if deadline is not None and runs % 64 == 0:
            deadline.check()
        after = solve_line_3d(int(lines.count[k]), int(lines.groups[k]), before)
        if after is None:
            return None
        changed = []
        for c, b, a in zip(cells.tolist(), before, after, strict=True):
            if b != a:
                grid[c] = a
                trace[0][at], trace[1][at] = c, k
                at += 1
                changed.append(c)
        return changed

    def touched(changed: list[int]):
        for c in changed:
            yield from (int(o) for o in lines.cell_lines[lines.cell_start[c] : lines.cell_start[c + 1]])

    first = [int(k) for k in start if active[k]]
    if synchronous:
        now = sorted(set(first))
        while now:
            passes += 1
            following: set[int] = set()
            for i, k in enumerate(now):
                changed = read(k)
                if changed is None:
                    runs += len(now) - i - 1
                    return LineRun(-1, runs, passes, at)
                following.update(touched(changed))
            now = sorted(o for o in following if active[o])
    else:
        stack, queued = list(dict.fromkeys(first)), set(first)
        while stack:
            k = stack.pop()
            queued.discard(k)
            changed = read(k)
            if changed is None:
                return LineRun(-1, runs, passes, at)
            for o in touched(changed):
                if o not in queued and active[o]:
                    queued.add(o)
                    stack.append(o)
    return LineRun(int((grid >= 0).all()), runs, passes, at)


def _retract_python(lines: LineIndex3D, line: int, active: np.ndarray, cells: tuple[np.ndarray, np.ndarray, np.ndarray],
                    log: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]) -> tuple[int, np.ndarray, int, int]:
    """What the C module's ``retract`` does, in Python."""
    grid, when, attr = cells
    heap: list[tuple[int, int]] = []
    marked: set[int] = set()
    logged = dropped = runs = 0

    def mark(k: int, after: int) -> None:
        """Line ``k``'s decisions after ``after`` are read again (the first time it is marked)."""
        if k in marked:
            return
        marked.add(k)
        for d in lines.line_cells[lines.line_start[k] : lines.line_start[k + 1]].tolist():
            if grid[d] >= 0 and attr[d] == k and when[d] > after:
                heapq.heappush(heap, (int(when[d]), d))

    def decides(k: int, c: int, at: int) -> bool:
        """Whether line ``k`` decides its cell ``c`` read on the cells decided before ``at``."""
        nonlocal runs
        runs += 1
        own = lines.line_cells[lines.line_start[k] : lines.line_start[k + 1]]
        known = tuple(int(v) if v >= 0 and w < at else -1 for v, w in zip(grid[own], when[own], strict=True))
        out = solve_line_3d(int(lines.count[k]), int(lines.groups[k]), known)
        return out is not None and out[int(np.flatnonzero(own == c)[0])] >= 0

    mark(line, -NEVER - 1)
    while heap:
        at, c = heapq.heappop(heap)
        k = by = int(attr[c])
        keep = bool(active[k]) and decides(k, c, at)
        for o in lines.cell_lines[lines.cell_start[c] : lines.cell_start[c + 1]].tolist():
            if keep:
                break
            by = o  # another line through the cell may decide it now
            keep = o != k and bool(active[o]) and decides(o, c, at)
        if keep and by == k:
            continue
        for array, value in zip(log, (c, grid[c], at, k), strict=True):
            array[logged] = value
        logged += 1
        if keep:
            attr[c] = by
            continue
        grid[c], when[c], attr[c] = -1, NEVER, -1
        dropped += 1
        for o in lines.cell_lines[lines.cell_start[c] : lines.cell_start[c + 1]].tolist():
            mark(o, at)
    start = np.array(sorted(k for k in marked if active[k]), dtype=np.int32)
    return logged, start, dropped, runs


def line_fixpoint(
    puzzle: Puzzle3D, *, known: Optional[np.ndarray] = None, deadline: Optional[Deadline] = None
) -> tuple[np.ndarray, bool, int]:
    """Line logic to a fixpoint over the shown clues. Returns (cells -1/0/1, solved, line runs).

    A contradiction returns ``solved = False`` with the state reached so far.
    Raises :class:`~nonogen.solve.deadline.Timeout` once ``deadline`` passes.
    For many questions about one level, build a :class:`LineIndex3D` once.
    """
    return LineIndex3D(puzzle).fixpoint(puzzle.givens, known=known, deadline=deadline)


def line_solve3d(puzzle: Puzzle3D) -> tuple[np.ndarray, bool]:
    """Cells decided by line logic alone (-1 undecided) and whether that solves the level."""
    grid, solved, _ = line_fixpoint(puzzle)
    return grid, solved
