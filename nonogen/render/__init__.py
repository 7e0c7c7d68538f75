"""Drawing puzzles: renderers that lay out :class:`~nonogen.render.canvas.Picture` objects, and the one :func:`save` that writes them as SVG, PNG or PDF."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Optional, Sequence, Union

from ..errors import InputError, OptionError
from ..files import write_file
from .canvas import MAX_SHEET_PIXELS, SCREEN_DPI, Circle, Line, Picture, Polygon, Rect, Shape, Text, to_png, to_svg

__all__ = ["Picture", "Shape", "Rect", "Line", "Text", "Polygon", "Circle", "save", "encode", "check_cell", "SUFFIXES",
           "MAX_SHEET_PIXELS"]

SUFFIXES = (".svg", ".png", ".pdf")
Pages = Union[Picture, Sequence[Picture]]


CELL_PIXELS = (4, 200)
"""Smallest and largest on-screen cell (or cube) size in pixels: readable, and a 256-cell sheet stays drawable."""


def check_cell(cell: float) -> None:
    """Refuse an on-screen cell size outside :data:`CELL_PIXELS`, before anything is drawn."""
    low, high = CELL_PIXELS
    if not low <= cell <= high:
        raise OptionError("cell", cell, f"{low} to {high} pixels")


def _pages(picture_or_pages: Pages) -> list[Picture]:
    return [picture_or_pages] if isinstance(picture_or_pages, Picture) else list(picture_or_pages)


def encode(picture_or_pages: Pages, suffix: str, dpi: Optional[float] = None, title: str = "") -> bytes:
    """The bytes of the file :func:`save` writes for ``suffix`` (``.svg``, ``.png`` or ``.pdf``).

    A PDF holds any number of pages; SVG and PNG hold one picture. A PNG has
    ``dpi / 96`` pixels per unit (default 96 dpi: one pixel per unit) and
    records its dpi; a ``smooth`` picture is drawn supersampled.
    """
    suffix = suffix.lower()
    if suffix not in SUFFIXES:
        raise InputError(f"pictures are written as .svg, .png or .pdf, not {suffix or 'a file without suffix'}")
    pages = _pages(picture_or_pages)
    if not pages:
        raise InputError("nothing to draw: no pages")
    if suffix == ".pdf":
        from .pdf import pdf_bytes  # reportlab is only imported when a PDF is asked for

        return pdf_bytes(pages, title)
    if len(pages) > 1:
        raise InputError(f"a {suffix} file holds one picture, got {len(pages)} pages (a .pdf holds many)")
    if suffix == ".svg":
        return to_svg(pages[0]).encode("utf-8")
    dpi = SCREEN_DPI if dpi is None else float(dpi)
    if not 10 <= dpi <= 2400:
        raise OptionError("dpi", f"{dpi:g}", "10 to 2400")
    buffer = io.BytesIO()
    to_png(pages[0], scale=dpi / SCREEN_DPI).save(buffer, format="PNG", dpi=(dpi, dpi))
    return buffer.getvalue()


def save(
    picture_or_pages: Pages,
    path: Union[str, Path],
    *,
    dpi: Optional[float] = None,
    title: str = "",
    overwrite: bool = True,
) -> Path:
    """Write a picture (or a list of pages, for PDF) as SVG, PNG or PDF, chosen by ``path``'s suffix.

    A puzzle (or level) is drawn as its clue sheet first (see :func:`nonogen.draw` for the options).

    - SVG: one picture, its size in millimetres (a unit is 1/96 inch).
    - PNG: one picture at ``dpi`` (default 96, one pixel per unit), the dpi
      recorded in the file; smooth pictures are supersampled.
    - PDF: every page, each the size of its picture; ``title`` goes in the
      document's properties.

    The file is written atomically by :func:`nonogen.files.write_file` (the
    one home of writing files); ``overwrite=False`` refuses an existing file.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "box.svg"
    >>> _ = save(Picture(96, 48, [Rect(0, 0, 96, 48, "#ff0000")]), path)
    >>> 'width="25.4mm"' in path.read_text()
    True
    """
    path = Path(path)
    if not isinstance(picture_or_pages, (Picture, list, tuple)):  # a puzzle: its clue sheet
        from .draw import draw

        draw(picture_or_pages, path, dpi=dpi, force=overwrite)
        return path
    return write_file(path, encode(picture_or_pages, path.suffix, dpi=dpi, title=title), force=overwrite)
