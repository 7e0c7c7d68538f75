"""Paper: sizes, margins, and fitting a picture on a page so that its smallest text stays readable.

Print has two hard rules that screen pictures do not: everything stays inside
the margins (printers cannot reach the paper's edge), and text stays
readable. A picture is scaled as a whole, so its smallest text decides how
small it may get: :data:`MIN_TEXT_PT` (7 pt, comfortable at arm's length) is
what a layout aims at, and a big puzzle that cannot keep it shrinks further,
down to :data:`SMALLEST_TEXT_PT` (6 pt, the fine print of a dense puzzle
magazine, which still needs no magnifier), so a 40x40 puzzle prints on A4.
:func:`fit` finds the scale and :func:`sheet_page` puts one picture on a page,
turning the paper to landscape when that keeps the text larger. Pages are plain pictures in CSS pixels
(1/96 inch), written by :func:`nonogen.output.save_picture`.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from ..errors import InputError, LimitError
from .canvas import PX_PER_MM, PX_PER_PT, Picture, Text, min_text_size, placed, trimmed

__all__ = [
    "Paper", "PAPERS", "MIN_TEXT_PT", "SMALLEST_TEXT_PT", "MAX_CELL_MM", "FOOTER_PT", "FOOTER_BAND", "paper_named",
    "parse_length", "Fit", "fit", "usable", "orient", "orient_best", "SheetPage", "sheet_page", "page_text",
    "footer_text",
]

MIN_TEXT_PT = 7.0
SMALLEST_TEXT_PT = 6.0
MAX_CELL_MM = 8.0  # a small puzzle is not blown up past this: big enough for a child's pencil
FOOTER_PT = 8.0
FOOTER_BAND = 2 * FOOTER_PT * PX_PER_PT  # room kept at the bottom of a page with a footer, in units


@dataclass(frozen=True)
class Paper:
    """A sheet of paper, portrait or landscape, in millimetres."""

    name: str
    width_mm: float
    height_mm: float

    @property
    def width(self) -> float:
        """Width in picture units (CSS pixels)."""
        return self.width_mm * PX_PER_MM

    @property
    def height(self) -> float:
        """Height in picture units (CSS pixels)."""
        return self.height_mm * PX_PER_MM

    @property
    def landscape(self) -> "Paper":
        """The same paper turned sideways (a landscape paper stays landscape).

        >>> PAPERS["a4"].landscape
        Paper(name='A4 landscape', width_mm=297, height_mm=210)
        """
        if self.width_mm >= self.height_mm:
            return self
        return Paper(f"{self.name} landscape", self.height_mm, self.width_mm)


PAPERS = {
    "a3": Paper("A3", 297, 420), "a4": Paper("A4", 210, 297), "a5": Paper("A5", 148, 210),
    "letter": Paper("Letter", 215.9, 279.4), "legal": Paper("Legal", 215.9, 355.6),
}

_UNITS_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}


def paper_named(name: str) -> Paper:
    """The paper called ``name`` (``a3``, ``a4``, ``a5``, ``letter`` or ``legal``, any case)."""
    try:
        return PAPERS[name.lower()]
    except KeyError:
        raise InputError(f"paper {name!r}: expected one of {', '.join(PAPERS)}") from None


def parse_length(text: str) -> float:
    """A length such as ``15mm``, ``1.5cm``, ``0.5in`` or ``12pt`` in millimetres; a bare number is millimetres.

    >>> parse_length("15mm"), parse_length("1.5 cm"), parse_length("0.5in"), parse_length("7")
    (15.0, 15.0, 12.7, 7.0)
    """
    match = re.fullmatch(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(mm|cm|in|pt)?\s*", text.lower())
    if not match:
        raise InputError(f"length {text!r}: expected a number with mm, cm, in or pt, e.g. 15mm")
    return round(float(match.group(1)) * _UNITS_MM[match.group(2) or "mm"], 6)


@dataclass(frozen=True)
class Fit:
    """How a picture fits a box: the scale (page units per picture unit) and its smallest text then, in points."""

    scale: float
    min_text_pt: Optional[float]

    def readable(self, min_pt: float = MIN_TEXT_PT) -> bool:
        return self.min_text_pt is None or self.min_text_pt >= min_pt - 1e-9


def fit(picture: Picture, width: float, height: float, max_scale: float = float("inf")) -> Fit:
    """The largest scale (at most ``max_scale``) at which ``picture`` fits a ``width`` x ``height`` box.

    >>> fit(Picture(200, 100, [Text(0, 0, "1", 10)]), 100, 100)
    Fit(scale=0.5, min_text_pt=3.75)
    """
    scale = min(width / picture.width, height / picture.height, max_scale)
    size = min_text_size(picture)
    return Fit(scale, None if size is None else round(size * scale / PX_PER_PT, 6))


def page_text(x: float, y: float, text: str, pt: float, anchor: str = "middle") -> Text:
    """A label of ``pt`` points on a page."""
    return Text(x, y, text, pt * PX_PER_PT, anchor=anchor)  # type: ignore[arg-type]


@dataclass(frozen=True)
class SheetPage:
    """One picture on one page: the page, the paper used (maybe turned), where the picture sits and how big."""

    page: Picture
    paper: Paper
    x: float
    y: float
    scale: float
    min_text_pt: Optional[float]


def _too_small(picture: Picture, paper: Paper, margin_mm: float, cell: float, top: float, bottom: float) -> LimitError:
    """The error for a picture that no orientation of ``paper`` holds with readable text, with the largest that fits."""
    scale = SMALLEST_TEXT_PT * PX_PER_PT / (min_text_size(picture) or 1.0)  # the least scale keeping text readable
    step = cell * scale  # one cell on paper at that scale
    room = [(math.floor(w / step), math.floor((h - top - bottom) / step))
            for _, w, h in (usable(p, margin_mm) for p in (paper, paper.landscape))]
    need = f"{math.ceil(picture.width / cell - 0.05)}x{math.ceil(picture.height / cell - 0.05)}"
    return LimitError(
        f"the sheet is {need} cells with its clues; with text at least {SMALLEST_TEXT_PT:g} pt, {paper.name} with "
        f"{margin_mm:g} mm margins holds at most {room[0][0]}x{room[0][1]} cells "
        f"({room[1][0]}x{room[1][1]} in landscape)"
    )


def usable(paper: Paper, margin_mm: float) -> tuple[float, float, float]:
    """The margin in units and the width and height inside the margins; refuses margins that leave no room."""
    m = margin_mm * PX_PER_MM
    if margin_mm < 0 or min(paper.width_mm, paper.height_mm) - 2 * margin_mm < 50:
        raise InputError(f"{margin_mm:g} mm margins leave too little of {paper.name} to print on (keep 50 mm)")
    return m, paper.width - 2 * m, paper.height - 2 * m


def orient(picture: Picture, paper: Paper, margin_mm: float, cell: float, top: float = 0.0,
           bottom: float = 0.0) -> tuple[Paper, float, float, Fit]:
    """Paper orientation, top-left corner and fit of ``picture`` centred inside the margins less ``top`` and
    ``bottom`` units.

    As large as fits, but with cells (``cell`` units in the picture) of at
    most :data:`MAX_CELL_MM`, so a 5x5 puzzle is not blown up to fill the
    page. Portrait first; landscape when portrait would make text smaller
    than :data:`MIN_TEXT_PT`; when neither keeps that, the orientation with
    the larger text as long as it is at least :data:`SMALLEST_TEXT_PT`; else a
    :class:`~nonogen.errors.LimitError` naming the largest sheet that fits.
    """
    fits = []
    for sheet in (paper, paper.landscape):
        m, w, h = usable(sheet, margin_mm)
        f = fit(picture, w, h - top - bottom, MAX_CELL_MM * PX_PER_MM / cell)
        x = m + (w - picture.width * f.scale) / 2
        y = m + top + (h - top - bottom - picture.height * f.scale) / 2
        if f.readable():
            return sheet, x, y, f
        fits.append((f.scale, sheet, x, y, f))
    _, sheet, x, y, f = max(fits, key=lambda t: t[0])
    if f.readable(SMALLEST_TEXT_PT):
        return sheet, x, y, f
    raise _too_small(picture, paper, margin_mm, cell, top, bottom)


def orient_best(makers: Sequence[Callable[[], Picture]], paper: Paper, margin_mm: float, cell: float,
                top: float = 0.0, bottom: float = 0.0) -> tuple[Picture, Paper, float, float, Fit]:
    """:func:`orient` for the first picture ``makers`` draws that keeps :data:`MIN_TEXT_PT`; when none does,
    for the one whose text prints largest (a 2D sheet's dense variant, with digits filling more of their
    cells, prints a big puzzle larger). The LimitError of the last picture when none fits at all."""
    tried: list[tuple[Picture, Paper, float, float, Fit]] = []
    error: Optional[LimitError] = None
    for make in makers:
        picture = make()
        try:
            sheet, x, y, f = orient(picture, paper, margin_mm, cell, top, bottom)
        except LimitError as exc:
            error = exc  # the last picture's error names the most the paper holds
            continue
        if f.readable():
            return picture, sheet, x, y, f
        tried.append((picture, sheet, x, y, f))
    if not tried:
        raise error or LimitError("nothing to place")
    return max(tried, key=lambda t: t[4].min_text_pt or 0.0)


def sheet_page(picture: Picture, paper: Paper, margin_mm: float, cell: float,
               dense: Optional[Callable[[], Picture]] = None) -> SheetPage:
    """``picture`` alone on a page, placed by :func:`orient`, or ``dense()`` when that prints larger text.

    The picture's own white margin is cut off first (the page has one), so
    ``x``/``y`` of the result are where its drawn content starts.
    """
    makers = [lambda: trimmed(picture)] + ([lambda: trimmed(dense())] if dense is not None else [])
    picture, sheet, x, y, f = orient_best(makers, paper, margin_mm, cell)
    page = Picture(sheet.width, sheet.height, tuple(placed(picture, x, y, f.scale)), smooth=picture.smooth)
    return SheetPage(page, sheet, x, y, f.scale, f.min_text_pt)


def footer_text(paper: Paper, margin_mm: float, text: str) -> Text:
    """A small centred line at the bottom of the page, just inside the margin."""
    m = margin_mm * PX_PER_MM
    return page_text(paper.width / 2, paper.height - m - FOOTER_BAND * 0.3, text, FOOTER_PT)
