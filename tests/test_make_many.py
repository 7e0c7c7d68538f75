"""Making a collection: sources from files, folders and globs, names, failures, dedupe, refusal, records, grade mix."""
from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from nonogen import make_many
from nonogen.cli import main
from nonogen.errors import CollectionExistsError, OptionError, OutputExistsError
from nonogen.make.many import mixed_grades, plan_names
from nonogen.output.many import collection_records

REPO = Path(__file__).resolve().parents[1]
MESHES = REPO / "samples" / "meshes"
FIELDS = {"source", "name", "kind", "status", "width", "height", "colors", "grade", "grade_name", "grade_wanted",
          "line_solvable", "recognisability", "speck_share", "fill_share", "warnings", "seconds", "clue_hash",
          "duplicate_of", "error", "error_kind"}


def tiny_png(path: Path, seed: int, side: int = 10) -> Path:
    """A random black-and-white pixel-art picture (each cell 4 pixels wide): a side x side puzzle in a few ms."""
    grid = np.random.default_rng(seed).random((side, side)) < 0.5
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.where(grid, 0, 255).astype(np.uint8)).resize((4 * side, 4 * side), Image.NEAREST).save(path)
    return path


def pictures(folder: Path, count: int, first_seed: int = 0) -> Path:
    for i in range(count):
        tiny_png(folder / f"p{i:02d}.png", first_seed + i)
    return folder


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def no_seconds(recs) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in recs]


def test_files_folders_and_globs_make_one_folder_and_record_each(tmp_path):
    pictures(tmp_path / "in" / "deep", 2)
    tiny_png(tmp_path / "in" / "top.png", 7)
    (tmp_path / "in" / "notes.txt").write_text("not a picture\n")
    pictures(tmp_path / "globbed", 2, first_seed=10)
    (tmp_path / "globbed" / "skip.jpg.txt").write_text("no\n")
    single = tiny_png(tmp_path / "Single File.PNG", 20)
    out = tmp_path / "out"
    seen = []
    recs = list(make_many([single, tmp_path / "in", str(tmp_path / "globbed" / "*.png")], out,
                          on_progress=lambda done, total: seen.append((done, total))))
    names = ["p00", "p01", "top", "p00-2", "p01-2", "single-file"]
    assert sorted(r["name"] for r in recs) == sorted(names)
    assert all(r["status"] == "made" and set(r) == FIELDS and r["kind"] == "image" for r in recs)
    assert all(r["width"] == r["height"] == 10 and r["error"] is None and len(r["clue_hash"]) == 64 for r in recs)
    assert seen[0] == (0, 6) and seen[-1] == (6, 6)
    for name in names:
        files = {p.name for p in (out / name).iterdir()}
        assert {"report.json", "puzzle.non", "solution.png", "puzzle.html"} <= files
    lines = (out / "collection.jsonl").read_text().splitlines()
    assert [json.loads(x)["source"] for x in lines] == sorted(r["source"] for r in recs)  # sorted once complete
    assert sorted(p.name for p in out.iterdir()) == sorted(names + ["collection.jsonl"])


def test_names_are_safe_and_collisions_numbered_in_source_order(tmp_path):
    sources = [tiny_png(tmp_path / d / f, s) for s, (d, f) in enumerate(
        [("b", "Cat.png"), ("a", "cat.png"), ("a", "cat-2.png"), ("a", "ça va!.png")])]
    plan = plan_names(sources + [sources[0]])  # the same file twice is made once
    assert [name for _, name in plan] == ["cat-2", "cat", "-a-va-", "cat-3"]
    recs = list(make_many([tmp_path / "a", tmp_path / "b"], tmp_path / "out", jobs=2, executor="local"))
    assert {r["name"]: Path(r["source"]).relative_to(tmp_path).as_posix() for r in recs} == {
        "cat-2": "a/cat-2.png", "cat": "a/cat.png", "-a-va-": "a/ça va!.png", "cat-3": "b/Cat.png"}


def test_a_broken_source_is_a_failed_record_and_the_rest_are_made(tmp_path, capsys):
    folder = pictures(tmp_path / "in", 3)
    (folder / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n this is not a picture")
    (folder / "blank.png").write_bytes((folder / "p00.png").read_bytes())
    Image.new("L", (40, 40), 255).save(folder / "blank.png")
    code, out, err = run(capsys, "image", folder, tmp_path / "missing.png", "-o", tmp_path / "out", "--json")
    recs = {Path(r["source"]).name: r for r in map(json.loads, out.splitlines())}
    assert code == 2 and len(recs) == 6, err
    for name in ("broken.png", "blank.png", "missing.png"):
        rec = recs[name]
        assert rec["status"] == "failed" and rec["name"] is None and rec["error_kind"] == "input"
        assert "\n" not in rec["error"] and name in rec["error"]
    assert "cannot" in recs["broken.png"]["error"] or "not" in recs["broken.png"]["error"]
    assert [recs[f"p0{i}.png"]["status"] for i in range(3)] == ["made"] * 3
    assert "6 sources: 3 made, 3 failed, 0 duplicates" in err and "Traceback" not in err
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["collection.jsonl", "p00", "p01", "p02"]


def test_dedupe_keeps_the_first_source_and_drops_the_later_folder(tmp_path, capsys):
    folder = pictures(tmp_path / "in", 4)
    for copy in ("p02-copy.png", "z-copy.png"):
        shutil.copy(folder / "p00.png", folder / copy)
    code, out, err = run(capsys, "image", folder, "-o", tmp_path / "out", "--dedupe", "--json", "--jobs", "2")
    recs = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [Path(r["source"]).name for r in recs] == sorted(p.name for p in folder.iterdir())
    by_file = {Path(r["source"]).name: r for r in recs}
    assert by_file["p02-copy.png"]["status"] == by_file["z-copy.png"]["status"] == "duplicate"
    assert by_file["z-copy.png"]["duplicate_of"] == "p00" and by_file["z-copy.png"]["name"] is None
    assert by_file["z-copy.png"]["clue_hash"] == by_file["p00.png"]["clue_hash"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["collection.jsonl", "p00", "p01", "p02", "p03"]
    assert "6 sources: 4 made, 0 failed, 2 duplicates" in err
    code, out, _ = run(capsys, "image", folder, "-o", tmp_path / "again", "--json")  # without --dedupe: all made
    assert code == 0 and {json.loads(line)["status"] for line in out.splitlines()} == {"made"}


def test_nothing_is_overwritten_without_force(tmp_path, capsys):
    folder = pictures(tmp_path / "in", 2)
    out = tmp_path / "out"
    (out / "p01").mkdir(parents=True)
    (out / "p01" / "mine.txt").write_text("the user's\n")
    with pytest.raises(OutputExistsError):
        list(make_many([folder], out))
    assert sorted(p.name for p in out.iterdir()) == ["p01"]  # a refusal leaves no records file behind
    code, _, err = run(capsys, "image", folder, "-o", out)
    assert code == 2 and err.count("\n") == 1 and "p01: folder exists and is not empty (use --force" in err
    code, _, err = run(capsys, "image", folder, "-o", out, "--force")
    assert code == 0 and (out / "p01" / "mine.txt").read_text() == "the user's\n"
    assert (out / "p01" / "report.json").exists()
    with pytest.raises(CollectionExistsError):
        list(make_many([folder], out))
    code, _, err = run(capsys, "image", folder, "-o", out)
    assert code == 2 and "a collection was made here already (use --resume to continue it, or --force" in err
    code, out_text, err = run(capsys, "image", folder, "-o", out, "--resume", "--json")
    assert code == 0 and out_text == "" and "nothing to make" in err and "2 from the resumed run" in err


def test_records_as_json_lines_and_csv(tmp_path, capsys):
    folder = pictures(tmp_path / "in", 3)
    table = tmp_path / "records.csv"
    code, out, err = run(capsys, "image", folder, "-o", tmp_path / "out", "--json", "--csv", table, "--size", "8x8")
    recs = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(recs) == 3 and all(set(r) == FIELDS for r in recs)
    assert all(r["width"] == 8 for r in recs) and no_seconds(recs) == no_seconds(collection_records(tmp_path / "out"))
    rows = list(csv.DictReader(table.open()))
    assert [row["name"] for row in rows] == [r["name"] for r in recs] and rows[0]["status"] == "made"
    code, out, err = run(capsys, "image", folder, "-o", tmp_path / "out2")  # a table for people
    assert code == 0 and len(out.splitlines()) == 3 and out.splitlines()[0].split()[:3] == ["p00", "made", "10x10"]
    assert "3 sources: 3 made, 0 failed, 0 duplicates" in err


def test_one_source_keeps_the_single_folder_of_today(tmp_path, capsys):
    picture = tiny_png(tmp_path / "one.png", 3)
    code, out, _ = run(capsys, "image", picture, "-o", tmp_path / "out")
    assert code == 0 and (tmp_path / "out" / "puzzle.non").exists() and "puzzle.non: 10x10" in out
    assert not (tmp_path / "out" / "collection.jsonl").exists()
    # a collection option: a collection
    code, out, _ = run(capsys, "image", picture, "-o", tmp_path / "coll", "--dedupe")
    assert code == 0 and (tmp_path / "coll" / "one" / "puzzle.non").exists()


def test_models_make_levels_with_a_grade_mix(tmp_path, capsys):
    code, out, err = run(capsys, "mesh", MESHES / "chair.off", MESHES / "dog.stl", MESHES / "snowman.obj",
                         "-o", tmp_path / "out", "--size", "5", "--grade-mix", "1:2,2:1", "--json")
    recs = [json.loads(line) for line in out.splitlines()]
    assert code == 0, err
    assert [r["grade_wanted"] for r in recs] == mixed_grades(3, {1: 2, 2: 1}) == [1, 2, 1]
    assert all(r["kind"] == "mesh" and r["depth"] and r["status"] == "made" for r in recs)
    assert (tmp_path / "out" / "dog" / "level.json").exists() and (tmp_path / "out" / "dog" / "level.glb").exists()
    code, _, err = run(capsys, "mesh", MESHES, "-o", tmp_path / "x", "--grade-mix", "1:1,4:1")
    assert code == 2 and "--grade-mix 4:1.0: expected grades 1, 2, 3, 5" in err
    code, _, err = run(capsys, "image", MESHES, "-o", tmp_path / "y", "--grade-mix", "one")
    assert code == 2 and "--grade-mix 'one'" in err


def test_a_grade_mix_aims_each_picture_at_its_grade(tmp_path):
    folder = pictures(tmp_path / "in", 4)
    recs = list(make_many([folder], tmp_path / "out", grade_mix={1: 1, 3: 1}))
    assert [r["grade_wanted"] for r in recs] == [1, 3, 1, 3]
    assert [r["grade"] for r in recs if r["grade_wanted"] == 1] == [1, 1]
    with pytest.raises(OptionError):
        list(make_many([folder], tmp_path / "bad", grade_mix={1: 0}))


def test_a_collection_inside_its_source_folder_does_not_take_its_own_pictures(tmp_path, capsys):
    folder = pictures(tmp_path / "in", 2)
    code, _, err = run(capsys, "image", folder, "-o", folder / "made")
    assert code == 0 and "2 sources: 2 made" in err
    code, out, err = run(capsys, "image", folder, "-o", folder / "made", "--resume")
    assert code == 0 and out == "" and "nothing to make" in err


@pytest.mark.alone  # forks its workers, or counts the threads
def test_a_worker_that_dies_costs_its_source_only(tmp_path, monkeypatch):
    """The local pool's crash isolation: a source that kills its worker is a 'crash' record, the rest are made.

    The workers are forked from this process, so they inherit the patched pipeline.
    """
    import os
    import signal

    import nonogen.make.many as many

    real = many.pipeline

    def dying(kind):
        make = real(kind)
        return lambda source, **options: os.kill(os.getpid(), signal.SIGKILL) if "crash" in source else make(
            source, **options)

    monkeypatch.setattr(many, "pipeline", dying)
    folder = pictures(tmp_path / "in", 3)
    tiny_png(folder / "crash.png", 9)
    recs = {Path(r["source"]).name: r for r in make_many([folder], tmp_path / "out", jobs=1, executor="local")}
    assert recs["crash.png"]["status"] == "failed" and recs["crash.png"]["error_kind"] == "crash"
    assert "SIGKILL" in recs["crash.png"]["error"] and not (tmp_path / "out" / "crash").exists()
    assert [recs[f"p0{i}.png"]["status"] for i in range(3)] == ["made"] * 3


def test_verify_finds_files_the_same_way_globs_included(tmp_path, capsys):
    """Source discovery is shared (nonogen.collect): a quoted glob works for verify too, and matches nothing loudly."""
    for name in ("a.non", "b.non"):
        (tmp_path / name).write_text("width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n")
    code, out, err = run(capsys, "verify", str(tmp_path / "*.non"), "--json")
    assert code == 0 and [Path(json.loads(line)["file"]).name for line in out.splitlines()] == ["a.non", "b.non"]
    code, out, err = run(capsys, "verify", str(tmp_path / "*.xml"), "--json")
    assert code == 2 and json.loads(out)["status"] == "error" and "*.xml" in json.loads(out)["file"]
