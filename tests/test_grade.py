"""The difficulty grade: calibration on graded material, monotonicity, and aiming at a grade."""
from __future__ import annotations

import csv
import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonogen import formats
from nonogen.clues import puzzle3d_from_cells, puzzle_from_grid
from nonogen.make.level3d import make_level
from nonogen.solve import Session, verify
from nonogen.solve.grade import Measures, grade_of_score, score, score3d

measures = st.builds(
    Measures,
    cells=st.integers(1, 10_000),
    passes=st.integers(0, 500),
    line_reads=st.integers(0, 5000),
    sweeps=st.integers(0, 60),
    deductions=st.integers(0, 5000),
    depth=st.integers(0, 12),
    search=st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(measures, st.sampled_from(["passes", "sweeps", "depth", "search"]), st.integers(1, 30))
def test_harder_steps_never_lower_the_score(m, field, more):
    """Monotone: more passes, sweeps, depth or needing search never lowers the score."""
    if field in ("sweeps", "depth") and m.sweeps == 0:
        m = dataclasses.replace(m, sweeps=1, depth=max(m.depth, 2))
    harder = dataclasses.replace(m, search=True) if field == "search" else dataclasses.replace(m, **{field: getattr(m, field) + more})
    assert score(harder) >= score(m)
    assert 1.0 <= score(m) <= 5.0 and grade_of_score(score(m)) in (1, 2, 3, 4, 5)


def test_lookahead_always_scores_above_line_logic():
    line_only = Measures(cells=100, passes=500, line_reads=0, sweeps=0, deductions=0, depth=0, search=False)
    lookahead = Measures(cells=100, passes=1, line_reads=0, sweeps=1, deductions=1, depth=2, search=False)
    assert score(line_only) < 2.0 <= score(lookahead)


def test_3d_score_is_monotone():
    scores = [score3d(p, True) for p in range(0, 40)]
    assert scores == sorted(scores) and scores[-1] < 4 and score3d(3, False) == 5.0


def test_grade_does_not_depend_on_what_the_session_did_before():
    grid = np.array([[1, 1, 0, 1], [0, 1, 1, 1], [1, 0, 1, 0], [1, 1, 1, 1]])
    session = Session(puzzle_from_grid(grid))
    first = session.verify(grade=True)
    session.ambiguity(grid)
    again = session.verify(grade=True)
    fresh = verify(puzzle_from_grid(grid))
    assert (first.grade, first.score) == (again.grade, again.score) == (fresh.grade, fresh.score)


def test_a_session_gives_the_same_difficulty_twice():
    """Regression: a second verify of a state probed before said 'line' (its masks were already solved)."""
    session = Session(formats.load("samples/puzzles/lambda.txt"))
    first, second = session.verify(grade=True), session.verify(grade=True)
    assert first.difficulty == second.difficulty == "probe" and first.grade == second.grade


def test_multiple_solutions_grade_five_and_unsolvable_none():
    assert verify(puzzle_from_grid(np.eye(3, dtype=int))).grade == 5
    bad = puzzle_from_grid(np.eye(2, dtype=int)).replace(rows=(((2, 1),), ((1, 1),)), goal=None)
    assert verify(bad).grade is None


def test_survey_tiers(shared_data):
    """Calibration: every survey `easy` puzzle <= 2, every `hard` >= 4, every puzzle that needs search 5."""
    folder = shared_data / "puzzles" / "webpbn"
    rows = [r for r in csv.DictReader(open(folder / "survey-sample.csv")) if r["tier"] != "extreme"]
    for row in rows:
        result = verify(formats.load(folder / "survey-sample-non" / row["file"]), timeout=60)
        assert result.grade is not None, row["file"]
        if row["tier"] == "easy":
            assert result.grade <= 2, (row["file"], result.score)
        if row["tier"] == "hard":
            assert result.grade >= 4, (row["file"], result.score)
        if result.difficulty == "search" or result.status == "multiple":
            assert result.grade == 5, (row["file"], result.score)


def _dog() -> np.ndarray:
    """A small animal of cubes: a body, four legs, a head and a tail."""
    cells = np.zeros((9, 6, 3), dtype=bool)
    cells[1:7, 1:3, :] = True
    cells[[1, 1, 6, 6], 3:6, [0, 2, 0, 2]] = True
    cells[6:9, 0:2, 1] = True
    cells[0, 0, 1] = True
    return cells


@pytest.mark.parametrize("grade", [1, 2])
def test_mesh_levels_aim_at_a_grade(grade):
    level = make_level(_dog(), grade=grade, timeout=60).report
    assert level["status"] == "unique"
    assert level["grade"] == grade or any(f"grade {grade} not reached" in n for n in level["notes"])
    assert level["line_solvable"]


def test_grade_four_is_not_a_3d_grade():
    from nonogen.errors import InputError

    with pytest.raises(InputError, match="1-3"):
        make_level(_dog(), grade=4)


def test_3d_levels_are_graded_by_their_line_passes():
    result = verify(puzzle3d_from_cells(_dog()))
    assert result.status == "unique" and result.grade in (1, 2, 3)


def test_pictures_aim_at_a_grade_or_say_why_not():
    from nonogen.make.picture import from_image

    easy = from_image("samples/images/icon-play.png", grade=1, timeout=30)
    assert easy.report["grade"] == 1 and easy.report["line_solvable"]
    hard = from_image("samples/images/icon-play.png", grade=4, timeout=20)
    assert hard.report["status"] == "unique"
    assert hard.report["grade"] == 4 or any("grade 4 not reached" in w for w in hard.report["warnings"])
