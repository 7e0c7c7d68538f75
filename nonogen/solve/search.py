"""The first solution: SAT with phases from belief propagation, switched at each slice of conflicts.

MiniSat tries each variable's *phase* first. Left to itself it starts with
every cell white and learns its way from there; on the survey's extreme
puzzles (knotty, meow, faase) it found no solution in 900 s. Belief
propagation over the line constraints (the C module's ``bp``: each line's
exact marginals given the crossing lines' messages) guesses, for every open
cell, the colour it most likely has; MiniSat starting from that guess finds
a solution in seconds.

One guess can be unlucky, so the search runs in slices of a growing
conflict budget and each slice takes the next snapshot of the beliefs
(after 10, 20, 40 and 80 rounds, then round again). Learned clauses stay
with the solver from slice to slice. Phases only order the search: the
verdict is the same with any of them.
"""
from __future__ import annotations

import itertools
import time
from array import array

from .deadline import Deadline, solve_budgeted, solve_limited
from .propagate import Grid

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:
    from .sat import Solver

    from .cnf import Encoding

__all__ = ["first_solution", "ROUNDS"]

ROUNDS = (20, 40, 80, 160)  # belief-propagation rounds of the snapshots, in the order the slices use them
DAMPING = 0.5  # share of a line's previous message kept in the new one: without it beliefs oscillate
FIRST_SLICE = 2000  # conflicts; most tournament puzzles need fewer and never see a second snapshot
GROWTH = 1.5
LADDER_PHASES = True  # also phase each block's "starts at or after k" variables by the beliefs


class BeliefPhases:
    """Snapshots of the beliefs as SAT phases, each computed when a slice first asks for it."""

    def __init__(self, grid: Grid, masks, enc: "Encoding", deadline: Deadline):
        self.grid, self.masks, self.enc, self.deadline = grid, masks, enc, deadline
        self.colours = max(2, len(grid.puzzle.palette))
        self.messages = array("d", bytes(16 * len(masks) * self.colours))
        self.rounds = 0
        self.snapshots: dict[int, list[int]] = {}
        self.seconds = 0.0

    def snapshot(self, index: int) -> list[int]:
        """The phases of snapshot ``index`` of :data:`ROUNDS` (computed once, in order)."""
        if index not in self.snapshots:
            start = time.monotonic()
            more = ROUNDS[index] - self.rounds
            likeliest = self.grid.beliefs(self.masks, self.messages, self.colours, more, DAMPING, self.deadline)
            self.rounds = ROUNDS[index]
            self.snapshots[index] = self._phases(likeliest)
            if LADDER_PHASES:
                ladders = self.grid.ladder_phases(self.masks, self.messages, self.colours, self.enc.ladders)
                self.snapshots[index] += array("i", ladders).tolist()
            self.seconds += time.monotonic() - start
        return self.snapshots[index]

    def _phases(self, likeliest: bytes) -> list[int]:
        """Every literal of every open cell: true for its likeliest colour, false for the others."""
        out: list[int] = []
        for n, cell in enumerate(self.enc.undecided):
            if not n & 0xFFFF:
                self.deadline.check()  # a million open cells take a second here
            best = likeliest[cell]
            out.extend(lit if value == best else -lit for value, lit in self.enc.cell_lits[cell].items())
        return out


def first_solution(solver: "Solver", enc: "Encoding", deadline: Deadline, stats: dict) -> bool:
    """Solve (``True``: a model is in ``solver``); raises Timeout at the deadline."""
    grid = enc.grid
    if not grid.native or not enc.undecided:  # the Python line logic has no belief propagation
        return solve_limited(solver, deadline)
    phases = BeliefPhases(grid, array("I", enc.masks), enc, deadline)
    budget = FIRST_SLICE
    try:
        for slice_ in itertools.count():
            solver.set_phases(phases.snapshot(slice_ % len(ROUNDS)))
            result = solve_budgeted(solver, deadline, budget)
            if result is not None:
                stats["sat_slices"] = slice_ + 1
                return result
            budget = int(budget * GROWTH)
    finally:
        stats["bp_rounds"] = phases.rounds
        stats["bp_seconds"] = round(phases.seconds, 4)
    raise AssertionError("unreachable")  # pragma: no cover
