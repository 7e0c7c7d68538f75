"""``nonogen.save``: the output folder of ``nonogen image`` and ``nonogen mesh``, every file a made puzzle is shipped
as.

:func:`folder_files` says what goes in (name -> text or bytes), a pure
function of the :class:`~nonogen.made.Made`; :func:`save` writes it all
or nothing through :func:`nonogen.files.write_folder`. A level's preview
picture and play page are also what the studio shows (:func:`level_preview`,
:func:`level_page`), so the two doors show the same thing.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional, Union

from .. import formats
from ..export.html import page_2d, page_3d
from ..export.model3d import model_bytes
from ..files import json_text, write_folder
from ..made import Made
from ..model import Puzzle
from ..model3d import Puzzle3D
from ..render import check_cell, encode
from ..render.book import caption
from ..render.iso3d import sheet_picture as level_sheet, solution_picture
from ..render.sheet2d import sheet_picture

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..render.canvas import Picture

__all__ = ["save", "folder_files", "level_preview", "level_page", "SCREEN_DPI_3D"]

Content = Union[str, bytes]

SCREEN_DPI_3D = 192
"""Level pictures are drawn at twice the screen's 96 dpi: cube edges are diagonal and small."""


def folder_files(made: Made, *, cell: int = 20, colored: bool = True) -> dict[str, Content]:
    """Every file of the made puzzle's folder, by name, in the order they are listed to the user."""
    check_cell(cell)
    return _level_files(made, colored) if made.is_level else _picture_files(made, cell)


def save(made: Made, folder: Union[str, Path], *, force: bool = False, cell: int = 20, colored: bool = True) -> Path:
    """Write the folder ``nonogen image`` / ``nonogen mesh`` writes: puzzle files, sheets, play page, report.

    All files appear at once or none does; an existing folder of nonogen's
    is replaced only with ``force`` (other files in it are left alone),
    and never the folder holding the source picture or model. ``cell`` is
    the sheets' cell size in pixels (2D); ``colored=False`` draws a
    level's cubes plain. Returns the folder.

    >>> import nonogen, tempfile, pathlib
    >>> made = nonogen.from_image("samples/images/heart-pixelart-x10.png", colors=3)
    >>> folder = nonogen.save(made, pathlib.Path(tempfile.mkdtemp()) / "heart")
    >>> sorted(p.name for p in folder.iterdir())[:3]
    ['puzzle.cnon', 'puzzle.html', 'puzzle.json']
    """
    source = made.report.get("model" if made.is_level else "image")
    inputs = [source] if source else []
    return write_folder(folder, folder_files(made, cell=cell, colored=colored), force, inputs)


def _picture_files(made: Made, cell: int) -> dict[str, Content]:
    """Puzzle files (each format the report lists), sheets, solution, a playable page and the report."""
    puzzle, report = made.puzzle, made.report
    assert isinstance(puzzle, Puzzle)  # folder_files sends the levels to _level_files
    files: dict[str, Content] = {name: formats.dumps(puzzle, info["format"]) for name, info in report["files"].items()}
    line = caption(None, report.get("grade"), report.get("grade_name"))
    for stem, solution in (("puzzle", None), ("solution", made.solution)):
        picture = sheet_picture(puzzle, solution, cell, caption=line, legend=puzzle.is_color)
        files[f"{stem}.svg"] = encode(picture, ".svg")
        files[f"{stem}.png"] = encode(picture, ".png")
    files["puzzle.html"] = page_2d(puzzle, made.solution)
    files["report.json"] = json_text(report)
    return files


def level_preview(made: Made, *, colored: bool = True) -> bytes:
    """The solved level as a PNG picture of its cubes (the folder's ``solution.png``)."""
    return encode(_cubes(made, colored), ".png", dpi=SCREEN_DPI_3D)


def level_page(made: Made, *, colored: bool = True) -> str:
    """The level's self-contained play page (the folder's ``level.html``)."""
    level, goal = _level(made)
    return page_3d(level, goal, _rgb(made, colored))


def _level(made: Made) -> tuple[Puzzle3D, np.ndarray]:
    """The made level and its goal: only a level's folder, preview and page ask, and a made level has its goal."""
    level, goal = made.puzzle, made.puzzle.goal
    assert isinstance(level, Puzzle3D) and goal is not None
    return level, goal


def _rgb(made: Made, colored: bool) -> Optional[np.ndarray]:
    return _level(made)[0].rgb() if colored else None


def _cubes(made: Made, colored: bool) -> Picture:
    return solution_picture(_level(made)[1], _rgb(made, colored))


def _level_files(made: Made, colored: bool) -> dict[str, Content]:
    """level.json, the solution and clue pictures, a playable page, the model as GLB and the report."""
    (puzzle, _), report = _level(made), made.report
    files: dict[str, Content] = {"level.json": formats.dumps(puzzle, "nonogen-3d")}
    solution = _cubes(made, colored)
    sheet = level_sheet(puzzle, title=str(puzzle.meta.get("title", "")),
                        caption=caption(None, report.get("grade"), report.get("grade_name")))
    for stem, picture in (("solution", solution), ("puzzle", sheet)):
        files[f"{stem}.svg"] = encode(picture, ".svg")
        files[f"{stem}.png"] = encode(picture, ".png", dpi=SCREEN_DPI_3D)
    files["level.html"] = level_page(made, colored=colored)
    files["level.glb"] = model_bytes(puzzle if colored else puzzle.replace(colors=None), ".glb")
    files["report.json"] = json_text(report)
    return files
