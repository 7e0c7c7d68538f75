"""Reading the files of a folder that may come from anyone (a collection), the one door: each looked at before it is read.

Publishers read and copy files of a collection someone else may have put
together. A symbolic link there may lead to a private file, a named pipe
blocks whoever opens it for reading until a writer comes (forever), and a
huge file read whole takes the machine's memory. So a file is resolved first
and must lie inside the collection: a link that stays inside is followed
(it shows nothing from elsewhere, and what is published is a copy of its
bytes, never the link), one leading out is refused. It is then opened
without waiting, looked at with ``fstat`` (the file opened is the file
checked) and read only up to its limit.
"""
from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional, Union

from ..errors import FileLimitError, InputError
from ..formats import MAX_FILE_BYTES

__all__ = ["read_inside", "check_inside", "MAX_MEMBER_BYTES"]

MAX_MEMBER_BYTES = 64 << 20
"""Largest picture or model a publisher reads or copies: a level.glb of 40 cubes a side is about 6 MB."""

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
"""Open without waiting (a pipe with no writer), without taking a terminal, and not through a link swapped in."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a socket" if stat.S_ISSOCK(mode) else "a special file"


def _check(path: Path, info: os.stat_result, limit: Optional[int]) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{path}: is {_kind(info.st_mode)}, not a regular file; nonogen reads regular files only")
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
    """``path`` open for reading, with its size, once it is known to be a regular file inside ``root`` within ``limit``."""
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
