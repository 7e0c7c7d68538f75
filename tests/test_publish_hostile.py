"""The publishers (gallery, book, level pack) over a collection a hostile tester tampered with.

Each test is one of the reproducers in ``shared/data/hostile-turn5`` (B1, L1, G1, T1, O1 and the privacy
rule), made small: files outside the collection reached through ``puzzle_file`` or a symbolic link, a
named pipe where a file should be, a sparse 1.2 GB ``level.glb``, a source picture over the importer's
pixel limit, values of the wrong type in ``collection.jsonl`` and ``report.json``, links planted where
the gallery writes, and absolute paths of the maker's disk in what is published.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

import nonogen
from made_collection import SAMPLES, make_collection
from nonogen.errors import FileLimitError, FormatError, InputError, OutputExistsError
from nonogen.output.collection import read_collection

REPO = Path(__file__).resolve().parents[1]
PDFTOTEXT = shutil.which("pdftotext")
GUARD = 120
"""Seconds a command may take before the test calls it hung (a bound, never a wait: they finish in seconds)."""


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    return make_collection(tmp_path_factory.mktemp("hostile") / "out", pictures=("icon-heart.png", "icon-gear.png"),
                           meshes=("mug.glb",))


@pytest.fixture
def coll(base, tmp_path) -> Path:
    """A copy of the collection, the tester's to tamper with."""
    return Path(shutil.copytree(base, tmp_path / "coll", symlinks=True))


def nonogen_cli(*argv) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nonogen", *map(str, argv)], cwd=REPO, capture_output=True, text=True,
                          timeout=GUARD)


def edit_report(folder: Path, **changes) -> Path:
    path = folder / "report.json"
    path.write_text(json.dumps(dict(json.loads(path.read_text()), **changes), indent=1), encoding="utf-8")
    return path


def edit_record(coll: Path, name: str, **changes) -> None:
    path = coll / "collection.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    records = [dict(r, **changes) if r["name"] == name else r for r in records]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def one_line_error(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


def big_png(path: Path, side: int) -> Path:
    """A grey PNG of ``side`` x ``side`` pixels, a few kB on disk: over the importer's pixel limit at 7000."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    packer, row = zlib.compressobj(9), b"\0" + b"\x80" * side
    data = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b""))
    return path


# --- B1: the book and report.json's puzzle_file ---------------------------------------------------------------


def test_puzzle_file_naming_anything_but_a_file_of_its_folder_is_the_reports_fault(coll, tmp_path):
    """B1: "../../outside.non" put a file from outside the collection in the book; a number was a traceback."""
    (tmp_path / "outside.non").write_text('title "SECRET"\nwidth 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n')
    for value in ("../../outside.non", str(tmp_path / "outside.non"), 5):
        report = edit_report(coll / "icon-heart", puzzle_file=value)
        line = next(k for k, text in enumerate(report.read_text().splitlines(), 1) if '"puzzle_file"' in text)
        with pytest.raises(FormatError, match=rf'report\.json:{line}: "puzzle_file": expected a file name in the '):
            read_collection(coll)
    done = nonogen_cli("book", coll, "-o", tmp_path / "book.pdf")
    assert "puzzle_file" in one_line_error(done) and not (tmp_path / "book.pdf").exists()


def test_book_refuses_a_named_pipe_and_a_link_out_as_a_puzzle_without_waiting(coll, tmp_path):
    """B1: a FIFO as the puzzle file hung the book past --timeout; a link out of the collection was followed."""
    os.mkfifo(coll / "icon-heart" / "pipe.non")
    edit_report(coll / "icon-heart", puzzle_file="pipe.non")
    done = nonogen_cli("book", coll, "-o", tmp_path / "book.pdf", "--timeout", "5")  # GUARD: a hang fails the test
    assert "pipe.non: is a named pipe, not a regular file" in one_line_error(done)
    edit_report(coll / "icon-heart", puzzle_file="puzzle.json")
    puzzle = coll / "icon-heart" / "puzzle.json"
    shutil.copy(puzzle, coll / "kept.json")
    shutil.copy(puzzle, tmp_path / "outside.json")
    puzzle.unlink()
    puzzle.symlink_to(tmp_path / "outside.json")
    member = read_collection(coll).named(["icon-heart"], "test")[0]
    with pytest.raises(InputError, match=r"puzzle\.json: leads out of the collection"):
        member.puzzle()
    puzzle.unlink()
    puzzle.symlink_to("../kept.json")  # a link that stays inside the collection shows nothing from elsewhere
    assert member.puzzle().rows == nonogen.load(coll / "kept.json").rows


# --- L1: the level pack copies files ---------------------------------------------------------------------------


def test_levelpack_copies_no_link_leading_out_and_reads_no_huge_model(coll, base, tmp_path):
    """L1: a symlinked private file became the preview; a 1.2 GB level.glb was read whole and copied."""
    secret, preview = tmp_path / "secret.txt", coll / "mug" / "solution.png"
    secret.write_text("private notes of the author")
    preview.unlink()
    preview.symlink_to(secret)
    with pytest.raises(InputError, match=r"mug/solution\.png: leads out of the collection"):
        nonogen.level_pack(coll, tmp_path / "pack")
    assert not (tmp_path / "pack").exists() and [p.name for p in tmp_path.iterdir()] == ["coll", "secret.txt"]
    shutil.copy(base / "mug" / "solution.png", coll / "preview.png")
    preview.unlink()
    preview.symlink_to("../preview.png")
    with open(coll / "mug" / "level.glb", "r+b") as glb:
        glb.truncate(1200 << 20)  # sparse: no real gigabytes
    with pytest.raises(FileLimitError, match=r"level\.glb: is 1,200\.0 MB, more than the 64 MB"):
        nonogen.level_pack(coll, tmp_path / "pack")
    shutil.copy(base / "mug" / "level.glb", coll / "mug" / "level.glb")
    nonogen.level_pack(coll, tmp_path / "pack")
    copied = tmp_path / "pack" / "levels" / "mug" / "preview.png"
    assert not copied.is_symlink() and copied.read_bytes() == (base / "mug" / "solution.png").read_bytes()


# --- G1: the gallery's thumbnails of source pictures -------------------------------------------------------------


def test_gallery_shows_a_placeholder_for_a_source_too_big_or_unreadable(coll, tmp_path):
    """G1: a 144-megapixel source was decoded whole (1.17 GB) although ``nonogen image`` refuses it."""
    (tmp_path / "src").mkdir()
    edit_record(coll, "icon-heart", source=str(big_png(tmp_path / "src" / "icon-heart.png", 7000)))
    os.mkfifo(tmp_path / "src" / "gear.png")
    edit_record(coll, "icon-gear", source=str(tmp_path / "src" / "gear.png"))
    written = nonogen.gallery(coll)
    assert written["thumbnails"] == 0 and written["puzzles"] == 3 and len(written["warnings"]) == 2
    big, pipe = written["warnings"]
    assert big.startswith("icon-heart: source picture not shown") and "7000x7000 pixels, more than" in big
    assert pipe.startswith("icon-gear: source picture not shown") and "is a named pipe" in pipe
    page = (coll / "gallery.html").read_text(encoding="utf-8")
    assert "not shown: icon-heart.png: picture is 7000x7000 pixels" in page and "not shown: gear.png: is a" in page
    assert not (coll / "gallery.thumbs").exists()
    done = nonogen_cli("gallery", coll, "--force")
    assert done.returncode == 0, done.stderr
    assert [line.split(":")[:2] for line in done.stderr.splitlines()] == [["nonogen", " warning"]] * 2


# --- T1: values of the wrong type --------------------------------------------------------------------------------


def _line(text: str, start: str) -> int:
    return next(k for k, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_values_of_the_wrong_type_are_one_line_errors_naming_file_and_line(coll):
    """T1: a 5000-digit number (ValueError, not JSONDecodeError) or "source": 12 ended in a traceback, exit 5."""
    records, report = coll / "collection.jsonl", coll / "icon-gear" / "report.json"
    good_records, good_report = records.read_text(), report.read_text()
    grade, status = _line(good_report, ' "grade":'), _line(good_report, ' "status":')
    cases = [
        (records, re.sub(r'"grade": \d+', '"grade": ' + "9" * 5000, good_records, count=1), ":1: a number too long"),
        (records, good_records.replace('"kind": "image"', '"kind": "photo"', 1), ':1: "kind": expected \'image\''),
        (report, re.sub(r'"grade": \d+', '"grade": ' + "9" * 5000, good_report),
         f":{grade}: a number too long to read"),
        (report, re.sub(r'"grade": \d+', '"grade": "easy"', good_report),
         f':{grade}: "grade": expected a whole number, not "easy"'),
        (report, good_report.replace('"warnings": [', '"warnings": [' + "[" * 100_000, 1), ": nested too deeply"),
        (report, good_report.replace('"status"', '"st\udcffatus"', 1), f":{status}: not UTF-8 text"),
    ]
    for path, text, message in cases:
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        with pytest.raises(FormatError, match=re.escape(f"{path}{message}")):
            read_collection(coll)
        path.write_text(good_records if path == records else good_report)
    edit_record(coll, "icon-heart", source=12)
    for command in (["gallery", coll], ["book", coll, "-o", coll / "b.pdf"], ["levelpack", coll, "-o", coll / "p"]):
        assert 'collection.jsonl:1: "source": expected text, not 12' in one_line_error(nonogen_cli(*command))


# --- O1: links planted where the gallery writes --------------------------------------------------------------------


def test_gallery_never_writes_through_a_link_planted_in_the_collection(coll, tmp_path):
    """O1: gallery --force wrote through a symlink gallery.html; a symlink gallery.thumbs was written into unasked."""
    victims = {name: tmp_path / f"victim-{name}" for name in ("gallery.html", "contact-sheet.png", "icon-heart.png")}
    for name, victim in victims.items():
        victim.write_text(f"the victim's own {name}")
        if name != "icon-heart.png":
            (coll / name).symlink_to(victim)
    with pytest.raises(OutputExistsError):
        nonogen.gallery(coll)
    nonogen.gallery(coll, force=True)
    for name in ("gallery.html", "contact-sheet.png"):
        assert not (coll / name).is_symlink() and (coll / name).stat().st_size > 100
    shutil.rmtree(coll / "gallery.thumbs")
    outside = tmp_path / "outside"
    outside.mkdir()
    (coll / "gallery.thumbs").symlink_to(outside)
    with pytest.raises(InputError, match=r"gallery\.thumbs: is a symbolic link"):
        nonogen.gallery(coll, force=True)
    assert not any(outside.iterdir())
    (coll / "gallery.thumbs").unlink()
    (coll / "gallery.thumbs").mkdir()
    (coll / "gallery.thumbs" / "icon-heart.png").symlink_to(victims["icon-heart.png"])
    nonogen.gallery(coll, force=True)
    assert not (coll / "gallery.thumbs" / "icon-heart.png").is_symlink()
    assert all(victim.read_text() == f"the victim's own {name}" for name, victim in victims.items())


# --- privacy: nothing published tells where the collection lies --------------------------------------------------


def test_published_files_name_no_absolute_path(coll, tmp_path):
    """The gallery's header and selection file and the pack's manifest carried the maker's absolute folder path."""
    disk = [str(tmp_path), str(coll.resolve()), str(SAMPLES), "/photos/"]
    nonogen.gallery(coll)
    page = (coll / "gallery.html").read_text(encoding="utf-8")
    assert not [d for d in disk if d in page]
    assert "again.png" in page and "icon-heart.png" in page  # a failed source and its error: file names only
    script = re.search(r'<script type="application/json" id="gallery">(.*?)</script>', page).group(1)
    assert json.loads(script)["collection"] == "."
    nonogen.level_pack(coll, tmp_path / "pack")
    assert json.loads((tmp_path / "pack" / "manifest.json").read_text())["collection"] == "coll"
    for path in (tmp_path / "pack").rglob("*"):
        if path.is_file():
            assert not [d for d in disk if d.encode() in path.read_bytes()], path
    if PDFTOTEXT:  # the book carried none before either; checked here so it never starts to
        done = nonogen_cli("book", coll, "-o", tmp_path / "book.pdf")
        assert done.returncode == 0, done.stderr
        text = subprocess.run([PDFTOTEXT, tmp_path / "book.pdf", "-"], capture_output=True, text=True).stdout
        raw = (tmp_path / "book.pdf").read_bytes()
        assert "Puzzle 1" in text and not [d for d in disk if d in text or d.encode() in raw]
