"""Puzzle books: a title page, numbered puzzle pages and answer keys at the back, as pages of pictures.

Pure layout, no I/O: :func:`layout_book` takes puzzles with their answers
and grades and returns a :class:`Book`, whose ``pages`` :func:`nonogen.output.save_picture`
writes as one PDF and whose ``entries`` record where every puzzle and answer
went (page, position, scale, smallest text), so tests and tools can check the
printout against the layout instead of guessing.

What a person solving the printout needs, and how the layout gives it:

- Readable clues: a puzzle sits in a slot (1, 2 or 4 per page) only if its
  smallest digit stays at least 7 pt there; otherwise it gets a page of its
  own, in landscape if need be (:func:`nonogen.render.page.orient`). A big
  puzzle that cannot keep 7 pt even so is drawn with denser digits and may
  shrink to 6 pt; one that fits no page even then is left out with the
  reason (:attr:`Book.skipped`) and the rest of the book is made.
- Numbers that match: puzzles are numbered in book order ("Puzzle 7", with
  the grade when known) and each answer key carries the same number. Titles
  often give the picture away, so they appear only with the answers.
- Colour puzzles carry a colour legend (swatch and name).
- Everything inside the margins, page numbers included.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional, Sequence, Union

import numpy as np

from ..errors import InputError, LimitError
from ..model import Puzzle
from ..model3d import Puzzle3D
from . import iso3d, sheet2d
from .book_contents import ContentsLine, contents_page_count, contents_pages, section_name, section_page
from .canvas import PX_PER_MM, PX_PER_PT, Picture, Shape, placed, trimmed, wrap_text
from .canvas import text_width
from .page import FOOTER_BAND, MAX_CELL_MM, Fit, Paper, fit, footer_text, orient_best, page_text, usable

__all__ = ["BookItem", "Placement", "Entry", "Skipped", "Book", "layout_book", "book_order", "caption", "PER_PAGE"]

PER_PAGE = (1, 2, 4)
CELL_2D, CELL_3D = 20.0, 24.0  # cell sizes the pictures are laid out at, in their own units
GAP_MM = 8.0  # between slots
ANSWER_COLUMNS, ANSWER_ROWS = 2, 3
ANSWER_CELL_MM = 6.0  # answer keys need not be large
LABEL_PT, CAPTION_PT, HEADING_PT, TITLE_PT, SUBTITLE_PT = 9.0, 12.0, 16.0, 28.0, 12.0
CAPTION_BAND = 2 * CAPTION_PT * PX_PER_PT  # room for the caption over a puzzle, in units

AnyPuzzle = Union[Puzzle, Puzzle3D]


@dataclass(frozen=True)
class BookItem:
    """One puzzle for the book: its answer (``None`` when answers are left out), grade (1 easiest to 5) and source."""

    puzzle: AnyPuzzle
    answer: Optional[np.ndarray] = None
    grade: Optional[int] = None
    grade_name: Optional[str] = None
    source: str = ""


@dataclass(frozen=True)
class Placement:
    """Where a picture sits: page index (0 is the title page), top-left corner and size in page units, scale."""

    page: int
    x: float
    y: float
    width: float
    height: float
    scale: float


@dataclass(frozen=True)
class Entry:
    """What the book did with one puzzle: its number, caption, where the puzzle and its answer went."""

    number: int
    index: int  # position in the input
    source: str
    grade: Optional[int]
    caption: str
    puzzle: Placement
    min_text_pt: Optional[float]
    answer: Optional[Placement] = None
    answer_grid: Optional[tuple[float, float, float]] = None  # 2D: grid's top-left corner and cell, page units


@dataclass(frozen=True)
class Skipped:
    """A puzzle the book left out: its position in the input, its source and why (one line)."""

    index: int
    source: str
    reason: str


@dataclass(frozen=True)
class Book:
    """The pages (one picture each, page 0 the title page), one entry per puzzle in book order, and what was left
    out."""

    pages: tuple[Picture, ...]
    entries: tuple[Entry, ...]
    answers_page: Optional[int] = None  # index of the first answer page
    skipped: tuple[Skipped, ...] = ()
    sections: tuple[tuple[str, int], ...] = ()  # with sections: each section's heading and page index
    contents_pages: tuple[int, ...] = ()  # indices of the contents pages


def book_order(items: Sequence[BookItem], order: str = "grade") -> list[int]:
    """Indices of ``items`` in book order: by grade, easiest first, unknown grades last, ties in input order.

    >>> book_order([BookItem(None, grade=3), BookItem(None), BookItem(None, grade=1)])
    [2, 0, 1]
    >>> book_order([BookItem(None, grade=3), BookItem(None)], "input")
    [0, 1]
    """
    if order not in ("grade", "input"):
        raise InputError(f"order {order!r}: expected grade or input")
    if order == "input":
        return list(range(len(items)))
    return sorted(range(len(items)), key=lambda i: (items[i].grade is None, items[i].grade or 0, i))


def caption(number: Optional[int], grade: Optional[int] = None, grade_name: Optional[str] = None) -> str:
    """The line over a puzzle: ``"Puzzle 7 · grade 2 · easy"``, or just ``"Puzzle 7"`` with no grade.

    A sheet of its own has no number: its caption is the grade alone, or nothing.

    >>> caption(7, 2, "easy"), caption(3), caption(None, 4, "hard"), caption(None)
    ('Puzzle 7 · grade 2 · easy', 'Puzzle 3', 'grade 4 · hard', '')
    """
    parts = [] if number is None else [f"Puzzle {number}"]
    if grade is not None:
        parts.append(f"grade {grade}")
    if grade_name:
        parts.append(grade_name)
    return " · ".join(parts)


def _puzzle_picture(puzzle: AnyPuzzle, dense: bool = False) -> tuple[Picture, float]:
    """The clue sheet with its legend and no title, and the cell size it was laid out at.

    The caption is drawn by the book, at one size on every page, rather than
    scaled with each sheet: a big puzzle would shrink "Puzzle 12" to 7 pt. The
    sheet's own white margin is cut off: the page has one.
    """
    if isinstance(puzzle, Puzzle3D):
        return trimmed(iso3d.sheet_picture(puzzle, cell=CELL_3D, title="", legend=True)), CELL_3D
    return trimmed(sheet2d.sheet_picture(puzzle, cell=CELL_2D, title="", legend=True, dense=dense)), CELL_2D


def _own_page(puzzle: AnyPuzzle, paper: Paper, margin_mm: float) -> tuple[Picture, Paper, float, float, Fit]:
    """The puzzle alone on a page: its usual sheet if that keeps 7 pt digits, else whichever of the usual and
    the dense sheet prints larger digits (at least 6 pt); a LimitError when neither fits the paper."""
    cell = CELL_3D if isinstance(puzzle, Puzzle3D) else CELL_2D
    makers = [lambda: _puzzle_picture(puzzle)[0]]
    if isinstance(puzzle, Puzzle):
        makers.append(lambda: _puzzle_picture(puzzle, dense=True)[0])
    return orient_best(makers, paper, margin_mm, cell, top=CAPTION_BAND, bottom=FOOTER_BAND)


def _answer_picture(puzzle: AnyPuzzle, answer: np.ndarray) -> tuple[Picture, float]:
    if isinstance(puzzle, Puzzle3D):
        return iso3d.solution_picture(answer, iso3d.cube_colors(puzzle, answer), cube=CELL_3D), CELL_3D
    return sheet2d.answer_picture(puzzle, answer, cell=CELL_2D), CELL_2D


def _slots(paper: Paper, margin_mm: float, cols: int, rows: int,
           top: float = 0.0) -> list[tuple[float, float, float, float]]:
    """``(x, y, width, height)`` of a ``cols`` x ``rows`` grid of slots, left to right, top to bottom, above the
    footer."""
    m, w, h = usable(paper, margin_mm)
    h -= FOOTER_BAND + top
    gap = GAP_MM * PX_PER_MM
    sw, sh = (w - gap * (cols - 1)) / cols, (h - gap * (rows - 1)) / rows
    return [(m + c * (sw + gap), m + top + r * (sh + gap), sw, sh) for r in range(rows) for c in range(cols)]


def _puzzle_slots(paper: Paper, margin_mm: float, per_page: int) -> list[tuple[float, float, float, float]]:
    return _slots(paper, margin_mm, *{1: (1, 1), 2: (1, 2), 4: (2, 2)}[per_page])


class _Pages:
    """Pages under construction: each a paper and its shapes."""

    def __init__(self) -> None:
        self.papers: list[Paper] = []
        self.shapes: list[list[Shape]] = []
        self.smooth: list[bool] = []

    def new(self, paper: Paper) -> int:
        self.papers.append(paper)
        self.shapes.append([])
        self.smooth.append(False)
        return len(self.papers) - 1

    def put(self, page: int, picture: Picture, x: float, y: float, scale: float, title: str = "") -> Placement:
        """``picture`` on ``page``, with ``title`` (the caption) centred just above it."""
        if title:
            cx = x + picture.width * scale / 2
            self.shapes[page].append(page_text(cx, y - CAPTION_BAND / 2, title, CAPTION_PT))
        self.shapes[page] += placed(picture, x, y, scale)
        self.smooth[page] = self.smooth[page] or picture.smooth
        return Placement(page, x, y, picture.width * scale, picture.height * scale, scale)

    def finish(self, margin_mm: float) -> tuple[Picture, ...]:
        pages = []
        for i, (paper, shapes, smooth) in enumerate(zip(self.papers, self.shapes, self.smooth, strict=True)):
            footer: list[Shape] = [footer_text(paper, margin_mm, f"– {i + 1} –")] if i else []
            pages.append(Picture(paper.width, paper.height, tuple(shapes + footer), smooth=smooth))
        return tuple(pages)


def _centred(slot: tuple[float, float, float, float], picture: Picture, scale: float) -> tuple[float, float]:
    """Top-left corner of ``picture`` centred in ``slot`` under its caption band."""
    x, y, w, h = slot
    return x + (w - picture.width * scale) / 2, y + CAPTION_BAND + (h - CAPTION_BAND - picture.height * scale) / 2


def _title_page(paper: Paper, margin_mm: float, title: str, lines: list[str]) -> list[Shape]:
    """The book's title, large, a third of the way down, and a few lines about the book under it."""
    m, w, h = usable(paper, margin_mm)
    shapes: list[Shape] = []
    y = m + h * 0.3
    for line in wrap_text(title, TITLE_PT * PX_PER_PT, w):
        shapes.append(page_text(paper.width / 2, y, line, TITLE_PT))
        y += TITLE_PT * PX_PER_PT * 1.3
    y += SUBTITLE_PT * PX_PER_PT
    for text in lines:
        for line in wrap_text(text, SUBTITLE_PT * PX_PER_PT, w):
            shapes.append(page_text(paper.width / 2, y, line, SUBTITLE_PT))
            y += SUBTITLE_PT * PX_PER_PT * 1.5
    return shapes


def _one_line(text: str, pt: float, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` units at ``pt`` points.

    >>> _one_line("Puzzle 12 · A very long title indeed", 9, 150)
    'Puzzle 12 · A very l…'
    """
    size = pt * PX_PER_PT
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _puzzle_pages(pages: _Pages, items: Sequence[BookItem], order: list[int], paper: Paper, margin_mm: float,
                  per_page: int, sections: bool = False) -> tuple[list[Entry], list[Skipped], list[tuple[str, int]]]:
    """Puzzles in slots, ``per_page`` to a page; one that would have digits under 7 pt there gets a page of its own,
    and one that fits no page is skipped (numbers stay consecutive over the puzzles printed). With ``sections``
    each grade opens with a page of its own (filled in by :func:`_fill_sections`); returns their headings and pages."""
    entries: list[Entry] = []
    skipped: list[Skipped] = []
    opened: list[tuple[str, int]] = []
    slots: list[tuple[float, float, float, float]] = []
    current = -1
    for index in order:
        item = items[index]
        heading = section_name(item.grade, item.grade_name)
        if sections and (not opened or opened[-1][0] != heading):
            opened.append((heading, pages.new(paper)))
            slots = []  # the section's first puzzle starts a page
        number = len(entries) + 1
        text = caption(number, item.grade, item.grade_name)
        picture, cell = _puzzle_picture(item.puzzle)
        slot_w, slot_h = _puzzle_slots(paper, margin_mm, per_page)[0][2:]
        f = fit(picture, slot_w, slot_h - CAPTION_BAND, MAX_CELL_MM * PX_PER_MM / cell)
        if per_page > 1 and f.readable():
            if not slots:
                current, slots = pages.new(paper), _puzzle_slots(paper, margin_mm, per_page)
            where = pages.put(current, picture, *_centred(slots.pop(0), picture, f.scale), f.scale, text)
            entries.append(Entry(number, index, item.source, item.grade, text, where, f.min_text_pt))
            continue
        try:
            picture, sheet, x, y, f = _own_page(item.puzzle, paper, margin_mm)
        except LimitError as exc:
            skipped.append(Skipped(index, item.source, str(exc)))
            continue
        slots = []  # the next puzzle starts a new page
        where = pages.put(pages.new(sheet), picture, x, y, f.scale, text)
        entries.append(Entry(number, index, item.source, item.grade, text, where, f.min_text_pt))
    return entries, skipped, opened


def _fill_sections(pages: _Pages, margin_mm: float, opened: list[tuple[str, int]], entries: list[Entry]) -> None:
    """Each section page's heading and the numbers of the puzzles it opens."""
    for k, (heading, page) in enumerate(opened):
        end = opened[k + 1][1] if k + 1 < len(opened) else len(pages.papers)
        numbers = [e.number for e in entries if page < e.puzzle.page < end]
        span = ("" if not numbers else f"Puzzle {numbers[0]}" if len(numbers) == 1
                else f"Puzzles {numbers[0]}–{numbers[-1]}")
        pages.shapes[page] = section_page(pages.papers[page], margin_mm, heading, [span] if span else [])


def _shifted(entry: Entry, by: int) -> Entry:
    answer = entry.answer and replace(entry.answer, page=entry.answer.page + by)
    return replace(entry, puzzle=replace(entry.puzzle, page=entry.puzzle.page + by), answer=answer)


def _insert_contents(pages: _Pages, items: Sequence[BookItem], paper: Paper, margin_mm: float,
                     opened: list[tuple[str, int]], entries: list[Entry], answers: Optional[int]) -> int:
    """Contents pages right after the title page, listing sections, puzzles and answers; returns how many."""
    lines = []
    for k, (heading, page) in enumerate(opened):
        end = opened[k + 1][1] if k + 1 < len(opened) else len(pages.papers)
        lines.append(ContentsLine(heading, page, heading=True))
        lines += [ContentsLine(f"Puzzle {e.number} · {items[e.index].puzzle.size_text('×')}", e.puzzle.page)
                  for e in entries if page < e.puzzle.page < end]
    if answers is not None:
        lines.append(ContentsLine("Answers", answers, heading=True))
    count = contents_page_count(paper, margin_mm, len(lines))
    for k, shapes in enumerate(contents_pages(paper, margin_mm, lines, count)):
        pages.papers.insert(1 + k, paper)
        pages.shapes.insert(1 + k, shapes)
        pages.smooth.insert(1 + k, False)
    return count


def _answer_label(entry: Entry, puzzle: AnyPuzzle) -> str:
    title = str(puzzle.meta.get("title", "")).strip()
    return f"Puzzle {entry.number}" + (f" · {title}" if title else "")


def _answer_pages(pages: _Pages, items: Sequence[BookItem], entries: list[Entry], paper: Paper,
                  margin_mm: float) -> list[Entry]:
    """Answer keys, six to a page under an "Answers" heading, each labelled with its puzzle's number."""
    done: list[Entry] = []
    heading = HEADING_PT * PX_PER_PT * 2
    label_h = LABEL_PT * PX_PER_PT * 1.8
    slots: list[tuple[float, float, float, float]] = []
    page = -1
    for entry in entries:
        item = items[entry.index]
        if item.answer is None:
            raise InputError(f"{item.source or 'puzzle'} (puzzle {entry.number}): no answer to print")
        if not slots:
            page = pages.new(paper)
            slots = _slots(paper, margin_mm, ANSWER_COLUMNS, ANSWER_ROWS, heading)
            m = margin_mm * PX_PER_MM
            pages.shapes[page].append(page_text(paper.width / 2, m + heading * 0.4, "Answers", HEADING_PT))
        x, y, w, h = slots.pop(0)
        picture, cell = _answer_picture(item.puzzle, item.answer)
        f = fit(picture, w, h - label_h, ANSWER_CELL_MM * PX_PER_MM / cell)
        label = _one_line(_answer_label(entry, item.puzzle), LABEL_PT, w)
        pages.shapes[page].append(page_text(x + w / 2, y + label_h * 0.4, label, LABEL_PT))
        ax = x + (w - picture.width * f.scale) / 2
        where = pages.put(page, picture, ax, y + label_h, f.scale)
        grid = None
        if not isinstance(item.puzzle, Puzzle3D):
            corner = sheet2d.ANSWER_MARGIN * f.scale
            grid = (ax + corner, y + label_h + corner, cell * f.scale)
        done.append(replace(entry, answer=where, answer_grid=grid))
    return done


def _subtitle(items: Sequence[BookItem], order: str) -> list[str]:
    """Lines under the title: how many puzzles, and their grades when known."""
    n = len(items)
    graded = [i.grade for i in items if i.grade is not None]
    kinds = {i.puzzle.kind_name for i in items}
    noun = f"{kinds.pop()}s" if len(kinds) == 1 else "puzzles"
    lines = [f"{n} {noun[:-1] if n == 1 else noun}"]
    if graded:
        if min(graded) == max(graded):
            lines.append(f"grade {graded[0]} (1 easiest, 5 hardest)")
        else:
            easiest = " · easiest first" if order == "grade" else ""
            lines.append(f"grades {min(graded)} to {max(graded)} (1 easiest, 5 hardest){easiest}")
    return lines


def layout_book(
    items: Sequence[BookItem],
    paper: Paper,
    margin_mm: float = 15.0,
    *,
    title: str = "Puzzles",
    per_page: int = 1,
    answers: bool = True,
    order: str = "grade",
    sections: bool = False,
) -> Book:
    """The whole book: title page, puzzles in ``order`` (``"grade"`` or ``"input"``), then answers if asked.

    With ``sections`` (and ``order="grade"``) each grade opens with a
    section page and contents pages after the title list the sections, the
    puzzles and the answers with their page numbers.

    Every item needs an ``answer`` when ``answers`` is true. A puzzle no
    page holds with readable digits is left out and listed in
    :attr:`Book.skipped` with the reason; when that leaves no puzzle at all,
    :class:`~nonogen.errors.LimitError` says why, naming each.
    """
    if not items:
        raise InputError("no puzzles to put in a book")
    if per_page not in PER_PAGE:
        raise InputError(f"{per_page} puzzles a page: expected 1, 2 or 4")
    pages = _Pages()
    pages.new(paper)  # the title page, written last: it says where the answers start
    if sections and order != "grade":
        raise InputError("sections are by grade: they need order grade")
    entries, skipped, opened = _puzzle_pages(pages, items, book_order(items, order), paper, margin_mm, per_page,
                                             sections)
    if not entries:
        raise LimitError("; ".join(f"{s.source or 'puzzle'}: {s.reason}" for s in skipped))
    about = _subtitle([items[e.index] for e in entries], order)
    first_answer = None
    if answers:
        first_answer = len(pages.papers)
        entries = _answer_pages(pages, items, entries, paper, margin_mm)
    contents: tuple[int, ...] = ()
    if sections:
        _fill_sections(pages, margin_mm, opened, entries)
        count = _insert_contents(pages, items, paper, margin_mm, opened, entries, first_answer)
        entries = [_shifted(e, count) for e in entries]
        opened = [(heading, page + count) for heading, page in opened]
        first_answer = None if first_answer is None else first_answer + count
        contents = tuple(range(1, 1 + count))
        about.append("contents on page 2")
    if first_answer is not None:
        about.append(f"answers from page {first_answer + 1}")
    pages.shapes[0] = _title_page(paper, margin_mm, title, about)
    return Book(pages.finish(margin_mm), tuple(entries), first_answer, tuple(skipped), tuple(opened), contents)
