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
    for found in nonogen.scan("page.png"):              # a page (picture or PDF) read back, each grid verified
        found.puzzle, found.result.status, found.suspects  # ...and the clues most likely misread

Every part, the model and the errors as much as the engine, numpy, Pillow and trimesh, is imported on first
use: ``python -m nonogen`` imports this package before the program can stop the garbage collector for its
start-up (cli.console), so ``import nonogen`` imports nothing.
"""
from __future__ import annotations

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover - what type checkers see of _LAZY (tests/test_api.py ties the two)
    from typing import Any
    from .batch import verify_paths as verify_paths
    from .clues import clue_problems as clue_problems, derive_clues as derive_clues, satisfies as satisfies
    from .clues import puzzle_from_grid as puzzle_from_grid
    from .clues3d import derive_clues_3d as derive_clues_3d, puzzle3d_from_cells as puzzle3d_from_cells
    from .clues3d import satisfies_3d as satisfies_3d
    from .errors import FormatError as FormatError, InputError as InputError, LimitError as LimitError
    from .errors import NonogenError as NonogenError, OptionError as OptionError, PuzzleError as PuzzleError
    from .errors import OutputExistsError as OutputExistsError, SolverTimeout as SolverTimeout
    from .formats import dump as dump, dumps as dumps, load as load, load_all as load_all, loads as loads
    from .importers.image import ImageOptions as ImageOptions
    from .made import Made as Made
    from .make.level3d import from_mesh as from_mesh, make_level as make_level
    from .make.picture import from_image as from_image
    from .model import BACKGROUND as BACKGROUND, Puzzle as Puzzle
    from .model3d import Puzzle3D as Puzzle3D
    from .output.books import book as book
    from .output.folders import save as save
    from .output.gallery import gallery as gallery
    from .output.levelpack import level_pack as level_pack
    from .output.site import site as site
    from .output.many import make_many as make_many
    from .output.sheets import draw as draw
    from .palette import BW_PALETTE as BW_PALETTE, Color as Color
    from .scanning import Scan as Scan, scan as scan
    from .solve import verify as verify

__version__ = "0.1.0"

_LAZY = {  # python -m nonogen imports this package before its program starts: nothing here is imported eagerly
    **dict.fromkeys(("load", "load_all", "loads", "dump", "dumps"), "formats"),
    "verify": "solve", "verify_paths": "batch", "from_image": "make.picture",
    **dict.fromkeys(("from_mesh", "make_level"), "make.level3d"),
    "make_many": "output.many", "Made": "made", "save": "output.folders", "ImageOptions": "importers.image",
    "draw": "output.sheets", "book": "output.books", "gallery": "output.gallery", "level_pack": "output.levelpack",
    "site": "output.site", **dict.fromkeys(("scan", "Scan"), "scanning"),
    **dict.fromkeys(("BACKGROUND", "Puzzle"), "model"),
    **dict.fromkeys(("BW_PALETTE", "Color"), "palette"),
    "Puzzle3D": "model3d",  # the 3D half loads numpy: not for a 2D puzzle
    **dict.fromkeys(("derive_clues", "puzzle_from_grid", "satisfies", "clue_problems"), "clues"),
    **dict.fromkeys(("derive_clues_3d", "puzzle3d_from_cells", "satisfies_3d"), "clues3d"),
    **dict.fromkeys(("NonogenError", "OptionError", "FormatError", "PuzzleError", "LimitError", "InputError",
                     "OutputExistsError", "SolverTimeout"), "errors"),
}
"""Every public name, in the order of :data:`__all__`, and the module (under nonogen) that defines it."""

__all__ = list(_LAZY)


def __getattr__(name: str) -> Any:
    """The API functions, imported from their modules on first use."""
    if name in _LAZY:
        import importlib  # here: a bare `import nonogen` never needs it

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The API's names before their first use too, as an interpreter's completion lists them."""
    return sorted(set(globals()) | set(__all__))
