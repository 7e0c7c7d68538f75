"""Print: PDF pages read back as pixels (pdftoppm) and text (pdftotext) match the paper, the margins and the answers.

The layout keeps a record of where every puzzle and answer went
(:class:`nonogen.render.book.Book`), so these tests check the printout
against the layout: page size, nothing outside the margins, one "Puzzle N"
per puzzle and answer, answer cells sampled at their centres equal to the
solution, and no text under 7 pt. Checks that read the PDF need poppler's
``pdftoppm``/``pdftotext`` (Debian package poppler-utils, installed by
``make test``) and skip without them; the layout checks always run.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from nonogen import formats
from nonogen.cli import main as run_cli
from nonogen.clues import puzzle_from_grid
from nonogen.clues3d import puzzle3d_from_cells
from nonogen.errors import LimitError
from nonogen.colorspace import color_name
from nonogen.model import Color
from nonogen.model3d import Puzzle3D
from nonogen.output import save_picture
from nonogen.render import encode
from nonogen.render.book import Book, BookItem, layout_book
from nonogen.render.canvas import PX_PER_MM, PX_PER_PT, Text, text_box, to_png
from nonogen.render.iso3d import solution_picture
from nonogen.render.page import MIN_TEXT_PT, PAPERS, SMALLEST_TEXT_PT, sheet_page
from nonogen.render.sheet2d import sheet_picture, sheet_size

REPO = Path(__file__).resolve().parents[1]
PDFTOPPM, PDFTOTEXT = shutil.which("pdftoppm"), shutil.which("pdftotext")
needs_pdftoppm = pytest.mark.skipif(PDFTOPPM is None,
                                    reason="pdftoppm (Debian package poppler-utils) is not installed")
needs_pdftotext = pytest.mark.skipif(PDFTOTEXT is None,
                                     reason="pdftotext (Debian package poppler-utils) is not installed")
PALETTE = (Color("white", "#ffffff", "."), Color("red", "#dd2222", "r"), Color("navy", "#000080", "n"),
           Color("3", "#22aa22", "g"))
A4_PT, LETTER_PT = (595.276, 841.89), (612.0, 792.0)


# --- puzzles ---------------------------------------------------------------------------------


def random_puzzle(w: int, h: int, seed: int, title: str = ""):
    grid = (np.random.default_rng(seed).random((h, w)) < 0.55).astype(np.uint8)
    return puzzle_from_grid(grid, title=title) if title else puzzle_from_grid(grid)


def colour_puzzle():
    grid = np.zeros((8, 9), dtype=np.uint8)
    grid[1:3, 1:7] = 1
    grid[3:7, 2] = 2
    grid[6, 3:8] = 3
    return puzzle_from_grid(grid, PALETTE, title="Flag")


def level3d() -> Puzzle3D:
    cells = np.zeros((4, 3, 3), dtype=bool)
    cells[:, 2, :] = True
    cells[0, :, 0] = True
    cells[3, 1, 2] = True
    return puzzle3d_from_cells(cells, title="Table")


def items() -> list[BookItem]:
    """A mixed book: small and TAAI-sized B&W, colour, Picross 3D; grades out of order, one unknown."""
    puzzles = [(random_puzzle(10, 10, 1, "Ten"), 3), (colour_puzzle(), 1), (random_puzzle(25, 25, 2), None),
               (level3d(), 2), (random_puzzle(15, 12, 3, "Fifteen"), 1)]
    return [BookItem(p, p.goal, g, {1: "easy", 2: "fair", 3: "tricky"}.get(g), f"p{i}")
            for i, (p, g) in enumerate(puzzles)]


# --- reading PDFs back -----------------------------------------------------------------------


def pdf_images(path: Path, dpi: int) -> list[Image.Image]:
    """Every page of ``path`` drawn by pdftoppm at ``dpi``, in page order."""
    out = path.parent / f"{path.stem}-pages"
    out.mkdir(exist_ok=True)
    subprocess.run([PDFTOPPM, "-r", str(dpi), "-png", str(path), str(out / "p")], check=True)
    files = sorted(out.glob("p-*.png"), key=lambda p: int(p.stem.split("-")[-1]))
    return [Image.open(f).convert("RGB") for f in files]


def pdf_text(path: Path) -> str:
    return subprocess.run([PDFTOTEXT, str(path), "-"], check=True, capture_output=True, text=True).stdout


def media_boxes(data: bytes) -> list[tuple[float, float]]:
    """Page sizes in points, read from the PDF's page objects."""
    return [(float(w), float(h)) for w, h in re.findall(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)]


def ink_outside(image: Image.Image, margin_px: float) -> int:
    """How many pixels outside the margin box are not white (one pixel of slack for anti-aliasing)."""
    a = np.asarray(image).min(axis=2) < 245
    m = int(margin_px) - 1
    inner = np.zeros_like(a)
    inner[m: a.shape[0] - m, m: a.shape[1] - m] = True
    return int((a & ~inner).sum())


@pytest.fixture(scope="module")
def book_pdf(tmp_path_factory) -> tuple[Book, Path]:
    book = layout_book(items(), PAPERS["a4"], 15, title="Test book", per_page=2)
    path = tmp_path_factory.mktemp("book") / "book.pdf"
    save_picture(list(book.pages), path, force=True)
    return book, path


# --- the layout ------------------------------------------------------------------------------


def test_book_numbers_by_grade_and_records_every_puzzle_once(book_pdf):
    book, _ = book_pdf
    assert [e.number for e in book.entries] == [1, 2, 3, 4, 5]
    assert [e.index for e in book.entries] == [1, 4, 3, 0, 2]  # grade 1, 1, 2, 3, then unknown; ties in input order
    assert book.entries[0].caption == "Puzzle 1 · grade 1 · easy" and book.entries[-1].caption == "Puzzle 5"
    assert all(e.answer is not None and e.answer.page >= book.answers_page for e in book.entries)
    assert all(e.puzzle.page < book.answers_page for e in book.entries)
    for entry in book.entries:  # the caption is on its puzzle's page, the number on its answer's page
        assert any(isinstance(s, Text) and s.text == entry.caption for s in book.pages[entry.puzzle.page].shapes)
        assert any(isinstance(s, Text) and s.text.startswith(f"Puzzle {entry.number}")
                   for s in book.pages[entry.answer.page].shapes)


def test_clue_digits_are_never_under_7pt(book_pdf):
    book, _ = book_pdf
    assert all(e.min_text_pt >= MIN_TEXT_PT for e in book.entries)
    for page in book.pages:
        sizes = [s.size / PX_PER_PT for s in page.shapes if isinstance(s, Text)]
        assert min(sizes) >= MIN_TEXT_PT - 1e-9


def test_colour_puzzles_carry_a_legend(book_pdf):
    book, _ = book_pdf
    entry = next(e for e in book.entries if e.source == "p1")
    texts = {s.text for s in book.pages[entry.puzzle.page].shapes if isinstance(s, Text)}
    readable = color_name(PALETTE[3].rgb_tuple)  # a colour named by a number gets a readable name too
    assert {"red", "navy", f"3 ({readable})"} <= texts


def test_a_wide_puzzle_turns_the_page_and_a_huge_one_is_refused_with_the_largest_size():
    grid = np.zeros((6, 46), dtype=np.uint8)
    grid[::2] = np.arange(46) % 6 != 5  # runs of 5: eight single-digit clues a row, a sheet 55 cells wide
    wide = puzzle_from_grid(grid)
    page = sheet_page(sheet_picture(wide, legend=True), PAPERS["a4"], 15, 20)
    assert page.page.width > page.page.height and page.min_text_pt >= MIN_TEXT_PT
    book = layout_book([BookItem(wide, wide.goal)], PAPERS["a4"], 15)
    assert book.pages[book.entries[0].puzzle.page].width > book.pages[0].width  # its page alone is landscape
    huge = random_puzzle(90, 90, 5)
    with pytest.raises(LimitError, match=r"huge.non: .*holds at most \d+x\d+ cells"):
        layout_book([BookItem(huge, huge.goal, source="huge.non")], PAPERS["a4"], 15)


def test_layout_book_skips_a_puzzle_no_page_holds_and_makes_the_rest():
    """One 90x90 puzzle made `nonogen book` fail for a whole collection; now it is left out with the reason."""
    huge, small = random_puzzle(90, 90, 5), random_puzzle(10, 10, 1)
    book = layout_book([BookItem(small, small.goal, source="a.non"), BookItem(huge, huge.goal, source="huge.non"),
                        BookItem(small, small.goal, source="b.non")], PAPERS["a4"], 15)
    assert [e.source for e in book.entries] == ["a.non", "b.non"] and [e.number for e in book.entries] == [1, 2]
    assert [(s.index, s.source) for s in book.skipped] == [(1, "huge.non")]
    assert "holds at most" in book.skipped[0].reason and "6 pt" in book.skipped[0].reason


def test_layout_book_fits_a_40x40_puzzle_on_a4_with_clues_at_least_6pt():
    """A 40x40 puzzle (15 clue numbers in its longest line) could not be printed on A4 or Letter at all."""
    big = random_puzzle(40, 40, 0)
    assert max(len(c) for c in big.cols) >= 14
    for paper in ("a4", "letter"):
        book = layout_book([BookItem(big, big.goal)], PAPERS[paper], 15)
        entry = book.entries[0]
        assert not book.skipped and entry.min_text_pt >= SMALLEST_TEXT_PT
        page = book.pages[entry.puzzle.page]
        assert page.height > page.width  # portrait: the digits grew to fill their cells instead
        assert min(s.size for s in page.shapes if isinstance(s, Text)) / PX_PER_PT >= SMALLEST_TEXT_PT - 1e-9


def test_four_small_puzzles_share_a_page():
    small = [BookItem(random_puzzle(8, 8, s), random_puzzle(8, 8, s).goal) for s in range(4)]
    book = layout_book(small, PAPERS["letter"], 12, per_page=4, answers=False)
    assert len(book.pages) == 2 and {e.puzzle.page for e in book.entries} == {1}
    assert book.answers_page is None and all(e.answer is None for e in book.entries)


# --- the PDF read back -----------------------------------------------------------------------


def test_pdf_pages_are_a4(book_pdf):
    book, path = book_pdf
    boxes = media_boxes(path.read_bytes())
    assert len(boxes) == len(book.pages)
    assert all(b == pytest.approx(A4_PT, abs=0.01) for b in boxes)


@needs_pdftoppm
def test_pdf_pages_have_the_paper_size_and_no_ink_outside_the_margins(book_pdf):
    book, path = book_pdf
    dpi = 60
    images = pdf_images(path, dpi)
    assert len(images) == len(book.pages)
    for number, image in enumerate(images, 1):
        width, height = 210 / 25.4 * dpi, 297 / 25.4 * dpi  # pdftoppm rounds a part pixel up
        assert abs(image.width - width) <= 1 and abs(image.height - height) <= 1
        assert ink_outside(image, 15 / 25.4 * dpi) == 0, f"page {number} prints into the margin"
        assert np.asarray(image).min() < 128  # and every page has something on it


def _iso_drawn(cells: np.ndarray, scale: float, shape: tuple) -> np.ndarray:
    """The isometric answer drawing of ``cells`` at ``scale``, resized to a page region of ``shape``'s size."""
    img = to_png(solution_picture(cells, cube=24), scale=scale).resize((shape[1], shape[0]))
    return np.asarray(img, dtype=float)


@needs_pdftoppm
def test_answer_pages_show_each_puzzles_solution(book_pdf):
    book, path = book_pdf
    dpi = 110
    k = dpi / 96  # pixels per unit
    images = pdf_images(path, dpi)
    source = {i.source: i for i in items()}
    for entry in book.entries:
        item = source[entry.source]
        image = images[entry.answer.page]
        if isinstance(item.puzzle, Puzzle3D):  # the isometric answer: the page region looks like its own drawing
            a = entry.answer
            box = tuple(round(v * k) for v in (a.x, a.y, a.x + a.width, a.y + a.height))
            region = np.asarray(image.crop(box), dtype=float)
            other = item.answer.copy()
            other[0, :, 0] = False
            right, wrong = (np.abs(region - _iso_drawn(cells, a.scale * k, region.shape)).mean()
                            for cells in (item.answer, other))
            assert right < 8 and right < wrong / 2
            continue
        x0, y0, cell = entry.answer_grid
        for (r, c), value in np.ndenumerate(item.answer):
            pixel = image.getpixel((int((x0 + (c + 0.5) * cell) * k), int((y0 + (r + 0.5) * cell) * k)))
            want = item.puzzle.palette[int(value)].rgb_tuple
            assert max(abs(p - q) for p, q in zip(pixel, want, strict=True)) < 40, (entry.number, r, c, pixel, want)


@needs_pdftotext
def test_pdf_text_has_one_puzzle_and_one_answer_per_number(book_pdf):
    book, path = book_pdf
    found = re.findall(r"Puzzle (\d+)", pdf_text(path))
    assert sorted(map(int, found)) == sorted(2 * [e.number for e in book.entries])


def clue_texts(page) -> list[Text]:
    """The clue digits on a book page: the caption ("Puzzle 1") and page number ("– 2 –") are not all digits."""
    return [s for s in page.shapes if isinstance(s, Text) and s.text.isdigit()]


def words_in_pdf(path: Path, page: int) -> list[tuple[str, float, float, float, float]]:
    """``(word, x0, y0, x1, y1)`` in points of every word pdftotext finds on page ``page`` (from 1)."""
    html = subprocess.run([PDFTOTEXT, "-bbox", "-f", str(page), "-l", str(page), str(path), "-"],
                          check=True, capture_output=True, text=True).stdout
    pattern = r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>'
    return [(w, float(a), float(b), float(c), float(d)) for a, b, c, d, w in re.findall(pattern, html)]


@needs_pdftoppm
@needs_pdftotext
@pytest.mark.parametrize("paper,puzzle", [("a3", lambda: formats.load(REPO / "samples/puzzles/webpbn-00529.non")),
                                          ("a5", lambda: random_puzzle(25, 25, 2)),
                                          ("a5", colour_puzzle)], ids=["a3-45x45", "a5-25x25", "a5-colour"])
def test_layout_book_pages_on_a3_and_a5_print_every_clue_unclipped(tmp_path, paper, puzzle):
    """Read back as pixels and as text, every clue number of the page is inside the margins, inked, and present."""
    puzzle = puzzle()
    book = layout_book([BookItem(puzzle, puzzle.goal)], PAPERS[paper], 15)
    path = tmp_path / "book.pdf"
    save_picture(list(book.pages), path, force=True)
    entry = book.entries[0]
    page = book.pages[entry.puzzle.page]
    assert (page.width, page.height) == pytest.approx((PAPERS[paper].width, PAPERS[paper].height))
    dpi = 150
    k = dpi / 96
    image = pdf_images(path, dpi)[entry.puzzle.page]
    assert ink_outside(image, 15 / 25.4 * dpi) == 0
    clues = clue_texts(page)
    margin = 15 * PX_PER_MM
    for t in clues:
        x0, y0, x1, y1 = text_box(t)
        assert margin - 1e-6 <= x0 and x1 <= page.width - margin + 1e-6
        assert margin - 1e-6 <= y0 and y1 <= page.height - margin + 1e-6
        ink = np.asarray(image.crop((int(x0 * k), int(y0 * k), int(x1 * k) + 1, int(y1 * k) + 1))).min()
        assert ink < 128, f"clue {t.text} at ({t.x:.0f}, {t.y:.0f}) has no ink"
    want = sorted(str(n) for line in (*puzzle.rows, *puzzle.cols) for n, _ in line)
    want += ["0"] * sum(1 for line in (*puzzle.rows, *puzzle.cols) if not line)
    assert len(clues) == len(want)
    w_pt, h_pt = PAPERS[paper].width_mm / 25.4 * 72, PAPERS[paper].height_mm / 25.4 * 72
    words = words_in_pdf(path, entry.puzzle.page + 1)
    inside = [w for w, a, b, c, d in words if w.isdigit() and 0 <= a and c <= w_pt and 0 <= b and d <= h_pt]
    want += [w for t in page.shapes if isinstance(t, Text) and not t.text.isdigit()  # "Puzzle 1", "– 2 –", legend
             for w in t.text.split() if w.isdigit()]
    assert sorted(inside) == sorted(want)


# --- the commands ----------------------------------------------------------------------------


@pytest.fixture()
def puzzle_files(tmp_path) -> list[Path]:
    files = [tmp_path / "ten.non", tmp_path / "flag.json", tmp_path / "table.json"]
    formats.dump(random_puzzle(10, 10, 1, "Ten"), files[0])
    formats.dump(colour_puzzle(), files[1])
    formats.dump(level3d(), files[2], "nonogen-3d")
    return files


def test_book_command_writes_atomically_and_never_over_a_file(tmp_path, puzzle_files, capsys):
    out = tmp_path / "out" / "book.pdf"
    argv = ["book", *map(str, puzzle_files), "-o", str(out), "--title", "Mixed", "--json"]
    assert run_cli(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["pages"] == len(media_boxes(out.read_bytes())) == 1 + 3 + 1
    assert [p["number"] for p in report["puzzles"]] == [1, 2, 3]
    assert report["answers_page"] == 5 and all(p["answer_page"] == 5 for p in report["puzzles"])
    before = out.read_bytes()
    assert run_cli(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--force" in err[0] and out.read_bytes() == before
    assert run_cli(argv + ["--force", "--answers", "none", "--per-page", "4", "--paper", "letter"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["answers_page"] is None and report["paper"] == "Letter"
    assert all(b == pytest.approx(LETTER_PT, abs=0.01) for b in media_boxes(out.read_bytes()))
    assert [p.name for p in out.parent.iterdir()] == ["book.pdf"]  # no temporary file left behind


def test_book_command_sorts_by_the_engines_grade(tmp_path, puzzle_files, capsys, monkeypatch):
    import nonogen.output.books as books

    real = books.verify
    grades = {10: (4, "hard"), 9: None, 4: (1, "easy")}  # by width: ten.non, flag.json, table.json

    def graded(puzzle, timeout=None):
        result = real(puzzle, timeout=timeout)
        width = puzzle.size[0] if isinstance(puzzle, Puzzle3D) else puzzle.width
        result.grade, result.grade_name = grades[width] or (None, None)
        return result

    monkeypatch.setattr(books, "verify", graded)  # nonogen.book asks the engine for each puzzle
    out = tmp_path / "graded.pdf"
    assert run_cli(["book", *map(str, puzzle_files), "-o", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [Path(p["source"]).name for p in report["puzzles"]] == ["table.json", "ten.non", "flag.json"]
    assert [p["grade"] for p in report["puzzles"]] == [1, 4, None]
    assert run_cli(["book", *map(str, puzzle_files), "-o", str(out), "--force", "--order", "input", "--json"]) == 0
    assert [Path(p["source"]).name for p in json.loads(capsys.readouterr().out)["puzzles"]] == \
        ["ten.non", "flag.json", "table.json"]


def test_book_command_skips_a_puzzle_it_cannot_print_and_makes_the_rest(tmp_path, puzzle_files, capsys):
    """An unsolvable or oversized puzzle failed the whole book; now each is named with its reason, exit 2."""
    unsolvable = tmp_path / "bad.non"
    unsolvable.write_text("width 2\nheight 2\nrows\n2\n0\ncolumns\n1\n0\n")
    huge = tmp_path / "huge.non"
    formats.dump(random_puzzle(90, 90, 5), huge)
    out = tmp_path / "book.pdf"
    argv = ["book", str(puzzle_files[0]), str(unsolvable), str(huge), "-o", str(out), "--paper", "a5", "--json"]
    assert run_cli(argv) == 2
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert [p["source"] for p in report["puzzles"]] == [str(puzzle_files[0])]
    assert [s["source"] for s in report["skipped"]] == [str(unsolvable), str(huge)]
    err = captured.err.strip().splitlines()
    assert err[0] == f"nonogen: skipped {unsolvable}: the puzzle has no solution, so it cannot go in a book"
    assert err[1].startswith(f"nonogen: skipped {huge}: the sheet is") and "A5" in err[1] and "--paper a3" in err[1]
    assert len(media_boxes(out.read_bytes())) == 3


def test_book_command_refuses_bad_input(tmp_path, puzzle_files, capsys):
    unsolvable = tmp_path / "bad.non"
    unsolvable.write_text("width 2\nheight 2\nrows\n2\n0\ncolumns\n1\n0\n")
    for argv in (
        ["book", str(puzzle_files[0]), "-o", str(tmp_path / "book.png")],
        ["book", str(puzzle_files[0]), "-o", str(tmp_path / "b.pdf"), "--margin", "fifteen"],
        ["book", str(puzzle_files[0]), "-o", str(tmp_path / "b.pdf"), "--margin", "100mm"],
        ["book", str(unsolvable), "-o", str(tmp_path / "b.pdf")],
        ["book", str(tmp_path), "-o", str(tmp_path / "b.pdf")],
    ):
        assert run_cli(argv) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("nonogen: error:"), err
    assert not (tmp_path / "b.pdf").exists()


def test_render_pdf_png_and_svg_pages(tmp_path, puzzle_files, capsys):
    src = str(puzzle_files[1])
    pdf = tmp_path / "sheet.pdf"
    assert run_cli(["render", src, "-o", str(pdf), "--paper", "letter", "--margin", "0.5in", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["paper"] == "Letter" and report["min_text_pt"] >= MIN_TEXT_PT
    assert media_boxes(pdf.read_bytes()) == [pytest.approx(LETTER_PT, abs=0.01)]
    png = tmp_path / "sheet.png"
    assert run_cli(["render", src, "-o", str(png), "--paper", "a4"]) == 0
    with Image.open(png) as img:  # A4 at 300 dpi, and the file says so
        assert img.size == (2480, 3508) and img.info["dpi"] == pytest.approx((300, 300), abs=0.05)
    assert run_cli(["render", src, "-o", str(png), "--paper", "a4", "--dpi", "150", "--force"]) == 0
    with Image.open(png) as img:
        assert img.size == (1240, 1754) and img.info["dpi"] == pytest.approx((150, 150), abs=0.05)
    svg = tmp_path / "sheet.svg"
    assert run_cli(["render", src, "-o", str(svg), "--paper", "a4", "--solution"]) == 0
    text = svg.read_text()
    assert 'width="210mm"' in text and 'height="297mm"' in text and "viewBox" in text
    capsys.readouterr()


def test_screen_png_keeps_its_cell_size_and_says_96_dpi(tmp_path, puzzle_files):
    png = tmp_path / "screen.png"
    assert run_cli(["render", str(puzzle_files[0]), "-o", str(png), "--cell", "12"]) == 0
    puzzle = formats.load(puzzle_files[0])
    with Image.open(png) as img:
        assert img.size == sheet_size(puzzle, 12) and img.info["dpi"] == pytest.approx((96, 96), abs=0.05)


def test_save_picks_the_writer_by_suffix_and_sizes_pngs_by_dpi(tmp_path):
    picture = sheet_picture(colour_puzzle(), cell=10, caption="Puzzle 1 · grade 1", legend=True)
    assert encode(picture, ".pdf").startswith(b"%PDF")
    png = tmp_path / "p.png"
    save_picture(picture, png, dpi=192)
    with Image.open(png) as img:
        assert img.size == (round(picture.width * 2), round(picture.height * 2))
    svg = encode(picture, ".svg").decode()
    assert f'width="{round(picture.width / PX_PER_MM, 3):g}mm"' in svg
    with pytest.raises(Exception, match="one picture"):
        encode([picture, picture], ".png")
    save_picture(picture, png, force=True)
    with pytest.raises(Exception, match="exists"):
        save_picture(picture, png)


def test_render_prints_a_45x45_puzzle_on_one_a4_page(tmp_path, capsys):
    """`nonogen render big.non -o big.pdf` refused the 45x45 webpbn-00529 on A4; the book already took it."""
    out = tmp_path / "big.pdf"
    assert run_cli(["render", str(REPO / "samples/puzzles/webpbn-00529.non"), "-o", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["paper"].startswith("A4") and SMALLEST_TEXT_PT <= report["min_text_pt"] < MIN_TEXT_PT
    assert media_boxes(out.read_bytes()) == [pytest.approx(A4_PT, abs=0.01)]
