"""The engine's C twins of Python code on the verify path, against the Python they stand for.

The clue check (solve/check.py, _linelogic.grid_meets) against clues.satisfies:
every grid the engine reports passes this check; a wrong answer here would
either hide a solver bug or refuse a right solution, so the two must agree on
grids that meet the clues and on grids a cell, a swap or a shape away. And a
grid's starting masks (Lines.initial_masks) against Grid._initial_masks.
"""
from __future__ import annotations

import random
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonogen import Color, Puzzle, puzzle_from_grid, satisfies
from nonogen.clues import clue_problems
from nonogen.solve import check, propagate
from nonogen.solve.propagate import NATIVE, Grid

pytestmark = pytest.mark.skipif(not NATIVE, reason="the C module is not built")

PALETTE = tuple(Color(f"c{k}", f"#{k:02x}0000", ".abcdefgh"[k]) for k in range(9))


def _mutants(grid: list[list[int]], rng: random.Random, colours: int):
    """The grid itself, then grids one change away: a cell recoloured, two cells swapped, a row moved by one."""
    yield grid
    h, w = len(grid), len(grid[0])
    for _ in range(6):
        g = [row[:] for row in grid]
        g[rng.randrange(h)][rng.randrange(w)] = rng.randint(0, colours)
        yield g
        g = [row[:] for row in grid]
        (r1, c1), (r2, c2) = [(rng.randrange(h), rng.randrange(w)) for _ in range(2)]
        g[r1][c1], g[r2][c2] = g[r2][c2], g[r1][c1]
        yield g
    r = rng.randrange(h)
    yield [row[1:] + row[:1] if k == r else row for k, row in enumerate(grid)]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 9), st.integers(1, 9), st.integers(1, 8), st.floats(0.0, 0.9))
def test_the_c_check_agrees_with_satisfies(seed, height, width, colours, background):
    rng = random.Random(seed)
    grid = [[0 if rng.random() < background else rng.randint(1, colours) for _ in range(width)] for _ in range(height)]
    puzzle = puzzle_from_grid(grid, PALETTE[:colours + 1])
    for other in _mutants(grid, rng, colours):
        assert check.meets_clues(puzzle, other) == satisfies(puzzle, other), (grid, other)


def test_shapes_givens_and_bad_grids_get_the_same_answer():
    grid = [[1, 2, 0], [0, 2, 2]]
    puzzle = puzzle_from_grid(grid, PALETTE[:3], givens=[(1, 1, 2)])
    for other in (grid, [[1, 2]], [[1, 2, 0]], [[1, 2, 0, 0], [0, 2, 2, 0]], [[1, 2, 0], [0, 2]],
                  [[1, 2, 0], [2, 2, 0]], [[1, 2, 0], [0, 2, 2], [0, 0, 0]], "not a grid", [[1, 2, 0], [0, 2, 300]]):
        assert check.meets_clues(puzzle, other) == satisfies(puzzle, other), other
    moved = puzzle.replace(givens=[(1, 0, 2)])  # the same clues, a given the grid breaks
    assert not check.meets_clues(moved, grid) and not satisfies(moved, grid)


def test_without_the_c_module_satisfies_decides(monkeypatch):
    """NONOGEN_PURE_PYTHON turns the C module off: the check is then clues.satisfies itself."""
    calls = []
    monkeypatch.setattr(propagate, "NATIVE", False)
    monkeypatch.setattr(check, "satisfies", lambda p, g: calls.append(g) or True)
    assert check.meets_clues(puzzle_from_grid([[1]]), [[0]]) and calls == [[[0]]]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 9), st.integers(1, 9), st.integers(1, 8), st.booleans())
def test_the_c_starting_masks_are_the_python_ones(seed, height, width, colours, with_givens):
    """A grid's starting masks come from the C module (Lines.initial_masks) with the C line logic; the Python
    reference (Grid._initial_masks) must give the same, givens fixed."""
    rng = random.Random(seed)
    grid = [[0 if rng.random() < 0.4 else rng.randint(1, colours) for _ in range(width)] for _ in range(height)]
    givens = [(r, c, grid[r][c]) for r in range(height) for c in range(width) if with_givens and rng.random() < 0.2]
    puzzle = puzzle_from_grid(grid, PALETTE[:colours + 1], givens=givens)
    native = Grid(puzzle)
    assert native.native and list(native.masks) == Grid(puzzle, native=False).masks == native._initial_masks()


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 7), st.integers(1, 7), st.integers(1, 4), st.integers(0, 3))
def test_clues_fit_when_clue_problems_finds_none(seed, height, width, colours, spoilt):
    """Session.verify skips clues.clue_problems when the C module says it would find nothing (Lines.clues_fit):
    on clues from a grid and on clues with a few blocks lengthened, added or recoloured, the two must agree."""
    rng = random.Random(seed)
    grid = [[0 if rng.random() < 0.4 else rng.randint(1, colours) for _ in range(width)] for _ in range(height)]
    puzzle = puzzle_from_grid(grid, PALETTE[:colours + 1])
    lines = [list(line) for line in puzzle.rows + puzzle.cols]
    for _ in range(spoilt):
        line = rng.choice(lines)
        k = rng.randrange(len(line) + 1)
        if k == len(line) or rng.random() < 0.3:
            line.insert(k, (rng.randint(1, 3), rng.randint(1, colours)))
        else:
            line[k] = (line[k][0] + rng.choice((0, 1)), rng.randint(1, colours))
    spoiled = Puzzle(lines[:height], lines[height:], puzzle.palette)
    assert Grid(spoiled).clues_fit() == (not clue_problems(spoiled))


@pytest.mark.parametrize("colours", [1, 3, 7, 8])
def test_solved_rows_read_a_byte_a_cell_as_the_python_reading_does(colours):
    """Grid.solved_rows reads the C module's masks a byte a cell when the palette has at most 8 colours
    (a mask under 256); with 9 or more it takes the step per cell. Both must give each cell's colour."""
    rng = random.Random(colours)
    grid = [[rng.randint(0, colours) for _ in range(7)] for _ in range(5)]
    palette = PALETTE[:colours + 1] if colours < 8 else PALETTE
    solution = Grid(puzzle_from_grid(grid, palette))
    masks = array("I", [1 << v for row in grid for v in row])
    assert solution.solved_rows(masks) == solution.solved_rows(list(masks)) == tuple(map(bytes, grid))


@given(st.lists(st.integers(1, 2**32 - 1), max_size=60))
def test_open_count_in_c_counts_the_masks_of_two_or_more_colours(masks):
    from nonogen.solve.propagate import open_count

    assert open_count(array("I", masks)) == sum(1 for m in masks if m & (m - 1))
