"""``nonogen verify``, ``nonogen solve`` and ``nonogen clues``: the verifier on the command line."""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Iterator, Optional

import numpy as np

from .. import formats
from ..clues import puzzle_from_grid
from ..errors import FormatError, InputError, NonogenError
from ..model import Color, Puzzle, Puzzle3D
from ..palette import distinct_colors
from ..solve import ambiguity, verify
from .common import check_output_file, positive_float, positive_int, print_json, progress

# Exit codes: the worst outcome over the batch wins.
EXIT = {"unique": 0, "multiple": 1, "unsolvable": 1, "error": 2, "timeout": 3}


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


# -- collecting work -----------------------------------------------------------------------------


def puzzle_files(paths: list[str]) -> Iterator[Path]:
    """Files named directly, and files in folders (recursively) that look like puzzles."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            for child in sorted(p for p in path.rglob("*") if p.is_file()):
                if child.suffix.lower() in formats.SUFFIXES:
                    yield child
        else:
            yield path


def _label(path: Path, index: int, count: int) -> str:
    return f"{path}#{index + 1}" if count > 1 else str(path)


def _load_file(path: Path, fmt: Optional[str]) -> list[tuple[str, object]]:
    """``(label, puzzle)`` for every puzzle in a file, or one ``(label, error record)``."""
    try:
        puzzles = formats.load_all(path, format=fmt)
    except NonogenError as exc:
        return [(str(path), {"file": str(path), "status": "error", "message": str(exc)})]
    except OSError as exc:
        return [(str(path), {"file": str(path), "status": "error", "message": f"{path}: {exc.strerror or exc}"})]
    return [(_label(path, i, len(puzzles)), p) for i, p in enumerate(puzzles)]


def _verify_one(task: tuple[str, object, float, str, bool]) -> dict:
    """Verify one puzzle; bad input becomes an ``error`` record, never an exception."""
    label, puzzle, timeout, strategy, scan = task
    if isinstance(puzzle, dict):
        return puzzle
    try:
        if isinstance(puzzle, Puzzle3D):
            result = verify(puzzle, timeout=timeout)
        else:
            result = verify(puzzle, timeout=timeout, strategy=strategy)
        record = _record(label, puzzle, result)
        if scan and result.status == "multiple" and isinstance(puzzle, Puzzle):
            _add_ambiguity(record, puzzle, result, timeout)
    except NonogenError as exc:
        return {"file": label, "status": "error", "message": str(exc)}
    return record


def _add_ambiguity(record: dict, puzzle: Puzzle, result, timeout: float) -> None:
    """Every cell that differs in some solution, within what is left of the time limit.

    The two reported solutions often differ in a handful of cells while many
    more are ambiguous; a puzzle maker needs them all. Past the time limit
    the cells found so far are reported with ``ambiguous_complete: false``.
    """
    start = time.monotonic()
    mask, complete = ambiguity(puzzle, result.solution, timeout=max(timeout - result.seconds, 0.05))
    mask |= result.ambiguous
    record["ambiguous_cells"] = [list(map(int, ix)) for ix in np.argwhere(mask)]
    record["ambiguous_complete"] = complete
    record["seconds"] = round(record["seconds"] + time.monotonic() - start, 4)


def _grid_text(puzzle, grid) -> object:
    if grid is None:
        return None
    if isinstance(puzzle, Puzzle3D):
        return "".join("1" if v else "0" for v in np.asarray(grid).ravel())
    return puzzle.grid_to_text(grid)


def _record(label: str, puzzle, result) -> dict:
    record = {
        "file": label,
        "status": result.status,
        "solution": _grid_text(puzzle, result.solution),
    }
    if result.second_solution is not None:
        record["second_solution"] = _grid_text(puzzle, result.second_solution)
        record["ambiguous_cells"] = [list(map(int, ix)) for ix in np.argwhere(result.ambiguous)]
        record["ambiguous_complete"] = False  # only where the two solutions differ, until a scan adds the rest
    if isinstance(puzzle, Puzzle3D):
        record["size"] = list(puzzle.size)
    else:
        record["width"], record["height"] = puzzle.width, puzzle.height
        record["colors"] = puzzle.n_colors
    record.update(difficulty=result.difficulty, work=result.work, seconds=round(result.seconds, 4))
    if result.message:
        record["message"] = result.message
    return record


def _records(args) -> Iterator[dict]:
    """Verification records in input order; puzzles are shared out one by one over ``--jobs``."""
    strategy = "line" if args.no_probe else "full"
    tasks = [
        (label, puzzle, args.timeout, strategy, not args.no_ambiguity)
        for path in puzzle_files(args.paths)
        for label, puzzle in _load_file(path, args.format)
    ]
    if not tasks:
        raise InputError(f"no puzzle files in {', '.join(args.paths)} (known suffixes: {' '.join(formats.SUFFIXES)})")
    if args.jobs > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            yield from progress(pool.map(_verify_one, tasks, chunksize=4), len(tasks), "verify")
    else:
        yield from progress(map(_verify_one, tasks), len(tasks), "verify")


# -- commands ------------------------------------------------------------------------------------


def run_verify(args) -> int:
    worst = 0
    counts: dict[str, int] = {}
    start = time.monotonic()
    out_dir = Path(args.solutions_dir) if args.solutions_dir else None
    for record in _records(args):
        worst = max(worst, EXIT[record["status"]])
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
    check_output_file(target, force)
    solution = record["solution"]
    text = solution + "\n" if isinstance(solution, str) else "\n".join(solution) + "\n"
    if record.get("second_solution") is not None:
        second = record["second_solution"]
        text += "\n# another solution:\n" + (second + "\n" if isinstance(second, str) else "\n".join(second) + "\n")
    target.write_text(text)


def run_solve(args) -> int:
    records = list(_records(args))
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
    return max(EXIT[r["status"]] for r in records)


BACKGROUND_CHARS = ".0 _-"
FILLED_CHARS = "#1Xx*"


def grid_from_text(text: str, path: str = "<grid>") -> tuple[np.ndarray, tuple[Color, ...]]:
    """Parse a goal grid drawn in characters: background ``.0 _-``, black ``#1Xx*``, other characters colours.

    >>> grid, palette = grid_from_text(".#\\n##\\n")
    >>> grid.tolist(), len(palette)
    ([[0, 1], [1, 1]], 2)
    """
    lines = [line.rstrip("\n\r") for line in text.splitlines() if line.strip() and not line.startswith(";")]
    if not lines:
        raise FormatError("expected rows of characters, found none", path=path)
    width = max(len(line) for line in lines)
    chars: list[str] = []
    for number, line in enumerate(lines, 1):
        for ch in line.ljust(width):
            if ch not in BACKGROUND_CHARS and ch not in FILLED_CHARS and ch not in chars:
                chars.append(ch)
    palette = [Color("white", "#ffffff", ".")]
    if chars:
        hues = distinct_colors(len(chars))
        palette += [Color(f"color-{ch}", hues[i], ch) for i, ch in enumerate(chars)]
        black_index = None
    else:
        palette.append(Color("black", "#000000", "#"))
        black_index = 1
    index = {c.char: i for i, c in enumerate(palette)}
    grid = np.zeros((len(lines), width), dtype=np.uint8)
    for r, line in enumerate(lines):
        for c, ch in enumerate(line.ljust(width)):
            if ch in BACKGROUND_CHARS:
                continue
            if ch in FILLED_CHARS:
                if black_index is None:
                    palette.append(Color("black", "#000000", "#"))
                    black_index = index["#"] = len(palette) - 1
                grid[r, c] = black_index
            else:
                grid[r, c] = index[ch]
    return grid, tuple(palette)


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
        formats.dump(puzzle, args.output, format=args.to, force=True)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(formats.dumps(puzzle, args.to or "non"))
    return 0
