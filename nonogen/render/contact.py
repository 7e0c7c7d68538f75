"""A contact sheet: many puzzles' pictures in one grid, each with its name and grade, as one PNG.

Drawn with Pillow directly (thumbnails of pictures already drawn, not shapes):
the caller hands in the pictures and the words; nothing here opens or writes a file.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Optional, Sequence, Union

from PIL import Image, ImageDraw, ImageFont

__all__ = ["Tile", "contact_sheet", "TILE_PX"]

PAD = 12
NAME_PX, LINE_PX, TITLE_PX = 14, 12, 20
INK, MUTED, FRAME, PAPER = (34, 34, 34), (110, 110, 110), (200, 198, 192), (255, 255, 255)
MAX_COLUMNS = 12
TILE_PX = 180
"""Side of the square each picture is shrunk into."""


@dataclass(frozen=True)
class Tile:
    """One puzzle on the sheet: its picture (``None`` when it has none), name and a line under it."""

    picture: Optional[Image.Image]
    name: str
    line: str


def _fitted(text: str, font: Union[ImageFont.FreeTypeFont, ImageFont.ImageFont], width: float,
            draw: ImageDraw.ImageDraw) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def _thumbnail(picture: Image.Image, size: int) -> Image.Image:
    """``picture`` on white, shrunk (never enlarged) to fit a ``size`` square."""
    picture = picture.convert("RGBA")
    flat = Image.new("RGB", picture.size, PAPER)
    flat.paste(picture, mask=picture.getchannel("A"))
    flat.thumbnail((size, size), Image.Resampling.LANCZOS)
    return flat


def contact_sheet(tiles: Sequence[Tile], *, title: str = "", columns: int = 6, thumb: int = TILE_PX) -> bytes:
    """The PNG bytes of ``tiles`` in a grid of ``columns`` (fewer when there are fewer tiles), ``title`` on top."""
    if not tiles:
        raise ValueError("a contact sheet needs at least one tile")
    columns = max(1, min(columns, MAX_COLUMNS, len(tiles)))
    rows = -(-len(tiles) // columns)
    name_font, line_font = ImageFont.load_default(size=NAME_PX), ImageFont.load_default(size=LINE_PX)
    cell_w, cell_h = thumb + PAD, thumb + NAME_PX + LINE_PX + 3 * PAD // 2 + PAD
    top = TITLE_PX + 2 * PAD if title else PAD
    sheet = Image.new("RGB", (PAD + columns * cell_w, top + rows * cell_h), PAPER)
    draw = ImageDraw.Draw(sheet)
    if title:
        font = ImageFont.load_default(size=TITLE_PX)
        draw.text((PAD, PAD), _fitted(title, font, sheet.width - 2 * PAD, draw), fill=INK, font=font)
    for k, tile in enumerate(tiles):
        x, y = PAD + (k % columns) * cell_w, top + (k // columns) * cell_h
        draw.rectangle((x - 1, y - 1, x + thumb, y + thumb), outline=FRAME)
        if tile.picture is not None:
            small = _thumbnail(tile.picture, thumb - 2)
            sheet.paste(small, (x + (thumb - small.width) // 2, y + (thumb - small.height) // 2))
        else:
            draw.line((x, y, x + thumb - 1, y + thumb - 1), fill=FRAME)
        ty = y + thumb + PAD // 2
        draw.text((x, ty), _fitted(tile.name, name_font, thumb, draw), fill=INK, font=name_font)
        draw.text((x, ty + NAME_PX + 3), _fitted(tile.line, line_font, thumb, draw), fill=MUTED, font=line_font)
    out = io.BytesIO()
    sheet.save(out, format="PNG", optimize=True)
    return out.getvalue()
