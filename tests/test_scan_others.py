"""Scanning other programs' pages and colour puzzles: Simon Tatham's Pattern, web pages in Chromium, nonogen's
colour sheets and printed pages in other paper sizes, each read back exactly (colours included) and verified.

The pages are made by ``scripts/scan_styles.py`` (the bench's makers): Pattern is run under Xvfb with a game ID
of clues we know, and the web pages are HTML rendered by headless Chromium. Tests needing a program that is not
installed skip and say which.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import nonogen
from nonogen.clues import puzzle_from_grid
from nonogen.clues3d import puzzle3d_from_cells
from nonogen.importers.scan.pages import Page
from nonogen.importers.scan.read import read_upright
from nonogen.model import Color
from nonogen.output.scans import save_scans
from nonogen.palette import BW_PALETTE

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import scan_styles  # noqa: E402

HAS_PATTERN = scan_styles.pattern_binary() is not None and shutil.which("Xvfb") is not None
HAS_CHROMIUM = scan_styles.chromium_binary() is not None
PALETTE = [Color("white", "#ffffff", "."), Color("red", "#d62728", "r"), Color("blue", "#1f5fd6", "b"),
           Color("green", "#2ca02c", "g"), Color("black", "#111111", "k")]


def _puzzle(seed: int, height: int, width: int, density: float = 0.6) -> nonogen.Puzzle:
    grid = (np.random.default_rng(seed).random((height, width)) < density).astype(np.uint8)
    return puzzle_from_grid(grid)


def _colour_puzzle(seed: int, height: int, width: int) -> nonogen.Puzzle:
    rng = np.random.default_rng(seed)
    grid = rng.integers(0, len(PALETTE), (height, width))
    return puzzle_from_grid(grid, palette=PALETTE)


def _same_numbers(found: nonogen.Scan, puzzle: nonogen.Puzzle) -> None:
    assert (found.puzzle.width, found.puzzle.height) == (puzzle.width, puzzle.height)
    assert [[n for n, _ in c] for c in found.puzzle.rows] == [[n for n, _ in c] for c in puzzle.rows]
    assert [[n for n, _ in c] for c in found.puzzle.cols] == [[n for n, _ in c] for c in puzzle.cols]


def _same_colours(found: nonogen.Scan, puzzle: nonogen.Puzzle) -> None:
    """Every clue's colour read back: the same clues up to the order of the colours, each colour's RGB close."""
    _same_numbers(found, puzzle)
    assert found.puzzle.clue_hash() == puzzle.clue_hash()
    meaning = {}
    for mine, theirs in zip(found.puzzle.rows + found.puzzle.cols, puzzle.rows + puzzle.cols, strict=True):
        for (_, a), (_, b) in zip(mine, theirs, strict=True):
            meaning.setdefault(a, b)
    for a, b in meaning.items():
        got, want = np.array(found.puzzle.palette[a].rgb_tuple), np.array(puzzle.palette[b].rgb_tuple)
        assert np.abs(got - want).max() <= 40, (found.puzzle.palette[a], puzzle.palette[b])


@pytest.mark.skipif(not HAS_PATTERN, reason="needs Simon Tatham's Pattern and Xvfb (apt install sgt-puzzles xvfb)")
@pytest.mark.parametrize("tile", [16, 24])
def test_a_screenshot_of_tathams_pattern_reads_back_exactly(tmp_path, tile):
    """Pattern shows unsolved cells mid-grey with darker lines and bold digits on a light grey window."""
    puzzle = _puzzle(11, 12, 17, density=0.65)
    with scan_styles.xvfb() as display:
        page = scan_styles.pattern_screenshot(puzzle, tmp_path / "pattern.png", display, tile)
    (found,) = nonogen.scan(page)
    _same_numbers(found, puzzle)
    assert found.result.status in ("unique", "multiple")


WIDE_NUMBERS = ((0, (1, 3, 21)), (0, (20, 4)), (1, (24, 2)), (0, (2, 22, 1)), (1, (23, 3)), (1, (26,)), (0, (25, 1)),
                (0, (1, 2, 21)))
"""Rows of a 28x8 puzzle (each: where its first block starts, its blocks) whose clues hold numbers in the twenties
(a bold "2" is wide at its foot) and no column more clues than Pattern's window shows (3 for 8 rows)."""


def _wide_numbers_puzzle() -> nonogen.Puzzle:
    grid = np.zeros((len(WIDE_NUMBERS), 28), np.uint8)
    for r, (x, blocks) in enumerate(WIDE_NUMBERS):
        for n in blocks:
            grid[r, x:x + n] = 1
            x += n + 1
    return puzzle_from_grid(grid)


@pytest.mark.skipif(not HAS_PATTERN, reason="needs Simon Tatham's Pattern and Xvfb (apt install sgt-puzzles xvfb)")
@pytest.mark.parametrize("tile", [20, 24, 28])
def test_pattern_s_two_digit_numbers_wider_than_a_cell_stay_whole(tmp_path, tile):
    """Pattern sets a row's clues as text, not in cells: at 24 px cells a bold "21" is 26 px wide and its digits
    4 px apart (0.29 of their height), and was read "2 1" (bench seed 1, page 2)."""
    puzzle = _wide_numbers_puzzle()
    with scan_styles.xvfb() as display:
        page = scan_styles.pattern_screenshot(puzzle, tmp_path / "pattern.png", display, tile)
    (found,) = nonogen.scan(page, verify=False)
    _same_numbers(found, puzzle)


@pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Chromium")
@pytest.mark.parametrize("style", ["boxes", "tight", "dark"])
def test_a_web_page_in_chromium_reads_back_exactly(tmp_path, style):
    """Clues in table cells with borders (the lattice runs on over them), tight right-aligned clues with bold
    lines every 5, and light digits on a dark theme."""
    puzzle = _puzzle(12, 14, 21)
    page = scan_styles.web_screenshot(puzzle, style, tmp_path / f"{style}.png")
    (found,) = nonogen.scan(page, verify=False)
    _same_numbers(found, puzzle)
    assert not found.puzzle.is_color


@pytest.mark.parametrize("suffix", ["png", "pdf"])
def test_a_nonogen_colour_sheet_reads_back_with_every_colour(tmp_path, suffix):
    """Clues in coloured boxes, digits black or white by the box: each colour found, snapped and written back."""
    puzzle = _colour_puzzle(13, 12, 15)
    nonogen.draw(puzzle, tmp_path / f"sheet.{suffix}")
    (found,) = nonogen.scan(tmp_path / f"sheet.{suffix}")
    _same_colours(found, puzzle)
    assert found.result.status in ("unique", "multiple")
    nonogen.dump(found.puzzle, tmp_path / "back.json")
    assert nonogen.load(tmp_path / "back.json").clue_hash() == puzzle.clue_hash()


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
@pytest.mark.parametrize("dpi", [100, 150])
def test_a_colour_sheet_rasterised_by_poppler_reads_back_with_every_colour(tmp_path, dpi):
    """The sheet's PDF as pixels: at 150 dpi the clue boxes beside the grid touch its frame, at 100 dpi they touch
    each other too, so no box stands alone as a blob of its own (0 of 20 such pages read before)."""
    puzzle = _colour_puzzle(13, 12, 15)
    nonogen.draw(puzzle, tmp_path / "sheet.pdf")
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-singlefile", str(tmp_path / "sheet.pdf"),
                    str(tmp_path / "sheet")], check=True)
    (found,) = nonogen.scan(tmp_path / "sheet.png", verify=False)
    _same_colours(found, puzzle)


def _raster(tmp_path: Path, puzzle: nonogen.Puzzle, kind: str) -> Path:
    """``puzzle``'s sheet as ``kind``: png, pdf, or the PDF rasterised by poppler at 150 dpi (``raster``)."""
    if kind != "raster":
        return Path(nonogen.draw(puzzle, tmp_path / f"sheet.{kind}")["output"])
    nonogen.draw(puzzle, tmp_path / "sheet.pdf")
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", str(tmp_path / "sheet.pdf"),
                    str(tmp_path / "sheet")], check=True)
    return tmp_path / "sheet.png"


KINDS = ["png", "pdf", pytest.param("raster", marks=pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                                                        reason="needs pdftoppm (poppler-utils)"))]


@pytest.mark.parametrize("kind", KINDS)
def test_givens_printed_in_the_grid_are_read_and_the_verdict_is_the_printed_puzzles(tmp_path, kind):
    """A given empty cell's dot and a given filled cell: without them the key's clues have several solutions."""
    puzzle = nonogen.load("samples/puzzles/key-givens.json")
    (found,) = nonogen.scan(_raster(tmp_path, puzzle, kind))
    assert found.puzzle.rows == puzzle.rows and sorted(found.puzzle.givens) == sorted(puzzle.givens)
    assert found.result.status == "unique"
    with pytest.raises(nonogen.InputError, match="3 given cells .* cannot hold givens"):
        save_scans([found], tmp_path / "key.non")  # .non would hold a puzzle with several solutions
    assert not (tmp_path / "key.non").exists()
    assert nonogen.load(save_scans([found], tmp_path / "key.json")[0]).givens == puzzle.givens


def test_a_photographed_page_has_no_givens(tmp_path):
    """Grain on grey paper makes the page a photo: a speck there is as likely as a given's dot, so none is read,
    and the key's clues alone are verified (several solutions), as the studio will show."""
    puzzle = nonogen.load("samples/puzzles/key-givens.json")
    nonogen.draw(puzzle, tmp_path / "key.png", cell=30)
    page = np.asarray(Image.open(tmp_path / "key.png").convert("L")).astype(float) * 0.85 + 20
    page += np.random.default_rng(1).normal(0, 6, page.shape)
    Image.fromarray(np.clip(page, 0, 255).astype(np.uint8)).save(tmp_path / "photo.png")
    (found,) = nonogen.scan(tmp_path / "photo.png")
    assert found.puzzle.rows == puzzle.rows and found.puzzle.givens == ()
    assert found.result.status == "multiple"
    gray = np.asarray(Image.open(tmp_path / "photo.png"))  # read upright too, as a photo that reads unsoundly is
    (upright,) = read_upright(Page(gray, 1))
    assert upright.givens == () and read_upright(Page(np.asarray(Image.open(tmp_path / "key.png").convert("L")),
                                                      1))[0].givens


@pytest.mark.parametrize("kind", KINDS)
def test_a_colour_sheets_filled_givens_keep_their_colours(tmp_path, kind):
    puzzle = _colour_puzzle(13, 12, 15)
    goal = np.asarray(puzzle.goal)
    cells = [(0, 0), (5, 7), (11, 14), (6, 2), (3, 9)]
    puzzle = puzzle.replace(givens=[(r, c, int(goal[r, c])) for r, c in cells])
    (found,) = nonogen.scan(_raster(tmp_path, puzzle, kind), verify=False)
    _same_colours(found, puzzle)
    got = {(r, c): found.puzzle.palette[v] for r, c, v in found.puzzle.givens}
    assert sorted(got) == sorted(cells)
    for r, c, v in puzzle.givens:
        want = np.array(puzzle.palette[v].rgb_tuple)
        assert np.abs(np.array(got[r, c].rgb_tuple) - want).max() <= 40, (r, c)


def test_a_picross_3d_levels_page_is_no_puzzle_grid(tmp_path):
    """A level's views are tables of numbers in cells, some hidden (grey): none is a nonogram's grid."""
    cells = np.zeros((4, 3, 3), dtype=bool)
    cells[:, 2, :] = True
    cells[0, :, 0] = True
    cells[3, 1, 2] = True
    nonogen.draw(puzzle3d_from_cells(cells, title="Table"), tmp_path / "level.png")
    with pytest.raises(nonogen.InputError, match="no puzzle grid found"):
        nonogen.scan(tmp_path / "level.png")


def test_a_column_of_clue_boxes_is_no_grid_of_its_own(tmp_path):
    """A 14x34 colour sheet as a PNG at 150 dpi (the render bench's puzzle 7, rng 31): in a column of clue boxes
    the light digits' holes and the gaps between boxes line up into a 2x2 lattice of 9-pixel cells, which was read
    as a second puzzle beside the real one. Its cells hold the digits' holes right into its corner: a table of
    numbers, no puzzle's grid (:func:`nonogen.importers.scan.lattice.without_clue_cells`)."""
    import bench_scan

    rng = np.random.default_rng(31)
    for k in range(8):
        puzzle = bench_scan.colour_puzzle(bench_scan.random_puzzle(rng, k), rng)
    nonogen.draw(puzzle, tmp_path / "sheet.png", dpi=150)
    (found,) = nonogen.scan(tmp_path / "sheet.png", verify=False)
    _same_colours(found, puzzle)


@pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Chromium")
def test_a_web_page_with_coloured_digits_reads_back_with_every_colour(tmp_path):
    puzzle = _colour_puzzle(14, 10, 13)
    page = scan_styles.web_screenshot(puzzle, "colour", tmp_path / "colour.png")
    (found,) = nonogen.scan(page, verify=False)
    _same_colours(found, puzzle)


def test_a_black_and_white_sheet_stays_black_and_white(tmp_path):
    """Grey lines and black digits give no colour, so the puzzle read is black and white, colour 1 throughout."""
    puzzle = _puzzle(15, 9, 9)
    nonogen.draw(puzzle, tmp_path / "p.png")
    (found,) = nonogen.scan(tmp_path / "p.png", verify=False)
    assert not found.puzzle.is_color and found.puzzle.rows == puzzle.rows


@pytest.mark.parametrize(("paper", "suffix"), [("a5", "pdf"), ("letter", "png"), ("a3", "png")])
def test_printed_pages_in_other_paper_sizes_read_back_exactly(tmp_path, paper, suffix):
    puzzle = _puzzle(16, 25, 18)
    nonogen.draw(puzzle, tmp_path / f"p.{suffix}", paper=paper, dpi=150 if suffix == "png" else None)
    (found,) = nonogen.scan(tmp_path / f"p.{suffix}", verify=False)
    _same_numbers(found, puzzle)


@pytest.mark.parametrize("suffix", ["png", "pdf"])
def test_a_sample_colour_puzzle_reads_back_unique(tmp_path, suffix):
    """Yoshi's five colours: a light grey box against the grid's edge (no box of its own at 150 dpi) still gives
    its grey, not its black digit's colour."""
    puzzle = nonogen.load("samples/puzzles/yoshi.cnon")
    nonogen.draw(puzzle, tmp_path / f"yoshi.{suffix}")
    (found,) = nonogen.scan(tmp_path / f"yoshi.{suffix}")
    _same_colours(found, puzzle)
    assert found.result.status == "unique" and len(found.puzzle.palette) == 6


def test_a_small_puzzle_alone_on_a_big_page_is_found(tmp_path):
    """A 5x5 puzzle on a Letter page at 150 dpi inks under 0.5 % of it: the ink's level must come from what is
    drawn, not from the page's darkest half percent (that was paper, and no grid was found)."""
    puzzle = _puzzle(17, 5, 5)
    nonogen.draw(puzzle, tmp_path / "p.png", paper="letter", dpi=150)
    (found,) = nonogen.scan(tmp_path / "p.png", verify=False)
    _same_numbers(found, puzzle)


def test_black_numbers_on_an_apps_tinted_clue_panel_are_black_and_white(tmp_path):
    """An app (Picture Cross) sets its black clue numbers on a light tinted panel: the numbers sit on a fill that is
    not paper, as a colour puzzle's light box against a line does, and the puzzle read as a colour puzzle of the
    panel's tint. The clue slots no number reaches show the panel, so a fill like theirs is no colour."""
    from PIL import Image

    from nonogen.importers.scan.lattice import find_grids

    puzzle = _puzzle(23, 12, 12)
    nonogen.draw(puzzle, tmp_path / "sheet.png")
    rgb = np.asarray(Image.open(tmp_path / "sheet.png").convert("RGB")).copy()
    (grid,) = find_grids(rgb.mean(axis=2).astype(np.uint8))
    x0, y0, x1, y1 = (int(v) for v in grid.box)
    reach = int(8 * grid.pitch)
    for part in (rgb[y0:y1, max(0, x0 - reach):x0], rgb[max(0, y0 - reach):y0, x0:x1]):
        paper = part.min(axis=2) >= 240
        part[paper] = (228, 221, 215)
    rgb[:max(4, y0 // 8), :max(4, x0 // 8)] = (230, 120, 30)  # the app's orange button: a page in colour
    Image.fromarray(rgb).save(tmp_path / "app.png")
    (found,) = nonogen.scan(tmp_path / "app.png", verify=False)
    _same_numbers(found, puzzle)
    assert found.puzzle.palette == BW_PALETTE  # not white and the panel's tint
