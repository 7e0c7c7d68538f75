"""``nonogen convert IN OUT``: rewrite puzzles in another file format, saying what the target cannot hold."""
from __future__ import annotations

import argparse
import sys
from collections import Counter

from .. import formats
from ..files import write_file
from ..model import Puzzle3D
from .common import check_output_file, print_json


def register(subparsers) -> None:
    names = ", ".join(formats.FORMATS)
    p = subparsers.add_parser(
        "convert",
        help="convert puzzles between file formats",
        description=f"Convert puzzle files between formats ({names}). The format comes from the suffix "
        "(.non .nonpack .cnon .xml .pbn .nin .g .json .txt) or the content; --from/--to override it.",
    )
    p.add_argument("input", help="puzzle file to read")
    p.add_argument("output", help="file to write")
    p.add_argument("--from", dest="from_format", metavar="FMT", help="format of INPUT (default: guess)")
    p.add_argument("--to", dest="to_format", metavar="FMT", help="format of OUTPUT (default: from its suffix)")
    p.add_argument("--solutions", metavar="FILE", help="TAAI solution file: attach each solution as the goal")
    p.add_argument("--force", action="store_true", help="overwrite OUTPUT if it exists")
    p.add_argument("--json", action="store_true", help="print a JSON summary on stdout")
    p.set_defaults(run=run)


def _dropped(puzzles, fmt: str) -> list[str]:
    """Dropped pieces over all puzzles, each once, with how many puzzles lost it when there are several."""
    counts = Counter(item for p in puzzles for item in dict.fromkeys(formats.dropped(p, fmt)))
    if len(puzzles) == 1:
        return list(counts)
    return [f"{item} (in {n} of {len(puzzles)} puzzles)" for item, n in counts.items()]


def run(args: argparse.Namespace) -> int:
    check_output_file(args.output, args.force)
    puzzles = formats.load_all(args.input, args.from_format)
    if args.solutions:
        from ..formats import taai

        puzzles = taai.attach_solutions(puzzles, taai.loads_solutions(formats.read_text(args.solutions)))
    like = args.from_format or formats.format_for(args.input, formats.read_text(args.input))
    if isinstance(puzzles[0], Puzzle3D) and like != "nonogen-3d":
        like = "nonogen-3d"
    target = args.to_format or formats.format_for(args.output, like=like)
    text = formats.dumps_all(puzzles, target)
    lost = _dropped(puzzles, target)
    write_file(args.output, text, args.force)
    for item in lost:
        print(f"nonogen: warning: {args.output} ({target}) cannot hold: {item}", file=sys.stderr)
    if args.json:
        print_json({"input": args.input, "output": args.output, "format": target,
                    "puzzles": len(puzzles), "dropped": lost})
    return 0
