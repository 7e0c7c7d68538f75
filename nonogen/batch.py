"""Verifying a collection of puzzle files: collect, read, verify and describe each puzzle as one plain record.

The records are what ``nonogen verify --json`` prints, one per puzzle (a
bundle gives one per member). Reading happens here, in the calling process,
file by file as the workers need work; verifying happens in
:func:`run_task`, which an executor (:mod:`nonogen.executors`) runs in this
process, in a local process pool or on a Dask cluster, always giving the same
records. Nothing a single file or puzzle does stops the batch: it becomes an
``error`` record (or ``skipped``, for files nonogen does not recognise).
"""
from __future__ import annotations

import os
import time
from collections import deque, namedtuple

from . import formats
from .collect import found_names, one_line, shown, suffix_of, unreadable
from .importers.scan import SCAN_SUFFIXES
from .errors import FormatError, InputError, NonogenError, UnknownFormatError
from .model import Puzzle
from .solve import verify_kept
from .solve.deadline import TIMEOUT, OutOfTime, interrupt_at, read_limit
from .solve.result import VerifyResult
from .solve.session import Session

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path
    from typing import Callable, Iterable, Iterator, Optional, Sequence, Union
    from .model3d import Puzzle3D

    PathLike = Union[str, Path]
    AnyPuzzle = Union[Puzzle, "Puzzle3D"]

__all__ = ["Source", "Task", "RECORD_STATUSES", "SOLUTION_SUFFIX", "puzzle_files", "verify_paths", "record",
           "run_task"]

RECORD_STATUSES = ("unique", "multiple", "unsolvable", "timeout", "error", "skipped")
"""Every status a verify record can have (a proof's verdict, or why there is none), in the order summaries list them."""
SOLUTION_SUFFIX = ".solution.txt"
"""How the solution files of a batch end (cli/records.py names them): in a folder, they are skipped."""

_META_FIELDS = ("title", "author", "license")


class Source(namedtuple("Source", "name text")):
    """Puzzle text that is not in a file (standard input), verified under the name ``name``.

    Named tuples here come from ``collections.namedtuple``: ``typing.NamedTuple`` would load typing on every verify.
    """

    __slots__ = ()

    name: str
    text: str


class Task(namedtuple("Task", "label puzzle fields timeout strategy ambiguity grade",
                      defaults=(TIMEOUT, "full", True, True))):
    """One puzzle to verify and everything its record needs: the unit of work an executor ships."""

    __slots__ = ()

    label: str
    puzzle: AnyPuzzle
    fields: dict
    timeout: Optional[float]  # TIMEOUT unless given
    strategy: str  # "full" unless given
    ambiguity: bool  # True unless given
    grade: bool  # True unless given


# --- collecting and reading ----------------------------------------------------------------------


def puzzle_files(paths: Iterable[Union[PathLike, Source]]) -> Iterator[tuple[Union[Path, Source], bool]]:
    """``(file, named)`` for files named directly (``named``) and candidates found in folders and globs.

    A folder offers every entry whose suffix some format uses; whether it
    really is a puzzle is decided by reading it (:func:`nonogen.collect.found_files`).
    """
    from pathlib import Path  # here: verifying takes the names as text, and pathlib costs it 4 ms

    return ((item if isinstance(item, Source) else Path(item), named) for item, named in _puzzle_names(paths))


def _puzzle_names(paths: Iterable[Union[PathLike, Source]]) -> Iterator[tuple[Union[str, Source], bool]]:
    for item in paths:
        if isinstance(item, Source):
            yield item, True
        else:
            yield from found_names([item], formats.SUFFIXES)


def _bad(label: str, status: str, message: str, **extra) -> dict:
    return {"file": label, "status": status, **extra, "message": message}


def _read(item: Union[str, Source], named: bool, fmt: Optional[str], limit: Optional[float]) -> tuple[str, list]:
    """The format and members of one file, or ``("", [record])`` when it gives no puzzle at all.

    Reading and guessing the format stop after ``limit`` seconds (a ``timeout`` record): the
    time limit covers them too.
    """
    name = item.name if isinstance(item, Source) else str(item)
    try:
        if not isinstance(item, Source):
            why = unreadable(item)
            if why:
                return "", [_unreadable(name, *why)]
            if named and fmt is None and suffix_of(item).lower() in SCAN_SUFFIXES:  # a page of puzzles: scan it
                return "scan", _scanned(item)
            if not named and item.endswith(SOLUTION_SUFFIX):  # it reads as a char-grid picture: say what it is
                return "", [_bad(name, "skipped", f"{shown(name)}: a solution that nonogen wrote, not a puzzle")]
        with interrupt_at(limit):
            text = item.text if isinstance(item, Source) else formats.read_text(item)
            found = fmt or (formats.sniff(text) if isinstance(item, Source) else formats.format_for(item, text))
            return found, formats.read_members(text, found, name)
    except OutOfTime:
        return "", [_bad(name, "timeout", f"{shown(name)}: reading the file took longer than {limit:g} s "
                         "(half the time limit, at least a second)")]
    except UnknownFormatError as exc:
        if named:
            return "", [_bad(name, "error", str(exc.with_path(shown(name))), error_kind="input")]
        return "", [_bad(name, "skipped", f"{shown(name)}: not a puzzle file nonogen recognises")]
    except NonogenError as exc:
        return "", [_bad(name, "error", _named(exc, name), error_kind="input")]
    except Exception as exc:  # a reader bug must cost this file only
        return "", [_internal(name, exc)]


def _scanned(name: str) -> list:
    """The puzzles read from a picture or PDF named on the command line (``nonogen scan`` names its suspects)."""
    from .scanning import scan  # here: only a named picture or PDF loads the scanner (numpy, OpenCV)

    return [found.puzzle for found in scan(name, verify=False)]


def _unreadable(name: str, reason: str, special: bool) -> dict:
    """A FIFO or device is skipped unopened (it could wait or run for ever); a missing file or a link loop is an
    error."""
    if special:
        return _bad(name, "skipped", f"{shown(name)}: {reason}; not read (a FIFO or device could block)")
    return _bad(name, "error", f"{shown(name)}: {reason}", error_kind="input")


def _named(exc: NonogenError, name: str) -> str:
    if isinstance(exc, FormatError) and exc.path in (None, name):
        exc = exc.with_path(shown(name))
    return str(exc) if isinstance(exc, FormatError) else one_line(str(exc), name)


def _internal(label: str, exc: BaseException, fields: Optional[dict] = None) -> dict:
    """The record of a failure that is nonogen's fault, not the file's: named, located, kept apart from input errors."""
    import traceback  # here: only a bug's record needs it, and it loads the tokenizer

    where = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
    at = f" at {os.path.basename(where[0].filename)}:{where[0].lineno}" if where else ""
    message = f"internal error: {type(exc).__name__}: {exc}{at}"
    return _bad(label, "error", message, **(fields or {}), error_kind="internal")


# --- records --------------------------------------------------------------------------------------


def _fields(puzzle: AnyPuzzle, fmt: str, member: int, members: int) -> dict:
    """What a record says about the puzzle itself, before any verdict."""
    out: dict = {"format": fmt}
    if members > 1:
        out.update(member=member, members=members)
    out.update({k: puzzle.meta[k] for k in _META_FIELDS if puzzle.meta.get(k)})
    out["clue_hash"] = puzzle.clue_hash()
    return out


def _grid_text(puzzle: AnyPuzzle, result: VerifyResult, name: str) -> object:
    """A solution as text: rows of palette codes (2D) or one 0/1 string in C order (3D)."""
    grid = result.raw_grid(name)
    return None if grid is None else puzzle.grid_to_text(grid)


def _differences(puzzle: AnyPuzzle, result: VerifyResult) -> Sequence[tuple[int, ...]]:
    """The cells where the two reported solutions differ, in reading (C) order."""
    return puzzle.differences(result.raw_grid("solution"), result.raw_grid("second_solution"))


def record(label: str, puzzle: AnyPuzzle, result: VerifyResult, *, fields: Optional[dict] = None) -> dict:
    """The plain record of one verified puzzle (the ``--json`` line): grids as text, no numpy."""
    out = {"file": label, "status": result.status, **(fields or {}), "solution": _grid_text(puzzle, result, "solution")}
    second = _grid_text(puzzle, result, "second_solution")
    if second is not None:
        out["second_solution"] = second
        out["ambiguous_cells"] = [list(cell) for cell in _differences(puzzle, result)]
        out["ambiguous_complete"] = False  # only where the two solutions differ, until a scan adds the rest
    out.update(puzzle.size_fields())
    out.update(difficulty=result.difficulty, grade=result.grade, grade_name=result.grade_name, score=result.score,
               work=result.work, seconds=round(result.seconds, 4))
    if result.message:
        out["message"] = result.message
    return out


def run_task(task: Task) -> dict:
    """Verify one puzzle into its record; any failure becomes an ``error`` record, never an exception.

    This is the whole per-puzzle work, the same in every executor, so the
    local pool and a Dask cluster give the same records.
    """
    try:
        result, session = verify_kept(task.puzzle, timeout=task.timeout, strategy=task.strategy, grade=task.grade)
        out = record(task.label, task.puzzle, result, fields=task.fields)
        if task.ambiguity and session is not None and result.status == "multiple":  # a session scans 2D cells
            _add_ambiguity(out, session, result, task.timeout)
        return out
    except NonogenError as exc:
        return _bad(task.label, "error", str(exc), **task.fields, error_kind="input")
    except Exception as exc:  # MemoryError, RecursionError, a bug: this puzzle only
        return _internal(task.label, exc, task.fields)


def task_failed(task: Task, message: str, status: str = "error") -> dict:
    """The record of a task whose worker died or was stopped (the executors' side of :func:`run_task`)."""
    extra = {"error_kind": "internal"} if status == "error" else {}
    return _bad(task.label, status, message, **task.fields, **extra)


def _add_ambiguity(out: dict, session: Session, result: VerifyResult, timeout: Optional[float]) -> None:
    """Every cell that differs in some solution, within what is left of the time limit.

    The two reported solutions often differ in a handful of cells while many
    more are ambiguous; a puzzle maker needs them all. Past the time limit
    the cells found so far are reported with ``ambiguous_complete: false``.
    """
    start = time.monotonic()
    left = None if timeout is None else max(timeout - result.seconds, 0.05)
    cells, complete = session.ambiguous_cells(result.raw_grid("solution"), timeout=left)
    out["ambiguous_cells"] = [list(cell) for cell in sorted(set(cells) | set(_differences(session.puzzle, result)))]
    out["ambiguous_complete"] = complete
    out["seconds"] = round(out["seconds"] + time.monotonic() - start, 4)


# --- the batch ------------------------------------------------------------------------------------


class _Feed:
    """Reads files one at a time as the executor asks for work; records that need no work wait in ``ready``.

    Reading lazily keeps memory flat on big collections and lets the first
    verdicts arrive before the last file is read. Puzzles already in the
    resumed records are left out, and whole files of them are not even read.
    """

    def __init__(self, files: list, options: dict, earlier: Iterable[dict], dedupe: bool):
        self.files, self.options, self.dedupe = files, options, dedupe
        self.ready: deque = deque()
        self.done, self.finished_files, self.seen = _earlier(earlier)
        self.unread = len(files)
        self.known = 0

    def tasks(self) -> Iterator[Task]:
        for item, named in self.files:
            self.unread -= 1
            if str(item if not isinstance(item, Source) else item.name) in self.finished_files:
                continue
            fmt, members = _read(item, named, self.options["fmt"], read_limit(self.options["timeout"]))
            yield from self._members(item, fmt, members)

    def _members(self, item, fmt: str, members: list) -> Iterator[Task]:
        name = item.name if isinstance(item, Source) else str(item)
        count = len(members)
        for k, member in enumerate(members, 1):
            label = f"{name}#{k}" if count > 1 else name
            if label in self.done:
                continue
            self.known += 1
            where = {"member": k, "members": count} if count > 1 else {}
            if isinstance(member, dict):
                self.ready.append(member)
            elif isinstance(member, FormatError):
                self.ready.append(_bad(label, "error", str(member), format=fmt, **where, error_kind="input"))
            else:
                task = self._task(label, member, fmt, k, count)
                if task is not None:
                    yield task

    def _task(self, label: str, puzzle: AnyPuzzle, fmt: str, k: int, count: int) -> Optional[Task]:
        try:
            fields = _fields(puzzle, fmt, k, count)
        except Exception as exc:
            self.ready.append(_internal(label, exc))
            return None
        if self.dedupe:  # without it no hash is kept, so memory stays flat on a big collection
            first = self.seen.setdefault(fields["clue_hash"], label)
            if first != label:
                self.ready.append(_bad(label, "skipped", f"same clues as {first}", **fields, duplicate_of=first))
                return None
        opts = self.options
        return Task(label, puzzle, fields, opts["timeout"], opts["strategy"], opts["ambiguity"], opts["grade"])


def _earlier(records: Iterable[dict]) -> tuple[set, set, dict]:
    """From a resumed run's records: labels done, files done whole, and the first label of each clue hash."""
    done: set = set()
    finished: set = set()
    members: dict[str, set] = {}
    counts: dict[str, int] = {}
    seen: dict = {}
    for rec in records:
        label = rec["file"]
        done.add(label)
        if "clue_hash" in rec and "duplicate_of" not in rec:
            seen.setdefault(rec["clue_hash"], label)
        if "members" in rec:
            source = label.rsplit("#", 1)[0]
            members.setdefault(source, set()).add(label)
            counts[source] = rec["members"]
        else:
            finished.add(label)
    finished |= {src for src, got in members.items() if len(got) >= counts[src]}
    return done, finished, seen


def verify_paths(
    paths: Iterable[Union[PathLike, Source]],
    *,
    jobs: int = 1,
    timeout: Optional[float] = TIMEOUT,
    strategy: str = "full",
    ambiguity: bool = True,
    grade: bool = True,
    format: Optional[str] = None,
    on_progress: Optional[Callable[[int, int], None]] = None,
    executor: object = None,
    resume: Iterable[dict] = (),
    dedupe: bool = False,
    scheduler: Optional[str] = None,
) -> Iterator[dict]:
    """Verify every puzzle in ``paths`` (files, folders, :class:`Source`); yields one record per puzzle as it finishes.

    Records arrive in completion order (input order when one process works). ``executor`` is ``None``
    (this process for one job, a local process pool for more), ``"serial"``, ``"local"``, ``"dask"`` or an
    executor object from :mod:`nonogen.executors`; ``scheduler`` (``tcp://host:8786``) sends the work to that Dask
    cluster. ``resume`` takes the records of an earlier,
    interrupted run: their puzzles are not verified (nor yielded) again.
    ``dedupe`` skips a puzzle whose clues an earlier one already had; either
    way records carry ``clue_hash``. ``grade=False`` leaves the 1-5 grade out
    (``None``), which is most of the work on unique puzzles. ``on_progress(done, total)`` is called
    before the first record and after each one (``total`` grows as files are
    read). Closing the generator stops the workers. Raises
    :class:`~nonogen.errors.InputError` when the paths hold no puzzle file.
    """
    items = [p if isinstance(p, Source) else str(p) for p in paths]
    files = list(_puzzle_names(items))
    if not files:
        names = ", ".join(p.name if isinstance(p, Source) else p for p in items)
        raise InputError(f"no puzzle files in {names} (known suffixes: {' '.join(formats.SUFFIXES)})")
    options = {"fmt": format, "timeout": timeout, "strategy": strategy, "ambiguity": ambiguity, "grade": grade}
    feed = _Feed(files, options, resume, dedupe)
    if not scheduler and (executor == "serial" or (executor is None and jobs <= 1)):  # make_executor's serial case
        stream = (run_task(task) for task in feed.tasks())  # as SerialExecutor runs them, without loading executors.py
    else:
        from .executors import make_executor  # here: only a pool or a cluster needs it
        stream = make_executor(executor, jobs=jobs, timeout=timeout, scheduler=scheduler).run(
            run_task, feed.tasks(), task_failed)
    report = on_progress or (lambda done, total: None)
    done = 0
    report(0, len(files))
    try:
        for out in _merge(stream, feed.ready):
            done += 1
            yield out
            report(done, max(done, feed.known + feed.unread))
    finally:
        stream.close()


def _merge(stream: Iterator[dict], ready: deque) -> Iterator[dict]:
    """Executor results, with the records that needed no work slipped in as soon as they exist."""
    for out in stream:
        while ready:
            yield ready.popleft()
        yield out
    while ready:
        yield ready.popleft()
