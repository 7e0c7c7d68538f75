"""Every puzzle file format nonogen reads and writes, behind one small registry.

Each format is a module with pure ``loads(text)`` / ``dumps(puzzle)``
functions (``loads_all`` / ``dumps_all`` when a file can hold many puzzles),
``dropped(puzzle)`` listing what the format cannot hold, and ``looks_like(text)``
for content sniffing. This module maps names and suffixes to those modules
and does the file I/O, so readers stay testable on plain strings.

Hostile files are part of the contract: every reader checks shape, types and
the limits of ``_common`` (2000 cells a side, 9-digit numbers, 2000 blocks a
line, 254 colours, 10,000 puzzles and 16 MB a file; 1,000,000 cubes for a 3D
level) while reading, before anything big is built, and every failure is a
:class:`FormatError` (``FileLimitError`` for limits) that the registry turns
into one line ``path:line: what was expected``. The two JSON formats are
checked against ``schema/nonogen.schema.json`` first.

>>> p = loads("2\\n2\\n1\\n1\\n1\\n1\\n", "counts")
>>> loads(dumps(p, "non"), "non").same_clues(p)
True
"""
from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from types import ModuleType

from ..errors import FileLimitError, FormatError, UnknownFormatError
from ..collect import path_text, suffix_of
from ..model import Puzzle
from ._common import MAX_FILE_BYTES, clean_puzzle

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path
    from typing import Iterator, Optional, Union
    from ..model3d import Puzzle3D
    AnyPuzzle = Union[Puzzle, "Puzzle3D"]

__all__ = ["FORMATS", "FORMATS_3D", "SUFFIXES", "load", "load_all", "loads", "loads_all", "members", "read_members",
           "dump", "dump_all", "dumps", "dumps_all", "dropped", "format_for", "sniff", "writable"]


class _Formats(Mapping):
    """Format name -> module, each module imported when first asked for.

    A command that reads one ``.non`` file should not pay for the XML and
    JSON-schema readers (a third of the start-up of ``nonogen verify``).
    """

    def __init__(self, modules: dict[str, str]):
        self._modules = modules
        self._loaded: dict[str, ModuleType] = {}  # import_module takes the import lock even for a module it has

    def __getitem__(self, name: str) -> ModuleType:
        found = self._loaded.get(name)
        if found is None:
            module, _, attribute = self._modules[name].partition(":")
            loaded = importlib.import_module(f"{__name__}.{module}")
            found = self._loaded[name] = getattr(loaded, attribute) if attribute else loaded
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)


FORMATS: Mapping[str, ModuleType] = _Formats({
    "nonogen": "nonogen_json",
    "nonogen-3d": "nonogen3d",
    "non": "non",
    "cnon": "cnon",
    "webpbn": "webpbn",
    "nin": "nin",
    "g": "olsak",
    "taai": "taai",
    "taai-solution": "taai:solutions",
    "counts": "counts",
    "rowscols": "rowscols",
    "bracket": "bracket",
    "picross3d-nathsou": "picross3d_nathsou",
    "picross3d-ytakata": "picross3d_ytakata",
    "char-grid": "grid",
})
"""Format name -> module: the names users give to choose a format."""

SUFFIXES: dict[str, Optional[str]] = {
    ".non": "non",
    ".nonpack": "non",
    ".cnon": "cnon",
    ".xml": "webpbn",
    ".pbn": "webpbn",
    ".nin": "nin",
    ".g": "g",
    ".json": None,  # nonogen, nonogen-3d, rows/cols or nathsou/Picross3D JSON: decided by content
    ".txt": None,  # counts, TAAI, bracket, ytakata69 Picross 3D text or a char-grid picture: decided by content
}
"""File suffix -> format name; ``None`` means the suffix is shared and the content decides."""

# Sniffing order: the most specific signatures first.
_SNIFF_ORDER = ("nonogen", "nonogen-3d", "picross3d-nathsou", "picross3d-ytakata", "rowscols", "webpbn",
                "taai-solution", "taai", "non", "cnon", "g", "bracket", "nin", "counts", "char-grid")  # a picture: last

# What a format becomes when a file with a shared suffix is written.
_WRITE_DEFAULT = {".json": "nonogen", ".txt": "counts"}


def sniff(text: str) -> str:
    """The format name ``text`` looks like, or FormatError if none fits.

    >>> sniff('{"rows": [[1]], "cols": [[1]]}'), sniff("width 1\\nheight 1\\nrows\\n1\\ncolumns\\n1\\n")
    ('rowscols', 'non')
    """
    from .sniff3d import SNIFFERS  # here: a file whose suffix names its format is never sniffed

    for name in _SNIFF_ORDER:  # the 3D formats' signatures are read without loading their readers (numpy)
        if (SNIFFERS.get(name) or FORMATS[name].looks_like)(text):
            return name
    raise UnknownFormatError("unrecognised puzzle format", line=1)


def _module(name: str) -> ModuleType:
    try:
        return FORMATS[name]
    except KeyError:
        known = ", ".join(FORMATS)
        raise FormatError(f"unknown format {name!r} (known: {known})") from None


def format_for(path: Union[str, Path], text: Optional[str] = None, like: Optional[str] = None) -> str:
    """The format of ``path``: from its suffix, else from ``text`` (its content) when given.

    For writing (no ``text``), a shared suffix (``.json``, ``.txt``) keeps the
    format ``like`` when that format uses the suffix, so TAAI stays TAAI and
    a 3D level stays ``nonogen-3d``.
    """
    suffix = suffix_of(os.fspath(path)).lower()
    name = SUFFIXES.get(suffix)
    if name is not None:
        return name
    if text is not None:
        return sniff(text)
    if like and suffix in getattr(FORMATS.get(like), "SUFFIXES", ()) and writable(like):
        return like
    if suffix in _WRITE_DEFAULT:
        return _WRITE_DEFAULT[suffix]
    raise UnknownFormatError(f"cannot tell the format from the suffix {suffix or '(none)'!r}")


def read_text(path: Union[str, Path]) -> str:
    """A puzzle file's text: UTF-8, falling back to Windows-1252 for old files; binary and empty files refused.

    Some real webpbn exports carry Latin-1 titles, so a strict UTF-8 reader
    would reject puzzles people actually have; control bytes still mark binary junk.
    """
    name = path_text(os.fspath(path))  # spelled as str(Path(path)), without pathlib
    try:
        with open(name, "rb") as handle:  # a folder is refused by open's own check, without a stat of its own
            data = _read_some(handle)
    except IsADirectoryError:
        raise FormatError("is a folder, expected a puzzle file", path=name) from None
    except FileNotFoundError:
        raise FormatError("no such file", path=name) from None
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror}", path=name) from None
    return decode_text(data, name)


def _read_some(handle) -> bytes:
    """The file's bytes, at most ``MAX_FILE_BYTES + 1`` of them (one more than the limit, so too long is seen).

    A read asks for as many bytes as the file holds (and one more, to notice one that grew): asking for
    the limit made Python set 16 MB aside for each file, a third of the time reading a small one took.
    A size of 0 (a pipe, a file of /proc) or over the limit reads up to the limit as before.
    """
    size = os.fstat(handle.fileno()).st_size
    if not 0 < size < MAX_FILE_BYTES:
        return handle.read(MAX_FILE_BYTES + 1)
    data = handle.read(size + 1)
    return data + handle.read(MAX_FILE_BYTES - size) if len(data) > size else data


_BINARY_BYTES = (b"\x00", b"\x01", b"\x02", b"\x03", b"\x04", b"\x05", b"\x06", b"\x07", b"\x08", b"\x0e", b"\x1a",
                 b"\x1b", b"\x7f")
"""Control bytes no puzzle text has: one of them marks binary junk."""


def decode_text(data: bytes, path: str) -> str:
    """Puzzle text from the bytes read of ``path`` (a file or ``<stdin>``), at most ``MAX_FILE_BYTES + 1`` of them.

    Too long, empty and binary input is refused the same way whatever it came from. Bytes that are not
    UTF-8 are read as Windows-1252 into a :class:`NotUtf8Text`, which a reader may refuse (the char-grid does).
    """
    if len(data) > MAX_FILE_BYTES:
        raise FileLimitError(f"is larger than {MAX_FILE_BYTES >> 20} MB, the most nonogen reads", path=path)
    if not data or data.isspace():  # data.strip() copied the whole file to say so
        raise FormatError("is empty", path=path)
    if any(b in data for b in _BINARY_BYTES):
        raise FormatError("is not text (binary data)", path=path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = exc.start
    try:
        text = NotUtf8Text(data.decode("cp1252"))
    except UnicodeDecodeError:
        text = NotUtf8Text(data.decode("latin-1"))  # cp1252 leaves five bytes undefined; latin-1 decodes anything
    head = data[:bad]
    text.bad_byte = (head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1, data[bad])
    return text


class NotUtf8Text(str):
    """Text of a file that is not UTF-8, decoded as Windows-1252 (:func:`decode_text`), knowing where UTF-8 failed.

    Readers take it as any text (an old webpbn export's Latin-1 title reads fine), but the char-grid,
    where every character is a cell, refuses it: there a stray byte made three cells of each emoji.

    >>> text = decode_text("⬛\\n".encode() + b"\\xff\\n", "grid.txt")
    >>> text.bad_byte, text == "â¬›\\nÿ\\n"
    ((2, 255), True)
    """

    bad_byte: tuple[int, int]
    """``(line, value)`` of the first byte that is not UTF-8; ``\\n``, ``\\r\\n`` and ``\\r`` each end a line."""


def loads_all(text: str, format: str) -> list[AnyPuzzle]:
    """Every puzzle in ``text`` read as ``format``."""
    module = _module(format)
    if not text.strip():
        raise FormatError("empty input", line=1)
    try:
        puzzles = list(module.loads_all(text)) if hasattr(module, "loads_all") else [module.loads(text)]
    except RecursionError:  # a last guard: every reader walks its input without deep recursion
        raise FormatError("nested too deeply", line=1) from None
    return [clean_puzzle(p) for p in puzzles]  # every reader's titles and names: writable in every format


def members(text: str, format: str) -> list[tuple[int, str]]:
    """A bundle's members as ``(lines before the member, member text)``, cut at the format's own separators.

    Each member can then be read on its own, so one bad puzzle in a bundle
    costs only itself. A format without members gives the whole text.
    """
    module = _module(format)
    return (module.members(text) if hasattr(module, "members") else []) or [(0, text)]


def read_members(text: str, format: str, path: str) -> list[Union[AnyPuzzle, FormatError]]:
    """Every member of a bundle: a puzzle, or the error (naming ``path`` and the line) of a member that cannot be read.

    The whole text is read at once first; only when that fails is it cut
    into :func:`members`, so one bad puzzle costs itself and no neighbour.
    """
    try:
        return list(loads_all(text, format))
    except FormatError as whole:
        pieces = members(text, format)
        if len(pieces) < 2:
            return [whole.with_path(path) if whole.path is None else whole]
    out: list[Union[AnyPuzzle, FormatError]] = []
    for offset, piece in pieces:
        try:
            out.extend(loads_all(piece, format))
        except FormatError as exc:
            out.append(type(exc)(exc.message, path=path, line=None if exc.line is None else exc.line + offset))
    return out


def loads(text: str, format: str) -> AnyPuzzle:
    """The one puzzle in ``text`` read as ``format``."""
    puzzles = loads_all(text, format)
    if len(puzzles) != 1:
        raise FormatError(f"holds {len(puzzles)} puzzles, expected one (use load_all)")
    return puzzles[0]


def load_all(path: Union[str, Path], format: Optional[str] = None) -> list[AnyPuzzle]:
    """Every puzzle in the file ``path`` (bundles and tournament files hold many)."""
    text = read_text(path)
    try:
        return loads_all(text, format or format_for(path, text))
    except FormatError as exc:
        raise exc.with_path(str(path)) from None


def load(path: Union[str, Path], format: Optional[str] = None) -> AnyPuzzle:
    """The one puzzle in the file ``path``; the format comes from the suffix, then the content."""
    puzzles = load_all(path, format)
    if len(puzzles) != 1:
        raise FormatError(f"holds {len(puzzles)} puzzles, expected one (use load_all)", path=str(path))
    return puzzles[0]


def writable(format: str) -> bool:
    """Whether nonogen can write ``format`` (some are read-only)."""
    return hasattr(_module(format), "dumps")


FORMATS_3D = ("nonogen-3d", "picross3d-nathsou", "picross3d-ytakata")
"""The formats of Picross 3D levels; every other format holds 2D puzzles."""


def _check_kind(puzzles: list[AnyPuzzle], format: str) -> None:
    """2D puzzles go to 2D formats and Picross 3D levels to the 3D formats only."""
    _module(format)
    is_3d = [p.dimensions == 3 for p in puzzles]
    if format in FORMATS_3D and not all(is_3d):
        raise FormatError(f"{format} holds Picross 3D levels, not 2D puzzles")
    if format not in FORMATS_3D and any(is_3d):
        raise FormatError(f"{format} holds 2D puzzles; write Picross 3D levels as {', '.join(FORMATS_3D)}")
    if not writable(format):
        raise FormatError(f"nonogen reads {format} but does not write it")


def dumps_all(puzzles: list[AnyPuzzle], format: str) -> str:
    """Text of ``puzzles`` in ``format``; more than one needs a format that holds many.

    Titles and names are cleaned as readers clean them (:func:`~._common.clean_text`) before any
    writer sees them: a puzzle made in Python, or a title typed in the studio, can hold a control
    character or a lone surrogate that no file may (XML would not parse, UTF-8 cannot encode it).
    """
    module = _module(format)
    _check_kind(list(puzzles), format)
    if not puzzles:
        raise FormatError("nothing to write: no puzzles")
    puzzles = [clean_puzzle(p) for p in puzzles]
    if len(puzzles) == 1:
        return module.dumps(puzzles[0])
    if not hasattr(module, "dumps_all"):
        raise FormatError(f"{format} holds one puzzle per file, got {len(puzzles)}")
    return module.dumps_all(list(puzzles))


def dumps(puzzle: AnyPuzzle, format: str) -> str:
    """Text of one puzzle in ``format``."""
    return dumps_all([puzzle], format)


def dropped(puzzle: AnyPuzzle, format: str) -> list[str]:
    """What writing ``puzzle`` as ``format`` loses, one phrase per piece (empty: lossless)."""
    _check_kind([puzzle], format)
    return list(_module(format).dropped(clean_puzzle(puzzle)))


def dump_all(puzzles: list[AnyPuzzle], path: Union[str, Path], format: Optional[str] = None, *,
             force: bool = False) -> Path:
    """Write ``puzzles`` to ``path`` atomically (never over an existing file unless ``force``).

    Picross 3D levels written to a ``.json`` path become ``nonogen-3d``.
    """
    from ..files import write_file  # here: reading and verifying never write, and files.py loads pathlib

    like = "nonogen-3d" if puzzles and all(p.dimensions == 3 for p in puzzles) else None
    name = format or format_for(path, like=like)
    return write_file(path, dumps_all(puzzles, name), force)


def dump(puzzle: AnyPuzzle, path: Union[str, Path], format: Optional[str] = None, *, force: bool = False) -> Path:
    """Write one puzzle to ``path`` in ``format`` (default: from the suffix)."""
    return dump_all([puzzle], path, format, force=force)
