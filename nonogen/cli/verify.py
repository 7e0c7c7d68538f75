"""``nonogen verify``: many puzzle files and folders, one record each, in a table, JSON Lines or CSV."""
from __future__ import annotations

import os
import stat  # loaded by os already
import sys
import time

from ..batch import Source, verify_paths
from ..errors import InputError
from .common import (
    EXIT_HELP,
    STDIO,
    ProgressBar,
    add_executor_options,
    chosen_executor,
    combine,
    combined_exit_code,
    exit_flag,
    positive_float,
    read_stdin,
    signals_held,
    sized,
    summary,
)
from .records import Outputs, Summary, read_resume

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    import argparse
    from typing import Iterable

    from ..linefile import LineFile


def register(sub: argparse._SubParsersAction) -> None:
    import argparse  # here: the plain forms of verify are read without it (cli/plain_verify.py)

    p = sub.add_parser("verify", help=summary("verify"), epilog=EXIT_HELP,
                       formatter_class=sized(argparse.RawDescriptionHelpFormatter),
                       description="Verify puzzle files and folders (searched recursively; '-' reads standard "
                       "input). One record per puzzle, a bundle gives one per member; files nonogen does not "
                       "recognise inside folders are skipped. A one-line summary goes to stderr.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="puzzle files or folders; '-' = standard input")
    verify_options(p)
    add_executor_options(p, ", except that one file, or up to 100 files of 256 KiB in all, without --jobs is "
                         "verified in this process")
    p.add_argument("--resume", metavar="FILE", help="JSON Lines file of records: skip the puzzles it holds, "
                   "append the new records to it as they finish (created if missing)")
    p.add_argument("--csv", metavar="FILE", help="also write the records as CSV ('-' = stdout)")
    p.add_argument("--summary-json", metavar="FILE", help="write the counts as one JSON object ('-' = stdout)")
    p.add_argument("--dedupe", action="store_true", help="skip puzzles whose clues an earlier puzzle already had")
    p.add_argument("--solutions-dir", metavar="DIR", help="also write each solution as text into DIR "
                   "(named after the puzzle's path below the inputs)")
    p.add_argument("--force", action="store_true", help="replace --csv, --summary-json and earlier solution files")
    p.set_defaults(run=run_verify)


def verify_options(p: argparse.ArgumentParser) -> None:
    """The options ``verify`` and ``solve`` share: output, time, format and how hard to look."""
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle on stdout (JSON Lines)")
    p.add_argument("--timeout", type=positive_float, default=60.0, metavar="S", help="seconds per puzzle (default 60)")
    p.add_argument("--format", default=None, metavar="FORMAT", help="read files in this format")
    p.add_argument("--no-probe", action="store_true", help="go from line logic straight to SAT (no probing)")
    p.add_argument("--no-grade", action="store_true",
                   help="skip the 1-5 grade for people (most of the time a unique puzzle takes)")
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


SMALL_BATCH_FILES, SMALL_BATCH_BYTES = 100, 256 * 1024
"""Several files, no more than this many and together no bigger than this, are verified in this process as one
file is: a handful of small puzzles is proved in less time than a worker takes to start (the 36 shared colour
collection files: 47 ms of CPU here, 62 ms with a worker)."""


def _executor(args) -> tuple[str, int]:
    """Where the puzzles are verified: a Dask cluster, a pool of worker processes, or this process; and how many jobs.

    A worker keeps a crash or a runaway to one puzzle's record, which a
    batch needs; for one file or a few small ones (:data:`SMALL_BATCH_FILES`),
    starting it costs more than proving them, so they are verified here
    without ``--jobs``. (No address-space limit here, unlike a worker: it
    would outlive the command in a process that calls :func:`main`, and the
    browsers some callers start die of it. The engine still refuses an
    encoding it estimates too big to fit.)
    """
    one_file = len(args.paths) == 1 and (args.paths[0] == STDIO or os.path.isfile(args.paths[0]))
    return chosen_executor(args, one_file or _few_small_files(args.paths))


def _few_small_files(paths: list[str]) -> bool:
    """Whether ``paths`` are plain files (no folder, no standard input), few and together small."""
    if len(paths) > SMALL_BATCH_FILES or STDIO in paths:
        return False
    total = 0
    for path in paths:
        try:
            found = os.stat(path)
        except OSError:  # the batch reports it as the file's record
            return False
        if not stat.S_ISREG(found.st_mode):
            return False
        total += found.st_size
    return total <= SMALL_BATCH_BYTES


def records(args, bar: ProgressBar, earlier: Iterable[dict] = ()):
    """The records of the puzzles ``args`` names, as :func:`nonogen.verify_paths` yields them."""
    executor, jobs = _executor(args)
    return verify_paths(
        _inputs(args.paths),
        jobs=jobs,
        timeout=args.timeout,
        strategy="line" if args.no_probe else "full",
        ambiguity=not args.no_ambiguity,
        grade=not args.no_grade,
        format=args.format,
        on_progress=bar,
        executor=executor,
        scheduler=args.scheduler,
        resume=earlier,
        dedupe=args.dedupe,
    )


def _left_out_line(left_out: list[str], interrupted: bool, resumed: bool) -> str:
    """What a run that did not finish left unwritten, and (when it was stopped) how to carry on."""
    if not interrupted:
        return f"not written, as the run failed: {', '.join(left_out)}"
    keep = "" if resumed else "; --resume FILE keeps finished records for the next run"
    return f"not written, as the run was stopped: {', '.join(left_out)} (run the same command again{keep})"


def _locked(name: str) -> LineFile:
    from ..linefile import LineFile  # here: a plain verify writes no file, and files.py loads pathlib (4 ms)

    return LineFile(name, append=True)


def run_verify(args) -> int:
    resume = _locked(args.resume) if args.resume else None  # locked before it is read
    earlier = read_resume(args.resume) if args.resume else []
    outputs = Outputs(args, earlier, resume)
    summary = Summary(resumed=len(earlier))
    for rec in earlier:
        summary.add(rec)
    code = combined_exit_code(earlier)
    start = time.monotonic()
    bar = ProgressBar("verify")
    finished = False
    try:
        for rec in records(args, bar, earlier):
            bar.clear()
            with signals_held():  # every output and the summary get the record, or none does
                outputs.add(rec)
                summary.add(rec)
            code = combine(code, exit_flag(rec))
        finished = True
    except BaseException as exc:
        summary.interrupted = not isinstance(exc, Exception)  # Ctrl-C or SIGTERM; not "no puzzle files here"
        raise
    finally:
        bar.clear()
        summary.seconds = time.monotonic() - start
        left_out = outputs.close(summary, finished)
        print(summary.line(), file=sys.stderr, flush=True)
        if left_out:
            print(_left_out_line(left_out, summary.interrupted, bool(args.resume)), file=sys.stderr, flush=True)
    return code
