"""Which reading of each line's clue lets the puzzle have a solution, with the fewest numbers read otherwise.

A scanned puzzle whose numbers were misread has no solution. Each line has its reading and a few other readings
(a number's runner-up digits), each costing the numbers it changes. One SAT formula holds them all: every reading
is an automaton over the line's cells, switched on by its own selector, exactly one selector a line, and a counter
over the changed numbers. Any solution first, then one with fewer changes, until none is left: the fewest, however
many lines they are spread over (trying sets of changes one by one could afford two), proved when the time allows.

The automaton of a clue is the order its cells must come in: each block's cells in its colour, a background cell
between two blocks of the same colour, any number of background cells before, between and after. A state is how
much of that order the line has passed; a state after ``t`` cells holds only if its cell has a colour that leads
into it and the state it came from held after ``t - 1`` cells, so the last state holding after the last cell is
a proof that the line spells the clue. States no line of this length can be in are never made.
"""
from __future__ import annotations

from typing import NamedTuple

from ..clues import min_length
from .deadline import Clock
from .sat import new_solver

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:
    from typing import Callable, Optional, Sequence

    from .sat import Solver

    Clue = Sequence[tuple[int, int]]
    Reading = tuple[Optional[Clue], int]  # a clue (None: any) and how many numbers it reads otherwise

__all__ = ["Chosen", "fewest_changed", "MOST_CHANGES"]

MOST_CHANGES = 12
"""The most numbers read otherwise that the search asks about: past that a person reads the page again faster."""
AMO_PAIRS = 12
"""A line's states after a cell are told apart in pairs (at most one holds) when there are this few; more would
cost more clauses than the propagation they buy, and the onward and backward clauses keep one state anyway."""


class Chosen(NamedTuple):
    """One choice: the reading chosen for each row and for each column (indices), and a grid they allow (colour
    indices, 0 the background), from which a line left free (a reading of any clue) takes its clue."""

    rows: list[int]
    cols: list[int]
    grid: list[list[int]]


def _order(clue: Clue) -> tuple[list[int], set[int]]:
    """The order a line's cells must come in for ``clue``: each cell's colour (0 a gap it must have between two
    blocks of one colour), and the states after which background cells may repeat (the start, after each gap, and
    after a block followed by one of another colour or by nothing). One way through for every line: a machine
    with no choice (a background cell after a block that needs its gap takes the gap)."""
    pattern: list[int] = []
    rests = {0}
    for j, (n, colour) in enumerate(clue):
        if j and clue[j - 1][1] == colour:
            pattern.append(0)
            rests.add(len(pattern))
        elif j:
            rests.add(len(pattern))
        pattern += [colour] * n
    rests.add(len(pattern))
    return pattern, rests


def _at_most_one(lits: list[int]) -> list[list[int]]:
    """Clauses that no two of ``lits`` hold together (pairwise: each list here is short)."""
    return [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:]]


class _Formula:
    """Variables and clauses: each cell's colour, each reading's selector and automaton."""

    def __init__(self, width: int, height: int, colours: int):
        self.width, self.height, self.colours = width, height, colours
        self.top = 0
        self.clauses: list[list[int]] = []
        self.cell_vars = [self._cell() for _ in range(width * height)]

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
        self.clauses += _at_most_one(lits)
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
        if min_length(tuple(clue)) > len(cells):  # a misread number may be huge: no pattern is built for it
            self.clauses.append([-selector])
            return selector
        pattern, rests = _order(clue)
        length, end = len(cells), len(pattern)
        held = {0: selector}  # the states the line may be in after the cells so far (none unless selected)
        for t in range(1, length + 1):
            now = {}
            for q in range(max(0, end - (length - t)), min(t, end) + 1):
                state = self._state(cells[t - 1], q, pattern, rests, held)
                if state:
                    now[q] = state
            self._onward(cells[t - 1], held, now, pattern, rests)
            self.clauses.append([-selector, *now.values()])
            if len(now) <= AMO_PAIRS:
                self.clauses += _at_most_one(list(now.values()))
            held = now
        self.clauses.append([-selector, held[end]] if end in held else [-selector])
        return selector

    def _state(self, cell: list[int], q: int, pattern: list[int], rests: set[int], held: dict[int, int]) -> int:
        """The variable "the line has passed ``q`` cells of its order" after ``cell``, or 0 when nothing leads to it:
        it needs the cell in a colour that leads to ``q`` from a state that held before it."""
        came: dict[int, list[int]] = {}  # this cell's colour -> the states before it that it leads on from
        if q and q - 1 in held:
            came.setdefault(pattern[q - 1], []).append(held[q - 1])
        if q in rests and q in held:
            came.setdefault(0, []).append(held[q])
        if not came:
            return 0
        x = self.new()
        self.clauses.append([-x] + [cell[colour] for colour in came])
        self.clauses += [[-x, -cell[colour]] + before for colour, before in came.items()]
        return x

    def _onward(self, cell: list[int], held: dict[int, int], now: dict[int, int], pattern: list[int],
                rests: set[int]) -> None:
        """Where each state before ``cell`` goes on each colour of it (nowhere: that colour is ruled out there)."""
        for p, x in held.items():
            for colour, lit in enumerate(cell):
                q = p + 1 if p < len(pattern) and pattern[p] == colour else p if colour == 0 and p in rests else -1
                self.clauses.append([-x, -lit, now[q]] if q in now else [-x, -lit])


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
            formula.clauses += _at_most_one(chosen)
            selectors.append(chosen)
    costs_of = [[cost for _, cost in readings] for readings in list(rows) + list(cols)]
    costs = [s for line, line_costs in zip(selectors, costs_of, strict=True)
             for s, cost in zip(line, line_costs, strict=True) for _ in range(cost)]
    if not costs:
        return []
    from pysat.card import ITotalizer  # python-sat's counter; the solver comes through nonogen.solve.sat

    counter = ITotalizer(lits=costs, ubound=MOST_CHANGES, top_id=formula.top)

    def at_most(bound: int) -> list[int]:
        return [-counter.rhs[bound]] if bound < len(counter.rhs) else []

    clock = Clock(timeout)
    with new_solver("grid", formula.clauses + counter.cnf.clauses) as solver:
        best = _fewest(solver, clock, selectors, costs_of, at_most)
        if best is None:
            return []
        choice, true, bound = best
        solver.add_clause(_block(selectors, costs_of, choice))
        found = [(choice, true)] + _choices(solver, clock, selectors, costs_of, at_most(bound), most - 1)
    return [Chosen(choice[:height], choice[height:], formula.grid(true)) for choice, true in found]


def _fewest(solver: Solver, clock: Clock, selectors: list[list[int]], costs: list[list[int]],
            at_most: Callable[[int], list[int]]) -> Optional[tuple[list[int], set[int], int]]:
    """A choice with the fewest changes the time allows to prove, its model's true variables and its changes; None
    when no choice of at most :data:`MOST_CHANGES` changes gives a solution, or the clues as read need none.

    Descending: any solution first, then one with fewer changes than the best so far, until none is left or the time
    runs out. Proving that no choice of k changes exists is the hard question (asked first, for k = 2, it took the
    whole 10 s on a 37x25 page with the first, one-way encoding); a solution is found in a fraction of that.
    """
    best = None
    bound = MOST_CHANGES
    while bound > 0:
        if not clock.solve(solver, at_most(bound)):
            break
        choice, true = _model_choice(solver, selectors)
        changes = sum(line_costs[i] for line_costs, i in zip(costs, choice, strict=True))
        if changes == 0:
            return None
        best, bound = (choice, true, changes), changes - 1
    return best


def _model_choice(solver: Solver, selectors: list[list[int]]) -> tuple[list[int], set[int]]:
    """The reading the solver's model chose for each line, and the model's true variables."""
    true = {lit for lit in solver.get_model() or () if lit > 0}
    return [next(i for i, s in enumerate(line) if s in true) for line in selectors], true


def _block(selectors: list[list[int]], costs: list[list[int]], choice: list[int]) -> list[int]:
    """The clause that no later choice makes the same changes."""
    return [-line[i] for line, line_costs, i in zip(selectors, costs, choice, strict=True) if line_costs[i]]


def _choices(solver: Solver, clock: Clock, selectors: list[list[int]], costs: list[list[int]],
             assumptions: list[int], most: int) -> list[tuple[list[int], set[int]]]:
    """Up to ``most`` more choices within ``assumptions`` (each with its model's true variables), each blocked once
    found, as many as the time allows; none that changes nothing (the clues as read)."""
    found: list[tuple[list[int], set[int]]] = []
    while len(found) < most and clock.solve(solver, assumptions):
        choice, true = _model_choice(solver, selectors)
        changed = _block(selectors, costs, choice)
        if not changed:
            break
        found.append((choice, true))
        solver.add_clause(changed)
    return found
