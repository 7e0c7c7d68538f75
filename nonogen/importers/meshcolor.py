"""A model's colours on its cubes: face, vertex or texture colours, read where the surface crosses each cell.

A textured model is read at its texture coordinates, point by point: the
texture coordinates of each surface sample are interpolated across its
triangle and the image is read there. Averaging the colours of a triangle's
three corners (trimesh's ``to_color``) lost what a texture draws inside large
triangles: Spot the cow's patches and eyes. A model whose file names no
texture but has texture coordinates (an OBJ without its material file) can be
given the image (:func:`with_texture`). The colours are then reduced to a
small palette a player can tell apart (:func:`level_palette`).
"""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import Optional

import numpy as np

from ..colorspace import median_cut, palette_from_rgb
from ..errors import FileLimitError, FormatError, InputError
from ..palette import Color

__all__ = ["SurfaceColors", "surface_colors", "with_texture", "has_bare_uv", "level_palette", "Paint",
           "MAX_LEVEL_COLORS", "MAX_TEXTURE_BYTES", "MAX_TEXTURE_PIXELS"]

MAX_LEVEL_COLORS = 12
"""Colours a level keeps from its model: enough for a recognisable model, few enough to name."""
MAX_TEXTURE_BYTES = 8 * 1024 * 1024
"""Largest texture file given beside a model (the model file's own cap)."""
MAX_TEXTURE_PIXELS = 4096 * 4096
"""Largest texture read: a bigger one is a decompression bomb here, not detail a cube can show."""


class SurfaceColors:
    """The colour of any point of a model's surface, given its triangle and barycentric weights."""

    def __init__(self, face_rgb: Optional[np.ndarray] = None, uv: Optional[np.ndarray] = None,
                 faces: Optional[np.ndarray] = None, material=None):
        self.face_rgb, self.uv, self.faces, self.material = face_rgb, uv, faces, material

    def at(self, owner: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """RGB (n, 3) uint8 of the points on triangles ``owner`` at barycentric ``weights`` (n, 3)."""
        if self.face_rgb is not None:
            return self.face_rgb[owner]
        assert self.uv is not None and self.faces is not None
        corners = self.uv[self.faces[owner]]  # (n, 3 corners, 2)
        uv = np.einsum("nc,ncd->nd", weights, corners)
        return np.asarray(self.material.to_color(uv))[:, :3].astype(np.uint8)


def surface_colors(mesh) -> Optional[SurfaceColors]:
    """How to read the model's colours (texture, vertex or face colours), or ``None`` if it has none."""
    visual = mesh.visual
    try:
        if visual.kind == "texture":
            if _placeholder(visual.material):
                return None
            textured = _textured(mesh)
            if textured is not None:
                return textured
            visual = visual.to_color()  # a material with no image: its colour, through trimesh
        if visual.kind == "vertex":
            rgb = np.asarray(visual.vertex_colors)[mesh.faces][:, :, :3].mean(axis=1).astype(np.uint8)
            return SurfaceColors(face_rgb=rgb)
        if visual.kind == "face":
            return SurfaceColors(face_rgb=np.asarray(visual.face_colors)[:, :3].astype(np.uint8))
    except Exception:  # a broken texture only costs the colours
        return None
    return None


def _textured(mesh) -> Optional[SurfaceColors]:
    """The texture read at each point's texture coordinates, or ``None`` when the material cannot be read so."""
    uv, material = mesh.visual.uv, mesh.visual.material
    if uv is None or len(uv) != len(mesh.vertices):
        return None
    uv = np.nan_to_num(np.asarray(uv, dtype=float))
    probe = np.asarray(material.to_color(uv[:1]))  # fails now, not in the middle of a voxelization, if it cannot
    if probe.ndim != 2 or probe.shape[1] < 3:
        return None
    return SurfaceColors(uv=uv, faces=np.asarray(mesh.faces), material=material)


def _placeholder(material) -> bool:
    """Whether a texture is trimesh's stand-in, not the model's: a model with texture coordinates but no texture
    (a PLY or OBJ exported from Blender, or one whose texture file is missing) gets a 2x2 grey image.

    Painted with it, Suzanne became the issue's "unreadable grey lump": every cube one dark grey, where a model
    without colours gets the plain cubes whose shading shows its shape.
    """
    from trimesh.visual.material import color_image

    image = getattr(material, "image", None)
    return image is not None and image.size == (2, 2) and np.array_equal(np.asarray(image), np.asarray(color_image()))


def has_bare_uv(mesh) -> bool:
    """Whether the model has texture coordinates but no texture of its own (it could be given one)."""
    visual = mesh.visual
    return visual.kind == "texture" and getattr(visual, "uv", None) is not None and _placeholder(visual.material)


def with_texture(mesh, image_path: str | Path):
    """The mesh painted with the image at ``image_path`` through its own texture coordinates.

    For a model whose file does not name its texture (Spot the cow's OBJ
    comes without a material file, its colours in ``spot_texture.png``).
    """
    from PIL import Image
    from trimesh.visual.texture import TextureVisuals

    path = Path(image_path)
    uv = getattr(mesh.visual, "uv", None)
    if mesh.visual.kind != "texture" or uv is None or len(uv) != len(mesh.vertices):
        raise InputError(f"{path}: the model has no texture coordinates to lay this texture on")
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    if path.stat().st_size > MAX_TEXTURE_BYTES:
        raise FileLimitError(f"texture file is {path.stat().st_size / 2**20:.1f} MB; nonogen reads textures up to "
                             f"{MAX_TEXTURE_BYTES >> 20} MB", path=str(path))
    try:
        with warnings.catch_warnings():  # Pillow warns of a decompression bomb on stderr: here it is our error
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as opened:
                image = opened.convert("RGBA") if opened.width * opened.height <= MAX_TEXTURE_PIXELS else None
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        image = None
    except (OSError, ValueError):
        raise FormatError("not a readable image", path=str(path)) from None
    if image is None:
        raise _too_big(path)
    painted = mesh.copy()
    painted.visual = TextureVisuals(uv=np.asarray(uv, dtype=float), image=image)
    return painted


def _too_big(path: Path) -> FileLimitError:
    return FileLimitError(f"the texture has more than {MAX_TEXTURE_PIXELS:,} pixels, the most nonogen reads",
                          path=str(path))


class Paint:
    """Surface colours per cell, gathered chunk by chunk; :meth:`spread` gives every cell its nearest colour."""

    def __init__(self, dims: np.ndarray, origin: np.ndarray, pitch: float):
        self.dims, self.origin, self.pitch = dims, origin, pitch
        self.colors = np.zeros((*dims, 3), dtype=np.uint8)
        self.has = np.zeros(tuple(dims), dtype=bool)

    def add(self, points: np.ndarray, rgb: np.ndarray) -> None:
        coarse = tuple(np.clip(np.floor((points - self.origin) / self.pitch).astype(int), 0, self.dims - 1).T)
        self.colors[coarse] = rgb
        self.has[coarse] = True

    def spread(self) -> np.ndarray:
        """Each cell takes the colour of the surface in it, or of the nearest coloured cell."""
        from scipy import ndimage  # scipy (0.4 s to load): only a model with colours needs it

        _, nearest = ndimage.distance_transform_edt(~self.has, return_indices=True)
        return self.colors[tuple(nearest)]


def level_palette(cells: np.ndarray, rgb: np.ndarray) -> tuple[tuple[Color, ...], np.ndarray]:
    """The model's colours as a level palette and an index per kept cube.

    Colours are reduced to at most :data:`MAX_LEVEL_COLORS` (median cut over
    the kept cubes), then named and coded as picture colours are; the
    background is "none", the empty space around the model.
    """
    goal = np.asarray(cells, dtype=bool)
    index, found = median_cut(np.asarray(rgb, dtype=np.uint8)[goal], MAX_LEVEL_COLORS)
    named = palette_from_rgb((255, 255, 255), [(int(r), int(g), int(b)) for r, g, b in found])
    colors = np.zeros(goal.shape, dtype=np.uint8)
    colors[goal] = index + 1
    return (Color("none", "#ffffff", "."),) + tuple(named[1:]), colors
