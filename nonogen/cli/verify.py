"""``nonogen verify``, ``nonogen solve`` and ``nonogen clues``: the verifier on the command line."""
from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from .. import formats
from ..batch import STATUSES, Source, verify_paths
from ..clues import puzzle_from_grid
from ..errors import FormatError, InputError, OutputExistsError, UnknownFormatError
from ..files import LineFile, write_file
from ..formats.grid import grid_from_text
from . import summary
from .common import (
    EXIT_HELP,
    STDIO,
    ProgressBar,
    check_output_file,
    combine,
    combined_exit_code,
    exit_flag,
    json_line,
    positive_float,
    positive_int,
    print_json,
    read_stdin,
)

CSV_COLUMNS = ("file", "status", "format", "member", "members", "title", "author", "license", "clue_hash",
               "duplicate_of", "width", "height", "colors", "size", "difficulty", "work", "seconds",
               "ambiguous_cells", "ambiguous_complete", "error_kind", "message")


@dataclass
class Summary:
    """Counts per status and the wall time of a batch: the one-line summary and ``--summary-json``."""

    counts: dict = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))
    resumed: int = 0
    duplicates: int = 0
    internal_errors: int = 0
    seconds: float = 0.0
    interrupted: bool = False

    def add(self, rec: dict) -> None:
        self.counts[rec["status"]] = self.counts.get(rec["status"], 0) + 1
        self.duplicates += "duplicate_of" in rec
        self.internal_errors += rec.get("error_kind") == "internal"

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def line(self) -> str:
        """``N puzzles: a unique, b multiple, ... (T s)``."""
        parts = ", ".join(f"{self.counts.get(s, 0)} {s}" for s in STATUSES)
        extra = "".join(f", {n} {what}" for n, what in ((self.resumed, "from the resumed run"),) if n)
        stop = ", interrupted" if self.interrupted else ""
        return f"{self.total} puzzles: {parts} ({self.seconds:.2f} s{extra}{stop})"

    def to_dict(self) -> dict:
        return {"puzzles": self.total, **{s: self.counts.get(s, 0) for s in STATUSES},
                "duplicates": self.duplicates, "internal_errors": self.internal_errors,
                "resumed": self.resumed, "seconds": round(self.seconds, 3), "interrupted": self.interrupted}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("verify", help=summary("verify"), epilog=EXIT_HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Verify puzzle files and folders (searched recursively; '-' reads standard "
                       "input). One record per puzzle, a bundle gives one per member; files nonogen does not "
                       "recognise inside folders are skipped. A one-line summary goes to stderr.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="puzzle files or folders; '-' = standard input")
    _common_options(p)
    p.add_argument("--jobs", type=positive_int, default=None, metavar="N",
                   help="worker processes (default 1; with --executor dask and no scheduler: local Dask workers)")
    p.add_argument("--executor", choices=("local", "dask"), default="local",
                   help="local: a pool of processes on this machine (default); dask: a Dask cluster")
    p.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler, e.g. tcp://host:8786 (implies --executor dask)")
    p.add_argument("--resume", metavar="FILE", help="JSON Lines file of records: skip the puzzles it holds, "
                   "append the new records to it as they finish (created if missing)")
    p.add_argument("--csv", metavar="FILE", help="also write the records as CSV ('-' = stdout)")
    p.add_argument("--summary-json", metavar="FILE", help="write the counts as one JSON object ('-' = stdout)")
    p.add_argument("--dedupe", action="store_true", help="skip puzzles whose clues an earlier puzzle already had")
    p.add_argument("--solutions-dir", metavar="DIR", help="also write each solution as text into DIR "
                   "(named after the puzzle's path below the inputs)")
    p.add_argument("--force", action="store_true", help="replace --csv, --summary-json and earlier solution files")
    p.set_defaults(run=run_verify)

    p = sub.add_parser("solve", help=summary("solve"), epilog=EXIT_HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs=1, metavar="PATH", help="puzzle file; '-' = standard input")
    _common_options(p)
    p.set_defaults(run=run_solve, jobs=1, executor="local", scheduler=None, resume=None, dedupe=False)

    p = sub.add_parser("clues", help=summary("clues"))
    p.add_argument("grid", metavar="GRIDFILE", help="rows of characters; '.', '0' or ' ' = background; '-' = stdin")
    p.add_argument("-o", "--output", metavar="FILE", help="write the puzzle here (format from the suffix; '-' = stdout)")
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


def _inputs(paths: list[str]) -> list:
    """The paths, with ``-`` read from standard input once."""
    if paths.count(STDIO) > 1:
        raise InputError("standard input ('-') can be read only once")
    return [Source("-", read_stdin()) if p == STDIO else p for p in paths]


def _records(args, bar: ProgressBar, earlier: Iterable[dict] = ()):
    executor = "dask" if args.scheduler else args.executor
    jobs = args.jobs or (os.cpu_count() or 2 if executor == "dask" else 1)
    return verify_paths(
        _inputs(args.paths),
        jobs=jobs,
        timeout=args.timeout,
        strategy="line" if args.no_probe else "full",
        ambiguity=not args.no_ambiguity,
        format=args.format,
        on_progress=bar,
        executor=executor,
        scheduler=args.scheduler,
        resume=earlier,
        dedupe=args.dedupe,
    )


def read_resume(path: str) -> list[dict]:
    """The records of an earlier run (a missing file is a first run); a torn last line is left out.

    A file named twice keeps its first record: two runs that once shared the
    file (before it was locked) wrote some records twice.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    lines = text.split("\n")
    records: dict[str, dict] = {}
    for number, line in enumerate(lines[:-1], 1):  # the last piece has no newline: complete lines only
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            rec = None
        if not isinstance(rec, dict) or "file" not in rec or "status" not in rec:
            raise InputError(f"{path}:{number}: not a record of nonogen verify; name another file to resume")
        records.setdefault(str(rec["file"]), rec)
    return list(records.values())


class _Outputs:
    """Where the records go besides stdout: the resume file, CSV, solution files, the summary JSON."""

    def __init__(self, args, earlier: list[dict], resume: Optional[LineFile] = None):
        if args.json and STDIO in (args.csv, args.summary_json):
            raise InputError("stdout already carries the --json records; write the CSV or summary to a file")
        self.args = args
        if args.summary_json and args.summary_json != STDIO:
            check_output_file(args.summary_json, args.force)
        self.sol_dir = Path(args.solutions_dir) if args.solutions_dir else None
        if self.sol_dir is not None and not (args.force or args.resume) and any(self.sol_dir.rglob("*.solution.txt")):
            raise OutputExistsError(f"{self.sol_dir}: holds solution files of an earlier run")
        self.root = _common_root(args.paths)
        self.resume = resume
        self.csv_file, self.csv = self._open_csv(args.csv, args.force)
        for rec in earlier:
            self._csv_row(rec)

    @staticmethod
    def _open_csv(name: Optional[str], force: bool):
        if not name:
            return None, None
        target = _StdoutLines() if name == STDIO else LineFile(name, force=force)
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, CSV_COLUMNS, extrasaction="ignore", lineterminator="")
        writer.writeheader()
        target.write(buffer.getvalue())
        return target, (writer, buffer)

    def _csv_row(self, rec: dict) -> None:
        if self.csv is None:
            return
        writer, buffer = self.csv
        buffer.seek(0)
        buffer.truncate()
        writer.writerow(_csv_values(rec))
        self.csv_file.write(buffer.getvalue())

    def add(self, rec: dict) -> None:
        if self.resume is not None:
            self.resume.write(json_line(rec))
        self._csv_row(rec)
        if self.sol_dir is not None and rec.get("solution") is not None:
            _write_solution(self.sol_dir / (self._relative(rec) + ".solution.txt"), rec)
        if self.args.json:
            print_json(rec)
        elif self.args.csv != STDIO:
            _print_row(rec)

    def _relative(self, rec: dict) -> str:
        """The solution file's name: the puzzle's path below the inputs' common folder, ``-k`` for member k."""
        path = rec["file"].rsplit("#", 1)[0] if "member" in rec else rec["file"]
        rel = "stdin" if path == STDIO else os.path.relpath(os.path.abspath(path), self.root)
        return rel + (f"-{rec['member']}" if "member" in rec else "")

    def close(self, summary: Summary) -> None:
        for target in (self.resume, self.csv_file):
            if target is not None:
                target.close()
        if self.args.summary_json:
            text = json_line(summary.to_dict()) + "\n"
            if self.args.summary_json == STDIO:
                sys.stdout.write(text)
            else:
                write_file(self.args.summary_json, text, force=True)


class _StdoutLines:
    """Standard output with the interface of :class:`~nonogen.files.LineFile`."""

    def write(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def close(self) -> None:
        sys.stdout.flush()


def _csv_values(rec: dict) -> dict:
    out = dict(rec)
    if "size" in rec:
        out["size"] = "x".join(map(str, rec["size"]))
    if "ambiguous_cells" in rec:
        out["ambiguous_cells"] = len(rec["ambiguous_cells"])
    return out


def _common_root(paths: list[str]) -> str:
    """The folder solution files are named below: the common folder of every input (a file counts as its folder)."""
    folders = [os.path.abspath(p if os.path.isdir(p) else os.path.dirname(p) or ".") for p in paths if p != STDIO]
    return os.path.commonpath(folders) if folders else os.getcwd()


def run_verify(args) -> int:
    resume = LineFile(args.resume, append=True) if args.resume else None  # locked before it is read
    earlier = read_resume(args.resume) if args.resume else []
    outputs = _Outputs(args, earlier, resume)
    summary = Summary(resumed=len(earlier))
    for rec in earlier:
        summary.add(rec)
    code = combined_exit_code(earlier)
    start = time.monotonic()
    bar = ProgressBar("verify")
    try:
        for rec in _records(args, bar, earlier):
            bar.clear()
            outputs.add(rec)
            summary.add(rec)
            code = combine(code, exit_flag(rec))
    except BaseException:
        summary.interrupted = True
        raise
    finally:
        bar.clear()
        summary.seconds = time.monotonic() - start
        outputs.close(summary)
        print(summary.line(), file=sys.stderr, flush=True)
    return code


def _print_row(record: dict) -> None:
    size = record.get("size") or [record.get("width", "?"), record.get("height", "?")]
    size_text = "x".join(map(str, size)) if "width" in record or "size" in record else ""
    extra = record.get("message", "")
    if record["status"] == "multiple":
        count = len(record["ambiguous_cells"])
        extra = f"{count} ambiguous cells" if record["ambiguous_complete"] else f"at least {count} ambiguous cells"
    if record.get("duplicate_of"):
        extra = f"duplicate of {record['duplicate_of']}"
    sys.stdout.write(
        f"{record['file']:<48} {record['status']:<10} {size_text:>9} "
        f"{record.get('difficulty') or '-':<7} {record.get('seconds', 0):8.3f}s  {extra}".rstrip() + "\n"
    )
    sys.stdout.flush()


def _write_solution(target: Path, record: dict) -> None:
    """A puzzle's solution (and a second one, when there is one) as text; names never collide within a run."""
    solution = record["solution"]
    text = solution + "\n" if isinstance(solution, str) else "\n".join(solution) + "\n"
    if record.get("second_solution") is not None:
        second = record["second_solution"]
        text += "\n# another solution:\n" + (second + "\n" if isinstance(second, str) else "\n".join(second) + "\n")
    write_file(target, text, force=True)


def run_solve(args) -> int:
    code = 0
    bar = ProgressBar("solve")
    for record in _records(args, bar):
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
    cell = lambda x, y, z: "#" if goal[(x * Y + y) * Z + z] == "1" else "."
    blocks = []
    for y in range(Y):
        rows = ["".join(cell(x, y, z) for x in range(X)) for z in reversed(range(Z))]
        blocks.append("\n".join([f"y={y}" + (" (top)" if y == 0 else "")] + rows))
    return "\n\n".join(blocks) + "\n"


def run_clues(args) -> int:
    text, name = _grid_text(args.grid)
    grid, palette = grid_from_text(text, name)
    colours = [c.char for c in palette[1:] if c.name != "black"]
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
    raise InputError(f"{name} is a puzzle file ({found}), not a grid drawn in characters; "
                     "verify or solve it with 'nonogen verify' or 'nonogen solve'")
