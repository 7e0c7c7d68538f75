"""Picross 3D solver: the published instance, brute-force agreement, line logic, hiding, repair."""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from nonogen.clues3d import all_lines, derive_clues_3d, line_clue_3d, puzzle3d_from_cells, satisfies_3d, with_clues
from nonogen.model3d import AXES, Puzzle3D
from nonogen.solve.deadline import Deadline, Timeout
from nonogen.make.hide3d import hide_clues
from nonogen.make.repair3d import repair_edit, repair_givens
from nonogen.solve.line3d import line_fixpoint, line_solve3d, solve_line_3d
from nonogen.solve.verify3d import verify3d

from conftest import SHARED_DATA as DATA, needs_shared  # skip, with a reason, without ../shared
KUSANO = DATA / "picross3d" / "kusano2010.json"


def load3d(path: Path) -> Puzzle3D:
    """The shared nonogen-3d reader when present, else a minimal one (tests only)."""
    try:
        from nonogen.formats.nonogen3d import loads
    except ImportError:
        loads = None
    text = path.read_text()
    if loads is not None:
        return loads(text)
    d = json.loads(text)

    def tok(t):
        return None if t is None else (int(t.rstrip("os")), {"o": 2, "s": 3}.get(t[-1], 1))

    clues = {a: [[tok(t) for t in row] for row in d["clues"][a]] for a in AXES}
    goal = np.array([c == "1" for c in d["goal"]]).reshape(d["size"]) if "goal" in d else None
    return Puzzle3D(tuple(d["size"]), clues, goal=goal, givens=[tuple(g) for g in d.get("givens", [])])


def brute_solutions(puzzle: Puzzle3D) -> np.ndarray:
    """Every box meeting the shown clues and givens, by enumerating all 2^(X*Y*Z) boxes (vectorised)."""
    size = puzzle.size
    n = int(np.prod(size))
    codes = np.arange(2**n, dtype=np.int64)
    boxes = ((codes[:, None] >> np.arange(n)) & 1).astype(bool).reshape((-1, *size))
    ok = np.ones(len(boxes), dtype=bool)
    for axis_index, axis in enumerate(AXES):
        lines = np.moveaxis(boxes, axis_index + 1, -1)  # (..., other1, other2, L)
        count = lines.sum(-1)
        groups = (lines[..., 1:] & ~lines[..., :-1]).sum(-1) + lines[..., 0]
        groups = np.clip(groups, 1, 3)
        for i, j in np.ndindex(*lines.shape[1:3]):
            want = puzzle.clues[axis][i][j]
            if want is not None:
                ok &= (count[:, i, j] == want[0]) & (groups[:, i, j] == want[1])
    for x, y, z, v in puzzle.givens:
        ok &= boxes[:, x, y, z] == bool(v)
    return boxes[ok]


@needs_shared
def test_kusano_instance_is_unique_and_solves_to_goal():
    puzzle = load3d(KUSANO)
    assert puzzle.n_clues == 29 and puzzle.n_lines == 47
    result = verify3d(puzzle)
    assert result.status == "unique"
    assert np.array_equal(result.solution, puzzle.goal)
    assert verify3d(puzzle, target=puzzle.goal).status == "unique"
    assert satisfies_3d(puzzle, result.solution)


def _random_case(rng: np.random.Generator, size) -> Puzzle3D:
    cells = rng.random(size) < rng.uniform(0.2, 0.8)
    puzzle = puzzle3d_from_cells(cells).replace(goal=None)
    hide = rng.random(puzzle.n_lines) < rng.uniform(0.0, 0.7)
    flags = dict(zip(all_lines(size), hide, strict=True))
    puzzle = with_clues(puzzle, lambda ln: not flags[ln])
    if rng.random() < 0.2:  # sometimes an unsolvable level: change one shown clue
        shown = [ln for ln in all_lines(size) if not flags[ln]]
        if shown:
            axis, i, j = shown[rng.integers(len(shown))]
            clues = {a: [list(r) for r in puzzle.clues[a]] for a in AXES}
            count, groups = clues[axis][i][j]
            length = size[AXES.index(axis)]
            clues[axis][i][j] = ((count + 1) % (length + 1), 1)
            puzzle = puzzle.replace(clues=clues)
    return puzzle


@pytest.mark.parametrize("size", [(2, 2, 4), (3, 3, 2), (2, 3, 2), (1, 4, 3)])
def test_verdicts_match_brute_force(size):
    rng = np.random.default_rng(sum(size) * 7)
    seen = set()
    for _ in range(25 if np.prod(size) <= 16 else 10):
        puzzle = _random_case(rng, size)
        sols = brute_solutions(puzzle)
        want = {0: "unsolvable", 1: "unique"}.get(len(sols), "multiple")
        result = verify3d(puzzle)
        assert result.status == want
        seen.add(want)
        if want != "unsolvable":
            assert satisfies_3d(puzzle, result.solution)
        if want == "multiple":
            assert satisfies_3d(puzzle, result.second_solution)
            assert not np.array_equal(result.solution, result.second_solution)
        if want == "unique":
            assert np.array_equal(result.solution, sols[0])
            # with the target given, the verdict is the same
            assert verify3d(puzzle, target=sols[0]).status == "unique"
    assert {"unique", "multiple"} <= seen


def test_solutions_meet_every_clue_on_random_boxes():
    rng = np.random.default_rng(5)
    for _ in range(15):
        size = tuple(int(v) for v in rng.integers(1, 7, size=3))
        cells = rng.random(size) < 0.5
        puzzle = puzzle3d_from_cells(cells)
        result = verify3d(puzzle)
        assert result.status in ("unique", "multiple")
        assert derive_clues_3d(result.solution) == puzzle.clues


def test_line_solver_matches_enumeration():
    rng = np.random.default_rng(1)
    for _ in range(300):
        L = int(rng.integers(1, 8))
        line = rng.random(L) < 0.5
        count, groups = line_clue_3d(line)
        known = tuple(int(v) if rng.random() < 0.3 else -1 for v in line)
        fits = [
            p
            for p in itertools.product((0, 1), repeat=L)
            if line_clue_3d(p) == (count, groups) and all(k < 0 or k == v for k, v in zip(known, p, strict=True))
        ]
        want = tuple(fits[0][i] if len({f[i] for f in fits}) == 1 else -1 for i in range(L))
        assert solve_line_3d(count, groups, known) == want


@needs_shared
def test_line_logic_solves_kusano():
    cells, solved = line_solve3d(load3d(KUSANO))
    assert solved and np.array_equal(cells.astype(bool), load3d(KUSANO).goal)


def test_line_rating_honours_the_deadline():
    """The difficulty rating of a big level must not run past --timeout (it is plain Python)."""
    level = puzzle3d_from_cells(_blob(0, (8, 8, 8)))
    with pytest.raises(Timeout):
        line_fixpoint(level, deadline=Deadline(0.0))
    assert line_fixpoint(level, deadline=Deadline(None))[1] == line_solve3d(level)[1]


def _blob(seed: int, size=(5, 5, 5)) -> np.ndarray:
    rng = np.random.default_rng(seed)
    grid = np.indices(size).transpose(1, 2, 3, 0) - (np.array(size) - 1) / 2
    return (np.linalg.norm(grid, axis=-1) + rng.random(size) * 0.8) < 2.4


def test_hiding_keeps_uniqueness():
    cells = _blob(3)
    puzzle = puzzle3d_from_cells(cells)
    assert verify3d(puzzle, target=cells).status == "unique"
    result = hide_clues(puzzle, seed=1)
    assert 0 < result.hidden < result.total
    assert result.puzzle.n_clues == result.total - result.hidden
    check = verify3d(result.puzzle)
    assert check.status == "unique" and np.array_equal(check.solution, cells)
    # greedy maximality: showing nothing more can be removed (every remaining clue is needed)
    some = [ln for ln in all_lines(cells.shape) if result.puzzle.clues[ln[0]][ln[1]][ln[2]] is not None][:5]
    for ln in some:
        fewer = with_clues(result.puzzle, lambda other, ln=ln: other != ln)
        assert verify3d(fewer, target=cells).status == "multiple"


def test_hiding_fraction_and_baseline_agree():
    cells = _blob(4)
    puzzle = puzzle3d_from_cells(cells)
    part = hide_clues(puzzle, fraction=0.2, seed=2)
    assert part.hidden == int(0.2 * part.total)
    fast = hide_clues(puzzle, seed=2)
    slow = hide_clues(puzzle, seed=2, incremental=False)
    assert fast.puzzle.clues == slow.puzzle.clues


@pytest.mark.parametrize("mode", [{}, {"incremental": False}, {"line_solvable": True}])
def test_hiding_reports_its_progress(mode):
    """Hiding clues is the long part of `nonogen mesh` on a big box (minutes at 40 cubes): it says how far it is."""
    cells = _blob(4)
    puzzle = puzzle3d_from_cells(cells)
    if mode.get("line_solvable"):
        puzzle = repair_givens(puzzle, line_solvable=True).puzzle
    seen = []
    result = hide_clues(puzzle, seed=2, on_progress=lambda done, total: seen.append((done, total)), **mode)
    assert seen[0] == (0, result.total) and seen[-1] == (result.total, result.total)
    assert [d for d, _ in seen[:-1]] == list(range(len(seen) - 1))  # one step per clue considered


def test_line_solvable_hiding():
    cells = _blob(5)
    puzzle = puzzle3d_from_cells(cells)
    fixed = repair_givens(puzzle, line_solvable=True).puzzle
    result = hide_clues(fixed, seed=0, line_solvable=True)
    assert result.hidden > 0
    assert line_solve3d(result.puzzle)[1]


def _ambiguous_box(size, seed: int) -> np.ndarray:
    """A random box that is NOT unique with every clue shown (the case repair exists for)."""
    rng = np.random.default_rng(seed)
    while True:  # sparse boxes are ambiguous far more often than half-full ones
        cells = rng.random(size) < 0.25
        if verify3d(puzzle3d_from_cells(cells), target=cells).status == "multiple":
            return cells


def test_repair_givens_makes_random_box_unique():
    cells = _ambiguous_box((4, 4, 4), 11)
    puzzle = puzzle3d_from_cells(cells)
    fixed = repair_givens(puzzle, seed=0)
    assert fixed.unique and fixed.givens
    assert verify3d(fixed.puzzle, target=cells).status == "unique"
    assert all(cells[x, y, z] == bool(v) for x, y, z, v in fixed.givens)


def test_repair_edit_makes_shape_unique():
    cells = _ambiguous_box((4, 4, 3), 12)
    puzzle = puzzle3d_from_cells(cells)
    fixed = repair_edit(puzzle, seed=0)
    assert fixed.unique and fixed.edits
    goal = fixed.puzzle.goal
    assert int((goal != cells).sum()) == len(fixed.edits)
    assert verify3d(fixed.puzzle, target=goal).status == "unique"
    assert fixed.puzzle.clues == derive_clues_3d(goal)
