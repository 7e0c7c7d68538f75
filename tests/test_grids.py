"""The numpy-free grids of the model and the engine, and what users still get: numpy arrays."""
from __future__ import annotations

import ast
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
    assert derive_clues([[1, 1, 2, 0, 2]]) == ((((2, 1), (1, 2), (1, 2)),),
                                               (((1, 1),), ((1, 1),), ((1, 2),), (), ((1, 2),)))
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


# --- the rule as a file rule: the 2D verify path imports no numpy ---------------------------------

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "scipy", "PIL", "trimesh", "skimage")
DOORS = {
    ("nonogen.solve", "nonogen.solve.verify3d"): "verify() hands a Picross 3D level to the 3D half",
    ("nonogen.grids", "nonogen.arrays"): "a user who reads a grid gets a numpy array",
    ("nonogen.batch", "nonogen.scanning"): "a picture or PDF named to verify is scanned first (numpy, OpenCV)",
}
"""The function-level imports through which the 2D verify path leaves for numpy, and why."""


def _file(module: str) -> Path:
    path = ROOT.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _imports(module: str) -> list[tuple[str, bool]]:
    """``(module imported, inside a function)`` for every import in ``module``'s file but those only type checkers
    see."""
    path = _file(module)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                child = ast.Module(body=child.orelse, type_ignores=[])
            if isinstance(child, ast.Import):
                found.extend((alias.name, in_function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                parts = package.split(".")
                base = (".".join(parts[: len(parts) - child.level + 1] + [child.module or ""]).strip(".")
                        if child.level else child.module)
                for alias in child.names:  # a submodule when the name is one, else the module it comes from
                    submodule = f"{base}.{alias.name}"
                    found.append((submodule if _file(submodule).exists() else base, in_function))
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(ast.parse(path.read_text()), False)
    return found


def _verify_path_2d() -> set[str]:
    """Every module ``nonogen verify`` and ``nonogen.verify_paths`` can load for a 2D puzzle: the static closure.

    Imports anywhere in a file count (top level or in a function), except through the :data:`DOORS`; the
    format readers the registry loads by name are added as entry points (the 3D ones only read 3D files).
    """
    from nonogen import formats

    readers = {formats.FORMATS[name].looks_like.__module__
               for name in formats.FORMATS if name not in formats.FORMATS_3D}
    todo = ["nonogen", "nonogen.cli.verify", "nonogen.batch", "nonogen.solve.verify", *readers]
    seen: set[str] = set()
    while todo:
        module = todo.pop()
        if module in seen or not _file(module).exists():  # the C module has no source file
            continue
        seen.add(module)
        todo.extend(module.rsplit(".", k)[0] for k in range(1, module.count(".") + 1))  # its packages run first
        todo.extend(t for t, _ in _imports(module) if t.startswith("nonogen") and (module, t) not in DOORS)
    return seen


def test_the_2d_verify_path_imports_no_numpy_at_any_level():
    """"2D runs without numpy" was a habit of hiding imports in function bodies; now it is a rule on files:
    no file ``nonogen verify`` can load for a 2D puzzle imports numpy, scipy, Pillow, trimesh or scikit-image,
    not even inside a function. The 3D half (model3d, clues3d, the 3D engine) imports numpy at the top."""
    path = _verify_path_2d()
    assert {"nonogen.solve.session", "nonogen.formats.non", "nonogen.palette", "nonogen.executors"} <= path
    heavy = {m: sorted({t for t, _ in _imports(m) if t.split(".")[0] in HEAVY}) for m in sorted(path)}
    assert not {m: found for m, found in heavy.items() if found}
    for (module, target), why in DOORS.items():  # a door is opened only by the code that needs it
        assert (target, True) in _imports(module) and (target, False) not in _imports(module), why
