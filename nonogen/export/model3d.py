"""The solved Picross 3D model as one coloured mesh a game or a 3D tool loads (GLB, glTF, OBJ, PLY, STL).

Only the faces between a kept cube and air are built, so the mesh is the
closed surface of the model (cubes merged, no inner walls); each face
carries its cube's colour. One cube is one unit.

Frames. nonogen's own frame is ``cells[x, y, z]`` with x to the right, y down
(0 is the top layer) and z away from the viewer (0 is the front). Exports
turn it into a right-handed frame the target expects:

* ``y-up`` (glTF, three.js, Unity, Godot): x right, y up, z towards the viewer;
  cube ``(x, y, z)`` spans ``[x, x+1] x [Y-1-y, Y-y] x [Z-1-z, Z-z]``.
* ``z-up`` (Blender, most CAD and STL tools): x right, y away from the viewer,
  z up; cube ``(x, y, z)`` spans ``[x, x+1] x [z, z+1] x [Y-1-y, Y-y]``.

Both are rotations of nonogen's frame (no mirror), so the model keeps its
handedness.
"""
from __future__ import annotations

from typing import Literal, Optional

import numpy as np

from ..model3d import Puzzle3D

__all__ = ["AXES", "MODEL_SUFFIXES", "cube_faces", "level_mesh", "model_bytes"]

Axes = Literal["y-up", "z-up"]
AXES: tuple[str, ...] = ("y-up", "z-up")
MODEL_SUFFIXES = {".glb": "glb", ".gltf": "gltf", ".obj": "obj", ".ply": "ply", ".stl": "stl"}
PLAIN = (205, 160, 105)  # the colour of cubes when the level has none (as in the isometric render)

# The six faces of a unit cube at the origin, in nonogen's frame: the neighbour offset and the four
# corners, ordered counter-clockwise seen from outside (so normals point out after the frame turn).
_FACES = (
    ((-1, 0, 0), ((0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 0))),
    ((1, 0, 0), ((1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 0, 1))),
    ((0, -1, 0), ((0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1))),
    ((0, 1, 0), ((0, 1, 0), (0, 1, 1), (1, 1, 1), (1, 1, 0))),
    ((0, 0, -1), ((0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 0))),
    ((0, 0, 1), ((0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1))),
)


def cube_faces(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The outer faces of the kept cubes, in nonogen's frame.

    Returns ``(vertices, quads, owner)``: corner positions (``n x 3``),
    quads as four vertex indices each, and the cube each quad belongs to.

    >>> v, q, owner = cube_faces(np.ones((1, 1, 1), dtype=bool))
    >>> len(q), v.min(axis=0).tolist(), v.max(axis=0).tolist()
    (6, [0.0, 0.0, 0.0], [1.0, 1.0, 1.0])
    """
    cells = np.asarray(cells, dtype=bool)
    padded = np.pad(cells, 1)
    verts, quads, owner = [], [], []
    for (dx, dy, dz), corners in _FACES:
        neighbour = padded[1 + dx : padded.shape[0] - 1 + dx, 1 + dy : padded.shape[1] - 1 + dy,
                           1 + dz : padded.shape[2] - 1 + dz]
        exposed = np.argwhere(cells & ~neighbour)
        for corner in corners:
            verts.append(exposed + np.array(corner))
        base = sum(len(v) for v in verts[:-4])
        n = len(exposed)
        quads.append(base + np.arange(n)[:, None] + n * np.arange(4)[None, :])
        owner.append(exposed)
    if not any(len(o) for o in owner):
        return np.zeros((0, 3)), np.zeros((0, 4), dtype=np.int64), np.zeros((0, 3), dtype=np.int64)
    return (np.concatenate(verts).astype(float), np.concatenate(quads), np.concatenate(owner))


def _to_frame(vertices: np.ndarray, size: tuple[int, int, int], axes: str) -> np.ndarray:
    X, Y, Z = size
    x, y, z = vertices[:, 0], vertices[:, 1], vertices[:, 2]
    if axes == "y-up":
        return np.stack([x, Y - y, Z - z], axis=1)
    if axes == "z-up":
        return np.stack([x, z, Y - y], axis=1)
    raise ValueError(f"axes must be one of {', '.join(AXES)}, not {axes!r}")


def level_mesh(puzzle: Puzzle3D, axes: str = "y-up", cells: Optional[np.ndarray] = None):
    """A :class:`trimesh.Trimesh` of the solved level (``cells``, default its goal), coloured per face."""
    import trimesh  # 0.5 s to load: paid when a model file is written, not by every level

    cells = np.asarray(puzzle.goal if cells is None else cells, dtype=bool)
    vertices, quads, owner = cube_faces(cells)
    rgb = puzzle.rgb()
    if rgb is None:
        face_rgb = np.tile(np.array(PLAIN, dtype=np.uint8), (len(quads), 1))
    else:
        face_rgb = rgb[tuple(owner.T)] if len(owner) else np.zeros((0, 3), dtype=np.uint8)
    triangles = np.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]])
    colors = np.concatenate([face_rgb, face_rgb])
    mesh = trimesh.Trimesh(_to_frame(vertices, puzzle.size, axes), triangles, process=False)
    mesh.visual = trimesh.visual.ColorVisuals(mesh, face_colors=np.column_stack([colors, np.full(len(colors), 255)]))
    mesh.merge_vertices(merge_tex=True, merge_norm=True)
    return mesh


def model_bytes(puzzle: Puzzle3D, suffix: str, axes: str = "y-up") -> bytes:
    """The solved level as the content of a model file of type ``suffix`` (``.glb``, ``.obj`` ...)."""
    if suffix.lower() not in MODEL_SUFFIXES:
        raise ValueError(f"model files are {', '.join(MODEL_SUFFIXES)}, not {suffix!r}")
    if puzzle.goal is None:
        raise ValueError("the level has no solution to export")
    data = level_mesh(puzzle, axes).export(file_type=MODEL_SUFFIXES[suffix.lower()])
    return data.encode("utf-8") if isinstance(data, str) else bytes(data)
