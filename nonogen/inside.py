"""Reading the files of a folder that may come from anyone (a collection), the one door: each looked at before it
is read.

Publishers (and ``--resume``) read and copy files of a collection someone else may
have put together. A symbolic link there may lead to a private file, a named pipe
blocks whoever opens it for reading until a writer comes (forever), and a huge
file read whole takes the machine's memory. So a file is resolved first and must
lie inside the collection: a link that stays inside is followed (it shows nothing
from elsewhere, and what is published is a copy of its bytes, never the link), one
leading out is refused. It is then opened without waiting, looked at with ``fstat``
(the file opened is the file checked), read only up to its limit, and decoded
(:func:`text_of`, :func:`json_of`).
"""
from __future__ import annotations

import json
import os
import re
import stat
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Optional, Union

from .collect import special_kind
from .errors import FileLimitError, FormatError, InputError
from .formats import MAX_FILE_BYTES

__all__ = ["read_inside", "lines_inside", "check_inside", "text_of", "json_of", "MAX_MEMBER_BYTES", "MAX_LINE_BYTES"]

MAX_MEMBER_BYTES = 64 << 20
"""Largest picture or model a publisher reads or copies: a level.glb of 40 cubes a side is about 6 MB."""

MAX_LINE_BYTES = 1 << 20
"""Longest line of a records file read (a record is a few hundred bytes; a line of a megabyte is no record)."""

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
"""Open without waiting (a pipe with no writer), without taking a terminal, and not through a link swapped in."""


def _check(path: Path, info: os.stat_result, limit: Optional[int]) -> None:
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else special_kind(info.st_mode)
        raise InputError(f"{path}: is {kind}, not a regular file; nonogen reads regular files only")
    if limit is not None and info.st_size > limit:
        raise FileLimitError(f"is {info.st_size / 2**20:,.1f} MB, more than the {limit >> 20} MB nonogen reads of "
                             "such a file", path=str(path))


def _resolved(path: Path, root: Optional[Union[str, Path]]) -> str:
    """``path`` with every link resolved; one that leaves ``root`` (when given) is an :class:`InputError`."""
    real = os.path.realpath(path)
    if root is not None:
        top = os.path.realpath(root)
        if os.path.commonpath([real, top]) != top:
            raise InputError(f"{path}: leads out of the collection (through a symbolic link); nonogen reads "
                             "and publishes only files inside it")
    return real


@contextmanager
def _opened(path: Path, root: Optional[Union[str, Path]], limit: Optional[int]) -> Iterator[tuple[int, int]]:
    """``path`` open for reading, with its size, once it is known to be a regular file inside ``root`` within
    ``limit``."""
    real = _resolved(path, root)
    try:
        _check(path, os.stat(real), limit)  # a device or pipe is not even opened
        fd = os.open(real, _FLAGS)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        _check(path, info, limit)
        yield fd, info.st_size
    finally:
        os.close(fd)


def check_inside(path: Union[str, Path], root: Optional[Union[str, Path]], limit: Optional[int] = None) -> Path:
    """``path`` when :func:`read_inside` would read it (nothing is read): for a page that points at the file."""
    path = Path(path)
    with _opened(path, root, limit):
        return path


def read_inside(path: Union[str, Path], root: Optional[Union[str, Path]], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path``, a regular file inside the folder ``root`` (``None``: anywhere) of at most ``limit`` bytes.

    Anything else is a one-line error naming ``path``: a link leading out of
    ``root``, a missing file, a named pipe, device or folder
    (:class:`~nonogen.errors.InputError`), a file over ``limit``
    (:class:`~nonogen.errors.FileLimitError`, seen from its size before a
    byte is read, and again if it grew meanwhile).
    """
    path = Path(path)
    with _opened(path, root, limit) as (fd, size):
        with open(fd, "rb", closefd=False) as handle:
            data = handle.read(size + 1)  # one byte more than the size: a file that grew is seen
            if len(data) > size:
                data += handle.read(limit + 1 - len(data))
    if len(data) > limit:
        raise FileLimitError(f"grew past the {limit >> 20} MB nonogen reads of such a file while read", path=str(path))
    return data


def lines_inside(path: Union[str, Path], root: Optional[Union[str, Path]],
                 max_line: int = MAX_LINE_BYTES) -> Iterator[tuple[int, bytes]]:
    """``(line number, line)`` of each whole, non-blank line of ``path``, checked as :func:`read_inside` checks it.

    Read a line at a time, so a records file of millions of lines takes no more memory than its longest line;
    that one is bounded instead (:class:`~nonogen.errors.FileLimitError` naming it). A last line without its
    newline is a record a killed run left half-written: it is left out (the rule of
    :func:`~nonogen.collect.record_lines`), never read as a broken record.
    """
    path = Path(path)
    with _opened(path, root, None) as (fd, _):
        with open(fd, "rb", closefd=False) as handle:
            for number, line in enumerate(iter(lambda: handle.readline(max_line + 1), b""), 1):
                if not line.endswith(b"\n"):
                    if len(line) > max_line:
                        raise FileLimitError(f"a line longer than {max_line >> 20} MB", path=str(path), line=number)
                    return  # the torn tail
                if line.strip():
                    yield number, line


def text_of(data: bytes, path: Path, line: Optional[int] = None) -> str:
    """``data``, the bytes of ``path`` (its line ``line`` when given), as UTF-8 text; anything else is a FormatError at
    the line of the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = line or data.count(b"\n", 0, exc.start) + 1
        raise FormatError("not UTF-8 text", path=str(path), line=where) from None


def json_of(text: str, path: Path, line: Optional[int] = None) -> Any:
    """The JSON value ``text`` of ``path`` (its line ``line`` when given); every failure a FormatError naming the
    line."""
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
