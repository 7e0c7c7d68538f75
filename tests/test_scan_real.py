"""Scanning real pictures (samples/scan-photos/: photos of printed puzzles and other programs' screenshots, taken by
other people, each with a transcribed truth): what is read exactly stays exact; whatever the reader makes of the
rest, the user gets a result or a one-line error, never a traceback, from the API and from the CLI with ``--json``.

How well they are read is measured by ``scripts/bench_scan_real.py``; this file only guards the floor.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import nonogen

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import bench_scan_real  # noqa: E402

PICTURES = bench_scan_real.pictures()
AMBIGUOUS = ("nonojure-nono6", "nonojure-nono7", "nonojure-nono12")
"""Printed puzzles with several solutions, as printed (the truths were checked against the photos there)."""
EXACT: tuple[str, ...] = ("nonojure-nono3", "kolyn-puzzle-nonograms", "nonojure-nono4", "nonojure-nono9",
                          "nonojure-nono5", "nonojure-nono6", "nonojure-nono7", "nonojure-nono8", "nonojure-nono1",
                          "kolyn-picture-cross", "nonojure-nono12")
"""The pictures read exactly (size and every clue) today (see the bench's table): two screenshots once the paper
became the picture's most common colour, not its edge's (cut at the grid's black frame; a dark frame round cream
cells), a magazine photo once its clue boxes were cut off the lattice and a photo's digits read with prototypes
of its own blur, and another once the digits standing on its frame's printed shadow were kept whole and the
tablecloth beside the page was no longer read as a clue, and a third once specks (a clue box's line ends, 1x3
pixels) were no longer joined into a "1" beside a 4; three more magazine photos once touching digits were cut at
even widths too (a "20" was cut inside its 0) and a blob nearly a bold digit wide was read as two ("37" as "9"); a
program's window once a sure digit atop a column's stack was no heading for looking little like a digit; a phone
game's screen once its picture beside the grid neither made a line of column clues a heading nor started a row's
clue; a magazine photo whose clue boxes are cells of its lattice, its page curling hard at one side, once a
digit's stroke between two lines no longer moved the spacing the lines are counted by and the bands nearest the
frame's sides were narrower. A picture that the reader learns to read goes here, so that it stays read."""


def test_every_picture_has_a_truth_that_a_person_could_solve():
    """The truths are what the bench measures against: each loads, and is solvable (unique or, for the two printed
    puzzles that are, several solutions: nonojure's nono6 and nono7, one puzzle photographed twice, and nono12)."""
    names = {path.stem for path, _, _ in PICTURES}
    assert len(PICTURES) >= 13 and {"nonojure-nono4", "kolyn-picture-cross"} <= names
    for path, kind, truth in PICTURES:
        status = nonogen.verify(truth, timeout=30, grade=False).status
        assert status == ("multiple" if path.stem in AMBIGUOUS else "unique"), path
        assert kind in ("photo", "screenshot")


@pytest.mark.parametrize("name", EXACT)
def test_what_is_read_exactly_stays_exact(name):
    path, kind, truth = next(p for p in PICTURES if p[0].stem == name)
    outcome = bench_scan_real.measure(path, kind, truth)
    assert outcome.exact, f"{name}: read {outcome.read}, misread {outcome.misread}"


def test_a_window_with_small_cells_is_read_at_its_size_and_every_misread_line_named():
    """nonojure's nono2 (cells of 9 pixels, digits 6 high, a thick line every five cells): the thick lines no longer
    make the cells beside them look like clue cells, so the grid is found at its size (17x23, not cut, nor 17x24 as
    a photo); its column digits stand on the grid's top line and are lost with it, and then every line is named."""
    path, kind, truth = next(p for p in PICTURES if p[0].stem == "nonojure-nono2")
    outcome = bench_scan_real.measure(path, kind, truth)
    assert outcome.read == "17x23" and outcome.flagged, f"read {outcome.read}, not named {outcome.not_flagged}"


def test_the_api_gives_a_result_or_its_own_error_for_every_real_picture():
    """A picture the reader cannot make sense of raises nonogen's own error (one line naming the file); one it reads
    wrongly still gives each grid a verdict and its suspects."""
    for path, _, _ in PICTURES:
        try:
            scans = nonogen.scan(path, timeout=10, grade=False)
        except nonogen.NonogenError as exc:
            assert "\n" not in str(exc) and path.name in str(exc)
            continue
        for found in scans:
            assert found.result.status in ("unique", "multiple", "unsolvable", "timeout")
            assert all(s["line"].split()[0] in ("row", "column") for s in found.suspects)


def test_the_cli_with_json_gives_a_line_per_grid_or_a_one_line_error_per_picture():
    """All the pictures in one ``nonogen scan --json``: JSON lines on stdout, one ``nonogen: error:`` line on stderr
    per picture without a grid, every picture accounted for, exit 1 or 2 (never 5, an internal error)."""
    paths = [str(path) for path, _, _ in PICTURES]
    run = subprocess.run([sys.executable, "-m", "nonogen", "scan", "--json", "--timeout", "10", *paths],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert "Traceback" not in run.stderr and run.returncode in (1, 2), run.stderr[-2000:]
    read = {re.sub(r"\.\d+$", "", json.loads(line)["file"]) for line in run.stdout.splitlines()}  # page.jpg.2: grid 2
    errors = [line for line in run.stderr.splitlines() if line.strip()]
    assert all(line.startswith("nonogen: error: ") for line in errors), errors
    failed = {line.removeprefix("nonogen: error: ").split(": ", 1)[0] for line in errors}
    assert read | failed == set(paths) and not read & failed


def test_a_curled_magazine_page_with_a_shadowed_frame_is_read_at_its_size():
    """nonojure's nono8: a 45x45 grid with its clue boxes in the lattice, its page curling at the left and top (the
    rows bend by a cell across it), its top frame running off the photo and its bottom frame merged with a printed
    shadow. Its lines are followed band by band across the bend, the two outer lines found past the border, and
    the clue cells cut off despite a speck in the grid: it reads at its true size (it read 51x50)."""
    from nonogen.importers.scan import photo
    from nonogen.importers.scan.pages import read_pages

    path = next(p for p, _, _ in PICTURES if p.stem == "nonojure-nono8")
    (flat,) = photo.flat_grids(read_pages(path)[0].gray)
    assert (flat.grid.width, flat.grid.height) == (45, 45)


def test_a_magazine_grid_cut_into_blocks_by_thick_lines_is_found_with_thin_strokes():
    """nonojure's nono4: its lines every five cells and its frame are thicker than a thin stroke, so the lattice's
    thin strokes fall into blocks of five by five cells; the blocks side by side are one net, and the grid is found
    at once at its size, without a second look with wide strokes (which doubled the time)."""
    from nonogen.importers.scan import photo
    from nonogen.importers.scan.pages import read_pages

    path = next(p for p, _, _ in PICTURES if p.stem == "nonojure-nono4")
    grids = photo.flat_grids(read_pages(path)[0].gray, photo.STROKE)
    assert [(f.grid.width, f.grid.height) for f in grids] == [(15, 15)]


@pytest.mark.parametrize("band", [80, 120, 160])
def test_a_magazine_grid_is_found_at_its_size_whatever_the_bands_width(monkeypatch, band):
    """nonojure's nono5: a 30x30 grid with its clue boxes in the lattice and thick lines every five cells. Its lines
    are found in bands across it; with bands of 120 pixels its thick lines' peaks wandered by two pixels from band
    to band, a line carried on past the bands from its last two swung a tenth of a cell over the clue cells, and
    they were no longer cut off (34x30). Now the size is the same for bands of 80 to 160 pixels."""
    from nonogen.importers.scan import bands, photo
    from nonogen.importers.scan.pages import read_pages

    monkeypatch.setattr(bands, "BAND", band)
    path = next(p for p, _, _ in PICTURES if p.stem == "nonojure-nono5")
    (flat,) = photo.flat_grids(read_pages(path)[0].gray)
    assert (flat.grid.width, flat.grid.height) == (30, 30)


def test_a_magazine_lattice_with_its_clue_boxes_is_counted_past_the_digits_between_its_lines():
    """nonojure's nono10 and nono12: the clue boxes are cells of the grid's lattice, so in a band across the clues a
    digit's stroke stands between two lines. Once such a stroke moved the spacing the band counts its lines by, and
    every gap after it counted as two cells (63 lines for 51): no grid was found. Now a gap far off the spacing does
    not move it, a band's line far from where the bands before saw it is dropped, and the bands nearest the frame's
    sides are half as wide, following the page's curl there: both lattices are found and their clue boxes cut off."""
    from nonogen.importers.scan import photo
    from nonogen.importers.scan.pages import read_pages

    sizes = {}
    for name in ("nonojure-nono10", "nonojure-nono12"):
        path = next(p for p, _, _ in PICTURES if p.stem == name)
        sizes[name] = [(f.grid.width, f.grid.height) for f in photo.flat_grids(read_pages(path)[0].gray)]
    assert sizes == {"nonojure-nono10": [(45, 65)], "nonojure-nono12": [(45, 30)]}


def test_a_magazines_picture_in_the_corner_is_no_heading_over_the_column_clues():
    """nonojure's nono10: the puzzle's picture, a diamond in the lattice's top-left corner, was read as "475" on a
    line of its own beside the top clues, taken for a heading, and the two lines of column clues above it were lost.
    The corner above and left of the grid holds no clue. Three rows' numbers are misread (a "20" touching the
    grid's line as "35", a blurred "16" as "18", a "32" over the page's shadow as "99"), and each is named."""
    path, kind, truth = next(p for p in PICTURES if p[0].stem == "nonojure-nono10")
    outcome = bench_scan_real.measure(path, kind, truth)
    assert outcome.read == "45x65" and len(outcome.misread) <= 3 and outcome.flagged, outcome
