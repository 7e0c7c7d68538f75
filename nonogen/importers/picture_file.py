"""Opening a picture file: the I/O edge of :mod:`.image`, safe on untrusted bytes.

An SVG drawing is rendered (:mod:`.svg_file`). Every way a file can fail to be
a picture (missing, truncated, a decompression bomb, a PDF) becomes one :class:`~nonogen.errors.InputError`
or :class:`~nonogen.errors.LimitError` line that names the file.
"""
from __future__ import annotations

import io
import warnings
import zlib
from pathlib import Path
from typing import Optional, Union

from PIL import Image, ImageOps

from ..errors import InputError, LimitError

__all__ = ["MAX_PIXELS", "load_image", "draft_for"]

MAX_PIXELS = 40_000_000
"""Largest picture nonogen reads (pixels); keeps the full-resolution arrays within memory."""


def load_image(source: str | Path | bytes, reduce_for: Optional[tuple[int, int]] = None) -> Image.Image:
    """Open and fully decode a picture (a file, or its bytes), turning every failure into a one-line nonogen error.

    Decompression bombs are refused (Pillow's own pixel limit, with its warning
    promoted to an error, and :data:`MAX_PIXELS`) from the header, before any
    pixel is decoded; animated files give their first frame; EXIF rotation is
    applied so photos come out upright. Pillow's decoders raise many types on
    broken files (``OSError``, ``SyntaxError``, ``struct.error``, ``IndexError``
    ...), so anything a decoder raises becomes :class:`InputError`. At most two
    copies of the pixels exist at once: the decoded frame and the upright copy.
    ``reduce_for`` (pixels wanted) lets a JPEG decode reduced: :func:`draft_for`.
    """
    path: Union[str, Path]
    opened: Union[io.BytesIO, Path]
    if isinstance(source, (bytes, bytearray, memoryview)):
        path, opened = "<bytes>", io.BytesIO(bytes(source))
    else:
        path = opened = Path(source)
        if not path.is_file():
            raise InputError(f"{path}: no such file")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(opened) as img:
                if img.width * img.height > MAX_PIXELS:
                    raise LimitError(
                        f"{path}: picture is {img.width}x{img.height} pixels, more than nonogen's limit of "
                        f"{MAX_PIXELS:,} pixels"
                    )
                draft_for(img, reduce_for)
                img.load()
                try:
                    return ImageOps.exif_transpose(img)  # a new picture, upright
                except Exception:  # a broken EXIF block costs only the rotation
                    return img.copy()
    except LimitError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise LimitError(f"{path}: refused as a possible decompression bomb ({str(exc)[:120]})") from None
    except MemoryError:
        raise LimitError(f"{path}: not enough memory to decode the picture") from None
    except Exception as exc:  # every decoder failure on untrusted bytes
        reason = (str(exc).strip().split("\n")[0] or type(exc).__name__)[:120]
    head = _head(opened)  # no decoder took it: an SVG or a PDF says what it is from its first bytes
    drawing = _svg(path, opened, head, reduce_for)
    if drawing is not None:
        return drawing
    if head.startswith(b"%pdf"):
        raise InputError(f"{path}: a PDF, not a picture: render its page to a PNG first")
    raise InputError(f"{path}: not a readable picture ({reason})")


SVG_PX = 1024
"""Long side an SVG is rendered at when the caller does not say what it needs."""


def _svg(path: Union[str, Path], opened: Union[io.BytesIO, Path], head: bytes,
         reduce_for: Optional[tuple[int, int]]) -> Optional[Image.Image]:
    """The drawing rendered (:mod:`.svg_file`) when the file (its ``head``: :func:`_head`) is an SVG, or a gzipped
    one (``.svgz``), at the pixels wanted; else None."""
    packed = head.startswith(b"\x1f\x8b")
    if not packed and not _opens_svg(head):
        return None
    from .svg_file import MAX_BYTES as MAX_SVG_BYTES, render_svg  # here: only an SVG needs the renderer

    try:  # one byte over the limit is enough for render_svg to refuse it: a huge file is never read whole
        if isinstance(opened, io.BytesIO):
            data = opened.getvalue()
        else:
            with opened.open("rb") as file:
                data = file.read(MAX_SVG_BYTES + 1)
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if packed:
        unpacked = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            data = unpacked.decompress(data, MAX_SVG_BYTES + 1)
        except zlib.error:
            return None  # not gzip after all: the picture decoders say what it is
        if len(data) > MAX_SVG_BYTES:
            raise LimitError(f"{path}: unpacks to more than nonogen's limit of {MAX_SVG_BYTES:,} bytes of SVG")
        if not _opens_svg(_sniffed(data)):
            return None
    return render_svg(data, str(path), max(reduce_for) if reduce_for else SVG_PX)


def _opens_svg(head: bytes) -> bool:
    """Markup that opens an ``<svg>`` in its first bytes (lower-cased), after a declaration or a comment."""
    return head.startswith(b"<") and b"<svg" in head


def _head(opened: Union[io.BytesIO, Path]) -> bytes:
    """The file's first bytes as :func:`_sniffed` gives them (empty when unreadable)."""
    try:
        if isinstance(opened, io.BytesIO):
            return _sniffed(opened.getvalue())
        with opened.open("rb") as file:
            return _sniffed(file.read(512))
    except OSError:
        return b""


def _sniffed(data: bytes) -> bytes:
    """The first 512 bytes of ``data``, lower-cased, after a byte-order mark and blanks: what a format is told by."""
    return data[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()


def draft_for(img: Image.Image, pixels: Optional[tuple[int, int]]) -> None:
    """Let a JPEG decode at 1/2, 1/4 or 1/8 scale when ``pixels`` (width, height) is all that is needed.

    Pillow's ``draft`` makes the decoder skip the detail, so a 24-megapixel
    photo costs what a 1.5-megapixel one does. Other formats decode as they are.
    """
    if pixels is None or img.format != "JPEG":
        return
    w, h = pixels
    if img.width >= 2 * w and img.height >= 2 * h:
        img.draft(img.mode if img.mode in ("RGB", "L") else "RGB", (w, h))


