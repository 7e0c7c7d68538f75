"""Regenerate the sample models in samples/meshes/ from trimesh primitives (no booleans needed).

Each model is a few overlapping closed primitives concatenated into one mesh;
the voxelizer fills overlaps as solid, so no boolean union is needed. One file
per format nonogen reads (STL, OBJ, PLY, OFF, GLB), some with colours, each in
its format's usual up axis (z for STL/OFF, y for the others). The models are
the project's own work (MIT, like the code).

Usage: python scripts/make_sample_meshes.py [OUT_DIR]   (default samples/meshes)
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import trimesh
from trimesh.creation import box, capsule, cone, cylinder, icosphere, torus

Y_UP = trimesh.transformations.rotation_matrix(-np.pi / 2, [1, 0, 0])  # z-up -> y-up


def _paint(mesh: trimesh.Trimesh, rgb: tuple[int, int, int]) -> trimesh.Trimesh:
    mesh.visual.face_colors = [*rgb, 255]
    return mesh


def _at(mesh: trimesh.Trimesh, x: float = 0, y: float = 0, z: float = 0) -> trimesh.Trimesh:
    return mesh.apply_translation((x, y, z))


def rocket() -> trimesh.Trimesh:
    """A rocket on three fins (z up)."""
    parts = [_at(cylinder(radius=1.0, height=5.0, sections=24), z=3.5),
             _at(cone(radius=1.0, height=2.2, sections=24), z=6.0)]
    for angle in (0, 2 * np.pi / 3, 4 * np.pi / 3):
        fin = _at(box(extents=(1.6, 0.3, 2.0)), x=1.3, z=1.6)
        fin.apply_transform(trimesh.transformations.rotation_matrix(angle, [0, 0, 1]))
        parts.append(fin)
    parts.append(_at(cylinder(radius=0.7, height=0.8, sections=24), z=0.6))
    return trimesh.util.concatenate(parts)


def mushroom() -> trimesh.Trimesh:
    """A red-capped mushroom with a white stem (y up, vertex colours)."""
    cap = icosphere(subdivisions=3, radius=2.2)
    cap.vertices[:, 2] = np.maximum(cap.vertices[:, 2], 0) * 0.8 + 2.4
    stem = _at(cylinder(radius=0.8, height=2.6, sections=24), z=1.3)
    _paint(cap, (200, 30, 40))
    _paint(stem, (235, 230, 215))
    return trimesh.util.concatenate([cap, stem]).apply_transform(Y_UP)


def chair() -> trimesh.Trimesh:
    """A chair: seat, back and four legs (z up)."""
    parts = [_at(box(extents=(3, 3, 0.5)), z=2.25), _at(box(extents=(3, 0.5, 3)), y=1.25, z=4.0)]
    parts += [_at(box(extents=(0.5, 0.5, 2.0)), x=sx * 1.25, y=sy * 1.25, z=1.0) for sx in (-1, 1) for sy in (-1, 1)]
    return trimesh.util.concatenate(parts)


def mug() -> trimesh.Trimesh:
    """A blue mug with a ring handle (y up, face colours)."""
    body = _at(cylinder(radius=1.5, height=3.0, sections=32), z=1.5)
    handle = torus(major_radius=0.9, minor_radius=0.28, major_sections=32, minor_sections=12)
    handle.apply_transform(trimesh.transformations.rotation_matrix(np.pi / 2, [1, 0, 0]))
    _at(handle, x=1.6, z=1.6)
    return trimesh.util.concatenate([_paint(body, (40, 90, 190)), _paint(handle, (40, 90, 190))]).apply_transform(Y_UP)


def snowman() -> trimesh.Trimesh:
    """Three stacked balls, a hat and a carrot nose (y up)."""
    parts = [
        _at(icosphere(subdivisions=3, radius=1.6), z=1.6),
        _at(icosphere(subdivisions=3, radius=1.15), z=3.8),
        _at(icosphere(subdivisions=3, radius=0.8), z=5.4),
        _at(cylinder(radius=0.6, height=0.9, sections=24), z=6.4),
        _at(cylinder(radius=0.95, height=0.15, sections=24), z=6.0),
    ]
    nose = cone(radius=0.18, height=0.9, sections=12)
    nose.apply_transform(trimesh.transformations.rotation_matrix(-np.pi / 2, [1, 0, 0]))
    parts.append(_at(nose, y=-0.7, z=5.4))
    return trimesh.util.concatenate(parts).apply_transform(Y_UP)


def capsule_dog() -> trimesh.Trimesh:
    """A little dog from capsules: body, head, legs, tail (z up)."""
    rot_x = trimesh.transformations.rotation_matrix(np.pi / 2, [0, 1, 0])
    body = capsule(height=3.0, radius=0.9).apply_transform(rot_x)
    parts = [_at(body, z=2.2), _at(icosphere(subdivisions=2, radius=0.9), x=2.3, z=3.2),
             _at(box(extents=(0.9, 0.6, 0.6)), x=3.2, z=3.0)]
    parts += [_at(cylinder(radius=0.3, height=1.6, sections=12), x=sx, y=sy, z=0.8)
              for sx in (-1.2, 1.2) for sy in (-0.5, 0.5)]
    tail = capsule(height=1.0, radius=0.2)
    tail.apply_transform(trimesh.transformations.rotation_matrix(-0.6, [0, 1, 0]))
    parts.append(_at(tail, x=-2.4, z=3.0))
    return trimesh.util.concatenate(parts)


MODELS = {
    "rocket.stl": rocket,
    "mushroom.ply": mushroom,
    "chair.off": chair,
    "mug.glb": mug,
    "snowman.obj": snowman,
    "dog.stl": capsule_dog,
}


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, build in MODELS.items():
        mesh = build()
        mesh.export(out / name)
        print(f"{out / name}: {len(mesh.faces)} faces")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("samples/meshes"))
