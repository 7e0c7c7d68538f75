"""A solved Picross 3D level as a mesh file other programs open (GLB, glTF, OBJ, PLY, STL)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Union

from ..errors import PuzzleError
from ..export.model3d import MODEL_SUFFIXES, model_bytes
from ..files import write_file
from ..model3d import Puzzle3D

__all__ = ["write_model"]


def write_model(level: Puzzle3D, path: Union[str, Path], *, axes: str = "y-up", force: bool = False) -> dict[str, Any]:
    """Write the level's goal as merged, coloured cubes (one unit each) in the frame ``axes``; what was written.

    The mesh format comes from ``path``'s suffix (:data:`~nonogen.export.model3d.MODEL_SUFFIXES`).
    """
    if level.goal is None:
        raise PuzzleError("the level has no goal to build the model from")
    suffix = Path(path).suffix.lower()
    write_file(path, model_bytes(level, suffix, axes), force)
    return {"output": str(path), "format": MODEL_SUFFIXES[suffix], "axes": axes, "cubes": int(level.goal.sum()),
            "colored": level.colors is not None}
