"""The level pack: a collection's levels as manifest.json (by grade) and levels/<name>/ files, checked by schemas."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

import nonogen
from made_collection import make_collection
from nonogen import formats
from nonogen.errors import InputError, OutputExistsError
from nonogen.formats._json import schema

REPO = Path(__file__).resolve().parents[1]
MESHES = ("mug.glb", "mushroom.ply", "snowman.obj", "chair.off", "dog.stl")


@pytest.fixture(scope="module")
def collection(tmp_path_factory) -> Path:
    return make_collection(tmp_path_factory.mktemp("levels") / "out", pictures=("icon-heart.png",), meshes=MESHES)


def nonogen_cli(*argv) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nonogen", *map(str, argv)], cwd=REPO, capture_output=True, text=True,
                          timeout=300)


def test_pack_orders_levels_by_grade_and_copies_their_files(collection, tmp_path):
    done = nonogen_cli("levelpack", collection, "-o", tmp_path / "pack", "--json")
    assert done.returncode == 0, done.stderr
    written = json.loads(done.stdout)
    manifest = json.loads((tmp_path / "pack" / "manifest.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema("levelpack.schema.json")).validate(manifest)
    grades = {Path(m).stem: json.loads((collection / Path(m).stem / "report.json").read_text())["grade"]
              for m in MESHES}
    expected = sorted(grades, key=lambda n: (grades[n], n))
    assert [level["name"] for level in manifest["levels"]] == expected == written["levels"]
    assert [level["grade"] for level in manifest["levels"]] == sorted(grades.values())
    assert len(set(grades.values())) > 1, "the collection should mix grades for the order to mean something"
    for level in manifest["levels"]:
        here = collection / level["name"]
        files = {key: tmp_path / "pack" / path for key, path in level["files"].items()}
        assert files["level"].read_bytes() == (here / "level.json").read_bytes()
        assert files["model"].read_bytes()[:4] == b"glTF" and files["preview"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        puzzle = formats.load(files["level"], "nonogen-3d")  # the level schema checks it as it reads
        assert list(puzzle.size) == level["size"]
    assert sorted(p.name for p in (tmp_path / "pack").iterdir()) == ["index.html", "levels", "manifest.json"]
    for level in manifest["levels"]:  # nothing left over
        assert sorted(p.name for p in (tmp_path / "pack" / "levels" / level["name"]).iterdir()) == [
            "level.glb", "level.html", "level.json", "preview.png"]
    assert [p.name for p in tmp_path.iterdir()] == ["pack"]


def test_pack_plays_as_shipped_from_its_own_index(collection, tmp_path):
    """A pack was files for a game only; its index.html (the site's index) leads to each level's play page."""
    made = nonogen.level_pack(collection, tmp_path / "pack", title="Cubes <3")
    pack = tmp_path / "pack"
    index = (pack / "index.html").read_text(encoding="utf-8")
    pages = [f"levels/{name}/level.html" for name in made["levels"]]
    assert made["index"] == str(pack / "index.html") and "<title>Cubes &lt;3</title>" in index
    assert re.findall(r'<li class="tile"[^>]*><a href="([^"]+)"', index) == pages  # easiest first
    assert "<img" not in index and "preview.png" not in index  # nothing shows a level's answer
    assert '"install":false' in index and 'rel="manifest"' not in index  # a pack is no installable site
    for k, page in enumerate(pages):
        text = (pack / page).read_text(encoding="utf-8")
        assert f"<title>Level {k + 1}</title>" in text and 'href="../../index.html"' in text
        if k + 1 < len(pages):
            assert f'href="../{made["levels"][k + 1]}/level.html"' in text
    assert str(collection.parent) not in index


def test_grade_filter_and_selection_file(collection, tmp_path):
    made = nonogen.level_pack(collection, tmp_path / "all")
    low = min(made["grades"])
    only = nonogen.level_pack(collection, tmp_path / "low", grades=(low, low))
    assert only["levels"] == [n for n, g in zip(made["levels"], made["grades"], strict=True) if g == low]
    assert only["left_out"] and set(only["left_out"]) | set(only["levels"]) == set(made["levels"])
    selection = tmp_path / "selection.json"
    selection.write_text(json.dumps({"collection": str(collection), "names": ["snowman", "icon-heart", "chair"]}))
    picked = nonogen.level_pack(selection, tmp_path / "picked")
    assert sorted(picked["levels"]) == ["chair", "snowman"]  # the picture is no level
    with pytest.raises(InputError, match="no level of grade 5"):
        nonogen.level_pack(collection, tmp_path / "none", grades=(5, 5))


def test_pack_is_never_written_over_unasked_and_refuses_a_collection_without_levels(collection, tmp_path):
    nonogen.level_pack(collection, tmp_path / "pack")
    with pytest.raises(OutputExistsError):
        nonogen.level_pack(collection, tmp_path / "pack")
    nonogen.level_pack(collection, tmp_path / "pack", force=True, title="Second")
    assert json.loads((tmp_path / "pack" / "manifest.json").read_text())["title"] == "Second"
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    refused = nonogen_cli("levelpack", collection, "-o", mine, "--force")
    assert refused.returncode == 2 and "not a level pack" in refused.stderr and (mine / "notes.txt").exists()
    pictures = tmp_path / "pictures"
    shutil.copytree(collection / "icon-heart", pictures / "icon-heart")  # a link leading out would be refused
    none = nonogen_cli("levelpack", pictures, "-o", tmp_path / "p2")
    assert none.returncode == 2 and len(none.stderr.strip().splitlines()) == 1
    assert "no Picross 3D levels" in none.stderr and not (tmp_path / "p2").exists()
    bad = nonogen_cli("levelpack", collection, "-o", tmp_path / "p3", "--grade", "4-2")
    assert bad.returncode == 2 and "lowest first" in bad.stderr


def test_a_broken_level_file_names_itself_and_leaves_no_pack(collection, tmp_path):
    broken = tmp_path / "broken"
    (broken / "mug").mkdir(parents=True)
    for name in ("level.glb", "solution.png", "report.json"):
        (broken / "mug" / name).write_bytes((collection / "mug" / name).read_bytes())
    (broken / "mug" / "level.json").write_text('{"format": "nonogen-3d", "size": [2, 2]}')
    done = nonogen_cli("levelpack", broken, "-o", tmp_path / "pack")
    assert done.returncode == 2 and "level.json" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken"]
