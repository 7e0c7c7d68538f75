"""The ``nonogen`` command: a thin argparse layer over the Python API.

Each sub-command lives in its own module with a ``register(subparsers)``
function that adds its parser and sets ``run=<function(args) -> exit code>``.
Only this package prints.
"""
from __future__ import annotations

import argparse
import importlib
import sys
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


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the console script; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except NonogenError as exc:
        print(f"nonogen: error: {exc}{hint(exc, args)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nonogen: interrupted", file=sys.stderr)
        return 130


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
