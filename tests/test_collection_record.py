"""One reader of collection.jsonl: ``--resume``, the gallery, the book and the level pack read the same records.

Half a line appended to collection.jsonl (a run killed mid-write) made ``--resume`` read N records while
``nonogen gallery``, ``book`` and ``levelpack`` failed on it; a source recorded twice (``--resume`` appends a
retried source's new record after its old one) was one record to ``--resume`` and two members to the publishers.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from nonogen import make_many
from nonogen.cli import main
from nonogen.output.many import collection_records
from nonogen.record import FIELDS, blank, read_records
from test_make_many import pictures

MESHES = Path(__file__).resolve().parents[1] / "samples" / "meshes"
SOURCES = {"image": 3, "mesh": 2}


@pytest.fixture(scope="module", params=sorted(SOURCES))
def made(request, tmp_path_factory) -> tuple[str, list[str], Path]:
    """``(kind, sources, collection)``: three pictures or two models made into a collection, once per module."""
    kind, root = request.param, tmp_path_factory.mktemp(request.param)
    if kind == "image":
        sources = [str(pictures(root / "src", SOURCES[kind]))]
        options = {}
    else:
        sources = [str(MESHES / "chair.off"), str(MESHES / "snowman.obj")]
        options = {"size": 5}
    recs = list(make_many(sources, root / "out", kind=kind, executor="serial", **options))
    assert [r["status"] for r in recs] == ["made"] * SOURCES[kind]
    return kind, sources + (["--size", "5"] if kind == "mesh" else []), root / "out"


@pytest.fixture
def coll(made, tmp_path) -> tuple[str, list[str], Path]:
    kind, sources, out = made
    return kind, sources, Path(shutil.copytree(out, tmp_path / "out"))


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    return (code, *capsys.readouterr())


def publishers_read(capsys, kind: str, out: Path) -> dict[str, int]:
    """How many made puzzles the gallery, the book and (for levels) the level pack found in ``out``."""
    code, printed, err = run(capsys, "gallery", out, "--force", "--json")
    assert code == 0, err
    gallery = json.loads(printed)
    seen = {"gallery": gallery["puzzles"], "gallery not made": gallery["not_made"]}
    code, printed, err = run(capsys, "book", out, "-o", out.parent / "book.pdf", "--force", "--json")
    assert code == 0, err
    seen["book"] = len(json.loads(printed)["puzzles"])
    if kind == "mesh":
        code, printed, err = run(capsys, "levelpack", out, "-o", out.parent / "pack", "--force", "--json")
        assert code == 0, err
        seen["levelpack"] = len(json.loads(printed)["levels"])
    return seen


def resume_read(capsys, kind: str, sources: list[str], out: Path) -> tuple[int, int]:
    """``(made, failed)`` as ``--resume`` counts the records it found (it finds nothing to make)."""
    code, printed, err = run(capsys, kind, *sources, "-o", out, "--resume", "--json")
    assert code == 0 and printed == "" and "nothing to make" in err, err
    made, failed = map(int, re.search(r"sources?: (\d+) made, (\d+) failed", err).groups())
    return made, failed


def assert_all_read(capsys, kind: str, sources: list[str], out: Path) -> None:
    count = SOURCES[kind]
    assert len(read_records(out)) == len(collection_records(out)) == count
    expected = {"gallery": count, "gallery not made": 0, "book": count}
    expected.update({"levelpack": count} if kind == "mesh" else {})
    assert publishers_read(capsys, kind, out) == expected
    assert resume_read(capsys, kind, sources, out) == (count, 0)


def test_half_a_line_appended_is_left_out_by_every_reader(coll, capsys):
    kind, sources, out = coll
    records = out / "collection.jsonl"
    whole = records.read_bytes()
    with open(records, "ab") as handle:
        handle.write('{"source": "/photos/ç'.encode()[:-1])  # cut inside a character, as a kill may cut it
    assert_all_read(capsys, kind, sources, out)
    assert records.read_bytes() == whole  # the resumed run cut the torn line off and kept every whole one


def test_a_later_record_of_a_source_replaces_the_earlier_one_for_every_reader(coll, capsys):
    kind, sources, out = coll
    records = out / "collection.jsonl"
    lines = records.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    earlier = blank(first["source"], None, kind, "failed", None)
    earlier.update(error=f"{out / first['name']}: Permission denied", error_kind="output")
    records.write_text("\n".join([json.dumps(earlier), *lines]) + "\n", encoding="utf-8")  # then --resume made it
    assert read_records(out) == [json.loads(line) for line in lines]  # the made record, not the failed one
    assert_all_read(capsys, kind, sources, out)
    assert records.read_text(encoding="utf-8").splitlines() == lines  # sorted again, the old record gone


def test_the_record_fields_are_the_documented_contract():
    """The field list lives in nonogen/record.py; the guide's table lists the same fields, in the same order."""
    guide = (Path(__file__).resolve().parents[1] / "docs" / "guides" / "collections.md").read_text(encoding="utf-8")
    assert re.findall(r"^\| `([a-z_]+)` \|", guide, re.M) == list(FIELDS)


def test_a_line_longer_than_a_megabyte_is_named_not_read_whole(tmp_path):
    """The records file is read a line at a time (a collection of millions of sources has no size cap); what is
    bounded is one line."""
    from nonogen.errors import FormatError
    from nonogen.record import read_records

    (tmp_path / "collection.jsonl").write_text('{"source": "a.png", "status": "failed"}\n' + "x" * (2 << 20) + "\n")
    with pytest.raises(FormatError) as info:
        read_records(tmp_path)
    assert str(info.value).endswith("collection.jsonl:2: a line longer than 1 MB")
