"""The one folder the studio reads and writes: names in it, never paths out of it.

The page names files by their plain name (``heart.non``); every name is
checked here before anything opens it: no separators, no ``..``, and the
real path (links followed) must lie directly in the folder, so a symlink in
the folder that points elsewhere is refused too; only regular files are
read. Writes (in a worker, :mod:`.filework`) go through
:func:`nonogen.files.write_file`, which never replaces a file without
``force`` (the page asks the author first).
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Optional, Union

from ..errors import InputError
from ..formats import SUFFIXES
from ..importers import MODEL_SUFFIXES, PICTURE_SUFFIXES

__all__ = ["Folder", "PICTURE_SUFFIXES", "MODEL_SUFFIXES"]

MAX_NAME = 200


class Folder:
    """The studio's folder: safe paths for names in it, and its listing."""

    def __init__(self, root: Union[str, Path]):
        root = Path(root)
        if not root.is_dir():
            raise InputError(f"{root}: not a folder")
        self.root = Path(os.path.realpath(root))

    def path(self, name: object) -> Path:
        """The path of ``name`` in the folder; InputError for anything that would reach outside it.

        Names are file-system names: one that is not UTF-8 reaches the page as
        a lone surrogate (``\\udcff``) and comes back as one, naming the same
        file; a surrogate no file name can hold is refused.
        """
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise InputError(f"file name: expected a name of 1 to {MAX_NAME} characters")
        try:
            os.fsencode(name)
        except UnicodeError:
            raise InputError(f"{name.encode('utf-8', 'backslashreplace').decode()}: not a file name "
                             "(it holds a lone surrogate)") from None
        if "/" in name or "\\" in name or "\0" in name or name in (".", "..") or name.startswith("."):
            raise InputError(f"{name}: expected a plain file name in the studio's folder (no folders, no hidden files)")
        path = self.root / name
        if Path(os.path.realpath(path)).parent != self.root:
            raise InputError(f"{name}: points outside the studio's folder")
        return path

    def file(self, name: object, limit: Optional[int] = None) -> Path:
        """The path of ``name``, a regular file in the folder (at most ``limit`` bytes); InputError otherwise.

        The file is opened without waiting (``O_NONBLOCK``), so a FIFO or a
        device named like a puzzle is refused instead of hanging whoever reads it.
        """
        path = self.path(name)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
        except FileNotFoundError:
            raise InputError(f"{name}: no such file in the studio's folder") from None
        try:
            info = os.fstat(fd)
        finally:
            os.close(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{name}: not a regular file")
        if limit is not None and info.st_size > limit:
            raise InputError(f"{name}: larger than the studio's limit of {limit / 1e6:g} MB")
        return path

    def listing(self) -> list[dict[str, str]]:
        """The regular files the studio can open (puzzles, pictures, models, PDF pages to scan) by name; entries that
        cannot be looked at (a symlink loop, a file gone meanwhile, no permission) are left out, not an error."""
        kinds = {**{s: "puzzle" for s in SUFFIXES}, **{s: "picture" for s in PICTURE_SUFFIXES},
                 **{s: "model" for s in MODEL_SUFFIXES}, ".pdf": "page"}
        entries = []
        with os.scandir(self.root) as found:
            for entry in found:
                kind = kinds.get(os.path.splitext(entry.name)[1].lower())
                if kind is None or entry.name.startswith("."):
                    continue
                try:
                    regular = entry.is_file()
                except OSError:
                    continue
                if regular:
                    entries.append({"name": entry.name, "kind": kind})
        return sorted(entries, key=lambda e: e["name"])
