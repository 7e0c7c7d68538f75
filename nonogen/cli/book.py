"""``nonogen book``: many puzzles as one printable PDF booklet, with a title page and answer keys at the back.

Every puzzle is verified first: its answer is the stored goal when that meets
the clues, else the solver's solution, and its grade (1 easiest to 5
hardest, when the engine grades) decides the order. Puzzles are numbered in
book order ("Puzzle 7 · grade 2"), and each answer key carries the same
number. 2D nonograms and Picross 3D levels can be mixed; bundles give every
puzzle they hold. A puzzle that cannot go in (no solution, none found in
time, too big for the paper even with 6 pt digits) is left out with the
reason on stderr, the rest of the book is made, and the exit code is 2.
A collection folder or a selection file from its gallery page gives its
puzzles, by grade then name, with a section per grade and a contents page.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional

from .. import formats
from ..errors import InputError, SolverTimeout
from ..output.collection import is_collection, is_selection, open_published
from ..model import Puzzle
from ..model3d import Puzzle3D
from ..render.book import PER_PAGE
from ..output import book
from ..render.page import PAPERS, parse_length
from ..solve.deadline import OutOfTime, interrupt_at, read_limit
from . import summary
from .common import EXIT_CODES, ProgressBar, check_output_file, grade_range, positive_float, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("book", help=summary("book"),
                       description=__doc__.split("\n\n", 1)[1].replace("\n", " "))
    p.add_argument("puzzles", nargs="+", metavar="PUZZLE",
                   help="puzzle files nonogen reads (bundles give every puzzle), collection folders or selection files")
    p.add_argument("-o", "--output", required=True, metavar="FILE.pdf", help="the booklet to write")
    p.add_argument("--title", default="Puzzles", metavar="TEXT", help="title on the first page (default: Puzzles)")
    p.add_argument("--per-page", type=int, choices=PER_PAGE, default=1, help="puzzles a page (default 1); "
                   "a puzzle whose digits would drop under 7 pt gets a page of its own (down to 6 pt if need be)")
    p.add_argument("--answers", choices=("end", "none"), default="end",
                   help="answer keys at the back (default) or none")
    p.add_argument("--order", choices=("grade", "input"), default="grade",
                   help="easiest first, ungraded last (default), or as given")
    p.add_argument("--paper", choices=list(PAPERS), default="a4", help="paper size (default a4)")
    p.add_argument("--margin", default="15mm", metavar="LENGTH", help="margin on every side (default 15mm)")
    p.add_argument("--format", default=None, metavar="FORMAT", help="read every file in this format")
    p.add_argument("--timeout", type=positive_float, default=60.0, metavar="S",
                   help="seconds to verify each puzzle (default 60)")
    p.add_argument("--grade", type=grade_range, default=None, metavar="N|LOW-HIGH",
                   help="only puzzles of this grade or range (1 very easy to 5 very hard), e.g. 2 or 1-3")
    p.add_argument("--contents", action=argparse.BooleanOptionalAction, default=None,
                   help="a section per grade and a contents page (default: with a collection or selection)")
    p.add_argument("--force", action="store_true", help="overwrite FILE.pdf")
    p.add_argument("--json", action="store_true", help="print what went where as one JSON line")
    p.set_defaults(run=run_book)


def _published(name: str) -> list[tuple[str, Puzzle | Puzzle3D]]:
    """The made puzzles of a collection folder or selection file, by name, each named after its folder."""
    _, members = open_published(name)
    if not members:
        raise InputError(f"{name}: no made puzzle in the collection")
    members = sorted(members, key=lambda m: m.name or "")  # the book orders by grade; ties go by name
    return [(m.name or "", m.puzzle()) for m in members]  # read as every publisher reads a collection's files


def _is_collection(name: str) -> bool:
    return is_collection(name) or is_selection(name)


def _load(paths: list[str], fmt: Optional[str], timeout: float) -> list[tuple[str, Puzzle | Puzzle3D]]:
    """Every puzzle of every file, named ``file`` or ``file#k`` (k from 1) for bundles; a collection folder or
    selection file gives its made puzzles.

    Reading a file counts against the time limit as ``verify`` counts it (:func:`read_limit`).
    """
    loaded = []
    for name in paths:
        if _is_collection(name):
            loaded += _published(name)
            continue
        if Path(name).is_dir():
            raise InputError(f"{name}: is a folder but no collection; name the puzzle files (e.g. {name}/*.non)")
        limit = read_limit(timeout)
        try:
            with interrupt_at(limit):
                puzzles = formats.load_all(name, fmt)
        except OutOfTime:
            raise SolverTimeout(f"{name}: reading the file took longer than {limit:g} s (half the time limit, "
                                "at least a second)") from None
        for k, puzzle in enumerate(puzzles, 1):
            loaded.append((name if len(puzzles) == 1 else f"{name}#{k}", puzzle))
    return loaded


def run_book(args: argparse.Namespace) -> int:
    out = Path(args.output)
    if out.suffix.lower() != ".pdf":
        raise InputError(f"{out}: a book is written as .pdf")
    margin = parse_length(args.margin)
    check_output_file(out, args.force)
    contents = any(map(_is_collection, args.puzzles)) if args.contents is None else args.contents
    if contents and args.order != "grade":
        raise InputError("--contents needs --order grade: its sections are grades (add --no-contents)")
    bar = ProgressBar("verify")
    try:
        report = book(_load(args.puzzles, args.format, args.timeout), out, title=args.title, paper=args.paper,
                      margin=margin, per_page=args.per_page, answers=args.answers == "end", order=args.order,
                      timeout=args.timeout, force=True, on_progress=bar, grades=args.grade, sections=contents)
    finally:
        bar.clear()
    hints = {"paper": "" if args.paper == "a3" else "; a larger paper (--paper a3) may hold it",
             "timeout": " (try a larger --timeout)"}
    for s in report["skipped"]:
        s["reason"] += hints.get(s["kind"], "")
        print(f"nonogen: skipped {s['source']}: {s['reason']}", file=sys.stderr)
    for line in report["puzzles"]:
        if line["status"] == "multiple":
            print(f"nonogen: note: {line['source']} has more than one solution; its answer shows one", file=sys.stderr)
    if args.json:
        print_json(report)
    else:
        answers = f", answers from page {report['answers_page']}" if report["answers_page"] else ""
        count = len(report["puzzles"])
        left_out = f"; {len(report['skipped'])} left out (see above)" if report["skipped"] else ""
        left_out += f"; {len(report['other_grades'])} of other grades left out" if report["other_grades"] else ""
        print(f"{out}: {count} puzzle{'s' if count > 1 else ''} on {report['pages']} {report['paper']} pages"
              f"{answers}{left_out}")
    return EXIT_CODES["error"] if report["skipped"] else 0
