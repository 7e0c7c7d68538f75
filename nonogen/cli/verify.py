"""``nonogen verify``, ``nonogen solve`` and ``nonogen clues``: the verifier on the command line."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .. import formats
from ..batch import verify_paths
from ..clues import puzzle_from_grid
from ..errors import FormatError
from ..files import write_file
from ..formats.grid import grid_from_text
from .common import EXIT_CODES, ProgressBar, check_output_file, positive_float, positive_int, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("verify", help="check puzzle files for a unique solution")
    p.add_argument("paths", nargs="+", metavar="PATH", help="puzzle files or folders (searched recursively)")
    _common_options(p)
    p.add_argument("--jobs", type=positive_int, default=1, metavar="N", help="verify on N processes (default 1)")
    p.add_argument("--solutions-dir", metavar="DIR", help="also write each solution as text into DIR")
    p.add_argument("--force", action="store_true", help="overwrite solution files in --solutions-dir")
    p.set_defaults(run=run_verify)

    p = sub.add_parser("solve", help="print the solution of a puzzle file")
    p.add_argument("paths", nargs=1, metavar="PATH")
    _common_options(p)
    p.set_defaults(run=run_solve, jobs=1, solutions_dir=None, force=False)

    p = sub.add_parser("clues", help="derive the clues of a goal grid (text: '.' empty, '#' filled)")
    p.add_argument("grid", metavar="GRIDFILE", help="rows of characters; '.', '0' or ' ' = background")
    p.add_argument("-o", "--output", metavar="FILE", help="write the puzzle here (format from the suffix)")
    p.add_argument("--to", default=None, metavar="FORMAT", help="output format (default: .non text on stdout)")
    p.add_argument("--force", action="store_true", help="overwrite --output")
    p.set_defaults(run=run_clues)


def _common_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle on stdout (JSON Lines)")
    p.add_argument("--timeout", type=positive_float, default=60.0, metavar="S", help="seconds per puzzle (default 60)")
    p.add_argument("--format", default=None, metavar="FORMAT", help="read files in this format")
    p.add_argument("--no-probe", action="store_true", help="go from line logic straight to SAT (no probing)")
    p.add_argument(
        "--no-ambiguity",
        action="store_true",
        help="for puzzles with several solutions, list only the cells where the two reported solutions differ",
    )


def _records(args, bar: ProgressBar):
    return verify_paths(
        args.paths,
        jobs=args.jobs,
        timeout=args.timeout,
        strategy="line" if args.no_probe else "full",
        ambiguity=not args.no_ambiguity,
        format=args.format,
        on_progress=bar,
    )


def run_verify(args) -> int:
    worst = 0
    counts: dict[str, int] = {}
    start = time.monotonic()
    out_dir = Path(args.solutions_dir) if args.solutions_dir else None
    bar = ProgressBar("verify")
    for record in _records(args, bar):
        bar.clear()
        worst = max(worst, EXIT_CODES[record["status"]])
        counts[record["status"]] = counts.get(record["status"], 0) + 1
        if out_dir is not None and record.get("solution") is not None:
            _write_solution(out_dir, record, args.force)
        if args.json:
            print_json(record)
        else:
            _print_row(record)
    if not args.json:
        summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
        print(f"{sum(counts.values())} puzzles: {summary} ({time.monotonic() - start:.2f} s)")
    return worst


def _print_row(record: dict) -> None:
    size = record.get("size") or [record.get("width", "?"), record.get("height", "?")]
    size_text = "x".join(map(str, size)) if "width" in record or "size" in record else ""
    extra = record.get("message", "")
    if record["status"] == "multiple":
        count = len(record["ambiguous_cells"])
        extra = f"{count} ambiguous cells" if record["ambiguous_complete"] else f"at least {count} ambiguous cells"
    print(
        f"{record['file']:<48} {record['status']:<10} {size_text:>9} "
        f"{record.get('difficulty') or '-':<7} {record.get('seconds', 0):8.3f}s  {extra}".rstrip(),
        flush=True,
    )


def _write_solution(out_dir: Path, record: dict, force: bool) -> None:
    name = record["file"].replace("#", "-")
    target = out_dir / (Path(name).name + ".solution.txt")
    solution = record["solution"]
    text = solution + "\n" if isinstance(solution, str) else "\n".join(solution) + "\n"
    if record.get("second_solution") is not None:
        second = record["second_solution"]
        text += "\n# another solution:\n" + (second + "\n" if isinstance(second, str) else "\n".join(second) + "\n")
    write_file(target, text, force)


def run_solve(args) -> int:
    records = list(_records(args, ProgressBar("solve")))
    for record in records:
        if args.json:
            print_json(record)
            continue
        if record["status"] == "error":
            print(f"nonogen: error: {record['message']}", file=sys.stderr)
            continue
        if record.get("solution") is None:
            print(f"{record['file']}: {record['status']} {record.get('message', '')}".rstrip(), file=sys.stderr)
            continue
        solution = record["solution"]
        print(solution if isinstance(solution, str) else "\n".join(solution))
        if record["status"] != "unique":
            print(f"{record['file']}: {record['status']}: this is one of several solutions", file=sys.stderr)
    return max(EXIT_CODES[r["status"]] for r in records)


def run_clues(args) -> int:
    path = Path(args.grid)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(f"cannot read the grid: {getattr(exc, 'strerror', None) or exc}", path=str(path)) from None
    grid, palette = grid_from_text(text, str(path))
    puzzle = puzzle_from_grid(grid, palette, title=path.stem)
    if args.output:
        check_output_file(args.output, args.force)
        write_file(args.output, formats.dumps(puzzle, args.to or formats.format_for(args.output)), force=True)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(formats.dumps(puzzle, args.to or "non"))
    return 0
