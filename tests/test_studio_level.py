"""The 3D editor's jobs through the real server, no browser: the proof after an edit, with exact answers checked
against the library itself; saving in every 3D format, read back with nonogen and verified; a model's up axis and
turn as the command line makes them; what the level routes refuse.

The page's side is tests/test_studio_level_page.py; one server serves this module.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

import nonogen
from nonogen import formats
from nonogen.clues3d import puzzle3d_from_cells, with_clues
from nonogen.make.hide3d import hide_clues
from nonogen.studio.levelwork import cells_text
from studio_server import WAIT, Studio

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
PALETTE = [{"rgb": "#ffffff", "name": "none"}, {"rgb": "#e8913a"}, {"rgb": "#1d70b8"}]
TETRA = [(0, 2, 0), (1, 3, 0), (1, 2, 1), (0, 3, 1)]
"""Four cubes of a 2x2x2 corner, no two in a line: every line through it holds one cube, as it does for the other
four. With every clue shown the box has two solutions; the eight cubes of the corner go either way."""


@pytest.fixture(scope="module")
def studio(tmp_path_factory) -> Iterator[Studio]:
    folder = tmp_path_factory.mktemp("levels")
    (folder / "chair.off").write_bytes((SAMPLES / "meshes" / "chair.off").read_bytes())
    server = Studio(folder)
    try:
        yield server
    finally:
        code, errors = server.stop()
        assert "Traceback" not in errors, errors


def lines(studio: Studio, path: str, body: Any) -> list[dict]:
    """Every JSON line of a streamed answer."""
    request = urllib.request.Request(studio.url + path.lstrip("/"), data=json.dumps(body).encode(), method="POST",
                                     headers={"X-Nonogen-Token": studio.token, "X-Nonogen-Tab": "api"})
    with urllib.request.urlopen(request, timeout=WAIT) as answer:
        return [json.loads(line) for line in answer.read().decode().splitlines()]


def doc(cells: np.ndarray, hidden: Any = None, givens: Any = ()) -> dict:
    return {"size": list(cells.shape), "cells": cells_text(cells), "palette": PALETTE, "hidden": hidden,
            "givens": [list(g) for g in givens], "title": "Test level"}


def check(studio: Studio, level: dict, **options: Any) -> list[dict]:
    return lines(studio, "/api/level/check", {"doc": level, "options": options, "session": "one"})


def shown_level(cells: np.ndarray, hidden: list, givens: Any = ()) -> Any:
    """The level as the page holds it, built by the library: every clue of the cells but the hidden ones."""
    full = puzzle3d_from_cells(cells > 0).replace(givens=[(*g, int(cells[tuple(g)] > 0)) for g in givens])
    gone = {tuple(line) for line in hidden}
    return with_clues(full, lambda ln: ln not in gone)


def test_a_blank_box_hides_what_the_making_pipeline_hides(studio):
    """A new level's clues are hidden as `nonogen mesh` hides them (the same function, seed 0): the same lines."""
    cells = np.zeros((4, 4, 4), dtype=np.uint8)
    (answer,) = check(studio, doc(cells))
    expected = hide_clues(puzzle3d_from_cells(cells > 0), seed=0)
    assert answer["verdict"] == "unique" and answer["how"] == "clues hidden anew"
    assert answer["hidden"] == [list(line) for line in expected.sequence]
    assert (answer["clues_total"], answer["clues_hidden"]) == (48, expected.hidden)
    assert answer["grade"] == nonogen.verify(expected.puzzle).grade


def test_a_one_cube_edit_keeps_the_hidden_clues_while_they_hold(studio):
    """A cube added where the kept choice still proves the level: one verification, the same hidden clues."""
    cells = np.zeros((4, 4, 4), dtype=np.uint8)
    cells[1, 3, 1] = 1
    (first,) = check(studio, doc(cells))
    cells[1, 2, 1] = 2  # stacked on it, another colour
    (answer,) = check(studio, doc(cells, first["hidden"]))
    assert answer["how"] == "hidden clues kept" and answer["hidden"] == first["hidden"]
    assert nonogen.verify(shown_level(cells, answer["hidden"])).status == "unique"


def test_an_edit_that_breaks_the_choice_shows_clues_again(studio):
    """The kept choice no longer proves the level: hidden clues are shown again, no more than needed each on a line
    where the rival differs; the level the page then holds is unique, and every clue it shows again was hidden."""
    cells = np.zeros((4, 4, 4), dtype=np.uint8)
    (first,) = check(studio, doc(cells))
    cells[2, 3, 2] = 1
    (answer,) = check(studio, doc(cells, first["hidden"]))
    again = len(first["hidden"]) - len(answer["hidden"])
    assert answer["verdict"] == "unique" and again > 0
    assert answer["how"] == f"{again} hidden clue{'s' if again > 1 else ''} shown again"
    assert {tuple(h) for h in answer["hidden"]} < {tuple(h) for h in first["hidden"]}
    assert nonogen.verify(shown_level(cells, answer["hidden"])).status == "unique"


def test_an_ambiguous_shape_shows_its_cubes_and_the_edit_that_settles_it(studio):
    """Every clue shown and two solutions: the eight cubes of the corner are ambiguous (all of them asked); the
    suggested one-cube edit, applied, makes the level unique; so do the suggested revealed cubes."""
    cells = np.zeros((4, 4, 4), dtype=np.uint8)
    for cube in TETRA:
        cells[cube] = 1
    verdict, ambiguous, suggested = check(studio, doc(cells, []))
    assert verdict["verdict"] == "multiple" and verdict["grade"] is None and verdict["grade_name"] == "not unique"
    corner = sorted([x, y, z] for x in (0, 1) for y in (2, 3) for z in (0, 1))
    assert ambiguous == {"ambiguous": corner, "complete": True}
    fix = suggested["suggestion"]
    assert fix["status"] == "unique" and len(fix["edits"]) == 1 and fix["edits"][0][:3] in corner
    x, y, z, value = fix["edits"][0]
    edited = cells.copy()
    edited[x, y, z] = value
    assert nonogen.verify(puzzle3d_from_cells(edited > 0)).status == "unique"
    (after,) = check(studio, doc(edited, verdict["hidden"]))
    assert after["verdict"] == "unique"
    revealed = shown_level(cells, [], fix["givens"])
    assert fix["givens"] and nonogen.verify(revealed).status == "unique"


def test_line_solvable_hides_only_what_line_logic_can_spare(studio):
    cells = np.zeros((5, 5, 5), dtype=np.uint8)
    cells[1:4, 2:5, 1:4] = 1
    cells[2, 2, 2] = 0
    (answer,) = check(studio, doc(cells), line_solvable=True)
    expected = hide_clues(puzzle3d_from_cells(cells > 0), seed=0, line_solvable=True)
    assert answer["line_solvable"] and answer["hidden"] == [list(line) for line in expected.sequence]


def test_after_a_line_solved_answer_line_logic_alone_mends_the_choice(studio):
    """Building a solver was nine tenths of an edit that broke the kept hidden clues. After an answer line logic
    solved, the next edit's broken choice is mended by line logic alone: the clues shown again are where it stuck,
    and the level stays line-solvable (graded by the same passes)."""
    cells = np.zeros((5, 5, 5), dtype=np.uint8)
    cells[1:4, 2:5, 1:4] = 1
    (first,) = check(studio, doc(cells), line_solvable=True)
    assert first["line_solvable"]
    for cube in ((2, 2, 2), (1, 4, 1), (3, 2, 3)):
        cells[cube] = 0
        (answer,) = check(studio, doc(cells, first["hidden"]))
        assert answer["verdict"] == "unique" and answer["line_solvable"] and answer["difficulty"] == "line", answer
        assert {tuple(h) for h in answer["hidden"]} <= {tuple(h) for h in first["hidden"]}
        again = len(first["hidden"]) - len(answer["hidden"])
        assert answer["how"] == (f"{again} hidden clue{'s' if again > 1 else ''} shown again" if again
                                 else "hidden clues kept")
        assert nonogen.verify(shown_level(cells, answer["hidden"])).difficulty == "line"
        first = answer


def test_every_3d_format_is_saved_proved_and_reads_back_unique(studio):
    """Each kind the editor saves, read back with nonogen: the same level, unique (the play page's own data too)."""
    cells = np.zeros((4, 4, 4), dtype=np.uint8)
    cells[0:2, 2:4, 0:3] = 1
    cells[1, 1, 1] = 2
    (answer,) = check(studio, doc(cells))
    assert "hidden" in answer, answer
    level = doc(cells, answer["hidden"])
    for kind, name in (("nonogen-3d", "l.json"), ("picross3d-nathsou", "n.json"), ("picross3d-ytakata", "y.txt"),
                       ("html", "l.html"), ("folder", "l-level")):
        status, saved = studio.api("/api/level/save", {"doc": level, "format": kind, "name": name})
        assert status == 200 and saved["saved"] == name and saved["status"] == "unique", (kind, saved)
    expected = shown_level(cells, answer["hidden"])
    for name in ("l.json", "n.json", "y.txt", "l-level/level.json"):
        read = formats.load(studio.folder / name)
        assert read.clues == expected.clues and nonogen.verify(read).status == "unique", name
    page = (studio.folder / "l.html").read_text()
    data = json.loads(page.split('id="puzzle">', 1)[1].split("</script>", 1)[0])
    clues = {axis: tuple(tuple(None if c is None else tuple(c) for c in row) for row in data["clues"][axis])
             for axis in "xyz"}
    assert clues == expected.clues
    report = json.loads((studio.folder / "l-level" / "report.json").read_text())
    assert report["status"] == "unique" and report["clues_hidden"] == len(answer["hidden"])
    status, again = studio.api("/api/level/save", {"doc": level, "format": "nonogen-3d", "name": "l.json"})
    assert status == 409


def test_a_format_without_revealed_cubes_asks_and_offers_clues_to_show(studio):
    """A level unique only by its revealed cube, saved where revealed cubes are lost: nothing is written; the fix
    shows hidden clues again, and the level with them is unique without any revealed cube."""
    cells = np.zeros((3, 3, 3), dtype=np.uint8)
    cells[0, 2, 0] = cells[2, 2, 2] = cells[1, 1, 1] = 1
    full = puzzle3d_from_cells(cells > 0).replace(givens=[(0, 2, 0, 1)])
    hidden = [list(line) for line in hide_clues(full, seed=0).sequence]
    assert nonogen.verify(shown_level(cells, hidden)).status == "multiple"  # the cube revealed is needed
    level = doc(cells, hidden, givens=[(0, 2, 0)])
    status, answer = studio.api("/api/level/save", {"doc": level, "format": "picross3d-nathsou", "name": "g.json"})
    assert status == 200 and answer["confirm"]["status"] == "multiple" and not (studio.folder / "g.json").exists()
    fix = answer["confirm"]["fix"]
    assert fix["shown"] and not fix["givens"] and not fix["edits"]
    gone = {tuple(line) for line in fix["shown"]}
    kept = [line for line in hidden if tuple(line) not in gone]
    assert nonogen.verify(shown_level(cells, kept)).status == "unique"
    status, answer = studio.api("/api/level/save", {"doc": {**level, "hidden": kept}, "format": "picross3d-nathsou",
                                                    "name": "g.json"})
    assert status == 200 and answer["status"] == "unique"
    assert nonogen.verify(formats.load(studio.folder / "g.json")).status == "unique"


def test_a_saved_level_opens_in_the_editor(studio):
    cells = np.zeros((3, 4, 2), dtype=np.uint8)
    cells[0, 1:4, 0] = 2
    cells[2, 3, 1] = 1
    (answer,) = check(studio, doc(cells))
    saved = doc(cells, answer["hidden"])
    assert studio.api("/api/level/save", {"doc": saved, "format": "nonogen-3d", "name": "open.json"})[0] == 200
    status, opened = studio.api("/api/open", {"name": "open.json"})
    assert status == 200
    level = opened["level"]
    assert level["size"] == [3, 4, 2] and level["cells"] == saved["cells"] and level["title"] == "Test level"
    assert sorted(level["hidden"]) == sorted(answer["hidden"])


def test_the_up_axis_and_turn_make_the_level_the_command_line_makes(studio, tmp_path):
    """`nonogen mesh --up y --turn 90` and the studio's Up y, Turn 90: the same cubes; the report says they were given
    and why; auto says what it chose."""
    out = tmp_path / "cli"
    subprocess.run([sys.executable, "-m", "nonogen", "mesh", str(studio.folder / "chair.off"), "--size", "6",
                    "--up", "y", "--turn", "90", "-o", str(out)], check=True, capture_output=True)
    made = formats.load(out / "level.json")
    options = {"size": 6, "up": "y", "turn": "90"}
    status, answer = studio.api("/api/open", {"name": "chair.off", "options": options})
    assert status == 200, answer
    level = answer["level"]
    assert tuple(level["size"]) == made.size and level["cells"] == _cells_of(made)
    chosen = answer["report"]["orientation"]
    assert (chosen["up"], chosen["turn"], chosen["chosen"]) == ("y", 90, {"up": "given", "turn": "given"})
    status, auto = studio.api("/api/open", {"name": "chair.off", "options": {"size": 6}})
    assert auto["report"]["orientation"]["chosen"] == {"up": "auto", "turn": "auto"}
    assert auto["report"]["orientation"]["why"].startswith("up z: OFF files are usually z-up")
    assert auto["level"]["size"] != level["size"] or auto["level"]["cells"] != level["cells"]
    status, small = studio.api("/api/open", {"name": "chair.off", "options": {"size": 4}})
    assert small["report"]["warnings"] and small["report"]["warnings"][0].startswith("a slab")


def _cells_of(level: Any) -> str:
    """The page's cells text of a made level: each cube's palette entry."""
    goal = np.asarray(level.goal, dtype=bool)
    return cells_text(np.where(goal, np.maximum(level.colors, 1), 0) if level.colors is not None else goal)


def test_the_level_routes_refuse_bad_input_with_one_line(studio):
    cells = np.zeros((2, 2, 2), dtype=np.uint8)
    good = doc(cells)
    for level, message in (
        ({**good, "size": [41, 1, 1], "cells": "0" * 41}, "size: expected [X, Y, Z], 1 to 40 cubes a side"),
        ({**good, "cells": "0" * 7}, "cells: expected 8 characters, one a cube"),
        ({**good, "cells": "0000000z"}, "cells: expected the characters 012 (0, or a palette entry)"),
        ({**good, "hidden": [["w", 0, 0]]}, "hidden: ['w', 0, 0] is no [axis, i, j] line of the box"),
        ({**good, "hidden": [["x", 2, 0]]}, "hidden: ['x', 2, 0] is no [axis, i, j] line of the box"),
        ({**good, "givens": [[0, 0, 2]]}, "givens: [0, 0, 2] is no [x, y, z] cube of the box"),
        ("nothing", "expected a level: {size, cells, palette}"),
    ):
        status, answer = studio.api("/api/level/check", {"doc": level})
        assert (status, answer) == (400, {"error": message})
    status, answer = studio.api("/api/level/check", {"doc": good, "options": {"hide": 3}})
    assert status == 200 and answer == {"error": "hide 3.0: expected a share between 0 and 1"}
    status, answer = studio.api("/api/level/save", {"doc": good, "format": "nonogen-3d", "name": "x.txt"})
    assert (status, answer) == (400, {"error": "x.txt: a nonogen-3d file is named *.json"})
    status, answer = studio.api("/api/level/save", {"doc": good, "format": "non", "name": "x.non"})
    assert status == 400 and answer["error"].startswith("format: expected one of nonogen-3d")
    status, answer = studio.api("/api/mesh?options=" + urllib.request.quote('{"up": "w"}'),
                                (SAMPLES / "meshes" / "chair.off").read_bytes(), {"X-File-Name": "chair.off"}, raw=True)
    assert (status, answer) == (400, {"error": "up w: expected x, y, z or auto"})
    status, answer = studio.api("/api/remesh", {"options": {"turn": 45}}, tab="no-model-here")
    assert (status, answer) == (400, {"error": "no model loaded yet"})


def test_the_pages_scripts_never_define_a_name_twice():
    """levelsave.js's ``fixAndSave`` replaced save.js's (the page's scripts share one global scope, and the last
    definition wins): the 2D editor's "apply the fix, then save" ran the 3D editor's. Every top-level function,
    class, const and let of the scripts the page loads is defined once."""
    static = Path(nonogen.__file__).parent / "studio" / "static"
    page = (static / "index.html").read_text()
    names: dict[str, str] = {}
    for script in re.findall(r'<script src="/static/([\w.]+\.js)"></script>', page):
        for name in re.findall(r"^(?:async\s+)?(?:function\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*)",
                               (static / script).read_text(), flags=re.MULTILINE):
            assert name not in names, f"{name} is defined in {names[name]} and {script}"
            names[name] = script
    assert {"fixAndSave", "fixLevelAndSave", "saveLevel", "checkLevel"} <= set(names)
