"""Pages to scan: a picture file, or each page of a PDF with the words of its text layer.

A PDF is drawn with poppler's ``pdftoppm`` (for the grid's lines, and for the
digits when it has no text) and its words and their boxes come from
``pdftotext -bbox-layout``: a PDF that carries its numbers as text is read
exactly, no digit is guessed. Both tools are poppler-utils, a Debian
package; without them a PDF is an :class:`~nonogen.errors.InputError` that
says so, and pictures still scan.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Optional, Union

import numpy as np

from ...errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from PIL import Image

__all__ = ["Page", "TextWord", "read_pages", "MIN_SIDE"]

MIN_SIDE = 40
"""Fewest pixels a picture needs each way: smaller, no clue can be read."""
TEXT_DPI, PIXEL_DPI = 150, 200
"""How finely a PDF page is drawn: for its grid lines when its text layer holds the numbers, and for reading
digits from pixels when it does not (a 40x40 puzzle on A4 then has clue digits 14 pixels high)."""
MAX_PAGES = 500


@dataclass(frozen=True)
class TextWord:
    """A word of a PDF's text layer, its box in the page's pixels."""

    text: str
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class Page:
    """One page: grey levels (0 black .. 255 white), its number from 1, the text layer's words (None: no layer),
    and its colours (height x width x 3) when it has any besides greys."""

    gray: np.ndarray
    number: int
    words: Optional[tuple[TextWord, ...]] = None
    rgb: Optional[np.ndarray] = None


def read_pages(path: Union[str, Path]) -> list[Page]:
    """The pages of a picture (one) or a PDF (each), ready to scan; an unreadable file is an InputError."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if path.is_dir():
        raise InputError(f"{path}: a folder, not a picture or PDF")
    with open(path, "rb") as handle:
        head = handle.read(8)
    if head.startswith(b"%PDF"):
        return _pdf_pages(path)
    gray, rgb = _picture(path)
    return [Page(gray, 1, rgb=rgb)]


def _coloured(img: "Image.Image") -> Optional[np.ndarray]:
    """The picture's colours when some of it is not grey (a colour puzzle, a coloured theme), else None; two
    channels further apart than 40 anywhere make a colour (measured by Pillow: a page is millions of pixels)."""
    from PIL import ImageChops

    rgb = img.convert("RGB")
    r, g, b = rgb.split()
    spread = [ImageChops.difference(x, y).getextrema()[1] for x, y in ((r, g), (g, b), (r, b))]
    return np.asarray(rgb) if max(int(v) for v in spread) > 40 else None  # type: ignore[arg-type]


def _picture(path: Path) -> tuple[np.ndarray, Optional[np.ndarray]]:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as img:
            img.load()
            if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
                rgba = img.convert("RGBA")
                white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
                img = Image.alpha_composite(white, rgba)
            gray = np.asarray(img.convert("L"))
            rgb = None if img.mode in ("L", "1", "I", "F", "I;16") else _coloured(img)
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as exc:
        raise InputError(f"{path}: not a picture or PDF nonogen can read ({exc})") from None
    return _checked(gray, str(path)), rgb


def _checked(gray: np.ndarray, name: str) -> np.ndarray:
    h, w = gray.shape
    if min(h, w) < MIN_SIDE:
        raise InputError(f"{name}: the picture is too small to read ({w}x{h} pixels; at least {MIN_SIDE} each way)")
    return gray


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise InputError(f"reading a PDF needs poppler's {name} (Debian/Ubuntu: apt install poppler-utils)")
    return found


def _run(args: list[str], path: Path) -> bytes:
    try:
        done = subprocess.run(args, capture_output=True, timeout=120, check=False)
    except subprocess.TimeoutExpired:
        raise InputError(f"{path}: reading the PDF took over 120 s") from None
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(f"{path}: not a PDF poppler can read ({reason[-1] if reason else 'no reason given'})")
    return done.stdout


def _box(values: Iterable[float]) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = values
    return x0, y0, x1, y1


def _pdf_words(path: Path) -> list[tuple[float, float, list[TextWord]]]:
    """Each page's size in points and its words (boxes in points)."""
    xml = _run([_tool("pdftotext"), "-bbox-layout", "-q", str(path), "-"], path)
    try:
        root = ElementTree.fromstring(xml.decode("utf-8", "replace"))
    except ElementTree.ParseError as exc:
        raise InputError(f"{path}: the PDF's text layer cannot be read ({exc})") from None
    pages = []
    for page in root.iter("{http://www.w3.org/1999/xhtml}page"):
        words = [TextWord((w.text or "").strip(), _box(float(w.get(k, 0)) for k in ("xMin", "yMin", "xMax", "yMax")))
                 for w in page.iter("{http://www.w3.org/1999/xhtml}word")]
        pages.append((float(page.get("width", 0)), float(page.get("height", 0)), words))
    return pages


def _pdf_pages(path: Path) -> list[Page]:
    from PIL import Image

    layers = _pdf_words(path)
    if len(layers) > MAX_PAGES:
        raise InputError(f"{path}: {len(layers)} pages; nonogen scans up to {MAX_PAGES}")
    pages = []
    with tempfile.TemporaryDirectory(prefix="nonogen-scan-") as folder:
        for number, (_, _, words) in enumerate(layers, start=1):
            digits = any(w.text.isdigit() for w in words)
            dpi = TEXT_DPI if digits else PIXEL_DPI
            out = os.path.join(folder, f"p{number}")
            _run([_tool("pdftoppm"), "-r", str(dpi), "-png", "-singlefile", "-f", str(number), "-l",
                  str(number), str(path), out], path)
            with Image.open(out + ".png") as img:
                gray = np.asarray(img.convert("L"))
                rgb = _coloured(img)
            scale = dpi / 72.0
            layer = tuple(TextWord(w.text, _box(v * scale for v in w.box)) for w in words)
            pages.append(Page(_checked(gray, f"{path} page {number}"), number, layer if digits else None, rgb))
    return pages
