"""Helpers shared by the sub-commands: exit codes, progress bars, JSON output, standard input, argument types."""
from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager

from ..errors import InputError, LimitError
from ..formats import MAX_FILE_BYTES, decode_text
from ..signals import on_main_thread, signal

try:  # the C encoder json itself uses: importing json (and the expressions it compiles) cost a verify 1.7 ms
    from _json import encode_basestring, make_encoder
except ImportError:  # pragma: no cover - other Pythons
    encode_basestring = make_encoder = None  # type: ignore[assignment, misc]

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    import argparse
    from pathlib import Path
    from typing import Any, Callable, Iterable, Iterator, NoReturn, Optional, TypeVar

    T = TypeVar("T")

COMMANDS = {
    "verify": ("verify", "check puzzle files for a unique solution"),
    "solve": ("solve", "print the solution of a puzzle file"),
    "clues": ("clues", "derive the clues of a goal grid (text: '.' empty, '#' filled)"),
    "convert": ("convert", "convert puzzles between file formats"),
    "image": ("image", "turn a picture into a nonogram (verified unique, with printable sheets)"),
    "render": ("render", "draw a puzzle file (2D or Picross 3D) as an SVG, PNG or PDF sheet (or its solution)"),
    "book": ("book", "put puzzle files into one printable PDF booklet with answers at the back"),
    "gallery": ("gallery", "a page and a contact sheet to compare a collection's puzzles and select some"),
    "levelpack": ("levelpack", "a collection's levels as a pack for games (manifest by grade, GLB, previews)"),
    "site": ("site", "a collection as a web site to play on phones, offline too (index, play pages, app manifest)"),
    "mesh": ("mesh", "turn a 3D model (STL, OBJ, PLY, GLB/GLTF, OFF) into a unique Picross 3D level"),
    "pack": ("pack", "polyomino packing levels (IQ Puzzler Pro style)"),
    "scan": ("scan", "read puzzles from pictures and PDFs of their sheets (grid, size, clues) and verify them"),
    "studio": ("studio", "edit a puzzle made from a picture in the browser, the engine proving it as you edit"),
}
"""Sub-commands in the order ``nonogen --help`` lists them: the module that registers each, and its line.
Here, below the package and every command module, so that none of them imports the package that imports it."""


def summary(command: str) -> str:
    """The line ``nonogen --help`` shows for ``command``."""
    return COMMANDS[command][1]


EXIT_CODES = {
    "unique": 0, "solved": 0, "complete": 0, "limit": 0, "skipped": 0,
    "multiple": 1, "unsolvable": 1,
    "error": 2,
    "timeout": 3,
}
"""Exit code of each outcome, for every command. Over a batch the highest wins, except that errors and
timeouts together give :data:`EXIT_ERRORS_AND_TIMEOUTS`, so neither hides the other (:func:`combine`)."""

EXIT_ERRORS_AND_TIMEOUTS = 4
EXIT_INTERNAL = 5
"""A failure that is nonogen's fault (a bug, a crashed worker), never the input's: it outranks every verdict."""
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
EXIT_HANGUP = 129

EXIT_HELP = """exit status (the highest wins, except that 2 and 3 together give 4):
  0  every puzzle unique (skipped files do not count)
  1  some puzzle has several solutions or none (multiple, unsolvable)
  2  some input could not be read or verified (error), or a usage error
  3  some puzzle ran out of time (timeout)
  4  both: some errors and some timeouts
  5  an internal error: a bug or a crashed worker (please report it)
  130 interrupted (Ctrl-C), 143 terminated (SIGTERM), 129 hung up (SIGHUP)"""


def exit_flag(record: dict) -> int:
    """The exit code of one record: internal errors get their own code."""
    if record.get("status") == "error" and record.get("error_kind") == "internal":
        return EXIT_INTERNAL
    return EXIT_CODES.get(record.get("status", ""), EXIT_INTERNAL)


def combine(a: int, b: int) -> int:
    """The exit code of two outcomes together: the higher, but an error and a timeout make 4.

    >>> combine(2, 3), combine(4, 1), combine(1, 2), combine(5, 3)
    (4, 4, 2, 5)
    """
    if EXIT_INTERNAL in (a, b):
        return EXIT_INTERNAL
    if {a, b} == {EXIT_CODES["error"], EXIT_CODES["timeout"]}:
        return EXIT_ERRORS_AND_TIMEOUTS
    return max(a, b)


def combined_exit_code(records: Iterable[dict]) -> int:
    """The exit code of a batch of records.

    >>> combined_exit_code([{"status": "unique"}, {"status": "error"}, {"status": "timeout"}])
    4
    """
    code = 0
    for record in records:
        code = combine(code, exit_flag(record))
    return code


class ProgressBar:
    """A one-line progress bar on stderr, drawn only on a terminal (a log file would fill with carriage returns).

    Call it as ``on_progress(done, total)``; it draws for two or more items
    and wipes itself when done, so rows printed between updates never share a
    line with it.
    """

    def __init__(self, label: str = "", stream=None, width: int = 30):
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self.start = time.monotonic()
        self.active = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, done: int, total: int) -> None:
        if not self.active or total < 2:
            return
        if done >= total:
            self.clear()
            return
        filled = int(self.width * done / total)
        elapsed = time.monotonic() - self.start
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total} {elapsed:6.1f}s")
        self.stream.flush()

    def status(self, text: str) -> None:
        """A line of free text in the bar's place (work with no known total), on a terminal only."""
        if self.active:
            self.stream.write(f"\r\033[K{self.label}: {text}")
            self.stream.flush()

    def clear(self) -> None:
        if self.active:
            self.stream.write("\r\033[K")
            self.stream.flush()


def progress(items: Iterable[T], total: int, label: str = "", stream=None) -> Iterator[T]:
    """Yield ``items`` while a :class:`ProgressBar` counts them."""
    bar = ProgressBar(label, stream)
    bar(0, total)
    for done, item in enumerate(items, 1):
        bar.clear()
        yield item
        bar(done, total)
    bar.clear()


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: unwind like Ctrl-C, so workers are stopped and finished lines are kept."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


_raised: list[int] = []
"""Stop signals whose exception :func:`stop` raised and :func:`~nonogen.cli.run` has not caught yet."""


def stop(signum: int, frame: object = None) -> NoReturn:
    """The handler of Ctrl-C, SIGTERM and SIGHUP while a command runs: raise its exception, noting it first.

    Python prints and drops an exception raised where it cannot propagate: in a weakref callback
    (the one that ends every import), in a ``__del__``. A SIGTERM landing there was lost, and a
    batch told to stop went on to verify all its puzzles and write its CSV. The note lets the
    next record (:func:`signals_held`) and the end of the command raise it again.
    """
    _raised.append(signum)
    raise KeyboardInterrupt if signum == signal.SIGINT else Terminated(signum)


def raise_dropped_stop() -> None:
    """Raise again a stop signal whose exception Python dropped (see :func:`stop`)."""
    if _raised:
        stop(_raised[0])


def forget_stops() -> None:
    """The command's runner caught the stop: nothing is left to raise again."""
    _raised.clear()


@contextmanager
def signals_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP wait until the block is done, then act as usual.

    A record goes to several places (the resume file, CSV, stdout, the
    summary); a signal between two of them left the CSV a row ahead of the
    JSON lines. Blocking the signals in this thread was not enough: a signal
    the kernel hands to another thread (a SAT solver's timer) still runs its
    Python handler here, in the middle of the block. So the handlers
    themselves wait: each signal that arrives is noted, and the first one is
    passed to the handler it was meant for when the block ends.
    """
    raise_dropped_stop()
    if not on_main_thread():
        yield
        return
    arrived: list[int] = []
    previous = {sig: signal.signal(sig, lambda signum, frame: arrived.append(signum)) for sig in _HELD}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if arrived:
            _deliver(arrived[0], previous[arrived[0]])


_HELD = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _deliver(signum: int, handler: Any) -> None:
    """Act on ``signum`` as ``handler`` would have: call a Python handler, die of the default action, or ignore."""
    if callable(handler):
        handler(signum, None)
    elif handler == signal.SIG_DFL:
        os.kill(os.getpid(), signum)


def json_line(value: Any) -> str:
    """One JSON object as one line of text (no newline); numpy values and paths as :func:`to_jsonable` makes them.

    A record is plain already, so it is spelled at once; only a value that is not gets converted first (going
    over every record twice was a fifth of writing them)."""
    text = _plain_text(value)
    if text is not None:
        return text
    from ..plain import to_jsonable  # here: a record is plain already; only other values are converted

    return one_line_json(to_jsonable(value))


class _NotPlain(Exception):
    """A value :func:`one_line_json` leaves to json."""


def one_line_json(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False)``, spelled by json's own C encoder without importing json.

    What json spells by itself (text, numbers, booleans, None, lists, tuples, dicts) is spelled at
    once, to the byte; anything else goes to json itself, with its own result or error.

    >>> one_line_json({"file": "a\u00e9.non", "n": [1, 2.5, None, True], "e": {}})
    '{"file": "a\u00e9.non", "n": [1, 2.5, null, true], "e": {}}'
    """
    text = _plain_text(value)
    if text is None:
        import json  # here: only values a record never holds

        return json.dumps(value, ensure_ascii=False)
    return text


def _refuse(value: Any) -> Any:
    raise _NotPlain


_ENCODER = None if make_encoder is None else make_encoder(
    None, _refuse, encode_basestring, None, ": ", ", ", False, False, True)
"""What ``json.dumps(value, ensure_ascii=False)`` calls, but refusing what json cannot spell by itself (and without
the check for circular references: a record is a tree). Spelling records in Python took 1,300 calls for 36."""


def _plain_text(value: Any) -> Optional[str]:
    """:func:`one_line_json` of a value json spells by itself, or None when ``value`` holds anything else."""
    try:
        if _ENCODER is None:  # pragma: no cover - Pythons without json's C encoder
            import json  # here: only on those Pythons

            return json.dumps(value, ensure_ascii=False, default=_refuse)
        return "".join(_ENCODER(value, 0))
    except (_NotPlain, TypeError):  # TypeError: a key json cannot spell; json itself then says so
        return None


def print_json(value: Any) -> None:
    """One JSON object on one line of stdout (JSON Lines), written in one piece so an interrupt never splits it."""
    sys.stdout.write(json_line(value) + "\n")
    sys.stdout.flush()


STDIO = "-"
"""The name that means standard input (for inputs) or standard output (for outputs)."""


def read_stdin() -> str:
    """Standard input as puzzle text, read and checked as a puzzle file is."""
    stream = sys.stdin
    if stream is None:
        raise InputError("no standard input to read")
    raw = getattr(stream, "buffer", stream).read(MAX_FILE_BYTES + 1)
    return decode_text(raw.encode("utf-8") if isinstance(raw, str) else raw, "<stdin>")


def add_executor_options(parser: Any, default: str) -> None:
    """``--jobs``, ``--executor`` and ``--scheduler``: where a batch's work runs (``verify``, ``image``, ``mesh``).

    ``default`` finishes the sentence on the local pool: when the work stays in this process instead.
    """
    parser.add_argument("--jobs", type=positive_int, default=None, metavar="N",
                        help="worker processes (default 1; with --executor dask and no scheduler: local Dask workers)")
    parser.add_argument("--executor", choices=("local", "dask"), default=None,
                        help=f"local: a pool of worker processes on this machine (the default{default}); "
                        "dask: a Dask cluster")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="Dask scheduler, e.g. tcp://host:8786 (implies --executor dask)")


def chosen_executor(args: argparse.Namespace, in_process: bool) -> tuple[str, int]:
    """The executor and the number of jobs the options ask for; ``in_process``: one small task, no ``--jobs``."""
    if args.scheduler:
        executor = "dask"
    elif args.executor:
        executor = args.executor
    else:
        executor = "serial" if in_process and args.jobs is None else "local"
    return executor, args.jobs or (os.cpu_count() or 2 if executor == "dask" else 1)


def add_folder_options(parser: Any) -> None:
    """``-o DIR``, ``--force`` and ``--json`` of the commands that fill a folder and report on it."""
    parser.add_argument("-o", "--output", required=True, metavar="DIR",
                        help="output folder (must not exist or be empty)")
    parser.add_argument("--force", action="store_true", help="replace a non-empty output folder")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON line")


def print_report(report: dict, as_json: bool, summary: str) -> None:
    """The report as one JSON line, or ``summary`` for people."""
    if as_json:
        print_json(report)
    else:
        print(summary)


def check_output_file(path: str | Path, force: bool) -> Path:
    """Refuse to overwrite an existing file unless ``force`` (before the work; the write itself is atomic)."""
    from pathlib import Path  # here: a plain verify writes no file, and files.py loads pathlib (4 ms)

    from ..files import check_file

    path = Path(path)
    check_file(path, force)
    return path


def sized(formatter: type[argparse.HelpFormatter]) -> Callable[..., argparse.HelpFormatter]:
    """argparse's ``formatter_class``: ``formatter`` as wide as argparse makes it, without importing shutil.

    argparse asks ``shutil`` for the width of every formatter it makes, one per option added, and shutil
    loads the compression modules: 2 ms of every start-up, though only help text is ever wrapped.
    """
    def make(prog: str) -> argparse.HelpFormatter:
        return formatter(prog, width=terminal_columns() - 2)  # argparse keeps 2 columns free, as here
    return make


def terminal_columns() -> int:
    """What ``shutil.get_terminal_size().columns`` answers: $COLUMNS, else stdout's terminal, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def parse_size(text: str, max_side: int = 1000) -> tuple[int, int]:
    """``"WxH"`` -> ``(W, H)``, both between 1 and ``max_side``."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise LimitError(f"size {text!r}: expected WxH, e.g. 20x15")
    w, h = (int(p) for p in parts)
    if not (1 <= w <= max_side and 1 <= h <= max_side):
        raise LimitError(f"size {text!r}: each side must be between 1 and {max_side}")
    return w, h


def grade_range(text: str) -> tuple[int, int]:
    """``--grade`` of the publishing commands: ``2`` or ``1-3`` as (lowest, highest), grades 1 to 5.

    >>> grade_range("2"), grade_range("1-3"), grade_range(" 4 - 5 ")
    ((2, 2), (1, 3), (4, 5))
    """
    low, _, high = text.partition("-")
    try:
        bounds = (int(low), int(high or low))
    except ValueError:
        raise bad_value(f"{text!r}: expected a grade (e.g. 2) or a range (e.g. 1-3)") from None
    if not 1 <= bounds[0] <= bounds[1] <= 5:
        raise bad_value(f"{text!r}: expected grades from 1 to 5, lowest first")
    return bounds


def bad_value(text: str) -> Exception:
    """argparse's error for an option's value, which argparse turns into its one-line usage error."""
    # here: a plain verify reads its options without argparse (cli/plain_verify.py), and a bad value goes back to it
    import argparse

    return argparse.ArgumentTypeError(text)


def positive_float(text: str) -> float:
    """argparse type for seconds: a number above 0 (``inf`` means no limit)."""
    try:
        value = float(text)
    except ValueError:
        raise bad_value(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise bad_value(f"expected a number above 0, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """argparse type for counts such as ``--jobs``: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise bad_value(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise bad_value(f"expected at least 1, got {text!r}")
    return value
