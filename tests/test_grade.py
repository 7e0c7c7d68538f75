"""The difficulty grade: calibration on graded material, monotonicity, and aiming at a grade."""
from __future__ import annotations

import csv
import itertools
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonogen import formats
from nonogen.clues import puzzle_from_grid
from nonogen.clues3d import puzzle3d_from_cells
from nonogen.make.level3d import make_level
from nonogen.solve import Session, verify
from nonogen.solve.deadline import Deadline
from nonogen.solve.grade import Measures, grade_of_score, graded, measure2d, replay, score
from nonogen.solve.grade3d import rate3d, score3d
from nonogen.solve.line import LineAutomaton, overlap, solve_line
from nonogen.solve.line3d import LineIndex3D
from nonogen.solve.result import VerifyResult

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "puzzles"

measures = st.builds(
    Measures,
    cells=st.integers(1, 10_000),
    lines=st.integers(2, 400),
    passes=st.integers(0, 500),
    line_reads=st.integers(0, 50_000),
    hard_lines=st.integers(0, 500),
    sweeps=st.integers(0, 60),
    deductions=st.integers(0, 5000),
    depth=st.integers(0, 12),
    search=st.booleans(),
)
STEPS = ["passes", "line_reads", "hard_lines", "sweeps", "deductions", "depth", "search"]


@settings(max_examples=400, deadline=None)
@given(measures, st.sampled_from(STEPS), st.integers(1, 300))
def test_score_never_falls_when_a_step_grows(m, field, more):
    """Monotone: more of any step (passes, reads, hard lines, sweeps, depth, needing search) never lowers the score."""
    harder = m._replace(search=True) if field == "search" else m._replace(**{field: getattr(m, field) + more})
    assert score(harder) >= score(m)
    assert 1.0 <= score(m) <= 5.0 and grade_of_score(score(m)) in (1, 2, 3, 4, 5)


@settings(max_examples=200, deadline=None)
@given(measures, st.integers(1, 10_000))
def test_score_never_falls_when_the_puzzle_grows(m, more):
    """Same reads per line on a bigger grid: the score does not fall."""
    bigger = m._replace(cells=m.cells + more)
    assert score(bigger) >= score(m)


def test_score_gives_lookahead_a_whole_grade():
    line_only = Measures(cells=400, lines=40, passes=20, line_reads=200, hard_lines=0, sweeps=0, deductions=0, depth=0,
                         search=False)
    lookahead = line_only._replace(sweeps=1, deductions=1, depth=2)
    assert score(lookahead) - score(line_only) >= 1.0 and grade_of_score(score(lookahead)) == 2


def test_overlap_finds_what_a_person_sees_and_never_more_than_complete_logic():
    """The overlap rule is sound (never narrower than complete line logic) and weaker on some lines."""
    rng = random.Random(3)
    weaker = 0
    for _ in range(400):
        n = rng.randint(3, 20)
        row = [rng.random() < 0.55 for _ in range(n)]
        clue = tuple((len(list(g)), 1) for k, g in itertools.groupby(row) if k)
        domain = tuple((2 if row[t] else 1) if rng.random() < 0.3 else 3 for t in range(n))
        automaton = LineAutomaton(clue)
        seen, full = overlap(automaton, domain), solve_line(automaton, domain)
        assert all(f & ~s == 0 for f, s in zip(full, seen, strict=True))
        assert all(s & ~d == 0 for s, d in zip(seen, domain, strict=True))
        weaker += seen != full
    assert weaker > 0


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


def test_the_replay_is_the_grades_own_solve_step_by_step():
    """The studio replayed line logic its own way, reaching into the engine; the engine's one replay is the
    grade's solve: the same measures, and each step (overlap pass, hard line, lookahead) with the cells it fixed."""
    for name, kinds in (("webpbn-00803", {"start", "overlap", "hard line", "lookahead"}), ("lambda", None)):
        puzzle = formats.load(next(SAMPLES.glob(f"{name}.*"))).replace(goal=None)
        shown = replay(puzzle)
        assert shown.measures == measure2d(puzzle)
        assert shown.kinds[0] == "start"
        assert set(shown.kinds) <= {"start", "overlap", "hard line", "lookahead", "both ways"}
        assert kinds is None or set(shown.kinds) == kinds
        assert all(shown.cells(k) for k in range(1, len(shown.kinds)))  # a step that fixes nothing is left out
        assert sorted(cell for k in range(len(shown.kinds)) for cell in shown.cells(k)) == [
            (r, c) for r in range(puzzle.height) for c in range(puzzle.width)]  # each cell fixed once, all of them
        assert shown.to_dict() == {"step": shown.step, "kinds": shown.kinds}
    cut = replay(puzzle, deadline=Deadline(0.0))
    assert cut.measures is None and cut.kinds == ["start"]  # cut off: what was found so far, here nothing


def test_multiple_solutions_grade_five_and_unsolvable_none():
    assert verify(puzzle_from_grid(np.eye(3, dtype=int))).grade == 5
    bad = puzzle_from_grid(np.eye(2, dtype=int)).replace(rows=(((2, 1),), ((1, 1),)), goal=None)
    assert verify(bad).grade is None


def test_the_grade_grows_with_size_and_with_reasoning(shared_data):
    """On the webpbn survey: a 10x5 overlap puzzle is grade 1, a 45x45 one above it, lookahead above both sizes' line
    logic."""
    folder = shared_data / "puzzles" / "webpbn" / "survey-sample-non"
    grade = {name: graded(measure2d(formats.load(folder / f"webpbn-{name}.non")))
             for name in ("00001", "00529", "00023", "00803")}
    assert grade["00001"].grade == 1 < grade["00529"].grade  # 10x5 and 45x45, line logic alone
    assert grade["00023"].grade > grade["00001"].grade  # 11x10 with one lookahead sweep
    assert grade["00803"].score > grade["00529"].score  # 45x50 with lookahead


def test_survey_puzzles_that_need_search_are_grade_five(shared_data):
    folder = shared_data / "puzzles" / "webpbn"
    rows = [r for r in csv.DictReader(open(folder / "survey-sample.csv")) if r["tier"] != "extreme"]
    for row in rows:
        result = verify(formats.load(folder / "survey-sample-non" / row["file"]), timeout=60)
        assert result.grade is not None, row["file"]
        if result.difficulty == "search" or result.status == "multiple":
            assert result.grade == 5, (row["file"], result.score)
        else:
            assert result.grade <= 4, (row["file"], result.score)


def test_grades_spread_on_a_real_collection(shared_data):
    """Calibration: on nonogram-db (39 puzzles, all line-solvable) no grade holds more than half."""
    paths = sorted((shared_data / "puzzles" / "nonogram-db" / "db").rglob("*.non"))
    grades = Counter(verify(formats.load(p).replace(goal=None)).grade for p in paths)
    assert len(paths) == 39 and max(grades.values()) <= len(paths) / 2 and len(grades) >= 2, grades


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


def _counting(calls: Counter, name: str, original):
    """``original`` (a method), counting its calls in ``calls[name]``."""

    def counted(self, *args, **kwargs):
        calls[name] += 1
        return original(self, *args, **kwargs)

    return counted


def test_a_graded_3d_verify_builds_one_line_index_and_runs_line_logic_once(monkeypatch):
    """verify3d built a line index and ran line logic for the difficulty, then the grade built another and ran the
    passes again; the verdict's passes now give the difficulty, the work figure and the grade."""
    calls: Counter = Counter()
    for name in ("__init__", "passes", "fixpoint"):
        monkeypatch.setattr(LineIndex3D, name, _counting(calls, name, getattr(LineIndex3D, name)))
    level = puzzle3d_from_cells(_dog())
    graded = verify(level)
    assert graded.difficulty == "line" and graded.grade in (1, 2, 3) and graded.work > 0
    assert calls == {"__init__": 1, "passes": 1}
    assert rate3d(VerifyResult("unique"), level).score == graded.score  # the grade on its own: the same passes


def test_score3d_grows_with_passes_and_size():
    scores = [score3d(p, True, 500) for p in range(0, 40)]
    assert scores == sorted(scores) and scores[-1] < 4 and score3d(3, False, 500) == 5.0
    sizes = [score3d(5, True, n) for n in (27, 125, 250, 1000, 8000)]
    assert sizes == sorted(sizes) and sizes[0] == sizes[1] < sizes[2]


def test_pictures_aim_at_a_grade_or_say_why_not():
    from nonogen.make.picture import from_image

    easy = from_image("samples/images/icon-play.png", grade=1, timeout=None)
    assert easy.report["grade"] == 1 and easy.report["line_solvable"]
    hard = from_image("samples/images/icon-play.png", grade=4, timeout=None)
    assert hard.report["status"] == "unique"
    assert hard.report["grade"] == 4 or any("grade 4 not reached" in w for w in hard.report["warnings"])


def test_the_sizes_tried_for_a_grade_stop_at_sixty_cells():
    """Twice the 40-cell default made the Tango computer icon, aimed at grade 3, an 80x80 puzzle (6,400 cells)."""
    from nonogen.make.picture import ALTERNATIVE_LONGEST, from_image

    made = from_image("samples/images/tango_computer.png", grade=3, timeout=None)
    assert made.report["status"] == "unique" and max(made.report["width"], made.report["height"]) <= ALTERNATIVE_LONGEST


def test_from_image_reaches_grade_two_by_redrawing_uncertain_edges():
    """A clean drawing is line-solvable at every size; drawing a few edge cells the other way makes it grade 2."""
    from nonogen.make.picture import from_image

    # no time limit: the same outcome under any load
    made = from_image("samples/images/flat-fish.png", grade=2, width=30, timeout=None)  # the size fixed: no ladder
    assert made.report["status"] == "unique" and made.report["grade"] == 2
    assert any("cells on uncertain edges drawn the other way to reach grade 2" in w for w in made.report["warnings"])
    assert not any("halftone" in w for w in made.report["warnings"])


def test_from_image_draws_a_colour_photo_in_black_and_white_when_colour_cannot_reach_the_grade():
    """A photo the mode left to nonogen is drawn in colour, whose puzzles stay grade 1; black and white reaches 2, and
    says so."""
    from nonogen.make.picture import from_image

    # the width held: at the default 30 cells, colour would reach grade 2 at another size (60x60) first
    made = from_image("samples/images/photo-cat.jpg", grade=2, timeout=None, width=30)
    assert made.report["grade"] == 2 and made.puzzle.n_colors == 1
    assert any(w.startswith("drawn in black and white to reach grade 2") for w in made.report["warnings"])
    kept = from_image("samples/images/photo-cat.jpg", grade=2, timeout=None, colors=4, width=30)  # colour asked for
    assert kept.puzzle.n_colors > 1 and kept.report["grade"] == 1
    assert any("in black and white (mode bw) the picture may reach grade 2" in w for w in kept.report["warnings"])
