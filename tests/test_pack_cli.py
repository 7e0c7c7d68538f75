"""``nonogen pack`` on the command line: exit codes, JSON keys, files written, one-line errors."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from nonogen.cli import main
from nonogen.pack import load

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "packing"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_json_statuses_and_exit_codes(capsys):
    code, out, _ = run(capsys, "pack", "verify", str(SAMPLES / "classic-challenge.pack"), "--json")
    record = json.loads(out)
    assert code == 0 and record["status"] == "unique"
    assert {"file", "status", "solution", "second_solution", "message", "seconds"} <= set(record)
    assert all(len(row) == 11 for row in record["solution"]) and len(record["solution"]) == 5

    code, out, _ = run(capsys, "pack", "verify", str(SAMPLES / "starter-placed.pack"), "--json", "--method", "sat")
    record = json.loads(out)
    assert code == 1 and record["status"] == "multiple" and record["second_solution"] != record["solution"]


def test_verify_folder_reports_every_level(capsys):
    code, out, _ = run(capsys, "pack", "verify", str(SAMPLES), "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == len(list(SAMPLES.glob("*.pack")))
    assert code == 1  # the folder holds levels with several completions on purpose


def test_solve_prints_a_completion_and_draws_it(capsys, tmp_path):
    svg, png = tmp_path / "s.svg", tmp_path / "s.png"
    code, out, _ = run(capsys, "pack", "solve", str(SAMPLES / "random-11x5.pack"), "--svg", str(svg), "--png", str(png))
    level = load(SAMPLES / "random-11x5.pack")
    assert code == 0
    assert level.check_solution(out.split()) == ""
    assert svg.read_text().startswith("<svg") and Image.open(png).size[0] > 11 * 20


def test_count_with_limit_and_timeout(capsys):
    code, out, _ = run(capsys, "pack", "count", str(SAMPLES / "classic-empty.pack"), "--limit", "7", "--json")
    record = json.loads(out)
    assert code == 0 and record["count"] == 7 and record["complete"] is False
    code, out, _ = run(capsys, "pack", "count", str(SAMPLES / "classic-empty.pack"), "--timeout", "0.3", "--json")
    assert code == 3 and json.loads(out)["status"] == "timeout"
    code, out, _ = run(capsys, "pack", "count", str(SAMPLES / "starter-placed.pack"))
    assert code == 0 and "exactly 5 completion" in out


def test_generate_writes_level_and_pictures_and_refuses_to_overwrite(capsys, tmp_path):
    out_dir = tmp_path / "lvl"
    code, out, _ = run(capsys, "pack", "generate", "--size", "6x5", "--pieces", "6", "--seed", "2",
                       "-o", str(out_dir), "--json")
    summary = json.loads(out)
    assert code == 0 and summary["status"] == "unique"
    assert {p.name for p in out_dir.iterdir()} == {"level.pack", "level.svg", "level.png", "solution.txt",
                                                    "solution.svg", "solution.png"}
    level = load(out_dir / "level.pack")
    assert (level.width, level.height, len(level.pieces)) == (6, 5, 6)
    code, _, err = run(capsys, "pack", "generate", "--size", "6x5", "--pieces", "6", "-o", str(out_dir))
    assert code == 2 and err.count("\n") == 1 and "--force" in err


def test_render_level_and_solution(capsys, tmp_path):
    """`pack render` printed nothing: now it says what it wrote (and --json says it as JSON)."""
    code, out, _ = run(capsys, "pack", "render", str(SAMPLES / "random-10x10.pack"), "-o", str(tmp_path / "l.png"))
    assert code == 0 and Image.open(tmp_path / "l.png").mode == "RGB"
    assert out.startswith(f"{tmp_path / 'l.png'}: the board of ") and "10x10 cells" in out
    code, out, _ = run(capsys, "pack", "render", str(SAMPLES / "starter-placed.pack"), "--solution",
                       "-o", str(tmp_path / "s.svg"), "--json")
    assert code == 0 and "<rect" in (tmp_path / "s.svg").read_text()
    assert json.loads(out)["output"] == str(tmp_path / "s.svg") and json.loads(out)["picture"] == "solution"


def test_count_and_generate_write_no_carriage_returns_into_a_log(tmp_path):
    """Progress went to stderr with '\\r' even when stderr was a log file; it is for terminals only."""
    import subprocess
    import sys

    log = tmp_path / "log.txt"
    for argv in (["count", str(SAMPLES / "starter-placed.pack")],
                 ["generate", "--size", "6x5", "--pieces", "6", "-o", str(tmp_path / "gen")]):
        with log.open("wb") as err:
            done = subprocess.run([sys.executable, "-m", "nonogen", "pack", *argv], stderr=err,
                                  stdout=subprocess.PIPE, timeout=300)
        assert done.returncode == 0 and b"\r" not in log.read_bytes() and b"\r" not in done.stdout


@pytest.mark.parametrize(
    "text, needle",
    [
        ("board 11x5\npieces classic\n\nplace A 1 1\n###\n#..\n#..\n\nplace L 1 1\n##\n#.\n", "overlap"),
        ("board 11x5\npieces classic\n\nplace A 4 10\n###\n#..\n#..\n", "off the board"),
        ("board 10x5\npieces classic\n", "55 cells but the board has 50"),
        ("board\n...\n\npiece A\n#.#\n", "not connected"),
    ],
)
def test_bad_levels_exit_2_with_one_line(capsys, tmp_path, text, needle):
    path = tmp_path / "bad.pack"
    path.write_text(text)
    for action in ("solve", "count"):
        code, out, err = run(capsys, "pack", action, str(path))
        assert code == 2 and out == "" and err.count("\n") == 1 and needle in err and str(path) in err
    code, out, _ = run(capsys, "pack", "verify", str(path), "--json")
    assert code == 2 and json.loads(out)["status"] == "error"


def test_missing_file_and_bad_picture_suffix(capsys, tmp_path):
    code, _, err = run(capsys, "pack", "solve", str(tmp_path / "nope.pack"))
    assert code == 2 and err.count("\n") == 1
    code, _, err = run(capsys, "pack", "render", str(SAMPLES / "classic-challenge.pack"), "-o", str(tmp_path / "x.gif"))
    assert code == 2 and ".svg or .png" in err


def test_generate_past_its_time_limit_is_a_one_line_timeout_and_writes_nothing(capsys, tmp_path):
    """``--timeout`` bounds the whole run and only ends it: exit 3, one line, no folder (a seed never means two
    levels, so running out of time is never answered with another level)."""
    out_dir = tmp_path / "gen"
    code, out, err = run(capsys, "pack", "generate", "--size", "10x10", "--pieces", "20", "--distinct", "--seed", "1",
                         "--timeout", "0.01", "-o", str(out_dir))
    assert code == 3 and out == "" and not out_dir.exists()
    assert err.strip().count("\n") == 0 and err.startswith("nonogen: error: no ") and "time limit" in err
