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
from typing import Optional

import numpy as np

from .. import formats
from ..clues import satisfies, satisfies_3d
from ..errors import InputError, LimitError, PuzzleError
from ..model import Puzzle, Puzzle3D
from ..render import SUFFIXES, Picture, save
from ..render import iso3d, sheet2d
from ..render.book import CELL_2D, CELL_3D
from ..render.canvas import PX_PER_MM
from ..render.page import PAPERS, SheetPage, paper_named, parse_length, sheet_page
from ..solve import verify
from . import summary
from .common import check_output_file, positive_float, print_json

PRINT_DPI = 300.0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help=summary("render"),
                       description=__doc__.split("\n\n", 1)[1].replace("``", ""),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("puzzle", metavar="PUZZLE", help="any puzzle file nonogen reads")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="FILE.svg, FILE.png, FILE.pdf or FILE.html (playable)")
    p.add_argument("--solution", action="store_true", help="draw the solution (the file's goal, else solved)")
    p.add_argument("--format", default=None, metavar="FORMAT", help="read the puzzle in this format")
    p.add_argument("--title", default=None, metavar="TEXT", help="title over the sheet (default: the puzzle's own)")
    p.add_argument("--caption", default="", metavar="TEXT", help='a smaller line over the title, e.g. "Puzzle 7 · grade 2"')
    p.add_argument("--cell", type=int, default=None, metavar="PX", help="on screen: cell (or cube) size in pixels (default 20)")
    p.add_argument("--paper", choices=sorted(PAPERS), default=None,
                   help="print: fit the sheet on a page of this paper (default for .pdf: a4)")
    p.add_argument("--margin", default=None, metavar="LENGTH", help="print: margin on every side, e.g. 15mm (default), 1cm, 0.5in")
    p.add_argument("--dpi", type=positive_float, default=None, metavar="N",
                   help="PNG resolution, recorded in the file (default 300 for a page, 96 on screen)")
    p.add_argument("--timeout", type=positive_float, default=60.0, metavar="S", help="seconds to solve for --solution")
    p.add_argument("--force", action="store_true", help="overwrite FILE")
    p.add_argument("--json", action="store_true", help="print what was written as one JSON line")
    p.set_defaults(run=run_render)


def valid_goal(puzzle: Puzzle | Puzzle3D) -> Optional[np.ndarray]:
    """The goal stored in the file when it meets the clues (a goal that does not is no answer)."""
    meets = satisfies_3d if isinstance(puzzle, Puzzle3D) else satisfies
    if puzzle.goal is not None and meets(puzzle, puzzle.goal):
        return np.asarray(puzzle.goal)
    return None


def _solution(puzzle: Puzzle | Puzzle3D, timeout: float) -> tuple[np.ndarray, str]:
    """The grid (or box) to draw and a note: the stored goal when it meets the clues, else the solver's answer."""
    goal = valid_goal(puzzle)
    if goal is not None:
        return goal, ""
    result = verify(puzzle, timeout=timeout)
    if result.status == "unsolvable":
        raise PuzzleError(f"the puzzle has no solution ({result.message or 'clues contradict'})")
    if result.solution is None:
        raise PuzzleError(f"no solution found within {timeout:g} s (try a larger --timeout)")
    note = "the puzzle has more than one solution; drawing one of them" if result.status == "multiple" else ""
    return result.solution, note


def _picture(puzzle: Puzzle | Puzzle3D, solution: np.ndarray | None, cell: float, args: argparse.Namespace,
             legend: bool) -> tuple[Picture, str]:
    """What to draw, and how to describe the puzzle in the summary line."""
    if isinstance(puzzle, Puzzle3D):
        if solution is None:
            title = str(puzzle.meta.get("title", "")) if args.title is None else args.title
            picture = iso3d.sheet_picture(puzzle, cell=cell, title=title, caption=args.caption, legend=legend)
        else:
            picture = iso3d.solution_picture(solution, iso3d.cube_colors(puzzle, solution), cube=cell)
        return picture, "{}x{}x{} Picross 3D level".format(*puzzle.size)
    picture = sheet2d.sheet_picture(puzzle, solution, cell, title=args.title, caption=args.caption, legend=legend)
    return picture, f"{puzzle.width}x{puzzle.height} puzzle"


def _check_options(args: argparse.Namespace, suffix: str) -> bool:
    """Whether this is a print request; refuses option mixes that would be silently ignored."""
    if suffix not in SUFFIXES:
        raise InputError(f"{args.output}: the output must end in .svg, .png, .pdf or .html")
    printing = suffix == ".pdf" or args.paper is not None
    if printing and args.cell is not None:
        raise InputError("--cell sets screen pixels; a page is sized by --paper and --margin")
    if not printing and args.margin is not None:
        raise InputError("--margin is for pages: add --paper a4 or write a .pdf")
    if args.cell is not None and not 4 <= args.cell <= 200:
        raise InputError(f"--cell {args.cell}: expected 4 to 200 pixels")
    if args.dpi is not None and suffix != ".png":
        raise InputError("--dpi is for .png files")
    if args.dpi is not None and not 10 <= args.dpi <= 2400:
        raise InputError(f"--dpi {args.dpi:g}: expected 10 to 2400")
    return printing


def _print_page(picture: Picture, cell: float, args: argparse.Namespace) -> SheetPage:
    margin = parse_length(args.margin) if args.margin is not None else 15.0
    try:
        return sheet_page(picture, paper_named(args.paper or "a4"), margin, cell)
    except LimitError as exc:
        raise LimitError(f"{args.puzzle}: {exc}") from None


def _run_page(args: argparse.Namespace, out: Path) -> int:
    """A playable page: the puzzle with its answer inside (for Check and Reveal)."""
    from ..export.html import page_2d, page_3d
    from ..files import write_file

    if args.paper or args.margin or args.cell or args.dpi or args.solution:
        raise InputError("a playable page takes no --paper, --margin, --cell, --dpi or --solution")
    puzzle = formats.load(args.puzzle, args.format)
    solution, note = _solution(puzzle, args.timeout)
    check_output_file(out, args.force)
    if isinstance(puzzle, Puzzle3D):
        colors = iso3d.cube_colors(puzzle, solution)
        page, what = page_3d(puzzle, solution, colors, title=args.title), "{}x{}x{} Picross 3D level".format(*puzzle.size)
    else:
        page, what = page_2d(puzzle, solution, title=args.title), f"{puzzle.width}x{puzzle.height} puzzle"
    write_file(out, page, force=True)
    if note:
        print(f"nonogen: note: {note}", file=sys.stderr)
    if args.json:
        print_json({"output": str(out), "puzzle": args.puzzle, "page": "playable", "note": note})
    else:
        print(f"{out}: playable page, {what}")
    return 0


def run_render(args: argparse.Namespace) -> int:
    out = Path(args.output)
    suffix = out.suffix.lower()
    if suffix == ".html":
        return _run_page(args, out)
    printing = _check_options(args, suffix)
    puzzle = formats.load(args.puzzle, args.format)
    solution, note = _solution(puzzle, args.timeout) if args.solution else (None, "")
    cell = (CELL_3D if isinstance(puzzle, Puzzle3D) else CELL_2D) if printing else (args.cell or 20)
    picture, what = _picture(puzzle, solution, cell, args, legend=printing)
    check_output_file(out, args.force)
    report = {"output": str(out), "puzzle": args.puzzle, "solution": bool(args.solution), "note": note}
    if printing:
        placed = _print_page(picture, cell, args)
        picture = placed.page
        report.update(paper=placed.paper.name, cell_mm=round(cell * placed.scale / PX_PER_MM, 2),
                      min_text_pt=placed.min_text_pt and round(placed.min_text_pt, 2))
    dpi = args.dpi or (PRINT_DPI if printing else None)
    save(picture, out, dpi=dpi, overwrite=args.force)
    if note:
        print(f"nonogen: note: {note}", file=sys.stderr)
    report.update(width=round(picture.width, 2), height=round(picture.height, 2), dpi=dpi if suffix == ".png" else None,
                  width_mm=round(picture.width / PX_PER_MM, 1), height_mm=round(picture.height / PX_PER_MM, 1))
    if args.json:
        print_json(report)
    else:
        print(_summary(report, what, printing, suffix, bool(args.solution)))
    return 0


def _summary(report: dict, what: str, printing: bool, suffix: str, solution: bool) -> str:
    """One line for people: where, how big, what."""
    tail = what + (" with its solution" if solution else "")
    if printing:
        text = f", smallest text {report['min_text_pt']:g} pt" if report["min_text_pt"] else ""
        return f"{report['output']}: {report['paper']} page, {tail}, cells {report['cell_mm']:g} mm{text}"
    if suffix == ".png":
        size = f"{round(report['width'] * (report['dpi'] or 96) / 96)}x{round(report['height'] * (report['dpi'] or 96) / 96)} px"
    else:
        size = f"{report['width_mm']:g}x{report['height_mm']:g} mm"
    return f"{report['output']}: {size}, {tail}"
