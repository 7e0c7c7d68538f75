"""The drawing primitives every nonogen picture is made of, and their SVG and PNG writers.

Renderers (2D sheets, Picross 3D pictures, packing boards, book pages) only
lay out a :class:`Picture` of plain shapes; :func:`to_svg` (svgwrite),
:func:`to_png` (Pillow) and :mod:`nonogen.render.pdf` (reportlab) draw any
picture. One set of writers is why the SVG, the PNG and the PDF of a picture
always agree, and why tests can check geometry without parsing any file.

Units: one picture unit is one CSS pixel, 1/96 inch (the SVG user unit), so
every picture has a physical size too: the SVG states it in millimetres, a
PNG at ``dpi`` has ``dpi / 96`` pixels per unit and says so in the file, and a
PDF page is the picture's size. Shapes are drawn in list order, back to
front, on white.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterable, Literal, Optional, Sequence, Union

import svgwrite
from PIL import Image, ImageDraw, ImageFont

from ..errors import LimitError

__all__ = [
    "Rect", "Line", "Text", "Polygon", "Circle", "Shape", "Picture", "to_svg", "to_png",
    "text_width", "text_box", "wrap_text", "flow", "placed", "trimmed", "min_text_size", "shape_box", "content_box",
    "PX_PER_MM", "PX_PER_PT", "SCREEN_DPI",
]

INK = "#222222"
FONT_FAMILY = "DejaVu Sans, Arial, sans-serif"
SCREEN_DPI = 96.0
PX_PER_MM = SCREEN_DPI / 25.4
PX_PER_PT = SCREEN_DPI / 72.0

Anchor = Literal["start", "middle", "end"]


@dataclass(frozen=True)
class Rect:
    """An axis-aligned box; ``fill=None`` leaves it hollow, ``stroke`` outlines it ``stroke_width`` wide."""

    x: float
    y: float
    w: float
    h: float
    fill: Optional[str]
    stroke: Optional[str] = None
    stroke_width: float = 1.0


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    color: str
    width: float


@dataclass(frozen=True)
class Text:
    """A one-line label, vertically centred on ``y``; ``anchor`` says whether ``x`` is its start, middle or end."""

    x: float
    y: float
    text: str
    size: float
    fill: str = INK
    anchor: Anchor = "middle"


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str
    stroke: str
    width: float = 0.6


@dataclass(frozen=True)
class Circle:
    """An unfilled ring."""

    x: float
    y: float
    r: float
    stroke: str
    width: float = 1.2


Shape = Union[Rect, Line, Text, Polygon, Circle]


@dataclass(frozen=True)
class Picture:
    """Shapes on a ``width`` x ``height`` area in CSS pixels (1/96 inch).

    ``smooth`` says the picture has slanted edges or curves (isometric cubes,
    rings) that a PNG should draw supersampled; square grids stay crisp
    without it. The picture carries it so no caller has to know.
    """

    width: float
    height: float
    shapes: Sequence[Shape]
    smooth: bool = False


# Advance widths in em, rounded up to cover the fonts a sheet meets: DejaVu Sans (the SVG's first
# choice), Pillow's built-in font (the PNG) and Helvetica (the PDF). Layouts need a width before
# anything is drawn, and a slight overestimate only costs a little white space.
_NARROW = frozenset("'ijlI,. /:;\\|f-()[]t!r·")
_WIDE = frozenset("mwMW@%#+<=>^~")


def text_width(text: str, size: float) -> float:
    """Upper estimate of how wide ``text`` is drawn at font ``size`` (any character wider: 1 em).

    >>> text_width("il", 10), text_width("10", 10), text_width("W", 10)
    (8.4, 12.8, 10.0)
    """
    def em(ch: str) -> float:
        if ch in _NARROW:
            return 0.42
        if ch in _WIDE or not ch.isascii():
            return 1.0
        return 0.8 if ch.isupper() or ch in "&?*" else 0.64

    return round(sum(em(ch) for ch in text) * size, 6)


def text_box(t: Text) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)`` that the label ``t`` stays inside: estimated width, 1.2 em tall."""
    w, h = text_width(t.text, t.size), 1.2 * t.size
    x0 = t.x - {"start": 0.0, "middle": w / 2, "end": w}[t.anchor]
    return x0, t.y - h / 2, x0 + w, t.y + h / 2


def wrap_text(text: str, size: float, width: float) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` at font ``size``; over-long words are cut.

    >>> wrap_text("front (lines along z)", 10, 70)
    ['front (lines', 'along z)']
    >>> wrap_text("abcdefghij", 10, 20)
    ['abc', 'def', 'ghi', 'j']
    """
    lines: list[str] = []
    line = ""
    for word in text.split():
        joined = f"{line} {word}" if line else word
        if text_width(joined, size) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
        while text_width(word, size) > width and len(word) > 1:
            cut = 1
            while text_width(word[: cut + 1], size) <= width:
                cut += 1
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    return lines + [line] if line else lines or [""]


def flow(widths: Iterable[float], width: float, gap: float) -> list[tuple[float, int]]:
    """Items of these widths laid left to right, ``gap`` apart, a new row when the next would pass ``width``.

    Returns each item's ``(x, row)``; an item wider than ``width`` gets a row of its own.

    >>> flow([30, 30, 30], 70, 5)
    [(0.0, 0), (35.0, 0), (0.0, 1)]
    """
    out, x, row = [], 0.0, 0
    for w in widths:
        if x > 0 and x + w > width:
            x, row = 0.0, row + 1
        out.append((x, row))
        x += w + gap
    return out


def shape_box(s: Shape) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)`` that a shape is drawn inside, strokes included."""
    if isinstance(s, Text):
        return text_box(s)
    if isinstance(s, Rect):
        half = s.stroke_width / 2 if s.stroke else 0.0
        return s.x - half, s.y - half, s.x + s.w + half, s.y + s.h + half
    if isinstance(s, Line):  # square caps reach half the width past each end
        half = s.width / 2
        return min(s.x1, s.x2) - half, min(s.y1, s.y2) - half, max(s.x1, s.x2) + half, max(s.y1, s.y2) + half
    if isinstance(s, Circle):
        r = s.r + s.width / 2
        return s.x - r, s.y - r, s.x + r, s.y + r
    xs, ys = zip(*s.points, strict=True)
    half = s.width / 2
    return min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half


def content_box(shapes: Iterable[Shape]) -> tuple[float, float, float, float]:
    """The box every shape is drawn inside (all zeros for no shape)."""
    boxes = [shape_box(s) for s in shapes]
    if not boxes:
        return 0.0, 0.0, 0.0, 0.0
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def min_text_size(picture: Picture) -> Optional[float]:
    """The smallest font size on the picture, in units (``None`` without text): what print checks against 7 pt."""
    sizes = [s.size for s in picture.shapes if isinstance(s, Text)]
    return min(sizes) if sizes else None


def _moved(s: Shape, dx: float, dy: float, k: float) -> Shape:
    if isinstance(s, Rect):
        return replace(s, x=dx + s.x * k, y=dy + s.y * k, w=s.w * k, h=s.h * k, stroke_width=s.stroke_width * k)
    if isinstance(s, Line):
        return replace(s, x1=dx + s.x1 * k, y1=dy + s.y1 * k, x2=dx + s.x2 * k, y2=dy + s.y2 * k, width=s.width * k)
    if isinstance(s, Text):
        return replace(s, x=dx + s.x * k, y=dy + s.y * k, size=s.size * k)
    if isinstance(s, Circle):
        return replace(s, x=dx + s.x * k, y=dy + s.y * k, r=s.r * k, width=s.width * k)
    return replace(s, points=tuple((dx + x * k, dy + y * k) for x, y in s.points), width=s.width * k)


def placed(picture: Picture, x: float, y: float, scale: float) -> tuple[Shape, ...]:
    """The picture's shapes scaled by ``scale`` with its top-left corner moved to ``(x, y)``: how pages are composed.

    >>> r = placed(Picture(10, 10, [Rect(1, 2, 3, 4, "#000000")]), 100, 50, 2)[0]
    >>> r.x, r.y, r.w, r.h
    (102, 54, 6, 8)
    """
    return tuple(_moved(s, x, y, scale) for s in picture.shapes)


def trimmed(picture: Picture, pad: float = 0.0) -> Picture:
    """The picture cut to what is drawn on it, plus ``pad`` units: on paper the page's margin replaces the picture's
    own.

    >>> t = trimmed(Picture(100, 100, [Rect(10, 20, 30, 40, "#000000")]), pad=1)
    >>> t.width, t.height, t.shapes[0].x, t.shapes[0].y
    (32.0, 42.0, 1.0, 1.0)
    """
    x0, y0, x1, y1 = content_box(picture.shapes)
    shapes = tuple(_moved(s, pad - x0, pad - y0, 1.0) for s in picture.shapes)
    return Picture(x1 - x0 + 2 * pad, y1 - y0 + 2 * pad, shapes, smooth=picture.smooth)


def _f(value: float) -> float | int:
    """Plain number rounded to 0.01 (svgwrite rejects numpy scalars; shorter files).

    >>> _f(2.0), _f(1.23456)
    (2, 1.23)
    """
    value = round(float(value), 2)
    return int(value) if value.is_integer() else value


def _mm(units: float) -> str:
    """A length in units as an SVG millimetre length.

    >>> _mm(96)
    '25.4mm'
    """
    return f"{round(units / PX_PER_MM, 3):g}mm"


def to_svg(picture: Picture) -> str:
    """The picture as SVG text: its size in millimetres, drawn in a viewBox of ``width`` x ``height`` units.

    Browsers show it at exactly ``width`` x ``height`` CSS pixels, as before;
    printers and drawing programs get the physical size.
    """
    width, height = _f(picture.width), _f(picture.height)
    dwg = svgwrite.Drawing(size=(_mm(picture.width), _mm(picture.height)), debug=False)
    dwg.viewbox(0, 0, width, height)
    dwg.add(dwg.rect((0, 0), (width, height), fill="#ffffff"))
    for s in picture.shapes:
        if isinstance(s, Rect):
            extra = {"stroke": s.stroke, "stroke_width": _f(s.stroke_width)} if s.stroke else {}
            dwg.add(dwg.rect((_f(s.x), _f(s.y)), (_f(s.w), _f(s.h)), fill=s.fill or "none", **extra))
        elif isinstance(s, Line):
            dwg.add(dwg.line((_f(s.x1), _f(s.y1)), (_f(s.x2), _f(s.y2)), stroke=s.color,
                             stroke_width=_f(s.width), stroke_linecap="square"))
        elif isinstance(s, Polygon):
            dwg.add(dwg.polygon([(_f(x), _f(y)) for x, y in s.points], fill=s.fill, stroke=s.stroke,
                                stroke_width=_f(s.width), stroke_linejoin="round"))
        elif isinstance(s, Circle):
            dwg.add(dwg.circle((_f(s.x), _f(s.y)), _f(s.r), fill="none", stroke=s.stroke, stroke_width=_f(s.width)))
        else:
            dwg.add(dwg.text(s.text, insert=(_f(s.x), _f(s.y)), fill=s.fill, font_size=_f(s.size),
                             font_family=FONT_FAMILY, text_anchor=s.anchor, dominant_baseline="central"))
    return dwg.tostring()


@lru_cache(maxsize=64)
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


_PIL_ANCHOR = {"start": "lm", "middle": "mm", "end": "rm"}


def _draw(draw: ImageDraw.ImageDraw, sh: Shape, s: float) -> None:
    """One shape at ``s`` pixels per unit."""
    px = lambda v: max(1, round(v * s))  # noqa: E731 - a stroke is at least one pixel
    if isinstance(sh, Rect):
        x0, y0 = round(sh.x * s), round(sh.y * s)
        box = [x0, y0, max(x0, round((sh.x + sh.w) * s) - 1), max(y0, round((sh.y + sh.h) * s) - 1)]
        draw.rectangle(box, fill=sh.fill, outline=sh.stroke, width=px(sh.stroke_width))
    elif isinstance(sh, Line):
        draw.line([round(sh.x1 * s), round(sh.y1 * s), round(sh.x2 * s), round(sh.y2 * s)], fill=sh.color,
                  width=px(sh.width))
    elif isinstance(sh, Polygon):
        points = [(x * s, y * s) for x, y in sh.points]
        width = px(sh.width)
        if width <= 1:
            draw.polygon(points, fill=sh.fill, outline=sh.stroke)
        else:  # Pillow draws a wide polygon outline through a full-size mask per polygon: 28 s for a 40^3 model
            draw.polygon(points, fill=sh.fill)
            draw.line(points + points[:1], fill=sh.stroke, width=width, joint="curve")
    elif isinstance(sh, Circle):
        draw.ellipse([(sh.x - sh.r) * s, (sh.y - sh.r) * s, (sh.x + sh.r) * s, (sh.y + sh.r) * s],
                     outline=sh.stroke, width=px(sh.width))
    else:
        draw.text((sh.x * s, sh.y * s), sh.text, fill=sh.fill, font=_font(max(6, round(sh.size * s))),
                  anchor=_PIL_ANCHOR[sh.anchor])


MAX_SHEET_PIXELS = 64_000_000
"""Most pixels one PNG may have (drawn supersampled or not): 64 megapixels take about 200 MB and a few
seconds; a 256x256 puzzle at 20 pixels a cell is 28 megapixels, at 100 it would be 1,500 (a MemoryError)."""


def to_png(picture: Picture, scale: float = 1, supersample: Optional[int] = None) -> Image.Image:
    """The picture as an RGB image of ``scale`` pixels per unit.

    ``supersample`` > 1 draws that many times larger and reduces, which
    smooths slanted edges and rings; by default a ``smooth`` picture gets 2
    and any other 1, so square cells stay crisp. A picture over
    :data:`MAX_SHEET_PIXELS` is a :class:`LimitError`, before any pixel exists.
    """
    factor = supersample if supersample is not None else (2 if picture.smooth else 1)
    s = scale * factor
    width, height = round(picture.width * s), round(picture.height * s)
    if width * height > MAX_SHEET_PIXELS:
        raise LimitError(f"the picture would be {width:,}x{height:,} pixels ({width * height / 1e6:,.0f} megapixels); "
                         f"nonogen draws up to {MAX_SHEET_PIXELS // 1_000_000} megapixels: choose a smaller cell "
                         "size or resolution")
    img = Image.new("RGB", (round(picture.width * s), round(picture.height * s)), "#ffffff")
    draw = ImageDraw.Draw(img)
    for sh in picture.shapes:
        _draw(draw, sh, s)
    if factor == 1:
        return img
    return img.resize((round(picture.width * scale), round(picture.height * scale)), Image.Resampling.LANCZOS)
