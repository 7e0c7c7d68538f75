"""Writing files safely, the one home: atomic replacement and output folders nonogen owns.

A failed or interrupted run must never leave a half-written file where a
good one was, and replacing an output folder must never touch files nonogen
did not write. Every file nonogen writes goes through :func:`write_file`,
:func:`write_folder` or :class:`LineFile` (reports written line by line).
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Union

from .errors import InputError, OutputExistsError

__all__ = ["write_file", "write_folder", "check_folder", "check_file", "json_text", "LineFile", "OWN_NAMES"]

Content = Union[str, bytes]

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


def write_file(path: Union[str, Path], content: Content, force: bool = False) -> Path:
    """Write ``content`` to ``path`` through a temporary file in the same folder, then rename it into place.

    The rename is atomic, so readers see the old file or the new one, never
    a part. Without ``force`` an existing file is an :class:`OutputExistsError`.
    """
    path = Path(path)
    check_file(path, force)
    data = content.encode("utf-8") if isinstance(content, str) else content
    fd, tmp = _temporary(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        _remove(tmp)
        raise
    return path


def check_file(path: Path, force: bool) -> None:
    """Refuse a folder, and an existing file unless ``force``; make the folder the file goes into.

    A folder is an :class:`InputError`, not an :class:`OutputExistsError`:
    no ``force`` replaces a folder with a file.
    """
    if path.is_dir():
        raise InputError(f"{path}: is a folder; name a file to write")
    if path.exists() and not force:
        raise OutputExistsError(f"{path}: file exists")
    path.parent.mkdir(parents=True, exist_ok=True)


def _temporary(path: Path) -> tuple[int, Path]:
    """An open temporary file beside ``path``, with the permissions ``open()`` would give a new file."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.chmod(tmp, _CREATE_MODE)  # mkstemp makes 0600
    return fd, Path(tmp)


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

    Everything is written into a temporary folder beside it first; only when
    all files are complete are they renamed into place. With ``force``, files
    of :data:`OWN_NAMES` left from an earlier run are removed; nothing else
    in the folder is touched.
    """
    folder = check_folder(folder, force, inputs)
    unknown = sorted(set(files) - OWN_NAMES)
    if unknown:
        raise ValueError(f"not an output file name of nonogen: {', '.join(unknown)}")
    folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".nonogen-", dir=folder))
    try:
        for name, content in files.items():
            write_file(staging / name, content)
        for name in OWN_NAMES - set(files):
            _remove(folder / name)
        for name in files:
            os.replace(staging / name, folder / name)
    finally:
        for leftover in staging.iterdir():
            _remove(leftover)
        staging.rmdir()
    return folder


class LineFile:
    """A report written one whole line at a time, so a reader never meets half a line.

    Each :meth:`write` is one ``os.write`` of a complete line, so an
    interrupt lands between lines, never inside one. By default the lines go
    to a temporary file beside ``path`` that :meth:`close` renames into place
    (also after an interrupt: what was written is complete). With ``append``
    the lines go straight onto the end of ``path`` (creating it), after a
    torn last line left by a killed run is cut off; that is how a resumed
    batch keeps every earlier line.
    """

    def __init__(self, path: Union[str, Path], force: bool = False, append: bool = False):
        self.path = Path(path)
        check_file(self.path, force or append)
        self.tmp: Optional[Path] = None
        if append:
            _cut_torn_line(self.path)
            self.fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)  # umask applies
        else:
            self.fd, self.tmp = _temporary(self.path)

    def write(self, line: str) -> None:
        """Append one line (``line`` without its newline)."""
        data = (line + "\n").encode("utf-8")
        while data:
            data = data[os.write(self.fd, data):]

    def close(self) -> None:
        """Flush to disk and, unless appending, rename the finished file into place."""
        if self.fd < 0:
            return
        try:
            os.fsync(self.fd)
        finally:
            os.close(self.fd)
            self.fd = -1
        if self.tmp is not None:
            os.replace(self.tmp, self.path)

    def __enter__(self) -> "LineFile":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _cut_torn_line(path: Path) -> None:
    """Drop a last line without its newline (a run killed mid-write), keeping every whole line."""
    try:
        with open(path, "rb+") as handle:
            size = handle.seek(0, os.SEEK_END)
            if size == 0:
                return
            handle.seek(size - 1)
            if handle.read(1) == b"\n":
                return
            keep = 0
            for start in range(size, 0, -65536):
                handle.seek(max(start - 65536, 0))
                block = handle.read(min(65536, start))
                at = block.rfind(b"\n")
                if at >= 0:
                    keep = max(start - 65536, 0) + at + 1
                    break
            handle.truncate(keep)
    except FileNotFoundError:
        pass


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def json_text(data: Any) -> str:
    """A report as file text: indented JSON of plain types, one newline at the end."""
    from .solve.result import to_jsonable

    return json.dumps(to_jsonable(data), indent=1) + "\n"
