"""Sheets: SVG is valid XML with every clue number, PNG has the promised size and colours, `nonogen render` (2D and
3D)."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from collections import Counter

import numpy as np
import pytest
from PIL import Image

from nonogen import formats
from nonogen.cli import main as run_cli
from nonogen.clues import puzzle_from_grid
from nonogen.clues3d import puzzle3d_from_cells
from nonogen.model import Color, Puzzle
from nonogen.render.canvas import PX_PER_MM, Text, to_png, to_svg
from nonogen.render.sheet2d import Rect, cell_center, sheet_picture, sheet_shapes, sheet_size

SVG = "{http://www.w3.org/2000/svg}"
PALETTE = (Color("white", "#ffffff", "."), Color("red", "#dd2222", "r"), Color("navy", "#000080", "n"))


def bw_puzzle() -> Puzzle:
    grid = np.zeros((12, 13), dtype=np.uint8)
    grid[1:11, 2] = 1
    grid[3, 1:12] = 1
    grid[6:9, 5:13] = 1
    grid[10, ::2] = 1
    return puzzle_from_grid(grid, title="Test")


def colour_puzzle() -> Puzzle:
    grid = np.zeros((7, 6), dtype=np.uint8)
    grid[1:3, 1:5] = 1
    grid[3:6, 2] = 2
    grid[5, 3:6] = 2
    return puzzle_from_grid(grid, PALETTE, givens=[(1, 1, 1), (0, 0, 0)])


def render_svg(puzzle: Puzzle, solution=None, cell: float = 20) -> str:
    return to_svg(sheet_picture(puzzle, solution, cell))


def render_png(puzzle: Puzzle, solution=None, cell: float = 20) -> Image.Image:
    return to_png(sheet_picture(puzzle, solution, cell))


def expected_labels(puzzle: Puzzle) -> Counter:
    labels = Counter()
    for line in puzzle.rows + puzzle.cols:
        labels.update(str(n) for n, _ in line) if line else labels.update(["0"])
    return labels


@pytest.mark.parametrize("make", [bw_puzzle, colour_puzzle])
def test_svg_is_valid_xml_with_every_clue_number(make):
    puzzle = make()
    root = ET.fromstring(render_svg(puzzle))
    texts = Counter(t.text for t in root.iter(SVG + "text"))
    if "title" in puzzle.meta:
        assert texts.pop(puzzle.meta["title"]) == 1
    assert texts == expected_labels(puzzle)
    width, height = sheet_size(puzzle)
    assert [float(v) for v in root.get("viewBox").replace(",", " ").split()] == [0, 0, width, height]
    mm = [float(root.get(k).removesuffix("mm")) for k in ("width", "height")]  # the physical size, 96 units an inch
    assert mm == [pytest.approx(width / PX_PER_MM, abs=1e-3), pytest.approx(height / PX_PER_MM, abs=1e-3)]


def test_colour_clues_sit_in_boxes_of_their_colour():
    puzzle = colour_puzzle()
    root = ET.fromstring(render_svg(puzzle))
    fills = Counter(r.get("fill") for r in root.iter(SVG + "rect"))
    clue_items = Counter(puzzle.palette[c].rgb for line in puzzle.rows + puzzle.cols for _, c in line)
    given_cells = Counter(puzzle.palette[v].rgb for _, _, v in puzzle.givens if v)
    for rgb, n in clue_items.items():
        assert fills[rgb] == n + given_cells[rgb]


@pytest.mark.parametrize("make", [bw_puzzle, colour_puzzle])
def test_png_size_and_cell_colours(make):
    puzzle = make()
    for cell in (12, 20):
        empty = render_png(puzzle, cell=cell)
        assert empty.size == sheet_size(puzzle, cell)
        solved = render_png(puzzle, puzzle.goal, cell=cell)
        for (r, c), value in np.ndenumerate(puzzle.goal):
            x, y = cell_center(puzzle, r, c, cell)
            assert solved.getpixel((int(x), int(y))) == puzzle.palette[int(value)].rgb_tuple
    for r, c, v in puzzle.givens:  # a given colour cell is painted on the blank sheet; a given blank is not
        x, y = cell_center(puzzle, r, c, 20)
        pixel = render_png(puzzle, cell=20).getpixel((int(x), int(y)))
        assert (pixel == puzzle.palette[v].rgb_tuple) == bool(v)


def test_guide_lines_every_five_cells():
    puzzle = bw_puzzle()
    lines = [s for s in sheet_shapes(puzzle) if not isinstance(s, Rect) and hasattr(s, "width")]
    heavy = [s for s in lines if s.width > 1]
    # verticals at 0, 5, 10, 13 and horizontals at 0, 5, 10, 12
    assert len(heavy) == 8


@pytest.mark.parametrize("suffix,solution", [(".svg", False), (".png", True), (".svg", True)])
def test_render_command_writes_the_sheet(tmp_path, capsys, suffix, solution):
    puzzle = colour_puzzle().replace(goal=None)  # no goal stored: --solution must solve it
    src = tmp_path / "p.json"
    formats.dump(puzzle, src)
    out = tmp_path / f"sheet{suffix}"
    argv = ["render", str(src), "-o", str(out)] + (["--solution"] if solution else [])
    assert run_cli(argv) == 0
    if suffix == ".png":
        img = Image.open(out)
        assert img.size == sheet_size(puzzle)
        x, y = cell_center(puzzle, 3, 2)
        assert img.convert("RGB").getpixel((int(x), int(y))) == PALETTE[2].rgb_tuple
    else:
        ET.parse(out)
    assert run_cli(argv) == 2  # exists now
    assert "--force" in capsys.readouterr().err
    assert run_cli(argv + ["--force"]) == 0


def test_render_refuses_bad_requests(tmp_path, capsys):
    src = tmp_path / "p.non"
    formats.dump(bw_puzzle(), src)
    junk = tmp_path / "junk.non"
    junk.write_text("width 3\nheight x\n")
    for argv in (
        ["render", str(src), "-o", str(tmp_path / "sheet.gif")],
        ["render", str(src), "-o", str(tmp_path / "sheet.pdf"), "--cell", "30"],
        ["render", str(src), "-o", str(tmp_path / "sheet.pdf"), "--margin", "120mm"],
        ["render", str(junk), "-o", str(tmp_path / "a.svg")],
        ["render", str(tmp_path / "missing.non"), "-o", str(tmp_path / "b.svg")],
    ):
        assert run_cli(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("nonogen: error:")


@pytest.mark.parametrize("with_goal", [True, False])
def test_render_command_draws_picross3d_levels(tmp_path, with_goal):
    from nonogen.render.iso3d import solution_picture

    cells = np.zeros((3, 2, 2), dtype=bool)  # an L of 4 cubes: every clue shown makes it unique
    cells[:, 1, 0] = True
    cells[0, 0, 0] = True
    level = puzzle3d_from_cells(cells, title="L")
    src = tmp_path / "level.json"
    formats.dump(level if with_goal else level.replace(goal=None), src, "nonogen-3d")
    sheet, solved, png = tmp_path / "sheet.svg", tmp_path / "solved.svg", tmp_path / "solved.png"
    assert run_cli(["render", str(src), "-o", str(sheet)]) == 0
    texts = Counter(t.text for t in ET.parse(sheet).iter(SVG + "text"))
    shown = Counter(str(c[0]) for axis in "xyz" for row in level.clues[axis] for c in row)
    assert all(texts[n] >= k for n, k in shown.items())  # every clue number is on the sheet
    assert run_cli(["render", str(src), "-o", str(solved), "--solution"]) == 0
    assert solved.read_text() == to_svg(solution_picture(cells))  # the goal's cubes, stored or solved for
    assert "<polygon" in solved.read_text()
    assert run_cli(["render", str(src), "-o", str(png), "--solution", "--cell", "10"]) == 0
    assert Image.open(png).size == (solution_picture(cells, cube=10).width, solution_picture(cells, cube=10).height)


def test_print_sheet_has_caption_title_and_legend_without_collisions():
    """The colour legend names every colour (a number gets a readable name), under the grid, inside the sheet."""
    from nonogen.colorspace import color_name
    from nonogen.render.canvas import shape_box, text_box

    palette = PALETTE + (Color("4", "#ffff00", "y"),)
    grid = np.zeros((3, 4), dtype=np.uint8)
    grid[0, :] = [1, 2, 3, 0]
    puzzle = puzzle_from_grid(grid, palette)
    title = "A rather long title for so small a puzzle, which wraps"
    picture = sheet_picture(puzzle, cell=20, title=title, caption="Puzzle 7 · grade 2 · easy", legend=True)
    texts = [s for s in picture.shapes if isinstance(s, Text)]
    legend = [t.text for t in texts if t.anchor == "start"]
    assert legend == ["red", "navy", f"4 ({color_name((255, 255, 0))})"]
    header = [t for t in texts if t.size >= 0.6 * 20 and not t.text.isdigit()]
    assert " ".join(t.text for t in header if t.size == 0.7 * 20) == title
    assert header[0].text == "Puzzle 7 · grade 2 · easy"
    boxes = [text_box(t) for t in texts]
    for s in picture.shapes:
        x0, y0, x1, y1 = shape_box(s)
        assert 0 <= x0 and 0 <= y0 and x1 <= picture.width and y1 <= picture.height, s
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def test_solution_pictures_use_the_levels_own_cube_colours():
    """A coloured level is drawn in its colours when the cubes are its goal; any other cubes are drawn plain."""
    from nonogen.render.iso3d import BASE, cube_colors, solution_picture

    cells = np.ones((2, 1, 1), dtype=bool)
    palette = (Color("none", "#ffffff", "."), Color("red", "#ff0000", "r"))
    level = puzzle3d_from_cells(cells).replace(palette=palette, colors=np.array([[[1]], [[0]]]))
    rgb = cube_colors(level, cells)
    assert tuple(rgb[0, 0, 0]) == (255, 0, 0) and tuple(rgb[1, 0, 0]) == BASE  # an uncoloured cube stays plain
    assert cube_colors(level, ~cells) is None and cube_colors(level.replace(colors=None), cells) is None
    fills = {s.fill for s in solution_picture(cells, rgb).shapes}
    assert "#ff0000" in fills  # the red cube's top face, at full brightness


SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "puzzles"


def test_render_writes_playable_pages_for_2d_and_3d(tmp_path, capsys):
    """`nonogen render X -o page.html`: one self-contained page with the puzzle inside, no network addresses."""
    cells = np.zeros((3, 3, 2), dtype=bool)
    cells[:, 2, :] = cells[1, :, 0] = True
    level = tmp_path / "level.json"
    formats.dump(puzzle3d_from_cells(cells), level)
    for source in (SAMPLES / "lambda.txt", level):
        out = tmp_path / (source.stem + ".html")
        assert run_cli(["render", str(source), "-o", str(out)]) == 0
        page = out.read_text()
        assert 'id="puzzle"' in page and "http://" not in page
        assert "https://" not in page.replace("http://www.w3.org", "")
        assert "playable page" in capsys.readouterr().out
    assert run_cli(["render", str(SAMPLES / "lambda.txt"), "-o", str(tmp_path / "x.html"), "--paper", "a4"]) == 2


def test_encode_refuses_a_png_over_the_pixel_cap(tmp_path):
    """`image --size 256x256 --cell 100` died of a MemoryError traceback; `--cell 60` took 87 s and 1 GB.

    A PNG sheet over MAX_SHEET_PIXELS is refused before a pixel is allocated,
    by the library (LimitError) and by both commands that draw (exit 2, one line).
    """
    import resource

    from nonogen.errors import LimitError
    from nonogen.render import MAX_SHEET_PIXELS, encode
    from nonogen.render.sheet2d import sheet_picture

    grid = (np.random.default_rng(3).random((256, 256)) < 0.5).astype(np.uint8)
    puzzle = puzzle_from_grid(grid)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(LimitError, match=r"megapixels"):
        encode(sheet_picture(puzzle, None, 100), ".png")
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100 * 1024  # KB: nothing was drawn
    small = Image.open(__import__("io").BytesIO(encode(sheet_picture(puzzle_from_grid(grid[:20, :20]), None, 20),
                                                       ".png")))
    assert small.size[0] * small.size[1] < MAX_SHEET_PIXELS
    path = tmp_path / "big.non"
    path.write_text(formats.dumps(puzzle, "non"))
    code = run_cli(["render", str(path), "-o", str(tmp_path / "big.png"), "--cell", "100"])
    assert code == 2 and not (tmp_path / "big.png").exists()
