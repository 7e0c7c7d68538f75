"""What the page sends, checked in the server before any work is queued: its document, a save's kind, the options
of a picture or a model; once, in plain Python (no numpy, no Pillow: the server loads neither, a test looks).

A bad document is a one-line 400 naming what is wrong, never a failure in a
worker, which builds the puzzle from :func:`checked`'s plain document without
asking again. A bad option is an :class:`~nonogen.errors.OptionError` naming
it, a 400: its name and type are checked here, its range where it is owned,
in the worker (:class:`~nonogen.importers.options.ImageOptions`, the mesh importer, the hiding check).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Optional

from .. import formats
from ..errors import InputError, OptionError
from ..formats._common import clean_text
from ..palette import parse_hex

__all__ = ["MAX_SIDE", "META_FIELDS", "MAX_COLORS", "SHEETS", "checked", "doc_texts", "check_save_kind",
           "picture_options", "mesh_options", "PICTURE_OPTIONS", "TRACE_OPS", "trace_request", "MAX_SIDE_3D",
           "CUBE_CODES", "LEVEL_KINDS", "checked_level", "level_options", "check_level_kind", "session_key"]

MAX_SIDE = 100
"""Largest side the studio edits: a page of 10,000 cells is still drawn at once, and far past what people solve."""

META_FIELDS = ("author", "license")
"""Metadata the page edits besides the title (formats that hold them write them; the rest say they drop them)."""

MAX_COLORS = 20
"""Most foreground colours in the palette editor (the picture importer's own limit)."""

SHEETS = {"pdf": ".pdf", "pdf-solution": ".pdf", "png": ".png", "svg": ".svg", "html": ".html"}
"""Save kinds that draw the puzzle (sheet, solution, play page) rather than write a puzzle file."""


def checked(doc: Any) -> dict[str, Any]:
    """``doc`` checked and cleaned, as plain data: ``grid``, ``palette`` (``{"rgb": "#rrggbb", "name"}``, "" for no
    name), ``givens`` (``[row, col]``), ``title``, the :data:`META_FIELDS` ("" when unset), ``reference``.

    Texts are cleaned as the readers clean them (a lone surrogate becomes U+FFFD): whatever the page sends can be
    written in every format."""
    if not isinstance(doc, dict):
        raise InputError("expected a document: {grid, palette, givens}")
    palette = checked_palette(doc.get("palette"))
    grid = _grid(doc.get("grid"), len(palette) - 1)
    givens = _givens(doc.get("givens") or [], len(grid), len(grid[0]))
    return {"grid": grid, "palette": palette, "givens": givens, **doc_texts(doc, len(grid[0]), len(grid)),
            "reference": _reference(doc.get("reference"), len(grid), len(grid[0]))}


def doc_texts(doc: dict[str, Any], width: int, height: int) -> dict[str, str]:
    """A document's ``title`` (``Puzzle WxH`` when it has none) and :data:`META_FIELDS`, cleaned."""
    title = clean_text(str(doc.get("title") or f"Puzzle {width}x{height}")[:200])
    return {"title": title, **{key: clean_text(str(doc.get(key) or "")[:200]).strip() for key in META_FIELDS}}


def checked_palette(entries: Any) -> list[dict[str, str]]:
    """The page's ``[{"rgb": "#rrggbb", "name"?: ...}, ...]`` (background first), each colour read once."""
    if not isinstance(entries, list) or not 2 <= len(entries) <= MAX_COLORS + 1:
        raise InputError(f"palette: expected a background and 1 to {MAX_COLORS} colours")
    palette = []
    for i, entry in enumerate(entries):
        try:
            rgb = parse_hex(str(entry["rgb"]))
        except (TypeError, KeyError, ValueError):
            raise InputError(f"palette entry {i}: expected a colour as #rrggbb") from None
        palette.append({"rgb": rgb, "name": clean_text(str(entry.get("name") or "")[:40])})
    return palette


def _grid(rows: Any, n_colors: int) -> list[list[int]]:
    """The grid of colour indices; anything else is a one-line InputError here, never a failure further on.

    Every cell must be a JSON whole number: numpy would read a row of lists
    as a third dimension (the clues then fail with a traceback), ``true`` as
    1 and ``1.5`` as 1.
    """
    if not isinstance(rows, list) or not rows or not all(isinstance(r, list) for r in rows):
        raise InputError("grid: expected a list of rows of colour indices")
    height, width = len(rows), len(rows[0])
    if not (1 <= height <= MAX_SIDE and 1 <= width <= MAX_SIDE) or any(len(r) != width for r in rows):
        raise InputError(f"grid: expected equal rows, 1 to {MAX_SIDE} cells a side")
    if not all(type(v) is int for row in rows for v in row):  # bool is an int subclass: `type`, not isinstance
        raise InputError("grid: expected rows of whole numbers (colour indices)")
    if not all(0 <= v <= n_colors for row in rows for v in row):
        raise InputError(f"grid: colour indices must be 0 to {n_colors} (the palette's size)")
    return rows


def _givens(items: Any, height: int, width: int) -> list[list[int]]:
    """Givens as ``[row, col]`` cells of the grid (their colour is the grid's: a given reveals the picture)."""
    if not isinstance(items, list):
        raise InputError("givens: expected a list of [row, col] cells")
    givens = []
    for item in items:
        if not (isinstance(item, list) and len(item) >= 2 and all(isinstance(v, int) for v in item[:2])):
            raise InputError("givens: expected a list of [row, col] cells")
        r, c = item[0], item[1]
        if not (0 <= r < height and 0 <= c < width):
            raise InputError(f"given ({r}, {c}) is outside the {width}x{height} grid")
        givens.append([r, c])
    return givens


def _reference(rows: Any, height: int, width: int) -> Optional[list[list[float]]]:
    """The picture's luma per cell that the page keeps from the import, for the likeness score: rows of numbers of
    the grid's size, else None (absent, or an older grid's: never an error)."""
    fits = isinstance(rows, list) and len(rows) == height and all(
        isinstance(r, list) and len(r) == width and all(type(v) in (int, float) for v in r) for r in rows)
    return rows if fits else None


def check_save_kind(kind: str, path: Path) -> None:
    """A save's ``format`` against the name it writes: a sheet named by its suffix, else a 2D format nonogen writes
    (a 3D format's module, which imports numpy, is never loaded here)."""
    if kind in SHEETS and path.suffix.lower() != SHEETS[kind]:
        raise InputError(f"{path.name}: a {kind} file is named *{SHEETS[kind]}")
    if kind not in SHEETS and (kind not in formats.FORMATS or kind in formats.FORMATS_3D or not formats.writable(kind)):
        raise InputError(f"format: unknown format {kind!r}")


# --- levels -----------------------------------------------------------------------------------------------

MAX_SIDE_3D = 40
"""Largest side of a level the 3D editor edits: 64,000 cubes, all drawn at once, and a level people finish."""

CUBE_CODES = "0123456789abcdefghijklmnopqrstuvwxyz"
"""A cube's colour in a level's ``cells`` text: ``0`` no cube, then palette entries 1, 2, ... (a 40-cube level is a
64,000-character string: a JSON list of numbers would be twice that, and a check of it twice as slow)."""

LEVEL_KINDS = {"nonogen-3d": ".json", "picross3d-nathsou": ".json", "picross3d-ytakata": ".txt", "html": ".html",
               "folder": ""}
"""What a level is saved as: the 3D formats nonogen writes, the play page, or the folder ``nonogen mesh`` writes."""

_SESSION = re.compile(r"[A-Za-z0-9_-]{1,64}")
_AXES = {"x": (1, 2), "y": (0, 2), "z": (0, 1)}  # a line along an axis is named by the other two coordinates


def checked_level(doc: Any) -> dict[str, Any]:
    """A level as the 3D editor sends it, checked and cleaned: ``size`` ([X, Y, Z], 1 to :data:`MAX_SIDE_3D`),
    ``cells`` (X*Y*Z characters of :data:`CUBE_CODES`, x slowest, z fastest), ``palette`` (entry 0 stands for no
    colour), ``givens`` ([x, y, z] cubes revealed), ``hidden`` (the clues the last proof hid, [axis, i, j] as
    :mod:`nonogen.clues3d` names lines, or None: hide anew), ``title``, ``source`` and the :data:`META_FIELDS`.

    >>> checked_level({"size": [2, 1, 1], "cells": "10", "palette": [{"rgb": "#ffffff"}, {"rgb": "#e8913a"}],
    ...                "hidden": [["x", 0, 0]]})["hidden"]
    [['x', 0, 0]]
    """
    if not isinstance(doc, dict):
        raise InputError("expected a level: {size, cells, palette}")
    size = doc.get("size")
    if not (isinstance(size, list) and len(size) == 3 and all(type(v) is int and 1 <= v <= MAX_SIDE_3D for v in size)):
        raise InputError(f"size: expected [X, Y, Z], 1 to {MAX_SIDE_3D} cubes a side")
    palette = checked_palette(doc.get("palette"))
    cells = doc.get("cells")
    count = size[0] * size[1] * size[2]
    if not isinstance(cells, str) or len(cells) != count:
        raise InputError(f"cells: expected {count} characters, one a cube")
    if not set(cells) <= set(CUBE_CODES[:len(palette)]):
        raise InputError(f"cells: expected the characters {CUBE_CODES[:len(palette)]} (0, or a palette entry)")
    givens = _cubes(doc.get("givens") or [], size)
    hidden = doc.get("hidden")
    lines = None if hidden is None else _lines(hidden, size)
    texts = {key: clean_text(str(doc.get(key) or "")[:200]).strip() for key in ("title", "source", *META_FIELDS)}
    return {"size": size, "cells": cells, "palette": palette, "givens": givens, "hidden": lines, **texts}


def session_key(value: Any) -> str:
    """The page's name for the level it edits (1 to 64 letters, digits, ``-`` or ``_``; anything else: none), under
    which a worker keeps what it read of it (:mod:`.edit3d`): a name, never a path or a size.

    >>> session_key("level-3"), session_key("../x"), session_key(7)
    ('level-3', '', '')
    """
    return value if isinstance(value, str) and _SESSION.fullmatch(value) else ""


def _cubes(items: Any, size: list[int]) -> list[list[int]]:
    """``[x, y, z]`` cubes of the box, without repeats."""
    if not isinstance(items, list) or len(items) > size[0] * size[1] * size[2]:
        raise InputError("givens: expected a list of [x, y, z] cubes")
    seen: dict[tuple[int, ...], None] = {}
    for item in items:
        if not (isinstance(item, list) and len(item) == 3 and all(type(v) is int for v in item)
                and all(0 <= v < side for v, side in zip(item, size, strict=True))):
            raise InputError(f"givens: {str(item)[:40]} is no [x, y, z] cube of the box")
        seen[tuple(item)] = None
    return [list(cube) for cube in seen]


def _lines(items: Any, size: list[int]) -> list[list[Any]]:
    """``[axis, i, j]`` lines of the box, without repeats."""
    if not isinstance(items, list) or len(items) > 3 * MAX_SIDE_3D ** 2:
        raise InputError("hidden: expected a list of [axis, i, j] lines")
    seen: dict[tuple[Any, ...], None] = {}
    for item in items:
        fits = isinstance(item, list) and len(item) == 3 and item[0] in _AXES and all(type(v) is int for v in item[1:])
        if not fits or not all(0 <= v < size[a] for v, a in zip(item[1:], _AXES[item[0]], strict=True)):
            raise InputError(f"hidden: {str(item)[:40]} is no [axis, i, j] line of the box")
        seen[tuple(item)] = None
    return [list(line) for line in seen]


def check_level_kind(kind: str, path: Path) -> None:
    """A level's save ``format`` against the name it writes (a folder's name has no suffix of a file it holds)."""
    if kind not in LEVEL_KINDS:
        raise InputError(f"format: expected one of {', '.join(LEVEL_KINDS)}, got {kind[:40]!r}")
    want = LEVEL_KINDS[kind]
    if path.suffix.lower() != want and (want or path.suffix.lower() in (".json", ".txt", ".html")):
        raise InputError(f"{path.name}: a {kind} file is named *{want}" if want else
                         f"{path.name}: a level folder's name ends in no file suffix")


# --- options ----------------------------------------------------------------------------------------------


def _real(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(value)
    return float(value)


def _whole(value: Any) -> int:
    number = _real(value)
    if number != int(number):
        raise ValueError(value)
    return int(number)


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise ValueError(value)


def _text(value: Any) -> str:
    if isinstance(value, str) and len(value) <= 40:
        return value
    raise ValueError(value)


Parser = tuple[Callable[[Any], Any], str]
_WHOLE: Parser = (_whole, "a whole number")
_REAL: Parser = (_real, "a number")
_FLAG: Parser = (_flag, "true or false")
_TEXT: Parser = (_text, "a short text")

PICTURE_OPTIONS: dict[str, Parser] = {
    "width": _WHOLE, "height": _WHOLE, "colors": _WHOLE, "threshold": _WHOLE, "mode": _TEXT, "fit": _TEXT,
    "invert": _FLAG, "fill": _REAL, "background": _TEXT}
"""The picture options the page can set, with their parsers (the rest of ImageOptions keeps its defaults)."""

def _turn(value: Any) -> Any:
    """A quarter turn as the page sends it: a number of degrees, or "auto" (which turns it is: the mesh importer's)."""
    return value if value == "auto" else _whole(value)


_MESH_OPTIONS: dict[str, Parser] = {"size": _WHOLE, "hide": _REAL, "line_solvable": _FLAG, "up": _TEXT,
                                    "turn": (_turn, "a number of degrees or auto")}
_LEVEL_OPTIONS: dict[str, Parser] = {"hide": _REAL, "line_solvable": _FLAG}


def _parsed(given: Any, parsers: dict[str, Parser]) -> dict[str, Any]:
    """The known options of ``given`` parsed (empty values dropped); an unknown name or a bad value is refused."""
    if given is None:
        return {}
    if not isinstance(given, dict):
        raise OptionError("options", type(given).__name__, "a JSON object")
    options = {}
    for name, value in given.items():
        if name not in parsers:
            raise OptionError(str(name)[:40], "", f"one of {', '.join(parsers)}")
        if value is None or value == "":
            continue
        parse, expected = parsers[name]
        try:
            options[name] = parse(value)
        except (TypeError, ValueError, OverflowError):
            raise OptionError(name, repr(value)[:40], expected) from None
    return options


def picture_options(given: Any) -> dict[str, Any]:
    """The page's picture options as :class:`~nonogen.importers.options.ImageOptions` keywords: the worker builds
    it (its module loads numpy and Pillow), reading the picture at most :data:`MAX_SIDE` cells a side.

    >>> picture_options({"width": "20", "mode": "bw", "fill": ""})
    {'width': 20, 'mode': 'bw'}
    """
    return _parsed(given, PICTURE_OPTIONS)


def mesh_options(given: Any) -> dict[str, Any]:
    """The page's level options as :func:`~nonogen.make.level3d.from_mesh` keywords (ranges: checked there).

    >>> mesh_options({"size": "abc"})
    Traceback (most recent call last):
    ...
    nonogen.errors.OptionError: size 'abc': expected a whole number
    """
    options = _parsed(given, _MESH_OPTIONS)
    return {"size": options.get("size"), "hide": options.get("hide"),
            "line_solvable": options.get("line_solvable", False), "up": options.get("up"), "turn": options.get("turn")}


def level_options(given: Any) -> dict[str, Any]:
    """How the 3D editor hides clues: ``hide`` (a share, None for as many as possible: its range is checked where it
    is owned, :func:`~nonogen.make.hide3d.check_share`) and ``line_solvable``.

    >>> level_options({"hide": "0.3"}), level_options(None)
    ({'hide': 0.3, 'line_solvable': False}, {'hide': None, 'line_solvable': False})
    """
    options = _parsed(given, _LEVEL_OPTIONS)
    return {"hide": options.get("hide"), "line_solvable": options.get("line_solvable", False)}


# --- tracing ----------------------------------------------------------------------------------------------

TRACE_OPS = ("picture", "region", "cutout", "threshold", "specks")
"""What :func:`trace_request` asks: the picture to show, a region's cells, the threshold map, specks removed."""


def _field(body: dict[str, Any], name: str, parse: Callable[[Any], Any], expected: str) -> Any:
    """``body[name]`` parsed, or an OptionError naming it (a one-line 400)."""
    try:
        return parse(body.get(name))
    except (TypeError, ValueError, OverflowError):
        raise OptionError(name, repr(body.get(name))[:40], expected) from None


def _numbers(count: int, low: float, high: float, whole: bool = False) -> Callable[[Any], list[Any]]:
    """A parser of a list of ``count`` JSON numbers from ``low`` to ``high`` (whole numbers: ``whole``)."""
    def parse(value: Any) -> list[Any]:
        kinds = (int,) if whole else (int, float)
        if not (isinstance(value, list) and len(value) == count and all(type(v) in kinds for v in value)):
            raise ValueError(value)
        if not all(low <= v <= high for v in value):  # NaN is neither: refused too
            raise ValueError(value)
        return list(value)
    return parse


def _in(low: float, high: float, parse: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def within(value: Any) -> Any:
        number = parse(value)
        if not low <= number <= high:
            raise ValueError(value)
        return number
    return within


def _box(value: Any) -> list[float]:
    box = _numbers(4, -1000.0, 1000.0)(value)
    if not (box[0] < box[2] and box[1] < box[3]):
        raise ValueError(value)
    return [float(v) for v in box]


def trace_request(body: dict[str, Any]) -> dict[str, Any]:
    """A tracing request's fields checked (see :mod:`.trace`, which takes them unchecked): ``op`` (one of
    :data:`TRACE_OPS`); for a picture's tools the grid it was imported into, ``size`` ([rows, cols]) and ``box``
    (the part of the picture it shows, as fractions: ``[left, top, right, bottom]``); a region's ``point`` ([x, y],
    fractions of the picture) and ``tolerance`` (0 to 255); a cut-out's ``area`` ([top, left, bottom, right] cells of
    that grid, inclusive); the threshold's ``offset`` (-255 to 255); for specks
    the ``doc``, ``min_part`` (2 to 100 cells) and an optional ``area`` ([top, left, bottom, right], inclusive).

    >>> trace_request({"op": "region", "size": [10, 20], "box": [0, 0, 1, 1], "point": [0.5, 2], "tolerance": 30})
    Traceback (most recent call last):
    ...
    nonogen.errors.OptionError: point [0.5, 2]: expected [x, y], fractions of the picture (0 to 1)
    """
    op = body.get("op")
    if op not in TRACE_OPS:
        raise OptionError("op", repr(op)[:40], f"one of {', '.join(TRACE_OPS)}")
    if op == "specks":
        doc = checked(body.get("doc"))
        rows, cols = len(doc["grid"]), len(doc["grid"][0])
        asked = {"op": op, "doc": doc, "min_part": _field(body, "min_part", _in(2, 100, _whole), "2 to 100 cells")}
        if body.get("area") is not None:
            asked["area"] = _area(body, rows, cols)
        return asked
    asked = {"op": op}
    if op != "picture":
        asked["size"] = _field(body, "size", _numbers(2, 1, MAX_SIDE, whole=True), f"[rows, cols], 1 to {MAX_SIDE}")
        asked["box"] = _field(body, "box", _box, "[left, top, right, bottom], fractions of the picture")
    if op == "region":
        asked["point"] = _field(body, "point", _numbers(2, 0.0, 1.0), "[x, y], fractions of the picture (0 to 1)")
        asked["tolerance"] = _field(body, "tolerance", _in(0, 255, _whole), "a whole number 0 to 255")
    elif op == "cutout":
        asked["area"] = _area(body, *asked["size"])
    elif op == "threshold":
        asked["offset"] = _field(body, "offset", _in(-255, 255, _real), "a number -255 to 255")
    return asked


def _area(body: dict[str, Any], rows: int, cols: int) -> list[int]:
    """``body["area"]``: ``[top, left, bottom, right]``, inclusive cells of a ``rows`` x ``cols`` grid."""
    area: list[int] = _field(body, "area", _numbers(4, 0, MAX_SIDE, whole=True), "[top, left, bottom, right] cells")
    if not (area[0] <= area[2] < rows and area[1] <= area[3] < cols):
        raise OptionError("area", repr(area)[:40], f"cells of the {cols}x{rows} grid, top left first")
    return area
