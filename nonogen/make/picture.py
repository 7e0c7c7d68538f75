"""Picture -> verified, repaired nonogram with a report: the twin of :mod:`nonogen.make.level3d`.

Import (threshold or quantize, vote per cell), derive the clues, verify and
repair, then decide which puzzle files can carry the result: a format that
cannot hold givens is only as good as the puzzle without them, so each file
is labelled with the status it really has.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np
from PIL import Image

from .. import formats
from ..clues import puzzle_from_grid
from ..importers.image import ImageOptions, ImportResult, image_to_grid, load_image, pixels_wanted
from ..importers.quality import measure
from ..model import Puzzle
from .repair2d import Repair2D, repair

__all__ = ["MadePuzzle", "from_image", "PUZZLE_FILES"]

PUZZLE_FILES = {False: ("puzzle.non", "puzzle.json"), True: ("puzzle.cnon", "puzzle.xml", "puzzle.json")}
"""The puzzle files written for a black-and-white (False) and a colour (True) puzzle, best first."""


@dataclass
class MadePuzzle:
    """A puzzle made from a picture: the puzzle (goal = solution), its files' texts, and the report."""

    puzzle: Puzzle
    solution: np.ndarray
    files: dict[str, str]
    report: dict[str, Any] = field(default_factory=dict)


def from_image(
    source: Union[str, Path, Image.Image],
    options: ImageOptions = ImageOptions(),
    unique: str = "givens",
    line_solvable: bool = False,
    max_edits: Optional[int] = None,
    timeout: float = 60.0,
    title: Optional[str] = None,
) -> MadePuzzle:
    """Turn a picture (a file or a Pillow image) into a verified puzzle, repaired as ``unique`` says.

    ``unique`` is ``"givens"`` (reveal cells), ``"edit"`` (change picture
    cells) or ``"off"`` (only report); ``line_solvable`` keeps repairing
    until line logic alone solves the puzzle. The default title is "Puzzle WxH":
    the file name would often give the answer away (it stays in the report).
    """
    started = time.monotonic()
    name = str(source) if isinstance(source, (str, Path)) else None
    img = load_image(source, reduce_for=pixels_wanted(options)) if name is not None else source
    imported = image_to_grid(img, options)
    if title is None:
        title = f"Puzzle {imported.grid.shape[1]}x{imported.grid.shape[0]}"
    puzzle = puzzle_from_grid(imported.grid, imported.palette, title=title)
    result = repair(
        puzzle,
        imported.grid,
        mode=unique,
        line_solvable=line_solvable,
        confidence=imported.confidence,
        alternative=imported.alternative,
        timeout=timeout,
        max_edits=max_edits,
    )
    files, file_status = _puzzle_files(result, timeout)
    report = _report(name, result, imported, file_status)
    report["seconds"] = round(time.monotonic() - started, 3)
    return MadePuzzle(result.puzzle, result.grid, files, report)


def _puzzle_files(result: Repair2D, timeout: float) -> tuple[dict[str, str], dict[str, dict]]:
    """Each puzzle file's text, and its format, what it drops and the status it really has."""
    final = result.puzzle
    texts: dict[str, str] = {}
    status_of: dict[str, dict] = {}
    without_givens: Optional[str] = None
    for name in PUZZLE_FILES[final.is_color]:
        fmt = formats.format_for(name)
        texts[name] = formats.dumps(final, fmt)
        drops = formats.dropped(final, fmt)
        status = result.report["status"]
        if final.givens and any("given" in d for d in drops):
            if without_givens is None:
                without_givens = _status_without_givens(result, timeout)
            status = without_givens
        status_of[name] = {"format": fmt, "drops": drops, "status": status}
    return texts, status_of


def _status_without_givens(result: Repair2D, timeout: float) -> str:
    """What a solver that never sees the givens faces (the repair's session knows the clues)."""
    session = result.session
    if session is not None and not session.puzzle.givens:
        return session.verify(result.grid, timeout=timeout).status
    from ..solve import verify

    return verify(result.puzzle.replace(givens=()), result.grid, timeout=timeout).status


def _report(name: Optional[str], result: Repair2D, imported: ImportResult, files: dict[str, dict]) -> dict[str, Any]:
    final, rep = result.puzzle, result.report
    complete = [n for n, f in files.items() if f["status"] == rep["status"]]
    quality = measure(result.grid, imported.reference, final.palette)
    changed = rep["givens_added"] + len(rep["edits"])
    return {
        "image": name,
        "status": rep["status"],
        "puzzle_file": complete[0] if complete else "puzzle.json",
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
        **quality,
        "repair_cells": changed,
        "repair_share": round(changed / result.grid.size, 4),
        "warnings": list(imported.warnings),
        "import": imported.info,
        "files": files,
        "timings": rep["timings"],
        "message": rep["message"],
        "seconds": rep["seconds"],
    }


def folder_files(made: MadePuzzle, cell: int = 20) -> dict[str, Union[str, bytes]]:
    """Everything ``nonogen image`` writes into its folder: puzzle files, sheets, solution, report."""
    from ..files import json_text, png_bytes
    from ..render import canvas
    from ..render.sheet2d import sheet_picture

    files: dict[str, Union[str, bytes]] = dict(made.files)
    for stem, solution in (("puzzle", None), ("solution", made.solution)):
        picture = sheet_picture(made.puzzle, solution, cell)
        files[f"{stem}.svg"] = canvas.to_svg(picture)
        files[f"{stem}.png"] = png_bytes(canvas.to_png(picture))
    files["report.json"] = json_text(made.report)
    return files

