"""The options the page sends with a picture or a model, checked before any work is queued.

Every bad value is an :class:`~nonogen.errors.OptionError` naming the
option (a one-line 400 for the page). Ranges are checked where they are
owned: :class:`~nonogen.importers.options.ImageOptions` checks a picture's,
the mesh importer and the hiding check a level's (their errors name the
option too). Pictures are read at most :data:`~.document.MAX_SIDE` cells a
side, the most the studio edits, so every import can be checked.
"""
from __future__ import annotations

from typing import Any, Callable

from ..errors import OptionError
from ..importers.options import ImageOptions
from .document import MAX_SIDE

__all__ = ["picture_options", "mesh_options", "PICTURE_OPTIONS"]


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

_MESH_OPTIONS: dict[str, Parser] = {"size": _WHOLE, "hide": _REAL, "line_solvable": _FLAG}


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


def picture_options(given: Any) -> ImageOptions:
    """The page's picture options as :class:`ImageOptions` (width and height up to the studio's largest side).

    >>> picture_options({"width": "20", "mode": "bw"}).width
    20
    >>> picture_options({"width": 150})
    Traceback (most recent call last):
    ...
    nonogen.errors.OptionError: width 150: expected 1 to 100 cells
    """
    return ImageOptions(**_parsed(given, PICTURE_OPTIONS), max_side=MAX_SIDE)


def mesh_options(given: Any) -> dict[str, Any]:
    """The page's level options as :func:`~nonogen.make.level3d.from_mesh` keywords (ranges: checked there).

    >>> mesh_options({"size": "abc"})
    Traceback (most recent call last):
    ...
    nonogen.errors.OptionError: size 'abc': expected a whole number
    """
    options = _parsed(given, _MESH_OPTIONS)
    return {"size": options.get("size", 10), "hide": options.get("hide"),
            "line_solvable": options.get("line_solvable", False)}
