"""``nonogen image``: a picture in, a verified (and repaired) puzzle folder out."""
from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from .. import formats
from ..clues import puzzle_from_grid
from ..errors import InputError
from ..importers.image import MAX_SIDE, ImageOptions, image_to_grid, load_image
from ..model import Puzzle
from ..render.sheet2d import render_png, render_svg
from ..repair import MODES, RepairResult, repair
from ..solve import verify
from .common import add_folder_options, parse_size, positive_float, prepare_output_dir, write_report


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "image",
        help="turn a picture into a nonogram (verified unique, with printable sheets)",
        description="Turn a picture into a nonogram: threshold or quantize, vote per cell, verify "
        "uniqueness and repair it, then write the puzzle files, SVG/PNG sheets and report.json.",
    )
    p.add_argument("image", metavar="IMAGE", help="PNG, JPEG, GIF, BMP, WebP ... (first frame of animations)")
    size = p.add_argument_group("size (default: pixel art at native size, else 20 cells on the long side)")
    size.add_argument("--size", metavar="WxH", help="puzzle size in cells")
    size.add_argument("--width", type=int, metavar="W", help="width in cells, height keeps the aspect ratio")
    size.add_argument("--height", type=int, metavar="H", help="height in cells, width keeps the aspect ratio")
    size.add_argument("--crop", action="store_true", help="crop to the content's bounding box first")
    look = p.add_argument_group("black and white / colour")
    look.add_argument("--mode", choices=("bw", "silhouette"), default="bw",
                      help="bw: dark pixels (luminance over white) are filled; silhouette: opaque pixels")
    look.add_argument("--threshold", type=int, metavar="0-255", help="fixed threshold instead of Otsu's")
    look.add_argument("--invert", action="store_true", help="fill the light pixels instead of the dark ones")
    look.add_argument("--colors", type=int, metavar="K", help="colour puzzle with K colours (plus background)")
    look.add_argument("--background", metavar="COLOR",
                      help="background colour for --colors (name, #rrggbb or 'transparent'; default: from the border)")
    uniq = p.add_argument_group("uniqueness")
    uniq.add_argument("--unique", choices=MODES, default="givens",
                      help="givens: reveal cells (default); edit: change picture cells; off: report only")
    uniq.add_argument("--line-solvable", action="store_true", help="repair until line logic alone solves it")
    uniq.add_argument("--max-edits", type=int, metavar="N", help="edit budget for --unique edit (default 5%% of cells)")
    uniq.add_argument("--timeout", type=positive_float, default=60.0, metavar="S", help="seconds for verify + repair (default 60)")
    out = p.add_argument_group("output")
    out.add_argument("--title", help="puzzle title (default: the picture's file name)")
    out.add_argument("--cell", type=int, default=20, metavar="PX", help="cell size of the sheets in pixels (default 20)")
    add_folder_options(out)
    p.set_defaults(run=run_image)


def _options(args: argparse.Namespace) -> ImageOptions:
    if args.size and (args.width is not None or args.height is not None):
        raise InputError("give either --size or --width/--height, not both")
    if args.colors is not None and args.mode == "silhouette":
        raise InputError("--mode silhouette makes a black and white puzzle; drop it or drop --colors")
    if args.background is not None and args.colors is None:
        raise InputError("--background applies to colour puzzles (--colors K)")
    if not 4 <= args.cell <= 200:
        raise InputError(f"--cell {args.cell}: expected 4 to 200 pixels")
    return ImageOptions(
        size=parse_size(args.size, max_side=MAX_SIDE) if args.size else None,
        width=args.width,
        height=args.height,
        crop=args.crop,
        mode=args.mode,
        colors=args.colors,
        threshold=args.threshold,
        invert=args.invert,
        background=args.background,
    )


def run_image(args: argparse.Namespace) -> int:
    started = time.monotonic()
    options = _options(args)
    source = Path(args.image)
    img = load_image(source)
    imported = image_to_grid(img, options)
    title = args.title if args.title is not None else source.stem
    puzzle = puzzle_from_grid(imported.grid, imported.palette, title=title)
    out_dir = prepare_output_dir(args.output, args.force)
    result = repair(
        puzzle,
        imported.grid,
        mode=args.unique,
        line_solvable=args.line_solvable,
        confidence=imported.confidence,
        alternative=imported.alternative,
        timeout=args.timeout,
        max_edits=args.max_edits,
    )
    report = _write_outputs(out_dir, source, result, imported.info, args.cell, args.timeout)
    report["seconds"] = round(time.monotonic() - started, 3)
    write_report(out_dir, report, args.json, _summary(report, out_dir))
    return 0


def _write_outputs(
    out_dir: Path, source: Path, result: RepairResult, info: dict[str, Any], cell: int, timeout: float
) -> dict[str, Any]:
    """Puzzle files, sheets and the report dictionary (``seconds`` is filled in by the caller)."""
    final: Puzzle = result.puzzle
    names = ["puzzle.cnon", "puzzle.xml"] if final.is_color else ["puzzle.non"]
    names.append("puzzle.json")
    files: dict[str, Any] = {}
    status_without_givens = None
    for name in names:
        fmt = formats.format_for(out_dir / name)
        formats.dump(final, out_dir / name, format=fmt)
        drops = formats.dropped(final, fmt)
        status = result.report["status"]
        if final.givens and any("given" in d for d in drops):
            if status_without_givens is None:
                status_without_givens = verify(final.replace(givens=()), result.grid, timeout=timeout).status
            status = status_without_givens
        files[name] = {"format": fmt, "drops": drops, "status": status}
    complete = [n for n in names if files[n]["status"] == result.report["status"]]
    puzzle_file = complete[0] if complete else "puzzle.json"
    (out_dir / "puzzle.svg").write_text(render_svg(final, cell=cell), encoding="utf-8")
    render_png(final, cell=cell).save(out_dir / "puzzle.png")
    (out_dir / "solution.svg").write_text(render_svg(final, result.grid, cell=cell), encoding="utf-8")
    render_png(final, result.grid, cell=cell).save(out_dir / "solution.png")
    rep = result.report
    return {
        "image": str(source),
        "status": rep["status"],
        "puzzle_file": puzzle_file,
        "width": final.width,
        "height": final.height,
        "colors": final.n_colors,
        "palette": [{"name": c.name, "rgb": c.rgb, "char": c.char} for c in final.palette],
        "givens": rep["givens"],
        "edits": rep["edits"],
        "ambiguous_cells": rep["ambiguous_cells"],
        "ambiguous_count": rep["ambiguous_count"],
        "initial_status": rep["initial_status"],
        "repair": rep["repair"],
        "line_solvable": rep["line_solvable"],
        "difficulty": rep["difficulty"],
        "work": rep["work"],
        "import": info,
        "files": files,
        "timings": rep["timings"],
        "message": rep["message"],
        "seconds": rep["seconds"],
    }


def _summary(report: dict[str, Any], out_dir: Path) -> str:
    """One line for people: size, verdict, what the repair did, where the files are."""
    colours = "black and white" if report["colors"] == 1 else f"{report['colors']} colours"
    parts = [f"{report['width']}x{report['height']} {colours}", report["status"]]
    if report["line_solvable"]:
        parts.append("line-solvable")
    elif report["difficulty"]:
        parts.append(f"needs {report['difficulty']}")
    if report["ambiguous_count"]:
        parts.append(f"{report['ambiguous_count']} ambiguous cells before repair")
    added = len(report["givens"])
    if added:
        parts.append(f"{added} given{'s' if added != 1 else ''}")
    if report["edits"]:
        parts.append(f"{len(report['edits'])} cell{'s' if len(report['edits']) != 1 else ''} edited")
    if report["message"]:
        parts.append(report["message"])
    return f"{out_dir}/{report['puzzle_file']}: " + ", ".join(parts)
