"""The drawing primitives every nonogen picture is made of, and their SVG and PNG writers.

Renderers (2D sheets, Picross 3D pictures, packing boards) only lay out a
:class:`Picture` of plain shapes; :func:`to_svg` (svgwrite) and :func:`to_png`
(Pillow) draw any picture. One pair of writers is why the SVG and the PNG of
a picture always agree, and why tests can check geometry without parsing
either file. Coordinates are SVG user units (one unit is one PNG pixel at
``scale=1``); shapes are drawn in list order, back to front, on white.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional, Sequence, Union

import svgwrite
from PIL import Image, ImageDraw, ImageFont

__all__ = [
    "Rect", "Line", "Text", "Polygon", "Circle", "Shape", "Picture", "to_svg", "to_png",
    "text_width", "text_box",
]

INK = "#222222"
FONT_FAMILY = "DejaVu Sans, Arial, sans-serif"


@dataclass(frozen=True)
class Rect:
    """An axis-aligned box; ``fill=None`` leaves it hollow, ``stroke`` outlines it one unit wide."""

    x: float
    y: float
    w: float
    h: float
    fill: Optional[str]
    stroke: Optional[str] = None


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
    """A label centred on ``(x, y)``."""

    x: float
    y: float
    text: str
    size: float
    fill: str = INK


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
    width: float
    height: float
    shapes: Sequence[Shape]


# Advance widths in em, rounded up to cover both fonts a sheet meets: DejaVu Sans (the SVG's first
# choice) and Pillow's built-in font (the PNG). Layouts need a width before anything is drawn, and
# a slight overestimate only costs a little white space.
_NARROW = frozenset("'ijlI,. /:;\\|f-()[]t!r")
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


def text_box(t: "Text") -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)`` that the centred label ``t`` stays inside: estimated width, 1.2 em tall."""
    w, h = text_width(t.text, t.size), 1.2 * t.size
    return t.x - w / 2, t.y - h / 2, t.x + w / 2, t.y + h / 2


def _f(value: float) -> float | int:
    """Plain number rounded to 0.01 (svgwrite rejects numpy scalars; shorter files).

    >>> _f(2.0), _f(1.23456)
    (2, 1.23)
    """
    value = round(float(value), 2)
    return int(value) if value.is_integer() else value


def to_svg(picture: Picture) -> str:
    """The picture as SVG text, ``picture.width`` x ``picture.height`` user units."""
    width, height = _f(picture.width), _f(picture.height)
    dwg = svgwrite.Drawing(size=(width, height), debug=False)
    dwg.viewbox(0, 0, width, height)
    dwg.add(dwg.rect((0, 0), (width, height), fill="#ffffff"))
    for s in picture.shapes:
        if isinstance(s, Rect):
            extra = {"stroke": s.stroke, "stroke_width": 1} if s.stroke else {}
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
                             font_family=FONT_FAMILY, text_anchor="middle", dominant_baseline="central"))
    return dwg.tostring()


@lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def to_png(picture: Picture, scale: int = 1, supersample: int = 1) -> Image.Image:
    """The picture as an RGB image of ``scale`` pixels per unit.

    ``supersample`` > 1 draws that many times larger and reduces, which
    smooths the diagonal edges of isometric cubes; square cells do not need it.
    """
    s = scale * supersample
    img = Image.new("RGB", (round(picture.width * s), round(picture.height * s)), "#ffffff")
    draw = ImageDraw.Draw(img)
    for sh in picture.shapes:
        if isinstance(sh, Rect):
            x0, y0 = round(sh.x * s), round(sh.y * s)
            box = [x0, y0, max(x0, round((sh.x + sh.w) * s) - 1), max(y0, round((sh.y + sh.h) * s) - 1)]
            draw.rectangle(box, fill=sh.fill, outline=sh.stroke, width=max(1, s))
        elif isinstance(sh, Line):
            draw.line([round(sh.x1 * s), round(sh.y1 * s), round(sh.x2 * s), round(sh.y2 * s)],
                      fill=sh.color, width=max(1, round(sh.width * s)))
        elif isinstance(sh, Polygon):
            draw.polygon([(x * s, y * s) for x, y in sh.points], fill=sh.fill, outline=sh.stroke,
                         width=max(1, round(sh.width * s)))
        elif isinstance(sh, Circle):
            draw.ellipse([(sh.x - sh.r) * s, (sh.y - sh.r) * s, (sh.x + sh.r) * s, (sh.y + sh.r) * s],
                         outline=sh.stroke, width=max(1, round(sh.width * s)))
        else:
            draw.text((sh.x * s, sh.y * s), sh.text, fill=sh.fill, font=_font(max(6, round(sh.size * s))), anchor="mm")
    if supersample == 1:
        return img
    return img.resize((round(picture.width * scale), round(picture.height * scale)), Image.LANCZOS)
