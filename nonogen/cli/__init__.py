"""The ``nonogen`` command: a thin argparse layer over the Python API.

Each sub-command lives in its own module with a ``register(subparsers)``
function that adds its parser and sets ``run=<function(args) -> exit code>``.
Only this package prints.
"""
from __future__ import annotations

import argparse
import importlib
import signal
import sys
import threading
import traceback
from typing import Optional, Sequence

from ..errors import BlankPictureError, EmptyModelError, NonogenError, OutputExistsError, UnknownFormatError

# Sub-command modules, in the order `nonogen --help` lists them.
COMMAND_MODULES = ["verify", "convert", "image", "render", "book", "mesh", "pack"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nonogen",
        description="Make nonograms and Picross 3D levels from pictures and models, and prove them unique.",
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"nonogen {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


class Terminated(BaseException):
    """SIGTERM arrived: unwind like Ctrl-C, so workers are stopped and finished lines are kept."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated()


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the console script; returns the process exit code (see ``EXIT_HELP``).

    SIGTERM is turned into an exception for the length of the command so
    that it unwinds like Ctrl-C; an unexpected exception is a bug and exits
    with its own code after a traceback, never with a verdict's code.
    """
    from .common import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_TERMINATED

    parser = build_parser()
    args = parser.parse_args(argv)
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if main_thread else None
    try:
        return int(args.run(args) or 0)
    except NonogenError as exc:
        print(f"nonogen: error: {exc}{hint(exc, args)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nonogen: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:
        print("nonogen: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    except BrokenPipeError:  # the reader of stdout went away (`| head`): nothing left to say
        _silence_stdout()
        return 0
    except Exception:  # a bug: the traceback helps the report, the exit code tells it from a verdict
        traceback.print_exc()
        print("nonogen: internal error (a bug in nonogen; please report it with the lines above)", file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)


def _silence_stdout() -> None:
    """Point stdout at the null device, so the flush at exit does not fail once more."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def hint(error: NonogenError, args: argparse.Namespace) -> str:
    """The option that gets the user past ``error``, for the one-line message (library errors name none)."""
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
    sys.exit(main())
