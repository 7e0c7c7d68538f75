"""Writing files safely, the one home: atomic replacement and output folders nonogen owns.

A failed or interrupted run must never leave a half-written file where a
good one was, and replacing an output folder must never touch files nonogen
did not write. Every file nonogen writes goes through :func:`write_file`,
:func:`write_folder` or :class:`~nonogen.linefile.LineFile` (reports written line by line).
"""
from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path

from .errors import InputError, OutputExistsError
from .plain import to_jsonable

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Iterable, Mapping, Optional, Union
    Content = Union[str, bytes]

__all__ = ["write_file", "write_folder", "check_folder", "check_file", "check_entry", "refuse_link", "json_text",
           "OWN_NAMES"]

OWN_NAMES = frozenset({
    "puzzle.non", "puzzle.cnon", "puzzle.xml", "puzzle.json", "puzzle.svg", "puzzle.png", "puzzle.pdf",
    "puzzle.html", "solution.svg", "solution.png", "solution.pdf", "level.json", "level.html", "level.glb",
    "report.json", "level.pack", "level.svg", "level.png", "solution.txt",
})
"""File names nonogen writes into an output folder: the only files ``force`` may replace or remove."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_CREATE_MODE = 0o666 & ~_umask()


def write_file(path: Union[str, Path], content: Content, force: bool = False, *, follow: bool = True) -> Path:
    """Write ``content`` to ``path``: a regular file is replaced atomically, a pipe or terminal is written in place.

    A regular file is written beside its target under no name at all
    (``O_TMPFILE``) and renamed into place when complete, so readers see the
    old file or the new one, never a part, and a killed run leaves nothing
    behind. A symlink is followed: the file it points at is replaced, the
    link stays. A FIFO or character device (``/dev/null``, ``/dev/stdout``,
    ``>(cmd)``) has no content to replace, so it is written in place without
    ``force``. Without ``force`` an existing file is an :class:`OutputExistsError`.
    A replaced file keeps its permission bits (a ``0600`` file stays
    owner-only) and, where allowed, its owner and group. With ``follow=False``
    ``path`` is an entry of a folder nonogen owns (a collection, a gallery):
    a link planted there is replaced itself, never what it points at.
    """
    path = Path(path)
    data = content.encode("utf-8") if isinstance(content, str) else content
    if not follow:
        check_entry(path, force)
    out = PendingFile(path, force, follow)
    try:
        out.write(data)
        out.commit()
    finally:
        out.discard()
    return path


def check_file(path: Path, force: bool) -> bool:
    """Refuse what cannot be written; True when ``path`` is a stream (FIFO, character device) written in place.

    A folder, block device or socket is an :class:`InputError` (no
    ``force`` replaces it); an existing regular file needs ``force``. The
    folder a new file goes into is made.
    """
    try:
        mode = os.stat(path).st_mode  # follows a symlink: what it points at is what gets written
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise named_error(exc, path) from None
    if mode is not None and stat.S_ISREG(mode) and _names_an_open_file(path):
        return True  # /dev/stdout redirected to a file: the shell's file, written where the shell left it
    if mode is not None and not stat.S_ISREG(mode):
        if stat.S_ISDIR(mode):
            raise InputError(f"{path}: is a folder; name a file to write")
        if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode):
            return True
        kind = "block device" if stat.S_ISBLK(mode) else "socket" if stat.S_ISSOCK(mode) else "special file"
        raise InputError(f"{path}: is a {kind}; nonogen writes files, pipes and terminals only")
    if mode is not None and not force:
        raise OutputExistsError(f"{path}: file exists")
    real = Path(os.path.realpath(path))
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise named_error(exc, real.parent) from None
    return False


def check_entry(path: Path, force: bool) -> None:
    """Refuse to replace the entry ``path`` of a folder nonogen owns unless it may: without ``force`` anything there
    (a link included) is an :class:`OutputExistsError`; a folder there is an :class:`InputError` either way."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise named_error(exc, path) from None
    if stat.S_ISDIR(mode):
        raise InputError(f"{path}: is a folder; nonogen writes a file of that name here")
    if not force:
        raise OutputExistsError(f"{path}: file exists")


def refuse_link(path: Union[str, Path]) -> Path:
    """``path`` when it is not a symbolic link, else an :class:`InputError`.

    A folder nonogen owns (a collection's puzzle folders, a gallery's thumbnails) is written into by name;
    a link planted in its place would send those writes, and ``force``'s removals, to another folder.
    """
    path = Path(path)
    if path.is_symlink():
        raise InputError(f"{path}: is a symbolic link; nonogen writes into its own folders only (remove the link)")
    return path


def named_error(exc: OSError, path: Union[str, Path]) -> OSError:
    """``exc`` naming ``path``: ``os.write`` and ``fsync`` errors name no file, and the user needs to know which."""
    if exc.filename is not None:
        return exc
    return type(exc)(exc.errno, exc.strerror or str(exc), str(path))


class PendingFile:
    """One file being written: in place for a stream, else unnamed beside the target until :meth:`commit`.

    ``O_TMPFILE`` gives a file with no name, so a run killed by SIGKILL or a power cut leaves nothing
    behind, but for the instant between naming it and renaming it into place (:func:`write_folder` sweeps
    such names); where the file system lacks it, a hidden temporary name is used instead and removed on failure.
    """

    def __init__(self, path: Path, force: bool, follow: bool = True):
        self.path = path
        if follow:
            self.stream = check_file(path, force)
            self.target = path if self.stream else Path(os.path.realpath(path))
        else:  # an entry of an output folder nonogen owns: the entry itself is replaced, never what it points at
            self.stream, self.target = False, path
        self.tmp: Optional[Path] = None
        self.done = False
        try:
            self.fd = _open_stream(path) if self.stream else self._open_unnamed()
            if not self.stream:  # mkstemp's 0600 becomes the umask's mode, or the replaced file's
                _keep_mode(self.fd, self.target, _CREATE_MODE if self.tmp is not None else None)
        except OSError as exc:
            self.discard()
            raise named_error(exc, path) from None

    def _open_unnamed(self) -> int:
        folder = self.target.parent
        if _O_TMPFILE:
            try:
                return os.open(folder, _O_TMPFILE | os.O_WRONLY, 0o666)  # the umask applies, as for open()
            except OSError as exc:
                if exc.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
                    raise
        import tempfile  # here: reading and verifying never need it

        fd, tmp = tempfile.mkstemp(prefix=f".{self.target.name}.", suffix=".tmp", dir=folder)
        self.tmp = Path(tmp)
        return fd

    def write(self, data: bytes) -> None:
        """Write all of ``data`` (one ``os.write`` for a line, so an interrupt lands between lines)."""
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self.fd, view):]
        except OSError as exc:
            self.failed = True
            raise named_error(exc, self.path) from None

    failed = False

    def commit(self) -> None:
        """Flush to disk and put the file in place (a stream is only flushed)."""
        try:
            if not self.stream:
                os.fsync(self.fd)
                if self.tmp is None:
                    self.tmp = _link_unnamed(self.fd, self.target)
                os.replace(self.tmp, self.target)
                self.tmp = None
        except OSError as exc:
            raise named_error(exc, self.path) from None
        self.done = True

    fd = -1

    def discard(self) -> None:
        """Close; an uncommitted file is dropped (an unnamed one vanishes with its descriptor)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if self.tmp is not None:
            _remove(self.tmp)
            self.tmp = None


_O_TMPFILE = getattr(os, "O_TMPFILE", 0) if os.path.isdir("/proc/self/fd") else 0


def _keep_mode(fd: int, target: Path, default: Optional[int]) -> None:
    """Give the new file ``fd`` the permission bits, owner and group of the regular file ``target`` it replaces.

    Replacing is a rename, so without this a ``0600`` file would come back with the umask's ``0644``,
    readable by every local user. Owner and group are copied where this process may (root, or a group it
    is in). With no file to replace, ``default`` is applied (None: the mode the file was made with).
    """
    try:
        old = os.lstat(target)
    except FileNotFoundError:
        old = None
    if old is None or not stat.S_ISREG(old.st_mode):
        if default is not None:
            os.fchmod(fd, default)
        return
    new = os.fstat(fd)
    if (new.st_uid, new.st_gid) != (old.st_uid, old.st_gid):
        for uid in (old.st_uid, -1):
            try:
                os.fchown(fd, uid, old.st_gid)
                break
            except PermissionError:
                continue
    os.fchmod(fd, stat.S_IMODE(old.st_mode) & 0o777)  # after chown, which may clear bits


def _link_unnamed(fd: int, target: Path) -> Path:
    """Give the unnamed file ``fd`` a hidden name beside ``target`` (to rename over it: linking cannot replace)."""
    fds = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for _ in range(100):
            name = target.parent / f".{target.name}.{os.urandom(4).hex()}.tmp"
            try:  # a dir fd makes this linkat(AT_SYMLINK_FOLLOW): the open file itself is linked, not the magic link
                os.link(str(fd), name, src_dir_fd=fds, follow_symlinks=True)
                return name
            except FileExistsError:
                continue
    finally:
        os.close(fds)
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(target.parent))


def _names_an_open_file(path: Path) -> bool:
    """Whether ``path`` leads through ``/dev/stdout``, ``/dev/fd/N`` or ``/proc/PID/fd/N`` to an open file.

    Such a file belongs to whoever opened it (``> out.txt``, ``>> log``):
    replacing it by a rename would cut the shell's descriptor off from it.
    """
    seen = str(path)
    for _ in range(8):
        if re.match(r"/(proc/(self|\d+)|dev)/fd/\d+$|/dev/std(out|err)$", os.path.abspath(seen)):
            return True
        if not os.path.islink(seen):
            return False
        seen = os.path.join(os.path.dirname(seen), os.readlink(seen))
    return False


def _open_stream(path: Path) -> int:
    """Open a FIFO, character device or shell-opened file for writing in place (appending, so ``>>`` keeps
    what it had); a FIFO nobody reads is refused, not waited on."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ENXIO and stat.S_ISFIFO(os.stat(path).st_mode):
            raise InputError(f"{path}: a named pipe with no reader; start the reader first") from None
        raise
    os.set_blocking(fd, True)
    return fd


def check_folder(folder: Union[str, Path], force: bool, inputs: Iterable[Union[str, Path]] = ()) -> Path:
    """Refuse an output folder before any work is done: an existing non-empty one needs ``force``.

    Even with ``force``, the current folder (or one above it) and a folder
    holding an input are refused: replacing nonogen's files there is never
    what was meant.
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{folder}: exists and is not a folder; name a folder to write into")
    if not folder.is_dir() or not any(folder.iterdir()):
        return folder
    if not force:
        raise OutputExistsError(f"{folder}: folder exists and is not empty")
    here, target = Path.cwd().resolve(), folder.resolve()
    if target == here or target in here.parents:
        raise InputError(f"{folder}: refusing to write into the current folder or one above it; name a new folder")
    for source in inputs:
        if Path(source).resolve().parent == target:
            raise InputError(f"{folder}: the folder holds the input {Path(source).name}; name another folder")
    return folder


def write_folder(
    folder: Union[str, Path], files: Mapping[str, Content], force: bool = False, inputs: Iterable[Union[str, Path]] = ()
) -> Path:
    """Fill ``folder`` with ``files`` (name -> text or bytes), all or nothing.

    Every file is written unnamed first (:class:`PendingFile`); only when
    all are complete are they put into place. The hidden names a killed run
    left between naming one of them and renaming it are removed first
    (:func:`_left_by_a_killed_run`); with ``force``, files of :data:`OWN_NAMES`
    left from an earlier run are removed too; nothing else in the folder is touched.
    """
    folder = check_folder(folder, force, inputs)
    unknown = sorted(set(files) - OWN_NAMES)
    if unknown:
        raise ValueError(f"not an output file name of nonogen: {', '.join(unknown)}")
    made = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True)
    for left in _left_by_a_killed_run(folder):
        _remove(left)
    pending: list[PendingFile] = []
    try:
        for name, content in files.items():
            pending.append(PendingFile(folder / name, force=True, follow=False))
            pending[-1].write(content.encode("utf-8") if isinstance(content, str) else content)
        for name in OWN_NAMES - set(files):
            _remove(folder / name)
        for out in pending:
            out.commit()
    finally:
        for out in pending:
            out.discard()
        if made and not any(folder.iterdir()):
            folder.rmdir()  # a failed run leaves no trace, not even an empty folder
    return folder


_PENDING_NAME = re.compile(r"\.(?P<name>[a-z0-9.]+)\.[a-z0-9_]{8}\.tmp")
"""A pending file's hidden name beside its target: ``.puzzle.non.fc8ac20c.tmp`` (:func:`_link_unnamed`, or
``tempfile.mkstemp`` where unnamed files are not supported)."""


def _left_by_a_killed_run(folder: Path) -> list[Path]:
    """The hidden names of nonogen's own files in ``folder`` that a run killed while committing them left behind.

    Committing links the finished file to a hidden name and renames that over the target: the two cannot be one
    step, and a collection run killed between them (a clean-clone test run, under load) left
    ``.puzzle.non.fc8ac20c.tmp`` in a folder its resumed run made again.
    """
    out = []
    for entry in os.scandir(folder):
        match = _PENDING_NAME.fullmatch(entry.name)
        if match and match["name"] in OWN_NAMES and entry.is_file(follow_symlinks=False):
            out.append(Path(entry.path))
    return out


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def json_text(data: Any) -> str:
    """A report as file text: indented JSON of plain types, one newline at the end."""
    import json  # here: most callers write other text, and json is not free to load

    return json.dumps(to_jsonable(data), indent=1) + "\n"
