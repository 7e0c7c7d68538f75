"""The numpy-free grids of the model and the engine, and what users still get: numpy arrays."""
from __future__ import annotations

import copy
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import nonogen
from nonogen.clues import derive_clues, puzzle_from_grid, satisfies
from nonogen.errors import PuzzleError
from nonogen.grids import flat, rows_in, rows_of

CROSS = [[0, 1, 0], [1, 1, 1], [0, 1, 0]]


def test_rows_of_takes_lists_arrays_and_rows_alike():
    rows = rows_of(CROSS)
    assert rows == (b"\x00\x01\x00", b"\x01\x01\x01", b"\x00\x01\x00")
    assert rows_of(np.array(CROSS, dtype=np.int64)) == rows == rows_of(np.array(CROSS, dtype=bool))
    assert rows_of(rows) is rows
    assert flat(CROSS) == flat(rows) == b"".join(rows)
    for bad in ([[0, 256]], [[-1, 0]], np.array([[300]]), [[0, 1], [1]], np.zeros((2, 2, 2))):
        with pytest.raises(ValueError):
            rows_of(bad)


def test_derive_clues_needs_no_numpy_and_reads_touching_colours():
    assert derive_clues([[1, 1, 2, 0, 2]]) == (((((2, 1), (1, 2), (1, 2))),), (((1, 1),), ((1, 1),), ((1, 2),), (), ((1, 2),)))
    assert derive_clues(np.array([[1, 1], [0, 1]])) == derive_clues([[1, 1], [0, 1]])


def test_puzzle_goal_is_a_read_only_array_kept_as_rows():
    """The goal reads as numpy, compares and pickles whatever form it was given in, and never changes."""
    from_list, from_array = puzzle_from_grid(CROSS), puzzle_from_grid(np.array(CROSS))
    assert from_list == from_array and rows_in(from_list, "goal") == rows_of(CROSS)
    goal = from_list.goal
    assert isinstance(goal, np.ndarray) and goal.dtype == np.uint8 and goal.tolist() == CROSS
    with pytest.raises(ValueError):
        goal[0, 0] = 1
    with pytest.raises(AttributeError):
        from_list.goal = None
    for twin in (pickle.loads(pickle.dumps(from_list)), copy.deepcopy(from_list), from_list.replace(meta={})):
        assert twin.same_clues(from_list) and np.array_equal(twin.goal, goal)
    with pytest.raises(PuzzleError, match="goal is 2x3 cells, expected 3x3"):
        from_list.replace(goal=[[0, 1], [1, 1], [0, 1]])
    with pytest.raises(PuzzleError, match="goal: grid values must be colour indices"):
        from_list.replace(goal=[[0, 1, 0], [1, 1, 999], [0, 1, 0]])
    with pytest.raises(TypeError, match="no field size"):
        from_list.replace(size=3)


def test_verify_results_hand_out_writable_arrays():
    """The engine makes rows; a user reading .solution gets a numpy array of their own, as before."""
    result = nonogen.verify(puzzle_from_grid([[1, 0, 0], [0, 1, 0], [0, 0, 1]]))
    assert result.status == "multiple"
    assert isinstance(result.solution, np.ndarray) and isinstance(result.second_solution, np.ndarray)
    assert result.ambiguous.any() and satisfies(puzzle_from_grid(np.eye(3, dtype=int)), result.solution)
    result.solution[0, 0] = 0  # writable, as the engine's arrays always were


def test_verify_and_its_records_load_no_numpy(tmp_path):
    """Verifying a puzzle with a goal, one with two solutions (with ambiguity), a TAAI bundle and a .txt
    that the 3D sniffers look at too, and giving a puzzle with a goal givens, from Python: numpy stays out
    (the 3D readers loaded it to sniff, and replace() read the goal as an array)."""
    (tmp_path / "goal.non").write_text("width 3\nheight 3\nrows\n1\n3\n1\ncolumns\n1\n3\n1\ngoal 010111010\n")
    (tmp_path / "two.non").write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")
    samples = Path(__file__).resolve().parent.parent / "samples" / "puzzles"
    probe = ("import sys, nonogen; recs = list(nonogen.verify_paths(sys.argv[1:])); "
             "nonogen.load(sys.argv[1] + '/goal.non').replace(givens=((0, 1, 1),)); "  # replace() kept the goal as rows
             "print(len(recs), recs[1]['status'], len(recs[1]['ambiguous_cells']), 'numpy' in sys.modules)")
    paths = [tmp_path, samples / "checker-taai.txt", samples / "lambda.txt"]
    done = subprocess.run([sys.executable, "-c", probe, *map(str, paths)], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["4", "multiple", "4", "False"]
