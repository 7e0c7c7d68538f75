"""``nonogen solve``: one puzzle file's solution, as rows of characters (a Picross 3D level layer by layer)."""
from __future__ import annotations

import argparse
import sys

from . import summary
from .common import EXIT_HELP, ProgressBar, combine, exit_flag, print_json
from .verify import records, verify_options


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solve", help=summary("solve"), epilog=EXIT_HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs=1, metavar="PATH", help="puzzle file; '-' = standard input")
    verify_options(p)
    p.set_defaults(run=run_solve, jobs=None, executor=None, scheduler=None, resume=None, dedupe=False)


def run_solve(args) -> int:
    code = 0
    bar = ProgressBar("solve")
    for record in records(args, bar):
        bar.clear()
        code = combine(code, exit_flag(record))
        if args.json:
            print_json(record)
        elif record["status"] in ("error", "skipped"):
            print(f"nonogen: {record['status']}: {record['message']}", file=sys.stderr)
        elif record.get("solution") is None:
            print(f"{record['file']}: {record['status']} {record.get('message', '')}".rstrip(), file=sys.stderr)
        else:
            solution = record["solution"]
            sys.stdout.write(layers_text(solution, record["size"]) if "size" in record else "\n".join(solution) + "\n")
            if record["status"] != "unique":
                print(f"{record['file']}: {record['status']}: this is one of several solutions", file=sys.stderr)
    return code


def layers_text(goal: str, size: list[int]) -> str:
    """A Picross 3D solution (the record's X·Y·Z string, x slowest) as one block per layer, for people.

    Blocks go from the top layer (y = 0) down; each is the layer seen from
    above, the back (z = Z-1) in its first row and the front in its last, x
    to the right, so a block looks like the model's slice.

    >>> print(layers_text("10" + "01" + "00" + "11", [2, 2, 2]), end="")
    y=0 (top)
    ..
    #.
    <BLANKLINE>
    y=1
    ##
    .#
    """
    X, Y, Z = size
    cell = lambda x, y, z: "#" if goal[(x * Y + y) * Z + z] == "1" else "."  # noqa: E731
    blocks = []
    for y in range(Y):
        rows = ["".join(cell(x, y, z) for x in range(X)) for z in reversed(range(Z))]
        blocks.append("\n".join([f"y={y}" + (" (top)" if y == 0 else "")] + rows))
    return "\n\n".join(blocks) + "\n"
