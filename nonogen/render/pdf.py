"""Pictures as PDF pages, drawn shape by shape with reportlab (vector, fonts named not embedded).

Each :class:`~nonogen.render.canvas.Picture` becomes one page of its own size
(one unit is 1/96 inch, so 0.75 pt), so a book page laid out on A4 prints on
A4. Text uses Helvetica, one of the PDF standard fonts every reader has; text
Helvetica cannot encode (outside Windows-1252) uses DejaVu Sans, embedded,
when the system has it. The writer is pure: it returns bytes and
:func:`nonogen.output.save_picture` puts them in a file.
"""
from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from .canvas import PX_PER_PT, Circle, Line, Picture, Polygon, Rect, Shape

__all__ = ["pdf_bytes", "PT_PER_UNIT"]

PT_PER_UNIT = 1 / PX_PER_PT  # 0.75
BASE_FONT = "Helvetica"
# Half the cap height of Helvetica in em: a label's baseline sits this far below its centre line,
# so digits look centred in their cells (the SVG's "central" baseline does the same job).
_CAP_HALF = 0.359
_UNICODE_FONTS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/Library/Fonts/DejaVuSans.ttf",
)


@lru_cache(maxsize=1)
def _unicode_font() -> str | None:
    """Name of a registered font with wide Unicode cover, or ``None`` when the system has none."""
    for path in _UNICODE_FONTS:
        if Path(path).is_file():
            pdfmetrics.registerFont(TTFont("DejaVuSans", path))
            return "DejaVuSans"
    return None


def _font_and_text(text: str) -> tuple[str, str]:
    """Helvetica when it can show every character; else the Unicode font, or ``?`` for what cannot be shown."""
    try:
        text.encode("cp1252")
        return BASE_FONT, text
    except UnicodeEncodeError:
        pass
    wide = _unicode_font()
    if wide is not None:
        return wide, text
    return BASE_FONT, text.encode("cp1252", errors="replace").decode("cp1252")


def _draw(c: Canvas, s: Shape, height: float) -> None:
    """One shape; ``height`` is the page height in units (PDF's y axis points up)."""
    k = PT_PER_UNIT
    X = lambda x: x * k  # noqa: E731
    Y = lambda y: (height - y) * k  # noqa: E731
    if isinstance(s, Rect):
        if s.fill:
            c.setFillColor(HexColor(s.fill))
        if s.stroke:
            c.setStrokeColor(HexColor(s.stroke))
            c.setLineWidth(s.stroke_width * k)
        c.rect(X(s.x), Y(s.y + s.h), s.w * k, s.h * k, stroke=int(bool(s.stroke)), fill=int(bool(s.fill)))
    elif isinstance(s, Line):
        c.setStrokeColor(HexColor(s.color))
        c.setLineWidth(s.width * k)
        c.setLineCap(2)  # projecting square, as the SVG's "square"
        c.line(X(s.x1), Y(s.y1), X(s.x2), Y(s.y2))
    elif isinstance(s, Polygon):
        c.setFillColor(HexColor(s.fill))
        c.setStrokeColor(HexColor(s.stroke))
        c.setLineWidth(s.width * k)
        c.setLineJoin(1)
        path = c.beginPath()
        path.moveTo(X(s.points[0][0]), Y(s.points[0][1]))
        for x, y in s.points[1:]:
            path.lineTo(X(x), Y(y))
        path.close()
        c.drawPath(path, stroke=1, fill=1)
    elif isinstance(s, Circle):
        c.setStrokeColor(HexColor(s.stroke))
        c.setLineWidth(s.width * k)
        c.circle(X(s.x), Y(s.y), s.r * k, stroke=1, fill=0)
    else:
        font, text = _font_and_text(s.text)
        size = s.size * k
        c.setFont(font, size)
        c.setFillColor(HexColor(s.fill))
        draw = {"start": c.drawString, "middle": c.drawCentredString, "end": c.drawRightString}[s.anchor]
        draw(X(s.x), Y(s.y) - _CAP_HALF * size, text)


def pdf_bytes(pages: Sequence[Picture], title: str = "") -> bytes:
    """A PDF with one page per picture, each page the picture's size."""
    buffer = io.BytesIO()
    c = Canvas(buffer, pageCompression=1)
    c.setCreator("nonogen")
    if title:
        c.setTitle(title)
    for page in pages:
        c.setPageSize((page.width * PT_PER_UNIT, page.height * PT_PER_UNIT))
        for shape in page.shapes:
            _draw(c, shape, page.height)
        c.showPage()
    c.save()
    return buffer.getvalue()
