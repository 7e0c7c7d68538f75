"""Which reading of each line's clue lets the puzzle have a solution, with the fewest numbers read otherwise.

A scanned puzzle whose numbers were misread has no solution. Each line has its reading and a few other readings
(a number's runner-up digits), each costing the numbers it changes. One SAT formula holds them all: every reading
is an automaton over the line's cells, switched on by its own selector, exactly one selector a line, and a counter
over the changed numbers. Asking for at most 1, then 2, ... changes finds the fewest exactly, however many lines
they are spread over, where trying sets of changes one by one could afford two.

The automaton of a clue is the order its cells must come in: each block's cells in its colour, a background cell
between two blocks of the same colour, any number of background cells before, between and after. A state is how
much of that order the line has passed; a state after ``t`` cells holds only if its cell has a colour that leads
into it and the state it came from held after ``t - 1`` cells, so the last state holding after the last cell is
a proof that the line spells the clue. States no line of this length can be in are never made.
"""
from __future__ import annotations

from typing import NamedTuple

from .deadline import Clock
from .sat import new_solver

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:
    from typing import Optional, Sequence

    from .sat import Solver

    Clue = Sequence[tuple[int, int]]
    Reading = tuple[Optional[Clue], int]  # a clue (None: any) and how many numbers it reads otherwise

__all__ = ["Chosen", "fewest_changed", "MOST_CHANGES"]

MOST_CHANGES = 6
"""The most numbers read otherwise that the search asks about: past that a person reads the page again faster."""


class Chosen(NamedTuple):
    """One choice: the reading chosen for each row and for each column (indices), and a grid they allow (colour
    indices, 0 the background), from which a line left free (a reading of any clue) takes its clue."""

    rows: list[int]
    cols: list[int]
    grid: list[list[int]]


class _Formula:
    """Variables and clauses: each cell's colour, each reading's selector and automaton."""

    def __init__(self, width: int, height: int, colours: int):
        self.width, self.height, self.colours = width, height, colours
        self.top = 0
        self.clauses: list[list[int]] = []
        self.cell_vars = [self._cell() for _ in range(width * height)]
        self.true = self.new()
        self.clauses.append([self.true])

    def new(self) -> int:
        self.top += 1
        return self.top

    def _cell(self) -> list[int]:
        """A cell's literal of each colour (0 the background): one variable in black and white, else one each."""
        if self.colours == 1:
            v = self.new()
            return [-v, v]
        lits = [self.new() for _ in range(self.colours + 1)]
        self.clauses.append(lits)
        self.clauses += [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:]]
        return lits

    def grid(self, true: set[int]) -> list[list[int]]:
        """The colour of each cell in a model whose true variables are ``true``."""
        colours = [next(c for c, lit in enumerate(cell) if (abs(lit) in true) == (lit > 0)) for cell in self.cell_vars]
        return [colours[r * self.width:(r + 1) * self.width] for r in range(self.height)]

    def line_cells(self, kind: str, k: int) -> list[list[int]]:
        if kind == "row":
            return self.cell_vars[k * self.width:(k + 1) * self.width]
        return self.cell_vars[k::self.width]

    def reading(self, cells: list[list[int]], clue: Optional[Clue]) -> int:
        """A selector that, when true, makes ``cells`` spell ``clue`` (None: any clue, the line is free)."""
        selector = self.new()
        if clue is None:
            return selector
        pattern: list[int] = []  # each cell of the clue's order in turn: its colour, 0 for a gap it must have
        rests = {0}  # the states after which background cells may repeat
        for j, (n, colour) in enumerate(clue):
            if j and clue[j - 1][1] == colour:
                pattern.append(0)
                rests.add(len(pattern))
            pattern += [colour] * n
            rests.add(len(pattern))
        length, end = len(cells), len(pattern)
        held = {0: self.true}  # the states the line may be in after the cells so far
        for t in range(1, length + 1):
            now = {}
            for p in range(max(0, end - (length - t)), min(t, end) + 1):
                state = self._state(cells[t - 1], p, pattern, rests, held)
                if state:
                    now[p] = state
            held = now
        self.clauses.append([-selector, held[end]] if end in held else [-selector])
        return selector

    def _state(self, cell: list[int], p: int, pattern: list[int], rests: set[int], held: dict[int, int]) -> int:
        """The variable "the line has passed ``p`` cells of its order" after ``cell``, or 0 when nothing leads to it:
        it needs the cell in a colour that leads to ``p`` and a state that colour leads from."""
        came: dict[int, list[int]] = {}  # this cell's colour -> the states before it that it leads on from
        if p and p - 1 in held:
            came.setdefault(pattern[p - 1], []).append(held[p - 1])
        if p in rests and p in held:
            came.setdefault(0, []).append(held[p])
        if not came:
            return 0
        x = self.new()
        self.clauses.append([-x] + [cell[colour] for colour in came])
        self.clauses += [[-x, -cell[colour]] + before for colour, before in came.items()]
        return x


def fewest_changed(width: int, height: int, rows: Sequence[Sequence[Reading]], cols: Sequence[Sequence[Reading]],
                   *, colours: int = 1, most: int = 8, timeout: Optional[float] = 10.0) -> list[Chosen]:
    """The choices of one reading a line that give the puzzle a solution with the fewest numbers read otherwise.

    ``rows[k]`` is row k's readings, the first as read (cost 0); each
    other reading costs the numbers it changes; a reading of clue None
    leaves the line free, at its cost. Returns up to ``most`` choices that
    change the fewest numbers, at most :data:`MOST_CHANGES`; an empty list
    when none does within the time. Each choice reads differently from the
    others.
    """
    formula = _Formula(width, height, colours)
    selectors: list[list[int]] = []
    for kind, lines in (("row", rows), ("column", cols)):
        for k, readings in enumerate(lines):
            cells = formula.line_cells(kind, k)
            chosen = [formula.reading(cells, clue) for clue, _ in readings]
            formula.clauses.append(chosen)
            formula.clauses += [[-a, -b] for i, a in enumerate(chosen) for b in chosen[i + 1:]]
            selectors.append(chosen)
    costs_of = [[cost for _, cost in readings] for readings in list(rows) + list(cols)]
    costs = [s for line, line_costs in zip(selectors, costs_of, strict=True)
             for s, cost in zip(line, line_costs, strict=True) for _ in range(cost)]
    if not costs:
        return []
    from pysat.card import ITotalizer  # python-sat's counter; the solver comes through nonogen.solve.sat

    counter = ITotalizer(lits=costs, ubound=MOST_CHANGES, top_id=formula.top)
    clock = Clock(timeout)
    with new_solver("grid", formula.clauses + counter.cnf.clauses) as solver:
        for bound in range(1, min(MOST_CHANGES, len(costs)) + 1):
            at_most = [-counter.rhs[bound]] if bound < len(counter.rhs) else []
            found = _choices(solver, clock, selectors, costs_of, at_most, most)
            if found is None:
                return []
            if found:
                return [Chosen(choice[:height], choice[height:], formula.grid(true)) for choice, true in found]
    return []


def _choices(solver: Solver, clock: Clock, selectors: list[list[int]], costs: list[list[int]],
             assumptions: list[int], most: int) -> Optional[list[tuple[list[int], set[int]]]]:
    """Up to ``most`` choices within ``assumptions`` (each with its model's true variables), each blocked once found
    (as many as the time allowed); None when the time ran out before any, or when the clues as read need no
    change."""
    found: list[tuple[list[int], set[int]]] = []
    while len(found) < most:
        answer = clock.solve(solver, assumptions)
        if not answer:
            return found if found or answer is False else None
        true = {lit for lit in solver.get_model() or () if lit > 0}
        choice = [next(i for i, s in enumerate(line) if s in true) for line in selectors]
        changed = [-line[i] for line, line_costs, i in zip(selectors, costs, choice, strict=True) if line_costs[i]]
        if not changed:
            return None
        found.append((choice, true))
        solver.add_clause(changed)
    return found
