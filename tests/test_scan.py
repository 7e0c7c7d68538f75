"""Scanning puzzle pages back: nonogen's own sheets read exactly, bad input as one line, the CLI's codes and JSON."""
from __future__ import annotations

import json
import shutil
import subprocess

import numpy as np
import pytest
from PIL import Image

import nonogen
from nonogen.cli import main
from nonogen.clues import puzzle_from_grid


def _puzzle(seed: int, height: int, width: int, title: str = "") -> nonogen.Puzzle:
    """A random grid's puzzle: many clues, two-digit ones when the lines are long."""
    rng = np.random.default_rng(seed)
    grid = (rng.random((height, width)) < 0.6).astype(np.uint8)
    grid[0, :] = 1  # a full first row: the longest clue number there is
    found = puzzle_from_grid(grid)
    return nonogen.Puzzle(found.rows, found.cols, meta={"title": title} if title else None)


def _same(found: nonogen.Scan, puzzle: nonogen.Puzzle) -> None:
    assert (found.puzzle.width, found.puzzle.height) == (puzzle.width, puzzle.height)
    assert found.puzzle.rows == puzzle.rows
    assert found.puzzle.cols == puzzle.cols


@pytest.mark.parametrize("dpi", [96, 192])
def test_a_png_sheet_reads_back_exactly_title_digits_and_all(tmp_path, dpi):
    """The title "Puzzle 7" sits right over the column clues: its 7 must not become a clue."""
    puzzle = _puzzle(1, 14, 23, title="Puzzle 7")
    nonogen.draw(puzzle, tmp_path / "p.png", dpi=dpi)
    (found,) = nonogen.scan(tmp_path / "p.png", verify=False)
    _same(found, puzzle)
    assert found.source == "pixels" and found.confidence > 0.5


def test_a_small_cell_png_reads_back_exactly(tmp_path):
    """At 14 pixels a cell the digits of "14" stand 0.6 digit heights apart, as far as two numbers' digits."""
    puzzle = _puzzle(2, 20, 15)
    nonogen.draw(puzzle, tmp_path / "p.png", cell=14)
    _same(nonogen.scan(tmp_path / "p.png", verify=False)[0], puzzle)


def test_a_pdf_is_read_from_its_text_layer_with_full_confidence(tmp_path):
    puzzle = _puzzle(3, 30, 30)
    nonogen.draw(puzzle, tmp_path / "p.pdf")
    (found,) = nonogen.scan(tmp_path / "p.pdf")
    _same(found, puzzle)
    assert found.source == "text" and found.confidence == 1.0
    assert found.result.status in ("unique", "multiple")


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler's pdftoppm")
def test_a_rasterised_pdf_page_is_read_from_its_pixels(tmp_path):
    puzzle = _puzzle(4, 12, 35)
    nonogen.draw(puzzle, tmp_path / "p.pdf")
    subprocess.run(["pdftoppm", "-r", "150", "-gray", "-png", "-singlefile", str(tmp_path / "p.pdf"),
                    str(tmp_path / "page")], check=True)
    (found,) = nonogen.scan(tmp_path / "page.png", verify=False)
    _same(found, puzzle)
    assert found.source == "pixels"


def test_two_grids_on_one_page_are_two_puzzles(tmp_path):
    left, right = _puzzle(5, 8, 8), _puzzle(6, 10, 6)
    nonogen.draw(left, tmp_path / "a.png")
    nonogen.draw(right, tmp_path / "b.png")
    a, b = Image.open(tmp_path / "a.png"), Image.open(tmp_path / "b.png")
    page = Image.new("RGB", (a.width + b.width + 40, max(a.height, b.height)), "white")
    page.paste(a, (0, 0))
    page.paste(b, (a.width + 40, 0))
    page.save(tmp_path / "page.png")
    found = nonogen.scan(tmp_path / "page.png", verify=False)
    assert [f.label for f in found] == [f"{tmp_path / 'page.png'}.1", f"{tmp_path / 'page.png'}.2"]
    _same(found[0], left)
    _same(found[1], right)


def test_an_unsolvable_reading_names_the_lines_whose_clues_cannot_be(tmp_path):
    """A clue that does not fit its line, and totals that disagree: the report says which line to check, and the
    clue that line must have for the puzzle to have a solution (its only other cells' count)."""
    puzzle = nonogen.Puzzle(rows=[[(6, 1)], [(1, 1)], [(1, 1)], [(1, 1)], [(1, 1)]],
                            cols=[[(1, 1)]] * 5)
    nonogen.draw(puzzle, tmp_path / "bad.png")
    (found,) = nonogen.scan(tmp_path / "bad.png")
    assert found.result.status == "unsolvable"
    assert found.suspects[0]["line"] == "row 1"
    assert found.suspects[0]["why"] == "reading its clue as 1 makes the puzzle multiple"
    assert found.suspects[0]["read_as"] == [1]


def test_bad_inputs_are_one_line_input_errors(tmp_path):
    Image.new("L", (300, 300), 255).save(tmp_path / "blank.png")
    Image.new("L", (20, 20), 255).save(tmp_path / "tiny.png")
    (tmp_path / "notes.png").write_text("not a picture")
    with pytest.raises(nonogen.InputError, match="no puzzle grid found"):
        nonogen.scan(tmp_path / "blank.png")
    with pytest.raises(nonogen.InputError, match="too small to read"):
        nonogen.scan(tmp_path / "tiny.png")
    with pytest.raises(nonogen.InputError, match="not a picture or PDF"):
        nonogen.scan(tmp_path / "notes.png")
    with pytest.raises(nonogen.InputError, match="no such file"):
        nonogen.scan(tmp_path / "missing.png")


def test_cli_scan_writes_the_puzzle_verifies_it_and_exits_by_the_verdict(tmp_path, capsys):
    heart = nonogen.load("samples/puzzles/heart.non")
    nonogen.draw(heart, tmp_path / "heart.png")
    assert main(["scan", str(tmp_path / "heart.png"), "-o", str(tmp_path / "heart.json"), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unique" and record["read_from"] == "pixels" and record["suspects"] == []
    assert record["width"] == 7 and record["output"] == str(tmp_path / "heart.json")
    assert nonogen.load(tmp_path / "heart.json").rows == heart.rows


def test_cli_scan_exit_codes_for_unsolvable_and_bad_input(tmp_path, capsys):
    bad = nonogen.Puzzle(rows=[[(6, 1)], [(1, 1)], [(1, 1)], [(1, 1)], [(1, 1)]], cols=[[(1, 1)]] * 5)
    nonogen.draw(bad, tmp_path / "bad.png")
    assert main(["scan", str(tmp_path / "bad.png")]) == 1
    assert "check row 1 [6]" in capsys.readouterr().out
    Image.new("L", (300, 300), 255).save(tmp_path / "blank.png")
    assert main(["scan", str(tmp_path / "blank.png")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no puzzle grid found" in err[0]


def test_cli_scan_refuses_two_puzzles_for_one_output_file_and_fills_a_folder(tmp_path, capsys):
    for k in (1, 2):
        nonogen.draw(_puzzle(k, 6, 6), tmp_path / f"{k}.png")
    pages = [str(tmp_path / "1.png"), str(tmp_path / "2.png")]
    assert main(["scan", *pages, "-o", str(tmp_path / "one.non"), "--no-verify"]) == 2
    assert "2 puzzle grids found where one was asked" in capsys.readouterr().err
    assert main(["scan", str(tmp_path), "-o", str(tmp_path / "out"), "--format", "non", "--no-verify"]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["1.non", "2.non"]


def test_verify_reads_a_page_as_it_reads_a_puzzle_file(tmp_path, capsys):
    nonogen.draw(nonogen.load("samples/puzzles/heart.non"), tmp_path / "heart.png")
    assert main(["verify", "--json", str(tmp_path / "heart.png")]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unique" and record["format"] == "scan"
