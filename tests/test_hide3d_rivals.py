"""Hiding Picross 3D clues asks line logic for a second solution before it asks the solver.

A clue line logic cannot do without is kept when a guess or two against the
goal, finished by line logic, give a box meeting every other shown clue; only
then is the solver skipped. The hiding must keep exactly the clues the solver
alone keeps, every rival found must really be one, and the check of a box
against the clues must be able to say no.
"""
from __future__ import annotations

import numpy as np
import pytest

from nonogen.clues3d import line_cells, line_clue_3d, puzzle3d_from_cells, with_clues
from nonogen.make import hide3d
from nonogen.make.hide3d import hide_clues
from nonogen.make.trace3d import LineTrace
from nonogen.solve.deadline import Clock
from nonogen.solve.line3d import LineIndex3D
from nonogen.solve.verify3d import verify3d


def _shape(seed: int) -> np.ndarray:
    """A lumpy ball in a box of 4-7 cubes a side: line logic solves many such, and their clues are partly needed."""
    rng = np.random.default_rng(seed)
    size = tuple(rng.integers(4, 8, 3))
    grid = np.indices(size).transpose(1, 2, 3, 0) - (np.array(size) - 1) / 2
    return (np.linalg.norm(grid, axis=-1) + rng.random(size) * 1.2) < 2.6


def _unique_shapes(count: int):
    for seed in range(count):
        puzzle = puzzle3d_from_cells(_shape(seed))
        if verify3d(puzzle, target=puzzle.goal).status == "unique":
            yield seed, puzzle


def test_the_logic_rivals_keep_exactly_the_clues_the_solver_alone_keeps():
    found = 0
    for seed, puzzle in _unique_shapes(10):
        fast = hide_clues(puzzle, seed=seed)
        assert fast.sequence == hide_clues(puzzle, seed=seed, incremental=False).sequence
        found += fast.stats["rivals_found"]
    assert found > 20  # the rival search did the work, not the solver


@pytest.mark.parametrize("seed", range(6))
def test_every_rival_found_is_another_solution_of_the_shown_clues(seed):
    puzzle = puzzle3d_from_cells(_shape(seed))
    lines = LineIndex3D(puzzle)
    trace = LineTrace(lines, puzzle)
    if not trace.solved:
        pytest.skip("line logic does not solve this shape with every clue shown")
    goal = np.asarray(puzzle.goal, dtype=bool).ravel()
    checked = 0
    for ln in lines.refs:
        if trace.hide(ln):
            continue
        if not trace.search_without(ln, hide3d.SEARCH_READS):
            continue
        rival = trace.rival
        assert rival is not None
        checked += 1
        assert np.any(rival.astype(bool) != goal)
        for other in lines.refs:
            k = lines.number[other]
            if other != ln and trace.active[k]:
                values = rival.astype(bool)[line_cells(puzzle.size, other)]
                assert line_clue_3d(values) == (int(lines.count[k]), int(lines.groups[k]))
    assert checked > 0


def test_a_box_off_by_one_cube_does_not_meet_the_clues():
    puzzle = puzzle3d_from_cells(_shape(1))
    trace = LineTrace(LineIndex3D(puzzle), puzzle)
    goal = np.asarray(puzzle.goal, dtype=np.int8).ravel()
    assert trace._meets_clues(goal)
    for cell in range(0, goal.size, 7):
        off = goal.copy()
        off[cell] = 1 - off[cell]
        assert not trace._meets_clues(off)


def test_the_solver_built_late_knows_every_clue_decided_before(monkeypatch):
    """With no search, every clue line logic cannot drop goes to the solver, built at the first such question
    after many clues were decided without it: its answers must still be the fresh solver's."""
    monkeypatch.setattr(hide3d, "SEARCH_READS", 0)
    calls = 0
    for seed, puzzle in _unique_shapes(4):
        late = hide_clues(puzzle, seed=seed)
        assert late.sequence == hide_clues(puzzle, seed=seed, incremental=False).sequence
        assert late.stats["rivals_found"] == 0
        calls += late.stats["solver_calls"]
    assert calls > 20


def test_the_search_and_the_residue_solver_answer_as_a_proof_from_scratch():
    """Every clue line logic cannot do without, along a greedy hiding: the search's verdict (when it reaches one, with
    a small and a large budget) and the solver's on the residue are those of verify3d on the level without that clue,
    and the hiding goes on past clues hidden that line logic needed (its fixpoint no longer solves the level)."""
    shapes = [_shape(seed) for seed in range(3)] + [np.random.default_rng(s).random((7, 7, 7)) < 0.6 for s in (0, 4)]
    verdicts = []
    for cells in shapes:
        puzzle = puzzle3d_from_cells(cells)
        if verify3d(puzzle, target=puzzle.goal).status != "unique":
            continue
        lines = LineIndex3D(puzzle)
        trace = LineTrace(lines, puzzle)
        hidden: set = set()
        for ln in lines.refs:
            if trace.hide(ln):
                hidden.add(ln)
                continue
            level = with_clues(puzzle, lambda other, ln=ln, hidden=hidden: other not in hidden and other != ln)
            rival = verify3d(level, target=puzzle.goal).status != "unique"
            assert hide3d._residue_rival(trace, ln, Clock(None), hide3d._Work(0)) is rival
            for reads in (3, hide3d.SEARCH_READS):
                assert trace.search_without(ln, reads) in (None, rival)
            assert hide3d._residue_rival(trace, ln, Clock(None), hide3d._Work(0)) is rival  # with the cubes proved
            verdicts.append(rival)
            if not rival:
                hidden.add(ln)
                trace.forget(ln)
    assert verdicts.count(True) > 50 and verdicts.count(False) > 20  # random boxes: clues hidden that line logic needs
