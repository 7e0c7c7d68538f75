"""``nonogen gallery``: one page to compare a collection's puzzles side by side, and select some for a book or pack.

Writes OUT/gallery.html (open it in a browser: no server needed), OUT/contact-sheet.png
(every solution in one grid) and OUT/gallery.thumbs/ (the source pictures, small). The page
filters by grade and warning, sorts, and downloads the ticked puzzles as selection.json,
which `nonogen book` and `nonogen levelpack` take. A source picture that cannot be shown (too
big, unreadable) gets a placeholder and a warning on stderr; the gallery is made all the same.
"""
from __future__ import annotations

import argparse
import sys

from ..output.gallery import gallery
from . import summary
from .common import ProgressBar, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("gallery", help=summary("gallery"), description=__doc__.split("\n\n", 1)[1].replace("\n", " "))
    p.add_argument("collection", metavar="OUT", help="a collection folder (sub-folders made by nonogen image/mesh)")
    p.add_argument("--title", default=None, metavar="TEXT", help="the page's heading (default: the folder's name)")
    p.add_argument("--force", action="store_true", help="replace an existing gallery.html and contact-sheet.png")
    p.add_argument("--json", action="store_true", help="print what was written as one JSON line")
    p.set_defaults(run=run_gallery)


def run_gallery(args: argparse.Namespace) -> int:
    bar = ProgressBar("gallery")
    try:
        written = gallery(args.collection, title=args.title, force=args.force, on_progress=bar)
    finally:
        bar.clear()
    for warning in written["warnings"]:
        print(f"nonogen: warning: {warning}", file=sys.stderr)
    if args.json:
        print_json(written)
    else:
        failed = f", {written['not_made']} not made" if written["not_made"] else ""
        sheet = f" and {written['contact_sheet']}" if written["contact_sheet"] else ""
        print(f"{written['gallery']}{sheet}: {written['puzzles']} puzzles{failed} (open the page in a browser)")
    return 0
