"""``nonogen convert IN OUT``: rewrite puzzles in another file format, saying what the target cannot hold."""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Optional

from .. import formats
from ..formats import taai
from ..errors import FormatError, InputError, PuzzleError
from ..export.model3d import AXES, MODEL_SUFFIXES
from ..files import write_file
from ..model3d import Puzzle3D
from ..output import write_model
from . import summary
from .common import STDIO, check_output_file, print_json, read_stdin


def register(subparsers) -> None:
    names = ", ".join(formats.FORMATS)
    p = subparsers.add_parser(
        "convert",
        help=summary("convert"),
        description=f"Convert puzzle files between formats ({names}). The format comes from the suffix "
        "(.non .nonpack .cnon .xml .pbn .nin .g .json .txt) or the content; --from/--to override it. "
        "A Picross 3D level written as .glb .gltf .obj .ply or .stl becomes its solved model: merged, coloured "
        "cubes, one unit each, in the frame --axes names.",
    )
    p.add_argument("input", help="puzzle file to read ('-' = standard input; name the format with --from if "
                   "its content does not tell)")
    p.add_argument("output", help="file to write ('-' = standard output; the format is --to, else the input's)")
    p.add_argument("--from", dest="from_format", metavar="FMT", help="format of INPUT (default: guess)")
    p.add_argument("--to", dest="to_format", metavar="FMT", help="format of OUTPUT (default: from its suffix)")
    p.add_argument("--solutions", metavar="FILE", help="TAAI solution file: attach each solution as the goal")
    p.add_argument("--axes", choices=AXES, default="y-up",
                   help="frame of a 3D model: y-up (glTF, three.js, Unity, Godot; default) or z-up (Blender, CAD)")
    p.add_argument("--force", action="store_true", help="overwrite OUTPUT if it exists")
    p.add_argument("--json", action="store_true", help="print a JSON summary on stdout")
    p.set_defaults(run=run)


def _dropped(puzzles, fmt: str) -> list[str]:
    """Dropped pieces over all puzzles, each once, with how many puzzles lost it when there are several."""
    counts = Counter(item for p in puzzles for item in dict.fromkeys(formats.dropped(p, fmt)))
    if len(puzzles) == 1:
        return list(counts)
    return [f"{item} (in {n} of {len(puzzles)} puzzles)" for item, n in counts.items()]


def _read(name: str, fmt: Optional[str]) -> tuple[list, str]:
    """The puzzles of the input and the format they were read as; ``-`` is standard input."""
    # read once: load_all would read a file again to tell its format
    text, label = (read_stdin(), "<stdin>") if name == STDIO else (formats.read_text(name), name)
    try:
        like = fmt or formats.format_for(name, text)  # "-" has no suffix: the content decides
        return formats.loads_all(text, like), like
    except FormatError as exc:
        raise (exc.with_path(label) if exc.path is None else exc) from None


def _target(args: argparse.Namespace, like: str) -> str:
    """The output format: ``--to``, else the output's suffix; standard output keeps the input's format."""
    if args.to_format:
        return args.to_format
    if args.output != STDIO:
        return formats.format_for(args.output, like=like)
    if formats.writable(like):
        return like
    raise InputError(f"nonogen reads {like} but does not write it; name the format of standard output with --to")


def _write_model(args: argparse.Namespace, puzzles: list) -> int:
    """A Picross 3D level's solved model as a mesh file (the goal, in the level's colours)."""
    if len(puzzles) != 1 or not isinstance(puzzles[0], Puzzle3D):
        raise InputError(f"{args.input}: a model file holds one solved Picross 3D level; this is not one")
    try:
        written = write_model(puzzles[0], args.output, axes=args.axes, force=args.force)
    except PuzzleError as exc:  # no goal: name the file it came from
        raise InputError(f"{args.input}: {exc}") from None
    if args.json:
        print_json({"input": args.input, **written})
    else:
        X, Y, Z = puzzles[0].size
        print(f"{args.output}: {written['cubes']} cubes of a {X}x{Y}x{Z} level, {args.axes}", file=sys.stderr)
    return 0


def run(args: argparse.Namespace) -> int:
    if args.json and args.output == STDIO:
        raise InputError("standard output carries the converted puzzles; --json needs a named output file")
    if args.output != STDIO:
        check_output_file(args.output, args.force)
    puzzles, like = _read(args.input, args.from_format)
    if Path(args.output).suffix.lower() in MODEL_SUFFIXES and args.output != STDIO:
        return _write_model(args, puzzles)
    if args.solutions:
        puzzles = taai.attach_solutions(puzzles, taai.loads_solutions(formats.read_text(args.solutions)))
    if isinstance(puzzles[0], Puzzle3D) and like != "nonogen-3d":
        like = "nonogen-3d"
    target = _target(args, like)
    text = formats.dumps_all(puzzles, target)
    lost = _dropped(puzzles, target)
    if args.output == STDIO:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_file(args.output, text, args.force)
    where = "standard output" if args.output == STDIO else args.output
    for item in lost:
        print(f"nonogen: warning: {where} ({target}) cannot hold: {item}", file=sys.stderr)
    if args.json:
        print_json({"input": args.input, "output": args.output, "format": target,
                    "puzzles": len(puzzles), "dropped": lost})
    else:  # on stderr: standard output may be the converted file itself
        count = f"{len(puzzles)} puzzle{'s' if len(puzzles) != 1 else ''}"
        print(f"{where}: {count} written as {target}", file=sys.stderr)
    return 0
