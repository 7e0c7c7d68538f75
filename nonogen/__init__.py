"""nonogen: pictures and 3D models into puzzles people enjoy, with proofs that they are fair.

The Python API in one screen::

    import nonogen
    puzzle = nonogen.load("samples/puzzles/lambda.txt")
    result = nonogen.verify(puzzle, timeout=10)      # .status, .solution, .difficulty, .to_dict()
    for record in nonogen.verify_paths(["samples/puzzles"], jobs=2):
        print(record["file"], record["status"])
    made = nonogen.from_image("samples/images/heart-pixelart-x10.png")   # .puzzle, .report
    level = nonogen.from_mesh("samples/meshes/mushroom.ply", size=8)     # .level.puzzle, .report

Heavy parts (the engine, Pillow, trimesh) are imported on first use, so
``import nonogen`` stays cheap.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .clues import (
    clue_problems,
    derive_clues,
    derive_clues_3d,
    puzzle3d_from_cells,
    puzzle_from_grid,
    satisfies,
    satisfies_3d,
)
from .errors import FormatError, InputError, LimitError, NonogenError, OutputExistsError, PuzzleError, SolverTimeout
from .model import BACKGROUND, Puzzle, Puzzle3D
from .palette import BW_PALETTE, Color

if TYPE_CHECKING:  # pragma: no cover
    from .batch import verify_paths
    from .formats import dump, load, load_all, loads
    from .make.level3d import from_mesh
    from .make.picture import from_image
    from .solve import verify

__version__ = "0.1.0"

__all__ = [
    "load",
    "load_all",
    "loads",
    "dump",
    "verify",
    "verify_paths",
    "from_image",
    "from_mesh",
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
    "FormatError",
    "PuzzleError",
    "LimitError",
    "InputError",
    "OutputExistsError",
    "SolverTimeout",
]

_LAZY = {
    "load": ("formats", "load"),
    "load_all": ("formats", "load_all"),
    "loads": ("formats", "loads"),
    "dump": ("formats", "dump"),
    "verify": ("solve", "verify"),
    "verify_paths": ("batch", "verify_paths"),
    "from_image": ("make.picture", "from_image"),
    "from_mesh": ("make.level3d", "from_mesh"),
}


def __getattr__(name: str) -> Any:
    """The API functions, imported from their modules on first use."""
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(f"{__name__}.{module}"), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
