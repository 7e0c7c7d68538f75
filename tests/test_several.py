"""The short way to ``multiple`` for colour puzzles (solve/shortcut.py): two solutions before probing."""
from __future__ import annotations

import random

import pytest

from nonogen import Color, puzzle_from_grid, satisfies
from nonogen.grids import flat, rows_of
from nonogen.solve import Session, shortcut, verify
from nonogen.solve.deadline import Deadline

PALETTE4 = (Color("white", "#ffffff", "."), Color("red", "#ff0000", "a"), Color("green", "#00ff00", "b"),
            Color("blue", "#0000ff", "c"))

# Unique, and line logic leaves 8 cells open that probing settles (found by a seeded search of 5x5 grids).
UNIQUE_BY_PROBING = [[0, 2, 3, 0, 1], [0, 2, 3, 0, 1], [0, 1, 1, 1, 0], [1, 0, 3, 2, 0], [2, 2, 3, 0, 0]]


def random_grid(seed: int, size: int) -> list[list[int]]:
    """Each cell background with probability 2/5, else one of 3 colours: the benchmark's random colour grids."""
    rng = random.Random(seed)
    return [[0 if rng.random() < 0.4 else rng.randint(1, 3) for _ in range(size)] for _ in range(size)]


def differing(a, b) -> int:
    return sum(x != y for x, y in zip(flat(rows_of(a)), flat(rows_of(b)), strict=True))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_random_colour_grid_is_multiple_before_probing(seed):
    puzzle = puzzle_from_grid(random_grid(seed, 20), PALETTE4).replace(goal=None)
    result = verify(puzzle, timeout=60)
    assert result.status == "multiple" and result.difficulty == "search" and result.grade == 5
    assert result.stats["shortcut"] == "two solutions before probing" and "probing" not in result.stats
    assert satisfies(puzzle, result.solution) and satisfies(puzzle, result.second_solution)
    assert differing(result.solution, result.second_solution) > 0


def test_the_swap_finds_a_second_solution_four_cells_away():
    """Red and blue on a diagonal, each with a partner that fixes nothing: the 2x2 swap is the other solution."""
    grid = [[1, 0, 2], [0, 1, 2], [3, 3, 0]]
    puzzle = puzzle_from_grid(grid, PALETTE4).replace(goal=None)
    result = verify(puzzle, timeout=60)
    assert result.status == "multiple" and result.stats["second_by"] == "swap"
    assert satisfies(puzzle, result.solution) and satisfies(puzzle, result.second_solution)
    assert differing(result.solution, result.second_solution) == 4


def test_the_search_finds_a_second_solution_where_no_swap_exists():
    """Two 2-cell blocks that can sit left or right in both rows, crossed by columns that allow either:
    the solutions differ in eight cells, so no four-cell swap reaches the second and the search must."""
    grid = [[1, 1, 0, 0], [0, 0, 1, 1], [2, 2, 0, 0], [0, 0, 2, 2]]
    puzzle = puzzle_from_grid(grid, PALETTE4).replace(goal=None)
    result = verify(puzzle, timeout=60)
    assert result.status == "multiple" and result.stats["second_by"] == "search"
    assert satisfies(puzzle, result.solution) and satisfies(puzzle, result.second_solution)


def test_a_unique_puzzle_keeps_its_verdict_and_difficulty(monkeypatch):
    """The short way finds one solution, no swap and no second: probing goes on and says "probe", as before."""
    puzzle = puzzle_from_grid(UNIQUE_BY_PROBING, PALETTE4).replace(goal=None)
    session = Session(puzzle)
    assert shortcut.worth_searching(puzzle, session.grid, session.undecided_count())
    result = session.verify(timeout=60)
    assert (result.status, result.difficulty) == ("unique", "probe") and "shortcut" not in result.stats
    found, exhausted, _ = session.grid.two_solutions(session.line_masks(), shortcut.BUDGET, shortcut.STEPS,
                                                     Deadline(None))
    assert len(found) == 1 and exhausted  # the search saw the one solution and no other
    monkeypatch.setattr(shortcut, "MAX_OPEN", 0)  # the full path alone
    before = verify(puzzle, timeout=60)
    assert (before.status, before.difficulty, before.grade) == (result.status, result.difficulty, result.grade)
    assert flat(rows_of(before.solution)) == flat(rows_of(result.solution))


def test_a_target_stays_the_first_solution():
    grid = random_grid(4, 15)
    puzzle = puzzle_from_grid(grid, PALETTE4)
    result = verify(puzzle, target=grid, timeout=60)
    assert result.status == "multiple" and result.stats["shortcut"] == "two solutions before probing"
    assert flat(rows_of(result.solution)) == flat(rows_of(grid))
    assert satisfies(puzzle, result.second_solution) and differing(grid, result.second_solution) > 0


@pytest.mark.parametrize("budget", ["BUDGET", "STEPS"])
def test_the_search_gives_up_at_its_budget(monkeypatch, budget):
    """Out of assumptions or of line work, the short way decides nothing: the full path gives the verdict."""
    monkeypatch.setattr(shortcut, budget, 1)
    puzzle = puzzle_from_grid(random_grid(5, 20), PALETTE4).replace(goal=None)
    result = verify(puzzle, timeout=60)
    assert result.status == "multiple" and "shortcut" not in result.stats and result.stats["probing"] == "complete"


def test_black_and_white_puzzles_take_the_full_path():
    grid = [[1, 0], [0, 1]]
    result = verify(puzzle_from_grid(grid), timeout=60)
    assert result.status == "multiple" and "shortcut" not in result.stats
