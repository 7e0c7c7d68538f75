"""Mesh -> Picross 3D: voxelizer geometry, the `nonogen mesh` command, and bad input."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import trimesh

from nonogen import formats
from nonogen.clues3d import derive_clues_3d
from nonogen.cli import main
from nonogen.errors import InputError
from nonogen.importers.mesh import mesh_to_voxels, voxelize
from nonogen.render.canvas import to_png, to_svg
from nonogen.render.iso3d import solution_picture
from nonogen.solve.line3d import line_solve3d
from nonogen.solve.verify3d import verify3d

from conftest import SHARED_DATA as DATA, needs_shared  # skip, with a reason, without ../shared
MESHES = DATA / "meshes"


def run_cli(argv: list[str], capsys) -> tuple[int, str, str]:
    """Run ``nonogen ARGS`` in-process: exit code, stdout, stderr."""
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _boxes(centres, extents=(1, 1, 1)) -> trimesh.Trimesh:
    return trimesh.util.concatenate([trimesh.creation.box(extents=extents).apply_translation(c) for c in centres])


# --- voxelizer -------------------------------------------------------------------------------


@needs_shared
@pytest.mark.parametrize("name,size,method", [("bunny.ply", 10, "center"), ("teapot.stl", 12, "surface"),
                                               ("monkey.glb", 9, "center"), ("ballA.off", 7, "surface")])
def test_exactly_n_cells_on_the_longest_axis(name, size, method):
    model = mesh_to_voxels(MESHES / name, size, method=method)
    assert max(model.cells.shape) == size
    # every outer layer on the longest axis holds some cube: the grid is not one cell too long
    axis = int(np.argmax(model.cells.shape))
    assert model.cells.take(0, axis=axis).any() and model.cells.take(size - 1, axis=axis).any()


def test_box_primitive_fills_its_grid_and_axes_follow_up():
    box = trimesh.creation.box(extents=(2, 4, 8))
    z_up = voxelize(box, 8, up="z").cells
    y_up = voxelize(box, 8, up="y").cells
    assert z_up.shape == (2, 8, 4) and z_up.all()  # (x, vertical, depth)
    assert y_up.shape == (2, 4, 8) and y_up.all()


def test_top_of_the_model_is_row_zero():
    # a T: wide bar on top of a thin post (z up)
    t = trimesh.util.concatenate([trimesh.creation.box(extents=(5, 1, 1)).apply_translation((0, 0, 4.5)),
                                  trimesh.creation.box(extents=(1, 1, 4)).apply_translation((0, 0, 2))])
    cells = voxelize(t, 5, up="z", method="center").cells
    assert cells.shape == (5, 5, 1)
    assert cells[:, 0, 0].all() and cells[:, 4, 0].sum() == 1


def test_open_mesh_is_not_hollow():
    sphere = trimesh.creation.icosphere(subdivisions=3)
    closed = voxelize(sphere, 10).cells
    opened = sphere.copy()
    opened.update_faces(np.arange(len(opened.faces)) > 20)  # punch a hole
    assert not opened.is_watertight
    holey = voxelize(opened, 10).cells
    assert holey[5, 5, 5] and holey[4:6, 4:6, 4:6].all()
    assert abs(int(holey.sum()) - int(closed.sum())) <= 0.05 * closed.sum()


@needs_shared
def test_torus_hole_stays_empty():
    cells = mesh_to_voxels(MESHES / "torus.STL", 12).cells
    X, Y, Z = cells.shape
    assert not cells[X // 2, :, Z // 2].any()
    assert cells[0:2, :, Z // 2].any()


@needs_shared
def test_bunny_open_bottom_is_solid():
    cells = mesh_to_voxels(MESHES / "bunny.ply", 12).cells
    X, Y, Z = cells.shape
    # below the surface, a column of the body is full down to the floor
    column = cells[X // 2, :, Z // 2]
    top = int(np.argmax(column))
    assert column[top:].all()


def test_face_colours_reach_the_cells():
    red = trimesh.creation.box(extents=(1, 1, 3))
    red.visual.face_colors = [255, 0, 0, 255]
    blue = trimesh.creation.box(extents=(1, 1, 1)).apply_translation((0, 0, 2))
    blue.visual.face_colors = [0, 0, 255, 255]
    cells_model = voxelize(trimesh.util.concatenate([red, blue]), 4, up="z")
    assert cells_model.colors is not None
    assert tuple(cells_model.colors[0, 0, 0]) == (0, 0, 255)  # top cube is the blue one
    assert tuple(cells_model.colors[0, 3, 0]) == (255, 0, 0)


def test_renderer_draws_only_visible_faces():
    cells = np.ones((2, 2, 2), dtype=bool)
    pic = solution_picture(cells)
    assert len(pic.shapes) == 12  # 3 visible faces x 4 cubes on each of the 3 visible sides
    assert "<polygon" in to_svg(pic) and to_png(pic, scale=2).size == (pic.width * 2, pic.height * 2)


# --- the command -----------------------------------------------------------------------------


@needs_shared
def test_mesh_command_writes_a_unique_level(tmp_path, capsys):
    out = tmp_path / "bunny"
    code, stdout, err = run_cli(["mesh", str(MESHES / "bunny.ply"), "-o", str(out), "--size", "8", "--json"], capsys)
    assert code == 0, err
    report = json.loads(stdout.strip().splitlines()[-1])
    assert report == json.loads((out / "report.json").read_text())
    for name in ("level.json", "solution.svg", "solution.png", "puzzle.svg", "puzzle.png"):
        assert (out / name).stat().st_size > 0
    assert report["status"] == "unique" and max(report["size"]) == 8
    # the sheet says how hard the level is, as the 2D sheets do
    assert f">grade {report['grade']} · {report['grade_name']}<" in (out / "puzzle.svg").read_text()
    # re-verify the level from disk: hiding never breaks uniqueness
    assert report["puzzle_file"] == "level.json"  # relative to the output folder, as in `nonogen image`
    level = formats.load(out / report["puzzle_file"])
    assert report["clues_hidden"] == level.n_lines - level.n_clues > 0
    assert report["voxels"] == int(level.goal.sum())
    check = verify3d(level)
    assert check.status == "unique" and np.array_equal(check.solution, level.goal)
    shown = derive_clues_3d(level.goal)
    for axis in "xyz":
        for row_have, row_full in zip(level.clues[axis], shown[axis], strict=True):
            assert all(c is None or c == f for c, f in zip(row_have, row_full, strict=True))


@needs_shared
def test_hide_fraction_and_line_solvable(tmp_path, capsys):
    out = tmp_path / "t"
    code, stdout, _ = run_cli(["mesh", str(MESHES / "torus.STL"), "-o", str(out), "--size", "8",
                               "--hide", "0.25", "--json"], capsys)
    report = json.loads(stdout)
    assert code == 0 and report["clues_hidden"] == int(0.25 * report["clues_total"])
    code, stdout, _ = run_cli(["mesh", str(MESHES / "monkey.glb"), "-o", str(out), "--size", "8", "--force",
                               "--line-solvable", "--json", "--seed", "3"], capsys)
    report = json.loads(stdout)
    assert code == 0 and report["line_solvable"] and report["clues_hidden"] > 0
    assert line_solve3d(formats.load(out / "level.json"))[1]


def _ambiguous_model(path: Path) -> Path:
    """Four cubes on alternating corners of a 2x2x2 box: every line holds one cube, so the
    complementary four corners meet every clue too (not unique with every clue shown)."""
    _boxes([(0, 0, 0), (1, 1, 0), (1, 0, 1), (0, 1, 1)]).export(path)
    return path


@pytest.mark.parametrize("mode", ["off", "givens", "edit"])
def test_repair_modes_on_an_ambiguous_model(tmp_path, capsys, mode):
    model = _ambiguous_model(tmp_path / "corners.stl")
    out = tmp_path / mode
    code, stdout, err = run_cli(["mesh", str(model), "-o", str(out), "--size", "2", "--unique", mode, "--json"], capsys)
    report = json.loads(stdout)
    assert report["full_clues_status"] == "multiple"
    level = formats.load(out / "level.json")
    if mode == "off":
        assert code == 1 and report["status"] == "multiple" and "multiple" in err
        return
    assert code == 0 and report["status"] == "unique"
    assert verify3d(level).status == "unique"
    if mode == "givens":
        assert len(report["givens"]) >= 1 and not report["edits"]
        assert all(level.goal[x, y, z] == bool(v) for x, y, z, v in level.givens)
    else:
        assert report["edits"] and not report["givens"]


# --- bad input -------------------------------------------------------------------------------


def _bad_files(tmp: Path) -> list[Path]:
    (tmp / "garbage.stl").write_bytes(bytes(range(256)) * 12)
    (tmp / "empty.obj").write_text("")
    (tmp / "words.obj").write_text("hello world\n")
    (tmp / "flat.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n")
    (tmp / "points.ply").write_text("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
                                    "property float y\nproperty float z\nend_header\n0 0 0\n1 0 0\n0 1 0\n")
    (tmp / "noscene.gltf").write_text('{"asset": {"version": "2.0"}}')
    (tmp / "model.xyz").write_text("1 2 3\n")
    return sorted(p for p in tmp.iterdir())


def test_bad_models_fail_with_one_line(tmp_path, capsys):
    for path in _bad_files(tmp_path):
        code, out, err = run_cli(["mesh", str(path), "-o", str(tmp_path / "out")], capsys)
        assert code == 2, path
        assert err.count("\n") == 1 and err.startswith("nonogen: error:") and "Traceback" not in err
        assert not (tmp_path / "out").exists()


@needs_shared
@pytest.mark.parametrize("extra,needle", [(["--size", "1"], "--size"), (["--size", "41"], "--size"),
                                          (["--hide", "1.5"], "--hide"), (["--hide", "lots"], "--hide")])
def test_bad_options(tmp_path, capsys, extra, needle):
    code, _, err = run_cli(["mesh", str(MESHES / "torus.STL"), "-o", str(tmp_path / "o"), *extra], capsys)
    assert code == 2 and needle in err and err.count("\n") == 1


@needs_shared
def test_full_box_and_existing_output(tmp_path, capsys):
    code, _, err = run_cli(["mesh", str(MESHES / "20mm-xyz-cube.stl"), "-o", str(tmp_path / "o")], capsys)
    assert code == 2 and "whole" in err
    keep = tmp_path / "mine"
    keep.mkdir()
    (keep / "notes.txt").write_text("precious")
    code, _, err = run_cli(["mesh", str(MESHES / "torus.STL"), "-o", str(keep), "--size", "6"], capsys)
    assert code == 2 and "--force" in err and (keep / "notes.txt").read_text() == "precious"


def test_mesh_to_voxels_reports_empty_result(tmp_path):
    # a thin wire-like box far thinner than a cell: centre sampling keeps nothing
    thin = trimesh.creation.box(extents=(10, 0.01, 0.01))
    thin.export(tmp_path / "wire.stl")
    with pytest.raises(InputError, match="empty"):
        mesh_to_voxels(tmp_path / "wire.stl", 10, method="center")
    with pytest.raises(InputError, match="whole 10x1x1 box"):  # conservative keeps all of it: a full box
        mesh_to_voxels(tmp_path / "wire.stl", 10, method="surface")


def _gltf_with_external_buffers(folder: Path) -> Path:
    """A box as a .gltf whose geometry lives in external .bin files beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in trimesh.exchange.gltf.export_gltf(trimesh.Scene(trimesh.creation.box())).items():
        (folder / name).write_bytes(data)
    return folder / "model.gltf"


def test_load_mesh_counts_external_gltf_buffers_before_loading(tmp_path):
    """A 411-byte .gltf naming a huge external buffer bypassed the model size cap (3.9 GB RSS)."""
    import os
    import resource

    from nonogen.errors import FileLimitError
    from nonogen.importers.meshfile import MAX_MODEL_BYTES, load_mesh

    model = _gltf_with_external_buffers(tmp_path / "ok")
    assert len(load_mesh(model).faces) == 12  # small external buffers still load
    big = _gltf_with_external_buffers(tmp_path / "big")
    os.truncate(big.parent / "gltf_buffer_0.bin", 4 * MAX_MODEL_BYTES)  # sparse: costs no disk
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(FileLimitError, match=r"gltf_buffer_0\.bin.*32\.0 MB.*up to 8 MB"):
        load_mesh(big)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 8 * 1024  # KB: nothing big was read
    fifo = _gltf_with_external_buffers(tmp_path / "fifo")
    (fifo.parent / "gltf_buffer_1.bin").unlink()
    os.mkfifo(fifo.parent / "gltf_buffer_1.bin")  # reading it would wait forever
    with pytest.raises(InputError, match=r"gltf_buffer_1\.bin: not a regular file"):
        load_mesh(fifo)
    many = _gltf_with_external_buffers(tmp_path / "many")
    doc = json.loads(many.read_text())
    doc["buffers"] += [{"uri": "gltf_buffer_1.bin", "byteLength": 96}] * 300
    many.write_text(json.dumps(doc))
    with pytest.raises(FileLimitError, match="302 external files"):
        load_mesh(many)


def test_mesh_refuses_a_size_the_memory_cannot_prove(tmp_path, capsys, monkeypatch):
    """`mesh --size 40` (the documented maximum) aborted in C++ (std::bad_alloc, exit 134) on a 4 GB machine.

    A 40x40x40 level needs up to about 1 GB to prove (measured; PROOF_BYTES_PER_CELL): with less memory
    available, the command now says so in one line before any proof starts.
    """
    import nonogen.importers.mesh as mesh_module

    model = tmp_path / "sphere.stl"
    trimesh.creation.icosphere(subdivisions=3).export(model)
    monkeypatch.setattr(mesh_module, "available_memory", lambda: 1 << 29)  # half a GB free
    code, out, err = run_cli(["mesh", str(model), "--size", "40", "-o", str(tmp_path / "out")], capsys)
    assert code == 2 and "Traceback" not in err, err
    assert "40x40x40 level needs about 1.0 GB of memory" in err and "0.5 GB is available" in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "out").exists()
    code, _, err = run_cli(["mesh", str(model), "--size", "12", "-o", str(tmp_path / "small")], capsys)
    assert code == 0, err  # 12x12x12 needs about 0.27 GB


def test_mesh_command_names_the_playable_page_and_the_glb_it_writes(tmp_path, capsys):
    """The summary listed level.json and the pictures but not level.html (to play) or level.glb (for engines)."""
    out = tmp_path / "mushroom"
    samples = Path(__file__).resolve().parents[1] / "samples" / "meshes"
    code, stdout, err = run_cli(["mesh", str(samples / "mushroom.ply"), "-o", str(out), "--size", "6"], capsys)
    assert code == 0, err
    for name in ("level.html", "level.glb", "level.json"):
        assert name in stdout and (out / name).stat().st_size > 0
