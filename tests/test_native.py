"""The C line logic (the _linelogic module, nonogen/solve/*.c) against the Python reference it replaces.

Both must give the same masks, line by line and grid by grid: line logic and
probing reach a unique fixpoint, so any difference is a bug in one of them.
"""
from __future__ import annotations

import os
from array import array

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from nonogen import Color, formats, puzzle_from_grid
from nonogen.clues import line_clue
from nonogen.solve import propagate, verify
from nonogen.solve.cnf import Encoding
from nonogen.solve.deadline import Deadline, Timeout
from nonogen.solve.line import overlap
from nonogen.solve.line import LineAutomaton, solve_line
from nonogen.solve.propagate import Contradiction, Grid

PALETTE3 = (Color("white", "#ffffff", "."), Color("red", "#ff0000", "r"), Color("blue", "#0000ff", "b"))
native = pytest.mark.skipif(propagate._linelogic is None, reason="C module not built")


def test_native_module_is_built():
    """`pip install` compiles it wherever there is a C compiler; CI must not silently run pure Python."""
    if os.environ.get("NONOGEN_PURE_PYTHON"):
        pytest.skip("pure Python asked for")
    assert propagate._linelogic is not None, "the C module (nonogen/solve/*.c) was not compiled: pip install -e . again"
    assert propagate.NATIVE


@st.composite
def lines(draw):
    """A clue (from a random line, sometimes spoilt) and a random domain of cell masks."""
    n = draw(st.integers(0, 14))
    colors = draw(st.sampled_from([1, 1, 2, 3]))
    cells = draw(st.lists(st.integers(0, colors), min_size=n, max_size=n))
    clue = list(line_clue(cells))
    if clue and draw(st.booleans()):
        i = draw(st.integers(0, len(clue) - 1))
        clue[i] = (max(1, clue[i][0] + draw(st.sampled_from([-1, 1]))), clue[i][1])
    full = (1 << (colors + 1)) - 1
    domain = draw(st.lists(st.one_of(st.just(full), st.integers(1, full)), min_size=n, max_size=n))
    return tuple(clue), domain


@native
@settings(max_examples=3000, deadline=None)
@given(lines())
def test_line_solver_matches_python(case):
    clue, domain = case
    assert propagate._linelogic.solve_line(clue, domain) == solve_line(LineAutomaton(clue), domain)


@native
@settings(max_examples=3000, deadline=None)
@given(lines())
def test_line_deductions_match_python(case):
    """The grade reads complete logic and the overlap rule from one C call (the Python overlap took 60 % of
    grading); both must agree with the Python line solver and overlap rule."""
    clue, domain = case
    domain = tuple(domain)
    full = solve_line(LineAutomaton(clue), domain)
    expected = None if full is None else (full, overlap(LineAutomaton(clue), domain))
    assert propagate._linelogic.deductions(clue, domain) == expected


def _puzzle(rows, colour: bool):
    """The puzzle of a random grid: values 0-2 as they are, or any non-zero as black."""
    grid = np.array(rows, dtype=np.uint8)
    if not colour:
        grid = (grid > 0).astype(np.uint8)
    return puzzle_from_grid(grid, PALETTE3 if colour else PALETTE3[:2]).replace(goal=None)


def _both(puzzle):
    return Grid(puzzle, native=True), Grid(puzzle, native=False)


def _fixpoint(grid: Grid, probe: bool):
    masks = grid.masks[:]
    try:
        grid.propagate(masks, range(grid.height + grid.width), Deadline(None))
        if probe:
            grid.probe(masks, Deadline(None))
    except Contradiction:
        return None
    return list(masks)


grids = st.integers(1, 7).flatmap(
    lambda h: st.integers(1, 7).flatmap(
        lambda w: st.lists(st.lists(st.integers(0, 2), min_size=w, max_size=w), min_size=h, max_size=h)
    )
)


@native
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grids, st.booleans(), st.booleans())
def test_propagation_and_probing_match_python(rows, colour, spoil):
    puzzle = _puzzle(rows, colour)
    if spoil:  # column clues from the grid shifted one column: often no solution at all
        shifted = _puzzle(np.roll(np.array(rows), 1, axis=1), colour)
        puzzle = puzzle.replace(cols=shifted.cols)
    fast, slow = _both(puzzle)
    assert _fixpoint(fast, False) == _fixpoint(slow, False)
    assert _fixpoint(fast, True) == _fixpoint(slow, True)


@native
@pytest.mark.parametrize("name", ["webpbn-00023.non", "webpbn-00065.non", "webpbn-02413.non", "webpbn-02556.non"])
def test_survey_fixpoints_and_encodings_match_python(shared_data, name):
    puzzle = formats.load(shared_data / "puzzles" / "webpbn" / "survey-sample-non" / name)
    fast, slow = _both(puzzle)
    assert _fixpoint(fast, False) == _fixpoint(slow, False)
    for grid in (fast, slow):
        grid.propagate(grid.masks, range(grid.height + grid.width), Deadline(None))
    _assert_same_cnf(fast, slow)  # equal ladders: the C and Python block starts agree line by line


def _assert_same_cnf(fast: Grid, slow: Grid):
    """The C encoder must build the Python encoder's CNF, variable for variable."""
    a, b = Encoding(fast, fast.masks), Encoding(slow, slow.masks)
    assert (a.n_vars, a.clauses, a.cell_lits) == (b.n_vars, b.clauses, b.cell_lits)


@native
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grids, st.booleans(), st.booleans())
def test_refutations_match_python(rows, colour, spoil):
    """The grade's lookahead sweep moved into C (Grid.refutations, which skips values an earlier trial showed
    consistent); at a line-logic fixpoint, C and Python's trial of every value must refute the same values."""
    puzzle = _puzzle(rows, colour)
    if spoil:
        puzzle = puzzle.replace(cols=_puzzle(np.roll(np.array(rows), 1, axis=1), colour).cols)
    fast, slow = _both(puzzle)
    for masks in filter(None, (_fixpoint(slow, False), _fixpoint(slow, True))):  # line logic, then probing too
        assert fast.refutations(array("I", masks), Deadline(None)) == slow.refutations(list(masks), Deadline(None))


@native
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grids, st.booleans(), st.randoms(use_true_random=False))
def test_refutations_sweep_after_sweep_match_python(rows, colour, rnd):
    """refute.c starts a trial from the fixpoint the same trial reached in the grid's last call, when the masks lie
    below that call's (the grade's sweeps narrow them round after round). Sweep after sweep, then from wider masks
    again, C must refute exactly what Python's trials from scratch refute."""
    fast, slow = _both(_puzzle(rows, colour))
    start = _fixpoint(slow, False)
    masks = start
    for _ in range(6):
        if masks is None:
            break
        refuted = slow.refutations(list(masks), Deadline(None))
        assert fast.refutations(array("I", masks), Deadline(None)) == refuted
        masks = list(masks)
        for cell, values in refuted.items():  # what the sweep does: rule them out, then line logic
            masks[cell] &= ~values
        open_cells = slow.undecided(masks)
        if not refuted and open_cells:  # no deduction: narrow a random open cell, as a later call might find it
            cell = rnd.choice(open_cells)
            masks[cell] &= ~(masks[cell] & -masks[cell])
        try:
            slow.propagate(masks, range(slow.height + slow.width), Deadline(None))
        except Contradiction:
            masks = None
    if start is not None:
        assert fast.refutations(array("I", start), Deadline(None)) == slow.refutations(list(start), Deadline(None))


@native
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grids, st.booleans())
def test_encoding_matches_python(rows, colour):
    puzzle = _puzzle(rows, colour)
    fast, slow = _both(puzzle)
    for g in (fast, slow):
        g.propagate(g.masks, range(g.height + g.width), Deadline(None))
    _assert_same_cnf(fast, slow)


@native
def test_native_probing_honours_the_deadline(shared_data):
    puzzle = formats.load(shared_data / "puzzles" / "webpbn" / "survey-sample-non" / "webpbn-02040.non")
    grid = Grid(puzzle, native=True)
    with pytest.raises(Timeout):
        grid.probe(grid.masks, Deadline(0.0))


def test_grid_without_c_uses_lists():
    grid = Grid(puzzle_from_grid(np.eye(3, dtype=np.uint8)), native=False)
    assert isinstance(grid.masks, list) and not grid.native


@native
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grids, st.booleans())
def test_verify_gives_the_same_answer_without_the_c_module(rows, colour):
    """The whole pipeline, not just its parts: verdict and difficulty match with the pure-Python line logic."""
    puzzle = _puzzle(rows, colour)
    saved = propagate.NATIVE
    try:
        propagate.NATIVE = True
        fast = verify(puzzle)
        propagate.NATIVE = False
        slow = verify(puzzle)
    finally:
        propagate.NATIVE = saved
    assert (fast.status, fast.difficulty) == (slow.status, slow.difficulty)
    if fast.status == "unique":
        assert (fast.solution == slow.solution).all()


def _line_marginals(clue, allowed: list[list[int]], weights: list[list[float]]) -> list[list[float]]:
    """Extrinsic marginals of one line by enumeration: each cell's colours over the placements,
    each weighted by the other cells' weights, normalised per cell."""
    import itertools

    n, C = len(allowed), len(weights[0]) if weights else 0
    out = [[0.0] * C for _ in range(n)]
    for cells in itertools.product(*allowed):
        if line_clue(list(cells)) != tuple(clue):
            continue
        for t in range(n):
            product = 1.0
            for u in range(n):
                if u != t:
                    product *= weights[u][cells[u]]
            out[t][cells[t]] += product
    return [[v / sum(row) for v in row] for row in out]


@native
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grids, st.booleans())
def test_beliefs_are_exact_line_marginals(rows, colour):
    """One round of Grid.beliefs without damping: each row's messages are its clue's marginals over
    the cells' allowed colours, and each column's are its marginals weighted by the row messages."""
    puzzle = _puzzle(rows, colour)
    grid = Grid(puzzle, native=True)
    masks = grid.masks[:]
    grid.propagate(masks, range(grid.height + grid.width), Deadline(None))
    H, W, C = grid.height, grid.width, len(puzzle.palette)
    messages = array("d", bytes(16 * H * W * C))
    likeliest = grid.beliefs(masks, messages, C, 1, 0.0, Deadline(None))
    row_msg = [list(messages[i * C:(i + 1) * C]) for i in range(H * W)]
    col_msg = [list(messages[(H * W + i) * C:(H * W + i + 1) * C]) for i in range(H * W)]
    allowed = [[a for a in range(C) if masks[i] >> a & 1] for i in range(H * W)]
    for line, cells in enumerate(grid.cells):
        clue = (puzzle.rows + puzzle.cols)[line]
        if all(len(allowed[i]) == 1 for i in cells):
            continue  # a solved line sends nothing new
        weights = [[1.0] * C for _ in cells] if line < H else [[v / max(row_msg[i]) for v in row_msg[i]] for i in cells]
        expected = _line_marginals(clue, [allowed[i] for i in cells], weights)
        got = [(row_msg if line < H else col_msg)[i] for i in cells]
        assert np.allclose(got, expected, atol=1e-9), (line, got, expected)
    for i in range(H * W):
        product = [row_msg[i][a] * col_msg[i][a] for a in range(C)]
        assert product[likeliest[i]] == max(product[a] for a in allowed[i])


@native
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grids, st.booleans())
def test_probe_implications_hold_in_the_solution(rows, colour):
    """Grid.probe's implications become SAT clauses, so each must hold in every solution: the grid
    the clues were made from never has both the probed colour and the colour it rules out."""
    puzzle = _puzzle(rows, colour)
    grid = Grid(puzzle, native=True)
    masks = grid.masks[:]
    grid.propagate(masks, range(grid.height + grid.width), Deadline(None))
    grid.probe(masks, Deadline(None))
    solution = (np.array(rows) if colour else (np.array(rows) > 0)).ravel()
    quads = array("i", grid.implications)
    for j in range(0, len(quads), 4):
        cell, a, other, b = quads[j:j + 4]
        assert not (solution[cell] == a and solution[other] == b), (cell, a, other, b)


@native
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grids, st.booleans())
@example(rows=[[0, 0, 0, 2, 0], [0, 0, 0, 1, 2], [0, 0, 1, 0, 0]], colour=True)
def test_ladder_phases_of_a_certain_belief_spell_out_its_grid(rows, colour):
    """Grid.ladder_phases: when the messages are certain of a solution, the block-start phases are that
    solution's block starts, so with the solution's cell values they satisfy every clause of the encoding.

    The pinned example failed now and then: a cell with three or more possible colours has one
    variable per colour, and ``Encoding.phases`` names only the true one (a phase is a hint, not an
    assignment). The test left the others unset, so the cell's at-most-one clauses looked violated;
    the ladder phases were right. The solution's values are now spelled out for every literal."""
    puzzle = _puzzle(rows, colour)
    grid = Grid(puzzle, native=True)
    masks = grid.masks[:]
    grid.propagate(masks, range(grid.height + grid.width), Deadline(None))
    solution = (np.array(rows) if colour else (np.array(rows) > 0)).astype(np.uint8)
    enc = Encoding(grid, masks)
    C = len(puzzle.palette)
    messages = array("d", bytes(16 * grid.height * grid.width * C))
    for i, value in enumerate(solution.ravel()):
        for side in (0, grid.height * grid.width):
            messages[(side + i) * C + int(value)] = 1.0
    values = solution.ravel()
    cells = [enc.lit(i, a) if a == values[i] else -enc.lit(i, a)
             for i in enc.undecided for a in range(C) if abs(enc.lit(i, a)) != enc.TRUE]
    phases = cells + array("i", grid.ladder_phases(masks, messages, C, enc.ladders)).tolist()
    truth = {abs(lit): lit > 0 for lit in phases}
    truth[enc.TRUE] = True
    for clause in enc.clauses:
        assert any(truth.get(abs(lit)) == (lit > 0) for lit in clause), clause
