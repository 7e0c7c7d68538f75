"""The record of a made puzzle: one line of a collection's ``collection.jsonl``, and the one reader of that file.

Written by :mod:`nonogen.make.many`; read back by ``--resume``, ``--csv``, the gallery, the book and the level
pack. So that all read the same thing, the fields (:data:`FIELDS`, the contract of docs/guides/collections.md),
what a report gives of them (:func:`summary`) and the reader (:func:`read_records`, through :mod:`nonogen.inside`)
live here once: a field added to the record is one entry of the table below.
"""
from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Union

from .errors import FormatError
from .inside import json_of, lines_inside, read_inside, text_of

__all__ = ["FIELDS", "OUTCOMES", "KINDS", "RECORDS", "SAFE_NAME", "NAME_CHARACTERS", "blank",
           "summary", "read_records", "read_report"]

RECORDS = "collection.jsonl"
"""The records file of a collection folder, one JSON object per source."""
OUTCOMES = ("made", "failed", "duplicate")
"""What became of a source, its record's ``status``, in the order summaries count them (not a proof's verdict)."""
KINDS = ("image", "mesh")
"""What a source is: a picture, made into a nonogram, or a model, made into a Picross 3D level."""
NAME_CHARACTERS = "a-z0-9_-"
SAFE_NAME = re.compile(f"[{NAME_CHARACTERS}]+")
"""What a source's folder name is made of; readers of a collection refuse any other name."""

Check = tuple[str, Callable[[Any], bool]]  # what a field is when not null: in words, and a test


def _whole(value: Any) -> bool:
    return type(value) is int and 0 <= value < 2**31


def _plain_name(value: Any) -> bool:
    """A file name of the member's own folder: no separator, no ``..``; a report naming any other path lies."""
    return (isinstance(value, str) and value not in ("", ".", "..") and not set(value) & set("/\\\0")
            and len(value) < 256)


_TEXT: Check = ("text", lambda v: isinstance(v, str))
_WHOLE: Check = ("a whole number", _whole)
_NUMBER: Check = ("a number", lambda v: (type(v) is float and math.isfinite(v)) or (type(v) is int and abs(v) < 2**53))
_FLAG: Check = ("true or false", lambda v: isinstance(v, bool))
_SENTENCES: Check = ("a list of sentences", lambda v: isinstance(v, list) and all(isinstance(w, str) for w in v))
_NAME: Check = ("a folder name (a-z, 0-9, - and _)", lambda v: isinstance(v, str) and bool(SAFE_NAME.fullmatch(v)))
_KIND: Check = (" or ".join(map(repr, KINDS)), lambda v: v in KINDS)
_FILE_NAME: Check = ("a file name in the puzzle's own folder", _plain_name)
_SIZE: Check = ("a list of whole numbers", lambda v: isinstance(v, list) and len(v) <= 3 and all(map(_whole, v)))
_OUTCOME: Check = (", ".join(map(repr, OUTCOMES[:-1])) + f" or {OUTCOMES[-1]!r}", lambda v: v in OUTCOMES)

_RECORD: tuple[tuple[str, Check, bool], ...] = (  # field, what it is when not null, whether a picture's report gives it
    ("source", _TEXT, False), ("name", _NAME, False), ("kind", _KIND, False), ("status", _OUTCOME, False),
    ("width", _WHOLE, True), ("height", _WHOLE, True), ("depth", _WHOLE, False), ("colors", _WHOLE, True),
    ("grade", _WHOLE, True), ("grade_name", _TEXT, True), ("grade_wanted", _WHOLE, False),
    ("line_solvable", _FLAG, True), ("recognisability", _NUMBER, True), ("speck_share", _NUMBER, True),
    ("fill_share", _NUMBER, True), ("warnings", _SENTENCES, False), ("seconds", _NUMBER, False),
    ("clue_hash", _TEXT, False), ("duplicate_of", _TEXT, False), ("error", _TEXT, False), ("error_kind", _TEXT, False),
)
FIELDS: dict[str, Check] = {name: check for name, check, _ in _RECORD}
"""Every field of a record, in the order records (and the CSV) list them, with what it is when not null."""
REPORTED = tuple(name for name, _, given in _RECORD if given)
"""The fields a picture's ``report.json`` gives under the same name (:func:`summary`)."""
_REPORT: dict[str, Check] = {
    **{name: FIELDS[name] for name in REPORTED}, "warnings": _SENTENCES, "voxels": _WHOLE, "puzzle_file": _FILE_NAME,
    **dict.fromkeys(("image", "model", "title", "status"), _TEXT), "size": _SIZE}
"""What the readers take from a report: the record's fields it gives and its own (the verdict, a level's box)."""


def blank(source: str, name: Optional[str], kind: str, status: str, grade_wanted: Optional[int]) -> dict[str, Any]:
    """A record with every field null but these, and no warnings; a picture's has no ``depth``."""
    rec: dict[str, Any] = dict.fromkeys(key for key in FIELDS if key != "depth" or kind == "mesh")
    rec.update(source=source, name=name, kind=kind, status=status, grade_wanted=grade_wanted, warnings=[])
    return rec


def summary(report: Mapping[str, Any], level: bool) -> dict[str, Any]:
    """The fields of a record that a made puzzle's report gives (those it holds): what is written, and read back.

    A picture's gives :data:`REPORTED` as they are; a level's gives its box (``size``) and cubes (``voxels``).
    A verdict other than ``unique`` is a warning.

    >>> summary({"status": "multiple", "size": [2, 3, 4], "voxels": 6, "grade": None}, level=True)
    {'grade': None, 'width': 2, 'height': 3, 'depth': 4, 'fill_share': 0.25, 'warnings': ['the level is multiple']}
    """
    found = {key: report[key] for key in REPORTED if key in report}
    size = report.get("size") if level else None
    if size:
        found.update(zip(("width", "height", "depth"), size, strict=False))
        if report.get("voxels") is not None and math.prod(size):
            found["fill_share"] = round(report["voxels"] / math.prod(size), 4)
    if "status" in report or "warnings" in report:
        status = report.get("status")
        verdict = [] if status in (None, "unique") else [f"the {'level' if level else 'puzzle'} is {status}"]
        found["warnings"] = list(report.get("warnings") or ()) + verdict
    return found


def _checked(data: dict[str, Any], checks: Mapping[str, Check], path: Path, line: Callable[[str], int],
             required: tuple[str, ...] = ()) -> dict[str, Any]:
    """``data`` when each field of ``checks`` is of its type (or null, unless ``required``), else a FormatError."""
    for key, (expected, fits) in checks.items():
        value = data.get(key)
        if (value is not None or key in required) and not fits(value):
            shown = json.dumps(value)
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            raise FormatError(f'"{key}": expected {expected}, not {shown}', path=str(path), line=line(key))
    return data


def read_records(folder: Union[str, Path]) -> list[dict[str, Any]]:
    """The records of the collection in ``folder``, the latest of each source; none without ``collection.jsonl``.

    Read as every file of a collection is (:func:`~nonogen.inside.lines_inside`: a regular file inside the folder),
    a line at a time, so a collection of millions of sources reads in the memory of its records. A last line
    without its newline, half-written by a killed run, is left out (the resumed run cuts it off); a source recorded
    again (``--resume`` made it again) takes its later record, in the later place; a line that is not a record of
    :data:`FIELDS` with a ``source`` and a ``status`` is a FormatError.
    """
    path = Path(folder) / RECORDS
    if not os.path.lexists(path):
        return []
    records: dict[str, dict[str, Any]] = {}
    for number, line in lines_inside(path, folder):
        rec = json_of(text_of(line, path, number), path, number)
        if not isinstance(rec, dict):
            raise FormatError("expected a record (a JSON object)", path=str(path), line=number)
        _checked(rec, FIELDS, path, lambda _: number, required=("source", "status"))  # noqa: B023 - called at once
        records.pop(rec["source"], None)
        records[rec["source"]] = rec
    return list(records.values())


def _line_of(text: str, key: str) -> int:
    """The line of ``text`` (a report) that holds ``key``: a top-level key of the indented report first, else 1."""
    quoted = re.escape(json.dumps(key))
    found = re.search(rf"^ ?{quoted}\s*:", text, re.M) or re.search(rf"{quoted}\s*:", text)
    return text.count("\n", 0, found.start()) + 1 if found else 1


def read_report(folder: Path, root: Path) -> dict[str, Any]:
    """The ``report.json`` of a member's folder, read as :func:`read_records` reads, each field readers take typed."""
    path = folder / "report.json"
    text = text_of(read_inside(path, root), path)
    data = json_of(text, path)
    if not isinstance(data, dict):
        raise FormatError("expected a JSON object (a report of nonogen image or mesh)", path=str(path), line=1)
    return _checked(data, _REPORT, path, lambda key: _line_of(text, key))
