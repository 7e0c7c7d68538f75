"""What every batch shares: finding its input files (files, folders, globs) and reading back an earlier run's records.

``nonogen verify`` (:mod:`nonogen.batch`) and making a collection
(:mod:`nonogen.make.many`) both take many inputs and both resume from the
records a killed run left; the rules for both live here once, so the two
batches find the same files in the same order and resume the same way.
"""
from __future__ import annotations

import os

from .errors import InputError

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path
    from typing import Collection, Iterable, Iterator, Union
    PathLike = Union[str, Path]

__all__ = ["found_files", "found_names", "is_pattern", "read_records", "path_text", "suffix_of"]


def path_text(text: str) -> str:
    """``str(Path(text))`` on POSIX, without pathlib (4 ms of a verify): '.' parts and extra slashes dropped.

    Records name files this way, so ``./a.non`` and ``a//a.non`` are both ``a.non`` and ``a/a.non``.

    >>> path_text("./a//b/"), path_text(""), path_text("//x/./y"), path_text("///x")
    ('a/b', '.', '//x/y', '/x')
    """
    if "//" not in text and "/./" not in text and not text.startswith("./") and not text.endswith(("/", "/.")) \
            and text not in ("", "."):
        return text  # no empty or "." part to drop: the name as it is
    root = "//" if text[:2] == "//" and text[2:3] != "/" else "/" if text[:1] == "/" else ""
    return root + "/".join(part for part in text.split("/") if part not in ("", ".")) or "."


def suffix_of(text: str) -> str:
    """``Path(text).suffix``: the last part's ending from its last dot, if the dot is neither first nor last.

    >>> suffix_of("a/b.tar.gz"), suffix_of(".bashrc"), suffix_of("a."), suffix_of("a.b/")
    ('.gz', '', '', '.b')
    """
    name = path_text(text).rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def is_pattern(text: str) -> bool:
    """Whether ``text`` is a glob pattern (``*``, ``?`` or ``[``) rather than the name of one existing file.

    A file whose name really holds a ``*`` is taken as itself.

    >>> is_pattern("photos/*.jpg"), is_pattern("cat.png")
    (True, False)
    """
    return any(char in text for char in "*?[") and not os.path.exists(text)  # glob.has_magic, without glob


def found_files(paths: Iterable[PathLike], suffixes: Collection[str]) -> Iterator[tuple[Path, bool]]:
    """:func:`found_names` as ``Path`` objects."""
    from pathlib import Path  # here: verifying takes the names as text, and pathlib costs it 4 ms

    return ((Path(name), named) for name, named in found_names(paths, suffixes))


def found_names(paths: Iterable[PathLike], suffixes: Collection[str]) -> Iterator[tuple[str, bool]]:
    """``(file, named)`` for each file named directly (``named``) and each one a folder or glob offers.

    A folder offers, recursively, every file whose lower-case suffix is in
    ``suffixes``; a glob (``'photos/*.jpg'``, ``'**'`` reaches into
    sub-folders) offers what it matches, folders searched as above. A glob
    that matches nothing is passed on as a name, so the caller reports it as
    a missing file. Entries are sorted, so a run and its resumed run meet the
    files in the same order. Names are spelled as ``str(Path(name))``, and a folder's entries come in
    the order and with the rules of ``Path.rglob("*")``: hidden ones too, linked folders not entered.
    """
    for item in paths:
        text = str(item)
        if is_pattern(text):
            import glob  # here: most runs name files and folders, and glob loads fnmatch

            matches = sorted(glob.glob(text, recursive=True))
            if not matches:
                yield path_text(text), True
            for match in matches:
                yield from _below(path_text(match), suffixes, named=False)
        else:
            yield from _below(path_text(text), suffixes, named=True)


def _below(path: str, suffixes: Collection[str], named: bool) -> Iterator[tuple[str, bool]]:
    if not os.path.isdir(path):
        if named or suffix_of(path).lower() in suffixes:
            yield path, named
        return
    found = []
    for folder, _, names in os.walk(path):  # linked folders are listed among the folders and not entered
        found += (path_text(os.path.join(folder, name)) for name in names)
    for child in sorted(found, key=_parts):
        if suffix_of(child).lower() in suffixes:
            yield child, False


def _parts(name: str) -> list[str]:
    return name.split("/")  # how Path objects sort: part by part, so "a/b/c" comes before "a/b-c"


def read_records(path: PathLike, key: str, what: str) -> list[dict]:
    """The records of an earlier run (a missing file is a first run); a torn last line is left out.

    Each record is a JSON object with ``key`` and ``status``; ``what`` names
    the command that writes them, for the error about a file that holds
    something else. A ``key`` seen twice keeps its first record: two runs
    that once shared the file (before it was locked) wrote some records twice.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
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
