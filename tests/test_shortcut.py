"""The guess-and-swap road to "multiple": a second solution is real, and a unique puzzle stays unique."""
from __future__ import annotations

import random
from array import array

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nonogen import derive_clues, puzzle_from_grid, satisfies
from nonogen.solve import Session, verify
from nonogen.solve import shortcut
from nonogen.solve.deadline import Deadline
from nonogen.solve.shortcut import guess_two, swap_neighbour, worth_guessing


def random_grid(seed: int, side: int = 30) -> list[list[int]]:
    """A grid like the random benchmark set's: each cell black with probability 1/2."""
    rng = random.Random(seed)
    return [[int(rng.random() < 0.5) for _ in range(side)] for _ in range(side)]


SEARCHED = 0  # a random 20x20 grid whose guess has no cycle of block moves beside it


def clues(rows) -> tuple:
    return derive_clues(np.array([list(row) for row in rows], dtype=np.uint8))


def neighbour(rows, masks=None):
    """:func:`swap_neighbour` on the C line logic of the puzzle whose goal is ``rows``."""
    return swap_neighbour(Session(puzzle_from_grid([list(row) for row in rows])).grid, rows, masks)


def test_swap_turns_a_diagonal_into_the_other():
    grid = [b"\x01\x00\x00", b"\x00\x01\x00", b"\x00\x00\x00"]
    assert list(neighbour(grid)) == [b"\x00\x01\x00", b"\x01\x00\x00", b"\x00\x00\x00"]


def test_swap_finds_nothing_in_a_unique_grid():
    assert neighbour([b"\x01\x01", b"\x01\x00"]) is None


def test_a_swap_leaves_the_cells_line_logic_decided_alone():
    """A given (or a cell line logic fixed) is the same in every solution: no cycle may move it."""
    grid = [b"\x01\x00\x00", b"\x00\x01\x00", b"\x00\x00\x00"]
    masks = array("I", [3] * 9)
    masks[0] = 2  # the top left cell is decided black
    assert neighbour(grid, masks) is None


def test_a_three_row_cycle_is_found_when_no_2x2_swap_exists(monkeypatch):
    """Each row moves one block by one cell, and so does each column: six cells change, no 2x2 swap does it."""
    grid = [b"\x00\x01\x01\x00", b"\x00\x01\x01\x01", b"\x01\x00\x00\x00"]
    monkeypatch.setattr(shortcut, "CYCLE_ROWS", 2)
    assert neighbour(grid) is None
    monkeypatch.setattr(shortcut, "CYCLE_ROWS", 3)
    other = neighbour(grid)
    assert list(other) == [b"\x00\x00\x01\x01", b"\x01\x01\x01\x00", b"\x00\x01\x00\x00"]
    assert clues(other) == clues(grid)


def test_a_cycle_of_fewer_than_two_rows_is_no_cycle(monkeypatch):
    """A 2x2 swap away from the first row is still refused when fewer than two rows may take part."""
    grid = [b"\x00\x00\x00", b"\x01\x00\x00", b"\x00\x01\x00"]
    for rows in (0, 1):
        monkeypatch.setattr(shortcut, "CYCLE_ROWS", rows)
        assert neighbour(grid) is None
    monkeypatch.setattr(shortcut, "CYCLE_ROWS", 2)
    assert list(neighbour(grid)) == [b"\x00\x00\x00", b"\x00\x01\x00", b"\x01\x00\x00"]


def test_a_random_multiple_puzzle_gets_its_second_solution_from_the_swap():
    puzzle = puzzle_from_grid(random_grid(1)).replace(goal=None)
    result = verify(puzzle)
    assert result.status == "multiple" and result.stats["guess"] == "two"
    assert "probing" not in result.stats and "sat_vars" not in result.stats  # neither probing nor SAT ran
    assert satisfies(puzzle, result.solution) and satisfies(puzzle, result.second_solution)
    assert result.ambiguous.sum() >= 4  # the cells of the cycle differ
    assert result.grade == 5


def test_a_wide_open_unique_puzzle_is_guessed_but_stays_unique():
    """Line logic leaves 857 of 900 cells open; the guess is the solution, and probing still rates it."""
    grid = random_grid(68)
    puzzle = puzzle_from_grid(grid).replace(goal=None)
    result = verify(puzzle)
    assert result.stats["guess"] == "one"
    assert result.status == "unique" and result.difficulty == "probe"
    assert result.second_solution is None
    assert np.array_equal(result.solution, grid)
    assert verify(puzzle, strategy="line").status == "unique"  # the road without the guess agrees


def test_the_search_goes_on_past_its_first_solution_when_no_cycle_of_block_moves_finds_a_second():
    puzzle = puzzle_from_grid(random_grid(SEARCHED, 20)).replace(goal=None)
    result = verify(puzzle, grade=False)
    assert result.stats["guess"] == "two" and "sat_vars" not in result.stats
    assert result.stats["second_by"] == "search"
    assert neighbour(result.solution) is None
    assert satisfies(puzzle, result.second_solution)
    assert not np.array_equal(result.solution, result.second_solution)


def test_a_guess_with_no_second_hands_its_solution_to_sat(monkeypatch):
    monkeypatch.setattr(shortcut, "CYCLE_ROWS", 0)  # no cycle, and the search stops at its first solution
    monkeypatch.setattr(shortcut, "MORE", 0)
    puzzle = puzzle_from_grid(random_grid(0, 20)).replace(goal=None)
    result = verify(puzzle, grade=False)
    assert result.stats["guess"] == "one" and "sat_vars" in result.stats
    assert result.status == "multiple"
    assert satisfies(puzzle, result.second_solution)
    assert not np.array_equal(result.solution, result.second_solution)


def test_two_guesses_meet_the_clues_and_differ():
    puzzle = puzzle_from_grid(random_grid(2)).replace(goal=None)
    session = Session(puzzle)
    masks = session.line_masks()
    assert worth_guessing(puzzle, session.grid)
    stats: dict = {}
    first, second = guess_two(puzzle, session.grid, masks, Deadline(None), stats)
    assert stats["guess"] == "two"
    assert satisfies(puzzle, first) and satisfies(puzzle, second) and first != second
    assert masks == session.line_masks()  # the caller's masks are left as they were


grids = st.integers(2, 7).flatmap(
    lambda h: st.integers(2, 7).flatmap(
        lambda w: st.lists(st.lists(st.integers(0, 1), min_size=w, max_size=w), min_size=h, max_size=h)))


@settings(max_examples=300, deadline=None)
@given(grids)
def test_a_swapped_grid_differs_and_keeps_every_clue(rows):
    grid = [bytes(row) for row in rows]
    other = neighbour(grid)
    if other is not None:
        assert list(other) != grid
        assert clues(other) == clues(grid)
