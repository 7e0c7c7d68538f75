"""Picross 3D line logic in C (the _line3d module, nonogen/solve/line3d.c) against the Python reference.

Both must give the same deductions line by line, and the same cells, line runs, passes and trace
box by box. Hiding that resumes line logic from its trace must hide exactly what a fresh fixpoint
per step hides, and verify's line-first verdicts must be SAT's.
"""
from __future__ import annotations

import os
import random

import numpy as np
import pytest

from nonogen.clues3d import all_lines, line_clue_3d, puzzle3d_from_cells, with_clues
from nonogen.make.hide3d import hide_clues
from nonogen.solve import line3d
from nonogen.solve.cnf3d import encode
from nonogen.solve.line3d import LineIndex3D, solve_line_3d
from nonogen.solve.sat import new_solver
from nonogen.solve.verify3d import verify3d

native = pytest.mark.skipif(line3d._line3d is None, reason="C module _line3d not built")


def test_native_3d_module_is_built():
    """`pip install` compiles it wherever there is a C compiler; CI must not silently run pure Python."""
    if os.environ.get("NONOGEN_PURE_PYTHON"):
        pytest.skip("pure Python asked for")
    assert line3d._line3d is not None and line3d.NATIVE


def _random_line(rng: random.Random) -> tuple[int, int, tuple[int, ...]]:
    """A clue (from a random line, sometimes of another line: contradictions) and a partly known line."""
    length = rng.choice((rng.randint(1, 12), rng.randint(1, 100)))
    cells = [rng.random() < rng.random() for _ in range(length)]
    count, groups = line_clue_3d(cells)
    if rng.random() < 0.3:
        count, groups = line_clue_3d([rng.random() < 0.5 for _ in range(length)])
    known = tuple(int(c) if rng.random() < rng.random() else -1 for c in cells)
    return count, groups, known


@native
def test_c_line_solver_gives_the_python_deductions():
    rng = random.Random(37)
    contradictions = 0
    for _ in range(20000):
        count, groups, known = _random_line(rng)
        want = solve_line_3d.__wrapped__(count, groups, known)
        assert line3d._line3d.solve_line(count, groups, known) == want, (count, groups, known)
        contradictions += want is None
    assert contradictions > 500  # the spoilt clues were exercised


@native
@pytest.mark.parametrize("length", [63, 64, 65, 100, 127])
def test_c_line_solver_at_the_word_edges(length):
    for count in sorted({0, 1, 2, 3, 62, 63, 64, length - 1, length} & set(range(length + 1))):
        for groups in (1, 2, 3):
            if (count == 0 and groups > 1) or 0 < count < groups:
                continue
            blank = (-1,) * length
            assert line3d._line3d.solve_line(count, groups, blank) == solve_line_3d.__wrapped__(count, groups, blank)


def _box(seed: int) -> tuple[LineIndex3D, np.ndarray, list]:
    """A random box with some clues hidden, and a line index over it; sometimes givens that contradict it."""
    rng = np.random.default_rng(seed)
    cells = rng.random(tuple(rng.integers(2, 9, 3))) < rng.uniform(0.2, 0.8)
    hidden = {ln for ln in all_lines(cells.shape) if rng.random() < 0.3}
    lines = LineIndex3D(with_clues(puzzle3d_from_cells(cells), lambda ln: ln not in hidden))
    givens = [(*(int(rng.integers(0, s)) for s in cells.shape), int(rng.integers(0, 2))) for _ in range(seed % 4)]
    return lines, cells, givens


@native
@pytest.mark.parametrize("synchronous", [False, True])
def test_c_fixpoint_gives_the_python_cells_runs_passes_and_trace(monkeypatch, synchronous):
    outcomes = set()
    for seed in range(80):
        lines, _, givens = _box(seed)
        results = []
        for native_on in (True, False):
            monkeypatch.setattr(line3d, "NATIVE", native_on)
            grid = lines.start_grid(givens)
            trace = (np.zeros(lines.n_cells, dtype=np.int32), np.zeros(lines.n_cells, dtype=np.int32))
            done = lines.run(grid, lines.active(), synchronous=synchronous, trace=trace)
            results.append((done, grid.tolist(), trace[0][: done.trace_len].tolist(),
                            trace[1][: done.trace_len].tolist()))
        assert results[0] == results[1], seed
        outcomes.add(results[0][0].status)
    assert outcomes == {-1, 0, 1}  # contradictions, stuck and solved boxes were all met


@native
@pytest.mark.parametrize("slots", [2, None])
def test_remembered_lines_give_the_python_cells_runs_and_trace(monkeypatch, slots):
    """The C memo answers a line read again in a state it has seen; with 2 slots nearly every read overwrites one."""
    for seed in range(40):
        lines, cells, givens = _box(seed)
        if slots:
            lines._memo = np.zeros(slots * line3d._line3d.memo_size(), dtype=np.uint8)
        rng = np.random.default_rng(seed)
        for _ in range(6):  # partly known boxes: the same lines in many states, the memo warm after the first
            known = np.where(rng.random(cells.shape) < rng.uniform(0, 0.6), cells, -1).astype(np.int8)
            results = []
            for native_on in (True, False):
                monkeypatch.setattr(line3d, "NATIVE", native_on)
                grid = lines.start_grid(givens, known)
                trace = (np.zeros(lines.n_cells, dtype=np.int32), np.zeros(lines.n_cells, dtype=np.int32))
                done = lines.run(grid, lines.active(), trace=trace)
                results.append((done, grid.tolist(), trace[0][: done.trace_len].tolist()))
            assert results[0] == results[1], seed


def _clues_to_take_back(seeds: range, per_box: int):
    """(lines, what line logic decided: (grid, when, attr), a clue line that decided something, the active lines
    without it): for whole levels, and levels with a third of their clues hidden already, whether line logic solves
    them or sticks."""
    for seed in seeds:
        lines = LineIndex3D(puzzle3d_from_cells(_shape(seed))) if seed % 2 else _box(seed)[0]
        grid = lines.start_grid()
        trace = (np.zeros(lines.n_cells, dtype=np.int32), np.zeros(lines.n_cells, dtype=np.int32))
        done = lines.run(grid, lines.active(), trace=trace)
        if done.status < 0:
            continue
        when = np.full(lines.n_cells, line3d.NEVER, dtype=np.int64)
        attr = np.full(lines.n_cells, -1, dtype=np.int32)
        when[trace[0][: done.trace_len]] = np.arange(done.trace_len) * 3 + 5  # any rising times will do
        attr[trace[0][: done.trace_len]] = trace[1][: done.trace_len]
        for k in sorted(set(trace[1][: done.trace_len].tolist()))[:per_box]:
            yield lines, (grid, when, attr), k, lines.active([lines.refs[k]])


def _log(lines: LineIndex3D) -> tuple[np.ndarray, ...]:
    n = lines.n_cells
    return np.empty(n, np.int32), np.empty(n, np.int8), np.empty(n, np.int64), np.empty(n, np.int32)


@pytest.mark.parametrize("native_on", [True, False])
def test_taking_a_clue_back_then_resuming_reaches_the_fresh_fixpoint_without_it(monkeypatch, native_on):
    """retract keeps what follows from the other clues, and the lines it names finish the job: the cells and the
    verdict of a fixpoint from scratch without that clue, for every clue that decided something, from a fixpoint that
    solves the level or one stuck short of it. Every cell it keeps is one its line decides on the cells decided before
    it, so the next clue can be taken back in turn; and its log undoes it to the last bit."""
    if native_on and line3d._line3d is None:
        pytest.skip("C module _line3d not built")
    monkeypatch.setattr(line3d, "NATIVE", native_on)
    checked = stuck = partial = 0
    for lines, cells, k, active in _clues_to_take_back(range(60), 12):
        grid, when, attr = (a.copy() for a in cells)
        log = _log(lines)
        logged, start, dropped, _ = lines.retract(k, active, (grid, when, attr), log)
        assert dropped == (cells[0] >= 0).sum() - (grid >= 0).sum() and k not in attr.tolist()
        _assert_derivation(lines, active, grid, when, attr)
        undone = [a.copy() for a in (grid, when, attr)]
        for array, column in zip(undone, log[1:], strict=True):
            array[log[0][:logged]] = column[:logged]
        assert all(np.array_equal(a, b) for a, b in zip(undone, cells, strict=True))
        trace = (np.zeros(lines.n_cells, dtype=np.int32), np.zeros(lines.n_cells, dtype=np.int32))
        done = lines.run(grid, active, start=start, trace=trace)
        fresh = lines.start_grid()
        want = lines.run(fresh, active)
        assert (done.status, grid.tolist()) == (want.status, fresh.tolist()), k
        new = trace[0][: done.trace_len]
        when[new], attr[new] = np.arange(done.trace_len) + int(when[when < line3d.NEVER].max(initial=0)) + 1, \
            trace[1][: done.trace_len]
        _assert_derivation(lines, active, grid, when, attr)
        checked += 1
        stuck += want.status == 0
        partial += (cells[0] < 0).any()
    assert checked > 100 and stuck >= 5 and partial >= 5  # clues line logic could and could not do without


def _assert_derivation(lines: LineIndex3D, active, grid, when, attr) -> None:
    """Every decided cell is one its line decides, read on the cells decided before it."""
    for c in np.flatnonzero(grid >= 0).tolist():
        k = int(attr[c])
        assert active[k]
        cells = lines.line_cells[lines.line_start[k] : lines.line_start[k + 1]]
        known = tuple(int(grid[d]) if grid[d] >= 0 and when[d] < when[c] else -1 for d in cells.tolist())
        out = solve_line_3d(int(lines.count[k]), int(lines.groups[k]), known)
        assert out is not None and out[int(np.flatnonzero(cells == c)[0])] == grid[c]


@native
def test_c_retract_is_the_python_one(monkeypatch):
    for lines, cells, k, active in _clues_to_take_back(range(40), 8):
        results = []
        for native_on in (True, False):
            monkeypatch.setattr(line3d, "NATIVE", native_on)
            mine, log = tuple(a.copy() for a in cells), _log(lines)
            logged, start, dropped, runs = lines.retract(k, active, mine, log)
            results.append((logged, start.tolist(), dropped, runs, [a.tolist() for a in mine],
                            [column[:logged].tolist() for column in log]))
        assert results[0] == results[1], k


@native
def test_c_module_refuses_arrays_that_do_not_fit():
    lines = LineIndex3D(puzzle3d_from_cells(_shape(1)))
    n = lines.n_cells
    grid, trace = lines.start_grid(), (np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int32))
    cells = (grid, np.full(n, line3d.NEVER), np.full(n, -1, dtype=np.int32))
    heap, marked, start = lines._scratch()
    retract = line3d._line3d.retract
    with pytest.raises(ValueError):  # no such line
        retract(lines.box, lines.active(), len(lines.refs), cells, _log(lines), heap, marked, start)
    with pytest.raises(ValueError):  # a log too short
        retract(lines.box, lines.active(), 0, cells, tuple(a[:-1] for a in _log(lines)), heap, marked, start)
    with pytest.raises(ValueError):  # a mark a cell, not a line
        retract(lines.box, lines.active(), 0, cells, _log(lines), heap, np.full(n, line3d.NEVER), start)
    with pytest.raises(TypeError):  # times of 32 bits
        retract(lines.box, lines.active(), 0, (grid, cells[1].astype(np.int32), cells[2]), _log(lines), heap, marked,
                start)
    spoilt = list(lines.box)  # a new box is checked, even after a good one was
    spoilt[1] = lines.line_cells.copy()
    spoilt[1][0] = lines.n_cells
    with pytest.raises(ValueError):
        line3d._line3d.run(tuple(spoilt), lines.active(), grid, start[:0], False, trace[0], trace[1], 0)
    with pytest.raises(ValueError):  # 3 slots: not a power of two
        line3d._line3d.run(lines.box, lines.active(), grid, start[:0], False, trace[0], trace[1], 0,
                           np.zeros(3 * line3d._line3d.memo_size(), dtype=np.uint8))


def _fresh_fixpoint_hiding(puzzle, seed: int) -> list:
    """Line-solvable hiding as it was before the trace: a fresh fixpoint for every clue."""
    lines = LineIndex3D(puzzle)
    order = [ln for ln in all_lines(puzzle.size) if ln in lines.number]
    random.Random(seed).shuffle(order)
    hidden: dict = {}
    for ln in order:
        hidden[ln] = None
        if not lines.fixpoint(puzzle.givens, hidden=hidden)[1]:
            hidden.pop(ln)
    return list(hidden)


def _shape(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    size = tuple(rng.integers(4, 8, 3))
    grid = np.indices(size).transpose(1, 2, 3, 0) - (np.array(size) - 1) / 2
    return (np.linalg.norm(grid, axis=-1) + rng.random(size) * 1.2) < 2.6


def test_hiding_that_resumes_line_logic_hides_what_fresh_fixpoints_hide():
    tried = 0
    for seed in range(12):
        puzzle = puzzle3d_from_cells(_shape(seed))
        if not LineIndex3D(puzzle).fixpoint()[1]:
            continue
        tried += 1
        assert hide_clues(puzzle, seed=seed, line_solvable=True).sequence == _fresh_fixpoint_hiding(puzzle, seed)
    assert tried >= 4


def test_sat_hiding_that_asks_line_logic_first_hides_what_the_solver_alone_hides():
    for seed in range(4):
        puzzle = puzzle3d_from_cells(_shape(seed))
        if verify3d(puzzle, target=puzzle.goal).status != "unique":
            continue
        assert hide_clues(puzzle, seed=seed).sequence == hide_clues(puzzle, seed=seed, incremental=False).sequence


def test_hiding_goes_on_with_line_logic_after_the_solver_hid_a_clue(monkeypatch):
    """Random 6^3 boxes line logic cannot solve once the solver has hidden a clue it needs: the clues after that are
    taken back from the fixpoint line logic stuck at, then searched, and the clues hidden are still the solver's."""
    from nonogen.make.trace3d import LineTrace

    stuck = []
    hide = LineTrace.hide
    monkeypatch.setattr(LineTrace, "hide", lambda self, ln: stuck.append(not self.solved) or hide(self, ln))
    for seed in (5, 8, 10):
        puzzle = puzzle3d_from_cells(np.random.default_rng(seed).random((6, 6, 6)) < 0.5)
        assert verify3d(puzzle, target=puzzle.goal).status == "unique"
        assert hide_clues(puzzle, seed=seed).sequence == hide_clues(puzzle, seed=seed, incremental=False).sequence
    assert sum(stuck) > 50


def _sat_alone(level) -> tuple[str, object]:
    """The verdict of the whole CNF, no line logic (the engine before): the status and the solution when unique."""
    enc = encode(level)
    with new_solver("box", enc.clauses) as solver:
        if not solver.solve():
            return "unsolvable", None
        first = enc.decode(solver.get_model())
        solver.add_clause(enc.block(first))
        return ("multiple", None) if solver.solve() else ("unique", first)


def test_line_first_verdicts_are_the_sat_verdicts():
    """Line logic decides first now, and SAT gets only the residue; SAT on the whole CNF must agree on every box."""
    statuses = set()
    levels = []
    for seed in range(60):
        lines, cells, givens = _box(seed)
        rng = np.random.default_rng(seed)
        hidden = {ln for ln in all_lines(cells.shape) if rng.random() < 0.4}
        levels.append(with_clues(puzzle3d_from_cells(cells), lambda ln, hidden=hidden: ln not in hidden)
                      .replace(givens=givens))
    for seed in range(3):  # random 9^3 boxes with every clue: unique, but line logic leaves cubes open
        levels.append(puzzle3d_from_cells(np.random.default_rng(seed).random((9, 9, 9)) < 0.5))
    for seed, level in enumerate(levels):
        got = verify3d(level, timeout=60)
        status, solution = _sat_alone(level)
        assert got.status == status, seed
        if status == "unique":
            assert np.array_equal(got.solution, solution)
        statuses.add((got.status, got.difficulty))
    assert statuses >= {("unique", "line"), ("unique", "search"), ("multiple", None), ("unsolvable", None)}


def test_an_index_with_other_clues_answers_as_a_fresh_one():
    """The 3D editor's session keeps a level's index between edits: with a cube flipped (three clues changed), the
    index taken over answers as one built for the edited level; another box gets one of its own."""
    cells = _shape(3)
    lines = LineIndex3D(puzzle3d_from_cells(cells))
    lines.fixpoint()  # its memo warm with the old clues
    for cube in [(1, 2, 2), (0, 0, 0), (2, 3, 1)]:
        cells = cells.copy()
        cells[cube] = not cells[cube]
        edited = puzzle3d_from_cells(cells)
        taken = lines.with_clues(edited)
        fresh = LineIndex3D(edited)
        assert taken.line_cells is lines.line_cells and taken.count.tolist() == fresh.count.tolist()
        assert [a.tolist() for a in taken.fixpoint()[:1]] == [a.tolist() for a in fresh.fixpoint()[:1]]
        assert taken.passes()[:3] == fresh.passes()[:3]
        lines = taken
    other = lines.with_clues(puzzle3d_from_cells(np.ones((3, 4, 5), dtype=bool)))
    assert other.size == (3, 4, 5) and other.line_cells is not lines.line_cells
