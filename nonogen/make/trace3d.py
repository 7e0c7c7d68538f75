"""Line logic's fixpoint kept between the steps of hiding Picross 3D clues, and the search for a second solution.

:mod:`~nonogen.make.hide3d` asks, clue by clue, whether the level stays
unique without it. :class:`LineTrace` answers most of those questions with
line logic alone: hiding a clue takes it back from the fixpoint's trace and
re-reads only what depended on it (:meth:`LineIndex3D.retract`), and when
line logic gets stuck, a search from where it stuck finds a second solution
or proves there is none, within a count of line reads. Only an undecided
search leaves the question to the solver.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from ..clues3d import LineRef, line_clue_3d
from ..model3d import Puzzle3D
from ..solve.line3d import NEVER, LineIndex3D, LineRun

__all__ = ["LineTrace", "SEARCH_FIRST"]

SEARCH_FIRST = 200
"""Line reads the search first spends on an open cube that line logic alone did not settle: a cube still unsettled is
tried again, with twice as many, after the others (settling them often settles it)."""


def _padded(starts: np.ndarray, items: np.ndarray) -> np.ndarray:
    """The ragged rows ``items[starts[i]:starts[i + 1]]`` as one matrix, -1 after each row's end."""
    lengths = np.diff(starts)
    matrix = np.full((len(lengths), int(lengths.max(initial=0))), -1, dtype=np.int32)
    matrix[np.arange(matrix.shape[1]) < lengths[:, None]] = items[: starts[-1]]
    return matrix


class LineTrace:
    """Line logic's fixpoint of the shown clues, kept between hiding steps: hiding a clue re-reads only what it changes.

    Each cell line logic decided keeps when it was decided and the line that
    decided it. A line that decided nothing can go without any work: the
    same reads minus its no-op ones still end at the same fixpoint.
    Otherwise its clue is taken back (:meth:`LineIndex3D.retract`): the cells
    that no longer follow without it are undone, and line logic resumes from
    the lines that lost a cell. The rest still follows without the clue, so
    only what depended on it is redone, and nothing else is looked at: the
    box is changed in place and the change logged, so a clue that must stay
    is put back by undoing what its question changed (a copy of the box and
    a pass over it per clue made hiding grow faster than the cubes). The
    fixpoint need not solve the level: once a clue line logic needed is
    hidden, the fixpoint without the next clue (where the search and the
    solver start) is taken from it the same way, not made from scratch. The
    verdicts are those of a fresh fixpoint per step.
    """

    def __init__(self, lines: LineIndex3D, puzzle: Puzzle3D):
        self.lines = lines
        self.active = lines.active()
        self.grid = lines.start_grid(puzzle.givens)  # the fixpoint of the shown clues
        n = lines.n_cells
        self.when = np.where(self.grid >= 0, -1, NEVER).astype(np.int64)  # when line logic decided a cell
        self.attr = np.full(n, -1, dtype=np.int32)  # the line that decided it
        self._log = (np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int8), np.empty(n, dtype=np.int64),
                     np.empty(n, dtype=np.int32))  # what the last retraction changed
        self._new = np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int32)  # what line logic decided after it
        self.goal = np.asarray(puzzle.goal, dtype=np.int8).ravel()  # the box line logic reaches while it solves
        self.stuck: Optional[tuple[int, np.ndarray, int]] = None  # a clue line logic needs, where it stuck, open cells
        self.pending: Optional[tuple[int, int, int, int]] = None  # its question: line, logged, decided, open cells
        self.rival: Optional[np.ndarray] = None  # the second solution search_without found last
        self.rivals = 0  # clues kept because search_without found a second solution (no solver call)
        self.line_reads = self.search_reads = 0  # the work of hiding and of searching, counted
        self.time = 0  # the next decision's time
        self.open = int(np.count_nonzero(self.grid < 0))
        done = lines.run(self.grid, self.active, trace=self._new, open_cells=self.open)
        self.open -= self._decided(done.trace_len)
        self.solved = done.status == 1
        self._lines_of = _padded(lines.cell_start, lines.cell_lines)  # the lines through each cell, -1 padded
        self._cells_of = _padded(lines.line_start, lines.line_cells)  # each line's cells, -1 padded
        self._trail = np.empty(n + 1, dtype=np.int32), np.empty(n + 1, dtype=np.int32)

    def _decided(self, count: int) -> int:
        """Note when and by which line the last run decided its ``count`` cells (in ``_new``); returns ``count``."""
        cells = self._new[0][:count]
        self.when[cells] = np.arange(self.time, self.time + count)
        self.attr[cells] = self._new[1][:count]
        self.time += count
        return count

    def hide(self, line: LineRef) -> bool:
        """Hide ``line``'s clue if line logic still solves the level without it (and say whether it did).

        When it does not, the fixpoint without it is kept for :meth:`search_without`, :meth:`residue` and
        :meth:`forget` (a level line logic does not solve stays unsolved with a clue fewer: only they can hide it)
        until the next question puts the clue back.
        """
        self._undo()
        k = self.lines.number[line]
        self.active[k] = 0
        logged = decided = 0
        own = self.lines.line_cells[self.lines.line_start[k] : self.lines.line_start[k + 1]]
        if bool((self.attr[own] == k).any()):  # the line decided a cell
            logged, unsettled, dropped, reads = self.lines.retract(k, self.active, (self.grid, self.when, self.attr),
                                                                   self._log)
            done = self.lines.run(self.grid, self.active, start=unsettled, trace=self._new,
                                  open_cells=self.open + dropped)
            decided = self._decided(done.trace_len)
            self.line_reads += reads + done.runs
            self.pending = (k, logged, decided, self.open + dropped - decided)
        else:
            self.pending = (k, 0, 0, self.open)
        if self.pending[3] == 0:
            self.forget(line)
            return True
        self.active[k] = 1
        self.stuck = (k, self.grid, self.pending[3])
        return False

    def forget(self, line: LineRef) -> None:
        """``line``'s clue is hidden for good: line logic goes on from the fixpoint without it."""
        k = self.lines.number[line]
        assert self.pending is not None and self.pending[0] == k, "hide() asks about a clue before it is hidden"
        self.active[k] = 0
        self.open = self.pending[3]
        self.solved = self.open == 0
        self.pending = self.stuck = None

    def _undo(self) -> None:
        """Put the clue of the last question back (it stays): undo what that question changed."""
        if self.pending is None:
            return
        _, logged, decided, _ = self.pending
        cells = self._new[0][:decided]
        self.grid[cells], self.when[cells], self.attr[cells] = -1, NEVER, -1
        logged_cells = self._log[0][:logged]  # a cell is logged once: any order will do
        self.grid[logged_cells] = self._log[1][:logged]
        self.when[logged_cells] = self._log[2][:logged]
        self.attr[logged_cells] = self._log[3][:logged]
        self.pending = self.stuck = None

    def residue(self, line: LineRef) -> Optional[tuple[np.ndarray, np.ndarray]]:
        """What is left to decide without ``line``'s clue, where :meth:`hide` stuck on it (and :meth:`search_without`
        proved more since): the flat box of cubes known without it (every solution of the shown clues but that one
        has them; -1 open), and the shown lines but ``line`` with an open cube. A solution differs from the goal only
        on open cubes, and only those lines can fail, so they are all a solver needs: on the 40-cube torus the first
        question left 42 cubes open in a box of 22,400. ``None`` when the fixpoint kept is not ``line``'s."""
        k = self.lines.number[line]
        if self.stuck is None or self.stuck[0] != k:
            return None
        grid = self.stuck[1]
        ks = self._lines_of[np.flatnonzero(grid < 0)].ravel()
        ks = np.unique(ks[ks >= 0])
        return grid, ks[(self.active[ks] == 1) & (ks != k)]

    def search_without(self, line: LineRef, reads: int) -> Optional[bool]:
        """Whether the shown clues but ``line``'s have a second solution: ``True`` (kept in :attr:`rival`), ``False``
        (the goal is the only one), or ``None`` once the search has spent ``reads`` line reads.

        It starts where line logic stuck after :meth:`hide` refused the clue.
        Each open cube (the line's own first) is set against the goal and
        line logic run once: a contradiction proves the cube is the goal's in
        every solution, and it is set so (line logic following it) before the
        next cube is tried. The cubes still open are then searched depth
        first, further cubes set as in the goal first and chosen on the lines
        a cube off the goal lies on (only those lines can fail: the goal's
        cubes finish every other one), first with :data:`SEARCH_FIRST` reads a
        cube, then twice as many, until every cube is settled or the reads are
        spent. A finish is a second solution, checked against every shown clue;
        a search that runs out of choices proves the cube the goal's.

        A rival is usually a small change of the goal next to the hidden line,
        and where there is none, line logic mostly refutes each open cube in a
        run: the 40-cube torus's 57 questions the solver answered in 9 s, each
        with 43 cubes open, take 8 runs each. Both verdicts are exact, so the
        hiding keeps the clues the solver would keep; an undecided search asks
        the solver, with the cubes proved (:meth:`residue`).
        """
        k = self.lines.number[line]
        self.rival = None
        if self.stuck is None or self.stuck[0] != k:
            return None
        grid, opened = self.stuck[1].copy(), self.stuck[2]
        own = self.lines.line_cells[self.lines.line_start[k] : self.lines.line_start[k + 1]]
        unsettled = own[grid[own] < 0].tolist()  # a second solution differs from the goal on the line: see above
        budget, limit = [reads], 0  # limit 0: one run of line logic a cube
        self.active[k] = 0
        try:
            while unsettled and budget[0] > 0:
                again = []
                for cell in unsettled:
                    if grid[cell] >= 0:
                        continue
                    spend = [min(limit, budget[0]) if limit else budget[0]]
                    found = self._finish(grid, cell, 1 - int(self.goal[cell]), spend, limit > 0, opened)
                    budget[0] -= (min(limit, budget[0]) if limit else budget[0]) - spend[0]
                    if found:
                        return True
                    if found is None:  # cut short: tried again with more reads once the others are done
                        again.append(cell)
                        if budget[0] <= 0:
                            break
                        continue
                    grid[cell] = self.goal[cell]  # no solution has the other value
                    opened -= 1 + self._read(grid, cell, budget, 0, opened - 1).trace_len
                unsettled, limit = again, 2 * limit if limit else SEARCH_FIRST
            return None if unsettled else False
        finally:
            self.active[k] = 1
            self.search_reads += reads - budget[0]
            self.stuck = (k, grid, opened)  # the cubes proved the goal's join what line logic decided

    def _read(self, grid: np.ndarray, cell: int, budget: list[int], length: int, opened: int) -> LineRun:
        """Line logic on ``grid`` (``opened`` cells open) from the lines through ``cell`` (just set), its line reads
        taken from ``budget``; what it decides is written to the trail from ``length`` on."""
        through = self.lines.cell_lines[self.lines.cell_start[cell] : self.lines.cell_start[cell + 1]]
        done = self.lines.run(grid, self.active, start=through, trace=self._trail, trace_len=length, open_cells=opened)
        budget[0] -= done.runs
        return done

    def _finish(self, grid: np.ndarray, cell: int, value: int, budget: list[int], deep: bool,
                opened: int) -> Optional[bool]:
        """Whether ``grid`` (``opened`` cells open) with ``cell`` set to ``value`` has a solution of the shown clues
        (kept in :attr:`rival`):
        ``None`` when undecided, after one run of line logic (not ``deep``) or once ``budget`` line reads are spent.
        The search is depth first, open cubes set as in the goal first; ``grid`` is left as it was (a trail of what
        each choice decided undoes it)."""
        trail = self._trail[0]
        choices: list[tuple[int, int, bool]] = []  # (trail length before it, cube, whether the goal's value is tried)
        trail[0], grid[cell], length = cell, value, 1
        try:
            while True:
                if budget[0] <= 0:
                    return None
                done = self._read(grid, cell, budget, length, opened - length)
                length = done.trace_len
                if done.status == 1 and self._meets_clues(grid):
                    self.rival = grid.copy()
                    return True
                if done.status == 0:
                    cell = self._open_near(grid, trail[:length])
                    if cell < 0:  # every line with a cube off the goal is full: the goal's cubes finish the box
                        box = np.where(grid < 0, self.goal, grid)
                        if self._meets_clues(box):
                            self.rival = box
                            return True
                        cell = int(np.argmax(grid < 0))
                    if not deep:
                        return None
                    choices.append((length, cell, True))
                    trail[length], grid[cell], length = cell, self.goal[cell], length + 1
                    continue
                while choices:  # a dead end: the last choice whose other value is untried
                    at, cell, first = choices.pop()
                    grid[trail[at:length]] = -1
                    length = at
                    if first:
                        choices.append((at, cell, False))
                        trail[length], grid[cell], length = cell, 1 - self.goal[cell], length + 1
                        break
                else:
                    return False
        finally:
            grid[trail[:length]] = -1

    def _open_near(self, grid: np.ndarray, decided: np.ndarray) -> int:
        """The first open cube on a shown line through a cube of ``decided`` that is off the goal (-1: none).

        Only those lines can still fail: every other line is the goal's wherever it is decided, so the goal's cubes
        finish it. Choosing there keeps a search local: a rival is a small change of the goal, and in a box line logic
        leaves largely open (a solid blob) the first open cube of the box is mostly far from it.
        """
        ks = self._lines_of[decided[grid[decided] != self.goal[decided]]].ravel()
        ks = ks[ks >= 0]
        cells = self._cells_of[ks[self.active[ks] == 1]]
        hits = np.flatnonzero((cells >= 0) & (grid[cells] < 0))  # a -1 pad reads the last cube: masked
        return int(cells.flat[hits[0]]) if hits.size else -1

    def _meets_clues(self, box: np.ndarray) -> bool:
        """Whether ``box`` (flat, 0/1) has every shown line's count and groups: the proof that it is a solution.

        Only the lines through a cube where it differs from the goal are read: every other line is the goal's.
        """
        lines = self.lines
        ks = self._lines_of[np.flatnonzero(box != self.goal)].ravel()
        ks = np.unique(ks[ks >= 0])
        for k in ks[self.active[ks] == 1].tolist():
            values = box[lines.line_cells[lines.line_start[k] : lines.line_start[k + 1]]] == 1
            if line_clue_3d(values) != (lines.count[k], lines.groups[k]):
                return False
        return True
