"""SAT encoding of what line logic left open, and a deadline-aware solve loop.

Each undecided cell gets one variable (black and white) or one per possible
colour with exactly-one clauses. Each line with an undecided cell gets its
automaton unrolled over time (a regular constraint): state variables only for
the states on some accepting run under the current masks, so the formula is
linear in the residue and empty for lines that are already solved. Unit
propagation on this encoding is complete line logic (Bacchus, CP 2007).
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np
from pysat.solvers import Solver

from .line import all_values
from .propagate import Deadline, Grid, Timeout

__all__ = ["Encoding", "solve_limited"]

SOLVER_NAME = "cadical195"


class Encoding:
    """The CNF of a :class:`Grid` under the masks it is built with.

    ``lit(cell, value)`` is the literal "cell has colour value". Literal ``TRUE``
    stands for decided facts (a variable fixed by a unit clause) so clauses can
    be simplified while they are built.
    """

    def __init__(self, grid: Grid, masks: Sequence[int]):
        self.grid = grid
        self.masks = list(masks)
        self.n_vars = 0
        self.clauses: list[list[int]] = []
        self.TRUE = self._new()
        self.clauses.append([self.TRUE])
        self.cell_lits: dict[int, dict[int, int]] = {}
        self.undecided = grid.undecided(self.masks)
        for cell, mask in enumerate(self.masks):
            self.cell_lits[cell] = self._cell_literals(mask)
        for line in range(len(grid.cells)):
            if any(self.masks[i] & (self.masks[i] - 1) for i in grid.cells[line]):
                self._encode_line(line)

    def _new(self) -> int:
        self.n_vars += 1
        return self.n_vars

    def lit(self, cell: int, value: int) -> int:
        return self.cell_lits[cell].get(value, -self.TRUE)

    def _add(self, clause: list[int]) -> None:
        T = self.TRUE
        if T in clause:
            return
        self.clauses.append([x for x in clause if x != -T])

    def _cell_literals(self, mask: int) -> dict[int, int]:
        values = all_values(mask)
        if len(values) == 1:
            return {values[0]: self.TRUE}
        if len(values) == 2:
            v = self._new()
            return {values[1]: v, values[0]: -v}
        lits = {value: self._new() for value in values}
        vs = list(lits.values())
        self.clauses.append(vs)
        self.clauses.extend([-a, -b] for i, a in enumerate(vs) for b in vs[i + 1 :])
        return lits

    def _encode_line(self, line: int) -> None:
        grid = self.grid
        cells = grid.cells[line]
        auto = grid.automata[line]
        domain = [self.masks[i] for i in cells]
        live, _ = auto.live_states(domain)
        T = self.TRUE
        # state literals: a lone live state is certain; others get variables
        state: list[dict[int, int]] = []
        for bits in live:
            js = all_values(bits)
            state.append({js[0]: T} if len(js) == 1 else {j: self._new() for j in js})
        pattern, loop, add = auto.pattern, auto.loop, self._add
        for t, cell in enumerate(cells):
            here, after = state[t], state[t + 1]
            values = all_values(domain[t])
            for j, r in here.items():
                for a in values:
                    nxt = auto.next_state(j, a)
                    x = self.lit(cell, a)
                    if nxt is None or nxt not in after:
                        add([-r, -x])
                    else:
                        add([-r, -x, after[nxt]])
            for j2, r2 in after.items():
                support = []
                if j2 >= 1 and (j2 - 1) in here and (domain[t] >> pattern[j2 - 1]) & 1:
                    support.append((here[j2 - 1], self.lit(cell, pattern[j2 - 1])))
                if (loop >> j2) & 1 and j2 in here and domain[t] & 1:
                    support.append((here[j2], self.lit(cell, 0)))
                if len(support) == 1:
                    add([-r2, support[0][0]])
                    add([-r2, support[0][1]])
                elif len(support) == 2:
                    (a, b), (c, d) = support
                    add([-r2, a, c])
                    add([-r2, a, d])
                    add([-r2, b, c])
                    add([-r2, b, d])
                else:
                    add([-r2])

    def decode(self, model: Sequence[int]) -> np.ndarray:
        """The grid (colour indices) a SAT model describes."""
        truth = np.zeros(self.n_vars + 1, dtype=bool)
        pos = np.asarray([v for v in model if v > 0], dtype=np.int64)
        truth[pos] = True
        out = np.zeros(len(self.masks), dtype=np.uint8)
        for cell, lits in self.cell_lits.items():
            for value, lit in lits.items():
                if truth[abs(lit)] == (lit > 0):
                    out[cell] = value
                    break
        return out.reshape(self.grid.height, self.grid.width)

    def blocking_clause(self, grid_values: np.ndarray, cells: Optional[Sequence[int]] = None) -> list[int]:
        """A clause saying "some cell of ``cells`` differs from ``grid_values``"."""
        flat = np.asarray(grid_values).ravel()
        cells = self.undecided if cells is None else cells
        return [-self.lit(i, int(flat[i])) for i in cells]

    def new_solver(self) -> Solver:
        solver = Solver(name=SOLVER_NAME, bootstrap_with=self.clauses)
        return solver


def solve_limited(solver: Solver, deadline: Deadline, assumptions: Sequence[int] = ()) -> bool:
    """``solver.solve`` that gives up at the deadline (raises :class:`Timeout`).

    CaDiCaL holds the GIL and cannot be interrupted from a thread, so the
    search runs in slices of a conflict budget and the clock is read between
    slices; learned clauses survive from one slice to the next.
    """
    budget = 2000
    while True:
        deadline.check()
        solver.conf_budget(budget)
        result = solver.solve_limited(assumptions=list(assumptions))
        if result is not None:
            return bool(result)
        budget = min(budget * 2, 50000)
