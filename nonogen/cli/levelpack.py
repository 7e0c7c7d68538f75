"""``nonogen levelpack``: a collection's Picross 3D levels as one folder for a game, easiest first.

Takes a collection folder (its levels) or a selection file from the gallery page, and writes
PACK/manifest.json (levels by grade: name, title, grade, size, files) and PACK/levels/<name>/
with level.json, level.glb and preview.png. The manifest follows levelpack.schema.json; every
level.json is checked by the level schema.
"""
from __future__ import annotations

import argparse

from ..output.levelpack import level_pack
from . import summary
from .common import grade_range, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("levelpack", help=summary("levelpack"),
                       description=__doc__.split("\n\n", 1)[1].replace("\n", " "))
    p.add_argument("source", metavar="COLLECTION|SELECTION", help="a collection folder or a selection.json")
    p.add_argument("-o", "--output", required=True, metavar="PACK", help="the folder to write the pack into")
    p.add_argument("--grade", type=grade_range, default=None, metavar="N|LOW-HIGH",
                   help="only levels of this grade or range (1 very easy to 5 very hard), e.g. 2 or 1-3")
    p.add_argument("--title", default=None, metavar="TEXT", help="the pack's title (default: the collection's name)")
    p.add_argument("--force", action="store_true", help="replace an existing pack")
    p.add_argument("--json", action="store_true", help="print what was written as one JSON line")
    p.set_defaults(run=run_levelpack)


def run_levelpack(args: argparse.Namespace) -> int:
    written = level_pack(args.source, args.output, grades=args.grade, title=args.title, force=args.force)
    if args.json:
        print_json(written)
    else:
        count = len(written["levels"])
        grades = sorted({g for g in written["grades"] if g is not None})
        span = f", grades {grades[0]}-{grades[-1]}" if len(grades) > 1 else f", grade {grades[0]}" if grades else ""
        print(f"{written['manifest']}: {count} level{'s' if count != 1 else ''}{span}, easiest first")
    return 0
