"""What every batch shares: finding its input files (files, folders, globs), saying why one cannot be read, and
the records a killed run left.

``nonogen verify`` (:mod:`nonogen.batch`) and making a collection
(:mod:`nonogen.make.many`) both take many inputs and both resume from the
records a killed run left; the rules for both live here once, so the two
batches find the same files in the same order, word a file they cannot read
the same way and leave out a half-written record the same way (a
collection's records are read by :func:`nonogen.record.read_records`).
"""
from __future__ import annotations

import errno
import os
import stat

from .errors import InputError

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path
    from typing import Collection, Iterable, Iterator, Optional, Union
    PathLike = Union[str, Path]

__all__ = ["found_files", "found_names", "is_pattern", "read_records", "record_lines", "path_text", "suffix_of",
           "shown", "one_line", "unreadable", "special_kind"]


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
    found: list[str] = []
    for folder, _, names in os.walk(path):  # linked folders are listed among the folders and not entered
        found += (path_text(os.path.join(folder, name)) for name in names)
    for child in sorted(found, key=_parts):
        if suffix_of(child).lower() in suffixes:
            yield child, False


def _parts(name: str) -> list[str]:
    return name.split("/")  # how Path objects sort: part by part, so "a/b/c" comes before "a/b-c"


# --- why a file cannot be read ----------------------------------------------------------------------


def shown(name: str) -> str:
    """``name`` as a message spells it: as it is when every character prints, else quoted with Python's escapes.

    A newline in a file name split a one-line reason in two (and the rest of
    the line was lost); an escape sequence would drive the terminal. The quoted
    form is one line and names the file unambiguously; records keep the exact
    name in their own field.

    >>> shown("a/cat.png"), shown("a/bad\\nname.png"), shown("a/ça va.png")
    ('a/cat.png', "'a/bad\\\\nname.png'", 'a/ça va.png')
    """
    return name if name.isprintable() and name[:1] not in ("'", '"') else repr(name)


def one_line(message: str, name: str) -> str:
    """``message`` on one line, naming ``name`` as :func:`shown` spells it (prefixed when the message does not name it).

    >>> one_line("a/b\\nc.png: not a picture", "a/b\\nc.png")
    "'a/b\\\\nc.png': not a picture"
    """
    spelled, base = shown(name), os.path.basename(name)
    if name in message:
        message = message.replace(name, spelled)
    elif base and base in message:
        message = message.replace(base, shown(base))
    elif spelled not in message:
        message = f"{spelled}: {message}"
    return (message.strip().splitlines() or [message])[0]


_SPECIAL = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
            (stat.S_ISBLK, "a device"))


def special_kind(mode: int) -> str:
    """What a file of ``mode``, neither regular nor a folder, is called in every message: ``a named pipe``..."""
    return next((word for test, word in _SPECIAL if test(mode)), "a special file")


def unreadable(path: str) -> Optional[tuple[str, bool]]:
    """Why the file ``path`` cannot be read, and whether it is a special file; None for a regular file or a folder.

    The one wording of verify's records and a collection's: ``not a regular
    file (a named pipe)`` (True: a FIFO would wait for a writer for ever, a
    device may never end, so neither is opened), ``a symbolic link loop``,
    ``a broken symbolic link``, ``no such file``, or the system's reason.
    A folder is left to the reader, which says what it expected instead.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return ("a broken symbolic link" if os.path.islink(path) else "no such file"), False
    except OSError as exc:
        return ("a symbolic link loop" if exc.errno == errno.ELOOP else exc.strerror or str(exc)), False
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return f"not a regular file ({special_kind(mode)})", True


# --- records of an earlier run -----------------------------------------------------------------------


def record_lines(text: str) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` of each whole, non-blank line of a records file: every reader's rule for a torn line.

    A last line without its newline is a record a killed run (or one on a
    full disk, before nonogen cut such lines back) left half-written: it is
    left out, never read as a broken record; the run that resumes cuts it off.

    >>> list(record_lines('{"a": 1}\\n\\n{"a": 2}\\n{"a"'))
    [(1, '{"a": 1}'), (3, '{"a": 2}')]
    """
    for number, line in enumerate(text.split("\n")[:-1], 1):  # the last piece has no newline: whole lines only
        if line.strip():
            yield number, line


def read_records(path: PathLike, key: str, what: str) -> list[dict]:
    """The records of an earlier ``verify`` run (a missing file is a first run); a torn last line is left out.

    Each record is a JSON object with ``key`` and ``status``, both text;
    ``what`` names the command that writes them, for the error about a file
    that holds something else. A ``key`` seen again replaces its earlier
    record (two runs that once shared the file, before it was locked, wrote
    the same record twice).
    """
    why = unreadable(os.fspath(path))
    if why is not None and why[1]:  # a FIFO would wait for a writer for ever
        raise InputError(f"{shown(os.fspath(path))}: {why[0]}; records are read back from a regular file")
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    import json  # here: only a resumed run reads records

    records: dict[str, dict] = {}
    for number, line in record_lines(text):
        try:
            rec = json.loads(line)
        except ValueError:  # a 5000-digit number is a ValueError too, not only broken JSON
            rec = None
        if not isinstance(rec, dict) or not isinstance(rec.get(key), str) or not isinstance(rec.get("status"), str):
            raise InputError(f"{path}:{number}: not a record of {what}; name another file to resume")
        records.pop(rec[key], None)
        records[rec[key]] = rec
    return list(records.values())
