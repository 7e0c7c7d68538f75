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
from ..solve.line3d import LineIndex3D, LineRun

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

    The trace lists every cell line logic decided, in order, with the line
    that decided it. A line that decided nothing can go without any work:
    the same reads minus its no-op ones still end at the same fixpoint.
    Otherwise its clue is taken back (:meth:`LineIndex3D.retract`): the reads
    that no longer follow without it are undone, and line logic resumes from
    the lines that lost a cell. The rest still follows without the clue, so
    only what depended on it is redone. The fixpoint need not solve the
    level: once a clue line logic needed is hidden, the fixpoint without the
    next clue (where the search and the solver start) is taken from it the
    same way, not made from scratch. The verdicts are those of a fresh
    fixpoint per step.
    """

    def __init__(self, lines: LineIndex3D, puzzle: Puzzle3D):
        self.lines = lines
        self.active = lines.active()
        self.grid = lines.start_grid(puzzle.givens)  # the fixpoint of the shown clues
        self.trace = (np.empty(lines.n_cells, dtype=np.int32), np.empty(lines.n_cells, dtype=np.int32))
        self.goal = np.asarray(puzzle.goal, dtype=np.int8).ravel()  # the box line logic reaches while it solves
        self.stuck: Optional[tuple[int, np.ndarray]] = None  # a clue line logic cannot do without, and where it stuck
        self.pending: Optional[tuple[int, np.ndarray, tuple[np.ndarray, np.ndarray], int]] = None  # that fixpoint
        self.rival: Optional[np.ndarray] = None  # the second solution search_without found last
        self.rivals = 0  # clues kept because search_without found a second solution (no solver call)
        self.line_reads = self.search_reads = 0  # the work of hiding and of searching, counted
        done = lines.run(self.grid, self.active, trace=self.trace)
        self.solved = done.status == 1
        self._note(done.trace_len)
        self._lines_of = _padded(lines.cell_start, lines.cell_lines)  # the lines through each cell, -1 padded
        self._cells_of = _padded(lines.line_start, lines.line_cells)  # each line's cells, -1 padded
        self._trail = np.empty(lines.n_cells + 1, dtype=np.int32), np.empty(lines.n_cells + 1, dtype=np.int32)

    def _note(self, length: int) -> None:
        self.length = length
        self.used = np.zeros(len(self.lines.refs), dtype=bool)  # the lines that decided a cell
        self.used[self.trace[1][:length]] = True

    def hide(self, line: LineRef) -> bool:
        """Hide ``line``'s clue if line logic still solves the level without it (and say whether it did).

        When it does not, the fixpoint without it is kept for :meth:`search_without`, :meth:`residue` and
        :meth:`forget` (a level line logic does not solve stays unsolved with a clue fewer: only they can hide it).
        """
        k = self.lines.number[line]
        self.active[k] = 0
        grid, attempt, length = self.grid, self.trace, self.length
        if self.used[k]:
            grid, attempt = self.grid.copy(), (self.trace[0].copy(), self.trace[1].copy())
            kept, unsettled, reads = self.lines.retract(k, self.active, grid, attempt, self.length)
            done = self.lines.run(grid, self.active, start=unsettled, trace=attempt, trace_len=kept)
            length, self.line_reads = done.trace_len, self.line_reads + reads + done.runs
        self.pending = (k, grid, attempt, length)
        if bool((grid >= 0).all()):
            self.forget(line)
            return True
        self.active[k] = 1
        self.stuck = (k, grid)
        return False

    def forget(self, line: LineRef) -> None:
        """``line``'s clue is hidden for good: line logic goes on from the fixpoint without it."""
        k = self.lines.number[line]
        assert self.pending is not None and self.pending[0] == k, "hide() asks about a clue before it is hidden"
        self.active[k] = 0
        _, self.grid, self.trace, length = self.pending
        self.solved = bool((self.grid >= 0).all())
        self.pending = self.stuck = None
        self._note(length)

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
        grid = self.stuck[1].copy()
        self.stuck = (k, grid)  # the cubes proved the goal's join what line logic decided
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
                    found = self._finish(grid, cell, 1 - int(self.goal[cell]), spend, limit > 0)
                    budget[0] -= (min(limit, budget[0]) if limit else budget[0]) - spend[0]
                    if found:
                        return True
                    if found is None:  # cut short: tried again with more reads once the others are done
                        again.append(cell)
                        if budget[0] <= 0:
                            break
                        continue
                    grid[cell] = self.goal[cell]  # no solution has the other value
                    self._read(grid, cell, budget)
                unsettled, limit = again, 2 * limit if limit else SEARCH_FIRST
            return None if unsettled else False
        finally:
            self.active[k] = 1
            self.search_reads += reads - budget[0]

    def _read(self, grid: np.ndarray, cell: int, budget: list[int], length: int = -1) -> LineRun:
        """Line logic on ``grid`` from the lines through ``cell`` (just set), its line reads taken from ``budget``;
        with ``length``, what it decides is written to the trail from there."""
        through = self.lines.cell_lines[self.lines.cell_start[cell] : self.lines.cell_start[cell + 1]]
        done = self.lines.run(grid, self.active, start=through, trace=self._trail if length >= 0 else None,
                              trace_len=max(length, 0))
        budget[0] -= done.runs
        return done

    def _finish(self, grid: np.ndarray, cell: int, value: int, budget: list[int], deep: bool) -> Optional[bool]:
        """Whether ``grid`` with ``cell`` set to ``value`` has a solution of the shown clues (kept in :attr:`rival`):
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
                done = self._read(grid, cell, budget, length)
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
