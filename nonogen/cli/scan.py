"""``nonogen scan``: pictures and PDFs of puzzles read back into puzzle files, each verified at once.

Each grid on each page becomes a puzzle: its size and every row and column
clue, each clue with a confidence (a PDF's text layer is read exactly; a
picture's digits by a reader trained on this machine's fonts). The puzzle is
verified as ``nonogen verify`` would (unique, multiple, unsolvable, timeout)
and, when it has no solution or a clue is uncertain, the clues most likely
misread are named. Sheets and screenshots from nonogen and other programs,
colour clues included, and phone photos of printed pages are read.
"""
from __future__ import annotations

import argparse
import sys

from ..errors import NonogenError
from ..output.scans import save_scans
from ..scanning import ILLEGIBLE, MOST_SUSPECTS, scan, scan_files, scan_record
from . import summary
from .common import EXIT_CODES, EXIT_HELP, combine, exit_flag, positive_float, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("scan", help=summary("scan"), epilog=EXIT_HELP,
                       description=__doc__.split("\n\n", 1)[1].replace("``", ""),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="+", metavar="FILE",
                   help="PNG, JPEG, WebP or PDF files, or folders of them (searched recursively)")
    p.add_argument("-o", "--output", metavar="OUT", default=None,
                   help="write the puzzles: OUT.json (or another format's suffix) for one puzzle, else a folder "
                   "with one file per puzzle")
    p.add_argument("--format", default=None, metavar="FORMAT",
                   help="write in this format (default: nonogen JSON, or the suffix of OUT)")
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle on stdout (JSON Lines)")
    p.add_argument("--timeout", type=positive_float, default=60.0, metavar="S", help="seconds per puzzle (default 60)")
    p.add_argument("--no-verify", action="store_true", help="only read the puzzles")
    p.add_argument("--force", action="store_true", help="replace existing output files")
    p.set_defaults(run=run_scan)


def _line(record: dict) -> str:
    """One line for people: where the puzzle was, its size, how it was read, the verdict, and the written file."""
    verdict = record["status"]
    if record.get("grade"):
        verdict += f", grade {record['grade']}"
    read = "text layer" if record["read_from"] == "text" else f"pixels, least confidence {record['confidence']:.2f}"
    written = f" -> {record['output']}" if record.get("output") else ""
    return f"{record['file']}: {record['width']}x{record['height']} ({read}): {verdict}{written}"


def run_scan(args: argparse.Namespace) -> int:
    code = 0
    found = []
    for path in scan_files(args.paths):
        try:
            found.extend(scan(path, verify=not args.no_verify, timeout=args.timeout))
        except NonogenError as exc:
            print(f"nonogen: error: {exc}", file=sys.stderr)
            code = combine(code, EXIT_CODES["error"])
    written = save_scans(found, args.output, format=args.format, force=args.force) if args.output and found else []
    for k, item in enumerate(found):
        record = scan_record(item)
        if written:
            record["output"] = str(written[k])
        code = combine(code, 0 if args.no_verify else exit_flag(record))
        if args.json:
            print_json(record)
            continue
        print(_line(record))
        if not record["legible"]:
            print(f"  {ILLEGIBLE}: every line is named; a sharper photo, taken closer, reads better")
        for suspect in record["suspects"][:MOST_SUSPECTS]:
            print(f"  check {suspect['line']} {suspect['clue']} (confidence {suspect['confidence']:.2f}): "
                  f"{suspect['why']}")
        rest = [suspect["line"] for suspect in record["suspects"][MOST_SUSPECTS:]]
        if rest:
            print(f"  and {len(rest)} more lines to check, least sure first: {', '.join(rest)}")
    if not found and code == 0:
        print("nonogen: error: no pictures or PDFs to scan", file=sys.stderr)
        code = EXIT_CODES["error"]
    return code
