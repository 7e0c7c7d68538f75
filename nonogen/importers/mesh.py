"""3D models (STL, OBJ, PLY, GLB/GLTF, OFF) to solid boxes of cubes for Picross 3D.

Why not trimesh's ``voxelized(pitch)``: it marks the voxel nearest each
surface point, so a model ``N`` pitches long spans ``N + 1`` voxels, and it
gives only a shell; ``fill('holes')`` then silently leaves open meshes hollow.
Here the grid is laid out explicitly (exactly ``size`` cells on the longest
axis), the surface is marked by sampling subdivided triangles, and the inside
is found by ray blocking: a cell is inside when the surface blocks axis rays
in all six directions (closed meshes) or five of six (open meshes, so a
missing bottom does not empty the model while a torus hole stays open).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np

from ..errors import EmptyModelError, FormatError, InputError, LimitError

__all__ = [
    "MESH_SUFFIXES",
    "VoxelModel",
    "load_mesh",
    "default_up",
    "orient",
    "voxelize",
    "mesh_to_voxels",
    "MIN_SIZE",
    "MAX_SIZE",
]

MESH_SUFFIXES = (".stl", ".obj", ".ply", ".glb", ".gltf", ".off")
MIN_SIZE, MAX_SIZE = 2, 40
Y_UP_SUFFIXES = (".ply", ".glb", ".gltf", ".obj")


@dataclass(frozen=True)
class VoxelModel:
    """A voxelized model: ``cells[x, y, z]`` (x right, y down with 0 at the top, z away from the viewer).

    ``colors`` is ``(X, Y, Z, 3)`` uint8 when the model carries colours
    (face, vertex or texture colours), else ``None``.
    """

    cells: np.ndarray
    colors: Optional[np.ndarray]
    pitch: float


def load_mesh(path: str | Path):
    """Read a model with trimesh as one mesh (scenes flattened); bad files raise one-line errors."""
    import trimesh

    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    suffix = path.suffix.lower()
    if suffix not in MESH_SUFFIXES:
        raise InputError(f"{path}: unsupported model type {suffix or '(none)'}; use one of {', '.join(MESH_SUFFIXES)}")
    if path.stat().st_size == 0:
        raise InputError(f"{path}: empty file")
    try:
        mesh = trimesh.load(str(path), force="mesh")
    except Exception as exc:  # trimesh raises many types for garbage input
        detail = str(exc).splitlines()[0][:80] if str(exc) and not isinstance(exc, ImportError) else "unreadable data"
        raise FormatError(f"not a valid {suffix[1:].upper()} model ({detail})", path=str(path)) from None
    if not isinstance(mesh, trimesh.Trimesh) or len(getattr(mesh, "faces", ())) == 0:
        raise InputError(f"{path}: the model has no faces (empty scene or point cloud)")
    finite = np.isfinite(mesh.vertices).all()
    if not finite:
        raise InputError(f"{path}: the model has vertices that are not finite numbers")
    extents = np.asarray(mesh.extents, dtype=float)
    if extents.max() <= 0 or extents.min() <= extents.max() * 1e-6:
        raise InputError(f"{path}: the model is flat (zero volume, extents {np.round(extents, 6).tolist()})")
    return mesh


def default_up(path: str | Path) -> str:
    """The usual up axis of a file type: ``y`` for PLY/GLB/GLTF/OBJ, ``z`` for STL and OFF.

    >>> default_up("bunny.ply"), default_up("part.STL")
    ('y', 'z')
    """
    return "y" if Path(path).suffix.lower() in Y_UP_SUFFIXES else "z"


def orient(vertices: np.ndarray, up: str) -> np.ndarray:
    """Model coordinates to cell coordinates (x right, y down, z away from the viewer); a rotation.

    >>> orient(np.array([[1.0, 2.0, 3.0]]), "z").tolist(), orient(np.array([[1.0, 2.0, 3.0]]), "y").tolist()
    ([[1.0, -3.0, 2.0]], [[1.0, -2.0, -3.0]])
    """
    v = np.asarray(vertices, dtype=float)
    if up == "z":
        return np.column_stack([v[:, 0], -v[:, 2], v[:, 1]])
    if up == "y":
        return np.column_stack([v[:, 0], -v[:, 1], -v[:, 2]])
    raise InputError(f"up axis must be 'z' or 'y', got {up!r}")


def _face_colors(mesh) -> Optional[np.ndarray]:
    """Per-face RGB from the model's colours or texture, or ``None`` if it has none."""
    visual = mesh.visual
    try:
        if visual.kind == "texture":
            visual = visual.to_color()
        if visual.kind == "vertex":
            return np.asarray(visual.vertex_colors)[mesh.faces][:, :, :3].mean(axis=1).astype(np.uint8)
        if visual.kind == "face":
            return np.asarray(visual.face_colors)[:, :3].astype(np.uint8)
    except Exception:  # a broken texture only costs the colours
        return None
    return None


def _surface_points(vertices: np.ndarray, faces: np.ndarray, spacing: float) -> tuple[np.ndarray, np.ndarray]:
    """Points on every triangle no further apart than ``spacing``, with the original face of each."""
    import trimesh

    v, f, index = vertices, faces, np.arange(len(faces))
    for _ in range(24):
        edges = np.linalg.norm(v[f] - v[f[:, [1, 2, 0]]], axis=2).max(axis=1)
        big = edges > spacing
        if not big.any():
            break
        keep_f, keep_i = f[~big], index[~big]
        v, new_f = trimesh.remesh.subdivide(v, f[big])[:2]
        f = np.vstack([keep_f, new_f])
        index = np.concatenate([keep_i, np.repeat(index[big], 4)])
    corners = v[f]
    points = np.concatenate([corners.reshape(-1, 3), corners.mean(axis=1)])
    owner = np.concatenate([np.repeat(index, 3), index])
    return points, owner


def _blocked_inside(surface: np.ndarray, needed: int) -> np.ndarray:
    """Cells with surface along at least ``needed`` of the six axis directions."""
    blocked = np.zeros(surface.shape, dtype=np.int8)
    for axis in range(3):
        before = np.logical_or.accumulate(surface, axis=axis)
        after = np.flip(np.logical_or.accumulate(np.flip(surface, axis), axis=axis), axis)
        blocked += before.astype(np.int8) + after.astype(np.int8)
    return blocked >= needed


def voxelize(mesh, size: int, up: str = "z", method: str = "center") -> VoxelModel:
    """Exactly ``size`` cells on the model's longest axis, solid inside.

    ``method='surface'`` keeps every cell the surface passes through
    (conservative: thin parts survive, shapes grow); ``'center'`` keeps a
    cell when its centre is inside the model (sampled on a 3x finer grid).
    """
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise LimitError(f"size {size}: must be between {MIN_SIZE} and {MAX_SIZE} cells")
    if method not in ("surface", "center"):
        raise InputError(f"method must be 'surface' or 'center', got {method!r}")
    vertices = orient(mesh.vertices, up)
    origin = vertices.min(axis=0)
    extents = vertices.max(axis=0) - origin
    pitch = float(extents.max()) / size
    dims = np.clip(np.ceil(extents / pitch - 1e-6).astype(int), 1, size)
    k = 1 if method == "surface" else 3
    fine = pitch / k
    points, owner = _surface_points(vertices, np.asarray(mesh.faces), fine / 2)
    index = np.clip(np.floor((points - origin) / fine).astype(int), 0, dims * k - 1)
    surface = np.zeros(tuple(dims * k), dtype=bool)
    surface[tuple(index.T)] = True
    filled = surface | _blocked_inside(surface, 6 if mesh.is_watertight else 5)
    cells = filled if k == 1 else filled[1::k, 1::k, 1::k]
    colors = _cell_colors(mesh, points, owner, origin, pitch, cells)
    return VoxelModel(cells=cells, colors=colors, pitch=pitch)


def _cell_colors(mesh, points, owner, origin, pitch, cells) -> Optional[np.ndarray]:
    """Each cell takes the colour of the surface in it, or of the nearest coloured cell."""
    face_rgb = _face_colors(mesh)
    if face_rgb is None:
        return None
    from scipy import ndimage

    coarse = np.clip(np.floor((points - origin) / pitch).astype(int), 0, np.array(cells.shape) - 1)
    colors = np.zeros((*cells.shape, 3), dtype=np.uint8)
    colors[tuple(coarse.T)] = face_rgb[owner]
    has = np.zeros(cells.shape, dtype=bool)
    has[tuple(coarse.T)] = True
    _, nearest = ndimage.distance_transform_edt(~has, return_indices=True)
    return colors[tuple(nearest)]


def mesh_to_voxels(path: str | Path, size: int, up: Optional[str] = None, method: str = "center") -> VoxelModel:
    """Load and voxelize a model file; an empty or completely full result is an input error."""
    mesh = load_mesh(path)
    model = voxelize(mesh, size, up or default_up(path), method)
    dims = "x".join(map(str, model.cells.shape))
    if not model.cells.any():
        raise EmptyModelError(f"{path}: the model voxelizes to an empty {dims} box")
    if model.cells.all():
        raise InputError(
            f"{path}: the model fills the whole {dims} box (every clue would be a full line, nothing to solve)"
        )
    return model
