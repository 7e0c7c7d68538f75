"""Picross 3D pictures: a solution render from the play page's first camera, and a printable clue sheet.

trimesh's own renderer needs OpenGL, which headless machines lack, so this is
a small painter's algorithm: only cube faces with no neighbour behind them are
drawn, far cubes first. The solution is seen as the play page first shows the
level (:data:`VIEW`): from the front, turned a little to the right and raised
28 degrees, not from the isometric corner 35 degrees up, which showed long
models (a fish, a locomotive) from above as a ridge or a box lid. Like the 2D sheet, both pictures are laid out as
:mod:`nonogen.render.canvas` shapes, so the SVG, PNG and PDF always agree.
Both are ``smooth`` pictures (slanted cube edges, rings round clues), so a
PNG of them is drawn supersampled without the caller asking.

Axes: ``cells[x, y, z]`` with x to the right, y down (0 is the top layer) and
z away from the viewer (0 is the front), as in the ``nonogen-3d`` fixtures.
"""
from __future__ import annotations

import math
from typing import Optional, Sequence

import numpy as np

from ..model3d import Clue3D, Puzzle3D
from ..palette import to_hex
from .canvas import INK, Circle, Picture, Polygon, Rect, Shape, Text, flow, text_width, wrap_text

__all__ = ["Polygon", "Circle", "Rect", "Text", "Picture", "solution_picture", "cube_colors", "sheet_picture",
           "clue_text", "VIEW", "view_vector"]

BASE = (205, 160, 105)
SHADE = {"top": 1.0, "right": 0.64, "front": 0.82}
"""Light per face: the front, most of what this camera sees, stays light; the right side, seen aslant, is darker."""

VIEW = (0.55, 1.08)
"""The camera, as ``DEFAULT_VIEW`` in ``play3d_view.js`` (theta, phi in radians): turned 31.5 degrees from the front
towards the right (theta) and 62 degrees from straight above (phi), i.e. 28 degrees above the horizon."""


def view_vector(view: tuple[float, float] = VIEW) -> tuple[float, float, float]:
    """The unit vector from the model towards the camera in (x right, u up, d away) world axes.

    >>> [round(v, 3) for v in view_vector()]
    [0.461, 0.471, -0.752]
    """
    theta, phi = view
    return (math.sin(phi) * math.sin(theta), math.cos(phi), -math.sin(phi) * math.cos(theta))


# --- solution picture --------------------------------------------------------------------------


def _screen(view: tuple[float, float]):
    """The orthographic projection of world points (x, u, d) to screen (right, down) for the camera ``view``."""
    ex, eu, ed = view_vector(view)
    level = math.hypot(ex, ed)  # the cosine of the elevation
    right = (-ed / level, ex / level)  # (x, d) components; horizontal, across the view
    up = (-eu * ex / level, level, -eu * ed / level)

    def project(x: float, u: float, d: float, cube: float) -> tuple[float, float]:
        return ((x * right[0] + d * right[1]) * cube * 1.2, -(x * up[0] + u * up[1] + d * up[2]) * cube * 1.2)

    return project


_FACES = {  # face name -> (neighbour offset in (x, u, d), corner offsets)
    "top": ((0, 1, 0), ((0, 1, 0), (1, 1, 0), (1, 1, 1), (0, 1, 1))),
    "right": ((1, 0, 0), ((1, 0, 0), (1, 0, 1), (1, 1, 1), (1, 1, 0))),
    "front": ((0, 0, -1), ((0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0))),
}


def solution_picture(cells: np.ndarray, colors: Optional[np.ndarray] = None, cube: float = 20,
                     margin: float = 12) -> Picture:
    """The kept cubes, shaded per face (top light, front lighter than right), optionally coloured per cube."""
    cells = np.asarray(cells, dtype=bool)
    X, Y, Z = cells.shape
    solid = np.zeros((X + 2, Y + 2, Z + 2), dtype=bool)  # in (x, u, d) with a border of air
    solid[1:-1, 1:-1, 1:-1] = cells[:, ::-1, :]
    project, (ex, eu, ed) = _screen(VIEW), view_vector()
    # far cubes first: on a grid of equal cubes, any order that rises towards the camera is a painter's order
    order = sorted(zip(*np.nonzero(cells), strict=True),
                   key=lambda c: (ex * c[0] + eu * (Y - 1 - c[1]) + ed * c[2], c[1], c[0]))
    polys = []
    for x, y, z in order:
        u = Y - 1 - y
        base = BASE if colors is None else tuple(int(v) for v in colors[x, y, z])
        for name, ((ox, ou, od), corners) in _FACES.items():
            if solid[x + 1 + ox, u + 1 + ou, z + 1 + od]:
                continue
            shade = [c * SHADE[name] for c in base]
            pts = tuple(project(x + a, u + b, z + c, cube) for a, b, c in corners)
            polys.append((pts, to_hex(shade), to_hex([c * 0.45 for c in base])))
    box = [project(a, b, c, cube) for a in (0, X) for b in (0, Y) for c in (0, Z)]
    xs, ys = zip(*box, strict=True)
    dx, dy = margin - min(xs), margin - min(ys)
    shapes = tuple(
        Polygon(tuple((px + dx, py + dy) for px, py in pts), fill, stroke) for pts, fill, stroke in polys
    )
    width, height = int(math.ceil(max(xs) - min(xs) + 2 * margin)), int(math.ceil(max(ys) - min(ys) + 2 * margin))
    return Picture(width, height, shapes, smooth=True)


def cube_colors(puzzle: Puzzle3D, cells: np.ndarray) -> Optional[np.ndarray]:
    """The level's own cube colours for drawing ``cells``, or ``None`` (plain cubes).

    Colours belong to the goal, so they are used only when ``cells`` is the
    goal; a cube the level leaves uncoloured is drawn in the plain colour.
    """
    rgb = puzzle.rgb()
    if rgb is None or puzzle.goal is None or not np.array_equal(np.asarray(cells, dtype=bool), puzzle.goal):
        return None
    rgb = rgb.copy()
    rgb[np.asarray(puzzle.colors) == 0] = BASE
    return rgb


# --- clue sheet ------------------------------------------------------------------------------


def clue_text(clue: Optional[Clue3D]) -> str:
    """How a clue reads in files and on the sheet: ``"3"``, ``"2o"``, ``"4s"``, ``""`` if hidden.

    >>> [clue_text(c) for c in [(3, 1), (2, 2), (4, 3), None]]
    ['3', '2o', '4s', '']
    """
    if clue is None:
        return ""
    return str(clue[0]) + ("", "", "o", "s")[clue[1]]


def _label_lines(label: str, size: float, width: float) -> list[str]:
    """A face label on one line if it fits over its grid, else name and ``(lines along ...)`` on two."""
    if text_width(label, size) <= width or " (" not in label:
        return [label]
    name, rest = label.split(" (", 1)
    return [name, "(" + rest]


def _text_block(lines: Sequence[str], cx: float, y: float, size: float) -> list[Shape]:
    """Centred lines starting at ``y`` (the top of the first line), one line height apart."""
    lh = _LINE * size
    return [Text(cx, y + (i + 0.5) * lh, line, size) for i, line in enumerate(lines)]


def _grid(table: list[list[Optional[Clue3D]]], x0: float, y0: float, cell: float) -> list[Shape]:
    """One face of the box: a grid of clue cells, ``table[row][col]``; circles and squares mark groups."""
    shapes: list[Shape] = []
    for r, row in enumerate(table):
        for c, clue in enumerate(row):
            x, y = x0 + c * cell, y0 + r * cell
            shapes.append(Rect(x, y, cell, cell, "#ffffff" if clue is not None else "#e4e4e4", "#888888"))
            if clue is None:
                continue
            cx, cy = x + cell / 2, y + cell / 2
            shapes.append(Text(cx, cy, str(clue[0]), cell * 0.5))
            if clue[1] == 2:
                shapes.append(Circle(cx, cy, cell * 0.38, INK))
            elif clue[1] == 3:
                shapes.append(Rect(cx - cell * 0.36, cy - cell * 0.36, cell * 0.72, cell * 0.72, None, INK))
    return shapes


_LINE = 1.25  # line height in em; text_box is 1.2 em tall, so stacked lines never touch
TITLE_EM, CAPTION_EM = 0.7, 0.6  # font sizes in cells
_AXES_NOTE = "counted from 0: x from the left, y from the top, z from the front"
KEY_EM, _KEY_ROW = 0.5, 1.3  # marks key: font size and row height in cells
_KEY = (((4, 1), "4 cubes in one group"), ((4, 2), "in 2 groups"), ((4, 3), "in 3 or more groups"), (None, "no clue"))
_LABELS = ("top (lines along y)", "front (lines along z)", "right side (lines along x)")


def _marks_key(x0: float, y0: float, width: float, cell: float) -> tuple[list[Shape], float]:
    """What the marks mean, as sample clue cells with a few words each, flowed into rows ``width`` wide.

    A printed level needs it: circle and square are Picross 3D's own notation
    and a solver without the game has no other place to learn them.
    """
    shapes: list[Shape] = []
    size = KEY_EM * cell
    spots = flow([1.3 * cell + text_width(words, size) for _, words in _KEY], width, 0.8 * cell)
    for (x, row), (clue, words) in zip(spots, _KEY, strict=True):
        y = y0 + row * _KEY_ROW * cell
        shapes += _grid([[clue]], x0 + x, y, cell)
        shapes.append(Text(x0 + x + 1.3 * cell, y + cell / 2, words, size, anchor="start"))
    return shapes, spots[-1][1] * _KEY_ROW * cell + cell


def sheet_picture(puzzle: Puzzle3D, cell: float = 24, title: str = "", *, caption: str = "",
                  legend: bool = False) -> Picture:
    """The three faces of the box as clue grids in the usual orthographic layout.

    Front (lines along z: columns x, rows y), top above it (lines along y:
    columns x, back row at the top) and the right side beside it (lines along
    x: columns z with the front on the left, rows y). Grey cells are hidden
    clues; givens are all listed under the grids (a printed level needs every
    one of them). ``caption`` is a smaller line above the title, e.g.
    ``"Puzzle 7 · grade 2"``; ``legend`` adds a key to the marks (plain,
    circled, squared, grey) under the grids, for print.

    Every label gets the room it needs: a face label too wide for its grid
    goes on two lines and widens its column, and the caption, title and the
    givens wrap to the picture's width (which may grow up to 20 cells for a
    long title), so nothing overlaps or leaves the picture whatever the box size.
    """
    X, Y, Z = puzzle.size
    cz, cy_, cx_ = puzzle.clues["z"], puzzle.clues["y"], puzzle.clues["x"]
    front = [[cz[x][y] for x in range(X)] for y in range(Y)]
    top = [[cy_[x][z] for x in range(X)] for z in reversed(range(Z))]
    side = [[cx_[y][z] for z in range(Z)] for y in range(Y)]
    m, gap, lab = cell * 1.5, cell, cell * 0.55
    top_lab, front_lab, side_lab = (_label_lines(t, lab, w * cell) for t, w in zip(_LABELS, (X, X, Z), strict=True))
    col_a = max([X * cell] + [text_width(t, lab) for t in top_lab + front_lab])
    col_b = max([Z * cell] + [text_width(t, lab) for t in side_lab])
    content = col_a + gap + col_b
    inner = max(content, 14 * cell - 2 * m)
    for text, size in ((title, TITLE_EM * cell), (caption, CAPTION_EM * cell)):
        if text and text_width(text, size) > inner:
            inner = max(inner, min(text_width(text, size), 20 * cell))
    left = m + (inner - content) / 2
    ax, bx = left + (col_a - X * cell) / 2, left + col_a + gap + (col_b - Z * cell) / 2
    shapes: list[Shape] = []
    y = m
    for text, size in ((caption, CAPTION_EM * cell), (title, TITLE_EM * cell)):
        if text:
            lines = wrap_text(text, size, inner)
            shapes += _text_block(lines, m + inner / 2, y, size)
            y += len(lines) * _LINE * size + cell * 0.3
    shapes += _text_block(top_lab, ax + X * cell / 2, y, lab)
    top_y = y + len(top_lab) * _LINE * lab + cell * 0.25
    shapes += _grid(top, ax, top_y, cell)
    y = top_y + Z * cell + cell * 0.8
    rows = max(len(front_lab), len(side_lab))
    for lines, x0, w in ((front_lab, ax, X), (side_lab, bx, Z)):  # bottom-aligned over the grids
        shapes += _text_block(lines, x0 + w * cell / 2, y + (rows - len(lines)) * _LINE * lab, lab)
    front_y = y + rows * _LINE * lab + cell * 0.25
    shapes += _grid(front, ax, front_y, cell)
    shapes += _grid(side, bx, front_y, cell)
    y = front_y + Y * cell
    if legend:
        key, key_h = _marks_key(m, y + cell * 0.6, inner, cell)
        shapes += key
        y += cell * 0.6 + key_h
    if puzzle.givens:
        listed = ", ".join(f"({gx},{gy},{gz})={'kept' if v else 'empty'}" for gx, gy, gz, v in puzzle.givens)
        lines = wrap_text(f"given cubes (x,y,z) {_AXES_NOTE}: {listed}", cell * 0.4, inner)
        shapes += _text_block(lines, m + inner / 2, y + cell * 0.5, cell * 0.4)
        y += cell * 0.5 + len(lines) * _LINE * cell * 0.4
    height = y + m
    return Picture(int(math.ceil(inner + 2 * m)), int(math.ceil(height)), tuple(shapes), smooth=True)

