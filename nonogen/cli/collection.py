"""``nonogen image`` and ``nonogen mesh`` over many sources: a collection folder, one record per source.

The options the two commands share for a collection, the run (records on
stdout as a table or JSON Lines, ``--csv``, a progress bar on a terminal, a
summary line on stderr) and its exit code. The work is
:func:`nonogen.make.many.make_many`.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from ..collect import is_pattern, shown
from ..errors import InputError, OptionError
from ..output.many import make_many, resumed_records
from ..record import FIELDS, OUTCOMES
from .common import (
    EXIT_CODES,
    EXIT_INTERNAL,
    STDIO,
    ProgressBar,
    add_executor_options,
    chosen_executor,
    combine,
    print_json,
    signals_held,
)
from .records import CsvLines

_ONLY_FOR_MANY = ("jobs", "executor", "scheduler", "resume", "dedupe", "csv", "grade_mix")


def add_collection_options(parser: argparse.ArgumentParser) -> None:
    """The options of a collection run (several sources, a folder or a glob; see README "Making a collection")."""
    group = parser.add_argument_group("collections", "several sources, a folder or a glob (or any option below) make "
                                      "a collection: -o names its folder, one sub-folder per source")
    add_executor_options(group, "")
    group.add_argument("--resume", action="store_true",
                       help="continue a collection run that was stopped: sources with a record are not made again")
    group.add_argument("--dedupe", action="store_true",
                       help="a source whose clues an earlier source already had is a 'duplicate'; "
                       "its folder is not kept")
    group.add_argument("--csv", metavar="FILE", help="also write the records as CSV ('-' = stdout)")
    group.add_argument("--grade-mix", metavar="G:SHARE,...",
                       help="aim the sources at grades in these shares, e.g. 1:1,2:1,3:1 for a third each "
                       "(assigned in source order; replaces --grade)")


def is_collection(args: argparse.Namespace, sources: list[str]) -> bool:
    """Several sources, a folder, a glob, or an option only a collection has."""
    if len(sources) > 1 or any(os.path.isdir(s) or is_pattern(s) for s in sources):
        return True
    return any(getattr(args, name) not in (None, False) for name in _ONLY_FOR_MANY)


def parse_mix(text: str) -> dict[int, float]:
    """``"1:1,2:1,3:2"`` -> ``{1: 1.0, 2: 1.0, 3: 2.0}`` (a grade without a share counts 1).

    >>> parse_mix("1:1, 2:1,3")
    {1: 1.0, 2: 1.0, 3: 1.0}
    """
    mix: dict[int, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        grade, _, share = part.partition(":")
        try:
            mix[int(grade)] = float(share) if share.strip() else 1.0
        except ValueError:
            raise OptionError("grade_mix", repr(text), "grade:share pairs, e.g. 1:1,2:1,3:1") from None
    return mix


def exit_flag(rec: dict) -> int:
    """The exit code of one record: a failure by its kind (a crash is nonogen's fault), anything else 0."""
    if rec["status"] != "failed":
        return 0
    if rec.get("error_kind") in ("crash", "internal"):
        return EXIT_INTERNAL
    return EXIT_CODES["timeout"] if rec.get("error_kind") == "timeout" else EXIT_CODES["error"]


class Summary:
    """Counts per status and the wall time of a collection run: the one-line summary on stderr."""

    def __init__(self, resumed: int = 0):
        self.counts = dict.fromkeys(OUTCOMES, 0)
        self.resumed, self.seconds, self.interrupted, self.stopped = resumed, 0.0, False, False

    def add(self, rec: dict) -> None:
        self.counts[rec["status"]] += 1

    def line(self) -> str:
        """``N sources: a made, b failed, c duplicates (T s)``."""
        total = sum(self.counts.values())
        made, failed, dups = (self.counts[s] for s in OUTCOMES)
        extra = f", {self.resumed} from the resumed run" if self.resumed else ""
        stop = ", interrupted" if self.interrupted else ", stopped by the error below" if self.stopped else ""
        return (f"{total} source{'s' if total != 1 else ''}: {made} made, {failed} failed, "
                f"{dups} duplicate{'s' if dups != 1 else ''} ({self.seconds:.2f} s{extra}{stop})")


def _row(rec: dict) -> str:
    """One line for people: name (or source), status, size, grade, seconds, and the error or first warning.

    A control character in a source's name is escaped (:func:`~nonogen.collect.shown`): a newline in it made one
    record three lines. ``--json`` keeps the exact name.
    """
    size = "x".join(str(rec[k]) for k in ("width", "height", "depth") if rec.get(k) is not None)
    grade = f"grade {rec['grade']}" if rec.get("grade") else ""
    note = rec["error"] or (f"duplicate of {rec['duplicate_of']}" if rec["duplicate_of"] else "")
    if not note and rec["warnings"]:
        note = rec["warnings"][0] + (f" (+{len(rec['warnings']) - 1} more)" if len(rec["warnings"]) > 1 else "")
    seconds = f"{rec['seconds']:7.2f}s" if rec.get("seconds") is not None else " " * 8
    label = shown(rec["name"] or os.path.basename(rec["source"]))
    note = note if note.isprintable() else repr(note)  # the library's are; a record of an older run may not be
    return f"{label:<32} {rec['status']:<9} {size:>9} {grade:<8} {seconds}  {note}".rstrip()


def run_collection(args: argparse.Namespace, sources: list[str], kind: str, making: dict[str, Any],
                   saving: dict[str, Any]) -> int:
    """Make every source into the collection folder ``args.output``; print the records and a summary."""
    if args.json and args.csv == STDIO:
        raise InputError("stdout already carries the --json records; write the CSV to a file")
    if args.grade_mix is not None and making.get("grade") is not None:
        raise InputError("--grade and --grade-mix both set a grade; give one of them")
    mix = parse_mix(args.grade_mix) if args.grade_mix is not None else None
    executor, jobs = chosen_executor(args, in_process=False)
    earlier = resumed_records(args.output) if args.resume else []
    summary = Summary(resumed=len(earlier))
    code = 0
    for rec in earlier:
        summary.add(rec)
        code = combine(code, exit_flag(rec))
    bar = ProgressBar(kind)
    totals: list[int] = []

    def progress(done: int, total: int) -> None:
        totals.append(total)
        bar(done, total)

    csv = CsvLines(args.csv, args.force, tuple(FIELDS), _csv_values) if args.csv else None
    start = time.monotonic()
    finished = False
    try:
        if csv:
            for rec in earlier:
                csv.add(rec)
        for rec in make_many(sources, args.output, kind=kind, jobs=jobs, executor=executor, scheduler=args.scheduler,
                             resume=args.resume, force=args.force, dedupe=args.dedupe, grade_mix=mix,
                             on_progress=progress, **saving, **making):
            bar.clear()
            with signals_held():  # the CSV, stdout and the summary get the record, or none does
                if csv:
                    csv.add(rec)
                print_json(rec) if args.json else print(_row(rec), flush=True)
                summary.add(rec)
            code = combine(code, exit_flag(rec))
        if args.resume and totals and totals[0] == 0:
            print(f"nonogen: {args.output}: every source already has a record; nothing to make", file=sys.stderr)
        finished = True
    except BaseException as exc:
        summary.interrupted = not isinstance(exc, Exception)  # Ctrl-C or SIGTERM, not a refusal before the work
        summary.stopped = isinstance(exc, OSError)  # a full disk: main() prints it (exit 2), --resume carries on
        raise
    finally:
        bar.clear()
        if csv:
            csv.close(keep=finished)  # as verify's: put into place by a finished run only
        summary.seconds = time.monotonic() - start
        if totals or summary.interrupted:
            print(summary.line(), file=sys.stderr, flush=True)
    return code


def _csv_values(rec: dict) -> dict:
    return {**rec, "warnings": "; ".join(rec.get("warnings") or ())}
