"""``nonogen book``: many puzzles as one printable PDF booklet, with a title page and answer keys at the back.

Every puzzle is verified first: its answer is the stored goal when that meets
the clues, else the solver's solution, and its grade (1 easiest to 5
hardest, when the engine grades) decides the order. Puzzles are numbered in
book order ("Puzzle 7 · grade 2"), and each answer key carries the same
number. 2D nonograms and Picross 3D levels can be mixed; bundles give every
puzzle they hold. A puzzle that cannot go in (no solution, none found in
time, too big for the paper even with 6 pt digits) is left out with the
reason on stderr, the rest of the book is made, and the exit code is 2.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional

from .. import formats
from ..clues import valid_goal
from ..errors import InputError, PuzzleError
from ..model import Puzzle, Puzzle3D
from ..render import save
from ..render.book import PER_PAGE, Book, BookItem, layout_book
from ..render.page import PAPERS, paper_named, parse_length
from ..solve import verify
from . import summary
from .common import EXIT_CODES, check_output_file, positive_float, print_json, progress


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("book", help=summary("book"),
                       description=__doc__.split("\n\n", 1)[1].replace("\n", " "))
    p.add_argument("puzzles", nargs="+", metavar="PUZZLE", help="puzzle files nonogen reads (bundles give every puzzle)")
    p.add_argument("-o", "--output", required=True, metavar="FILE.pdf", help="the booklet to write")
    p.add_argument("--title", default="Puzzles", metavar="TEXT", help="title on the first page (default: Puzzles)")
    p.add_argument("--per-page", type=int, choices=PER_PAGE, default=1, help="puzzles a page (default 1); "
                   "a puzzle whose digits would drop under 7 pt gets a page of its own (down to 6 pt if need be)")
    p.add_argument("--answers", choices=("end", "none"), default="end", help="answer keys at the back (default) or none")
    p.add_argument("--order", choices=("grade", "input"), default="grade",
                   help="easiest first, ungraded last (default), or as given")
    p.add_argument("--paper", choices=list(PAPERS), default="a4", help="paper size (default a4)")
    p.add_argument("--margin", default="15mm", metavar="LENGTH", help="margin on every side (default 15mm)")
    p.add_argument("--format", default=None, metavar="FORMAT", help="read every file in this format")
    p.add_argument("--timeout", type=positive_float, default=60.0, metavar="S",
                   help="seconds to verify each puzzle (default 60)")
    p.add_argument("--force", action="store_true", help="overwrite FILE.pdf")
    p.add_argument("--json", action="store_true", help="print what went where as one JSON line")
    p.set_defaults(run=run_book)


def _load(paths: list[str], fmt: Optional[str]) -> list[tuple[str, Puzzle | Puzzle3D]]:
    """Every puzzle of every file, named ``file`` or ``file#k`` (k from 1) for bundles."""
    loaded = []
    for name in paths:
        if Path(name).is_dir():
            raise InputError(f"{name}: is a folder; name the puzzle files (e.g. {name}/*.non)")
        puzzles = formats.load_all(name, fmt)
        for k, puzzle in enumerate(puzzles, 1):
            loaded.append((name if len(puzzles) == 1 else f"{name}#{k}", puzzle))
    return loaded


def _item(source: str, puzzle: Puzzle | Puzzle3D, timeout: float, need_answer: bool) -> tuple[BookItem, dict]:
    """The book item of one puzzle (answer and grade) and its line in the JSON report; a PuzzleError says why
    the puzzle cannot go in the book."""
    result = verify(puzzle, timeout=timeout)
    answer = valid_goal(puzzle)
    if answer is None:
        answer = result.solution
    if result.status == "unsolvable":
        raise PuzzleError("the puzzle has no solution, so it cannot go in a book")
    if need_answer and answer is None:
        raise PuzzleError(f"no solution found within {timeout:g} s (try a larger --timeout)")
    grade, grade_name = getattr(result, "grade", None), getattr(result, "grade_name", None)
    item = BookItem(puzzle, answer if need_answer else None, grade, grade_name, source)
    return item, {"source": source, "status": result.status, "grade": grade, "grade_name": grade_name}


def _report(book: Book, lines: list[dict], args: argparse.Namespace, margin: float,
            skipped: list[dict]) -> dict:
    puzzles = []
    for entry in book.entries:
        line = dict(lines[entry.index], number=entry.number, page=entry.puzzle.page + 1,
                    min_text_pt=entry.min_text_pt and round(entry.min_text_pt, 2))
        line["answer_page"] = entry.answer.page + 1 if entry.answer else None
        puzzles.append(line)
    return {"output": args.output, "pages": len(book.pages), "paper": paper_named(args.paper).name,
            "margin_mm": margin, "answers_page": None if book.answers_page is None else book.answers_page + 1,
            "puzzles": puzzles, "skipped": skipped}


def run_book(args: argparse.Namespace) -> int:
    out = Path(args.output)
    if out.suffix.lower() != ".pdf":
        raise InputError(f"{out}: a book is written as .pdf")
    margin = parse_length(args.margin)
    check_output_file(out, args.force)
    loaded = _load(args.puzzles, args.format)
    need_answer = args.answers == "end"
    items, lines, skipped = [], [], []
    for source, puzzle in progress(loaded, len(loaded), "verify"):
        try:
            item, line = _item(source, puzzle, args.timeout, need_answer)
        except PuzzleError as exc:
            skipped.append({"source": source, "reason": str(exc)})
            continue
        items.append(item)
        lines.append(line)
    if not items:
        raise PuzzleError("; ".join(f"{s['source']}: {s['reason']}" for s in skipped))
    book = layout_book(items, paper_named(args.paper), margin, title=args.title, per_page=args.per_page,
                       answers=need_answer, order=args.order)
    save(list(book.pages), out, title=args.title, overwrite=args.force)
    bigger = "" if args.paper == "a3" else "; a larger paper (--paper a3) may hold it"
    skipped += [{"source": s.source, "reason": s.reason + bigger} for s in book.skipped]
    for s in skipped:
        print(f"nonogen: skipped {s['source']}: {s['reason']}", file=sys.stderr)
    for line in lines:
        if line["status"] == "multiple":
            print(f"nonogen: note: {line['source']} has more than one solution; its answer shows one", file=sys.stderr)
    report = _report(book, lines, args, margin, skipped)
    if args.json:
        print_json(report)
    else:
        answers = f", answers from page {report['answers_page']}" if report["answers_page"] else ""
        count = len(book.entries)
        left_out = f"; {len(skipped)} left out (see above)" if skipped else ""
        print(f"{out}: {count} puzzle{'s' if count > 1 else ''} on {len(book.pages)} {report['paper']} pages"
              f"{answers}{left_out}")
    return EXIT_CODES["error"] if skipped else 0
