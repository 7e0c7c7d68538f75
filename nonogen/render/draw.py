"""``nonogen.draw`` and ``nonogen.book``: draw a puzzle (2D or Picross 3D) or its answer, on screen, on paper or as a playable page.

One call does what the command ``nonogen render`` does (the function is
``draw``: ``nonogen.render`` is the package of renderers): choose the picture (clue sheet,
solution, the three clue faces of a box), fit it on paper when printing, and
write SVG, PNG, PDF or a self-contained HTML page. Without a path it returns
the :class:`~nonogen.render.canvas.Picture`, for a caller that composes.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from ..clues3d import valid_goal
from ..errors import OptionError, PuzzleError
from ..files import write_file
from ..model import Puzzle
from ..model3d import Puzzle3D
from . import SUFFIXES, check_cell, encode, iso3d, sheet2d
from .book import CELL_2D, CELL_3D, BookItem, layout_book
from .canvas import PX_PER_MM, Picture
from .page import PAPERS, paper_named, sheet_page

__all__ = ["draw", "book", "answer", "PRINT_DPI"]

AnyPuzzle = Union[Puzzle, Puzzle3D]
PRINT_DPI = 300.0
DEFAULT_MARGIN_MM = 15.0


@dataclass(frozen=True)
class Answer:
    """The grid (or box) to draw as the solution, and a note when it is one of several."""

    cells: np.ndarray
    note: str = ""


def answer(puzzle: AnyPuzzle, timeout: Optional[float] = 60.0) -> Answer:
    """The puzzle's stored goal when it meets the clues (a goal that does not is no answer), else a solved one.

    Raises :class:`PuzzleError` when the puzzle has no solution or none is found in time.
    """
    goal = valid_goal(puzzle)
    if goal is not None:
        return Answer(goal)
    from ..solve import verify

    result = verify(puzzle, timeout=timeout)
    if result.status == "unsolvable":
        raise PuzzleError(f"the puzzle has no solution ({result.message or 'clues contradict'})")
    if result.solution is None:
        raise PuzzleError(f"no solution found within {timeout:g} s")
    note = "the puzzle has more than one solution; drawing one of them" if result.status == "multiple" else ""
    return Answer(result.solution, note)


def draw(
    puzzle: AnyPuzzle,
    path: Union[str, Path, None] = None,
    *,
    solution: bool = False,
    cell: Optional[float] = None,
    paper: Optional[str] = None,
    margin: Optional[float] = None,
    dpi: Optional[float] = None,
    title: Optional[str] = None,
    caption: str = "",
    timeout: Optional[float] = 60.0,
    force: bool = False,
) -> Union[Picture, dict[str, Any]]:
    """Draw ``puzzle`` (its clue sheet, or with ``solution`` its answer); write it to ``path`` or return the picture.

    On screen a cell is ``cell`` pixels (default 20). For print (a ``.pdf``
    path, or ``paper`` such as ``"a4"``) the sheet is fitted on the page inside
    ``margin`` millimetres, with a colour legend. A ``.html`` path is a page
    to play the puzzle in a browser. With a path, the file is written
    atomically (an existing one only with ``force``) and a report of what was
    written is returned (the CLI's ``--json`` line).

    >>> import nonogen
    >>> picture = nonogen.draw(nonogen.load("samples/puzzles/heart.non"))
    >>> round(picture.width) > 100
    True
    """
    suffix = Path(path).suffix.lower() if path is not None else ""
    if suffix == ".html":
        return _page(puzzle, Path(path), title, timeout, force, solution or cell or paper or margin or dpi)
    if path is not None and suffix not in SUFFIXES:
        raise OptionError("output", path, "a name ending in .svg, .png, .pdf or .html")
    printing = suffix == ".pdf" or paper is not None
    _check(printing, cell, margin, dpi, suffix, path is None)
    found = answer(puzzle, timeout) if solution else None
    size = (CELL_3D if isinstance(puzzle, Puzzle3D) else CELL_2D) if printing else (cell or 20)
    picture = _picture(puzzle, None if found is None else found.cells, size, title, caption, legend=printing)
    report: dict[str, Any] = {"output": None if path is None else str(path), "solution": solution,
                              "note": found.note if found else ""}
    if printing:
        dense = None  # a big 2D sheet may draw its digits larger in their cells to stay readable
        if isinstance(puzzle, Puzzle) and found is None:
            dense = lambda: sheet2d.sheet_picture(puzzle, None, size, title=title, caption=caption,  # noqa: E731
                                                  legend=True, dense=True)
        placed = sheet_page(picture, paper_named(paper or "a4"), DEFAULT_MARGIN_MM if margin is None else margin, size,
                            dense)
        picture = placed.page
        report.update(paper=placed.paper.name, cell_mm=round(size * placed.scale / PX_PER_MM, 2),
                      min_text_pt=placed.min_text_pt and round(placed.min_text_pt, 2))
    if path is None:
        return picture
    dpi = dpi or (PRINT_DPI if printing else None)
    write_file(Path(path), encode(picture, suffix, dpi=dpi), force=force)
    report.update(width=round(picture.width, 2), height=round(picture.height, 2), dpi=dpi if suffix == ".png" else None,
                  width_mm=round(picture.width / PX_PER_MM, 1), height_mm=round(picture.height / PX_PER_MM, 1))
    return report


def _check(printing: bool, cell: Optional[float], margin: Optional[float], dpi: Optional[float], suffix: str,
           in_memory: bool) -> None:
    """Refuse option mixes that would be silently ignored (the dpi's range is :func:`~nonogen.render.encode`'s)."""
    if printing and cell is not None:
        raise OptionError("cell", cell, "no cell size for a page (a page is sized by its paper and margin)")
    if not printing and margin is not None:
        raise OptionError("margin", margin, "a paper (or a .pdf) to apply to")
    if cell is not None:
        check_cell(cell)
    if dpi is not None and (suffix != ".png" or in_memory):
        raise OptionError("dpi", dpi, "a .png file to apply to")


def _picture(puzzle: AnyPuzzle, solution: Optional[np.ndarray], cell: float, title: Optional[str], caption: str,
             legend: bool) -> Picture:
    """The clue sheet, or the answer: a 2D grid, or a box of cubes (its clue faces, or its cubes)."""
    if isinstance(puzzle, Puzzle3D):
        if solution is None:
            heading = str(puzzle.meta.get("title", "")) if title is None else title
            return iso3d.sheet_picture(puzzle, cell=cell, title=heading, caption=caption, legend=legend)
        return iso3d.solution_picture(solution, iso3d.cube_colors(puzzle, solution), cube=cell)
    return sheet2d.sheet_picture(puzzle, solution, cell, title=title, caption=caption, legend=legend)


def _page(puzzle: AnyPuzzle, path: Path, title: Optional[str], timeout: Optional[float], force: bool,
          sized: Any) -> dict[str, Any]:
    """A playable page: the puzzle with its answer inside (for Check and Reveal)."""
    from ..export.html import page_2d, page_3d

    if sized:
        raise OptionError("output", path, "no solution, cell, paper, margin or dpi for a playable page")
    found = answer(puzzle, timeout)
    if isinstance(puzzle, Puzzle3D):
        page = page_3d(puzzle, found.cells, iso3d.cube_colors(puzzle, found.cells), title=title)
    else:
        page = page_2d(puzzle, found.cells, title=title)
    write_file(path, page, force=force)
    return {"output": str(path), "page": "playable", "note": found.note}


PAPER_NAMES = sorted(PAPERS)


def book(
    puzzles: Sequence[Union[AnyPuzzle, tuple[str, AnyPuzzle]]],
    path: Union[str, Path],
    *,
    title: str = "Puzzles",
    paper: str = "a4",
    margin: float = DEFAULT_MARGIN_MM,
    per_page: int = 1,
    answers: bool = True,
    order: str = "grade",
    timeout: Optional[float] = 60.0,
    force: bool = False,
    on_progress: Optional[Callable[[int, int], None]] = None,
) -> dict[str, Any]:
    """Put ``puzzles`` (or ``(name, puzzle)`` pairs) into one printable PDF with answer keys at the back.

    Each puzzle is verified first: its grade sets the order (``"grade"``,
    easiest first, or ``"input"``) and its answer is the stored goal when that
    meets the clues, else the solver's. A puzzle that cannot go in (no
    solution, none found in ``timeout``, too big for the paper) is left out
    and listed under ``skipped`` with its ``kind`` (``unsolvable``,
    ``timeout``, ``paper``) and the reason; the rest are written to
    ``path``. Returns what went where (the CLI's ``--json``).
    """
    from ..solve import verify

    items, lines, skipped = [], [], []
    named = [p if isinstance(p, tuple) else (p.meta.get("title") or f"puzzle {k}", p) for k, p in enumerate(puzzles, 1)]
    for k, (source, puzzle) in enumerate(named):
        if on_progress:
            on_progress(k, len(named))
        result = verify(puzzle, timeout=timeout)
        goal = valid_goal(puzzle)
        solution = goal if goal is not None else result.solution
        if result.status == "unsolvable":
            skipped.append({"source": source, "kind": "unsolvable",
                            "reason": "the puzzle has no solution, so it cannot go in a book"})
            continue
        if answers and solution is None:
            skipped.append({"source": source, "kind": "timeout", "reason": f"no solution found within {timeout:g} s"})
            continue
        items.append(BookItem(puzzle, solution if answers else None, result.grade, result.grade_name, source))
        lines.append({"source": source, "status": result.status, "grade": result.grade, "grade_name": result.grade_name})
    if not items:
        raise PuzzleError("; ".join(f"{s['source']}: {s['reason']}" for s in skipped) or "no puzzles to put in a book")
    sheet = paper_named(paper)
    made = layout_book(items, sheet, margin, title=title, per_page=per_page, answers=answers, order=order)
    write_file(Path(path), encode(list(made.pages), ".pdf", title=title), force=force)
    skipped += [{"source": s.source, "kind": "paper", "reason": s.reason} for s in made.skipped]
    placed = []
    for entry in made.entries:
        line = dict(lines[entry.index], number=entry.number, page=entry.puzzle.page + 1,
                    min_text_pt=entry.min_text_pt and round(entry.min_text_pt, 2))
        line["answer_page"] = entry.answer.page + 1 if entry.answer else None
        placed.append(line)
    return {"output": str(path), "pages": len(made.pages), "paper": sheet.name, "margin_mm": margin,
            "answers_page": None if made.answers_page is None else made.answers_page + 1,
            "puzzles": placed, "skipped": skipped}
