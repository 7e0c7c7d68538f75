"""Uniqueness repair: checked against an independent brute-force solution count on small pictures."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SHARED_DATA  # ../shared, or NONOGEN_SHARED
from nonogen.clues import line_clue, puzzle_from_grid, satisfies
from nonogen.errors import PuzzleError
from nonogen.importers.image import image_to_grid, load_image
from nonogen.model import Color, Puzzle
from nonogen.make.repair2d import repair
from nonogen.solve import line_solve

SWORD = SHARED_DATA / "images" / "nikoichu_Boardgames_Card_Attack_Sword.png"
needs_data = pytest.mark.skipif(not SWORD.is_file(), reason="shared data folder not found")

THREE = (Color("white", "#ffffff", "."), Color("red", "#ff0000", "r"), Color("blue", "#0000ff", "b"))


def all_solutions(puzzle: Puzzle) -> list[np.ndarray]:
    """Every solution, by brute force over the row patterns that fit each row clue (and the givens)."""
    values = range(puzzle.n_colors + 1)
    given_at = {(r, c): v for r, c, v in puzzle.givens}
    per_row = [
        [line for line in itertools.product(values, repeat=puzzle.width)
         if line_clue(line) == clue and all(line[c] == given_at.get((r, c), line[c]) for c in range(puzzle.width))]
        for r, clue in enumerate(puzzle.rows)
    ]
    out = []
    for rows in itertools.product(*per_row):
        grid = np.array(rows)
        if all(line_clue(grid[:, c]) == puzzle.cols[c] for c in range(puzzle.width)):
            out.append(grid)
    return out


def grids(max_side: int = 5, colours: int = 1):
    return st.tuples(st.integers(2, max_side), st.integers(2, max_side), st.integers(0, 2**32 - 1)).map(
        lambda t: np.random.default_rng(t[2]).integers(0, colours + 1, size=(t[0], t[1])).astype(np.uint8)
    ).filter(lambda g: g.any())


@settings(max_examples=30, deadline=None)
@given(grid=grids())
def test_givens_repair_leaves_exactly_one_solution(grid):
    puzzle = puzzle_from_grid(grid)
    result = repair(puzzle, grid, mode="givens")
    solutions = all_solutions(result.puzzle)
    assert len(solutions) == 1 and np.array_equal(solutions[0], grid)
    assert result.report["status"] == "unique"
    assert all(grid[r, c] == v for r, c, v in result.puzzle.givens)
    # Minimal: dropping any one given brings back another solution.
    for g in result.puzzle.givens:
        fewer = result.puzzle.replace(givens=tuple(x for x in result.puzzle.givens if x != g))
        assert len(all_solutions(fewer)) > 1


@settings(max_examples=30, deadline=None)
@given(grid=grids())
def test_reported_ambiguous_cells_match_brute_force(grid):
    puzzle = puzzle_from_grid(grid)
    report = repair(puzzle, grid, mode="off").report
    solutions = np.stack(all_solutions(puzzle))
    differs = np.any(solutions != solutions[0], axis=0)
    assert sorted(map(tuple, report["ambiguous_cells"])) == sorted(map(tuple, np.argwhere(differs).tolist()))
    assert report["status"] == ("unique" if len(solutions) == 1 else "multiple")
    assert report["givens"] == [] and report["edits"] == []


@settings(max_examples=25, deadline=None)
@given(grid=grids(colours=2))
def test_colour_edit_repair_changes_only_reported_cells(grid):
    puzzle = puzzle_from_grid(grid, THREE)
    result = repair(puzzle, grid, mode="edit")
    changed = np.argwhere(result.grid != grid).tolist()
    assert sorted([e["row"], e["col"]] for e in result.report["edits"]) == sorted(changed)
    for e in result.report["edits"]:
        assert grid[e["row"], e["col"]] == e["from"] and result.grid[e["row"], e["col"]] == e["to"]
    assert satisfies(result.puzzle, result.grid)
    solutions = all_solutions(result.puzzle)
    assert len(solutions) == 1 and np.array_equal(solutions[0], result.grid)


@settings(max_examples=20, deadline=None)
@given(grid=grids(max_side=6))
def test_line_solvable_option_makes_line_logic_enough(grid):
    puzzle = puzzle_from_grid(grid)
    result = repair(puzzle, grid, mode="givens", line_solvable=True)
    decided, solved = line_solve(result.puzzle)
    assert solved and np.array_equal(decided, grid)
    assert result.report["line_solvable"] is True


@needs_data
def test_sword_icon_is_repaired_by_a_given():
    imported = image_to_grid(load_image(SWORD))
    puzzle = puzzle_from_grid(imported.grid)
    result = repair(puzzle, imported.grid)
    report = result.report
    assert report["initial_status"] == "multiple" and report["ambiguous_count"] == 24
    assert report["status"] == "unique" and 1 <= len(report["givens"]) <= 2
    assert result.puzzle.same_clues(puzzle) and np.array_equal(result.grid, imported.grid)
    assert line_solve(result.puzzle)[1] == report["line_solvable"]


@needs_data
def test_sword_icon_edit_prefers_few_changes():
    imported = image_to_grid(load_image(SWORD))
    result = repair(puzzle_from_grid(imported.grid), imported.grid, mode="edit",
                    confidence=imported.confidence, alternative=imported.alternative)
    assert result.report["status"] == "unique" and result.report["givens"] == []
    assert 1 <= len(result.report["edits"]) <= 3
    assert np.count_nonzero(result.grid != imported.grid) == len(result.report["edits"])


def test_unknown_mode_and_wrong_target_are_user_errors():
    grid = np.eye(3, dtype=np.uint8)
    with pytest.raises(PuzzleError):
        repair(puzzle_from_grid(grid), grid, mode="magic")
    with pytest.raises(PuzzleError):
        repair(puzzle_from_grid(grid), 1 - grid)
