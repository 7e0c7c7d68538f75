"""nonogen: pictures and 3D models into puzzles people enjoy, with proofs that they are fair."""
from .errors import FormatError, InputError, LimitError, NonogenError, OutputExistsError, PuzzleError
from .model import BACKGROUND, BW_PALETTE, Color, Puzzle, Puzzle3D
from .clues import (
    clue_problems,
    derive_clues,
    derive_clues_3d,
    puzzle3d_from_cells,
    puzzle_from_grid,
    satisfies,
    satisfies_3d,
)

__version__ = "0.1.0"

__all__ = [
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
]
