"""Picross 3D clue sheet layout: whatever the box and title, labels never collide or leave the picture.

The checks work on the Picture's shapes, the same ones both the SVG and the
PNG writer draw; a label's extent is :func:`nonogen.render.canvas.text_box`,
which is checked here to cover the PNG font's real widths.
"""
from __future__ import annotations

import string
from collections import Counter
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from PIL import ImageFont

from nonogen.clues3d import puzzle3d_from_cells
from nonogen.model3d import Puzzle3D
from nonogen.render.canvas import INK, Circle, Picture, Rect, Text, text_box, text_width, to_png, wrap_text
from nonogen.render.iso3d import sheet_picture

SHAPES = [(1, 1, 1), (2, 10, 3), (10, 2, 10), (15, 15, 2), (40, 3, 3), (3, 1, 40), (40, 40, 40)]
LONG_TITLE = ("Chair with a very tall back and four thin legs, voxelized at forty cubes a side " * 2)[:120]
Box = tuple[float, float, float, float]


def level(size: tuple[int, int, int], hide_every: int = 4, givens: int = 0) -> Puzzle3D:
    """A random level of ``size`` with every ``hide_every``-th clue hidden and some cubes given."""
    rng = np.random.default_rng(sum(size))
    cells = rng.random(size) < 0.45
    puzzle = puzzle3d_from_cells(cells)
    clues = {
        axis: [[None if (i * 7 + j) % hide_every == 0 else c for j, c in enumerate(row)] for i, row in enumerate(t)]
        for axis, t in puzzle.clues.items()
    }
    picked = [tuple(int(v) for v in rng.integers(0, size)) for _ in range(givens)]
    return puzzle.replace(clues=clues, givens=tuple((x, y, z, int(cells[x, y, z])) for x, y, z in picked))


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(a: Box, b: Box, slack: float = 1e-6) -> bool:
    return a[0] >= b[0] - slack and a[1] >= b[1] - slack and a[2] <= b[2] + slack and a[3] <= b[3] + slack


def rect_box(r: Rect) -> Box:
    return r.x, r.y, r.x + r.w, r.y + r.h


def shape_box(s) -> Box:
    if isinstance(s, Text):
        return text_box(s)
    if isinstance(s, Circle):
        return s.x - s.r, s.y - s.r, s.x + s.r, s.y + s.r
    return rect_box(s)


def grids(cells: list[Rect], cell: float) -> list[list[Rect]]:
    """The clue cells grouped into faces: cells that share an edge belong to the same grid."""
    at = {(round(r.x / cell * 4), round(r.y / cell * 4)): r for r in cells}
    seen: set = set()
    groups = []
    for start in at:
        if start in seen:
            continue
        stack, group = [start], []
        seen.add(start)
        while stack:
            kx, ky = stack.pop()
            group.append(at[(kx, ky)])
            for nxt in ((kx + 4, ky), (kx - 4, ky), (kx, ky + 4), (kx, ky - 4)):
                if nxt in at and nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        groups.append(group)
    return groups


def bounds(boxes: list[Box]) -> Box:
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def check_layout(puzzle: Puzzle3D, picture: Picture, cell: float) -> dict:
    """Assert the layout promises; return the labels (non-clue texts) and the content bounds for more checks."""
    X, Y, Z = puzzle.size
    page = (0.0, 0.0, float(picture.width), float(picture.height))
    for s in picture.shapes:
        assert inside(shape_box(s), page), f"{s} leaves the {picture.width}x{picture.height} picture"

    cells = [s for s in picture.shapes if isinstance(s, Rect) and s.fill is not None]
    faces = grids(cells, cell)
    assert sorted(len(g) for g in faces) == sorted([X * Z, X * Y, Z * Y])
    face_boxes = [bounds([rect_box(r) for r in g]) for g in faces]
    for g, fb in zip(faces, face_boxes, strict=True):  # each face is a full rectangle of cells
        assert round((fb[2] - fb[0]) * (fb[3] - fb[1])) == round(len(g) * cell * cell)
    for a, b in combinations(face_boxes, 2):
        assert not overlap(a, b), "two face grids overlap"

    cell_of = {(round(r.x, 3), round(r.y, 3)): r for r in cells}
    clue_texts, labels = Counter(), []
    for t in (s for s in picture.shapes if isinstance(s, Text)):
        home = cell_of.get((round(t.x - cell / 2, 3), round(t.y - cell / 2, 3)))
        if home is None or not inside(text_box(t), rect_box(home)):
            labels.append(t)
        else:
            clue_texts[(round(home.x, 3), round(home.y, 3))] += 1
    assert all(n == 1 for n in clue_texts.values()), "a cell holds two numbers"
    assert set(clue_texts) <= set(cell_of)
    for a, b in combinations(labels, 2):
        assert not overlap(text_box(a), text_box(b)), f"{a.text!r} overlaps {b.text!r}"
    for t in labels:
        for fb in face_boxes:
            assert not overlap(text_box(t), fb), f"{t.text!r} runs into a grid"
    return {"labels": labels, "content": bounds([shape_box(s) for s in picture.shapes])}


def expected_marks(puzzle: Puzzle3D) -> tuple[Counter, int, int, int]:
    """Clue numbers, rings (two groups), squares (three or more) and hidden clues the sheet must show."""
    shown = [c for axis in "xyz" for row in puzzle.clues[axis] for c in row]
    numbers = Counter(str(c[0]) for c in shown if c is not None)
    rings = sum(1 for c in shown if c is not None and c[1] == 2)
    squares = sum(1 for c in shown if c is not None and c[1] == 3)
    return numbers, rings, squares, sum(1 for c in shown if c is None)


@pytest.mark.parametrize("size", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("title", ["", "Chair", LONG_TITLE], ids=["untitled", "short", "long"])
def test_sheet_layout_never_collides(size, title):
    puzzle = level(size, givens=0 if min(size) == 40 else 15)
    cell = 24
    caption = "Puzzle 12 · grade 3 · medium" if title else ""
    picture = sheet_picture(puzzle, cell=cell, title=title, caption=caption)
    found = check_layout(puzzle, picture, cell)

    texts = [s for s in picture.shapes if isinstance(s, Text)]
    labels = {t.text for t in found["labels"]}
    numbers, rings, squares, hidden = expected_marks(puzzle)
    assert Counter(t.text for t in texts if t not in found["labels"]) == numbers
    assert sum(isinstance(s, Circle) for s in picture.shapes) == rings
    assert sum(isinstance(s, Rect) and s.fill is None and s.stroke == INK for s in picture.shapes) == squares
    assert sum(isinstance(s, Rect) and s.fill == "#e4e4e4" for s in picture.shapes) == hidden
    for face in ("top", "front", "right side"):
        assert any(t.startswith(face) for t in labels)
    if title:  # the title is all there, in order, just wrapped
        title_lines = [t for t in found["labels"] if t.size == pytest.approx(cell * 0.7)]
        assert " ".join(t.text for t in sorted(title_lines, key=lambda t: t.y)) == " ".join(title.split())
        assert len(title_lines) <= 4
        caption_lines = [t for t in found["labels"] if t.size == pytest.approx(cell * 0.6)]
        assert " ".join(t.text for t in caption_lines) == caption
        assert max(t.y for t in caption_lines) < min(t.y for t in title_lines)  # the caption comes first
    if puzzle.givens:  # every given is listed: a printed level cannot say "and 3 more"
        listed = " ".join(t.text for t in sorted(found["labels"], key=lambda t: t.y)
                          if t.size == pytest.approx(cell * 0.4))
        assert listed.startswith("given cubes")
        assert all(f"({x},{y},{z})=" in listed.replace(" ", "") for x, y, z, _ in puzzle.givens)

    x0, y0, x1, y1 = found["content"]  # compact: margins of at most two cells around what is drawn
    assert y0 <= 2 * cell and picture.height - y1 <= 2 * cell
    if picture.width > 14 * cell + 1:
        assert x0 <= 2 * cell and picture.width - x1 <= 2 * cell
    X, Y, Z = puzzle.size
    assert picture.width <= max((max(X, 6) + max(Z, 6) + 5) * cell, 24 * cell)  # a face label needs ~6 cells


@pytest.mark.parametrize("cell", [8, 12, 40])
def test_layout_holds_at_other_cell_sizes(cell):
    for size in [(1, 1, 1), (2, 10, 3), (40, 3, 3)]:
        puzzle = level(size, givens=20)
        check_layout(puzzle, sheet_picture(puzzle, cell=cell, title=LONG_TITLE), cell)


def test_narrow_sheet_renders_to_png_of_its_size():
    puzzle = level((2, 3, 2), givens=3)
    picture = sheet_picture(puzzle, title=LONG_TITLE)
    assert picture.smooth  # rings round clues: PNGs of it are drawn supersampled, at the picture's size
    assert to_png(picture).size == (picture.width, picture.height)


def test_text_width_covers_the_fonts_drawn():
    """The layout's width estimate is never below the PNG font's (and DejaVu Sans's, the SVG's) real width."""
    fonts = [ImageFont.load_default(size=40)]
    dejavu = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if dejavu.exists():
        fonts.append(ImageFont.truetype(str(dejavu), 40))
    samples = list(string.printable[:95]) + [LONG_TITLE, "right side (lines along x)", "WWW@@@mmm", "10 20 30 40"]
    for font in fonts:
        for s in samples:
            assert text_width(s, 40) >= font.getlength(s), s


@pytest.mark.parametrize("text,width", [(LONG_TITLE, 200), ("x" * 80, 100), ("a  b", 5), ("", 50)])
def test_wrap_text_keeps_every_word_within_the_width(text, width):
    lines = wrap_text(text, 10, width)
    assert all(text_width(line, 10) <= width or len(line) == 1 for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


@pytest.mark.parametrize("size", [(1, 1, 1), (2, 10, 3), (10, 10, 10), (40, 3, 3)], ids=lambda s: "x".join(map(str, s)))
def test_marks_key_sits_under_the_grids_without_collisions(size):
    """The print legend: one sample cell per mark with its words, below every grid and inside the picture."""
    puzzle = level(size, givens=4)
    cell = 24
    plain = sheet_picture(puzzle, cell=cell, title="Chair", caption="Puzzle 1")
    picture = sheet_picture(puzzle, cell=cell, title="Chair", caption="Puzzle 1", legend=True)
    key_texts = [s for s in picture.shapes if isinstance(s, Text) and s.anchor == "start"]
    assert [t.text for t in key_texts] == ["4 cubes in one group", "in 2 groups", "in 3 or more groups", "no clue"]
    grids_bottom = max(s.y + s.h for s in plain.shapes if isinstance(s, Rect))
    assert min(text_box(t)[1] for t in key_texts) > grids_bottom
    page = (0.0, 0.0, float(picture.width), float(picture.height))
    texts = [s for s in picture.shapes if isinstance(s, Text)]
    for s in picture.shapes:
        assert inside(shape_box(s), page)
    for a, b in combinations([t for t in texts if t.anchor == "start" or t.text.startswith("given")], 2):
        assert not overlap(text_box(a), text_box(b)), (a.text, b.text)
