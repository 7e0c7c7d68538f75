"""``nonogen render``: draw any puzzle file as a sheet (SVG, PNG or PDF), or its solution.

A 2D nonogram becomes its clue sheet; a Picross 3D level becomes the three
clue faces of its box, or with ``--solution`` the isometric picture of the
solved cubes.

A ``.html`` output is a page to play the puzzle in a browser (one
self-contained file, no network): fill cells, check, undo; Picross 3D levels
as a block of cubes to break, paint, turn and slice.

Two modes for pictures. On screen (``.svg``/``.png`` without ``--paper``) a cell is
``--cell`` pixels, as always. For print (a ``.pdf``, or ``--paper``) the
sheet is fitted on a page of that paper inside ``--margin``, with no text
under 7 pt, a colour legend on colour puzzles, landscape when portrait is too
small, and a clear error when no orientation is big enough; a PNG page is
``--dpi`` (300) and an SVG page is sized in millimetres.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import formats
from ..errors import LimitError
from ..model import Puzzle
from ..model3d import Puzzle3D
from ..output import draw
from ..render.page import PAPERS, parse_length
from . import summary
from .common import check_output_file, positive_float, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help=summary("render"),
                       description=__doc__.split("\n\n", 1)[1].replace("``", ""),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("puzzle", metavar="PUZZLE", help="any puzzle file nonogen reads")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="FILE.svg, FILE.png, FILE.pdf or FILE.html (playable)")
    p.add_argument("--solution", action="store_true", help="draw the solution (the file's goal, else solved)")
    p.add_argument("--format", default=None, metavar="FORMAT", help="read the puzzle in this format")
    p.add_argument("--title", default=None, metavar="TEXT", help="title over the sheet (default: the puzzle's own)")
    p.add_argument("--caption", default="", metavar="TEXT",
                   help='a smaller line over the title, e.g. "Puzzle 7 · grade 2"')
    p.add_argument("--cell", type=int, default=None, metavar="PX",
                   help="on screen: cell (or cube) size in pixels (default 20)")
    p.add_argument("--paper", choices=sorted(PAPERS), default=None,
                   help="print: fit the sheet on a page of this paper (default for .pdf: a4)")
    p.add_argument("--margin", default=None, metavar="LENGTH",
                   help="print: margin on every side, e.g. 15mm (default), 1cm, 0.5in")
    p.add_argument("--dpi", type=positive_float, default=None, metavar="N",
                   help="PNG resolution, recorded in the file (default 300 for a page, 96 on screen)")
    p.add_argument("--timeout", type=positive_float, default=60.0, metavar="S", help="seconds to solve for --solution")
    p.add_argument("--force", action="store_true", help="overwrite FILE")
    p.add_argument("--json", action="store_true", help="print what was written as one JSON line")
    p.set_defaults(run=run_render)


def run_render(args: argparse.Namespace) -> int:
    out = Path(args.output)
    puzzle = formats.load(args.puzzle, args.format)
    check_output_file(out, args.force)
    margin = parse_length(args.margin) if args.margin is not None else None
    try:
        report = draw(puzzle, out, solution=args.solution, cell=args.cell, paper=args.paper, margin=margin,
                        dpi=args.dpi, title=args.title, caption=args.caption, timeout=args.timeout, force=True)
    except LimitError as exc:  # a sheet too big for the paper: say which puzzle
        raise LimitError(f"{args.puzzle}: {exc}") from None
    assert isinstance(report, dict)  # with a path, draw returns its report (without, the picture)
    report["puzzle"] = args.puzzle
    if report["note"]:
        print(f"nonogen: note: {report['note']}", file=sys.stderr)
    if args.json:
        print_json(report)
    else:
        print(_summary(report, _what(puzzle), out.suffix.lower()))
    return 0


def _what(puzzle: Puzzle | Puzzle3D) -> str:
    if isinstance(puzzle, Puzzle3D):
        return "{}x{}x{} Picross 3D level".format(*puzzle.size)
    return f"{puzzle.width}x{puzzle.height} puzzle"


def _summary(report: dict, what: str, suffix: str) -> str:
    """One line for people: where, how big, what."""
    if report.get("page") == "playable":
        return f"{report['output']}: playable page, {what}"
    tail = what + (" with its solution" if report["solution"] else "")
    if "paper" in report:
        text = f", smallest text {report['min_text_pt']:g} pt" if report["min_text_pt"] else ""
        return f"{report['output']}: {report['paper']} page, {tail}, cells {report['cell_mm']:g} mm{text}"
    if suffix == ".png":
        scale = (report["dpi"] or 96) / 96
        size = f"{round(report['width'] * scale)}x{round(report['height'] * scale)} px"
    else:
        size = f"{report['width_mm']:g}x{report['height_mm']:g} mm"
    return f"{report['output']}: {size}, {tail}"
