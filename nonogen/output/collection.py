"""Collection folders and selection files read back, for what publishes them: the gallery, the book, the level pack.

A collection folder holds one sub-folder per source (what :func:`nonogen.save`
writes) and, when a many-source run made it, ``collection.jsonl``: one
record per source, failed ones included. Folders made by separate
``nonogen image`` / ``nonogen mesh`` calls have no such file; their
``report.json`` files say everything but the failures. A selection file
(written by the gallery page) is ``{"collection": PATH, "names": [...]}``.

A collection may come from anyone, so what publishers read of it passes two
checks here, once for all three: every file goes through
:func:`~nonogen.output.inside.read_inside` (a regular file inside the
collection, not too large, looked at before it is read), and every field of
a record or report must have its type (:data:`FIELDS`): a wrong one is the
file's fault, a :class:`~nonogen.errors.FormatError` naming the file and line.
"""
from __future__ import annotations

import json
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence, Union

from .. import formats
from ..errors import FormatError, InputError, NonogenError
from ..formats import MAX_FILE_BYTES, decode_text
from ..make.many import KINDS, RECORDS, SAFE_NAME, STATUSES
from ..model import Puzzle
from ..model3d import Puzzle3D
from .inside import MAX_MEMBER_BYTES, check_inside, read_inside

__all__ = ["Member", "Collection", "read_collection", "read_selection", "open_published", "puzzle_from", "FIELDS",
           "in_grades", "grade_text", "by_grade", "is_collection", "is_selection", "warning_kind", "RECORDS",
           "MAX_RECORDS_BYTES", "MAX_MEMBER_BYTES"]

AnyPuzzle = Union[Puzzle, Puzzle3D]

MAX_RECORDS_BYTES = 64 << 20
"""Largest ``collection.jsonl`` read: some 90,000 records, more sources than a gallery or a book can show."""

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
    """One source of a collection: what its record and its folder's report say about it.

    ``root`` is the collection folder: every file of ``folder`` is read through :meth:`read`, which refuses
    anything that is not a regular file inside it.
    """

    name: Optional[str]
    status: str  # "made", "failed" or "duplicate"
    kind: str  # "image" or "mesh"
    folder: Optional[Path] = None
    source: Optional[str] = None
    title: str = ""
    grade: Optional[int] = None
    grade_name: Optional[str] = None
    size: tuple[int, ...] = ()
    colors: Optional[int] = None
    recognisability: Optional[float] = None
    speck_share: Optional[float] = None
    fill_share: Optional[float] = None
    line_solvable: Optional[bool] = None
    warnings: tuple[str, ...] = ()
    puzzle_file: Optional[str] = None
    error: Optional[str] = None
    error_kind: Optional[str] = None
    duplicate_of: Optional[str] = None
    root: Optional[Path] = None

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
        product = 1
        for side in self.size:
            product *= side
        return product if self.size else 0

    def has(self, name: str) -> bool:
        """Whether the member's folder has an entry ``name`` (a link counts, even a broken one: reading it says why)."""
        return self.folder is not None and _lexists(self.folder / name)

    def check(self, name: str, limit: int = MAX_MEMBER_BYTES) -> Path:
        """The file ``name`` of the member's folder, after :meth:`read`'s checks, for a page to point at unread."""
        assert self.folder is not None and self.root is not None
        return check_inside(self.folder / name, self.root, limit)

    def read(self, name: str, limit: int = MAX_FILE_BYTES) -> bytes:
        """The bytes of the file ``name`` of the member's folder: a regular file inside the collection, at most
        ``limit`` bytes, else a one-line error naming it (:func:`~nonogen.output.inside.read_inside`)."""
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


def _whole(value: Any) -> bool:
    return type(value) is int and 0 <= value < 2**31


def _plain_name(value: Any) -> bool:
    """A file name of the member's own folder: no separator, no ``..``; a report naming any other path lies."""
    return isinstance(value, str) and value not in ("", ".", "..") and not set(value) & set("/\\\0") and len(value) < 256


_TEXT = ("text", lambda v: isinstance(v, str))
_WHOLE = ("a whole number", _whole)
_NUMBER = ("a number", lambda v: (type(v) is float and math.isfinite(v)) or (type(v) is int and abs(v) < 2**53))
FIELDS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    **{key: _TEXT for key in ("source", "image", "model", "title", "grade_name", "error", "error_kind", "duplicate_of")},
    **{key: _WHOLE for key in ("grade", "colors", "width", "height", "depth")},
    **{key: _NUMBER for key in ("recognisability", "speck_share", "fill_share")},
    "kind": (" or ".join(map(repr, KINDS)), lambda v: isinstance(v, str) and v in KINDS),
    "size": ("a list of whole numbers", lambda v: isinstance(v, list) and len(v) <= 3 and all(map(_whole, v))),
    "line_solvable": ("true or false", lambda v: isinstance(v, bool)),
    "warnings": ("a list of sentences", lambda v: isinstance(v, list) and all(isinstance(w, str) for w in v)),
    "puzzle_file": ("a file name in the puzzle's own folder", _plain_name),
}
"""Every field of a record or report that publishers read: what it must be when it is not null (in words, and a test)."""


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _checked(data: dict[str, Any], path: Path, line: Callable[[str], int]) -> dict[str, Any]:
    """``data`` when each of its :data:`FIELDS` is null or of its type, else a FormatError at the field's ``line``."""
    for key, (expected, fits) in FIELDS.items():
        value = data.get(key)
        if value is not None and not fits(value):
            raise FormatError(f'"{key}": expected {expected}, not {_shown(value)}', path=str(path), line=line(key))
    return data


def _line_of(text: str, key: str) -> int:
    """The line of ``text`` (a report) that holds ``key``: a top-level key of the indented report first, else 1."""
    quoted = re.escape(json.dumps(key))
    found = re.search(rf"^ ?{quoted}\s*:", text, re.M) or re.search(rf"{quoted}\s*:", text)
    return text.count("\n", 0, found.start()) + 1 if found else 1


def _json(text: str, path: Path, line: Optional[int]) -> Any:
    """The JSON value ``text`` of ``path`` (one line of it when ``line`` is given); every failure a FormatError."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"not JSON: {exc.msg}", path=str(path), line=line or exc.lineno) from None
    except ValueError as exc:  # an integer of more digits than Python converts (sys.set_int_max_str_digits)
        digits = re.search(rf"\d{{{sys.get_int_max_str_digits() + 1}}}", text)
        where = line or (text.count("\n", 0, digits.start()) + 1 if digits else 1)
        raise FormatError(f"a number too long to read ({str(exc).split(';')[0]})", path=str(path), line=where) from None
    except RecursionError:  # no line to name in a whole file: the depth is reached wherever the nesting is
        raise FormatError("nested too deeply", path=str(path), line=line) from None


def _text(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError("not UTF-8 text", path=str(path), line=data.count(b"\n", 0, exc.start) + 1) from None


def _report(folder: Path, root: Path) -> dict[str, Any]:
    path = folder / "report.json"
    text = _text(read_inside(path, root), path)
    data = _json(text, path, None)
    if not isinstance(data, dict):
        raise FormatError("expected a JSON object (a report of nonogen image or mesh)", path=str(path), line=1)
    return _checked(data, path, lambda key: _line_of(text, key))


def _records(path: Path, root: Path) -> list[dict[str, Any]]:
    """The records of ``collection.jsonl``; a line that is not a record is a FormatError naming it."""
    records = []
    for number, line in enumerate(_text(read_inside(path, root, MAX_RECORDS_BYTES), path).split("\n"), 1):
        if not line.strip():
            continue
        record = _json(line, path, number)
        if not isinstance(record, dict) or record.get("status") not in STATUSES:
            raise FormatError('expected a record with "status" made, failed or duplicate', path=str(path), line=number)
        name = record.get("name")
        if name is not None and (not isinstance(name, str) or not SAFE_NAME.fullmatch(name)):
            raise FormatError(f'"name" {_shown(name)}: expected a folder name (a-z, 0-9, - and _) or null',
                              path=str(path), line=number)
        records.append(_checked(record, path, lambda _: number))
    return records


def _size(report: dict[str, Any], record: dict[str, Any]) -> tuple[int, ...]:
    if report.get("size") is not None:
        return tuple(report["size"])
    sides = [report.get(k, record.get(k)) for k in ("width", "height", "depth")]
    return tuple(s for s in sides if s is not None)


def _member(name: Optional[str], folder: Optional[Path], report: dict[str, Any], record: dict[str, Any],
            root: Path) -> Member:
    """A member from its report (the made puzzle's own word) over its record (what the run saw); both checked."""
    def pick(key: str) -> Any:
        return report.get(key, record.get(key))

    level = record.get("kind") == "mesh" or "model" in report or (folder is not None and (folder / "level.json").is_file())
    return Member(
        name=name, status=record.get("status", "made"), kind="mesh" if level else "image", folder=folder,
        source=record.get("source") or report.get("model" if level else "image"), title=report.get("title") or "",
        grade=pick("grade"), grade_name=pick("grade_name"), size=_size(report, record), colors=pick("colors"),
        recognisability=pick("recognisability"), speck_share=pick("speck_share"), fill_share=pick("fill_share"),
        line_solvable=pick("line_solvable"), warnings=tuple(pick("warnings") or ()),
        puzzle_file=report.get("puzzle_file"), error=record.get("error"), error_kind=record.get("error_kind"),
        duplicate_of=record.get("duplicate_of"), root=root)


def _lexists(path: Path) -> bool:
    """Whether there is an entry at ``path``: a FIFO or a broken link counts, so reading it says what is wrong."""
    return path.is_symlink() or path.exists()


def read_collection(folder: Union[str, Path]) -> Collection:
    """The collection in ``folder``: from ``collection.jsonl`` when present, else from its sub-folders' reports.

    A record whose folder has no report (a run still going, a folder
    removed) is kept as failed, saying so; sub-folders with a report that no
    record names are added after the records, by name.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(f"{folder}: not a folder (expected a collection folder or a selection file)")
    members, seen = [], set()
    log = folder / RECORDS
    records = _records(log, folder) if _lexists(log) else []
    for record in records:
        name = record.get("name")
        sub = folder / name if name else None
        if record["status"] == "made" and not (sub and _lexists(sub / "report.json")):
            record = dict(record, status="failed", error=f"{sub or 'no folder'}: no report.json", error_kind="input")
            sub = None
        report = _report(sub, folder) if sub and record["status"] == "made" else {}
        members.append(_member(name, sub, report, record, folder))
        seen.add(name)
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and p.name not in seen):
        if _lexists(sub / "report.json"):
            members.append(_member(sub.name, sub, _report(sub, folder), {}, folder))
    if not members:
        raise InputError(f"{folder}: no collection here (no {RECORDS} and no sub-folder with a report.json)")
    return Collection(folder, tuple(members), bool(records))


def read_selection(path: Union[str, Path]) -> tuple[Collection, list[Member]]:
    """The collection a selection file names and its chosen members, in the file's order.

    A relative ``collection`` path is taken from the selection file's folder:
    the gallery page writes ``"."``, the folder the file is saved in.
    """
    path = Path(path)
    data = _json(_text(read_inside(path, None), path), path, None)
    if not isinstance(data, dict) or not isinstance(data.get("collection"), str) or not isinstance(data.get("names"), list):
        raise FormatError('expected {"collection": PATH, "names": [NAME, ...]} (a selection file)', path=str(path), line=1)
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
    return path.is_dir() and (_lexists(path / RECORDS) or any(_lexists(p / "report.json") for p in path.iterdir()))


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
    if not _lexists(path):
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
