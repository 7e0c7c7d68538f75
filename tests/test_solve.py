"""The verifier against independent counts: brute force on small grids, placements on single lines."""
from __future__ import annotations

import inspect
import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nonogen import Color, Puzzle, derive_clues, puzzle_from_grid, satisfies
from nonogen.clues import line_clue
from nonogen.batch import verify_paths
from nonogen.errors import PuzzleError
from nonogen.make.repair2d import repair
from nonogen.solve import Session, ambiguous_cells, line_solve, verify
from nonogen.solve.deadline import TIMEOUT
from nonogen.solve.line import LineAutomaton, solve_line
from nonogen.solve.verify import verify2d
from nonogen.solve.verify3d import verify3d

PALETTE3 = (Color("white", "#ffffff", "."), Color("red", "#ff0000", "r"), Color("blue", "#0000ff", "b"))


def brute_force_solutions(puzzle: Puzzle, limit: int = 3) -> list[np.ndarray]:
    """Every grid meeting the clues (up to ``limit``), by trying every row that meets its row clue."""
    values = range(puzzle.n_colors + 1)
    row_options = [
        [row for row in itertools.product(values, repeat=puzzle.width) if line_clue(row) == clue]
        for clue in puzzle.rows
    ]
    found = []
    for rows in itertools.product(*row_options):
        grid = np.array(rows, dtype=np.uint8)
        if derive_clues(grid)[1] == puzzle.cols:
            found.append(grid)
            if len(found) >= limit:
                break
    return found


def expected_status(puzzle: Puzzle) -> str:
    n = len(brute_force_solutions(puzzle, limit=2))
    return {0: "unsolvable", 1: "unique", 2: "multiple"}[n]


bw_grids = st.integers(1, 4).flatmap(
    lambda h: st.integers(1, 5).flatmap(
        lambda w: st.lists(st.lists(st.integers(0, 1), min_size=w, max_size=w), min_size=h, max_size=h)
    )
)
color_grids = st.integers(1, 3).flatmap(
    lambda h: st.integers(1, 3).flatmap(
        lambda w: st.lists(st.lists(st.integers(0, 2), min_size=w, max_size=w), min_size=h, max_size=h)
    )
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bw_grids)
def test_bw_verdict_matches_brute_force(rows):
    grid = np.array(rows, dtype=np.uint8)
    puzzle = puzzle_from_grid(grid).replace(goal=None)
    result = verify(puzzle)
    assert result.status == expected_status(puzzle)
    assert satisfies(puzzle, result.solution)
    if result.status == "multiple":
        assert satisfies(puzzle, result.second_solution)
        assert not np.array_equal(result.solution, result.second_solution)


@settings(max_examples=100, deadline=None)
@given(color_grids)
def test_color_verdict_matches_brute_force(rows):
    grid = np.array(rows, dtype=np.uint8)
    puzzle = puzzle_from_grid(grid, PALETTE3).replace(goal=None)
    result = verify(puzzle)
    assert result.status == expected_status(puzzle)
    assert satisfies(puzzle, result.solution)


@settings(max_examples=60, deadline=None)
@given(bw_grids, st.sampled_from(["full", "line", "sat"]))
def test_every_strategy_agrees_with_target_mode(rows, strategy):
    grid = np.array(rows, dtype=np.uint8)
    puzzle = puzzle_from_grid(grid)
    plain = verify(puzzle.replace(goal=None), strategy=strategy)
    with_target = verify(puzzle.replace(goal=None), target=grid, strategy=strategy)
    assert plain.status == with_target.status
    assert np.array_equal(with_target.solution, grid)
    if with_target.status == "multiple":
        assert satisfies(puzzle, with_target.second_solution)
        assert not np.array_equal(with_target.second_solution, grid)


@settings(max_examples=60, deadline=None)
@given(bw_grids)
def test_ambiguous_cells_are_exactly_the_non_backbone(rows):
    grid = np.array(rows, dtype=np.uint8)
    puzzle = puzzle_from_grid(grid)
    solutions = brute_force_solutions(puzzle, limit=10_000)
    differs = np.zeros(grid.shape, dtype=bool)
    for other in solutions:
        differs |= other != grid
    assert np.array_equal(ambiguous_cells(puzzle, grid), differs)


def _placements(clue, length, colors):
    return [line for line in itertools.product(range(colors + 1), repeat=length) if line_clue(line) == clue]


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 9).flatmap(lambda n: st.lists(st.integers(0, 2), min_size=n, max_size=n)),
    st.data(),
)
def test_line_solver_equals_placement_enumeration(line, data):
    """Complete line logic: a colour survives exactly when some valid placement gives it."""
    clue = line_clue(line)
    domain = tuple(data.draw(st.integers(1, 7)) for _ in line)
    placements = [
        p for p in _placements(clue, len(line), 2) if all((domain[i] >> v) & 1 for i, v in enumerate(p))
    ]
    narrowed = solve_line(LineAutomaton(clue), domain)
    if not placements:
        assert narrowed is None
        return
    expected = tuple(sum(1 << v for v in {p[i] for p in placements}) for i in range(len(line)))
    assert narrowed == expected


@settings(max_examples=40, deadline=None)
@given(st.integers(10, 14).flatmap(lambda n: st.lists(st.integers(0, 1), min_size=n, max_size=n)))
def test_long_bw_lines_match_enumeration(line):
    clue = line_clue(line)
    placements = _placements(clue, len(line), 1)
    narrowed = solve_line(LineAutomaton(clue), (3,) * len(line))
    expected = tuple(sum(1 << v for v in {p[i] for p in placements}) for i in range(len(line)))
    assert narrowed == expected


def test_clue_longer_than_line_is_unsolvable_with_a_reason():
    puzzle = Puzzle(rows=[[(6, 1)]] + [[(1, 1)]] * 4, cols=[[(1, 1)]] * 5)
    result = verify(puzzle)
    assert result.status == "unsolvable"
    assert "row 1" in result.message


def test_totals_that_disagree_are_unsolvable():
    puzzle = Puzzle(rows=[[(1, 1)], [(1, 1)]], cols=[[(2, 1)], [(1, 1)]])
    assert verify(puzzle).status == "unsolvable"


def test_givens_make_an_ambiguous_puzzle_unique():
    grid = np.eye(2, dtype=np.uint8)
    puzzle = puzzle_from_grid(grid)
    assert verify(puzzle).status == "multiple"
    assert verify(puzzle.replace(givens=((0, 0, 1),))).status == "unique"


def test_colour_cells_agree_between_row_and_column():
    """A filled/empty relaxation would accept swapping colours; per-colour cells must not."""
    grid = np.array([[1, 2], [2, 1]], dtype=np.uint8)
    result = verify(puzzle_from_grid(grid, PALETTE3).replace(goal=None))
    assert result.status == "unique"
    assert np.array_equal(result.solution, grid)


def test_line_solve_reports_line_solvable_puzzles():
    decided, complete = line_solve(puzzle_from_grid(np.array([[1, 1], [1, 0]])))
    assert complete and decided.tolist() == [[1, 1], [1, 0]]


def test_line_solve_raises_on_contradiction():
    with pytest.raises(PuzzleError):
        line_solve(Puzzle(rows=[[(2, 1)], []], cols=[[], []]))


def test_timeout_is_a_status_not_a_wrong_verdict():
    rng = np.random.default_rng(7)
    grid = (rng.random((30, 30)) < 0.5).astype(np.uint8)
    result = verify(puzzle_from_grid(grid).replace(goal=None), timeout=0.0)
    assert result.status == "timeout"
    assert result.solution is None


def test_target_that_breaks_the_clues_is_refused():
    puzzle = puzzle_from_grid(np.eye(2, dtype=np.uint8))
    with pytest.raises(PuzzleError):
        verify(puzzle, target=np.ones((2, 2), dtype=np.uint8))


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 14).flatmap(lambda n: st.lists(st.integers(0, 1), min_size=n, max_size=n)),
    st.data(),
)
def test_black_and_white_fast_path_equals_the_general_automaton(line, data):
    """The one-colour shortcut must give exactly the general automaton's state sets."""
    auto = LineAutomaton(line_clue(line))
    domain = [data.draw(st.integers(0, 3)) for _ in line]
    assert auto._forward_bw(domain) == auto._forward_colour(domain)


def test_every_small_grid_gets_the_verdict_of_an_exhaustive_count():
    """All 2^(H*W) grids of every shape up to 12 cells, grouped by their clues: a group's size is the
    exact number of solutions of that clue set, which the verifier's verdict must match."""
    for height in range(1, 5):
        for width in range(1, 13 // height + 1):
            if height * width > 12:
                continue
            groups: dict = {}
            for bits in range(1 << (height * width)):
                grid = np.array([(bits >> k) & 1 for k in range(height * width)], dtype=np.uint8)
                groups.setdefault(derive_clues(grid.reshape(height, width)), []).append(bits)
            for (rows, cols), members in groups.items():
                result = verify(Puzzle(rows, cols))
                assert result.status == ("unique" if len(members) == 1 else "multiple"), (rows, cols)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 8).flatmap(lambda n: st.lists(st.lists(st.integers(0, 2), min_size=n, max_size=n),
                                                   min_size=1, max_size=8)),
       st.booleans())
def test_estimated_clauses_bounds_the_encoding(rows, colour):
    """The memory check trusts estimated_clauses to be an upper bound of what Encoding builds."""
    from nonogen.solve.cnf import Encoding, estimated_clauses
    from nonogen.solve.session import Session

    grid = np.array(rows, dtype=np.uint8)
    puzzle = puzzle_from_grid(grid if colour else (grid > 0).astype(np.uint8),
                              PALETTE3 if colour else None).replace(goal=None)
    session = Session(puzzle)
    masks = session.line_masks()
    assert Encoding(session.grid, masks).n_clauses <= max(1, estimated_clauses(session.grid, masks))


def test_verify_refuses_an_encoding_over_the_memory_budget(monkeypatch):
    """A 1000x1000 puzzle of 1 1 clues made a 16 M-clause encoding; past the budget it is refused at once."""
    from nonogen.solve import session

    monkeypatch.setattr(session, "MEMORY_SHARE", 1e-9)
    n = 60
    puzzle = Puzzle(rows=[((1, 1), (1, 1))] * n, cols=[((1, 1), (1, 1))] * n)
    result = verify(puzzle, timeout=30, grade=False)
    assert result.status == "timeout"
    assert "the SAT encoding would need about" in result.message and "clauses" in result.message


def _address_space_limit(_task) -> int:
    import resource

    return resource.getrlimit(resource.RLIMIT_AS)[0]


def test_local_pool_workers_cap_their_address_space():
    """Verify workers used to grow without bound (4.4 GB on a 1000x1000 puzzle) and could make the
    machine swap; each now runs under an RLIMIT_AS of half the physical memory."""
    import os
    import resource

    from nonogen.executors import LocalPool

    fail = lambda task, message, status: (status, message)  # noqa: E731
    (limit,) = list(LocalPool(1).run(_address_space_limit, [0], fail))
    physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert limit != resource.RLIM_INFINITY and limit <= physical // 2 + 1


def test_every_engine_door_takes_its_options_by_keyword_with_one_set_of_defaults():
    """verify graded by default while verify2d, verify3d and Session.verify did not, and options went by position
    (verify_paths took 12, repair 10): every door now grades unless told, with the same time limit."""
    doors = {verify: 1, verify2d: 1, verify3d: 1, Session.verify: 2, verify_paths: 1, repair: 2}
    for door, positional in doors.items():
        params = list(inspect.signature(door).parameters.values())
        assert all(p.kind is p.KEYWORD_ONLY for p in params[positional:]), door.__qualname__
        assert params[[p.name for p in params].index("timeout")].default == TIMEOUT, door.__qualname__
        assert params[[p.name for p in params].index("grade")].default is True, door.__qualname__
