"""Drawing puzzles: renderers that lay out :class:`~nonogen.render.canvas.Picture` objects, and the one :func:`save` that writes them as SVG, PNG or PDF."""
from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path
from typing import Optional, Sequence, Union

from ..errors import InputError, OutputExistsError
from .canvas import SCREEN_DPI, Circle, Line, Picture, Polygon, Rect, Shape, Text, to_png, to_svg

__all__ = ["Picture", "Shape", "Rect", "Line", "Text", "Polygon", "Circle", "save", "encode", "SUFFIXES"]

SUFFIXES = (".svg", ".png", ".pdf")
Pages = Union[Picture, Sequence[Picture]]


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
        raise InputError(f"{dpi:g} dpi: expected 10 to 2400")
    buffer = io.BytesIO()
    to_png(pages[0], scale=dpi / SCREEN_DPI).save(buffer, format="PNG", dpi=(dpi, dpi))
    return buffer.getvalue()


def write_atomic(path: Union[str, Path], data: bytes, overwrite: bool = True) -> Path:
    """Write ``data`` to a temporary file beside ``path``, then move it into place in one step.

    A reader never sees half a file, and a failed write leaves the old file
    as it was. With ``overwrite=False`` an existing file is never replaced,
    even one that appears while writing (the move is a hard link, which
    fails on an existing name).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not overwrite and path.exists():
        raise OutputExistsError(f"{path}: file exists")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        if overwrite:
            os.replace(tmp, path)
        else:
            _link_new(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def _link_new(tmp: str, path: Path) -> None:
    """Give ``tmp`` the name ``path`` only if that name is free."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise OutputExistsError(f"{path}: file exists") from None
    except OSError:  # a file system without hard links: check, then move
        if path.exists():
            raise OutputExistsError(f"{path}: file exists") from None
        os.replace(tmp, path)


def save(
    picture_or_pages: Pages,
    path: Union[str, Path],
    *,
    dpi: Optional[float] = None,
    title: str = "",
    overwrite: bool = True,
) -> Path:
    """Write a picture (or a list of pages, for PDF) as SVG, PNG or PDF, chosen by ``path``'s suffix.

    - SVG: one picture, its size in millimetres (a unit is 1/96 inch).
    - PNG: one picture at ``dpi`` (default 96, one pixel per unit), the dpi
      recorded in the file; smooth pictures are supersampled.
    - PDF: every page, each the size of its picture; ``title`` goes in the
      document's properties.

    The file is written atomically; ``overwrite=False`` refuses an existing file.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "box.svg"
    >>> _ = save(Picture(96, 48, [Rect(0, 0, 96, 48, "#ff0000")]), path)
    >>> 'width="25.4mm"' in path.read_text()
    True
    """
    path = Path(path)
    return write_atomic(path, encode(picture_or_pages, path.suffix, dpi=dpi, title=title), overwrite=overwrite)
