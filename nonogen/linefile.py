"""Reports written one whole line at a time: a run's records, kept readable through kills and resumes.

A batch or a collection writes one line per puzzle as it goes, so a killed run keeps every line it finished
and ``--resume`` carries on after them. The file is built by :mod:`nonogen.files`' atomic writer, or, when
resuming, appended to under a lock.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import InputError
from .files import PendingFile, check_entry, check_file, named_error, refuse_link

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Optional, Union

__all__ = ["LineFile"]


class LineFile:
    """A report written one whole line at a time, so a reader never meets half a line.

    Each :meth:`write` is one ``os.write`` of a complete line, so an
    interrupt lands between lines, never inside one. By default the lines go
    to an unnamed file beside ``path`` that :meth:`close` puts into place
    (unless told not to keep it, or after a failed write, which may have left
    half a line), or straight into a pipe.
    With ``append`` the lines go onto the end of ``path`` (creating it), after
    a torn last line left by a killed run is cut off; that is how a resumed
    batch keeps every earlier line. An appended file is locked for the
    length of the run: a second run on it is refused, so no record is written
    twice. ``follow=False`` is :func:`write_file`'s: a link at ``path`` is never written through.
    """

    def __init__(self, path: Union[str, Path], force: bool = False, append: bool = False, *, follow: bool = True):
        self.path = Path(path)
        self.out: Optional[PendingFile] = None
        if append:
            self.fd = _open_locked(self.path, follow)
        else:
            if not follow:
                check_entry(self.path, force)
            self.out = PendingFile(self.path, force, follow)
            self.fd = self.out.fd

    def write(self, line: str) -> None:
        """Append one line (``line`` without its newline); a line that fails is taken back whole.

        A full disk (or a file size limit) lets part of a line in before the
        write fails: an appended file is cut back to where the line began,
        so the records left are whole ones and a resumed run makes that
        source again. (A file being built is dropped after a failed write.)
        """
        data = (line + "\n").encode("utf-8", "backslashreplace")  # a non-UTF-8 file name: \udcff, as JSON spells it
        if self.out is not None:
            self.out.write(data)
            return
        start = os.fstat(self.fd).st_size  # the file is locked: nobody else appends
        try:
            while data:
                data = data[os.write(self.fd, data):]
        except OSError as exc:
            _cut_back(self.fd, start)
            raise named_error(exc, self.path) from None

    def close(self, keep: bool = True) -> None:
        """Flush to disk and, unless appending, put the finished file into place (``keep=False``: drop it)."""
        if self.out is not None:
            try:
                if keep and not self.out.failed:
                    self.out.commit()
            finally:
                self.out.discard()
                self.fd = -1
            return
        if self.fd < 0:
            return
        try:
            os.fsync(self.fd)
        except OSError as exc:
            raise named_error(exc, self.path) from None
        finally:
            _LOCKED.discard(self.fd)
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> "LineFile":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_LOCKED: set[int] = set()
"""The descriptors holding a lock on a file being appended to (``--resume``), in this process."""


def _drop_locks_in_child() -> None:
    """A forked worker closes its copies of the parent's locked files.

    A lock taken with ``flock`` belongs to the open file, which a fork
    shares: a worker still running after its parent was killed would keep
    the ``--resume`` file locked, and the rerun the user starts would be
    refused. The parent's own copy keeps the lock while it lives.
    """
    for fd in _LOCKED:
        try:
            os.close(fd)
        except OSError:
            pass
    _LOCKED.clear()


os.register_at_fork(after_in_child=_drop_locks_in_child)


def _open_locked(path: Path, follow: bool) -> int:
    """``path`` opened to append, locked against a second writer, with a torn last line cut off."""
    import fcntl  # POSIX only: the lock is taken where the platform has one

    if follow:
        check_file(path, force=True)
    else:
        refuse_link(path)
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        raise named_error(exc, path) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError(f"{path}: not a regular file; records are appended to a file that can be read back")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InputError(f"{path}: another nonogen run is writing this file; "
                             "wait for it to finish or name another file") from None
        os.set_blocking(fd, True)
        _cut_torn_line(fd)
    except BaseException:
        os.close(fd)
        raise
    _LOCKED.add(fd)
    return fd


def _cut_back(fd: int, size: int) -> None:
    """Truncate to ``size`` (which frees space, so it works on a full disk); failing that, the next append cuts it."""
    try:
        os.ftruncate(fd, size)
    except OSError:
        pass


def _cut_torn_line(fd: int) -> None:
    """Drop a last line without its newline (a run killed mid-write), keeping every whole line."""
    size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return
    keep = 0
    for start in range(size, 0, -65536):
        block = os.pread(fd, min(65536, start), max(start - 65536, 0))
        at = block.rfind(b"\n")
        if at >= 0:
            keep = max(start - 65536, 0) + at + 1
            break
    os.ftruncate(fd, keep)
