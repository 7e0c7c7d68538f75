"""Pages in colour or on dark paper made ready to read, and the colour of every clue number.

Other programs draw clues as dark digits on light paper, light digits on a
dark theme, coloured digits, or digits in coloured boxes. The readers
(:mod:`.lattice`, :mod:`.glyphs`) want dark ink on light paper, so a page is
first turned into its *contrast*: how far each pixel is from the paper's
colour (the median of the page's outer frame, or its most common colour when
that covers far more), the strongest channel
counting, so a yellow digit on white is as dark as a black one and a light
digit on a dark page is dark too. A page of black on white stays as it was.

A clue box (a filled square about a cell wide) is dark in the contrast
whatever its digit, so the digit would be a hole in a blob: each box is
painted out as paper and its digit (the pixels unlike the box's fill) drawn
back in as ink (:func:`unboxed`). A number's colour is then its box's fill,
or, with no box under it, what it sits on when that is not paper (a box that
touches a line is not found as one) unless the clue margins' empty slots are
drawn on it too (an app's tinted panel, :func:`panel_colour`), else its
digits' own colour (:func:`item_colours`); the colours of one page are
snapped to the few distinct ones found there (:func:`snapped`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional, Sequence

import numpy as np

from .lattice import Grid

__all__ = ["Box", "contrast_gray", "unboxed", "item_colours", "panel_colour", "snapped", "colour_palette",
           "SAME_COLOUR"]

FRAME = 4
"""Pixels of the page's outer frame that give the paper's colour."""
NOT_PAPER = 25
"""A pixel this far from the paper's colour (0..255, strongest channel) is something drawn: a box fill, ink."""
DIGIT_CONTRAST = 60
"""A pixel in a box this far from the box's fill is its digit."""
SAME_COLOUR = 40
"""Colours closer than this (strongest channel) are one colour of the puzzle."""


@dataclass(frozen=True)
class Box:
    """A filled clue box: its bounds (``x1, y1`` exclusive) and its fill colour."""

    x0: int
    y0: int
    x1: int
    y1: int
    fill: tuple[int, int, int]


def _colours(gray: np.ndarray, rgb: Optional[np.ndarray]) -> np.ndarray:
    return (rgb if rgb is not None else gray[..., None]).astype(np.int16)


def paper_colour(image: np.ndarray) -> np.ndarray:
    """The paper's colour (one value per channel): the median of the outer frame, where nothing is drawn; or the
    picture's most common colour when that covers at least twice as much of it. A screenshot cut at the grid's
    frame has a black line for its edge and the cells' colour everywhere inside; a page with a dark frame around
    cream cells and clue bands writes its digits on the cream."""
    f = min(FRAME, max(1, min(image.shape[:2]) // 10))
    frame = np.concatenate([image[:f].reshape(-1, image.shape[2]), image[-f:].reshape(-1, image.shape[2]),
                            image[:, :f].reshape(-1, image.shape[2]), image[:, -f:].reshape(-1, image.shape[2])])
    edge = np.median(frame, axis=0)
    pixels = image.reshape(-1, image.shape[2])[::max(1, image.shape[0] * image.shape[1] // 200_000)]
    # each 16-level bin as one number, counted by bincount (np.unique over rows sorted them: 0.4 s a page)
    bins = (pixels // 16).astype(np.int64) @ (16 ** np.arange(pixels.shape[1]))
    common = np.median(pixels[bins == np.bincount(bins).argmax()], axis=0)

    def share(colour: np.ndarray) -> float:
        return float((np.abs(pixels - colour).max(axis=1) <= NOT_PAPER).mean())

    return common if share(common) >= 2 * share(edge) else edge


def contrast_gray(gray: np.ndarray, rgb: Optional[np.ndarray]) -> np.ndarray:
    """The page as dark-on-white grey levels: 255 minus each pixel's distance from the paper's colour."""
    image = _colours(gray, rgb)
    paper = paper_colour(image)
    if rgb is None and paper[0] >= 250:
        return gray  # black on white already: nothing to change (nonogen's own sheets)
    distance = np.abs(image - paper.astype(np.int16)).max(axis=2)
    return (255 - np.clip(distance, 0, 255)).astype(np.uint8)


def _is_box(inside: np.ndarray, pitch: float) -> bool:
    """Whether a blob is a filled clue box: most of a cell each way, square, mostly filled, and straight-sided
    (each side's row or column of pixels nearly all in it; a bold digit's are not)."""
    h, w = inside.shape
    if not (0.55 * pitch <= w <= 1.15 * pitch and 0.55 * pitch <= h <= 1.15 * pitch and 0.7 <= w / h <= 1.4):
        return False
    if inside.mean() < 0.7:
        return False
    sides = (inside[0], inside[-1], inside[:, 0], inside[:, -1])
    return all(side.mean() >= 0.8 for side in sides)


def _long_strokes(dark: np.ndarray, pitch: float) -> np.ndarray:
    """The pixels of ``dark`` in a straight run longer than one and a half cells: the grid's frame and bold lines.
    A clue box drawn flush against the frame (a PDF rasterised at 150 dpi leaves no pixel of paper between them)
    is one blob with the whole grid until the frame is taken away. Only dark strokes: a box's light border in line
    with the frame would go with it, and the box would lose a side."""
    import cv2

    length = max(3, int(round(1.5 * pitch)))
    across = cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    down = cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    return np.maximum(across, down)


def unboxed(contrast: np.ndarray, gray: np.ndarray, rgb: Optional[np.ndarray], pitch: float
            ) -> tuple[np.ndarray, list[Box]]:
    """``contrast`` with every filled clue box painted out and its digit drawn back as ink; the boxes found."""
    image = _colours(gray, rgb)
    out = contrast
    boxes: list[Box] = []
    for x, y, w, h, inside, grow in _blobs(contrast, image, pitch):
        if not _is_box(_spanned(inside) if grow else inside, pitch):
            continue
        fill = np.median(image[y:y + h, x:x + w][inside], axis=0)
        x, y, w, h = max(0, x - grow), max(0, y - grow), w + 2 * grow, h + 2 * grow
        pad = max(1, round(0.1 * min(w, h)))
        core = image[y + pad:y + h - pad, x + pad:x + w - pad]
        distance = np.abs(core - fill.astype(np.int16)).max(axis=2).astype(np.float32)
        if out is contrast:
            out = contrast.copy()
        out[max(0, y - 1):y + h + 1, max(0, x - 1):x + w + 1] = 255
        strongest = max(int(distance.max(initial=0)), DIGIT_CONTRAST)
        digit = np.where(distance > DIGIT_CONTRAST / 2, 255 - 255 * distance / strongest, 255)
        out[y + pad:y + h - pad, x + pad:x + w - pad] = np.clip(digit, 0, 255).astype(np.uint8)
        rgb_fill = tuple(int(v) for v in np.broadcast_to(fill, (3,)))
        boxes.append(Box(x, y, x + w, y + h, rgb_fill))  # type: ignore[arg-type]
    return out, boxes


def _blobs(contrast: np.ndarray, image: np.ndarray, pitch: float
           ) -> Iterator[tuple[int, int, int, int, np.ndarray, int]]:
    """Each blob of what is not paper about a cell in size: ``x, y, w, h``, its pixels in that box, and how far
    its box must grow to take in its border. A blob larger than that is cut where its colour changes
    (:func:`_even`), and its pieces of even colour are blobs too, grown by :data:`BORDER`: rasterised at 100 dpi,
    a colour sheet's clue boxes touch, their borders shared, and a whole row of clues was one blob."""
    import cv2

    mask = (contrast < 255 - NOT_PAPER).astype(np.uint8)
    mask &= ~_long_strokes((contrast < 128).astype(np.uint8), pitch)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    even: Optional[np.ndarray] = None
    for label in range(1, count):
        x, y, w, h, _ = (int(v) for v in stats[label])
        if w < 0.55 * pitch or h < 0.55 * pitch:
            continue
        inside = labels[y:y + h, x:x + w] == label
        if w <= 1.15 * pitch and h <= 1.15 * pitch:
            yield x, y, w, h, inside, 0
            continue
        even = _even(image) if even is None else even
        parts, part_labels, part_stats, _ = cv2.connectedComponentsWithStats(
            (inside & even[y:y + h, x:x + w]).astype(np.uint8), connectivity=4)
        for part in range(1, parts):
            px, py, pw, ph, _ = (int(v) for v in part_stats[part])
            if 0.5 * pitch <= pw <= 1.15 * pitch and 0.5 * pitch <= ph <= 1.15 * pitch:
                yield x + px, y + py, pw, ph, part_labels[py:py + ph, px:px + pw] == part, BORDER


def _spanned(inside: np.ndarray) -> np.ndarray:
    """``inside`` with each row filled from its first pixel to its last: a piece of a box's even fill with the
    hole its digit and the digit's blurred edge leave (a third of a 12-pixel box) filled in."""
    cols = np.arange(inside.shape[1])
    first = np.where(inside.any(axis=1), inside.argmax(axis=1), inside.shape[1])
    last = inside.shape[1] - 1 - inside[:, ::-1].argmax(axis=1)
    return (cols >= first[:, None]) & (cols <= last[:, None])


BORDER = 2
"""Pixels a clue box cut from its neighbours by colour grows by: the pixel beside its border, and the border."""
EVEN = 24
"""Neighbouring pixels this close (strongest channel) are one even colour: a box's fill."""


def _even(image: np.ndarray) -> np.ndarray:
    """Pixels of one colour with all four neighbours: inside a box's fill, off its border and its digit."""
    step_x = np.abs(np.diff(image, axis=1)).max(axis=2) <= EVEN
    step_y = np.abs(np.diff(image, axis=0)).max(axis=2) <= EVEN
    even = np.ones(image.shape[:2], bool)
    even[:, 1:] &= step_x
    even[:, :-1] &= step_x
    even[1:] &= step_y
    even[:-1] &= step_y
    return even


def _fill_around(window: np.ndarray, colours: np.ndarray, box: tuple[int, int, int, int]
                 ) -> Optional[tuple[int, int, int]]:
    """The colour a number sits on when it is not paper (a box that touches a line, so not found as a box):
    ``window`` is the contrast around the number, ``colours`` the same pixels' colours, ``box`` the number in it."""
    x0, y0, x1, y1 = box
    ring = np.ones(window.shape, bool)
    ring[y0:y1, x0:x1] = False
    if not ring.any() or np.median(window[ring]) >= 255 - NOT_PAPER:
        return None
    fill = np.median(colours[ring], axis=0)
    return tuple(int(v) for v in np.broadcast_to(fill, (3,)))  # type: ignore[return-value]


def panel_colour(items: Sequence, grid: Grid, rgb: np.ndarray, contrast: np.ndarray) -> Optional[np.ndarray]:
    """The colour of the clue margins' empty slots when it is not paper: an app's tinted panel under its clues
    (Picture Cross draws its clues on a translucent panel over a picture). None where the empty slots are paper,
    as on a printed sheet, or where there are too few of them to tell.

    A slot holding a number is left out, box and all: a colour puzzle's clue boxes fill the margins around the
    numbers, and only the slots no clue reaches show what the margin is drawn on."""
    x0, y0, x1, y1 = (int(v) for v in grid.box)
    pitch = grid.pitch
    left = [i for i in items if i.box[2] <= x0 and y0 <= i.cy < y1]
    above = [i for i in items if i.box[3] <= y0 and x0 <= i.cx < x1]
    empty = np.zeros(contrast.shape, bool)
    if left:
        start = max(0, int(min(i.box[0] for i in left) - 0.5 * pitch))
        empty[y0:y1, start:x0] = True
    if above:
        start = max(0, int(min(i.box[1] for i in above) - 0.5 * pitch))
        empty[start:y0, x0:x1] = True
    for i in left:
        r = int(np.clip(np.searchsorted(grid.ys, i.cy) - 1, 0, grid.height - 1))
        empty[int(grid.ys[r]):int(grid.ys[r + 1]), max(0, int(i.cx - 0.5 * pitch)):int(i.cx + 0.5 * pitch)] = False
    for i in above:
        c = int(np.clip(np.searchsorted(grid.xs, i.cx) - 1, 0, grid.width - 1))
        empty[max(0, int(i.cy - 0.5 * pitch)):int(i.cy + 0.5 * pitch), int(grid.xs[c]):int(grid.xs[c + 1])] = False
    empty &= contrast >= 128  # no lines, no digits
    if empty.sum() < pitch * pitch or np.median(contrast[empty]) >= 255 - NOT_PAPER:
        return None
    return np.median(rgb[empty].astype(np.int16), axis=0)


def item_colours(items: Sequence, boxes: Sequence[Box], gray: np.ndarray, rgb: Optional[np.ndarray],
                 contrast: np.ndarray, panel: Optional[np.ndarray] = None) -> list[tuple[int, int, int]]:
    """The colour of each number (anything with a ``box``): the fill of the clue box under it, else of what it
    sits on when that is not paper nor the clues' ``panel`` (:func:`panel_colour`), else its darkest ink's."""
    bounds = np.asarray([(b.x0, b.y0, b.x1, b.y1) for b in boxes], np.float64).reshape(-1, 4)
    out = []
    for item in items:
        cx, cy = (item.box[0] + item.box[2]) / 2, (item.box[1] + item.box[3]) / 2
        under = np.flatnonzero((bounds[:, 0] <= cx) & (cx < bounds[:, 2]) & (bounds[:, 1] <= cy) & (cy < bounds[:, 3]))
        out.append(boxes[int(under[0])].fill if len(under) else _ink_colour(item.box, gray, rgb, contrast, panel))
    return out


def _ink_colour(box: tuple[float, float, float, float], gray: np.ndarray, rgb: Optional[np.ndarray],
                contrast: np.ndarray, panel: Optional[np.ndarray] = None) -> tuple[int, int, int]:
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = max(x0 + 1, int(np.ceil(box[2]))), max(y0 + 1, int(np.ceil(box[3])))
    pad = max(1, round(0.3 * (y1 - y0)))
    wx0, wy0 = max(0, x0 - pad), max(0, y0 - pad)
    colours = _colours(gray[wy0:y1 + pad, wx0:x1 + pad], None if rgb is None else rgb[wy0:y1 + pad, wx0:x1 + pad])
    fill = _fill_around(contrast[wy0:y1 + pad, wx0:x1 + pad], colours, (x0 - wx0, y0 - wy0, x1 - wx0, y1 - wy0))
    if fill is not None and (panel is None or np.abs(np.asarray(fill) - panel).max() > SAME_COLOUR):
        return fill
    ink = 255 - contrast[y0:y1, x0:x1].astype(np.int16)
    image = colours[y0 - wy0:y1 - wy0, x0 - wx0:x1 - wx0]
    if ink.size == 0 or int(ink.max()) <= 0:
        return (0, 0, 0)
    strong = ink >= 0.6 * int(ink.max())
    colour = np.median(image[strong], axis=0)
    return tuple(int(v) for v in np.broadcast_to(colour, (3,)))  # type: ignore[return-value]


def snapped(colours: Sequence[tuple[int, int, int]]) -> tuple[list[tuple[int, int, int]], list[int]]:
    """The distinct colours among ``colours`` (each the mean of those within :data:`SAME_COLOUR` of the most
    common one left), and the index of each given colour among them, in order of first appearance."""
    left = np.asarray(colours, np.float64).reshape(-1, 3)
    groups = np.full(len(left), -1)
    centres: list[np.ndarray] = []
    while (groups < 0).any():
        free = np.nonzero(groups < 0)[0]
        near = np.abs(left[free][:, None, :] - left[free][None, :, :]).max(axis=2) <= SAME_COLOUR
        seed = free[int(near.sum(axis=1).argmax())]
        members = free[np.abs(left[free] - left[seed]).max(axis=1) <= SAME_COLOUR]
        groups[members] = len(centres)
        centres.append(left[members].mean(axis=0))
    order: dict[int, int] = {}
    for g in groups:
        order.setdefault(int(g), len(order))
    out = [tuple(int(round(v)) for v in centres[g]) for g in sorted(order, key=order.__getitem__)]
    return out, [order[int(g)] for g in groups]  # type: ignore[return-value]


def colour_palette(items: Sequence) -> tuple[tuple, dict[int, int]]:
    """The puzzle's palette for numbers read with colours, and each item's (by ``id``) colour index from 1.

    No colours (a grey page), or only one near-black ink: black and white, every clue colour 1.
    """
    from ...colorspace import palette_from_rgb
    from ...palette import BW_PALETTE

    coloured = [i for i in items if i.colour is not None]
    if not coloured:
        return BW_PALETTE, {}
    centres, index = snapped([i.colour for i in coloured])
    if len(centres) == 1 and max(centres[0]) < 90:
        return BW_PALETTE, {}
    return palette_from_rgb((255, 255, 255), centres), {id(i): k + 1 for i, k in zip(coloured, index, strict=True)}
