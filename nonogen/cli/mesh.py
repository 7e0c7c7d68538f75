"""``nonogen mesh``: a 3D model file to a unique Picross 3D level, with pictures and a report."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .. import formats
from ..errors import InputError, LimitError
from ..importers.mesh import MAX_SIZE, MIN_SIZE, default_up, mesh_to_voxels
from ..render.iso3d import sheet_picture, solution_picture, to_png, to_svg
from ..solve.picross3d import make_level
from .common import add_folder_options, positive_float, prepare_output_dir, write_report

EXIT = {"unique": 0, "multiple": 1, "unsolvable": 1, "timeout": 3}  # as `nonogen verify`


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "mesh",
        help="turn a 3D model (STL, OBJ, PLY, GLB/GLTF, OFF) into a unique Picross 3D level",
        description="Voxelize a model, prove the level unique (repairing it if needed), hide clues, "
        "and write level.json, solution.svg/.png, puzzle.svg/.png and report.json into DIR.",
    )
    p.add_argument("model", metavar="MODEL", help="the 3D model file")
    p.add_argument("--size", type=int, default=10, metavar="N", help=f"cubes on the longest axis, {MIN_SIZE}-{MAX_SIZE} (default 10)")
    p.add_argument("--up", choices=("z", "y"), default=None, help="the model's up axis (default: y for PLY/GLB/GLTF/OBJ, z for STL/OFF)")
    p.add_argument("--method", choices=("surface", "center"), default="center",
                   help="keep cells the surface touches (surface) or whose centre is inside (center, default)")
    p.add_argument("--unique", choices=("givens", "edit", "off"), default="givens",
                   help="if the full clue set is not unique: reveal cubes (givens, default), change the shape (edit) or just report (off)")
    p.add_argument("--hide", default="max", metavar="max|FRACTION",
                   help="hide as many clues as possible (max, default) or stop at this share, e.g. 0.4")
    p.add_argument("--line-solvable", action="store_true", help="keep the level solvable by line logic alone (human-fair)")
    p.add_argument("--seed", type=int, default=0, help="order in which clues are tried for hiding (default 0)")
    p.add_argument("--timeout", type=positive_float, default=300.0, metavar="S", help="seconds for the whole level (default 300)")
    p.add_argument("--no-color", action="store_true", help="draw plain cubes even if the model has colours")
    p.add_argument("--title", default=None, help="level title (default: the model's file name)")
    add_folder_options(p)
    p.set_defaults(run=run_mesh)


def _hide_fraction(text: str) -> float | None:
    """``max`` -> None; a share between 0 and 1."""
    if text.strip().lower() == "max":
        return None
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"--hide {text!r}: expected 'max' or a share between 0 and 1") from None
    if not 0.0 <= value <= 1.0:
        raise InputError(f"--hide {text!r}: the share must be between 0 and 1")
    return value


def run_mesh(args: argparse.Namespace) -> int:
    start = time.monotonic()
    if not MIN_SIZE <= args.size <= MAX_SIZE:
        raise LimitError(f"--size {args.size}: must be between {MIN_SIZE} and {MAX_SIZE}")
    if args.timeout <= 0:
        raise InputError("--timeout must be positive")
    fraction = _hide_fraction(args.hide)
    model_path = Path(args.model)
    out = Path(args.output)
    if out.exists() and not args.force and (not out.is_dir() or any(out.iterdir())):
        prepare_output_dir(out, args.force)  # raises the usual one-line error before any work
    voxels = mesh_to_voxels(model_path, args.size, args.up, args.method)
    title = args.title or model_path.stem
    level = make_level(
        voxels.cells, unique=args.unique, hide=fraction, seed=args.seed,
        line_solvable=args.line_solvable, timeout=args.timeout, title=title, source=model_path.name,
    )
    out = prepare_output_dir(out, args.force)
    puzzle_file = out / "level.json"
    formats.dump(level.puzzle, puzzle_file, "nonogen-3d", force=True)
    colors = None if args.no_color else voxels.colors
    solution = solution_picture(level.puzzle.goal, colors)
    (out / "solution.svg").write_text(to_svg(solution), encoding="utf-8")
    to_png(solution).save(out / "solution.png")
    sheet = sheet_picture(level.puzzle, title=title)
    (out / "puzzle.svg").write_text(to_svg(sheet), encoding="utf-8")
    to_png(sheet).save(out / "puzzle.png")
    report = {
        "status": level.status,
        "puzzle_file": puzzle_file.name,  # relative to the report, as in `nonogen image`
        "model": str(model_path),
        "size": list(level.puzzle.size),
        "voxels": int(level.puzzle.goal.sum()),
        "clues_total": level.clues_total,
        "clues_hidden": level.clues_hidden,
        "hidden_share": round(level.clues_hidden / level.clues_total, 4),
        "full_clues_status": level.full_clues_status,
        "line_solvable": level.line_solvable,
        "givens": level.givens,
        "edits": level.edits,
        "notes": level.notes,
        "method": args.method,
        "up": args.up or default_up(model_path),
        "seed": args.seed,
        "solver_calls": level.stats["solver_calls"],
        "seconds": round(time.monotonic() - start, 3),
    }
    X, Y, Z = level.puzzle.size
    write_report(out, report, args.json,
                 f"{model_path.name}: {X}x{Y}x{Z}, {report['voxels']} cubes, {level.status}; " + "; ".join(level.notes)
                 + f"\nwrote {out}/level.json, solution.svg/.png, puzzle.svg/.png, report.json ({report['seconds']:.1f} s)")
    if level.status != "unique":
        print(f"nonogen: warning: the level is {level.status}", file=sys.stderr)
    return EXIT.get(level.status, 1)
