"""Drawing puzzles as shapes: renderers lay out :class:`~nonogen.render.canvas.Picture` objects and
:func:`encode` turns one (or a list of pages) into SVG, PNG or PDF bytes.

Nothing here writes a file or asks the engine anything: :mod:`nonogen.output` does both.
"""
from __future__ import annotations

import io
from typing import Optional, Sequence, Union

from ..errors import InputError, OptionError
from .canvas import MAX_SHEET_PIXELS, SCREEN_DPI, Circle, Line, Picture, Polygon, Rect, Shape, Text, to_png, to_svg

__all__ = ["Picture", "Shape", "Rect", "Line", "Text", "Polygon", "Circle", "encode", "check_cell", "SUFFIXES",
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
    pages = [picture_or_pages] if isinstance(picture_or_pages, Picture) else picture_or_pages
    if not isinstance(pages, (list, tuple)) or not all(isinstance(page, Picture) for page in pages):
        raise TypeError("expected a Picture or a list of them; draw a puzzle with nonogen.draw")
    return list(pages)


def encode(picture_or_pages: Pages, suffix: str, dpi: Optional[float] = None, title: str = "") -> bytes:
    """The bytes of a picture (or pages) as a ``suffix`` file: ``.svg``, ``.png`` or ``.pdf``.

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
