"""nonogen: pictures and 3D models into puzzles people enjoy, with proofs that they are fair.

The Python API in one screen::

    import nonogen
    puzzle = nonogen.load("samples/puzzles/lambda.txt")
    result = nonogen.verify(puzzle, timeout=10)      # .status, .solution, .difficulty, .grade, .to_dict()
    for record in nonogen.verify_paths(["samples/puzzles"], jobs=2):
        print(record["file"], record["status"])
    text = nonogen.dumps(puzzle, "webpbn")            # nonogen.dump(puzzle, "lambda.xml") writes a file
    made = nonogen.from_image("samples/images/heart-pixelart-x10.png", colors=3)   # a Made:
    made.report["status"], made.puzzle, made.solution  # ...and nonogen.save(made, "heart/") writes the folder
    level = nonogen.from_mesh("samples/meshes/mushroom.ply", size=8)   # a Made too
    for record in nonogen.make_many(["photos/"], "book/", jobs=2):     # a collection: book/<name>/ per picture
        print(record["name"], record["status"])
    nonogen.draw(puzzle, "lambda.pdf", paper="a4")     # or without a path: the Picture

Every part, the model and the errors as much as the engine, numpy, Pillow and trimesh, is imported on first
use: ``python -m nonogen`` imports this package before the program can stop the garbage collector for its
start-up (cli.console), so ``import nonogen`` imports nothing.
"""
from __future__ import annotations

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any
    from .clues import clue_problems, derive_clues, puzzle_from_grid, satisfies
    from .errors import (FormatError, InputError, LimitError, NonogenError, OptionError, OutputExistsError,
                         PuzzleError, SolverTimeout)
    from .model import BACKGROUND, Puzzle
    from .palette import BW_PALETTE, Color
    from .batch import verify_paths
    from .clues3d import derive_clues_3d, puzzle3d_from_cells, satisfies_3d
    from .formats import dump, dumps, load, load_all, loads
    from .importers.image import ImageOptions
    from .made import Made
    from .make.level3d import from_mesh, make_level
    from .output.many import make_many
    from .make.picture import from_image
    from .model3d import Puzzle3D
    from .output import book, draw, save
    from .output.gallery import gallery
    from .output.levelpack import level_pack
    from .solve import verify

__version__ = "0.1.0"

__all__ = [
    "load",
    "load_all",
    "loads",
    "dump",
    "dumps",
    "verify",
    "verify_paths",
    "from_image",
    "from_mesh",
    "make_many",
    "make_level",
    "Made",
    "save",
    "ImageOptions",
    "draw",
    "book",
    "gallery",
    "level_pack",
    "BACKGROUND",
    "BW_PALETTE",
    "Color",
    "Puzzle",
    "Puzzle3D",
    "derive_clues",
    "derive_clues_3d",
    "puzzle_from_grid",
    "puzzle3d_from_cells",
    "satisfies",
    "satisfies_3d",
    "clue_problems",
    "NonogenError",
    "OptionError",
    "FormatError",
    "PuzzleError",
    "LimitError",
    "InputError",
    "OutputExistsError",
    "SolverTimeout",
]

_LAZY = {  # python -m nonogen imports this package before its program starts: nothing here is imported eagerly
    **{name: ("clues", name) for name in ("clue_problems", "derive_clues", "puzzle_from_grid", "satisfies")},
    **{name: ("errors", name) for name in ("FormatError", "InputError", "LimitError", "NonogenError", "OptionError",
                                           "OutputExistsError", "PuzzleError", "SolverTimeout")},
    "BACKGROUND": ("model", "BACKGROUND"),
    "Puzzle": ("model", "Puzzle"),
    "BW_PALETTE": ("palette", "BW_PALETTE"),
    "Color": ("palette", "Color"),
    "load": ("formats", "load"),
    "load_all": ("formats", "load_all"),
    "loads": ("formats", "loads"),
    "dump": ("formats", "dump"),
    "dumps": ("formats", "dumps"),
    "verify": ("solve", "verify"),
    "verify_paths": ("batch", "verify_paths"),
    "from_image": ("make.picture", "from_image"),
    "from_mesh": ("make.level3d", "from_mesh"),
    "make_level": ("make.level3d", "make_level"),
    "make_many": ("output.many", "make_many"),
    "Made": ("made", "Made"),
    "ImageOptions": ("importers.image", "ImageOptions"),
    "save": ("output.folders", "save"),
    "draw": ("output.sheets", "draw"),
    "book": ("output.books", "book"),
    "gallery": ("output.gallery", "gallery"),
    "level_pack": ("output.levelpack", "level_pack"),
    "Puzzle3D": ("model3d", "Puzzle3D"),  # the 3D half loads numpy: not for a 2D puzzle
    "derive_clues_3d": ("clues3d", "derive_clues_3d"),
    "puzzle3d_from_cells": ("clues3d", "puzzle3d_from_cells"),
    "satisfies_3d": ("clues3d", "satisfies_3d"),
}


def __getattr__(name: str) -> Any:
    """The API functions, imported from their modules on first use."""
    if name in _LAZY:
        import importlib  # here: a bare `import nonogen` never needs it

        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(f"{__name__}.{module}"), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The API's names before their first use too, as an interpreter's completion lists them."""
    return sorted(set(globals()) | set(__all__))
