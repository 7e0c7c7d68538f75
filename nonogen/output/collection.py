"""Collection folders and selection files read back, for what publishes them: the gallery, the book, the level pack.

A collection folder holds one sub-folder per source (what :func:`nonogen.save` writes) and, when a many-source
run made it, ``collection.jsonl``: one record per source, failed ones included. Folders made by separate
``nonogen image`` / ``nonogen mesh`` calls have no such file; their reports say everything but the failures.
Records and reports are read, typed and merged by :mod:`nonogen.record` (the one reader, ``--resume``'s too),
every other file through :func:`~nonogen.inside.read_inside`. A selection file (written by the gallery page)
is ``{"collection": PATH, "names": [...]}``.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from os.path import lexists
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from .. import formats
from ..errors import FormatError, InputError, NonogenError
from ..formats import MAX_FILE_BYTES, decode_text
from ..inside import MAX_MEMBER_BYTES, check_inside, json_of, read_inside, text_of
from ..model import Puzzle
from ..model3d import Puzzle3D
from ..record import FIELDS, RECORDS, read_records, read_report, summary

__all__ = ["Member", "Collection", "read_collection", "read_selection", "open_published", "puzzle_from",
           "in_grades", "grade_text", "by_grade", "is_collection", "is_selection", "warning_kind"]

AnyPuzzle = Union[Puzzle, Puzzle3D]

_WARNING_KINDS = (
    ("file left out", (" not written:",)),
    ("grade missed", ("not reached",)),
    ("may not read", ("recognisability", "may not read")),
    ("specks", ("single cells",)),
    ("redrawn", ("drawn the other way", "drawn in black and white", "halftone")),
    ("colours merged", ("colours asked for",)),
    ("framing", ("aspect ratio differs", "no subject stands out")),
)
"""Kinds of the sentences in a report's ``warnings``, by words each kind's sentences always hold."""


def warning_kind(sentence: str) -> str:
    """The kind of one warning sentence, for filtering a collection by it ("other" when none fits).

    >>> warning_kind("puzzle.non not written: .non cannot hold givens"), warning_kind("the cat sat")
    ('file left out', 'other')
    """
    return next((kind for kind, words in _WARNING_KINDS if any(w in sentence for w in words)), "other")


@dataclass(frozen=True)
class Member:
    """One source of a collection: its record, with what its folder's report says over it (:func:`_member`).

    Every field of a record (:data:`~nonogen.record.FIELDS`) is an attribute, null when not recorded, so a new
    field reaches every publisher without a line here. ``root`` is the collection folder: every file of
    ``folder`` is read through :meth:`read`, which refuses anything that is not a regular file inside it.
    """

    record: Mapping[str, Any] = field(hash=False)
    folder: Optional[Path] = None
    title: str = ""
    puzzle_file: Optional[str] = None
    root: Optional[Path] = None

    def __getattr__(self, key: str) -> Any:
        if key in FIELDS:
            return self.record.get(key)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {key!r}")

    @property
    def size(self) -> tuple[int, ...]:
        """The puzzle's box: width and height, and a level's depth."""
        return tuple(self.record[k] for k in ("width", "height", "depth") if self.record.get(k) is not None)

    @property
    def is_level(self) -> bool:
        return self.kind == "mesh"

    @property
    def puzzle_path(self) -> Optional[Path]:
        """The puzzle file in the member's folder: the report's ``puzzle_file``, else the usual one."""
        if self.folder is None:
            return None
        return self.folder / (self.puzzle_file or ("level.json" if self.is_level else "puzzle.json"))

    @property
    def cells(self) -> int:
        """Cells (or cubes) of the puzzle's box: what "size" sorts by."""
        return math.prod(self.size) if self.size else 0

    def has(self, name: str) -> bool:
        """Whether the member's folder has an entry ``name`` (a link counts, even a broken one: reading it says why)."""
        return self.folder is not None and lexists(self.folder / name)

    def check(self, name: str, limit: int = MAX_MEMBER_BYTES) -> Path:
        """The file ``name`` of the member's folder, after :meth:`read`'s checks, for a page to point at unread."""
        assert self.folder is not None and self.root is not None
        return check_inside(self.folder / name, self.root, limit)

    def read(self, name: str, limit: int = MAX_FILE_BYTES) -> bytes:
        """The bytes of the file ``name`` of the member's folder: a regular file inside the collection, at most
        ``limit`` bytes, else a one-line error naming it (:func:`~nonogen.inside.read_inside`)."""
        assert self.folder is not None and self.root is not None
        return read_inside(self.folder / name, self.root, limit)

    def puzzle(self) -> AnyPuzzle:
        """The member's puzzle (a level for a mesh), read as :meth:`read` reads any file of the collection."""
        path = self.puzzle_path
        assert path is not None
        return puzzle_from(self.read(path.name), path, self.is_level)


def puzzle_from(data: bytes, path: Path, level: bool) -> AnyPuzzle:
    """The one puzzle in ``data``, the bytes of ``path`` (a level in ``nonogen-3d`` when ``level``)."""
    text = decode_text(data, str(path))
    try:
        return formats.loads(text, "nonogen-3d" if level else formats.format_for(path, text))
    except FormatError as exc:
        raise exc.with_path(str(path)) from None


@dataclass(frozen=True)
class Collection:
    """A collection folder: its members in record order (folder-name order without records)."""

    folder: Path
    members: tuple[Member, ...] = field(default_factory=tuple)
    has_records: bool = False

    @property
    def made(self) -> list[Member]:
        return [m for m in self.members if m.status == "made" and m.folder is not None]

    def named(self, names: Sequence[str], where: str) -> list[Member]:
        """The made members called ``names``, in that order; one not in the collection is an InputError."""
        made = {m.name: m for m in self.made}
        missing = [n for n in names if n not in made]
        if missing:
            raise InputError(f"{where}: {', '.join(map(repr, missing[:3]))} "
                             f"{'is' if len(missing) == 1 else 'are'} not a made puzzle of {self.folder}")
        return [made[n] for n in names]


def _member(root: Path, record: dict[str, Any]) -> Member:
    """A member from its record (a folder no record names: its name) and, when made, its folder's report.

    The report's :func:`~nonogen.record.summary` goes over the record: the two agree when nonogen wrote both, and
    a hand-written record may leave out what the report gives. A made record without a report is kept as failed.
    """
    name = record.get("name")
    folder = root / name if name and record["status"] == "made" else None
    if folder is None or not lexists(folder / "report.json"):
        if record["status"] == "made":
            record = dict(record, status="failed", error=f"{folder or 'no folder'}: no report.json", error_kind="input")
        return Member(record, root=root)
    report = read_report(folder, root)
    level = record.get("kind") == "mesh" or "model" in report or (folder / "level.json").is_file()
    merged = {"source": report.get("model" if level else "image"), **record, **summary(report, level),
              "kind": "mesh" if level else "image"}
    return Member(merged, folder, report.get("title") or "", report.get("puzzle_file"), root)


def read_collection(folder: Union[str, Path]) -> Collection:
    """The collection in ``folder``: its records (:func:`_member`), then sub-folders with a report no record names."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(f"{folder}: not a folder (expected a collection folder or a selection file)")
    records = read_records(folder)
    members = [_member(folder, record) for record in records]
    named = {record.get("name") for record in records}
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and p.name not in named):
        if lexists(sub / "report.json"):
            members.append(_member(folder, {"name": sub.name, "status": "made"}))
    if not members:
        raise InputError(f"{folder}: no collection here (no {RECORDS} and no sub-folder with a report.json)")
    return Collection(folder, tuple(members), bool(records))


def read_selection(path: Union[str, Path]) -> tuple[Collection, list[Member]]:
    """The collection a selection file names and its chosen members, in the file's order.

    A relative ``collection`` path is taken from the selection file's folder:
    the gallery page writes ``"."``, the folder the file is saved in.
    """
    path = Path(path)
    data = json_of(text_of(read_inside(path, None), path), path)
    if (not isinstance(data, dict) or not isinstance(data.get("collection"), str)
            or not isinstance(data.get("names"), list)):
        raise FormatError('expected {"collection": PATH, "names": [NAME, ...]} (a selection file)', path=str(path),
                          line=1)
    names = data["names"]
    if not names or not all(isinstance(n, str) for n in names):
        raise FormatError('"names": expected a list of one or more folder names', path=str(path), line=1)
    if len(set(names)) != len(names):
        raise FormatError('"names": a name is listed twice', path=str(path), line=1)
    where = Path(data["collection"])
    folder = where if where.is_absolute() else path.parent / where
    if not where.is_absolute() and not is_collection(folder):
        raise InputError(f"{path}: its collection {data['collection']!r} is taken from the file's folder, which holds "
                         "no collection; save the selection file in the collection folder (beside gallery.html)")
    collection = read_collection(folder)
    return collection, collection.named(names, str(path))


def is_collection(path: Union[str, Path]) -> bool:
    """Whether ``path`` is a collection folder: it has ``collection.jsonl`` or a sub-folder with a ``report.json``."""
    path = Path(path)
    return path.is_dir() and (lexists(path / RECORDS) or any(lexists(p / "report.json") for p in path.iterdir()))


def is_selection(path: Union[str, Path]) -> bool:
    """Whether ``path`` is a selection file (a JSON object with "collection" and "names") rather than a puzzle."""
    path = Path(path)
    if path.suffix.lower() != ".json":
        return False
    try:
        data = json.loads(read_inside(path, None))
    except (NonogenError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and "collection" in data and "names" in data and "format" not in data


def open_published(path: Union[str, Path]) -> tuple[Collection, list[Member]]:
    """A collection folder (all its made members) or a selection file (the chosen ones), for publishing."""
    path = Path(path)
    if path.is_dir():
        collection = read_collection(path)
        return collection, collection.made
    if not lexists(path):
        raise InputError(f"{path}: no such collection folder or selection file")
    return read_selection(path)


def grade_text(grades: Optional[tuple[int, int]]) -> str:
    """``(1, 3)`` as ``"1-3"``, ``(2, 2)`` as ``"2"``: grades as the user wrote them.

    >>> grade_text((1, 3)), grade_text((2, 2)), grade_text(None)
    ('1-3', '2', 'any')
    """
    if grades is None:
        return "any"
    return str(grades[0]) if grades[0] == grades[1] else f"{grades[0]}-{grades[1]}"


def in_grades(grade: Optional[int], grades: Optional[tuple[int, int]]) -> bool:
    """Whether ``grade`` is within ``grades`` (no bounds: everything is; no grade: nothing bounded is)."""
    return grades is None or (grade is not None and grades[0] <= grade <= grades[1])


def by_grade(members: Iterable[Member]) -> list[Member]:
    """Members easiest first, ungraded last, ties by name: the order books and packs publish in."""
    return sorted(members, key=lambda m: (m.grade is None, m.grade or 0, m.name or ""))
