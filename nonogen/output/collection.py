"""Collection folders and selection files read back, for what publishes them: the gallery, the book, the level pack.

A collection folder holds one sub-folder per source (what :func:`nonogen.save`
writes) and, when a many-source run made it, ``collection.jsonl``: one
record per source, failed ones included. Folders made by separate
``nonogen image`` / ``nonogen mesh`` calls have no such file; their
``report.json`` files say everything but the failures. A selection file
(written by the gallery page) is ``{"collection": PATH, "names": [...]}``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence, Union

from ..errors import FormatError, InputError
from ..make.many import RECORDS, SAFE_NAME, STATUSES

__all__ = ["Member", "Collection", "read_collection", "read_selection", "open_published",
           "in_grades", "grade_text", "by_grade", "is_collection", "is_selection", "warning_kind", "RECORDS"]

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
    """One source of a collection: what its record and its folder's report say about it."""

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


def _number(value: Any) -> Optional[float]:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _size(report: dict[str, Any], record: dict[str, Any]) -> tuple[int, ...]:
    size = report.get("size")
    if isinstance(size, list) and all(isinstance(s, int) for s in size):
        return tuple(size)
    sides = [report.get(k, record.get(k)) for k in ("width", "height", "depth")]
    return tuple(s for s in sides if isinstance(s, int))


def _member(name: Optional[str], folder: Optional[Path], report: dict[str, Any], record: dict[str, Any]) -> Member:
    """A member from its report (the made puzzle's own word) over its record (what the run saw)."""
    def pick(key: str) -> Any:
        return report.get(key, record.get(key))

    level = record.get("kind") == "mesh" or "model" in report or (folder is not None and (folder / "level.json").is_file())
    grade = pick("grade")
    warnings = pick("warnings") or []
    return Member(
        name=name, status=record.get("status", "made"), kind="mesh" if level else "image", folder=folder,
        source=record.get("source") or report.get("model" if level else "image"), title=str(report.get("title") or ""),
        grade=grade if isinstance(grade, int) and not isinstance(grade, bool) else None,
        grade_name=pick("grade_name") if isinstance(pick("grade_name"), str) else None, size=_size(report, record),
        colors=pick("colors") if isinstance(pick("colors"), int) else None,
        recognisability=_number(pick("recognisability")), speck_share=_number(pick("speck_share")),
        fill_share=_number(pick("fill_share")),
        line_solvable=pick("line_solvable") if isinstance(pick("line_solvable"), bool) else None,
        warnings=tuple(str(w) for w in warnings) if isinstance(warnings, list) else (),
        puzzle_file=report.get("puzzle_file"), error=record.get("error"), error_kind=record.get("error_kind"),
        duplicate_of=record.get("duplicate_of"))


def _report(folder: Path) -> dict[str, Any]:
    path = folder / "report.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise FormatError(f"not JSON: {exc.msg}", path=str(path), line=exc.lineno) from None
    if not isinstance(data, dict):
        raise FormatError("expected a JSON object (a report of nonogen image or mesh)", path=str(path), line=1)
    return data


def _records(path: Path) -> list[dict[str, Any]]:
    """The records of ``collection.jsonl``; a line that is not a record is a FormatError naming it."""
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise FormatError(f"not JSON: {exc.msg}", path=str(path), line=number) from None
        if not isinstance(record, dict) or record.get("status") not in STATUSES:
            raise FormatError('expected a record with "status" made, failed or duplicate', path=str(path), line=number)
        name = record.get("name")
        if name is not None and (not isinstance(name, str) or not SAFE_NAME.fullmatch(name)):
            raise FormatError(f'"name" {name!r}: expected a folder name (a-z, 0-9, - and _) or null',
                              path=str(path), line=number)
        records.append(record)
    return records


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
    records = _records(log) if log.is_file() else []
    for record in records:
        name = record.get("name")
        sub = folder / name if name else None
        if record["status"] == "made" and not (sub and (sub / "report.json").is_file()):
            record = dict(record, status="failed", error=f"{sub or 'no folder'}: no report.json", error_kind="input")
            sub = None
        members.append(_member(name, sub, _report(sub) if sub and record["status"] == "made" else {}, record))
        seen.add(name)
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and p.name not in seen):
        if (sub / "report.json").is_file():
            members.append(_member(sub.name, sub, _report(sub), {}))
    if not members:
        raise InputError(f"{folder}: no collection here (no {RECORDS} and no sub-folder with a report.json)")
    return Collection(folder, tuple(members), bool(records))


def read_selection(path: Union[str, Path]) -> tuple[Collection, list[Member]]:
    """The collection a selection file names and its chosen members, in the file's order.

    A relative ``collection`` path is taken from the selection file's folder.
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise FormatError(f"not JSON: {exc.msg}", path=str(path), line=exc.lineno) from None
    if not isinstance(data, dict) or not isinstance(data.get("collection"), str) or not isinstance(data.get("names"), list):
        raise FormatError('expected {"collection": PATH, "names": [NAME, ...]} (a selection file)', path=str(path), line=1)
    names = data["names"]
    if not names or not all(isinstance(n, str) for n in names):
        raise FormatError('"names": expected a list of one or more folder names', path=str(path), line=1)
    if len(set(names)) != len(names):
        raise FormatError('"names": a name is listed twice', path=str(path), line=1)
    where = Path(data["collection"])
    collection = read_collection(where if where.is_absolute() else path.parent / where)
    return collection, collection.named(names, str(path))


def is_collection(path: Union[str, Path]) -> bool:
    """Whether ``path`` is a collection folder: it has ``collection.jsonl`` or a sub-folder with a ``report.json``."""
    path = Path(path)
    return path.is_dir() and ((path / RECORDS).is_file() or any((p / "report.json").is_file() for p in path.iterdir()))


def is_selection(path: Union[str, Path]) -> bool:
    """Whether ``path`` is a selection file (a JSON object with "collection" and "names") rather than a puzzle."""
    path = Path(path)
    if path.suffix.lower() != ".json" or not path.is_file() or path.stat().st_size > 10_000_000:
        return False
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(data, dict) and "collection" in data and "names" in data and "format" not in data


def open_published(path: Union[str, Path]) -> tuple[Collection, list[Member]]:
    """A collection folder (all its made members) or a selection file (the chosen ones), for publishing."""
    path = Path(path)
    if path.is_dir():
        collection = read_collection(path)
        return collection, collection.made
    if not path.exists():
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
