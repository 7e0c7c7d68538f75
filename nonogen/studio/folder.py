"""The one folder the studio reads and writes: names in it, never paths out of it.

The page names files by their plain name (``heart.non``); every name is
checked here before anything opens it: no separators, no ``..``, and the
real path (links followed) must lie directly in the folder, so a symlink in
the folder that points elsewhere is refused too. Writes go through
:func:`nonogen.files.write_file`, which never replaces a file without
``force`` (the page asks the author first).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Union

from ..errors import InputError
from ..files import write_file
from ..formats import SUFFIXES

__all__ = ["Folder", "PICTURE_SUFFIXES", "MODEL_SUFFIXES"]

PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".tif", ".tiff")
MODEL_SUFFIXES = (".stl", ".obj", ".ply", ".glb", ".gltf", ".off")
MAX_NAME = 200


class Folder:
    """The studio's folder: safe paths for names in it, its listing, and writes that never overwrite unasked."""

    def __init__(self, root: Union[str, Path]):
        root = Path(root)
        if not root.is_dir():
            raise InputError(f"{root}: not a folder")
        self.root = Path(os.path.realpath(root))

    def path(self, name: str) -> Path:
        """The path of ``name`` in the folder; InputError for anything that would reach outside it."""
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise InputError(f"file name: expected a name of 1 to {MAX_NAME} characters")
        if "/" in name or "\\" in name or "\0" in name or name in (".", "..") or name.startswith("."):
            raise InputError(f"{name}: expected a plain file name in the studio's folder (no folders, no hidden files)")
        path = self.root / name
        if Path(os.path.realpath(path)).parent != self.root:
            raise InputError(f"{name}: points outside the studio's folder")
        return path

    def read(self, name: str, limit: int) -> bytes:
        """The bytes of a file in the folder (at most ``limit``: a bigger file is refused)."""
        path = self.path(name)
        if not path.is_file():
            raise InputError(f"{name}: no such file in the studio's folder")
        if path.stat().st_size > limit:
            raise InputError(f"{name}: larger than the studio's limit of {limit // 1_000_000} MB")
        return path.read_bytes()

    def write(self, name: str, content: Union[str, bytes], overwrite: bool) -> Path:
        """Write ``name`` atomically; an existing file is replaced only with ``overwrite`` (OutputExistsError)."""
        return write_file(self.path(name), content, force=overwrite)

    def listing(self) -> list[dict[str, str]]:
        """The files the studio can open: puzzles, pictures and models, by name."""
        kinds = {**{s: "puzzle" for s in SUFFIXES}, **{s: "picture" for s in PICTURE_SUFFIXES},
                 **{s: "model" for s in MODEL_SUFFIXES}}
        entries = []
        for entry in sorted(os.scandir(self.root), key=lambda e: e.name):
            kind = kinds.get(Path(entry.name).suffix.lower())
            if kind and not entry.name.startswith(".") and entry.is_file():
                entries.append({"name": entry.name, "kind": kind})
        return entries
