"""``nonogen clues``: the puzzle of a grid drawn in characters ('.' empty, '#' filled, other characters colours)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import formats
from ..clues import puzzle_from_grid
from ..errors import FormatError, InputError, UnknownFormatError
from ..formats.grid import grid_from_text
from . import summary
from .common import STDIO, read_stdin


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("clues", help=summary("clues"))
    p.add_argument("grid", metavar="GRIDFILE", help="rows of characters; '.', '0' or ' ' = background; '-' = stdin")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the puzzle here (format from the suffix; '-' = stdout)")
    p.add_argument("--to", default=None, metavar="FORMAT", help="output format (default: .non text on stdout)")
    p.add_argument("--force", action="store_true", help="overwrite --output")
    p.set_defaults(run=run_clues)


def run_clues(args) -> int:
    text, name = _grid_text(args.grid)
    grid, palette = grid_from_text(text, name)
    colours = [c.char for c in palette[1:] if c.name.startswith("color-")]  # not black, not an emoji square's colour
    if colours:
        _refuse_puzzle_files(text, name)
        print(f"nonogen: warning: {name}: {len(colours)} character(s) became colours: {' '.join(colours)} "
              "(draw with '.' and '#' for black and white)", file=sys.stderr)
    title = "stdin" if args.grid == STDIO else Path(args.grid).stem
    puzzle = puzzle_from_grid(grid, palette, title=title)
    if args.output and args.output != STDIO:
        formats.dump(puzzle, args.output, args.to, force=args.force)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(formats.dumps(puzzle, args.to or "non"))
    return 0


def _grid_text(name: str) -> tuple[str, str]:
    if name == STDIO:
        return read_stdin(), "<stdin>"
    path = Path(name)
    try:
        return path.read_text(encoding="utf-8"), str(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(f"cannot read the grid: {getattr(exc, 'strerror', None) or exc}", path=str(path)) from None


def _refuse_puzzle_files(text: str, name: str) -> None:
    """A puzzle file given to ``clues`` would become a picture of its own text; say what it is instead."""
    try:
        found = formats.sniff(text)
    except UnknownFormatError:
        return
    if found == "char-grid":  # a picture is what clues reads
        return
    raise InputError(f"{name} is a puzzle file ({found}), not a grid drawn in characters; "
                     "verify or solve it with 'nonogen verify' or 'nonogen solve'")
