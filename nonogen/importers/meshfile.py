"""Reading 3D models (STL, OBJ, PLY, GLB/GLTF, OFF) with trimesh, refusing hostile files before they cost much.

A model becomes one checked ``trimesh.Trimesh``: size caps on the file and
on what a glTF names beside it, a cap on triangles, no flat or non-finite
geometry. :mod:`nonogen.importers.mesh` turns it into cubes.
"""
from __future__ import annotations

import contextlib
import io
import json
import logging
import stat
import struct
import warnings
from pathlib import Path
from typing import Iterator, Optional
from urllib.parse import unquote

import numpy as np
import trimesh
from PIL import Image

from ..errors import FileLimitError, FormatError, InputError, LimitError

__all__ = ["MESH_SUFFIXES", "MAX_MODEL_BYTES", "MAX_FACES", "load_mesh", "checked_mesh", "default_up", "quiet"]

MESH_SUFFIXES = (".stl", ".obj", ".ply", ".glb", ".gltf", ".off")
Y_UP_SUFFIXES = (".ply", ".glb", ".gltf", ".obj")
MAX_MODEL_BYTES = 8 * 1024 * 1024
"""Largest model file read: trimesh needs about 30 times a file's size while loading it."""
MAX_FACES = 200_000
"""Most triangles a model may have: at 40 cubes per side, more detail cannot show, only cost time."""


def load_mesh(path: str | Path, *, notes: Optional[list[str]] = None):
    """Read a model with trimesh as one mesh (scenes flattened); bad files raise one-line errors.

    Nothing trimesh says while reading reaches the terminal (:func:`quiet`). What
    the user should still hear, a file the model names that is not there (its
    texture: the level loses the colours), is added to ``notes`` as one sentence.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    suffix = path.suffix.lower()
    if suffix not in MESH_SUFFIXES:
        raise InputError(f"{path}: unsupported model type {suffix or '(none)'}; use one of {', '.join(MESH_SUFFIXES)}")
    size = path.stat().st_size
    if size == 0:
        raise InputError(f"{path}: empty file")
    if size > MAX_MODEL_BYTES:
        raise FileLimitError(f"model file is {size / 2**20:.1f} MB; nonogen reads models up to "
                             f"{MAX_MODEL_BYTES >> 20} MB", path=str(path))
    if suffix in (".gltf", ".glb"):
        _check_external_files(path, size)
    mesh = _read(path, suffix, notes if notes is not None else [])
    if not isinstance(mesh, trimesh.Trimesh) or len(getattr(mesh, "faces", ())) == 0:
        raise InputError(f"{path}: the model has no faces (empty scene or point cloud)")
    if len(mesh.faces) > MAX_FACES:
        raise FileLimitError(f"the model has {len(mesh.faces):,} triangles; nonogen reads up to {MAX_FACES:,}",
                             path=str(path))
    vertices, faces = np.asarray(mesh.vertices, dtype=float), np.asarray(mesh.faces)
    if vertices.ndim != 2 or vertices.shape[1] != 3 or faces.ndim != 2 or faces.shape[1] != 3:
        raise InputError(f"{path}: the model is not made of 3D triangles "
                         f"(vertices {vertices.shape}, faces {faces.shape})")
    if faces.min() < 0 or faces.max() >= len(vertices):
        raise InputError(f"{path}: the model's faces name vertices it does not have")
    if not np.isfinite(vertices).all():
        raise InputError(f"{path}: the model has vertices that are not finite numbers")
    _check_volume(vertices, path)
    return mesh


MAX_EXTERNAL_FILES = 64
"""Most buffers and images a glTF model may name outside itself (real models name a handful)."""


def _check_external_files(path: Path, own_size: int) -> None:
    """Count the files a glTF names (buffers, images) before trimesh reads any: they share the size cap.

    A 400-byte ``.gltf`` can name a buffer of gigabytes, a device or a FIFO;
    the cap on the model file alone would not see it.
    """
    uris = [item.get("uri") for key in ("buffers", "images") for item in _gltf_json(path).get(key) or ()
            if isinstance(item, dict)]
    external = [u for u in uris if isinstance(u, str) and not u.startswith("data:")]
    if len(external) > MAX_EXTERNAL_FILES:
        raise FileLimitError(f"the model names {len(external)} external files; nonogen reads up to "
                             f"{MAX_EXTERNAL_FILES}", path=str(path))
    total = own_size
    for uri in external:
        other = path.parent / unquote(uri)
        try:
            info = other.stat()
        except OSError:
            continue  # a missing file is trimesh's error to report
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{path}: names {other}: not a regular file; not read")
        total += info.st_size
        if total > MAX_MODEL_BYTES:
            raise FileLimitError(f"the model with {other.name} ({info.st_size / 2**20:.1f} MB) comes to "
                                 f"{total / 2**20:.1f} MB; nonogen reads models up to {MAX_MODEL_BYTES >> 20} MB "
                                 "with the files they name", path=str(path))


def _gltf_json(path: Path) -> dict:
    """The JSON of a ``.gltf``, or of a ``.glb``'s first chunk; ``{}`` when it is not there (trimesh then says why)."""
    data = path.read_bytes()
    if path.suffix.lower() == ".glb":
        if len(data) < 20 or data[:4] != b"glTF" or data[16:20] != b"JSON":
            return {}
        length = struct.unpack_from("<I", data, 12)[0]
        data = data[20 : 20 + length]
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return {}
    return doc if isinstance(doc, dict) else {}


def _read(path: Path, suffix: str, notes: list[str]):
    """trimesh's mesh of ``path``; whatever it raises on garbage becomes one FormatError naming the file.

    Its numeric warnings on broken data are silenced (the checks after
    loading say what is wrong) and Pillow's decompression-bomb warning for
    textures becomes an error.
    """
    heard: list[logging.LogRecord] = []
    try:
        with quiet(heard), np.errstate(all="ignore"):
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            mesh = trimesh.load(str(path), force="mesh")
    except Exception as exc:  # trimesh raises many types for garbage input
        text = str(exc).strip()
        detail = text.splitlines()[0][:80] if text and not isinstance(exc, ImportError) else "unreadable data"
        raise FormatError(f"not a valid {suffix[1:].upper()} model ({detail})", path=str(path)) from None
    notes.extend(_missing_files(heard))
    return mesh


@contextlib.contextmanager
def quiet(heard: Optional[list[logging.LogRecord]] = None) -> Iterator[None]:
    """Keep whatever trimesh (and Pillow and numpy under it) says off the terminal, while reading or voxelizing.

    trimesh reports a texture it cannot find by logging a warning with its
    traceback, which Python's last-resort handler printed on stderr in the
    middle of a run, though the model was made. Here its loggers hand their
    records (down to debug: an OBJ's missing texture is a debug record) to
    ``heard`` instead, warnings are ignored, and anything printed goes to a
    buffer: one home for the library's noise, so the CLI prints only
    nonogen's own lines. Loggers are restored afterwards. (The redirection
    is process-wide for the moment of the load; no nonogen thread prints then.)
    """
    catcher = _Catch([] if heard is None else heard)
    loggers = [logging.getLogger(name) for name in ("trimesh", "PIL")]
    saved = [(lg.level, lg.propagate) for lg in loggers]
    for lg in loggers:
        lg.addHandler(catcher)
        lg.propagate = False
    loggers[0].setLevel(logging.DEBUG)
    sink = io.StringIO()
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            warnings.simplefilter("ignore")
            yield
    finally:
        for lg, (level, propagate) in zip(loggers, saved, strict=True):
            lg.removeHandler(catcher)
            lg.setLevel(level)
            lg.propagate = propagate


class _Catch(logging.Handler):
    """A log handler that keeps records instead of printing them."""

    def __init__(self, heard: list[logging.LogRecord]):
        super().__init__(logging.DEBUG)
        self.heard = heard

    def emit(self, record: logging.LogRecord) -> None:
        self.heard.append(record)


def _missing_files(heard: list[logging.LogRecord]) -> list[str]:
    """One sentence per file the reader looked for and did not find (what a user can act on); the rest is noise.

    >>> record = logging.LogRecord("trimesh", logging.DEBUG, "", 0, "failed to load image", None,
    ...                            (FileNotFoundError, FileNotFoundError("skin.png"), None))
    >>> _missing_files([record, record])
    ['the model names skin.png, which is not there: the level is made without it']
    """
    found = [r.exc_info[1] for r in heard if r.exc_info and isinstance(r.exc_info[1], FileNotFoundError)]
    names = [Path(str(exc.filename or exc)).name for exc in found]
    return [f"the model names {name}, which is not there: the level is made without it"
            for name in dict.fromkeys(names) if name]


def _check_volume(vertices: np.ndarray, path: Path) -> None:
    """Refuse flat models, measured after scaling so that 1e308 coordinates cannot overflow."""
    scale = float(np.abs(vertices).max())
    extents = np.ptp(vertices / scale, axis=0) if scale > 0 else np.zeros(3)
    if extents.max() <= 0 or extents.min() <= extents.max() * 1e-6:
        shown = np.round(extents * scale, 6).tolist() if scale < 1e300 else "beyond floating point"
        raise InputError(f"{path}: the model is flat (zero volume, extents {shown})")


def default_up(path: str | Path) -> str:
    """The usual up axis of a file type: ``y`` for PLY/GLB/GLTF/OBJ, ``z`` for STL and OFF.

    >>> default_up("bunny.ply"), default_up("part.STL")
    ('y', 'z')
    """
    return "y" if Path(path).suffix.lower() in Y_UP_SUFFIXES else "z"


def checked_mesh(mesh):
    """A mesh given as an object: it must be a ``trimesh.Trimesh`` with faces, within :data:`MAX_FACES`."""
    if not isinstance(mesh, trimesh.Trimesh):
        raise InputError(f"expected a model file or a trimesh.Trimesh, not {type(mesh).__name__}")
    if len(mesh.faces) == 0:
        raise InputError("the model has no faces")
    if len(mesh.faces) > MAX_FACES:
        raise LimitError(f"the model has {len(mesh.faces):,} triangles; nonogen reads up to {MAX_FACES:,}")
    return mesh
