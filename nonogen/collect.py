"""What every batch shares: finding its input files (files, folders, globs) and reading back an earlier run's records.

``nonogen verify`` (:mod:`nonogen.batch`) and making a collection
(:mod:`nonogen.make.many`) both take many inputs and both resume from the
records a killed run left; the rules for both live here once, so the two
batches find the same files in the same order and resume the same way.
"""
from __future__ import annotations

import glob
from pathlib import Path

from .errors import InputError

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Collection, Iterable, Iterator, Union
    PathLike = Union[str, Path]

__all__ = ["found_files", "is_pattern", "read_records"]


def is_pattern(text: str) -> bool:
    """Whether ``text`` is a glob pattern (``*``, ``?`` or ``[``) rather than the name of one existing file.

    A file whose name really holds a ``*`` is taken as itself.

    >>> is_pattern("photos/*.jpg"), is_pattern("cat.png")
    (True, False)
    """
    return glob.has_magic(text) and not Path(text).exists()


def found_files(paths: Iterable[PathLike], suffixes: Collection[str]) -> Iterator[tuple[Path, bool]]:
    """``(file, named)`` for each file named directly (``named``) and each one a folder or glob offers.

    A folder offers, recursively, every file whose lower-case suffix is in
    ``suffixes``; a glob (``'photos/*.jpg'``, ``'**'`` reaches into
    sub-folders) offers what it matches, folders searched as above. A glob
    that matches nothing is passed on as a name, so the caller reports it as
    a missing file. Entries are sorted, so a run and its resumed run meet the
    files in the same order.
    """
    for item in paths:
        text = str(item)
        if is_pattern(text):
            matches = sorted(glob.glob(text, recursive=True))
            if not matches:
                yield Path(text), True
            for match in matches:
                yield from _below(Path(match), suffixes, named=False)
        else:
            yield from _below(Path(text), suffixes, named=True)


def _below(path: Path, suffixes: Collection[str], named: bool) -> Iterator[tuple[Path, bool]]:
    if not path.is_dir():
        if named or path.suffix.lower() in suffixes:
            yield path, named
        return
    for child in sorted(p for p in path.rglob("*") if not p.is_dir()):
        if child.suffix.lower() in suffixes:
            yield child, False


def read_records(path: PathLike, key: str, what: str) -> list[dict]:
    """The records of an earlier run (a missing file is a first run); a torn last line is left out.

    Each record is a JSON object with ``key`` and ``status``; ``what`` names
    the command that writes them, for the error about a file that holds
    something else. A ``key`` seen twice keeps its first record: two runs
    that once shared the file (before it was locked) wrote some records twice.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    import json  # here: only a resumed run reads records

    lines = text.split("\n")
    records: dict[str, dict] = {}
    for number, line in enumerate(lines[:-1], 1):  # the last piece has no newline: complete lines only
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            rec = None
        if not isinstance(rec, dict) or key not in rec or "status" not in rec:
            raise InputError(f"{path}:{number}: not a record of {what}; name another file to resume")
        records.setdefault(str(rec[key]), rec)
    return list(records.values())
