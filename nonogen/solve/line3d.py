"""Line logic for Picross 3D: complete single-line reasoning and its fixpoint over a box.

A person solves a level line by line; what line logic alone decides is the
"human-fair" part of a level, and a level it solves completely is unique.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Collection, NamedTuple, Optional

import numpy as np

from ..clues3d import LineRef, all_lines, clue_at, line_cells
from ..model3d import Puzzle3D
from .deadline import Deadline

__all__ = ["solve_line_3d", "LineIndex3D", "LinePasses", "line_fixpoint", "line_solve3d"]


class LinePasses(NamedTuple):
    """What synchronous line passes over a level found: how many passes, whether they solve it, the line runs."""

    passes: int
    solved: bool
    runs: int


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
    """A level's clued lines, indexed once: the cells of each line, its clue, and the lines through each cell.

    Making a level asks line logic many questions about one box: is it
    solved with these givens, with these clues hidden, in how many passes.
    Each question would otherwise rebuild the same index (a 40-cube level
    has 4,800 lines); here it is built once per shape and the questions
    name what differs: the ``givens`` and the ``hidden`` lines.
    """

    def __init__(self, puzzle: Puzzle3D):
        self.size = tuple(puzzle.size)
        refs = [ln for ln in all_lines(self.size) if clue_at(puzzle, ln) is not None]
        self.refs: tuple[LineRef, ...] = tuple(refs)
        self.cells = [line_cells(self.size, ln) for ln in refs]
        self.clues = [clue_at(puzzle, ln) for ln in refs]
        self.by_cell: list[list[int]] = [[] for _ in range(int(np.prod(self.size)))]
        for k, cells in enumerate(self.cells):
            for c in cells:
                self.by_cell[c].append(k)

    def _start(self, givens, known: Optional[np.ndarray]) -> np.ndarray:
        grid = np.full(len(self.by_cell), -1, dtype=np.int8) if known is None else known.ravel().astype(np.int8)
        _, Y, Z = self.size
        for x, y, z, v in givens:
            grid[(x * Y + y) * Z + z] = v
        return grid

    def _active(self, hidden: Collection[LineRef]) -> list[int]:
        return [k for k, ln in enumerate(self.refs) if ln not in hidden] if hidden else list(range(len(self.refs)))

    def fixpoint(self, givens=(), *, known: Optional[np.ndarray] = None, hidden: Collection[LineRef] = (),
                 deadline: Optional[Deadline] = None) -> tuple[np.ndarray, bool, int]:
        """Line logic to a fixpoint: (cells -1/0/1, solved, line runs); see :func:`line_fixpoint`."""
        grid = self._start(givens, known)
        queue = self._active(hidden)
        shown = set(queue)
        queued = set(queue)
        runs = 0
        while queue:
            k = queue.pop()
            queued.discard(k)
            cells, (count, groups) = self.cells[k], self.clues[k]
            before = tuple(int(v) for v in grid[cells])
            runs += 1
            if deadline is not None and runs % 64 == 0:
                deadline.check()
            after = solve_line_3d(count, groups, before)
            if after is None:
                return grid.reshape(self.size), False, runs
            for c, b, a in zip(cells, before, after):
                if b != a:
                    grid[c] = a
                    for other in self.by_cell[c]:
                        if other not in queued and other in shown:
                            queued.add(other)
                            queue.append(other)
        return grid.reshape(self.size), bool((grid >= 0).all()), runs

    def passes(self, givens=(), *, hidden: Collection[LineRef] = (), deadline: Optional[Deadline] = None) -> LinePasses:
        """Synchronous line passes: a pass reads the lines the pass before changed (all lines at first)."""
        deadline = deadline or Deadline(None)
        grid = self._start(givens, None)
        active = set(self._active(hidden))
        shown, passes, runs = set(active), 0, 0
        while active:
            deadline.check()
            passes += 1
            runs += len(active)
            touched: set[int] = set()
            for k in sorted(active):
                cells, (count, groups) = self.cells[k], self.clues[k]
                before = tuple(int(v) for v in grid[cells])
                after = solve_line_3d(count, groups, before)
                if after is None:
                    return LinePasses(passes, False, runs)
                for c, b, a in zip(cells, before, after):
                    if b != a:
                        grid[c] = a
                        touched.update(self.by_cell[c])
            active = touched & shown
        return LinePasses(passes, bool((grid >= 0).all()), runs)


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
