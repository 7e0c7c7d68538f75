"""``nonogen book`` over a collection folder or a selection file: by grade then name, a section page per grade,
contents with page numbers, answers at the back; ``--grade`` for any input. Read back with pdftotext and pdftoppm."""
from __future__ import annotations

import itertools
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from made_collection import make_collection

REPO = Path(__file__).resolve().parents[1]
PDFTOPPM, PDFTOTEXT = shutil.which("pdftoppm"), shutil.which("pdftotext")
pytestmark = pytest.mark.skipif(not (PDFTOPPM and PDFTOTEXT), reason="pdftoppm/pdftotext (poppler-utils) not installed")


@pytest.fixture(scope="module")
def collection(tmp_path_factory) -> Path:
    return make_collection(tmp_path_factory.mktemp("bookc") / "out", pictures=("icon-heart.png", "icon-gear.png",
                                                                               "flat-fish.png"), meshes=("chair.off",))


def nonogen_cli(*argv) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nonogen", *map(str, argv)], cwd=REPO, capture_output=True, text=True,
                          timeout=600)


def page_text(pdf: Path, page: int) -> str:
    return subprocess.run([PDFTOTEXT, "-layout", "-f", str(page), "-l", str(page), str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout


def page_images(pdf: Path) -> list[Image.Image]:
    out = pdf.parent / f"{pdf.stem}-pages"
    out.mkdir()
    subprocess.run([PDFTOPPM, "-r", "30", "-png", str(pdf), str(out / "p")], check=True)
    return [Image.open(f).convert("L") for f in sorted(out.glob("p-*.png"), key=lambda p: int(p.stem.split("-")[-1]))]


def test_book_of_a_collection_has_sections_contents_and_answers_in_grade_order(collection, tmp_path):
    pdf = tmp_path / "book.pdf"
    done = nonogen_cli("book", collection, "-o", pdf, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    grades = {json.loads((collection / n / "report.json").read_text())["grade"] for n in
              ("icon-heart", "icon-gear", "flat-fish", "chair")}
    assert len(grades) > 1, "the collection should mix grades for sections to mean something"
    order = [(p["grade"], p["source"]) for p in report["puzzles"]]
    assert order == sorted(order) and [p["number"] for p in report["puzzles"]] == [1, 2, 3, 4]
    assert report["contents_pages"] == [2] and [s["heading"].split(" · ")[0] for s in report["sections"]] == \
        [f"Grade {g}" for g in sorted(grades)]
    images = page_images(pdf)
    assert len(images) == report["pages"] and all(abs(i.width / i.height - 210 / 297) < 0.01 for i in images)

    contents = page_text(pdf, 2)
    assert contents.split()[0] == "Contents"
    listed = {int(n): int(p) for n, p in re.findall(r"Puzzle (\d+) · \S+\s+(\d+)", contents)}
    assert listed == {p["number"]: p["page"] for p in report["puzzles"]}
    for number, page in listed.items():  # each line points at its puzzle's page
        assert f"Puzzle {number} · grade" in page_text(pdf, page)
    for section in report["sections"]:
        assert re.search(re.escape(section["heading"]) + r"\s+" + str(section["page"]), contents)
        text = page_text(pdf, section["page"])
        assert section["heading"] in text and "Puzzle" in text
        ink = np.asarray(images[section["page"] - 1]) < 128
        assert 0 < ink.mean() < 0.01  # a heading and a line, no puzzle
    assert re.search(r"Answers\s+" + str(report["answers_page"]), contents)
    assert report["answers_page"] > max(p["page"] for p in report["puzzles"])
    assert all(p["answer_page"] >= report["answers_page"] for p in report["puzzles"])
    assert page_text(pdf, report["answers_page"]).split()[0] == "Answers"
    assert "contents on page 2" in page_text(pdf, 1)


def test_grade_filter_over_a_selection_file(collection, tmp_path):
    grades = {n: json.loads((collection / n / "report.json").read_text())["grade"]
              for n in ("icon-heart", "icon-gear", "flat-fish", "chair")}
    low = min(grades.values())
    selection = tmp_path / "selection.json"
    selection.write_text(json.dumps({"collection": str(collection), "names": list(grades)}))
    pdf = tmp_path / "low.pdf"
    done = nonogen_cli("book", selection, "-o", pdf, "--grade", str(low), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert sorted(p["source"] for p in report["puzzles"]) == sorted(n for n, g in grades.items() if g == low)
    assert sorted(o["source"] for o in report["other_grades"]) == sorted(n for n, g in grades.items() if g != low)
    assert len(report["sections"]) == 1
    none = nonogen_cli("book", selection, "-o", tmp_path / "none.pdf", "--grade", "5")
    assert none.returncode == 2 and "no puzzle of grade 5" in none.stderr
    assert len(none.stderr.strip().splitlines()) == 1 and not (tmp_path / "none.pdf").exists()
    unknown = tmp_path / "unknown.json"
    unknown.write_text(json.dumps({"collection": str(collection), "names": ["icon-heart", "nope"]}))
    bad = nonogen_cli("book", unknown, "-o", tmp_path / "bad.pdf")
    assert bad.returncode == 2 and "'nope' is not a made puzzle" in bad.stderr


def test_grade_filter_and_contents_for_puzzle_files(tmp_path):
    files = [REPO / "samples" / "puzzles" / n
             for n in ("heart.non", "lambda.txt", "webpbn-00001.non", "webpbn-00016.non")]
    pdf = tmp_path / "all.pdf"
    every = json.loads(nonogen_cli("book", *files, "-o", pdf, "--json", "--contents").stdout)
    assert every["contents_pages"] == [2] and "Contents" in page_text(pdf, 2)
    low = min(p["grade"] for p in every["puzzles"])
    some = nonogen_cli("book", *files, "-o", tmp_path / "low.pdf", "--json", "--grade", f"1-{low}")
    assert some.returncode == 0, some.stderr
    kept = json.loads(some.stdout)
    assert {p["source"] for p in kept["puzzles"]} == {p["source"] for p in every["puzzles"] if p["grade"] <= low}
    assert kept["contents_pages"] == [] and kept["sections"] == []  # files alone: no contents unless asked


def test_contents_running_over_two_pages_shift_every_page_number():
    """45 puzzles and 3 sections need two contents pages: every number printed must still point at its puzzle."""
    from nonogen.clues import puzzle_from_grid
    from nonogen.render.book import BookItem, layout_book
    from nonogen.render.canvas import Text
    from nonogen.render.page import PAPERS

    rng = np.random.default_rng(5)
    items = []
    for k in range(45):
        grid = (rng.random((5, 5)) < 0.5).astype(np.uint8)
        items.append(BookItem(puzzle_from_grid(grid), grid, k % 3 + 1, None, f"p{k}"))
    book = layout_book(items, PAPERS["a4"], 15, per_page=4, sections=True)
    assert book.contents_pages == (1, 2)
    texts = [[s.text for s in page.shapes if isinstance(s, Text)] for page in book.pages]
    printed = {}
    for page in book.contents_pages:
        words = texts[page]
        printed.update({w: int(n) for w, n in itertools.pairwise(words) if w.startswith("Puzzle ")})
    assert len(printed) == 45
    for entry in book.entries:
        line = next(t for t in printed if t.startswith(f"Puzzle {entry.number} ·"))
        assert printed[line] == entry.puzzle.page + 1 and entry.caption in texts[entry.puzzle.page]
    for heading, page in book.sections:
        assert heading in texts[page]
    assert "Answers" in texts[book.answers_page]
