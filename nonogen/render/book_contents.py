"""A book by grade: a section page opening each grade and contents pages listing sections and puzzles.

Pure layout, as :mod:`nonogen.render.book`: shapes on pages, no I/O. The
contents go right after the title page, so every page number they print is
known only once the rest is laid out: :func:`contents_pages` is called last,
with the number of pages it will itself take (:func:`contents_page_count`).
Puzzle lines give the number and size, never the title: titles give the
picture away, so they appear only with the answers.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from .canvas import PX_PER_PT, Shape
from .page import FOOTER_BAND, Paper, page_text, usable

__all__ = ["ContentsLine", "section_name", "section_page", "contents_page_count", "contents_pages"]

CONTENTS_PT, SECTION_LINE_PT, HEADING_PT = 11.0, 13.0, 16.0
SECTION_PT, SECTION_SUB_PT = 30.0, 13.0
LINE_GAP = 1.7  # line height in font sizes
INDENT_PT = 18.0


@dataclass(frozen=True)
class ContentsLine:
    """One line of the contents: its text, the page it points to (index, 0 the title page) and whether it heads a
    section."""

    text: str
    page: int
    heading: bool = False


def section_name(grade: Optional[int], grade_name: Optional[str] = None) -> str:
    """The heading of a grade's section.

    >>> section_name(2, "easy"), section_name(4), section_name(None)
    ('Grade 2 · easy', 'Grade 4', 'Ungraded')
    """
    if grade is None:
        return "Ungraded"
    return f"Grade {grade}" + (f" · {grade_name}" if grade_name else "")


def section_page(paper: Paper, margin_mm: float, heading: str, lines: Sequence[str]) -> list[Shape]:
    """A page opening a section: its heading large, a third of the way down, and a few lines under it."""
    m, _, h = usable(paper, margin_mm)
    y = m + h * 0.35
    shapes: list[Shape] = [page_text(paper.width / 2, y, heading, SECTION_PT)]
    y += SECTION_PT * PX_PER_PT * 1.2
    for line in lines:
        y += SECTION_SUB_PT * PX_PER_PT * 1.5
        shapes.append(page_text(paper.width / 2, y, line, SECTION_SUB_PT))
    return shapes


def _per_page(paper: Paper, margin_mm: float) -> int:
    """Contents lines one page holds under its "Contents" heading."""
    _, _, h = usable(paper, margin_mm)
    room = h - FOOTER_BAND - HEADING_PT * PX_PER_PT * 2.5
    return max(1, int(room // (SECTION_LINE_PT * PX_PER_PT * LINE_GAP)))


def contents_page_count(paper: Paper, margin_mm: float, lines: int) -> int:
    """Pages the contents take for ``lines`` lines (at least one)."""
    return max(1, -(-lines // _per_page(paper, margin_mm)))


def contents_pages(paper: Paper, margin_mm: float, lines: Sequence[ContentsLine], shift: int) -> list[list[Shape]]:
    """The contents as pages of shapes; each line's page index is moved by ``shift`` (the contents' own pages)
    and printed as a page number (index + 1), right-aligned at the margin."""
    m, w, _ = usable(paper, margin_mm)
    per_page = _per_page(paper, margin_mm)
    pages: list[list[Shape]] = []
    for start in range(0, max(1, len(lines)), per_page):
        shapes: list[Shape] = [page_text(paper.width / 2, m + HEADING_PT * PX_PER_PT, "Contents", HEADING_PT)]
        y = m + HEADING_PT * PX_PER_PT * 2.5
        for line in lines[start:start + per_page]:
            pt = SECTION_LINE_PT if line.heading else CONTENTS_PT
            x = m if line.heading else m + INDENT_PT * PX_PER_PT
            y += SECTION_LINE_PT * PX_PER_PT * LINE_GAP
            shapes.append(page_text(x, y, line.text, pt, anchor="start"))
            shapes.append(page_text(m + w, y, str(line.page + shift + 1), pt, anchor="end"))
        pages.append(shapes)
    return pages
