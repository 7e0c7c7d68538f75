"""Which way a model stands in its level (--up, --turn, auto), slab warnings, and the mesh library kept quiet."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import trimesh

import nonogen
from nonogen.cli import main
from nonogen.importers.mesh import mesh_to_voxels
from nonogen.importers.meshfile import load_mesh
from nonogen.importers.orient import DEFAULT_VIEW, DEFAULT_VIEWS, KEEP_MARGIN, _turn_vectors, orient, seen
from nonogen.render.iso3d import VIEW

from conftest import SHARED_DATA, needs_shared  # skip, with a reason, without ../shared

ROOT = Path(__file__).resolve().parents[1]


def _arms() -> trimesh.Trimesh:
    """A unit cube at the origin with arms of three lengths: 3 along +x, 2 along +y, 1 along +z.

    Every side of it differs, so where each arm's cubes land shows the rotation exactly (4x3x2 cubes at size 4).
    """
    parts = [((0, 0, 0), (1, 1, 1)), ((2, 0, 0), (3, 1, 1)), ((0, 1.5, 0), (1, 2, 1)), ((0, 0, 1), (1, 1, 1))]
    return trimesh.util.concatenate([trimesh.creation.box(extents=e).apply_translation(c) for c, e in parts])


@pytest.mark.parametrize("up,shape,origin,tips", [
    # cells[x right, y down, z away]: (the centre cube, then the tips of the x, y and z arms)
    ("z", (4, 2, 3), (0, 1, 0), {"x": (3, 1, 0), "y": (0, 1, 2), "z": (0, 0, 0)}),  # +z on top, +y away
    ("y", (4, 3, 2), (0, 2, 1), {"x": (3, 2, 1), "y": (0, 0, 1), "z": (0, 2, 0)}),  # +y on top, +z to the viewer
    ("x", (2, 4, 3), (0, 3, 2), {"x": (0, 0, 2), "y": (0, 3, 0), "z": (1, 3, 2)}),  # +x on top, +z right, +y front
])
def test_up_puts_the_model_axis_on_top_as_documented(up, shape, origin, tips):
    cells = mesh_to_voxels(_arms(), 4, up=up, turn=0).cells
    assert cells.shape == shape and cells.sum() == 7
    assert cells[origin] and all(cells[tip] for tip in tips.values())


def test_turn_brings_the_front_to_the_right_and_the_right_to_the_back():
    """--turn 90 is counter-clockwise seen from above; each quarter turn adds up (four make a whole turn)."""
    plain = mesh_to_voxels(_arms(), 4, up="y", turn=0).cells  # the z arm (1 cube) at the front, the x arm right
    quarter = mesh_to_voxels(_arms(), 4, up="y", turn=90).cells
    assert quarter.shape == (2, 3, 4)
    assert quarter[1, 2, 0]  # the front arm's tip is now at the front-right corner...
    assert quarter[0, 2, 3] and quarter.sum() == 7  # ...and the right arm's tip at the back-left
    half = mesh_to_voxels(_arms(), 4, up="y", turn="180").cells
    assert np.array_equal(half, plain[::-1, :, ::-1])  # half a turn: left-right and front-back swap
    assert np.array_equal(np.rot90(quarter, 3, axes=(0, 2)), plain)
    front = np.array([[0.0, 0.0, -1.0]])  # normals turn with the cells: what faced the viewer faces right
    assert _turn_vectors(front, 90).tolist() == [[1.0, 0.0, 0.0]]


def test_up_and_turn_are_checked_where_owned_and_recorded(tmp_path, capsys):
    with pytest.raises(nonogen.OptionError, match="turn 45: expected 0, 90, 180, 270 or auto"):
        nonogen.from_mesh(_arms(), size=4, turn=45)
    with pytest.raises(nonogen.OptionError, match="up w: expected x, y, z or auto"):
        nonogen.from_mesh(_arms(), size=4, up="w")
    model = tmp_path / "arms.stl"
    _arms().export(model)
    assert main(["mesh", str(model), "--size", "4", "--turn", "45", "-o", str(tmp_path / "bad")]) == 2
    assert capsys.readouterr().err.strip() == "nonogen: error: --turn 45: expected 0, 90, 180, 270 or auto"
    out = tmp_path / "o"
    assert main(["mesh", str(model), "--size", "4", "--up", "x", "--turn", "270", "--json", "-o", str(out)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report == json.loads((out / "report.json").read_text())
    assert report["up"] == "x" and report["orientation"]["up"] == "x" and report["orientation"]["turn"] == 270
    assert report["orientation"]["chosen"] == {"up": "given", "turn": "given"}
    assert report["size"] == list(mesh_to_voxels(model, 4, up="x", turn=270).cells.shape) == [3, 4, 2]


def test_a_model_standing_on_another_axis_than_its_file_type_says_is_stood_up(tmp_path):
    """An OBJ (usually y-up) of a bottle that rests on z = 0 lay on its side; the model's own ground plane wins."""
    trimesh.creation.cone(radius=1, height=5, sections=24).export(tmp_path / "bottle.obj")  # base on z = 0
    model = mesh_to_voxels(tmp_path / "bottle.obj", 10)
    assert model.up == "z" and model.cells.shape[1] == 10  # tall, not long
    assert "rests on z = 0" in model.orientation.why and "usually y-up" in model.orientation.why
    assert mesh_to_voxels(tmp_path / "bottle.obj", 10, up="y").cells.shape[1] == 4  # as asked: lying down


def _suzanne_turned(folder: Path, degrees: int) -> tuple[Path, np.ndarray]:
    """Suzanne turned ``degrees`` about her up axis (glTF y), and the way her eyes look in model coordinates.

    monkey.glb is three meshes: the head and two eyes; the eyes sit on her face, so the direction from the
    head's centre to the eyes' is where she looks.
    """
    mesh = load_mesh(SHARED_DATA / "meshes" / "monkey.glb")
    mesh.apply_transform(trimesh.transformations.rotation_matrix(np.radians(degrees), [0, 1, 0]))
    path = folder / f"suzanne-{degrees}.glb"
    mesh.export(path)
    mesh.merge_vertices(merge_tex=True, merge_norm=True)  # glTF splits vertices along sharp edges
    head, *eyes = sorted(mesh.split(only_watertight=False), key=lambda part: -part.area)
    assert len(eyes) == 2
    return path, np.mean([eye.centroid for eye in eyes], axis=0) - head.centroid


@needs_shared
@pytest.mark.parametrize("degrees", [0, 90, 180, 270])
def test_auto_turns_suzanne_to_look_at_the_viewer(tmp_path, degrees):
    """The issue: Suzanne read as a grey lump. However she is turned about her up axis, auto turns her face (where
    her eyes look) towards the default camera. The criterion tied to the measure: the turn kept scores highest
    (:func:`seen`), or is her own within :data:`KEEP_MARGIN` of it; turned away she scores a third less."""
    path, looks = _suzanne_turned(tmp_path, degrees)
    model = mesh_to_voxels(path, 10)
    facing = model.orientation
    assert facing.up == "y" and model.up == "y"
    gaze = _turn_vectors(orient(looks[None], "y"), facing.turn)[0]
    assert all(gaze @ camera > 0 for camera in DEFAULT_VIEWS.values()), (degrees, facing)
    best = max(facing.seen.values())
    assert facing.seen[facing.turn] == best or (facing.turn == 0 and best < 1 + KEEP_MARGIN)
    # saved facing right (90), her face is her widest outline: turned to face the camera, mostly from the front
    assert facing.turn == {0: 0, 90: 270, 180: 180, 270: 90}[degrees]
    assert min(facing.seen.values()) < 0.75 * best  # facing away loses a quarter or more
    mesh = load_mesh(path)
    triangles = {turn: seen(orient(mesh.face_normals, "y"), mesh.area_faces, turn)[1] for turn in (0, 90, 180, 270)}
    assert triangles[(facing.turn + 180) % 360] < 0.5 * triangles[facing.turn]  # her detail is on her face


@needs_shared
def test_auto_orientation_is_deterministic_and_reported(tmp_path):
    path, _ = _suzanne_turned(tmp_path, 180)
    first, again = (nonogen.from_mesh(path, size=8) for _ in range(2))
    assert np.array_equal(first.solution, again.solution)
    facing = first.report["orientation"]
    assert facing == again.report["orientation"]
    assert facing["up"] == "y" and facing["turn"] == 180 and facing["chosen"] == {"up": "auto", "turn": "auto"}
    assert facing["why"].startswith("up y: glTF is y-up") and "turn 180: its default view faces" in facing["why"]
    assert set(facing["seen"]) == {"0", "90", "180", "270"} and facing["seen"]["0"] == 1.0
    own = nonogen.from_mesh(SHARED_DATA / "meshes" / "monkey.glb", size=8)  # she already faces the viewer
    assert own.report["orientation"]["turn"] == 0 and "as modelled" in own.report["orientation"]["why"]


def test_the_default_camera_is_the_play_pages_and_the_solution_pictures():
    """The turn is judged from the view the level is first seen from: the play page's first camera, whose angles are
    written once in play3d_view.js, and the solution picture, drawn from the same camera (iso3d.VIEW)."""
    source = (ROOT / "nonogen" / "export" / "assets" / "play3d_view.js").read_text()
    theta, phi = map(float, re.search(r"DEFAULT_VIEW = \{ theta: ([\d.]+), phi: ([\d.]+) \}", source).groups())
    assert (theta, phi) == VIEW
    assert list(DEFAULT_VIEWS.values()) == [DEFAULT_VIEW]
    # a unit vector towards the front (-z), the right (+x) and the top (-y): mostly the front, 28 degrees up
    assert abs(np.linalg.norm(DEFAULT_VIEW) - 1) < 1e-9 and DEFAULT_VIEW[0] > 0 and DEFAULT_VIEW[2] < -DEFAULT_VIEW[0]
    assert round(np.degrees(np.arcsin(-DEFAULT_VIEW[1]))) == 28


# --- slabs -----------------------------------------------------------------------------------


def test_a_flat_model_is_warned_as_a_slab_with_the_size_that_makes_it_a_level(tmp_path, capsys):
    disc = tmp_path / "coin.stl"
    trimesh.creation.cylinder(radius=5, height=1.2, sections=48).export(disc)
    code = main(["mesh", str(disc), "--size", "10", "-o", str(tmp_path / "coin"), "--json"])
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert code == 0 and report["size"] == [10, 2, 10]
    assert report["warnings"] == ["a slab 10x2x10 (2 cubes thick): at size 20 it would be 20x3x20"]
    assert captured.err == f"nonogen: warning: {report['warnings'][0]}\n"
    plate = trimesh.util.concatenate([trimesh.creation.box(extents=(10, 10, 1)),
                                      trimesh.creation.box(extents=(1, 1, 3)).apply_translation((0, 0, 2))])
    (warning,) = mesh_to_voxels(plate, 10).warnings  # 10x4x10, but nearly every cube in the plate's layer
    assert warning.startswith("a slab 10x4x10 (") and "% of its cubes in one layer): at size" in warning


def test_a_ball_or_a_tiny_box_is_no_slab():
    assert mesh_to_voxels(trimesh.creation.icosphere(subdivisions=3), 10).warnings == ()
    corners = trimesh.util.concatenate([trimesh.creation.box().apply_translation(c) for c in [(0, 0, 0), (1, 1, 1)]])
    assert mesh_to_voxels(corners, 2).warnings == ()  # 2x2x2: small, not flat


# --- the mesh library kept quiet -------------------------------------------------------------


def _textured_but_missing(folder: Path) -> list[Path]:
    """An OBJ (through its MTL) and a PLY (through a TextureFile comment) naming a texture that is not there."""
    mesh = trimesh.util.concatenate([trimesh.creation.box(extents=(2, 1, 1)).apply_translation((0.5, 0, 0)),
                                     trimesh.creation.box().apply_translation((0, 1, 0))])
    folder.mkdir()
    (folder / "skin.mtl").write_text("newmtl skin\nKd 1 1 1\nmap_Kd missing-skin.png\n")
    (folder / "l.obj").write_text("mtllib skin.mtl\n" + "".join(f"v {x} {y} {z}\n" for x, y, z in mesh.vertices)
                                  + "vt 0 0\nvt 1 0\nvt 1 1\nusemtl skin\n"
                                  + "".join(f"f {a + 1}/1 {b + 1}/2 {c + 1}/3\n" for a, b, c in mesh.faces))
    header = ["ply", "format ascii 1.0", "comment TextureFile missing-skin.png", f"element vertex {len(mesh.vertices)}",
              *(f"property float {p}" for p in "xyz"), "property float s", "property float t",
              f"element face {len(mesh.faces)}", "property list uchar int vertex_indices", "end_header"]
    (folder / "l.ply").write_text("\n".join(header + [f"{x} {y} {z} 0.5 0.5" for x, y, z in mesh.vertices]
                                            + [f"3 {a} {b} {c}" for a, b, c in mesh.faces]) + "\n")
    return [folder / "l.obj", folder / "l.ply"]


def _nonogen(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nonogen", *argv], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def test_a_missing_texture_makes_a_level_with_one_line_and_no_traceback(tmp_path):
    """trimesh logged a missing PLY texture with its traceback, printed mid-run though the level was made."""
    for model in _textured_but_missing(tmp_path / "models"):
        done = _nonogen("mesh", str(model), "--size", "4", "-o", str(tmp_path / model.suffix[1:]))
        assert done.returncode == 0, done.stderr
        assert done.stderr.splitlines()[0] == ("nonogen: warning: the model names missing-skin.png, which is not "
                                               "there: the level is made without it"), done.stderr
        assert all(line.startswith("nonogen: warning: ") for line in done.stderr.splitlines()), done.stderr
    done = _nonogen("mesh", str(tmp_path / "models"), "--size", "4", "-o", str(tmp_path / "all"))
    assert done.returncode == 0 and re.fullmatch(r"2 sources: 2 made, .*\n", done.stderr), done.stderr  # its summary
    # a collection's rows name each source's first warning
    assert done.stdout.count("missing-skin.png") == 2 and "Traceback" not in done.stdout


def test_the_library_is_quiet_only_while_loading():
    """Capturing trimesh's records must not change its logging for anything else."""
    import logging

    before = [(lg.level, lg.propagate, list(lg.handlers)) for lg in map(logging.getLogger, ("trimesh", "PIL"))]
    mesh_to_voxels(ROOT / "samples" / "meshes" / "mushroom.ply", 4)
    assert before == [(lg.level, lg.propagate, list(lg.handlers)) for lg in map(logging.getLogger, ("trimesh", "PIL"))]


def test_texture_coordinates_without_a_texture_give_plain_cubes_not_trimeshs_grey(tmp_path):
    """The issue's "grey lump": Suzanne exported by Blender with texture coordinates but no texture was painted
    with trimesh's stand-in 2x2 grey image, every cube dim grey; a model without colours gets plain cubes."""
    mesh = trimesh.creation.icosphere(subdivisions=2)
    header = ["ply", "format ascii 1.0", f"element vertex {len(mesh.vertices)}",
              *(f"property float {p}" for p in "xyzst"), f"element face {len(mesh.faces)}",
              "property list uchar int vertex_indices", "end_header"]
    (tmp_path / "uv.ply").write_text("\n".join(header + [f"{x} {y} {z} 0.5 0.5" for x, y, z in mesh.vertices]
                                               + [f"3 {a} {b} {c}" for a, b, c in mesh.faces]) + "\n")
    assert load_mesh(tmp_path / "uv.ply").visual.kind == "texture"  # trimesh's stand-in texture...
    model = mesh_to_voxels(tmp_path / "uv.ply", 8)
    assert model.palette is None and model.colors is None  # ...is not the model's colour
    painted = mesh.copy()
    painted.visual.face_colors = [200, 30, 30, 255]
    assert mesh_to_voxels(painted, 8).palette is not None  # real colours still reach the level
