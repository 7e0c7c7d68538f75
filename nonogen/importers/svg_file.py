"""SVG drawings as pictures: rendered (resvg) at the resolution the grid will use, on untrusted files.

Icons and logos are mostly drawn as vectors. Blind judges named 16 of 20 fresh icons rendered 288
pixels wide and 13 of 20 of the same icons at 72 pixels (``samples/readability/icons-r13``): the
importer keeps thin parts only when a cell has enough pixels. An SVG is therefore rendered at the
working resolution the grid asks for (:func:`~.image.pixels_wanted`), so the drawing itself is never
what limits the puzzle.

resvg is native code. What it would do harm with is refused first, with one line that names the
file: XML entities, references to other files (a drawing may not read the disk, which matters when
the studio renders an upload), pictures embedded bigger than :data:`~.picture_file.MAX_PIXELS`, and
files over :data:`MAX_BYTES`. The long side is always given, so resvg never sizes the canvas from
the file. It then renders in a worker process with :data:`RENDER_SECONDS` to finish: a filter can keep
it busy for minutes, and a deeply nested file crashes it, and either costs that worker only. A process
that already is such a worker (a batch's, the studio's) renders itself, under its own parent's limit.
"""
from __future__ import annotations

import base64
import binascii
import io
import re
from typing import Optional
from xml.parsers import expat

from PIL import Image

from ..errors import InputError, LimitError
from .picture_file import MAX_PIXELS

__all__ = ["render_svg", "MAX_BYTES", "RENDER_SECONDS"]

MAX_BYTES = 8 << 20
"""Largest SVG file read (bytes): every icon set's largest file is a few hundred kilobytes."""
RENDER_SECONDS = 20.0
"""Time resvg gets to render one drawing; an icon takes milliseconds, a detailed illustration under a second."""
_LENGTH = re.compile(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(px|pt|pc|mm|cm|in)?\s*$")
_PX = {None: 1.0, "px": 1.0, "pt": 4 / 3, "pc": 16.0, "mm": 96 / 25.4, "cm": 960 / 25.4, "in": 96.0}
_XLINK = "http://www.w3.org/1999/xlink"


def render_svg(data: bytes, name: str, long_side: int) -> Image.Image:
    """The drawing ``data`` (the file ``name``) rendered RGBA, ``long_side`` pixels on its long side."""
    if len(data) > MAX_BYTES:
        raise LimitError(f"{name}: SVG of more than nonogen's limit of {MAX_BYTES:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{name}: SVG is not UTF-8 text") from None
    aspect = _checked(data, name)
    size = (long_side, None) if aspect >= 1 else (None, long_side)
    png = _rendered(text, name, size)
    too_big = LimitError(f"{name}: the SVG's canvas has another shape than its root says, and rendered it is more "
                         f"than nonogen's limit of {MAX_PIXELS:,} pixels")
    try:
        with Image.open(io.BytesIO(png)) as img:
            if img.width * img.height > MAX_PIXELS:
                raise too_big
            return img.convert("RGBA")
    except Image.DecompressionBombError:
        raise too_big from None


def _rendered(text: str, name: str, size: tuple[Optional[int], Optional[int]]) -> bytes:
    """resvg's PNG, from a worker process that is stopped after :data:`RENDER_SECONDS`; in this process when it is
    already such a worker (a batch's, the studio's, a cluster's), whose parent stops it the same way."""
    from ..executors import LocalPool, in_worker  # here: only an SVG starts a worker

    task = (text, *size)
    if in_worker() or _daemonic():
        outcome, value = _render(task)
    else:
        fail = lambda task, message, status: ("timeout" if status == "timeout" else "crash", message)  # noqa: E731
        (outcome, value), = LocalPool(1, limit=RENDER_SECONDS).run(_isolated, [task], fail)
    if outcome == "png" and isinstance(value, bytes):
        return value
    if outcome == "timeout":
        raise LimitError(f"{name}: SVG not rendered within {RENDER_SECONDS:g} s (filters or too many shapes)")
    if outcome == "crash":
        raise InputError(f"{name}: the SVG renderer stopped on this file ({value})")
    raise InputError(f"{name}: not a drawing the SVG renderer reads ({value})")


def _daemonic() -> bool:
    """Whether this is a daemonic multiprocessing process (a Dask worker's, say), which may not start children."""
    import sys

    multiprocessing = sys.modules.get("multiprocessing")  # never loaded here: a process it did not start is not one
    return multiprocessing is not None and bool(multiprocessing.current_process().daemon)


def _isolated(task: tuple[str, Optional[int], Optional[int]]) -> tuple[str, object]:
    """:func:`_render` in a worker of its own, where a crash is the parent's one-line error (no fault dump)."""
    import faulthandler

    faulthandler.disable()
    return _render(task)


def _render(task: tuple[str, Optional[int], Optional[int]]) -> tuple[str, object]:
    """``("png", bytes)``, or ``("invalid", reason)`` for a file resvg refuses."""
    import resvg_py  # only a drawing to render imports it

    text, width, height = task
    try:
        return "png", resvg_py.svg_to_bytes(svg_string=text, width=width, height=height, dpi=96.0)  # CSS pixels
    except ValueError as exc:
        return "invalid", str(exc).split("\n")[0][:120]


def _checked(data: bytes, name: str) -> float:
    """The drawing's width over its height, after refusing what must not reach resvg (see the module docstring)."""
    root: list[dict[str, str]] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        if not root:
            if tag.rpartition(" ")[2] != "svg":
                raise InputError(f"{name}: an XML file whose root is <{tag.rpartition(' ')[2]}>, not an SVG drawing")
            root.append(attrs)
        for key in ("href", f"{_XLINK} href"):
            if key in attrs:
                _check_reference(attrs[key].strip(), name)

    def entity(*_: object) -> None:
        raise InputError(f"{name}: SVG declares XML entities, which nonogen does not expand")

    parser = expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartElementHandler = start
    parser.EntityDeclHandler = entity
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise InputError(f"{name}: line {exc.lineno}: not well-formed XML ({expat.ErrorString(exc.code)})") from None
    return _aspect(root[0])


def _check_reference(href: str, name: str) -> None:
    """A link inside the drawing (``#id``) or a bitmap embedded as data, not too big; never a file or an address."""
    if href.startswith("#"):
        return
    if not href.startswith("data:"):
        raise InputError(f"{name}: SVG refers to another file ({href[:60]}): embed it, or render the drawing to a PNG")
    header, _, payload = href.partition(",")
    if "svg" in header.lower():
        raise InputError(f"{name}: SVG embeds another SVG, which nonogen does not render")
    try:
        raw = base64.b64decode(payload, validate=False) if ";base64" in header else payload.encode()
        with Image.open(io.BytesIO(raw)) as embedded:
            too_big = embedded.width * embedded.height > MAX_PIXELS
    except Image.DecompressionBombError:
        too_big = True
    except (binascii.Error, OSError, ValueError):
        raise InputError(f"{name}: SVG embeds a picture that cannot be read") from None
    if too_big:
        raise LimitError(f"{name}: SVG embeds a picture of more than {MAX_PIXELS:,} pixels")


def _aspect(root: dict[str, str]) -> float:
    """Width over height of the canvas resvg will size: the root's width and height when both are lengths, else
    its viewBox (1 when neither says)."""
    sides = [_px(root.get(key, "")) for key in ("width", "height")]
    if sides[0] and sides[1]:
        return sides[0] / sides[1]
    box = root.get("viewBox", "").replace(",", " ").split()
    if len(box) == 4:
        try:
            w, h = float(box[2]), float(box[3])
            if w > 0 and h > 0:
                return w / h
        except ValueError:
            pass
    return 1.0


def _px(length: str) -> float:
    """An SVG length in pixels (0 for a percentage, an em or nothing: resvg then sizes from the viewBox)."""
    match = _LENGTH.match(length)
    return float(match.group(1)) * _PX[match.group(2)] if match else 0.0
