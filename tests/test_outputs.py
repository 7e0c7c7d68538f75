"""Output folders and files: --force replaces only nonogen's own files, and only once the new ones are complete."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from nonogen.cli import main
from nonogen.errors import InputError, OutputExistsError
from nonogen.files import write_file, write_folder

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
ICON = SAMPLES / "images" / "icon-play.png"


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


def test_force_keeps_files_nonogen_did_not_write(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    (out / "puzzle.cnon").write_text("left from an earlier colour run")
    assert run(capsys, "image", str(ICON), "-o", str(out), "--force", "--size", "10x10", "--mode", "bw")[0] == 0
    assert (out / "notes.txt").read_text() == "mine"
    assert not (out / "puzzle.cnon").exists()  # nonogen's own stale file goes: it would contradict the new puzzle
    assert (out / "puzzle.non").exists() and (out / "report.json").exists()
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no staging leftovers


def test_without_force_a_full_folder_is_refused_before_any_work(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("x")
    code, err = run(capsys, "mesh", str(SAMPLES / "meshes" / "mushroom.ply"), "-o", str(out))
    assert code == 2 and "folder exists and is not empty" in err and "--force" in err
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


def test_force_refuses_the_current_folder_and_the_inputs_folder(tmp_path, capsys, monkeypatch):
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    (pictures / "icon.png").write_bytes(ICON.read_bytes())
    code, err = run(capsys, "image", str(pictures / "icon.png"), "-o", str(pictures), "--force")
    assert code == 2 and "holds the input" in err
    monkeypatch.chdir(pictures)
    code, err = run(capsys, "image", "icon.png", "-o", ".", "--force")
    assert code == 2 and "current folder" in err
    assert sorted(p.name for p in pictures.iterdir()) == ["icon.png"]


def test_a_failed_write_leaves_the_old_folder_as_it_was(tmp_path, monkeypatch):
    out = tmp_path / "out"
    write_folder(out, {"puzzle.non": "old", "report.json": "{}"})
    real_replace = os.replace
    calls = []

    def failing_replace(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError):
        write_folder(out, {"puzzle.non": "new", "report.json": "{\"new\": 1}"}, force=True)
    monkeypatch.setattr(os, "replace", real_replace)
    assert (out / "puzzle.non").read_text() in ("old", "new")  # each file is whole: old or new, never a part
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


def test_write_file_never_leaves_a_partial_file(tmp_path, monkeypatch):
    target = tmp_path / "puzzle.non"
    target.write_text("good")
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    with pytest.raises(OSError):
        write_file(target, "x" * 100_000, force=True)
    assert target.read_text() == "good"
    assert [p.name for p in tmp_path.iterdir()] == ["puzzle.non"]


def test_write_file_refuses_to_overwrite_without_force_and_keeps_normal_permissions(tmp_path):
    target = tmp_path / "a.txt"
    write_file(target, "one")
    with pytest.raises(OutputExistsError):
        write_file(target, "two")
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask


def test_line_files_get_normal_permissions_and_refuse_like_write_file(tmp_path):
    """A --csv or --json report (LineFile) is made like any other file: not 0600, not over a file without force."""
    from nonogen.linefile import LineFile

    mask = os.umask(0)
    os.umask(mask)
    for append in (False, True):
        target = tmp_path / f"report-{append}.csv"
        with LineFile(target, append=append) as out:
            out.write("a,b")
        assert target.stat().st_mode & 0o777 == 0o666 & ~mask
    with pytest.raises(OutputExistsError, match="file exists"):
        LineFile(tmp_path / "report-False.csv")
    with pytest.raises(InputError, match="is a folder; name a file"):  # no --force replaces a folder: no hint of it
        LineFile(tmp_path)


def test_a_folder_written_again_sweeps_the_hidden_names_a_killed_commit_left(tmp_path):
    """A run killed between naming a finished file and renaming it into place leaves ``.puzzle.non.<8>.tmp``
    (a collection's clean-clone test run, under load): writing the folder again removes it; hidden files that
    are not nonogen's pending names, and links, stay."""
    folder = tmp_path / "made"
    write_folder(folder, {"puzzle.non": "old\n"})
    left = [folder / ".puzzle.non.fc8ac20c.tmp", folder / ".report.json.k2_x9abc.tmp"]
    kept = [folder / ".notes.txt.fc8ac20c.tmp", folder / ".puzzle.non.backup", folder / "mine.tmp"]
    for path in left + kept:
        path.write_text("x")
    (folder / ".solution.png.0123abcd.tmp").symlink_to(tmp_path / "elsewhere")
    write_folder(folder, {"puzzle.non": "new\n"}, force=True)
    assert not any(path.exists() for path in left) and all(path.exists() for path in kept)
    assert (folder / ".solution.png.0123abcd.tmp").is_symlink() and (folder / "puzzle.non").read_text() == "new\n"


def test_write_folder_takes_only_nonogen_names(tmp_path):
    with pytest.raises(ValueError, match="not an output file name"):
        write_folder(tmp_path / "x", {"../escape.txt": "no"})
    assert isinstance(InputError("x"), ValueError)


def test_every_puzzle_and_level_json_in_outputs_meets_the_shipped_schema():
    """What `make demo` wrote (committed in outputs/) validates against the schema with plain jsonschema,
    not only through nonogen's own reader with its fast path."""
    import json

    import jsonschema

    root = Path(__file__).resolve().parents[1]
    schema = json.loads((root / "nonogen" / "formats" / "schema" / "nonogen.schema.json").read_text())
    files = sorted(p for p in (root / "outputs").rglob("*.json") if p.name in ("puzzle.json", "level.json"))
    if not files:
        pytest.skip("outputs/ holds no puzzle.json or level.json: run `make demo` first")
    validator = jsonschema.Draft202012Validator(schema)
    kinds = set()
    for path in files:
        data = json.loads(path.read_text())
        problems = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data)]
        assert not problems, f"{path.relative_to(root)}: {problems[:3]}"
        kinds.add(data["format"])
    assert kinds == {"nonogen-2d", "nonogen-3d"}


def _demo_image_commands() -> list[list[str]]:
    """The ``nonogen image`` lines of the Makefile's demo, as argument lists."""
    lines = (SAMPLES.parent / "Makefile").read_text().split("demo-images:", 1)[1].split("\n\n", 1)[0].splitlines()
    return [line.split()[1:] for line in lines if line.strip().startswith("$(NONOGEN) image")]


def test_every_puzzle_file_of_every_demo_picture_is_unique(tmp_path, capsys):
    """A made puzzle that needed givens was also written as .non/.cnon/.xml, which cannot hold them: those files
    had several solutions. Each demo picture is made again here and every puzzle file it writes is read back and
    verified as a solver that knows only that file would."""
    from nonogen import formats, verify

    commands = _demo_image_commands()
    assert len(commands) >= 10
    for argv in commands:
        out = tmp_path / Path(argv[argv.index("-o") + 1]).name
        argv[argv.index("-o") + 1] = str(out)
        argv = [str(SAMPLES.parent / a) if a.startswith("samples/") else a for a in argv]
        assert main(argv) == 0, argv
        names = sorted(p.name for p in out.iterdir() if p.name.startswith("puzzle.") and p.suffix in
                       (".non", ".cnon", ".xml", ".json"))
        assert names, argv
        for name in names:
            puzzle = formats.load(out / name)
            assert verify(puzzle.replace(goal=None), timeout=60).status == "unique", (argv, name)
    capsys.readouterr()
