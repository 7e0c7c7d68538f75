"""SAT encoding of what line logic left open, and a deadline-aware solve loop.

Each undecided cell gets one variable (black and white) or one per possible
colour with exactly-one clauses. Each line with an undecided cell gets the
order encoding of its block starts (as Copris and other CSP-to-SAT solvers
do): one ladder of "start >= k" variables per block, over the starts that
line logic left possible. The formula is linear in the residue and empty for
solved lines; no placement is ever enumerated.

Measured against the automaton (regular constraint) encoding unrolled over
time, on the same residues: Gettys 4.3 s vs 19-30 s, Sierp 1.4 s vs 5-10 s,
the hardest TAAI 2011 puzzle 4.6 s vs 26-52 s, with a third of the clauses.
"""
from __future__ import annotations

import contextlib
import gc
from array import array

from ..grids import Rows, flat, split_rows
from .deadline import Deadline
from .line import all_values
from .propagate import Grid
from .sat import new_solver

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:
    from typing import Any, Optional, Sequence
    from .sat import Solver

__all__ = ["Encoding"]


@contextlib.contextmanager
def _gc_paused():
    """Pause the cyclic garbage collector while clauses are built.

    Every clause is a new list, which the collector tracks; on Gettys the
    collections it triggers cost twice the encoding itself. Clauses hold only
    ints, so they make no cycles and nothing is lost by waiting.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _literals(values: list[int], first_var: int, true: int) -> dict[int, int]:
    """The literal of each possible colour of a cell whose variables start at ``first_var``.

    A decided cell is the constant ``true``; a cell with two colours has one
    variable (true: the higher colour); a cell with more has one per colour.
    The C encoder numbers variables the same way.
    """
    if len(values) == 1:
        return {values[0]: true}
    if len(values) == 2:
        return {values[1]: first_var, values[0]: -first_var}
    return {value: first_var + i for i, value in enumerate(values)}


class Encoding:
    """The CNF of a :class:`Grid` under the masks it is built with.

    ``lit(cell, value)`` is the literal "cell has colour value". Literal ``TRUE``
    stands for decided facts (a variable fixed by a unit clause) so clauses can
    be simplified while they are built.
    """

    def __init__(self, grid: Grid, masks: Sequence[int], deadline: Optional[Deadline] = None,
                 implications: bytes = b""):
        with _gc_paused():
            self._build(grid, masks, deadline, implications)

    def _build(self, grid: Grid, masks: Sequence[int], deadline: Optional[Deadline], implications: bytes) -> None:
        self.grid = grid
        self.masks = list(masks)
        self.n_vars = 0
        self._lists: list[list[int]] = []  # the Python encoder's clauses
        self._flat = b""  # the C encoder's: int32 literals, 0 after each clause
        self.ladders = b""  # the C encoder's block-start ladders: int32 (line, block, lo, hi, first variable)
        self.n_clauses = 0
        self.TRUE = 1
        self.undecided = grid.undecided(self.masks)
        if grid.native:
            self._encode_native(deadline, implications)
            return
        self.TRUE = self._new()
        self._lists.append([self.TRUE])
        self.cell_lits: dict[int, dict[int, int]] = {}
        for cell, mask in enumerate(self.masks):
            self.cell_lits[cell] = self._cell_literals(mask)
        for line in range(len(grid.cells)):
            if any(self.masks[i] & (self.masks[i] - 1) for i in grid.cells[line]):
                if deadline is not None:
                    deadline.check()  # a huge residue takes seconds to encode in Python
                self._encode_line(line)
        self.n_clauses = len(self._lists)

    def _encode_native(self, deadline: Optional[Deadline], implications: bytes) -> None:
        """The same CNF, variable for variable, built by the C module (ten times faster), plus the
        binary clauses of probing's ``implications`` (on every 4th TAAI 2011 puzzle, MiniSat needs
        fewer conflicts with them)."""
        self.n_vars, self._flat, self.n_clauses, first_var, self.ladders = self.grid.encode_native(
            array("I", self.masks), deadline, implications)
        self.cell_lits = {}
        for cell, (mask, var) in enumerate(zip(self.masks, first_var, strict=True)):
            if deadline is not None and not cell & 0xFFFF:
                deadline.check()  # a million cells take a second here
            self.cell_lits[cell] = _literals(all_values(mask), var, self.TRUE)

    def _new(self) -> int:
        self.n_vars += 1
        return self.n_vars

    def lit(self, cell: int, value: int) -> int:
        return self.cell_lits[cell].get(value, -self.TRUE)

    def _add(self, clause: list[int]) -> None:
        T = self.TRUE
        if T in clause:
            return
        self._lists.append([x for x in clause if x != -T])

    def _cell_literals(self, mask: int) -> dict[int, int]:
        values = all_values(mask)
        lits = _literals(values, self.n_vars + 1, self.TRUE)
        if len(values) == 2:
            self.n_vars += 1
        elif len(values) > 2:
            self.n_vars += len(values)
            vs = list(lits.values())
            self._lists.append(vs)
            self._lists.extend([-a, -b] for i, a in enumerate(vs) for b in vs[i + 1 :])
        return lits

    def _encode_line(self, line: int) -> None:
        """Order encoding of the line's block starts, bounded by what line logic left possible.

        ``s_i >= k`` is one variable per block ``i`` and possible start ``k``
        (a ladder: ``s_i >= k+1`` implies ``s_i >= k``). Blocks keep their
        order and gaps; a block covering a cell gives it the block's colour;
        a filled cell must be covered by the last block that starts at or
        before it. The possible starts come from the automaton's live states,
        so a line that is nearly solved costs almost nothing.
        """
        cells = self.grid.cells[line]
        clue = self.grid.automata[line].clue
        if not clue:
            return  # the masks already say every cell is background
        T, add = self.TRUE, self._add
        ladders = [self._ladder(starts) for starts in self.grid.block_starts(self.masks, line)]

        def at_least(i: int, k: int) -> int:
            lo, hi, lits = ladders[i]
            return T if k <= lo else -T if k > hi else lits[k - lo - 1]

        for i, (length, color) in enumerate(clue):
            lo, hi, lits = ladders[i]
            for k in range(lo + 1, hi + 1):
                add([-at_least(i, k + 1), at_least(i, k)])
            if i + 1 < len(clue):
                gap = length + (clue[i + 1][1] == color)
                for k in range(lo + 1, hi + 1):
                    add([-at_least(i, k), at_least(i + 1, k + gap)])
        for c, cell in enumerate(cells):
            filled = -self.lit(cell, 0)
            add([-filled, -at_least(0, c + 1)])
            for i, (length, color) in enumerate(clue):
                starts_before = -at_least(i, c + 1)
                reaches = at_least(i, c - length + 1)
                add([-starts_before, -reaches, self.lit(cell, color)])
                next_after = at_least(i + 1, c + 1) if i + 1 < len(clue) else T
                add([-filled, -starts_before, -next_after, reaches])

    def _ladder(self, starts: list[int]) -> tuple[int, int, list[int]]:
        """``(lo, hi, literals)`` of one block's start: literal ``k - lo - 1`` is ``start >= k``.

        Starts that line logic ruled out inside ``[lo, hi]`` are forbidden
        with one clause each: not (start >= k and not start >= k+1).
        """
        lo, hi = starts[0], starts[-1]
        lits = [self._new() for _ in range(hi - lo)]
        possible = set(starts)
        for k in range(lo + 1, hi):
            if k not in possible:
                self._add([-lits[k - lo - 1], lits[k - lo]])
        return lo, hi, lits

    def decode(self, model: Sequence[int]) -> Rows:
        """The grid (colour indices, as rows) a SAT model describes.

        Exactly one literal of each cell holds in a model (``model[v - 1]``
        is ``v`` or ``-v``; a variable past its end is false), and decided
        cells hold their one literal ``TRUE``.
        """
        values = bytearray(len(self.masks))
        known = len(model)
        for cell, lits in self.cell_lits.items():
            for value, lit in lits.items():
                if (model[abs(lit) - 1] == lit) if abs(lit) <= known else lit < 0:
                    values[cell] = value
                    break
        return split_rows(values, self.grid.width)

    def phases(self, grid: Any) -> list[int]:
        """Cell literals of ``grid``'s values: a solver told to prefer them searches near that grid."""
        cells = flat(grid)
        return [self.lit(i, cells[i]) for i in self.undecided]

    def blocking_clause(self, grid: Any, cells: Optional[Sequence[int]] = None) -> list[int]:
        """A clause saying "some cell of ``cells`` differs from ``grid``"."""
        values = flat(grid)
        cells = self.undecided if cells is None else cells
        return [-self.lit(i, values[i]) for i in cells]

    def new_solver(self, deadline: Optional[Deadline] = None) -> "Solver":
        """A SAT solver loaded with the clauses, in chunks so that the deadline holds.

        Loading is slow next to everything else on a huge residue: 1.4 M clauses take 2-5 s.
        """
        solver = new_solver("grid")
        try:
            for chunk in self._chunks():
                if deadline is not None:
                    deadline.check()
                solver.append_formula(chunk)
        except BaseException:
            solver.delete()
            raise
        return solver

    @property
    def clauses(self) -> list[list[int]]:
        """Every clause as a list of literals (the C encoder's are unpacked on each call)."""
        return [clause for chunk in self._chunks() for clause in chunk]

    def _chunks(self):
        """The clauses, ``_LOAD_CHUNK`` at a time: only one chunk of the C encoder's is ever a Python list."""
        if not self._flat:
            for start in range(0, len(self._lists), _LOAD_CHUNK):
                yield self._lists[start : start + _LOAD_CHUNK]
            return
        from . import _linelogic  # type: ignore[attr-defined]  # the C module: only a big residue is encoded by it

        at = 0
        while at < len(self._flat) // 4:
            chunk, at = _linelogic.clause_lists(self._flat, at, _LOAD_CHUNK)
            yield chunk


_LOAD_CHUNK = 50_000  # clauses given to the solver between two looks at the clock

# What one clause costs in memory: inside MiniSat about 70 bytes (measured on a 300x300 residue),
# plus the C encoder's flat copy (2-4 literals of 4 bytes) and the chunk being loaded.
BYTES_PER_CLAUSE = 100


def estimated_clauses(grid: Grid, masks: Sequence[int]) -> int:
    """An upper bound on the clauses :class:`Encoding` makes of ``masks``, without making them.

    Per open line of ``n`` cells and ``k`` blocks: ``1 + 2k`` clauses per cell and three per
    possible start of each block (the slack of the clue); a cell with ``c > 2`` colours adds
    ``1 + c(c-1)/2``. On a 300x300 residue the bound is 1.4x the real count.
    """
    clues = grid.puzzle.rows + grid.puzzle.cols
    total = 0
    for line, cells in enumerate(grid.cells):
        if not any(masks[i] & (masks[i] - 1) for i in cells):
            continue
        clue = clues[line]
        k, n = len(clue), len(cells)
        slack = n - sum(length for length, _ in clue) - (k - 1) + 1
        total += n * (1 + 2 * k) + 3 * k * max(slack, 1)
    for mask in masks:
        colours = bin(mask).count("1")
        if colours > 2:
            total += 1 + colours * (colours - 1) // 2
    return total
