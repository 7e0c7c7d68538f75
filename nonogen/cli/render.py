"""``nonogen render``: draw any puzzle file as a printable SVG or PNG sheet, or its solution.

A 2D nonogram becomes its clue sheet; a Picross 3D level becomes the three
clue faces of its box, or with ``--solution`` the isometric picture of the
solved cubes.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from .. import formats
from ..clues import satisfies, satisfies_3d
from ..errors import InputError, PuzzleError
from ..model import Puzzle, Puzzle3D
from ..render import iso3d, sheet2d
from ..render.canvas import Picture, to_png, to_svg
from ..solve import verify
from .common import check_output_file, positive_float, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="draw a puzzle file (2D or Picross 3D) as an SVG or PNG sheet (or its solution)")
    p.add_argument("puzzle", metavar="PUZZLE", help="any puzzle file nonogen reads")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="FILE.svg or FILE.png")
    p.add_argument("--solution", action="store_true", help="draw the solution (the file's goal, else solved)")
    p.add_argument("--format", default=None, metavar="FORMAT", help="read the puzzle in this format")
    p.add_argument("--cell", type=int, default=20, metavar="PX", help="cell (or cube) size in pixels (default 20)")
    p.add_argument("--timeout", type=positive_float, default=60.0, metavar="S", help="seconds to solve for --solution")
    p.add_argument("--force", action="store_true", help="overwrite FILE")
    p.add_argument("--json", action="store_true", help="print what was written as one JSON line")
    p.set_defaults(run=run_render)


def _solution(puzzle: Puzzle | Puzzle3D, timeout: float) -> tuple[np.ndarray, str]:
    """The grid (or box) to draw and a note: the stored goal when it meets the clues, else the solver's answer."""
    meets = satisfies_3d if isinstance(puzzle, Puzzle3D) else satisfies
    if puzzle.goal is not None and meets(puzzle, puzzle.goal):
        return np.asarray(puzzle.goal), ""
    result = verify(puzzle, timeout=timeout)
    if result.status == "unsolvable":
        raise PuzzleError(f"the puzzle has no solution ({result.message or 'clues contradict'})")
    if result.solution is None:
        raise PuzzleError(f"no solution found within {timeout:g} s (try a larger --timeout)")
    note = "the puzzle has more than one solution; drawing one of them" if result.status == "multiple" else ""
    return result.solution, note


def _picture(puzzle: Puzzle | Puzzle3D, solution: np.ndarray | None, cell: int) -> tuple[Picture, str]:
    """What to draw, and how to describe the puzzle in the summary line."""
    if isinstance(puzzle, Puzzle3D):
        if solution is None:
            picture = iso3d.sheet_picture(puzzle, cell=cell, title=str(puzzle.meta.get("title", "")))
        else:
            picture = iso3d.solution_picture(solution, cube=cell)
        return picture, "{}x{}x{} Picross 3D level".format(*puzzle.size)
    return sheet2d.sheet_picture(puzzle, solution, cell), f"{puzzle.width}x{puzzle.height} puzzle"


def run_render(args: argparse.Namespace) -> int:
    out = Path(args.output)
    suffix = out.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise InputError(f"{out}: the output must end in .svg or .png")
    if not 4 <= args.cell <= 200:
        raise InputError(f"--cell {args.cell}: expected 4 to 200 pixels")
    puzzle = formats.load(args.puzzle, args.format)
    solution, note = _solution(puzzle, args.timeout) if args.solution else (None, "")
    picture, what = _picture(puzzle, solution, args.cell)
    check_output_file(out, args.force)
    if suffix == ".svg":
        out.write_text(to_svg(picture), encoding="utf-8")
    else:  # isometric cube edges are diagonal: draw them twice as large and reduce
        to_png(picture, supersample=2 if isinstance(puzzle, Puzzle3D) else 1).save(out)
    if note:
        print(f"nonogen: note: {note}", file=sys.stderr)
    width, height = round(picture.width), round(picture.height)
    if args.json:
        print_json({"output": str(out), "puzzle": args.puzzle, "solution": bool(args.solution),
                    "width": width, "height": height, "note": note})
    else:
        print(f"{out}: {width}x{height} px, {what}" + (" with its solution" if args.solution else ""))
    return 0
