"""``nonogen.book``: many puzzles and levels in one printable PDF, easiest first, answers at the back.

The layout is :func:`nonogen.render.book.layout_book`'s (pure shapes); this
module adds what needs the engine and the disk: each puzzle's verdict, grade
and answer, and the PDF file.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional, Sequence, Union

from ..clues3d import valid_goal
from ..errors import PuzzleError
from ..files import write_file
from ..model import Puzzle
from ..model3d import Puzzle3D
from ..render import encode
from ..render.book import BookItem, layout_book
from ..render.page import paper_named
from ..solve import verify
from .collection import grade_text, in_grades
from .sheets import DEFAULT_MARGIN_MM

__all__ = ["book"]

AnyPuzzle = Union[Puzzle, Puzzle3D]


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
    grades: Optional[tuple[int, int]] = None,
    sections: bool = False,
) -> dict[str, Any]:
    """Put ``puzzles`` (or ``(name, puzzle)`` pairs) into one printable PDF with answer keys at the back.

    Each puzzle is verified first: its grade sets the order (``"grade"``,
    easiest first, or ``"input"``) and its answer is the stored goal when that
    meets the clues, else the solver's. A puzzle that cannot go in (no
    solution, none found in ``timeout``, too big for the paper) is left out
    and listed under ``skipped`` with its ``kind`` (``unsolvable``,
    ``timeout``, ``paper``) and the reason; the rest are written to
    ``path``. ``grades`` (lowest, highest) keeps only puzzles the engine
    grades within them (the others are listed under ``other_grades``);
    ``sections`` opens each grade with a section page and adds contents
    pages. Returns what went where (the CLI's ``--json``).
    """
    items, lines, skipped, other_grades = [], [], [], []
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
        if not in_grades(result.grade, grades):
            other_grades.append({"source": source, "grade": result.grade})
            continue
        items.append(BookItem(puzzle, solution if answers else None, result.grade, result.grade_name, source))
        lines.append({"source": source, "status": result.status, "grade": result.grade,
                      "grade_name": result.grade_name})
    if not items and other_grades and not skipped:
        found = sorted({str(o["grade"]) for o in other_grades if o["grade"] is not None}) or ["none"]
        raise PuzzleError(f"no puzzle of grade {grade_text(grades)} among {len(other_grades)} "
                          f"(their grades: {', '.join(found)})")
    if not items:
        raise PuzzleError("; ".join(f"{s['source']}: {s['reason']}" for s in skipped) or "no puzzles to put in a book")
    sheet = paper_named(paper)
    made = layout_book(items, sheet, margin, title=title, per_page=per_page, answers=answers, order=order,
                       sections=sections)
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
            "puzzles": placed, "skipped": skipped, "other_grades": other_grades,
            "sections": [{"heading": heading, "page": page + 1} for heading, page in made.sections],
            "contents_pages": [page + 1 for page in made.contents_pages]}
