"""The ``nonogen`` command: a thin argparse layer over the Python API.

Each sub-command lives in its own module with a ``register(subparsers)``
function that adds its parser and sets ``run=<function(args) -> exit code>``.
Only this package prints.
"""
from __future__ import annotations

import gc
import importlib
import os
import sys

from .. import __version__
from ..errors import (BlankPictureError, CollectionExistsError, EmptyModelError, NonogenError, OptionError,
                      OutputExistsError, SolverTimeout, UnknownFormatError)
from ..signals import alone, on_main_thread, signal
from .common import (COMMANDS, EXIT_CODES, EXIT_HANGUP, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_TERMINATED,
                     Terminated, forget_stops, raise_dropped_stop, sized, stop,
                     summary as summary)  # summary: also for the command modules that still ask this package
from .plain_verify import verify_args

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    import argparse
    from types import SimpleNamespace
    from typing import NoReturn, Optional, Sequence, Union

    Args = Union[argparse.Namespace, SimpleNamespace]  # a plain verify's are read without argparse


def build_parser(argv: Optional[Sequence[str]] = None) -> argparse.ArgumentParser:
    """The parser for ``argv``: only the module of the command it names is imported.

    Each command module pulls in what its work needs (Pillow, trimesh,
    reportlab, the SAT solver...); importing all of them costs more than
    verifying a small puzzle, and even an empty parser per command costs a
    tenth of it, so only ``nonogen --help`` lists them all.
    """
    import argparse  # here: the plain forms of verify are read without it (plain_verify.py)

    parser = argparse.ArgumentParser(
        prog="nonogen",
        formatter_class=sized(argparse.HelpFormatter),
        description="Make nonograms and Picross 3D levels from pictures and models, and prove them unique.",
    )
    parser.add_argument("--version", action="version", version=f"nonogen {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    chosen = next((arg for arg in (argv or ()) if not arg.startswith("-")), None)
    if chosen in COMMANDS:  # the other commands' lines only show in `nonogen --help`
        importlib.import_module(f"{__name__}.{COMMANDS[chosen][0]}").register(sub)
    else:
        for name, (_, line) in COMMANDS.items():
            sub.add_parser(name, help=line)
    return parser


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""Signals that end a run: Ctrl-C, and SIGTERM and SIGHUP as Ctrl-C does (SIGHUP comes when the terminal closes)."""


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command ``argv`` (else the command line) names, run; returns the process exit code (see ``EXIT_HELP``)."""
    return run(command_line(sys.argv[1:] if argv is None else list(argv)))


def command_line(argv: list[str]) -> Args:
    """What ``argv`` asks for: a plain verify read by :mod:`~nonogen.cli.plain_verify`, anything else by argparse
    (which exits after ``--help`` or a usage error). Only the named command's module is imported."""
    return _read(argv)[0]


def _read(argv: list[str]) -> tuple[Args, bool]:
    """:func:`command_line`'s answer, and whether it is a plain verify."""
    _escape_unencodable()
    plain = verify_args(argv)
    return (plain, True) if plain is not None else (build_parser(argv).parse_args(argv), False)


def run(args: Args) -> int:
    """Run the command ``args`` holds; returns the process exit code.

    SIGTERM and SIGHUP are turned into an exception for the length of the
    command so that they unwind like Ctrl-C (a signal the process was started
    to ignore, as under ``nohup``, stays ignored). An OS error (disk full, no
    permission, a folder where a file should be) is the input's problem: one
    line naming the path, exit 2. Any other unexpected exception is a bug and
    exits with its own code after a traceback, never with a verdict's code.
    """
    main_thread = on_main_thread()
    previous = {sig: signal.signal(sig, stop) for sig in _STOP_SIGNALS
                if signal.getsignal(sig) != signal.SIG_IGN} if main_thread else {}  # nohup's, a background job's
    try:
        code = int(args.run(args) or 0)
        raise_dropped_stop()  # a stop Python dropped on the way: the user still asked for it
        return code
    except NonogenError as exc:
        print(f"nonogen: error: {message(exc)}{hint(exc, args)}", file=sys.stderr)
        return EXIT_CODES["timeout"] if isinstance(exc, SolverTimeout) else EXIT_CODES["error"]
    except KeyboardInterrupt:
        print("nonogen: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated as ended:
        hangup = ended.signum == signal.SIGHUP
        print("nonogen: hung up" if hangup else "nonogen: terminated", file=sys.stderr)
        return EXIT_HANGUP if hangup else EXIT_TERMINATED
    except BrokenPipeError:
        if not _stdout_closed():  # some other pipe broke (a worker's, say): not the user's doing
            _print_traceback()
            print("nonogen: internal error (a bug in nonogen; please report it with the lines above)", file=sys.stderr)
            return EXIT_INTERNAL
        _silence_stdout()  # the reader of stdout went away (`| head`): nothing left to say
        return 0
    except OSError as exc:  # disk full, no permission, not a folder: the input's problem, not a bug
        print(f"nonogen: error: {os_error_text(exc)}", file=sys.stderr)
        return 2
    except Exception:  # a bug: the traceback helps the report, the exit code tells it from a verdict
        _print_traceback()
        print("nonogen: internal error (a bug in nonogen; please report it with the lines above)", file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        forget_stops()
        for sig, handler in previous.items():
            signal.signal(sig, handler)


YOUNG_ROUND = 20_000
"""New objects between two rounds of the collector's youngest generation in a plain verify (Python's default: 700)."""


def console() -> NoReturn:
    """The program ``nonogen`` (and ``python -m nonogen``): :func:`main` on the command line, then exit.

    A plain verify (:func:`~nonogen.cli.plain_verify.verify_args`) leaves through :func:`leave`:
    it writes no file and starts nothing that outlives it. The cyclic garbage collector waits
    until the command line is read; for a plain verify it then leaves what start-up made (modules,
    functions) out of its rounds for good: they live as long as the process, and going over them
    cost a 5x5 verify 1 ms (``python -m nonogen`` stops the collector from the start). Its youngest
    round then waits for :data:`YOUNG_ROUND` new objects instead of 700: reading and proving make
    many short-lived ones that reference counting frees, and the rounds over them were 1 % of a batch.
    """
    argv = sys.argv[1:]
    gc.disable()
    try:
        args, plain = _read(argv)
        if plain:
            gc.freeze()
            gc.set_threshold(YOUNG_ROUND)
    finally:
        gc.enable()
    try:
        code = run(args)
    except BaseException:  # SystemExit from a command: the usual teardown, with nothing frozen
        gc.unfreeze()
        raise
    _forget_caught_interrupt()
    if plain:
        leave(code)
    sys.exit(code)


def _forget_caught_interrupt() -> None:
    """Make the exit code the one :func:`run` chose, even after a Ctrl-C that ended inside a string ``exec``.

    CPython marks a run "ended by Ctrl-C" whenever a KeyboardInterrupt leaves a string ``exec`` or ``eval``
    (bpo-1054041, bpo-41602), even when a caller catches it, and under ``python -m`` it then kills itself
    with SIGINT after exiting, whatever code was asked for. Such an ``exec`` runs whenever a lazily imported
    module defines a namedtuple: a Ctrl-C landing there made ``python -m nonogen`` die by SIGINT (-2)
    instead of exiting 130, now and then, more often on a loaded machine. Each string ``eval`` starts by
    clearing that mark; only a second Ctrl-C, arriving in this very ``eval``, would set it again, and
    then dying by SIGINT is what was asked.
    """
    eval("0")  # noqa: S307 - a constant: the point is only the eval's reset of the interpreter's mark


def leave(code: int) -> NoReturn:
    """Exit with ``code`` without tearing the interpreter down, when nothing waits for the teardown.

    Freeing every module and object at exit cost a 5x5 verify 4-5 ms, an eighth of its whole
    process. Nothing is lost when no other thread runs and no exit handler is registered (a pool
    of workers, Dask, logging and temporary folders register one) once stdout and stderr are
    flushed; otherwise, or when a flush fails (the interpreter then reports it as it always
    did), the process exits the usual way.
    """
    import atexit  # here: built in, and only a leaving process asks

    waiting = getattr(atexit, "_ncallbacks", lambda: 1)()  # CPython's count; elsewhere assume something waits
    if alone() and not waiting and not sys.flags.inspect:
        try:
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:
                    stream.flush()
        except Exception:  # a broken pipe, a full disk: the usual exit reports it, as before
            _usual_exit(code)
        os._exit(code)
    _usual_exit(code)


def _usual_exit(code: int) -> NoReturn:
    """The interpreter's own exit, with what :func:`console` froze handed back to the collector for its teardown."""
    gc.unfreeze()
    sys.exit(code)


def _print_traceback() -> None:
    """The traceback of the exception being handled, for a bug report."""
    import traceback  # here: only a bug prints one, and it loads the tokenizer

    traceback.print_exc()


def _escape_unencodable() -> None:
    """Print what the terminal cannot encode as ``\\udcff`` escapes instead of dying on it.

    A file name that is not UTF-8 reaches Python as a lone surrogate; in a
    JSON line its backslash escape is exactly JSON's own, so it reads back
    as the same name (and ``--resume`` matches it).
    """
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def os_error_text(exc: OSError) -> str:
    """``PATH: reason`` of an OS error (the reason alone when no path is known).

    >>> os_error_text(PermissionError(13, "Permission denied", "/root/x.csv"))
    '/root/x.csv: Permission denied'
    """
    reason = exc.strerror or str(exc)
    return f"{exc.filename}: {reason}" if exc.filename is not None else reason


def _stdout_closed() -> bool:
    """Whether standard output's reader has gone away: the write end of such a pipe polls as an error.

    A broken pipe to a worker once looked like ``| head`` closing early, and a batch ended
    quietly with exit 0 after its first record.
    """
    import select  # here: only a broken pipe asks

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):  # no file descriptor, or no poll here: assume it was stdout
        return True


def _silence_stdout() -> None:
    """Point stdout at the null device, so the flush at exit does not fail once more."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def message(error: NonogenError) -> str:
    """The error's one line, naming the command-line flag where the library names a Python option."""
    if isinstance(error, OptionError):
        other = None if error.against is None else _flag(error.against[0])
        return error.for_flag(_flag(error.option), other)
    return str(error)


def _flag(option: str) -> str:
    """The command-line flag of a Python option name: ``min_distance`` -> ``--min-distance``."""
    return "--" + option.replace("_", "-")


def hint(error: NonogenError, args: Args) -> str:
    """The option that gets the user past ``error``, for the one-line message (library errors name none)."""
    if isinstance(error, CollectionExistsError):
        return " (use --resume to continue it, or --force to make it again)"
    if isinstance(error, OutputExistsError):
        return " (use --force to replace it)"
    if isinstance(error, UnknownFormatError):
        return " (name it with --from)" if args.command == "convert" else " (name it with --format)"
    if isinstance(error, EmptyModelError):
        return " (try a larger --size or --method surface)"
    if isinstance(error, BlankPictureError):
        if getattr(args, "colors", None) is not None:
            return " (try --background or more --colors)"
        if getattr(args, "mode", None) == "silhouette":
            return ""
        return " (try --invert or a different --threshold)"
    return ""


if __name__ == "__main__":  # pragma: no cover
    console()
