"""``nonogen mesh``: a 3D model file to a unique Picross 3D level, with pictures and a report."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import OptionError
from ..files import check_folder
from ..importers.mesh import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE
from ..make.level3d import from_mesh
from ..model3d import Puzzle3D
from ..output import save
from . import summary
from .collection import add_collection_options, is_collection, run_collection
from .common import EXIT_CODES, ProgressBar, add_folder_options, positive_float, print_report


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "mesh",
        help=summary("mesh"),
        description="Voxelize a model, prove the level unique (repairing it if needed), hide clues, "
        "and write level.json, solution.svg/.png, puzzle.svg/.png and report.json into DIR.",
    )
    p.add_argument("model", nargs="+", metavar="MODEL",
                   help="the 3D model file; several files, folders or globs make a collection")
    p.add_argument("--size", type=int, default=DEFAULT_SIZE, metavar="N",
                   help=f"cubes on the longest axis, {MIN_SIZE}-{MAX_SIZE} (default {DEFAULT_SIZE})")
    p.add_argument("--texture", default=None, metavar="IMAGE",
                   help="paint the model with this image through its texture coordinates, when its file does not "
                   "name it (an OBJ without its .mtl); one model only")
    p.add_argument("--up", default="auto", metavar="x|y|z|auto",
                   help="the model's up axis (default auto: the axis it rests on, else y for PLY/GLB/GLTF/OBJ and "
                   "z for STL/OFF)")
    p.add_argument("--turn", default="auto", metavar="0|90|180|270|auto",
                   help="degrees to turn the model about its up axis, counter-clockwise seen from above (default auto: "
                   "its long side to the viewer, then the turn whose view shows the most of its detail; the report "
                   "says which and why)")
    p.add_argument("--method", choices=("surface", "center"), default="center",
                   help="keep cells the surface touches (surface) or whose centre is inside (center, default)")
    p.add_argument("--unique", choices=("givens", "edit", "off"), default="givens",
                   help="if the full clue set is not unique: reveal cubes (givens, default), change the shape (edit) "
                   "or just report (off)")
    p.add_argument("--hide", default="max", metavar="max|FRACTION",
                   help="hide as many clues as possible (max, default) or stop at this share, e.g. 0.4")
    p.add_argument("--line-solvable", action="store_true",
                   help="keep the level solvable by line logic alone (human-fair)")
    p.add_argument("--grade", type=int, choices=(1, 2, 3, 5), metavar="G",
                   help="hide clues so the level lands on this grade: 1-3 line logic alone, 5 beyond it "
                   "(replaces --hide)")
    p.add_argument("--seed", type=int, default=0, help="order in which clues are tried for hiding (default 0)")
    p.add_argument("--timeout", type=positive_float, default=300.0, metavar="S",
                   help="seconds for the whole level (default 300)")
    p.add_argument("--no-color", action="store_true", help="draw plain cubes even if the model has colours")
    p.add_argument("--title", default=None,
                   help="level title (default: 'Level XxYxZ'; a file name would give the answer away)")
    add_folder_options(p)
    add_collection_options(p)
    p.set_defaults(run=run_mesh)


def _hide_share(text: str) -> float | None:
    """``max`` -> None, else the share as a number (hiding checks its range)."""
    if text.strip().lower() == "max":
        return None
    try:
        return float(text)
    except ValueError:
        raise OptionError("hide", repr(text), "'max' or a share between 0 and 1") from None


def run_mesh(args: argparse.Namespace) -> int:
    if is_collection(args, args.model):
        if args.texture is not None:
            raise OptionError("texture", args.texture, "one model: a texture belongs to one model's coordinates")
        making = {"size": args.size, "up": args.up, "turn": args.turn, "method": args.method, "unique": args.unique,
                  "hide": _hide_share(args.hide), "seed": args.seed, "line_solvable": args.line_solvable,
                  "grade": args.grade, "timeout": args.timeout, "title": args.title}
        return run_collection(args, args.model, "mesh", making, {"colored": not args.no_color})
    args.model = args.model[0]
    check_folder(args.output, args.force, [args.model])
    bar = ProgressBar("hiding clues")
    try:
        made = from_mesh(args.model, size=args.size, up=args.up, turn=args.turn, method=args.method, unique=args.unique,
                         hide=_hide_share(args.hide), seed=args.seed, line_solvable=args.line_solvable,
                         grade=args.grade, timeout=args.timeout, title=args.title, on_progress=bar,
                         texture=args.texture)
    finally:  # an error or Ctrl-C must not print on the bar's line
        bar.clear()
    report = made.report
    out = save(made, args.output, force=args.force, colored=not args.no_color)
    assert isinstance(made.puzzle, Puzzle3D)  # from_mesh makes levels
    X, Y, Z = made.puzzle.size
    notes = list(report["notes"])
    facing = report["orientation"]
    if facing["chosen"]["turn"] == "auto" and facing["turn"]:
        notes.insert(0, f"turned {facing['turn']} degrees about {facing['up']} to face the view (see report.json)")
    if args.unique == "off" and report["status"] == "multiple":
        notes.append("--unique givens or --unique edit would repair it")
    elif args.unique == "off" and args.line_solvable and not report["line_solvable"]:
        notes.append("--unique givens would make it line-solvable")
    graded = f", grade {report['grade']} ({report['grade_name']})" if report["grade"] else ""
    print_report(report, args.json,
                 f"{Path(args.model).name}: {X}x{Y}x{Z}, {report['voxels']} cubes, {report['status']}{graded}; "
                 + "; ".join(notes)
                 + f"\nwrote {out}/level.json, level.html (play in a browser), level.glb (for game engines), "
                 f"solution.svg/.png, puzzle.svg/.png, report.json ({report['seconds']:.1f} s)")
    for warning in report["warnings"]:
        print(f"nonogen: warning: {warning}", file=sys.stderr)
    if report["status"] != "unique":
        print(f"nonogen: warning: the level is {report['status']}", file=sys.stderr)
    return EXIT_CODES.get(report["status"], 1)
