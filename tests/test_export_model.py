"""Game-ready models of solved Picross 3D levels: frames, bounding boxes and colours, read back by trimesh."""
from __future__ import annotations

import io

import numpy as np
import pytest
import trimesh

from nonogen.clues3d import puzzle3d_from_cells
from nonogen.export.model3d import level_mesh, model_bytes
from nonogen.palette import Color

PALETTE = (Color("none", "#ffffff", "."), Color("red", "#dd2222", "r"), Color("green", "#22aa22", "g"))


def _level(cells: np.ndarray, colors=None):
    puzzle = puzzle3d_from_cells(cells)
    return puzzle if colors is None else puzzle.replace(palette=PALETTE, colors=colors)


def _corner_cube(size=(3, 4, 5)) -> np.ndarray:
    cells = np.zeros(size, dtype=bool)
    cells[0, 0, 0] = True  # nonogen: left, top layer, front
    return cells


@pytest.mark.parametrize("axes,low,high", [
    ("y-up", [0, 3, 4], [1, 4, 5]),  # left, at the top, nearest the viewer (+z)
    ("z-up", [0, 0, 3], [1, 1, 4]),  # left, at the front (y = 0), at the top
])
def test_one_voxel_at_a_known_corner(axes, low, high):
    mesh = level_mesh(_level(_corner_cube()), axes)
    assert mesh.bounds.tolist() == [low, high]


def test_frames_are_rotations_not_mirrors():
    cells = np.zeros((3, 3, 3), dtype=bool)
    cells[:, 2, :] = True  # the bottom layer
    cells[0, 1, 0] = True  # one cube on it, left front
    for axes in ("y-up", "z-up"):
        mesh = level_mesh(_level(cells), axes)
        assert mesh.is_watertight and mesh.volume == pytest.approx(10.0)  # outward normals: positive volume


def test_merged_cubes_have_no_inner_faces():
    mesh = level_mesh(_level(np.ones((2, 2, 2), dtype=bool)))
    assert len(mesh.faces) == 6 * 4 * 2  # 24 outer squares, two triangles each
    assert mesh.bounds.tolist() == [[0, 0, 0], [2, 2, 2]]


@pytest.mark.parametrize("suffix", [".glb", ".obj", ".ply"])
def test_model_files_load_back_with_their_box_and_colours(suffix):
    cells = np.zeros((2, 3, 4), dtype=bool)
    cells[0, 0, :] = True
    cells[1, 2, 1:3] = True
    colors = np.where(cells, 1, 0).astype(np.uint8)
    colors[1, 2, 1:3] = 2
    data = model_bytes(_level(cells, colors), suffix)
    loaded = trimesh.load(io.BytesIO(data), file_type=suffix[1:], force="mesh")
    assert np.allclose(loaded.bounds, [[0, 0, 0], [2, 3, 4]])
    visual = loaded.visual.to_color() if hasattr(loaded.visual, "to_color") else loaded.visual
    rgb = {tuple(int(v) for v in c[:3]) for c in np.asarray(visual.vertex_colors)}
    assert {(0xdd, 0x22, 0x22), (0x22, 0xaa, 0x22)} <= rgb


def test_unknown_suffix_and_missing_goal_are_refused():
    with pytest.raises(ValueError, match="model files"):
        model_bytes(_level(_corner_cube()), ".fbx")
    with pytest.raises(ValueError, match="no solution"):
        model_bytes(_level(_corner_cube()).replace(goal=None), ".glb")


def test_level_json_keeps_the_palette_and_a_colour_per_cube(tmp_path):
    from nonogen import formats

    cells = _corner_cube((2, 2, 2))
    level = _level(cells, cells.astype(np.uint8) * 2)
    formats.dump(level, tmp_path / "level.json")
    back = formats.load(tmp_path / "level.json")
    assert back == level and back.rgb()[0, 0, 0].tolist() == [0x22, 0xAA, 0x22]


def test_a_level_with_every_clue_hidden_is_multiple_not_a_crash():
    """Regression: cnf3d.decode crashed when no clause mentioned the cells (fuzzing found it)."""
    from nonogen.formats import loads
    from nonogen.solve import verify

    text = ('{"format": "nonogen-3d", "version": 1, "size": [1,1,1], '
            '"clues": {"x": [[null]], "y": [[null]], "z": [[null]]}}')
    assert verify(loads(text, "nonogen-3d")).status == "multiple"


def test_convert_writes_the_solved_model_in_the_asked_frame(tmp_path, capsys):
    from nonogen import formats
    from nonogen.cli import main

    cells = _corner_cube((2, 3, 4))
    formats.dump(_level(cells), tmp_path / "level.json")
    for axes, box in (("y-up", [[0, 2, 3], [1, 3, 4]]), ("z-up", [[0, 0, 2], [1, 1, 3]])):
        out = tmp_path / f"{axes}.glb"
        assert main(["convert", str(tmp_path / "level.json"), str(out), "--axes", axes]) == 0
        assert trimesh.load(out, force="mesh").bounds.tolist() == box
    assert main(["convert", "samples/puzzles/lambda.txt", str(tmp_path / "x.obj")]) == 2
    assert "not one" in capsys.readouterr().err
