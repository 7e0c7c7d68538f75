"""The Python API as a user meets it: ``import nonogen`` and do what the command line does."""
from __future__ import annotations

import ast
import io
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest
import trimesh
from PIL import Image

import nonogen
from nonogen.cli import main as run_cli

ROOT = Path(__file__).resolve().parents[1]
HEART = ROOT / "samples" / "images" / "heart-pixelart-x10.png"
CHAIR = ROOT / "samples" / "meshes" / "chair.off"


def test_from_image_takes_a_path_bytes_or_a_pillow_image():
    """Only paths were accepted; a PIL image or the file's bytes make the same puzzle."""
    by_path = nonogen.from_image(HEART, colors=3)
    by_bytes = nonogen.from_image(HEART.read_bytes(), colors=3)
    with Image.open(HEART) as img:
        by_image = nonogen.from_image(img, colors=3)
    for made in (by_bytes, by_image):
        assert np.array_equal(made.solution, by_path.solution)
        assert made.puzzle.rows == by_path.puzzle.rows and made.report["image"] is None
    assert by_path.report["image"] == str(HEART) and by_path.report["status"] == "unique"


def test_from_image_takes_picture_options_as_keywords():
    """``from_image(path, colors=3)`` was refused: the options sat in an ImageOptions that was not exported."""
    keywords = nonogen.from_image(HEART, colors=2, size=(12, 12))
    options = nonogen.from_image(HEART, options=nonogen.ImageOptions(colors=2, size=(12, 12)))
    assert np.array_equal(keywords.solution, options.solution) and keywords.puzzle.width == 12
    with pytest.raises(TypeError, match="colour"):
        nonogen.from_image(HEART, colour=3)
    with pytest.raises(TypeError):
        nonogen.from_image(HEART, nonogen.ImageOptions())  # knobs are keyword-only


@pytest.mark.parametrize("kwargs, option", [
    ({"colors": 0}, "colors"), ({"size": (0, 5)}, "size"), ({"threshold": 300}, "threshold"),
    ({"unique": "maybe"}, "unique"), ({"grade": 7}, "grade"), ({"fill": 0.5, "colors": 2}, "fill"),
])
def test_from_image_checks_each_option_once_and_names_it(kwargs, option):
    with pytest.raises(nonogen.OptionError) as caught:
        nonogen.from_image(HEART, **kwargs)
    assert caught.value.option == option and str(caught.value).startswith(option)


def test_save_writes_the_folder_the_command_writes(tmp_path):
    """There was no way to save what from_image made; the CLI now calls exactly nonogen.save."""
    made = nonogen.from_image(HEART, colors=3)
    folder = nonogen.save(made, tmp_path / "api")
    assert run_cli(["image", str(HEART), "--colors", "3", "-o", str(tmp_path / "cli")]) == 0
    for name in sorted(p.name for p in (tmp_path / "cli").iterdir()):
        if name != "report.json":  # timings differ
            assert (folder / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    report = json.loads((folder / "report.json").read_text())
    assert report["status"] == "unique" and report["files"]["puzzle.cnon"]["status"] == "unique"
    with pytest.raises(nonogen.OutputExistsError):
        nonogen.save(made, folder)
    assert nonogen.save(made, folder, force=True) == folder


def test_from_mesh_takes_a_path_or_a_trimesh_and_returns_a_made(tmp_path):
    made = nonogen.from_mesh(CHAIR, size=6)
    assert isinstance(made, nonogen.Made) and made.is_level and made.report["status"] == "unique"
    assert made.report["model"] == str(CHAIR) and np.array_equal(made.solution, made.puzzle.goal)
    step = trimesh.util.concatenate([trimesh.creation.box(extents=(3, 1, 1)),
                                     trimesh.creation.box(extents=(1, 1, 1)).apply_translation((-1, 0, 1))])
    level = nonogen.from_mesh(step, size=3)
    assert level.report["model"] is None and level.report["up"] == "z" and level.puzzle.size == (3, 2, 1)
    names = sorted(p.name for p in nonogen.save(level, tmp_path / "step").iterdir())
    assert names == ["level.glb", "level.html", "level.json", "puzzle.png", "puzzle.svg", "report.json",
                     "solution.png", "solution.svg"]
    with pytest.raises(nonogen.InputError, match="trimesh.Trimesh"):
        nonogen.from_mesh("not a mesh".encode(), size=5)


def test_from_mesh_checks_size_and_hide_where_they_are_owned(capsys, tmp_path):
    """The mesh size was checked three times and the hidden share twice; now once, and the CLI names the flag."""
    with pytest.raises(nonogen.OptionError, match="size 41: expected 2 to 40 cubes"):
        nonogen.from_mesh(CHAIR, size=41)
    with pytest.raises(nonogen.OptionError, match="hide 1.5"):
        nonogen.from_mesh(CHAIR, size=4, hide=1.5)
    assert run_cli(["mesh", str(CHAIR), "--size", "41", "-o", str(tmp_path / "x")]) == 2
    assert capsys.readouterr().err.strip() == "nonogen: error: --size 41: expected 2 to 40 cubes"


def test_make_level_returns_the_same_made_as_from_mesh():
    cells = np.zeros((3, 3, 2), dtype=bool)
    cells[:, 2, :] = True
    cells[0, :, 0] = True
    made = nonogen.make_level(cells, title="Step")
    assert made.report["status"] == "unique" and made.puzzle.meta["title"] == "Step"
    report = made.report
    assert report["clues_hidden"] + (report["clues_total"] - report["clues_hidden"]) == made.puzzle.n_lines


def test_dumps_beside_dump(tmp_path):
    puzzle = nonogen.load(ROOT / "samples" / "puzzles" / "heart.non")
    text = nonogen.dumps(puzzle, "webpbn")
    nonogen.dump(puzzle, tmp_path / "heart.xml")
    assert (tmp_path / "heart.xml").read_text() == text
    assert nonogen.loads(text, "webpbn").rows == puzzle.rows


def test_draw_works_on_a_puzzle(tmp_path):
    """``render.save(puzzle, ...)`` failed with "'Puzzle' object is not iterable"; nonogen.draw draws puzzles."""
    puzzle = nonogen.load(ROOT / "samples" / "puzzles" / "heart.non")
    picture = nonogen.draw(puzzle)
    assert picture.width > 0 and picture.shapes
    report = nonogen.draw(puzzle, tmp_path / "heart.png", solution=True, cell=10)
    with Image.open(tmp_path / "heart.png") as img:
        assert img.size == (round(report["width"]), round(report["height"]))
    page = nonogen.draw(puzzle, tmp_path / "heart.pdf")
    assert page["paper"] == "A4" and (tmp_path / "heart.pdf").read_bytes().startswith(b"%PDF")
    assert nonogen.draw(puzzle, tmp_path / "heart.html")["page"] == "playable"
    with pytest.raises(nonogen.OptionError, match="cell"):
        nonogen.draw(puzzle, tmp_path / "x.pdf", cell=10)
    nonogen.draw(puzzle, tmp_path / "sheet.svg")
    assert (tmp_path / "sheet.svg").read_text().startswith("<svg") and "Heart" in (tmp_path / "sheet.svg").read_text()
    with pytest.raises(TypeError, match="nonogen.draw"):
        nonogen.output.save_picture(puzzle, tmp_path / "sheet2.svg")


def _imported_modules(path: Path) -> set[str]:
    """Every module a source file imports, at the top or inside a function, resolved to ``nonogen.*``."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_make_imports_no_renderer_exporter_or_file_writer():
    """make/ wrote output folders itself, pulling render/, export/ and files below it; it returns the made thing."""
    for path in sorted((ROOT / "nonogen" / "make").glob("*.py")):
        banned = {m for m in _imported_modules(path)
                  if m.startswith(("nonogen.render", "nonogen.export", "nonogen.files", "nonogen.cli"))}
        assert not banned, f"{path.name} imports {sorted(banned)}"


def test_cli_passes_no_positional_knobs_to_the_pipelines():
    """A title/source swap came from calling from_mesh with 12 positional arguments; only the source is positional."""
    for name in ("image.py", "mesh.py"):
        tree = ast.parse((ROOT / "nonogen" / "cli" / name).read_text())
        calls = [n for n in ast.walk(tree)
                 if isinstance(n, ast.Call) and getattr(n.func, "id", "") in ("from_image", "from_mesh")]
        assert calls and all(len(call.args) == 1 for call in calls), name


def test_image_bytes_that_are_no_picture_are_an_input_error():
    with pytest.raises(nonogen.InputError, match="<bytes>: not a readable picture"):
        nonogen.from_image(b"GIF89a broken")
    buffer = io.BytesIO()
    Image.new("RGB", (1, 1)).save(buffer, format="PNG")
    with pytest.raises(nonogen.InputError, match="too small"):
        nonogen.from_image(buffer.getvalue())


def test_pack_dump_goes_through_the_safe_writer(tmp_path):
    """pack.dump wrote with Path.write_text: no atomic replace, and it overwrote what the user had."""
    from nonogen import pack

    level = pack.load(ROOT / "samples" / "packing" / "random-11x5.pack")
    target = tmp_path / "level.pack"
    target.write_text("mine")
    with pytest.raises(nonogen.OutputExistsError):
        pack.dump(level, target)
    assert target.read_text() == "mine"
    pack.dump(level, target, force=True)
    assert pack.load(target).width == level.width


def test_book_puts_puzzles_in_a_pdf_and_says_what_it_left_out(tmp_path):
    """``nonogen book`` had no Python equivalent; nonogen.book takes puzzles and reports what went where."""
    heart = nonogen.load(ROOT / "samples" / "puzzles" / "heart.non")
    broken = nonogen.Puzzle(rows=[[(2, 1)], []], cols=[[(1, 1)], []])  # a row of 2 in a 2x2 with one column clue
    report = nonogen.book([("heart", heart), ("broken", broken)], tmp_path / "b.pdf", paper="a5")
    assert [p["source"] for p in report["puzzles"]] == ["heart"] and report["paper"] == "A5"
    assert report["skipped"] == [{"source": "broken", "kind": "unsolvable",
                                  "reason": "the puzzle has no solution, so it cannot go in a book"}]
    assert (tmp_path / "b.pdf").read_bytes().startswith(b"%PDF")
    with pytest.raises(nonogen.OutputExistsError):
        nonogen.book([heart], tmp_path / "b.pdf")


def test_public_names_are_one_table_seen_alike_by_type_checkers_and_documented():
    """``__all__``, the lazy table and the type checkers' imports were three hand-kept lists (``save`` came from
    ``output`` for type checkers and ``output.folders`` at run time); now ``__all__`` is the table's keys, and the
    checkers' imports and docs/reference/api.md are held to it here."""
    assert nonogen.__all__ == list(nonogen._LAZY) and len(set(nonogen.__all__)) == len(nonogen.__all__)
    tree = ast.parse((ROOT / "nonogen" / "__init__.py").read_text())
    checked = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    seen = {alias.name: node.module for node in checked.body if isinstance(node, ast.ImportFrom) and node.level
            for alias in node.names if alias.asname == alias.name}  # "x as x": re-exported, for py.typed users
    assert seen == nonogen._LAZY
    from nonogen import errors

    docs = (ROOT / "docs" / "reference" / "api.md").read_text()
    documented = set(re.findall(r"\bnonogen\.(\w+)", docs))
    if ".. automodule:: nonogen.errors" in docs:
        documented |= set(errors.__all__)
    missing = sorted(set(nonogen.__all__) - documented)
    assert not missing, f"document {missing} in docs/reference/api.md"


def test_nothing_imports_a_private_name_of_a_dependency():
    """formats/_json.py imported jsonschema's private ``_keywords`` (renamed once already): a dependency's public
    API only. CPython's own C modules (``_sha256``, ``_json``, ``_signal``...) belong to the standard library."""
    found = []
    for path in sorted((ROOT / "nonogen").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [*node.module.split("."), *(alias.name for alias in node.names)]
            elif isinstance(node, ast.Import):
                names = [part for alias in node.names for part in alias.name.split(".")]
            else:
                continue
            if names[0] not in sys.stdlib_module_names and names[0] != "nonogen":
                found += [f"{path.relative_to(ROOT)}: {name}" for name in names if name.startswith("_")]
    assert not found
