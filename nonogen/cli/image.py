"""``nonogen image``: a picture in, a verified (and repaired) puzzle folder out."""
from __future__ import annotations

import argparse
import sys

from ..render import check_cell
from ..files import check_folder
from ..importers.image import DEFAULT_LONG_SIDE, FITS, LONGER_SIDE, PHOTO_LONG_SIDE, STYLES, ImageOptions
from ..importers.options import MAX_SIDE
from ..importers.photo import MERGE_DE
from ..importers.quality import READABLE
from ..importers.image import MODES as IMAGE_MODES
from ..colorspace import DEFAULT_MIN_DISTANCE
from ..make.picture import UNIQUE_MODES, check_making, from_image
from ..output import save
from . import summary
from .collection import add_collection_options, is_collection, run_collection
from .common import add_folder_options, parse_size, positive_float, print_report


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "image",
        help=summary("image"),
        description="Turn a picture into a nonogram: threshold or quantize, vote per cell, verify "
        "uniqueness and repair it, then write the puzzle files, SVG/PNG sheets and report.json.",
    )
    p.add_argument("image", nargs="+", metavar="IMAGE",
                   help="PNG, JPEG, GIF, BMP, WebP, SVG ... (first frame of animations); several files, folders or "
                   "globs make a collection")
    size = p.add_argument_group(f"size (default: pixel art at native size, photos about {PHOTO_LONG_SIDE ** 2} cells "
                                 f"(long side {PHOTO_LONG_SIDE}-{round(LONGER_SIDE * PHOTO_LONG_SIDE)}), anything else "
                                 f"{DEFAULT_LONG_SIDE})")
    size.add_argument("--size", metavar="WxH", help="puzzle size in cells")
    size.add_argument("--width", type=int, metavar="W", help="width in cells, height keeps the aspect ratio")
    size.add_argument("--height", type=int, metavar="H", help="height in cells, width keeps the aspect ratio")
    size.add_argument("--crop", action="store_true", help="crop to the content's bounding box first")
    size.add_argument("--fit", choices=FITS, default="auto",
                      help="subject: frame a photo on its subject and leave the rest of the photo out (the crop is "
                      "in the report); auto (default): subject for photos, pad for other pictures; when --size has "
                      "another aspect than the picture: pad with background, crop (keeps the subject) or stretch")
    look = p.add_argument_group("black and white / colour")
    look.add_argument("--mode", choices=IMAGE_MODES, default="auto",
                      help="auto: a picture with a few exact colours (pixel art, flat drawings) keeps them, a photo "
                      "gets 4 colours, anything else is black and white; bw: always black and white; "
                      "silhouette: opaque pixels are filled")
    look.add_argument("--threshold", type=int, metavar="0-255",
                      help="fill pixels darker than this (plain luminance rule)")
    look.add_argument("--fill", type=float, metavar="SHARE",
                      help="black and white: fill this share of the cells (e.g. 0.45)")
    look.add_argument("--invert", action="store_true", help="swap filled and empty cells (black and white)")
    look.add_argument("--colors", type=int, metavar="K", help="colour puzzle with at most K colours (plus background)")
    look.add_argument("--min-distance", type=float, metavar="DE",
                      help=f"smallest CIEDE2000 distance between two palette colours, background included "
                      f"(default {MERGE_DE:g} for photos, else {DEFAULT_MIN_DISTANCE:g}); closer colours are merged")
    look.add_argument("--style", choices=STYLES, default="auto",
                      help="outline: a subject cut out by transparency is drawn as a 2-cell outline plus its dark "
                      "details, and colour outlines are 2 cells thick; fill: the subject is inked and colour "
                      "outlines take the colour inside; auto (default): the outline where it reads better "
                      "(pages, drives)")
    look.add_argument("--background", metavar="COLOR",
                      help="background colour for --colors (name, #rrggbb or 'transparent'; default: from the border)")
    uniq = p.add_argument_group("uniqueness")
    uniq.add_argument("--unique", choices=UNIQUE_MODES, default="auto",
                      help="auto (default): change a few uncertain cells when that makes it unique, else reveal "
                      "cells; givens: reveal cells; edit: change picture cells; off: report only. A puzzle file "
                      "whose format cannot hold the givens the puzzle needs is not written")
    uniq.add_argument("--line-solvable", action="store_true", help="repair until line logic alone solves it")
    uniq.add_argument("--grade", type=int, choices=range(1, 6), metavar="G",
                      help="aim at difficulty grade G, 1 (very easy) to 5 (needs search): givens lower it; "
                      "redrawn uncertain edges, another size or a halftone may raise it (replaces --unique and "
                      "--line-solvable)")
    uniq.add_argument("--max-edits", type=int, metavar="N", help="edit budget for --unique edit (default 5%% of cells)")
    uniq.add_argument("--timeout", type=positive_float, default=60.0, metavar="S",
                      help="seconds for verify + repair (default 60)")
    out = p.add_argument_group("output")
    out.add_argument("--title", help="puzzle title (default: 'Puzzle WxH'; the file name would give the answer away)")
    out.add_argument("--cell", type=int, default=20, metavar="PX",
                     help="cell size of the sheets in pixels (default 20)")
    out.add_argument("--min-readability", type=float, metavar="X",
                     help="refuse (exit 2, nothing written) a picture whose recognisability is under X (0-1; "
                     f"the warnings start under {READABLE:g})")
    add_folder_options(out)
    add_collection_options(p)
    p.set_defaults(run=run_image)


def _options(args: argparse.Namespace) -> ImageOptions:
    """The picture options as the user gave them; :class:`ImageOptions` checks them."""
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
        fit=args.fit,
        min_distance=args.min_distance,
        fill=args.fill,
        style=args.style,
    )


def run_image(args: argparse.Namespace) -> int:
    options = _options(args)
    repair = {"unique": args.unique, "line_solvable": args.line_solvable, "grade": args.grade,
              "max_edits": args.max_edits, "min_readability": args.min_readability}
    check_making(**repair)  # once, before a collection makes anything
    check_cell(args.cell)
    if is_collection(args, args.image):
        making = {"options": options, **repair, "timeout": args.timeout, "title": args.title}
        return run_collection(args, args.image, "image", making, {"cell": args.cell})
    args.image = args.image[0]
    check_folder(args.output, args.force, [args.image])
    made = from_image(args.image, options=options, **repair, timeout=args.timeout, title=args.title)
    for warning in made.report["warnings"]:
        print(f"nonogen: warning: {warning}", file=sys.stderr)
    out = save(made, args.output, force=args.force, cell=args.cell)
    print_report(made.report, args.json, _summary(made.report, str(out)))
    return 0


def _colours(report: dict) -> str:
    """"black and white" only for black on white: a red one-colour puzzle is "one colour (red on white)"."""
    if report["colors"] != 1:
        return f"{report['colors']} colours"
    background, ink = report["palette"][:2]
    if (background["rgb"], ink["rgb"]) == ("#ffffff", "#000000"):
        return "black and white"
    return f"one colour ({ink['name']} on {background['name']})"


def _summary(report: dict, out_dir: str) -> str:
    """One line for people: size, verdict, what the repair did, where the files are."""
    parts = [f"{report['width']}x{report['height']} {_colours(report)}", report["status"]]
    if report["line_solvable"]:
        parts.append("line-solvable")
    elif report["difficulty"]:
        parts.append(f"needs {report['difficulty']}")
    if report.get("grade"):
        parts.append(f"grade {report['grade']} ({report['grade_name']})")
    if report["ambiguous_count"]:
        parts.append(f"{report['ambiguous_count']} ambiguous cells before repair")
    added = len(report["givens"])
    if added:
        parts.append(f"{added} given{'s' if added != 1 else ''}")
    if report["edits"]:
        parts.append(f"{len(report['edits'])} cell{'s' if len(report['edits']) != 1 else ''} edited")
    if report.get("recognisability") is not None:
        parts.append(f"recognisability {report['recognisability']:.2f}")
    parts.append(f"{report['speck_share']:.0%} one-cell blocks")
    if report["message"]:
        parts.append(report["message"])
    return f"{out_dir}/{report['puzzle_file']}: " + ", ".join(parts)
