"""A model's colours on its cubes (textures read where the surface crosses each cube, a texture given beside an OBJ),
and the solution picture's camera (the play page's first view, long side to the viewer)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import trimesh
from PIL import Image
from trimesh.visual.texture import TextureVisuals

from nonogen.cli import main
from nonogen.importers.mesh import mesh_to_voxels
from nonogen.render.canvas import Polygon
from nonogen.render.iso3d import solution_picture

RED, BLUE = (220, 30, 30), (30, 60, 220)


def _halves(width: int = 64) -> Image.Image:
    """A texture red on its left half (u < 0.5) and blue on its right."""
    pixels = np.zeros((8, width, 3), dtype=np.uint8)
    pixels[:, : width // 2], pixels[:, width // 2 :] = RED, BLUE
    return Image.fromarray(pixels)


def _textured_bar() -> trimesh.Trimesh:
    """A bar 4 long in x (2 deep, 1 high), with a knob on its left end (a full box is no level), whose texture
    coordinate u runs 0 to 1 along x: each side of the bar is two triangles that span both halves of the texture,
    so the colour of a triangle's corners says nothing of the colour in its middle."""
    bar = trimesh.util.concatenate([trimesh.creation.box(extents=(4, 2, 1)),
                                    trimesh.creation.box().apply_translation((-1.5, 0, 1))])
    u = (bar.vertices[:, 0] + 2) / 4
    bar.visual = TextureVisuals(uv=np.column_stack([u, np.full(len(u), 0.5)]), image=_halves())
    return bar


def _nearest(rgb) -> tuple[int, int, int]:
    return min((RED, BLUE), key=lambda c: sum((int(a) - b) ** 2 for a, b in zip(rgb, c, strict=True)))


def test_a_texture_is_read_at_each_point_of_the_surface_not_at_the_corners():
    """Averaged per triangle from its corners (trimesh's to_color), every cube of the bar was one purple; read at each
    surface point's own texture coordinates, the left half of the bar is red and the right half blue."""
    model = mesh_to_voxels(_textured_bar(), 4, up="z", turn=0)
    assert model.cells.shape == (4, 2, 2) and model.cells.sum() == 10 and model.palette is not None
    rgb = [tuple(int(model.palette[i].rgb[k:k + 2], 16) for k in (1, 3, 5)) for i in model.index[:, 1, 0]]
    assert [_nearest(c) for c in rgb] == [RED, RED, BLUE, BLUE]
    assert all(sum(abs(a - b) for a, b in zip(c, _nearest(c), strict=True)) < 40 for c in rgb)  # not mixed


def _bare_obj(folder: Path) -> Path:
    """The bar as an OBJ with texture coordinates and no material file (as Spot the cow is published)."""
    bar = _textured_bar()
    lines = [f"v {x} {y} {z}" for x, y, z in bar.vertices] + [f"vt {u} {v}" for u, v in bar.visual.uv]
    lines += [f"f {a + 1}/{a + 1} {b + 1}/{b + 1} {c + 1}/{c + 1}" for a, b, c in bar.faces]
    path = folder / "bar.obj"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_model_without_its_texture_is_told_and_can_be_given_it(tmp_path, capsys):
    model = _bare_obj(tmp_path)
    assert main(["mesh", str(model), "--size", "8", "--up", "z", "-o", str(tmp_path / "plain"), "--json"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["warnings"] == [("the model has texture coordinates but names no texture: its cubes are plain; "
                                   "given the texture image, they would take its colours")]
    assert captured.err == f"nonogen: warning: {report['warnings'][0]}\n"
    assert "palette" not in json.loads((tmp_path / "plain" / "level.json").read_text())
    _halves().save(tmp_path / "skin.png")
    assert main(["mesh", str(model), "--size", "8", "--up", "z", "--texture", str(tmp_path / "skin.png"), "--json",
                 "-o", str(tmp_path / "painted")]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["warnings"] == [] and captured.err == ""
    level = json.loads((tmp_path / "painted" / "level.json").read_text())
    assert len(level["palette"]) == 3  # none, and the texture's two colours


def test_a_texture_that_cannot_be_used_is_one_line_and_exit_2(tmp_path, capsys):
    model = _bare_obj(tmp_path)
    (tmp_path / "notes.png").write_text("not an image")
    trimesh.creation.box().export(tmp_path / "plain.stl")
    _halves().save(tmp_path / "skin.png")
    notes = tmp_path / "notes.png"
    cases = [([str(model), "--texture", str(tmp_path / "gone.png")], f"{tmp_path / 'gone.png'}: no such file"),
             ([str(model), "--texture", str(notes)], f"{notes}: not a readable image"),
             ([str(tmp_path / "plain.stl"), "--texture", str(tmp_path / "skin.png")],
              f"{tmp_path / 'skin.png'}: the model has no texture coordinates to lay this texture on"),
             ([str(model), str(tmp_path / "plain.stl"), "--texture", str(tmp_path / "skin.png")],
              f"--texture {tmp_path / 'skin.png'}: expected one model: a texture belongs to one model's coordinates")]
    for i, (argv, message) in enumerate(cases):
        assert main(["mesh", *argv, "--size", "4", "-o", str(tmp_path / f"out{i}")]) == 2, argv
        assert capsys.readouterr().err == f"nonogen: error: {message}\n"
        assert not (tmp_path / f"out{i}").exists()


@pytest.mark.parametrize("side", [5000, 10000])
def test_a_huge_texture_is_refused_in_one_line_with_no_word_from_pillow(tmp_path, capfd, side):
    """5000x5000 is over nonogen's limit; 10000x10000 is also over Pillow's, which warned on stderr as it opened it."""
    model = _bare_obj(tmp_path)
    huge = tmp_path / "huge.png"
    Image.new("1", (side, side)).save(huge)  # a few kB on disk
    code = main(["mesh", str(model), "--size", "4", "--texture", str(huge), "-o", str(tmp_path / "out")])
    assert code == 2
    assert capfd.readouterr().err == (f"nonogen: error: {huge}: the texture has more than 16,777,216 pixels, "
                                      "the most nonogen reads\n")


# --- the solution picture's camera -----------------------------------------------------------------


def _area(shape: Polygon) -> float:
    xs, ys = zip(*shape.points, strict=True)
    return 0.5 * abs(sum(xs[i] * ys[i - 1] - xs[i - 1] * ys[i] for i in range(len(xs))))


def test_the_solution_is_seen_mostly_from_the_front_and_a_little_from_above():
    """The play page's first camera, 31.5 degrees right of the front and 28 up: of one cube the viewer sees most of
    the front, less of the right side and of the top; a bar along x looks longer than the same bar along z."""
    faces = [s for s in solution_picture(np.ones((1, 1, 1), dtype=bool)).shapes if isinstance(s, Polygon)]
    front, right, top = sorted(faces, key=_area, reverse=True)
    assert _area(front) > 1.5 * _area(right) and _area(front) > 1.5 * _area(top)
    across, along = (solution_picture(np.ones(shape, dtype=bool), margin=0) for shape in ((6, 1, 1), (1, 1, 6)))
    assert across.width > 1.35 * along.width  # from the isometric corner both were as wide


@pytest.mark.parametrize("long_axis", ["x", "y"])
def test_a_model_modelled_head_on_shows_its_long_side(long_axis):
    """A z-up beast 6 long, 1 wide, 2 high with a head on one end: lying along y it faced the viewer end-on; its
    outline from the side is 13 cubes to its front's 3, so it is turned a quarter and shows its length. Along x it
    already does and stays as it is."""
    beast = trimesh.util.concatenate([trimesh.creation.box(extents=(6, 1, 2)),
                                      trimesh.creation.box().apply_translation((2.5, 0, 1.5))])
    if long_axis == "y":
        beast.apply_transform(trimesh.transformations.rotation_matrix(np.pi / 2, (0, 0, 1)))
    model = mesh_to_voxels(beast, 6)
    assert model.cells.shape == (6, 3, 1)
    assert (model.orientation.turn in (90, 270)) == (long_axis == "y")
    if long_axis == "y":
        assert "its outline from the side is 333 % larger than from the front" in model.orientation.why
