"""Picture -> nonogram grid: thresholding or colour quantization, then a majority vote per cell.

The core, :func:`image_to_grid`, is pure: a Pillow image in, a grid of colour
indices, a palette and a per-cell confidence out. :func:`load_image` is the
thin I/O edge that opens a file safely (decompression bombs, truncated files).

Why this order of operations: quantizing (or thresholding) at full resolution
and *then* voting per cell keeps the picture's real colours; downsampling
first would invent blended colours that the quantizer then has to guess at.
Pixel art is detected (an exact integer upscale) and reversed exactly, so a
16x16 sprite saved at 8x comes back cell for cell.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import numpy as np
from PIL import Image, ImageColor, ImageOps

from ..errors import BlankPictureError, InputError, LimitError
from ..palette import BW_PALETTE, Color, palette_from_rgb, to_hex

__all__ = [
    "ImageOptions",
    "ImportResult",
    "MAX_SIDE",
    "MAX_PIXELS",
    "load_image",
    "image_to_grid",
    "pixel_art_scale",
    "otsu_threshold",
    "target_size",
]

MAX_SIDE = 256
"""Largest puzzle side in cells: beyond this nobody solves it and verification gets slow."""

MAX_PIXELS = 40_000_000
"""Largest picture nonogen reads (pixels); keeps the full-resolution arrays within memory."""

DEFAULT_LONG_SIDE = 20
PIXEL_ART_MAX_COLORS = 32
PIXEL_ART_MAX_SIDE = 128


@dataclass(frozen=True)
class ImageOptions:
    """What the user asked for; every field maps to one ``nonogen image`` option."""

    size: Optional[tuple[int, int]] = None  # (width, height) in cells
    width: Optional[int] = None
    height: Optional[int] = None
    crop: bool = False
    mode: str = "bw"  # "bw" (luminance) or "silhouette" (alpha only)
    colors: Optional[int] = None  # foreground colours; set -> colour puzzle
    threshold: Optional[int] = None  # None -> Otsu
    invert: bool = False
    background: Optional[str] = None  # colour spec; None -> detect from the border


@dataclass(frozen=True)
class ImportResult:
    """A picture turned into cells.

    ``confidence`` is in [0, 1] per cell: 1 when every pixel of the cell agreed
    far from the threshold, near 0 for a coin toss. ``alternative`` is the
    value the cell would take if the vote went the other way (the runner-up
    class), which is what an uniqueness "edit" should flip the cell to.
    """

    grid: np.ndarray
    palette: tuple[Color, ...]
    confidence: np.ndarray
    alternative: np.ndarray
    info: dict[str, Any] = field(default_factory=dict)


# --- I/O edge ---------------------------------------------------------------------------------


def load_image(path: str | Path) -> Image.Image:
    """Open and fully decode a picture, turning every failure into a one-line nonogen error.

    Decompression bombs are refused (Pillow's own pixel limit, with its warning
    promoted to an error, and :data:`MAX_PIXELS`) from the header, before any
    pixel is decoded; animated files give their first frame; EXIF rotation is
    applied so photos come out upright. Pillow's decoders raise many types on
    broken files (``OSError``, ``SyntaxError``, ``struct.error``, ``IndexError``
    ...), so anything a decoder raises becomes :class:`InputError`. At most two
    copies of the pixels exist at once: the decoded frame and the upright copy.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as img:
                if img.width * img.height > MAX_PIXELS:
                    raise LimitError(
                        f"{path}: picture is {img.width}x{img.height} pixels, more than nonogen's limit of "
                        f"{MAX_PIXELS:,} pixels"
                    )
                img.load()
                try:
                    return ImageOps.exif_transpose(img) or img.copy()
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
        raise InputError(f"{path}: not a readable picture ({reason})") from None


# --- pure helpers -------------------------------------------------------------------------------


def to_rgba_array(img: Image.Image) -> np.ndarray:
    """The picture as an ``h x w x 4`` uint8 array, whatever its mode (palette + tRNS, 16-bit, ...)."""
    if img.mode in ("I", "I;16", "I;16B", "I;16L", "F"):
        values = np.asarray(img, dtype=np.float64)
        top = values.max() if values.size and values.max() > 255 else 255.0
        grey = np.clip(values * (255.0 / top), 0, 255).astype(np.uint8)
        img = Image.fromarray(grey, "L")
    if img.mode == "P" and "transparency" in img.info:
        img = img.convert("PA")
    return np.asarray(img.convert("RGBA"), dtype=np.uint8)


def pixel_art_scale(rgba: np.ndarray) -> tuple[int, int]:
    """The integer factors ``(sx, sy)`` by which a picture is an exact NEAREST upscale of a smaller one.

    Every colour change along x must fall on a multiple of ``sx`` (and the
    width must be one too); same along y. ``(1, 1)`` means no upscale.

    >>> small = np.arange(6, dtype=np.uint8).reshape(2, 3, 1).repeat(4, axis=2)
    >>> pixel_art_scale(small.repeat(5, axis=0).repeat(5, axis=1))
    (5, 5)
    >>> pixel_art_scale(small)
    (1, 1)
    """
    h, w = rgba.shape[:2]
    flat = rgba.reshape(h, w, -1)
    col_change = np.flatnonzero(np.any(flat[:, 1:] != flat[:, :-1], axis=(0, 2))) + 1
    row_change = np.flatnonzero(np.any(flat[1:] != flat[:-1], axis=(1, 2))) + 1
    sx = math.gcd(w, *map(int, col_change)) if col_change.size else w
    sy = math.gcd(h, *map(int, row_change)) if row_change.size else h
    if not col_change.size and not row_change.size:
        return 1, 1
    if not col_change.size:
        sx = sy if w % sy == 0 else 1
    if not row_change.size:
        sy = sx if h % sx == 0 else 1
    return int(sx), int(sy)


def otsu_threshold(values: np.ndarray) -> int:
    """Otsu's threshold for 0..255 values: ``values < t`` is the dark class.

    Maximizes the between-class variance of the histogram; ties pick the
    middle of the best plateau so a two-tone picture splits halfway.

    >>> otsu_threshold(np.array([10, 10, 12, 200, 210, 220]))
    106
    """
    hist = np.bincount(np.clip(np.asarray(values).ravel(), 0, 255).astype(np.int64), minlength=256).astype(float)
    total = hist.sum()
    if total == 0:
        return 128
    weight0 = np.cumsum(hist)  # count of values <= t
    mean_cum = np.cumsum(hist * np.arange(256))
    weight1 = total - weight0
    with np.errstate(divide="ignore", invalid="ignore"):
        mean0 = mean_cum / weight0
        mean1 = (mean_cum[-1] - mean_cum) / weight1
        between = weight0 * weight1 * (mean0 - mean1) ** 2
    between = np.nan_to_num(between, nan=-1.0)
    best = np.flatnonzero(between >= between.max() - 1e-9 * max(between.max(), 1))
    t = (int(best[0]) + int(best[-1])) // 2
    return t + 1


def target_size(src_w: int, src_h: int, options: ImageOptions, native: bool) -> tuple[int, int]:
    """Puzzle size in cells: explicit ``size``, or one side with the aspect ratio kept, or the default.

    The default is the native size for pixel art, else 20 cells on the long side.

    >>> target_size(400, 200, ImageOptions(), native=False)
    (20, 10)
    >>> target_size(400, 200, ImageOptions(height=5), native=False)
    (10, 5)
    >>> target_size(16, 12, ImageOptions(), native=True)
    (16, 12)
    """
    if options.size is not None:
        w, h = options.size
    elif options.width is not None and options.height is not None:
        w, h = options.width, options.height
    elif options.width is not None:
        w, h = options.width, max(1, round(options.width * src_h / src_w))
    elif options.height is not None:
        w, h = max(1, round(options.height * src_w / src_h)), options.height
    elif native:
        w, h = src_w, src_h
    else:
        long_side = DEFAULT_LONG_SIDE
        if src_w >= src_h:
            w, h = long_side, max(1, round(long_side * src_h / src_w))
        else:
            w, h = max(1, round(long_side * src_w / src_h)), long_side
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise LimitError(f"puzzle size {w}x{h}: each side must be between 1 and {MAX_SIDE} cells")
    return int(w), int(h)


def _cell_labels(h: int, w: int, rows: int, cols: int) -> np.ndarray:
    """For each pixel, the index of the cell it falls in (cells split the picture as evenly as possible)."""
    cy = (np.arange(h) * rows) // h
    cx = (np.arange(w) * cols) // w
    return (cy[:, None] * cols + cx[None, :]).ravel()


def _upscale_for(rgba: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Repeat pixels (NEAREST) so every cell gets at least one pixel when asking for more cells than pixels."""
    h, w = rgba.shape[:2]
    k = max(math.ceil(rows / h), math.ceil(cols / w), 1)
    return rgba if k == 1 else rgba.repeat(k, axis=0).repeat(k, axis=1)


def _content_box(rgba: np.ndarray, background_rgb: Optional[tuple[int, int, int]]) -> tuple[int, int, int, int]:
    """Bounding box ``(left, top, right, bottom)`` of pixels that differ from the background."""
    if background_rgb is None:
        content = rgba[..., 3] >= 128
    else:
        diff = np.abs(rgba[..., :3].astype(np.int16) - np.array(background_rgb, dtype=np.int16)).max(axis=2)
        content = (diff > 24) & (rgba[..., 3] >= 128)
    ys, xs = np.nonzero(content)
    if not ys.size:
        raise InputError("nothing to crop: the picture has no content apart from its background")
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def _border(rgba: np.ndarray) -> np.ndarray:
    return np.concatenate([rgba[0], rgba[-1], rgba[1:-1, 0], rgba[1:-1, -1]])


def _border_background(rgba: np.ndarray) -> Optional[tuple[int, int, int]]:
    """``None`` if most border pixels are transparent, else the most frequent opaque border colour."""
    border = _border(rgba)
    if np.count_nonzero(border[:, 3] < 128) * 2 > len(border):
        return None
    opaque = border[border[:, 3] >= 128, :3]
    values, counts = np.unique(opaque, axis=0, return_counts=True)
    return tuple(int(v) for v in values[np.argmax(counts)])  # type: ignore[return-value]


def _luminance_over_white(rgba: np.ndarray) -> np.ndarray:
    """ITU-R 601 luma (Pillow's ``L``) of the picture composited over white, 0..255 floats."""
    rgb = rgba[..., :3].astype(np.float32)
    alpha = rgba[..., 3].astype(np.float32) / 255.0
    luma = rgb @ np.array([0.299, 0.587, 0.114], dtype=np.float32)
    return luma * alpha + 255.0 * (1.0 - alpha)


# --- the importer -------------------------------------------------------------------------------


def image_to_grid(img: Image.Image, options: ImageOptions = ImageOptions()) -> ImportResult:
    """Turn a picture into a puzzle grid: see the module docstring for the pipeline.

    Raises :class:`InputError` for pictures that cannot make a puzzle (too
    small, blank at this threshold, no transparency in silhouette mode) and
    :class:`LimitError` for sizes outside ``1..MAX_SIDE``.
    """
    if options.mode not in ("bw", "silhouette"):
        raise InputError(f"unknown mode {options.mode!r}: expected 'bw' or 'silhouette'")
    if options.colors is not None and not 1 <= options.colors <= 20:
        raise LimitError(f"{options.colors} colours asked for: expected 1 to 20")
    if options.threshold is not None and not 0 <= options.threshold <= 255:
        raise InputError(f"threshold {options.threshold}: expected 0 to 255")
    if img.width < 2 or img.height < 2:
        raise InputError(f"picture is {img.width}x{img.height} pixels: too small to make a puzzle (need 2x2 or more)")
    if img.width * img.height > MAX_PIXELS:
        raise LimitError(f"picture is {img.width}x{img.height} pixels, more than the limit of {MAX_PIXELS:,}")
    rgba = to_rgba_array(img)
    info: dict[str, Any] = {"source_size": [img.width, img.height]}
    background_rgb = _background_rgb(rgba, options)
    if options.crop:
        left, top, right, bottom = _content_box(rgba, background_rgb)
        rgba = rgba[top:bottom, left:right]
        info["crop_box"] = [left, top, right, bottom]
    sx, sy = pixel_art_scale(rgba)
    small = rgba[::sy, ::sx]
    n_distinct = len(np.unique(small.reshape(-1, 4), axis=0)) if small.size <= 4 * 65536 else 10**9
    pixel_art = (
        n_distinct <= PIXEL_ART_MAX_COLORS
        and max(small.shape[:2]) <= PIXEL_ART_MAX_SIDE
        and bool(np.all((small[..., 3] == 0) | (small[..., 3] == 255)))
    )
    info["pixel_art"] = pixel_art
    info["pixel_scale"] = [sx, sy] if pixel_art else [1, 1]
    if pixel_art:
        rgba = small  # exact reversal of the NEAREST upscale
    cols, rows = target_size(rgba.shape[1], rgba.shape[0], options, native=pixel_art)
    rgba = _upscale_for(rgba, rows, cols)
    labels = _cell_labels(rgba.shape[0], rgba.shape[1], rows, cols)
    if options.colors is not None:
        result = _color_grid(rgba, labels, rows, cols, options, background_rgb, info)
    else:
        result = _bw_grid(rgba, labels, rows, cols, options, info)
    if not np.any(result.grid):
        raise BlankPictureError(_blank_message(options, info))
    return result


def _background_rgb(rgba: np.ndarray, options: ImageOptions) -> Optional[tuple[int, int, int]]:
    if options.background is None:
        return _border_background(rgba)
    if options.background.lower() in ("transparent", "none"):
        return None
    try:
        return tuple(ImageColor.getrgb(options.background)[:3])  # type: ignore[return-value]
    except ValueError:
        raise InputError(f"background {options.background!r}: not a colour (expected a name or #rrggbb)") from None


def _blank_message(options: ImageOptions, info: dict[str, Any]) -> str:
    if options.colors is not None:
        return "the picture is blank: every cell is background"
    if options.mode == "silhouette":
        return "the picture is blank: no cell is mostly opaque (silhouette mode uses transparency only)"
    return (
        f"the picture is blank: nothing is filled at threshold {info.get('threshold')}"
    )


def _vote_fraction(values: np.ndarray, labels: np.ndarray, n_cells: int) -> np.ndarray:
    """Mean of per-pixel ``values`` in each cell (the BOX filter, done with one bincount)."""
    sums = np.bincount(labels, weights=values.ravel().astype(np.float64), minlength=n_cells)
    counts = np.bincount(labels, minlength=n_cells)
    return sums / np.maximum(counts, 1)


def _bw_grid(
    rgba: np.ndarray, labels: np.ndarray, rows: int, cols: int, options: ImageOptions, info: dict[str, Any]
) -> ImportResult:
    """Black and white: a filled fraction per cell from luminance (or alpha), majority decides."""
    n = rows * cols
    alpha = rgba[..., 3]
    if options.mode == "silhouette":
        if np.all(alpha >= 250):
            raise InputError("the picture has no transparency: silhouette mode needs an alpha channel")
        threshold = 128 if options.threshold is None else options.threshold
        coverage = _vote_fraction(alpha.astype(np.float64) / 255.0, labels, n)
        filled_fraction = coverage if not options.invert else 1.0 - coverage
        margin = np.abs(coverage * 255.0 - threshold) / 128.0
        filled = filled_fraction * 255.0 >= threshold if not options.invert else filled_fraction * 255.0 > 255 - threshold
        info.update(mode="silhouette", threshold=threshold)
    else:
        luma = _luminance_over_white(rgba)
        threshold = otsu_threshold(luma.astype(np.uint8)) if options.threshold is None else options.threshold
        dark = luma < threshold
        if options.invert:
            dark = ~dark
        filled_fraction = _vote_fraction(dark, labels, n)
        filled = filled_fraction > 0.5
        mean_luma = _vote_fraction(luma, labels, n)
        margin = np.abs(mean_luma - threshold) / 64.0
        info.update(mode="bw", threshold=int(threshold), invert=options.invert)
    vote_margin = np.abs(2.0 * filled_fraction - 1.0)
    confidence = np.clip(0.5 * vote_margin + 0.5 * np.minimum(margin, 1.0), 0.0, 1.0)
    grid = filled.reshape(rows, cols).astype(np.uint8)
    return ImportResult(
        grid=grid,
        palette=BW_PALETTE,
        confidence=confidence.reshape(rows, cols),
        alternative=(1 - grid).astype(np.uint8),
        info=info,
    )


def _quantize(rgb: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Median-cut quantize a list of RGB pixels to at most ``n`` colours, never dithering.

    Returns per-pixel class indices and the ``k x 3`` palette of used colours.
    """
    strip = Image.fromarray(rgb.reshape(1, -1, 3).astype(np.uint8), "RGB")
    quant = strip.quantize(colors=n, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    index = np.asarray(quant, dtype=np.int64).ravel()
    pal = np.array(quant.getpalette()[: 3 * 256], dtype=np.int64).reshape(-1, 3)
    used = np.unique(index)
    remap = np.full(pal.shape[0], -1, dtype=np.int64)
    remap[used] = np.arange(used.size)
    return remap[index], pal[used]


def _color_grid(
    rgba: np.ndarray,
    labels: np.ndarray,
    rows: int,
    cols: int,
    options: ImageOptions,
    background_rgb: Optional[tuple[int, int, int]],
    info: dict[str, Any],
) -> ImportResult:
    """Colour: quantize every pixel, pick the background class, then a majority vote per cell."""
    k = int(options.colors or 1)
    flat = rgba.reshape(-1, 4)
    opaque = flat[:, 3] >= 128
    classes = np.zeros(flat.shape[0], dtype=np.int64)  # 0 = background
    if background_rgb is None:
        if not opaque.any():
            raise InputError("the picture is blank: every pixel is transparent")
        index, pal = _quantize(flat[opaque, :3], k)
        classes[opaque] = index + 1
        colours = pal
        bg = (255, 255, 255)
        info["background"] = "transparent"
    else:
        over_white = _composite_white(flat)
        index, pal = _quantize(over_white, k + 1)
        dist = np.abs(pal - np.array(background_rgb)).sum(axis=1)
        bg_class = int(np.argmin(dist))
        bg = tuple(int(v) for v in pal[bg_class])
        order = [i for i in range(len(pal)) if i != bg_class]
        remap = np.zeros(len(pal), dtype=np.int64)
        remap[order] = np.arange(1, len(order) + 1)
        classes = remap[index]
        colours = pal[order]
        info["background"] = to_hex(bg)
    n_classes = len(colours) + 1
    votes = np.bincount(labels * n_classes + classes, minlength=rows * cols * n_classes).reshape(-1, n_classes)
    votes = votes.astype(np.float64) / np.maximum(votes.sum(axis=1, keepdims=True), 1)
    ranked = np.argsort(-votes, axis=1, kind="stable")
    winner, runner = ranked[:, 0], ranked[:, 1] if n_classes > 1 else ranked[:, 0]
    idx = np.arange(votes.shape[0])
    confidence = votes[idx, winner] - votes[idx, runner]
    grid, palette, alternative = _compact_colours(winner, runner, colours, bg)
    info.update(mode="color", colors=len(palette) - 1)
    return ImportResult(
        grid=grid.reshape(rows, cols),
        palette=palette,
        confidence=confidence.reshape(rows, cols),
        alternative=alternative.reshape(rows, cols),
        info=info,
    )


def _composite_white(flat: np.ndarray) -> np.ndarray:
    alpha = flat[:, 3:4].astype(np.float32) / 255.0
    return np.round(flat[:, :3] * alpha + 255.0 * (1 - alpha)).astype(np.uint8)


def _compact_colours(
    winner: np.ndarray, runner: np.ndarray, colours: np.ndarray, bg: tuple[int, int, int]
) -> tuple[np.ndarray, tuple[Color, ...], np.ndarray]:
    """Drop colours no cell won and order the rest by cell count (most used first, ties by index)."""
    counts = np.bincount(winner, minlength=len(colours) + 1)[1:]
    order = [i + 1 for i in sorted(range(len(colours)), key=lambda i: (-counts[i], i)) if counts[i] > 0]
    remap = np.zeros(len(colours) + 1, dtype=np.int64)
    remap[order] = np.arange(1, len(order) + 1)
    grid = remap[winner].astype(np.uint8)
    alt = remap[runner]
    alt = np.where((alt == 0) & (runner != 0), 0, alt).astype(np.uint8)
    palette = palette_from_rgb(bg, [tuple(int(v) for v in colours[i - 1]) for i in order])
    if len(palette) < 2:
        palette = palette_from_rgb(bg, [(0, 0, 0)])
    return grid, palette, alt
