"""``nonogen site``: a collection's puzzles and levels as a web site people play on their phones, offline too.

Takes a collection folder or a selection file from the gallery page, and writes SITE/index.html
(every puzzle and level, easiest first, with filters and a Continue button), a play page for each
(SITE/puzzles/, SITE/levels/), a web app manifest, a service worker and icons. Every link is
relative: open index.html from the disk, or copy the folder to any static web host, where the site
can be installed on a phone and played offline. What a player solved or started is kept in their browser.
"""
from __future__ import annotations

import argparse
import sys

from ..output.site import KINDS, site
from . import summary
from .common import ProgressBar, grade_range, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("site", help=summary("site"), description=__doc__.split("\n\n", 1)[1].replace("\n", " "))
    p.add_argument("source", metavar="COLLECTION|SELECTION", help="a collection folder or a selection.json")
    p.add_argument("-o", "--output", required=True, metavar="SITE", help="the folder to write the site into")
    p.add_argument("--grade", type=grade_range, default=None, metavar="N|LOW-HIGH",
                   help="only puzzles of this grade or range (1 very easy to 5 very hard), e.g. 2 or 1-3")
    p.add_argument("--kind", choices=tuple(KINDS), default="all",
                   help="2d: only the nonograms; 3d: only the Picross 3D levels; all (default): both")
    p.add_argument("--title", default=None, metavar="TEXT", help="the site's name (default: the collection's name)")
    p.add_argument("--force", action="store_true", help="replace an existing site")
    p.add_argument("--json", action="store_true", help="print what was written as one JSON line")
    p.set_defaults(run=run_site)


def run_site(args: argparse.Namespace) -> int:
    bar = ProgressBar("site")
    try:
        written = site(args.source, args.output, title=args.title, grades=args.grade, kind=args.kind,
                       force=args.force, on_progress=bar)
    finally:
        bar.clear()
    for warning in written["warnings"]:
        print(f"nonogen: warning: {warning}", file=sys.stderr)
    if args.json:
        print_json(written)
    else:
        counts = [f"{n} {noun}{'s' if n != 1 else ''}" for n, noun in
                  ((len(written["puzzles"]), "puzzle"), (len(written["levels"]), "level")) if n]
        print(f"{written['index']}: {' and '.join(counts)}, easiest first (open it in a browser, or copy the folder "
              "to a web host to play it on a phone, offline too)")
    return 0
