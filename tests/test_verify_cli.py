"""`nonogen verify / solve / clues` as a user runs them, and the survey verdicts."""
from __future__ import annotations

import csv
import json
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from nonogen import formats, satisfies
from nonogen.cli import main
from nonogen.solve import verify


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def survey_rows(shared_data, tiers):
    folder = shared_data / "puzzles" / "webpbn"
    with open(folder / "survey-sample.csv", newline="") as handle:
        return [(folder / "survey-sample-non" / r["file"], r) for r in csv.DictReader(handle) if r["tier"] in tiers]


def test_survey_verdicts_easy_and_medium(shared_data):
    """Every survey puzzle not marked hard gets the published verdict, with a solution that meets the clues."""
    rows = survey_rows(shared_data, {"easy", "medium"})
    assert len(rows) == 23
    for path, row in rows:
        puzzle = formats.load(path).replace(goal=None)  # no hint from the stored goal
        result = verify(puzzle, timeout=60)
        assert result.status == row["uniqueness"].lower(), path.name
        assert satisfies(puzzle, result.solution)
        if result.status == "multiple":
            assert satisfies(puzzle, result.second_solution)
        if row["line_solvable"] == "yes":
            assert result.difficulty == "line", path.name
        elif row["line_solvable"] == "no":
            assert result.difficulty != "line", path.name


def test_survey_goal_mode_agrees(shared_data):
    """With the stored goal as target, the verdict is the same and the target is the first solution."""
    for path, row in survey_rows(shared_data, {"medium"}):
        puzzle = formats.load(path)
        result = verify(puzzle, timeout=60)
        assert result.status == row["uniqueness"].lower(), path.name
        assert np.array_equal(result.solution, puzzle.goal)


def test_both_cnon_samples_are_unique_and_solve_to_their_picture(shared_data):
    for name, colours in (("0.cnon", 5), ("yoshi.cnon", 5)):
        puzzle = formats.load(shared_data / "cnon" / name)
        result = verify(puzzle)
        assert result.status == "unique" and result.difficulty == "line"
        assert satisfies(puzzle, result.solution)
        assert len(np.unique(result.solution)) == colours + 1  # every colour and the background appear


def test_verify_json_lines_and_exit_codes(tmp_path, capsys):
    (tmp_path / "ok.non").write_text("width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n")
    (tmp_path / "two.non").write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")
    (tmp_path / "bad.non").write_text("width 2\nheight x\n")
    code, out, _ = run(capsys, "verify", str(tmp_path), "--json")
    records = {r["file"].split("/")[-1]: r for r in map(json.loads, out.splitlines())}
    assert records["ok.non"]["status"] == "unique"
    assert records["ok.non"]["solution"] == ["##", "#."]
    assert records["two.non"]["status"] == "multiple"
    assert sorted([records["two.non"]["solution"], records["two.non"]["second_solution"]]) == [
        ["#.", ".#"],
        [".#", "#."],
    ]
    assert records["two.non"]["ambiguous_cells"] == [[0, 0], [0, 1], [1, 0], [1, 1]]
    assert records["two.non"]["ambiguous_complete"] is True
    assert records["bad.non"]["status"] == "error" and "bad.non:2" in records["bad.non"]["message"]
    assert code == 2  # an input error outranks a non-unique puzzle
    code, _, _ = run(capsys, "verify", str(tmp_path / "ok.non"), str(tmp_path / "two.non"))
    assert code == 1
    code, out, _ = run(capsys, "verify", str(tmp_path / "ok.non"))
    assert code == 0 and "unique" in out


def test_timeout_exit_code(tmp_path, capsys, shared_data):
    path = shared_data / "puzzles" / "webpbn" / "survey-sample-non" / "webpbn-22336.non"
    code, out, _ = run(capsys, "verify", str(path), "--json", "--timeout", "0.01")
    assert code == 3
    assert json.loads(out)["status"] == "timeout"


def test_jobs_gives_the_same_records(tmp_path, capsys):
    for i in range(3):
        (tmp_path / f"p{i}.non").write_text("width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n")
    _, one, _ = run(capsys, "verify", str(tmp_path), "--json")
    _, two, _ = run(capsys, "verify", str(tmp_path), "--json", "--jobs", "2")
    strip = lambda text: sorted(  # noqa: E731 - records arrive in completion order
        (json.dumps({k: v for k, v in json.loads(line).items() if k != "seconds"}) for line in text.splitlines()))
    assert strip(one) == strip(two)


def test_no_grade_keeps_the_verdicts_and_leaves_the_grade_out(capsys):
    """Grading is most of a unique puzzle's time; a batch that wants verdicts only can skip it."""
    folder = Path(__file__).resolve().parent.parent / "samples" / "puzzles"
    samples = [str(folder / name) for name in ("heart.non", "webpbn-00436.non", "smiley.g")]
    graded = [json.loads(line) for line in run(capsys, "verify", *samples, "--json")[1].splitlines()]
    plain = [json.loads(line) for line in run(capsys, "verify", *samples, "--json", "--no-grade")[1].splitlines()]
    assert [r["status"] for r in plain] == [r["status"] for r in graded] and {r["status"] for r in plain} == {"unique"}
    assert all(r["grade"] is None and r["score"] is None for r in plain)
    assert all(r["grade"] in range(1, 6) for r in graded)


def test_solutions_dir_never_overwrites_without_force(tmp_path, capsys):
    puzzle = tmp_path / "ok.non"
    puzzle.write_text("width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n")
    out_dir = tmp_path / "sol"
    assert run(capsys, "verify", str(puzzle), "--solutions-dir", str(out_dir))[0] == 0
    assert (out_dir / "ok.non.solution.txt").read_text() == "##\n#.\n"
    code, _, err = run(capsys, "verify", str(puzzle), "--solutions-dir", str(out_dir))
    assert code == 2 and "--force" in err and "earlier run" in err
    assert run(capsys, "verify", str(puzzle), "--solutions-dir", str(out_dir), "--force")[0] == 0


def test_solve_prints_the_grid(tmp_path, capsys):
    puzzle = tmp_path / "ok.non"
    puzzle.write_text("width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n")
    code, out, _ = run(capsys, "solve", str(puzzle))
    assert code == 0 and out == "##\n#.\n"


def test_solve_prints_a_picross3d_level_layer_by_layer(tmp_path, capsys):
    """It printed the X*Y*Z-character goal string on one line, which nobody can read."""
    from nonogen.clues3d import puzzle3d_from_cells

    cells = np.zeros((3, 2, 2), dtype=bool)  # x, y (0 = top), z (0 = front)
    cells[:, 1, :] = True  # the bottom layer is full
    cells[0, 0, 0] = True  # one cube on top, at the left front
    formats.dump(puzzle3d_from_cells(cells), tmp_path / "level.json", "nonogen-3d")
    code, out, _ = run(capsys, "solve", str(tmp_path / "level.json"))
    assert code == 0 and out == "y=0 (top)\n...\n#..\n\ny=1\n###\n###\n"


def test_missing_file_is_one_line(tmp_path, capsys):
    code, out, err = run(capsys, "solve", str(tmp_path / "nope.non"))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "nope.non" in err


def test_clues_from_a_drawn_grid(tmp_path, capsys):
    grid = tmp_path / "g.txt"
    grid.write_text(".#.\n###\n.#.\n")
    code, out, _ = run(capsys, "clues", str(grid))
    assert code == 0
    puzzle = formats.loads(out, "non")
    assert puzzle.rows == (((1, 1),), ((3, 1),), ((1, 1),))
    target = tmp_path / "g.cnon"
    grid.write_text(".r.\nrbr\n.r.\n")
    assert run(capsys, "clues", str(grid), "-o", str(target))[0] == 0
    assert formats.load(target).n_colors == 2
    assert run(capsys, "clues", str(grid), "-o", str(target))[0] == 2  # exists: needs --force


def test_verify_accepts_picross3d_levels(shared_data, capsys):
    code, out, _ = run(capsys, "verify", str(shared_data / "picross3d" / "kusano2010.json"), "--json")
    record = json.loads(out)
    assert code == 0 and record["status"] == "unique"
    assert record["solution"] == json.loads((shared_data / "picross3d" / "kusano2010.json").read_text())["goal"]


def test_a_folder_without_puzzles_is_an_error(tmp_path, capsys):
    (tmp_path / "notes.md").write_text("nothing here")
    code, _, err = run(capsys, "verify", str(tmp_path))
    assert code == 2 and "no puzzle files" in err


@pytest.mark.parametrize("option", [["--timeout", "0"], ["--timeout", "-1"], ["--jobs", "0"], ["--timeout", "soon"]])
def test_nonsense_limits_are_refused(tmp_path, capsys, option):
    with pytest.raises(SystemExit) as stop:
        main(["verify", str(tmp_path), *option])
    assert stop.value.code == 2
    assert "expected" in capsys.readouterr().err


def test_ambiguous_cells_are_all_cells_that_differ_in_some_solution(tmp_path, capsys):
    """Two diagonals side by side: four solutions, eight ambiguous cells, though any two solutions
    found may differ in only four of them; with --no-ambiguity only the difference is listed."""
    puzzle = tmp_path / "twice.non"
    puzzle.write_text("width 4\nheight 2\nrows\n1,1\n1,1\ncolumns\n1\n1\n1\n1\n")
    _, out, _ = run(capsys, "verify", str(puzzle), "--json")
    record = json.loads(out)
    assert record["status"] == "multiple" and record["ambiguous_complete"] is True
    assert len(record["ambiguous_cells"]) == 8
    _, out, _ = run(capsys, "verify", str(puzzle), "--json", "--no-ambiguity")
    record = json.loads(out)
    assert record["ambiguous_complete"] is False
    differ = sum(a != b for r1, r2 in zip(record["solution"], record["second_solution"], strict=True)
                 for a, b in zip(r1, r2, strict=True))
    assert len(record["ambiguous_cells"]) == differ


@pytest.mark.parametrize("command", list(__import__("nonogen.cli", fromlist=["COMMANDS"]).COMMANDS))
def test_each_command_gets_its_full_parser_and_help_lists_all(command):
    """The parser for one command is the module's own (its options), and `--help` still names every command."""
    import argparse

    from nonogen import cli

    def commands(parser):
        return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices

    chosen = commands(cli.build_parser([command]))
    assert list(chosen) == [command]
    assert chosen[command]._actions[1:], f"{command} has only the placeholder parser"
    assert {a.dest for a in chosen[command]._actions} - {"help"}
    assert list(commands(cli.build_parser(["--help"]))) == list(cli.COMMANDS)


def test_verify_start_up_imports_no_other_command_and_no_sat_solver(tmp_path):
    """A line-solvable puzzle is verified without loading numpy, Pillow, trimesh, reportlab, the SAT solver,
    dataclasses or a worker pool (numpy alone took twice the rest of a 5x5 verify)."""
    import subprocess
    import sys

    small = tmp_path / "small.non"
    small.write_text("width 3\nheight 3\nrows\n1\n3\n1\ncolumns\n1\n3\n1\n")
    probe = ("import sys; from nonogen.cli import main; code = main(['verify', sys.argv[1]]); "
             "heavy = sorted(m for m in ('numpy', 'PIL', 'trimesh', 'reportlab', 'pysat.solvers', 'svgwrite', "
             "'dataclasses', 'multiprocessing') if m in sys.modules); "
             "print(heavy, file=sys.stderr); sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", probe, str(small)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().endswith("[]"), done.stderr


def test_verify_summary_of_an_empty_folder_is_not_interrupted(tmp_path, capsys):
    """A folder with no puzzle files ended with a summary saying "interrupted", which nothing had been."""
    code, _, err = run(capsys, "verify", str(tmp_path))
    lines = err.strip().splitlines()
    assert code == 2 and lines[0].startswith("0 puzzles:") and "interrupted" not in err
    assert lines[1].startswith("nonogen: error: no puzzle files in")


# --- the time limit covers reading ------------------------------------------------------------------


def _padded_non(path: Path) -> Path:
    """A valid 5x5 .non whose 'rows' key follows ~16 MB of blank lines (the readers' size limit)."""
    body = "width 5\nheight 5\n\nrows\n0\n2\n4\n3\n1,1\n\ncolumns\n0\n4\n3\n3\n1\n"
    path.write_text(body.replace("rows", "\n" * (16 * 1024 * 1024 - 300 - len(body)) + "rows"))
    return path


def test_reading_a_file_counts_against_the_time_limit(tmp_path, capsys):
    """A 16 MB .non of blank lines took 20 s to read at --timeout 5: reading was outside the limit. Now reading
    may take half the limit (at least a second); this file needs ~15 s of Python loops, so it ends as a timeout."""
    code, out, err = run(capsys, "verify", str(_padded_non(tmp_path / "blank16m.non")), "--timeout", "0.1", "--json")
    record = json.loads(out)
    assert record["status"] == "timeout" and "reading the file took longer than 1 s" in record["message"]
    assert code == 3 and "1 timeout" in err


def test_format_sniffing_is_linear_on_blank_lines():
    """The .non and bracket sniffers searched '^\\s*...' line by line across every blank line below: 20 KB of
    blank lines took 2.4 s. Within a bound 500 times what the linear search needs, every sniffer finishes."""
    from nonogen.solve.deadline import OutOfTime, interrupt_at

    for text in ("# x\n" + "\n" * 20000, "\n" * 20000 + "[", " \n" * 10000 + "GRID\n"):
        try:
            with interrupt_at(0.5):
                with pytest.raises(formats.UnknownFormatError):
                    formats.sniff(text)
        except OutOfTime:
            pytest.fail(f"sniffing {text[:8]!r}... ({len(text)} characters) did not end within 0.5 s")


def test_book_counts_reading_against_the_time_limit(tmp_path, capsys):
    code, _, err = run(capsys, "book", str(_padded_non(tmp_path / "blank16m.non")), "-o", str(tmp_path / "b.pdf"),
                       "--timeout", "0.1")
    assert code == 3 and "reading the file took longer than 1 s" in err and not (tmp_path / "b.pdf").exists()


def test_interrupt_at_stops_a_block_that_never_ends():
    """The mechanism under the read limits: a timer signal ends work that keeps no clock (here a wait that never
    returns), as OutOfTime, which a reader's ``except Exception`` cannot swallow."""
    import threading

    from nonogen.solve.deadline import OutOfTime, interrupt_at

    with pytest.raises(OutOfTime):
        with interrupt_at(0.05):
            try:
                threading.Event().wait()
            except Exception:  # noqa: BLE001 - the point: this does not catch it
                pass
    with interrupt_at(5):
        assert sum(range(10)) == 45  # ended in time: nothing is raised afterwards


class _BusyWhenFreed:
    """Freed, it works until a signal's exception ends it (or ``bound`` seconds pass): a ``__del__``, where Python
    drops that exception."""

    def __init__(self, bound):
        self.bound = bound

    def __del__(self):
        end = time.monotonic() + self.bound
        while time.monotonic() < end:
            pass


def test_interrupt_at_stops_the_block_even_when_the_first_signal_was_dropped(monkeypatch):
    """The limit passes while a ``__del__`` runs: its OutOfTime is dropped there, and the block must still end."""
    from nonogen.solve.deadline import OutOfTime, interrupt_at

    monkeypatch.setattr(sys, "unraisablehook", lambda raised: None)
    with pytest.raises(OutOfTime):
        with interrupt_at(0.2):
            _BusyWhenFreed(bound=20)  # freed at once; the limit passes inside it
            later = time.monotonic() + 20
            while time.monotonic() < later:  # with one signal only, this ran to its end and nothing was raised
                pass


def test_one_file_or_a_few_small_ones_are_verified_here_anything_more_in_a_worker(tmp_path):
    """A worker keeps a crash to one puzzle's record but costs more to start than a handful of small puzzles take
    to prove (the 36 shared colour collection files: 62 ms of CPU with one, 47 ms without)."""
    from types import SimpleNamespace

    from nonogen.cli import verify as verify_cli

    small = "width 1\nheight 1\nrows\n1\ncolumns\n1\n"
    files = []
    for i in range(3):
        files.append(tmp_path / f"p{i}.non")
        files[-1].write_text(small)
    big = tmp_path / "big.non"
    big.write_text(small + "#" * verify_cli.SMALL_BATCH_BYTES)

    def where(*paths, jobs=None):
        args = SimpleNamespace(paths=[str(p) for p in paths], jobs=jobs, executor=None, scheduler=None)
        return verify_cli._executor(args)[0]

    assert where(files[0]) == where(*files) == where(big) == "serial"  # one file, however big, as before
    assert where(files[0], big) == "local"  # together too big
    assert where(tmp_path) == where(files[0], tmp_path) == "local"  # a folder may hold any number
    assert where(*files, jobs=1) == "local"  # --jobs asks for workers
    assert where(files[0], tmp_path / "missing.non") == "local"  # the batch reports it
    assert where(files[0], "-") == "local"
    many = []
    for i in range(verify_cli.SMALL_BATCH_FILES + 1):
        many.append(tmp_path / f"m{i}.non")
        many[-1].write_text(small)
    assert where(*many[:-1]) == "serial" and where(*many) == "local"
