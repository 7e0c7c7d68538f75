"""``nonogen render``: draw any 2D puzzle file as a printable SVG or PNG sheet."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from .. import formats
from ..clues import satisfies
from ..errors import InputError, PuzzleError
from ..model import Puzzle
from ..render.sheet2d import render_png, render_svg, sheet_size
from ..solve import verify
from .common import check_output_file, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="draw a 2D puzzle file as an SVG or PNG sheet (or its solution)")
    p.add_argument("puzzle", metavar="PUZZLE", help="any 2D puzzle file nonogen reads")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="FILE.svg or FILE.png")
    p.add_argument("--solution", action="store_true", help="draw the solution (the file's goal, else solved)")
    p.add_argument("--format", default=None, metavar="FORMAT", help="read the puzzle in this format")
    p.add_argument("--cell", type=int, default=20, metavar="PX", help="cell size in pixels (default 20)")
    p.add_argument("--timeout", type=float, default=60.0, metavar="S", help="seconds to solve for --solution")
    p.add_argument("--force", action="store_true", help="overwrite FILE")
    p.add_argument("--json", action="store_true", help="print what was written as one JSON line")
    p.set_defaults(run=run_render)


def _solution(puzzle: Puzzle, timeout: float) -> tuple[np.ndarray, str]:
    """The grid to draw and a note: the stored goal when it meets the clues, else the solver's answer."""
    if puzzle.goal is not None and satisfies(puzzle, puzzle.goal):
        return np.asarray(puzzle.goal), ""
    result = verify(puzzle, timeout=timeout)
    if result.status == "unsolvable":
        raise PuzzleError(f"the puzzle has no solution ({result.message or 'clues contradict'})")
    if result.solution is None:
        raise PuzzleError(f"no solution found within {timeout:g} s (try a larger --timeout)")
    note = "the puzzle has more than one solution; drawing one of them" if result.status == "multiple" else ""
    return result.solution, note


def run_render(args: argparse.Namespace) -> int:
    out = Path(args.output)
    suffix = out.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise InputError(f"{out}: the output must end in .svg or .png")
    if not 4 <= args.cell <= 200:
        raise InputError(f"--cell {args.cell}: expected 4 to 200 pixels")
    puzzle = formats.load(args.puzzle, args.format)
    if not isinstance(puzzle, Puzzle):
        raise PuzzleError(f"{args.puzzle}: render draws 2D nonograms; this is a Picross 3D level")
    solution, note = _solution(puzzle, args.timeout) if args.solution else (None, "")
    check_output_file(out, args.force)
    if suffix == ".svg":
        out.write_text(render_svg(puzzle, solution, cell=args.cell), encoding="utf-8")
    else:
        render_png(puzzle, solution, cell=args.cell).save(out)
    if note:
        print(f"nonogen: note: {note}", file=sys.stderr)
    width, height = sheet_size(puzzle, args.cell)
    if args.json:
        print_json({"output": str(out), "puzzle": args.puzzle, "solution": bool(args.solution),
                    "width": width, "height": height, "note": note})
    else:
        print(f"{out}: {width}x{height} px, {puzzle.width}x{puzzle.height} puzzle"
              + (" with its solution" if args.solution else ""))
    return 0
