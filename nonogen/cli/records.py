"""Where ``nonogen verify`` sends its records besides the terminal: the resume file, CSV, solution files, the summary.

Every record is written the moment it is finished, whole lines only, so an
interrupted batch leaves files that a resumed run completes exactly. The
resume file is the one output an interrupted or failed run keeps: the CSV and
the summary are put into place only when the run finishes, and without
``--resume`` the solution files it wrote go too, so the same command can
simply be run again (it would refuse to replace them without ``--force``).
"""
from __future__ import annotations

import os
import sys

from ..batch import RECORD_STATUSES, SOLUTION_SUFFIX
from ..collect import read_records
from ..errors import InputError, OutputExistsError
from .common import STDIO, check_output_file, json_line, print_json

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path
    from typing import Callable, Optional, Sequence

    from ..linefile import LineFile

__all__ = ["Summary", "Outputs", "CsvLines", "read_resume", "CSV_COLUMNS"]

CSV_COLUMNS = ("file", "status", "format", "member", "members", "title", "author", "license", "clue_hash",
               "duplicate_of", "width", "height", "colors", "size", "difficulty", "work", "seconds",
               "ambiguous_cells", "ambiguous_complete", "error_kind", "message")


class Summary:
    """Counts per status and the wall time of a batch: the one-line summary and ``--summary-json``."""

    def __init__(self, resumed: int = 0):
        self.counts = dict.fromkeys(RECORD_STATUSES, 0)
        self.resumed = resumed
        self.duplicates = 0
        self.internal_errors = 0
        self.seconds = 0.0
        self.interrupted = False

    def add(self, rec: dict) -> None:
        self.counts[rec["status"]] = self.counts.get(rec["status"], 0) + 1
        self.duplicates += "duplicate_of" in rec
        self.internal_errors += rec.get("error_kind") == "internal"

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def line(self) -> str:
        """``N puzzles: a unique, b multiple, ... (T s)``."""
        parts = ", ".join(f"{self.counts.get(s, 0)} {s}" for s in RECORD_STATUSES)
        extra = "".join(f", {n} {what}" for n, what in ((self.resumed, "from the resumed run"),) if n)
        stop = ", interrupted" if self.interrupted else ""
        noun = "puzzle" if self.total == 1 else "puzzles"
        return f"{self.total} {noun}: {parts} ({self.seconds:.2f} s{extra}{stop})"

    def to_dict(self) -> dict:
        return {"puzzles": self.total, **{s: self.counts.get(s, 0) for s in RECORD_STATUSES},
                "duplicates": self.duplicates, "internal_errors": self.internal_errors,
                "resumed": self.resumed, "seconds": round(self.seconds, 3), "interrupted": self.interrupted}


def read_resume(path: str) -> list[dict]:
    """The records of an earlier ``verify`` run (:func:`nonogen.collect.read_records`)."""
    return read_records(path, "file", "nonogen verify")


class Outputs:
    """Where the records go besides stdout: the resume file, CSV, solution files, the summary JSON."""

    def __init__(self, args, earlier: list[dict], resume: Optional[LineFile] = None):
        if args.json and STDIO in (args.csv, args.summary_json):
            raise InputError("stdout already carries the --json records; write the CSV or summary to a file")
        self.args = args
        if args.summary_json and args.summary_json != STDIO:
            check_output_file(args.summary_json, args.force)
        self.sol_dir = _folder(args.solutions_dir) if args.solutions_dir else None
        earlier_solutions = self.sol_dir is not None and any(self.sol_dir.rglob("*" + SOLUTION_SUFFIX))
        if earlier_solutions and not (args.force or args.resume):
            raise OutputExistsError(f"{self.sol_dir}: holds solution files of an earlier run")
        self.root = _common_root(args.paths) if self.sol_dir is not None else ""  # where solution files are named
        self.resume = resume
        self.solution_files: list[Path] = []
        self.csv = CsvLines(args.csv, args.force, CSV_COLUMNS, _csv_values) if args.csv else None
        for rec in earlier:
            self._csv_row(rec)

    def _csv_row(self, rec: dict) -> None:
        if self.csv is not None:
            self.csv.add(rec)

    def add(self, rec: dict) -> None:
        if self.resume is not None:
            self.resume.write(json_line(rec))
        self._csv_row(rec)
        if self.sol_dir is not None and rec.get("solution") is not None:
            target = self.sol_dir / (self._relative(rec) + SOLUTION_SUFFIX)
            _write_solution(target, rec)
            self.solution_files.append(target)
        if self.args.json:
            print_json(rec)
        elif self.args.csv != STDIO:
            _print_row(rec)

    def _relative(self, rec: dict) -> str:
        """The solution file's name: the puzzle's path below the inputs' common folder, ``-k`` for member k."""
        path = rec["file"].rsplit("#", 1)[0] if "member" in rec else rec["file"]
        rel = "stdin" if path == STDIO else os.path.relpath(os.path.abspath(path), self.root)
        return rel + (f"-{rec['member']}" if "member" in rec else "")

    def close(self, summary: Summary, finished: bool = True) -> list[str]:
        """Put the outputs into place; for a run that did not finish, the names of the outputs it leaves out."""
        if self.resume is not None:
            self.resume.close()
        if self.csv is not None:
            self.csv.close(keep=finished)
        if not finished:
            left = [name for name in (self.args.csv, self.args.summary_json) if name and name != STDIO]
            if self.resume is None and self.solution_files:
                for path in self.solution_files:
                    path.unlink(missing_ok=True)
                left.append(f"{self.sol_dir}/ (its {len(self.solution_files)} solution files)")
            return left
        if self.args.summary_json:
            text = json_line(summary.to_dict()) + "\n"
            if self.args.summary_json == STDIO:
                sys.stdout.write(text)
            else:
                from ..files import write_file  # here: a plain verify writes no file, and files.py loads pathlib (4 ms)

                write_file(self.args.summary_json, text, force=True)
        return []


class CsvLines:
    """Records as CSV rows in a file ('-' = stdout), one whole line each: ``--csv`` of verify and of a collection.

    The file is put into place when closed with ``keep`` (a finished run), not before."""

    def __init__(self, name: str, force: bool, columns: Sequence[str], values: Callable[[dict], dict] = dict):
        import csv  # here: only --csv needs it
        import io

        from ..linefile import LineFile  # here, as csv

        self.target = _StdoutLines() if name == STDIO else LineFile(name, force=force)
        self.buffer = io.StringIO()
        self.writer = csv.DictWriter(self.buffer, columns, extrasaction="ignore", lineterminator="")
        self.values = values
        self.writer.writeheader()
        self._flush()

    def add(self, rec: dict) -> None:
        self.writer.writerow(self.values(rec))
        self._flush()

    def _flush(self) -> None:
        self.target.write(self.buffer.getvalue())
        self.buffer.seek(0)
        self.buffer.truncate()

    def close(self, keep: bool = True) -> None:
        self.target.close(keep=keep)


class _StdoutLines:
    """Standard output with the interface of :class:`~nonogen.linefile.LineFile`."""

    def write(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def close(self, keep: bool = True) -> None:
        sys.stdout.flush()  # rows already sent stay sent


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
    from ..files import write_file  # here: a plain verify writes no file, and files.py loads pathlib (4 ms)

    write_file(target, text, force=True)


def _folder(name: str) -> Path:
    from pathlib import Path  # here: only --solutions-dir needs it, and pathlib costs a verify 4 ms

    return Path(name)
