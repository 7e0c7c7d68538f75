"""Making puzzles: pictures into nonograms and models into Picross 3D levels, each verified, repaired and reported."""
from .level3d import MadeLevel, from_mesh, make_level
from .picture import MadePuzzle, from_image
from .repair2d import Repair2D, repair

__all__ = ["from_image", "MadePuzzle", "from_mesh", "MadeLevel", "make_level", "repair", "Repair2D"]
