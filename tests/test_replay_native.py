"""The grade's line logic in C (nonogen/solve/replay.c) against the Python replay it replaces (grade.py).

The replay is a fixed sequence of steps, so both must give the same measures and the same
step of every cell, puzzle for puzzle: any difference is a bug in one of them.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nonogen import Color, formats, puzzle_from_grid
from nonogen.model import Puzzle
from nonogen.solve import propagate
from nonogen.solve.deadline import Deadline, Timeout
from nonogen.solve.grade import _Replay, measure2d, replay
from nonogen.solve.propagate import Contradiction

from conftest import SHARED_DATA  # ../shared beside the repository, or NONOGEN_SHARED

pytestmark = pytest.mark.skipif(propagate._linelogic is None, reason="C module not built")

ROOT = Path(__file__).resolve().parents[1]
WEBPBN = SHARED_DATA / "puzzles" / "webpbn"
PALETTE = (Color("white", "#ffffff", "."), Color("red", "#ff0000", "r"), Color("blue", "#0000ff", "b"),
           Color("green", "#00ff00", "g"))


def both(puzzle: Puzzle, monkeypatch: pytest.MonkeyPatch, seconds: float = 60.0):
    """The replay with line logic in C, then in Python."""
    results = []
    for native in (True, False):
        monkeypatch.setattr(_Replay, "native_line_logic", native)
        results.append(replay(puzzle, deadline=Deadline(seconds)))
    return results


def assert_same(puzzle: Puzzle, monkeypatch: pytest.MonkeyPatch) -> None:
    c, python = both(puzzle, monkeypatch)
    assert c.measures == python.measures
    assert c.kinds == python.kinds
    assert c.step == python.step


def test_the_c_line_logic_runs():
    """Without it the comparisons below would compare Python with itself."""
    puzzle = formats.load(ROOT / "samples" / "puzzles" / "heart.non")
    solve = _Replay(puzzle, Deadline(None))
    assert solve.lines_c is not None
    solve.run()
    assert solve.passes > 0 and "overlap" in solve.kinds


def samples() -> list[Puzzle]:
    found = []
    for path in sorted((ROOT / "samples" / "puzzles").iterdir()):
        try:
            found += [p for p in formats.load_all(path) if isinstance(p, Puzzle)]
        except Exception:  # not a puzzle file (SOURCES.md), or a 3D level's format
            continue
    return found


def test_samples_replay_the_same(monkeypatch):
    """The shipped puzzles: colour, givens (key-givens.json), lookahead, an unsolvable one."""
    puzzles = samples()
    assert len(puzzles) >= 20 and any(p.givens for p in puzzles) and any(len(p.palette) > 2 for p in puzzles)
    for puzzle in puzzles:
        assert_same(puzzle, monkeypatch)


@pytest.mark.skipif(not WEBPBN.is_dir(), reason=f"the shared webpbn survey files are not in {WEBPBN}")
def test_webpbn_replays_the_same(monkeypatch):
    """Every 8th webpbn puzzle of the shared survey folders: long chains, hard lines, lookahead."""
    paths = sorted(WEBPBN.glob("*/*.non"))[::8]
    measured = []
    for path in paths:
        for puzzle in formats.load_all(path):
            c, python = both(puzzle, monkeypatch)
            assert (c.measures, c.kinds, c.step) == (python.measures, python.kinds, python.step), path
            measured.append(c.measures)
    assert len(measured) > 50
    assert any(m and m.hard_lines for m in measured) and any(m and m.sweeps for m in measured)


def random_grid(rng: random.Random, height: int, width: int, colours: int, density: float) -> Puzzle:
    grid = [[rng.randint(1, colours) if rng.random() < density else 0 for _ in range(width)] for _ in range(height)]
    givens = [(r, c, grid[r][c]) for r in range(height) for c in range(width) if rng.random() < 0.03]
    return puzzle_from_grid(grid, PALETTE[: colours + 1], givens=givens)


@pytest.mark.parametrize("size,colours", [(5, 1), (10, 1), (20, 1), (30, 1), (8, 2), (15, 3), (25, 2)])
def test_random_grids_replay_the_same(monkeypatch, size, colours):
    """Random grids (often several solutions, so lookahead and search), some with givens."""
    rng = random.Random(size * 10 + colours)
    for _ in range(40 if size <= 10 else 12):
        assert_same(random_grid(rng, size, size + rng.randint(-2, 2), colours, rng.choice([0.4, 0.5, 0.6])),
                    monkeypatch)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(1, 12), st.integers(1, 12), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_any_small_grid_replays_the_same(monkeypatch, height, width, colours, seed):
    assert_same(random_grid(random.Random(seed), height, width, colours, 0.5), monkeypatch)


def test_contradictions_stop_both_at_the_same_step(monkeypatch):
    """Clues with no solution: both stop where line logic meets the contradiction, with the same steps so far."""
    rng = random.Random(3)
    stopped = 0
    for _ in range(80):
        puzzle = random_grid(rng, 12, 12, 1, 0.5)
        rows = [list(clue) for clue in puzzle.rows]
        r = rng.choice([i for i, clue in enumerate(rows) if clue])
        i = rng.randrange(len(rows[r]))
        rows[r][i] = (rows[r][i][0] + 1, rows[r][i][1])  # one cell more in one row: the counts no longer agree
        try:
            spoilt = Puzzle([tuple(c) for c in rows], puzzle.cols, puzzle.palette)
        except ValueError:  # the row no longer fits
            continue
        c, python = both(spoilt, monkeypatch)
        assert (c.measures, c.kinds, c.step) == (python.measures, python.kinds, python.step)
        stopped += c.measures is None
        monkeypatch.setattr(_Replay, "native_line_logic", True)
        with pytest.raises(Contradiction):
            measure2d(spoilt)
    assert stopped > 10


def test_the_deadline_stops_the_c_line_logic(monkeypatch):
    monkeypatch.setattr(_Replay, "native_line_logic", True)
    puzzle = formats.load(ROOT / "samples" / "puzzles" / "heart.non")
    with pytest.raises(Timeout):
        measure2d(puzzle, deadline=Deadline(-1.0))


def test_lookahead_depths_are_the_same(monkeypatch):
    """Every value of every open cell where line logic stalls, followed up to 40 passes in C and in Python.

    Python reads a pass's lines in the order of a set, which replay.c mirrors; long chains touch many lines,
    so the sets grow past their first sizes."""
    rng = random.Random(7)
    compared = deep = 0
    for size, colours in [(12, 1), (25, 1), (40, 1), (20, 2), (15, 3)]:
        for _ in range(4):
            puzzle = random_grid(rng, size, size, colours, 0.55)
            monkeypatch.setattr(_Replay, "native_line_logic", True)
            solve = _Replay(puzzle, Deadline(None))
            try:
                solve.line_logic(set(range(puzzle.height + puzzle.width)))
            except Contradiction:
                continue
            lines_c, solve.lines_c = solve.lines_c, None
            for cell in solve.grid.undecided(solve.masks)[:40]:
                mask = solve.masks[cell]
                for value in (1 << b for b in range(mask.bit_length()) if mask >> b & 1):
                    python = solve._depth(cell, value, 40)
                    assert lines_c.depth(solve.masks, cell, value, 40) == python, (size, colours, cell, value)
                    compared += 1
                    deep += python > 3
    assert compared > 200 and deep > 10


KEPT_FIXPOINTS = ["10104", "10561", "10665", "12319", "12728", "13181"]
"""Puzzles whose grades went wrong when a trial from a kept fixpoint skipped the lines the masks had narrowed."""


@pytest.mark.skipif(not WEBPBN.is_dir(), reason=f"shared webpbn puzzles not found in {WEBPBN}")
@pytest.mark.parametrize("number", KEPT_FIXPOINTS)
def test_sweeps_from_kept_fixpoints_refute_what_fresh_trials_refute(number, monkeypatch):
    """refute.c starts each trial of a sweep from the fixpoint the same trial reached in the sweep before: at every
    sweep of the replay, the grid that kept them must refute exactly what a fresh grid (trials from scratch) does."""
    real = propagate.Grid.refutations
    sweeps = []

    def checked(grid, masks, deadline):
        found = real(grid, masks, deadline)
        assert found == real(propagate.Grid(grid.puzzle), masks[:], deadline)
        sweeps.append(found)
        return found

    monkeypatch.setattr(propagate.Grid, "refutations", checked)
    measures = measure2d(formats.load(WEBPBN / "griddler-hardtests-non" / f"{number}.non"))
    assert measures.sweeps >= 2 and len(sweeps) >= 2
