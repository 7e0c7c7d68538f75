"""``nonogen pack``: solve, verify, count, generate and render polyomino packing levels."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Iterator

from ..errors import InputError, LimitError, NonogenError
from ..pack import count_solutions, solve_level, text, verify_level
from ..pack.generate import GENERATE_TIMEOUT, generate_level
from ..pack.level import Level
from ..output import save_picture
from ..pack.render import level_picture, solution_picture
from ..pack.solve import METHODS, PackResult
from ..files import check_folder, write_folder
from ..render import encode
from . import summary
from .common import (
    EXIT_CODES,
    ProgressBar,
    add_folder_options,
    combine,
    check_output_file,
    parse_size,
    positive_float,
    positive_int,
    print_json,
    progress,
)



def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("pack", help=summary("pack"),
                       description="Solve, verify, count, generate and render polyomino packing levels.")
    cmds = p.add_subparsers(dest="pack_command", metavar="ACTION")
    cmds.required = True

    s = cmds.add_parser("solve", help="print one completion of a level")
    s.add_argument("level", metavar="LEVEL", help="a .pack level file")
    _solver_options(s)
    s.add_argument("--svg", metavar="FILE", help="also draw the solution as SVG")
    s.add_argument("--png", metavar="FILE", help="also draw the solution as PNG")
    s.add_argument("--force", action="store_true", help="overwrite --svg/--png files")
    s.set_defaults(run=run_solve)

    v = cmds.add_parser("verify", help="check levels for exactly one completion")
    v.add_argument("paths", nargs="+", metavar="PATH", help=".pack files or folders (searched recursively)")
    _solver_options(v)
    v.add_argument("--ignore-solution", action="store_true",
                   help="do not use the solution stored in the level; search from scratch")
    v.set_defaults(run=run_verify)

    c = cmds.add_parser("count", help="count the completions of a level (up to a limit or a time limit)")
    c.add_argument("level", metavar="LEVEL")
    _solver_options(c)
    c.add_argument("--limit", type=positive_int, default=None, metavar="N",
                   help="stop after N completions (default: all)")
    c.set_defaults(run=run_count)

    g = cmds.add_parser("generate", help="make a level with a unique completion")
    g.add_argument("--size", default="11x5", metavar="WxH", help="board width x height (default 11x5)")
    g.add_argument("--pieces", type=int, default=12, metavar="K", help="number of pieces (default 12)")
    g.add_argument("--min-size", type=int, default=None, metavar="N", help="smallest piece, in cells")
    g.add_argument("--max-size", type=int, default=None, metavar="N", help="largest piece, in cells")
    g.add_argument("--distinct", action="store_true", help="no two pieces congruent (rotations/reflections)")
    g.add_argument("--classic", action="store_true", help="the 12 IQ Puzzler Pro pieces on their 11x5 board")
    g.add_argument("--seed", type=int, default=0, help="random seed (same seed, same level)")
    g.add_argument("--timeout", type=positive_float, default=GENERATE_TIMEOUT, metavar="S",
                   help=f"seconds the whole generation may take (default {GENERATE_TIMEOUT:g}); it only ends the run: "
                        "the same seed gives the same level on any machine")
    add_folder_options(g)
    g.set_defaults(run=run_generate)

    r = cmds.add_parser("render", help="draw a level (or its solution) as SVG or PNG")
    r.add_argument("level", metavar="LEVEL")
    r.add_argument("-o", "--output", required=True, metavar="FILE", help="FILE.svg or FILE.png")
    r.add_argument("--solution", action="store_true", help="draw the solution (stored, or solved now)")
    r.add_argument("--cell", type=float, default=32, metavar="PX", help="cell size in pixels (default 32)")
    r.add_argument("--force", action="store_true", help="overwrite FILE")
    r.add_argument("--json", action="store_true", help="say what was written as one JSON object")
    r.set_defaults(run=run_render)


def _solver_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--timeout", type=positive_float, default=60.0, metavar="S", help="seconds per level (default 60)")
    p.add_argument("--method", choices=METHODS, default="auto",
                   help="auto (default: exact-cover search, SAT if it takes over 0.25 s), dlx or sat")
    p.add_argument("--json", action="store_true", help="one JSON object per level on stdout (JSON Lines)")


def _record(label: str, level: Level, result: PackResult) -> dict:
    record = {
        "file": label,
        "status": result.status,
        "solution": list(result.solution) if result.solution else None,
        "second_solution": list(result.second_solution) if result.second_solution else None,
        "width": level.width,
        "height": level.height,
        "pieces": len(level.pieces),
        "placed": len(level.placed),
        "method": result.stats.get("method"),
        "seconds": round(result.seconds, 4),
        "message": result.message,
    }
    return record


def _level_files(paths: list[str]) -> Iterator[Path]:
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from sorted(p for p in path.rglob(f"*{text.SUFFIX}") if p.is_file())
        else:
            yield path


def _picture_path(path: str, force: bool) -> Path:
    if Path(path).suffix.lower() not in (".svg", ".png"):
        raise InputError(f"{path}: pictures are written as .svg or .png")
    return check_output_file(path, force)


def run_verify(args) -> int:
    files = list(_level_files(args.paths))
    worst = 0
    counts: dict[str, int] = {}
    start = time.monotonic()
    for path in progress(files, len(files), "verify"):
        try:
            level = text.load(path)
            result = verify_level(level, timeout=args.timeout, method=args.method,
                                  use_solution=not args.ignore_solution)
            record = _record(str(path), level, result)
        except NonogenError as exc:
            record = {"file": str(path), "status": "error", "message": str(exc)}
        worst = combine(worst, EXIT_CODES[record["status"]])
        counts[record["status"]] = counts.get(record["status"], 0) + 1
        if args.json:
            print_json(record)
        else:
            size = f"{record['width']}x{record['height']}" if "width" in record else ""
            print(f"{record['file']:<40} {record['status']:<10} {size:>6} {record.get('seconds', 0):8.3f}s  "
                  f"{record.get('message', '')}".rstrip(), flush=True)
    if not args.json:
        summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
        print(f"{sum(counts.values())} levels: {summary} ({time.monotonic() - start:.2f} s)")
    return worst


def run_solve(args) -> int:
    level = text.load(args.level)
    result = solve_level(level, timeout=args.timeout, method=args.method)
    if result.solution is not None:
        for path in (args.svg, args.png):
            if path:
                save_picture(solution_picture(level, result.solution), _picture_path(path, args.force), force=True)
    if args.json:
        print_json(_record(args.level, level, result))
    elif result.solution is not None:
        print("\n".join(result.solution))
    else:
        print(f"{args.level}: {result.status}: {result.message}", file=sys.stderr)
    return EXIT_CODES[result.status]


def run_count(args) -> int:
    level = text.load(args.level)
    if args.limit is not None and args.limit < 1:
        raise LimitError("--limit must be at least 1")
    last = [0.0]
    bar = ProgressBar("count")

    def on_progress(count: int, nodes: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.5:
            last[0] = now
            bar.status(f"{count} completions, {nodes} nodes")

    try:
        result = count_solutions(level, limit=args.limit, timeout=args.timeout, method=args.method,
                                 on_progress=on_progress)
    finally:
        bar.clear()
    if args.json:
        record = _record(args.level, level, result)
        record.update(count=result.count, complete=result.complete)
        print_json(record)
    else:
        print(f"{args.level}: {result.message} ({result.seconds:.2f} s)")
    return EXIT_CODES[result.status]


def run_generate(args) -> int:
    width, height = (11, 5) if args.classic else parse_size(args.size, max_side=64)
    check_folder(args.output, args.force)  # fails fast, before the work

    bar = ProgressBar("generate")
    try:
        level, report = generate_level(width, height, args.pieces, seed=args.seed, min_size=args.min_size,
                                       max_size=args.max_size, distinct=args.distinct, classic=args.classic,
                                       timeout=args.timeout, on_step=bar.status)
    finally:
        bar.clear()
    check = verify_level(level, timeout=60.0)  # the generator proved it; this re-checks independently of it
    assert level.solution is not None  # a generated level comes with its solution
    files: dict[str, str | bytes] = {"level.pack": text.dumps(level), "solution.txt": "\n".join(level.solution) + "\n"}
    for stem, picture in (("level", level_picture(level)), ("solution", solution_picture(level, level.solution))):
        files[f"{stem}.svg"] = encode(picture, ".svg")
        files[f"{stem}.png"] = encode(picture, ".png")
    out = write_folder(args.output, files, args.force)
    summary = {
        "file": str(out / "level.pack"),
        "status": check.status,
        "width": level.width,
        "height": level.height,
        "pieces": len(level.pieces),
        "placed": len(level.placed),
        "seed": args.seed,
        "checks": report.checks,
        "checks_undecided": report.undecided,
        "seconds": round(report.seconds["total"], 3),
        "verify_seconds": round(check.seconds, 4),
    }
    if args.json:
        print_json(summary)
    else:
        print("\n".join(level.rows()))
        print(f"{out}: {level.width}x{level.height}, {len(level.pieces)} pieces, {len(level.placed)} pre-placed, "
              f"{check.status} ({report.seconds['total']:.2f} s, {report.checks} checks)")
    return EXIT_CODES[check.status]


def run_render(args) -> int:
    level = text.load(args.level)
    target = _picture_path(args.output, args.force)
    if args.solution:
        rows = level.solution
        if rows is None:
            result = solve_level(level, timeout=60.0)
            if result.solution is None:
                print(f"{args.level}: {result.status}: {result.message}", file=sys.stderr)
                return EXIT_CODES[result.status]
            rows = result.solution
        picture = solution_picture(level, rows, cell=args.cell)
    else:
        picture = level_picture(level, cell=args.cell)
    save_picture(picture, target, force=True)
    what = "solution" if args.solution else "board"
    if args.json:
        print_json({"file": args.level, "output": str(target), "picture": what,
                    "width": picture.width, "height": picture.height})
    else:
        print(f"{target}: the {what} of {args.level}, {level.width}x{level.height} cells "
              f"({picture.width:g}x{picture.height:g} px)")
    return 0
