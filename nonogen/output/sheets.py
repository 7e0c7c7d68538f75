"""``nonogen.draw``: draw a puzzle (2D or Picross 3D) or its answer, on screen, on paper or as a playable page.

One call does what the command ``nonogen render`` does (the function is
``draw``: ``nonogen.render`` is the package of renderers): choose the picture (clue sheet,
solution, the three clue faces of a box), fit it on paper when printing, and
write SVG, PNG, PDF or a self-contained HTML page. Without a path it returns
the :class:`~nonogen.render.canvas.Picture`, for a caller that composes.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence, Union

import numpy as np

from ..clues3d import valid_goal
from ..errors import OptionError, PuzzleError
from ..export.html import page_2d, page_3d
from ..files import write_file
from ..model import Puzzle
from ..model3d import Puzzle3D
from ..render import SUFFIXES, check_cell, encode, iso3d, sheet2d
from ..render.book import CELL_2D, CELL_3D
from ..render.canvas import PX_PER_MM, Picture
from ..render.page import paper_named, sheet_page
from ..solve import verify

__all__ = ["draw", "answer", "save_picture", "PRINT_DPI", "DEFAULT_MARGIN_MM"]

AnyPuzzle = Union[Puzzle, Puzzle3D]
Pages = Union[Picture, Sequence[Picture]]
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
    if path is not None and suffix == ".html":
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
    if sized:
        raise OptionError("output", path, "no solution, cell, paper, margin or dpi for a playable page")
    found = answer(puzzle, timeout)
    if isinstance(puzzle, Puzzle3D):
        page = page_3d(puzzle, found.cells, iso3d.cube_colors(puzzle, found.cells), title=title)
    else:
        page = page_2d(puzzle, found.cells, title=title)
    write_file(path, page, force=force)
    return {"output": str(path), "page": "playable", "note": found.note}


def save_picture(picture_or_pages: Pages, path: Union[str, Path], *, dpi: Optional[float] = None, title: str = "",
                 force: bool = False) -> Path:
    """Write a picture (or a list of pages, for PDF) as SVG, PNG or PDF, chosen by ``path``'s suffix.

    - SVG: one picture, its size in millimetres (a unit is 1/96 inch).
    - PNG: one picture at ``dpi`` (default 96, one pixel per unit), the dpi
      recorded in the file; smooth pictures are supersampled.
    - PDF: every page, each the size of its picture; ``title`` goes in the
      document's properties.

    Written atomically by :func:`nonogen.files.write_file`; an existing file only with ``force``.
    A puzzle is drawn with :func:`draw`, not here.

    >>> import tempfile, pathlib
    >>> from nonogen.render import Picture, Rect
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "box.svg"
    >>> _ = save_picture(Picture(96, 48, [Rect(0, 0, 96, 48, "#ff0000")]), path)
    >>> 'width="25.4mm"' in path.read_text()
    True
    """
    path = Path(path)
    return write_file(path, encode(picture_or_pages, path.suffix, dpi=dpi, title=title), force=force)
