"""The output folder of ``nonogen image`` and ``nonogen mesh``: every file a made puzzle is shipped as.

:func:`folder_files` says what goes in (name -> text or bytes), a pure
function of the :class:`~nonogen.made.Made`; :func:`save_made` writes it all
or nothing through :func:`nonogen.files.write_folder`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Union

from .. import formats
from ..files import json_text, write_folder
from ..made import Made
from ..render import check_cell, encode
from ..render.book import caption
from .html import page_2d, page_3d
from .model3d import model_bytes

__all__ = ["folder_files", "save_made", "SCREEN_DPI_3D"]

Content = Union[str, bytes]

SCREEN_DPI_3D = 192
"""Level pictures are drawn at twice the screen's 96 dpi: cube edges are diagonal and small."""


def folder_files(made: Made, *, cell: int = 20, colored: bool = True) -> dict[str, Content]:
    """Every file of the made puzzle's folder, by name, in the order they are listed to the user."""
    check_cell(cell)
    return _level_files(made, colored) if made.is_level else _picture_files(made, cell)


def save_made(made: Made, folder: Union[str, Path], *, force: bool = False, cell: int = 20,
              colored: bool = True) -> Path:
    """Write :func:`folder_files` into ``folder`` (see :meth:`nonogen.made.Made.save`)."""
    source = made.report.get("model" if made.is_level else "image")
    inputs = [source] if source else []
    return write_folder(folder, folder_files(made, cell=cell, colored=colored), force, inputs)


def _picture_files(made: Made, cell: int) -> dict[str, Content]:
    """Puzzle files (each format the report lists), sheets, solution, a playable page and the report."""
    from ..render.sheet2d import sheet_picture

    puzzle, report = made.puzzle, made.report
    files: dict[str, Content] = {name: formats.dumps(puzzle, info["format"]) for name, info in report["files"].items()}
    line = caption(None, report.get("grade"), report.get("grade_name"))
    for stem, solution in (("puzzle", None), ("solution", made.solution)):
        picture = sheet_picture(puzzle, solution, cell, caption=line, legend=puzzle.is_color)
        files[f"{stem}.svg"] = encode(picture, ".svg")
        files[f"{stem}.png"] = encode(picture, ".png")
    files["puzzle.html"] = page_2d(puzzle, made.solution)
    files["report.json"] = json_text(report)
    return files


def _level_files(made: Made, colored: bool) -> dict[str, Content]:
    """level.json, the solution and clue pictures, a playable page, the model as GLB and the report."""
    from ..render.iso3d import sheet_picture, solution_picture

    puzzle, report = made.puzzle, made.report
    plain = puzzle if colored else puzzle.replace(colors=None)
    rgb = plain.rgb() if colored else None
    files: dict[str, Content] = {"level.json": formats.dumps(puzzle, "nonogen-3d")}
    solution = solution_picture(puzzle.goal, rgb)
    sheet = sheet_picture(puzzle, title=str(puzzle.meta.get("title", "")),
                          caption=caption(None, report.get("grade"), report.get("grade_name")))
    for stem, picture in (("solution", solution), ("puzzle", sheet)):
        files[f"{stem}.svg"] = encode(picture, ".svg")
        files[f"{stem}.png"] = encode(picture, ".png", dpi=SCREEN_DPI_3D)
    files["level.html"] = page_3d(puzzle, puzzle.goal, rgb)
    files["level.glb"] = model_bytes(plain, ".glb")
    files["report.json"] = json_text(report)
    return files
