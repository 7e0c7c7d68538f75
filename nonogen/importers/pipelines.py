"""The pipelines behind :func:`~nonogen.importers.image.image_to_grid`, one per kind of picture and mode.

Each takes the :class:`~nonogen.importers.frame.Frame` and the user's options,
records what it did in ``info`` (and sentences for the user in ``notes``) and
hands back :class:`Cells`. Which one runs is decided by ``image_to_grid``:
exact pixel art and flat drawings keep their colours, photos (an opaque
border, many colours) get :mod:`.photo`, everything else the subject-aware
black and white of :mod:`.binarize` or the colours of :mod:`.quantize`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ..errors import InputError
from ..colorspace import DEFAULT_MIN_DISTANCE, palette_from_rgb, to_lab
from ..palette import BW_PALETTE, Color, to_hex
from .binarize import OUTLINE_CELLS, Inking, bw_cells, subject_inkings, subject_mask
from .frame import Frame, cell_mean
from .options import ImageOptions
from .photo import MERGE_DE, bw_photo, colour_photo
from .quality import reads
from .quantize import color_cells

__all__ = ["Cells", "AUTO_MAX_COLORS", "PHOTO_COLORS", "bw_picture_cells", "colour_cells", "colour_photo_cells",
           "bw_photo_cells", "silhouette", "colour_if_it_covers", "DRAWING_COLORS", "COVERS_SUBJECT",
           "style_note"]

AUTO_MAX_COLORS = 8
"""``mode="auto"`` keeps a picture's exact colours (pixel art, flat drawings) when it has at most this many."""
PHOTO_COLORS = 4
"""Colours besides the background that a photo gets by default (``mode="auto"``)."""


@dataclass(frozen=True)
class Cells:
    """What every pipeline hands back: the grid, its palette, per-cell confidence (0..1) and runner-up value."""

    grid: np.ndarray
    palette: tuple[Color, ...]
    confidence: np.ndarray
    alternative: np.ndarray


def bw_picture_cells(frame: Frame, reference: np.ndarray, options: ImageOptions, info: dict[str, Any]) -> Cells:
    """Black and white of anything but a photo: the subject's inkings (:mod:`.binarize`)."""
    inking = bw_cells(frame, reference, options.threshold, options.fill, options.invert, options.style)
    info.update(mode="bw", inking=inking.name, **inking.info)
    grid = inking.grid
    confidence = np.clip(2.0 * inking.sure - 1.0, 0.0, 1.0)
    return Cells(grid, BW_PALETTE, confidence, (1 - grid).astype(np.uint8))


def colour_cells(frame: Frame, options: ImageOptions, info: dict[str, Any], notes: list[str]) -> Cells:
    """Colours of anything but a photo: merged candidates, a vote per cell (:mod:`.quantize`)."""
    k = options.colors if options.colors is not None else AUTO_MAX_COLORS
    distance = DEFAULT_MIN_DISTANCE if options.min_distance is None else options.min_distance
    colouring = color_cells(frame, k, distance, frame.background, options.style)
    info.update(mode="color", background="transparent" if frame.background is None else to_hex(frame.background))
    info.update(colouring.info)
    kept = len(colouring.rgbs) - 1
    confidence = np.clip(2.0 * colouring.sure - 1.0, 0.0, 1.0)
    if options.colors is None and kept <= 1:  # one exact colour: a plain black-and-white puzzle
        info["mode"] = "bw"
        grid = (colouring.grid > 0).astype(np.uint8)
        return Cells(grid, BW_PALETTE, confidence, (1 - grid).astype(np.uint8))
    notes += _merged_note(options.colors, kept, distance)
    info["colors"] = kept
    palette = palette_from_rgb(colouring.rgbs[0], colouring.rgbs[1:])
    return Cells(colouring.grid, palette, confidence, colouring.alternative)


DRAWING_COLORS = 4
"""Colours besides the background that :func:`colour_if_it_covers` gives a drawing (as many as a photo gets)."""
COVERS_SUBJECT = 0.6
"""Share of the subject's cells that the colours must ink for :func:`colour_if_it_covers` to draw in colour. Chosen
on the FIT half of round r2's icons (samples/readability/icons-r2/split.json): the colours of the 17 drawn in colour
there ink 0.83 to 1.0 of the subject, those of the 4 left in black and white (light faces and bodies, a pale key)
0.0 to 0.42; 0.6 lies between."""


def colour_if_it_covers(frame: Frame, options: ImageOptions, info: dict[str, Any], notes: list[str]) -> Optional[Cells]:
    """The rule "colour where colour reads better" for a drawing that is not a photo and has more exact
    colours (or softer edges) than :data:`AUTO_MAX_COLORS` allows: its :data:`DRAWING_COLORS`-colour drawing
    when that keeps two colours or more and inks at least :data:`COVERS_SUBJECT` of the subject's cells, else
    ``None`` (black and white, as today).

    Two colours or more: one colour is a silhouette, which black and white
    draws as well or better (with its dark details). Covering the subject: a
    light part of it (a white face, a pale grey key) joins the paper in
    colour and is lost, where black and white outlines it. The subject is
    the opaque part of a transparent picture or what the border's colours do
    not reach (:func:`~.binarize.subject_mask`); a cell is the subject's when
    at least half of its pixels are. Judged blind in round r2
    (samples/readability/icons-r2/judged/) and made the default there:
    :data:`~.image.COLOUR_RULE`.
    """
    subject, _ = subject_mask(frame)
    colouring = color_cells(frame, DRAWING_COLORS, DEFAULT_MIN_DISTANCE, frame.background, options.style)
    kept = len(colouring.rgbs) - 1
    cells = (np.zeros((frame.rows, frame.cols), dtype=bool) if subject is None else
             cell_mean(subject.astype(np.float64), frame.labels, frame.n_cells).reshape(frame.rows, frame.cols) >= 0.5)
    covers = float(np.mean(colouring.grid[cells] > 0)) if cells.any() else 0.0
    chosen = kept >= 2 and covers >= COVERS_SUBJECT
    info["colour_rule"] = {"colors": kept, "covers": round(covers, 3), "colour": chosen}
    if not chosen:
        return None
    info.update(mode="color", background="transparent" if frame.background is None else to_hex(frame.background),
                colors=kept)
    info.update(colouring.info)
    confidence = np.clip(2.0 * colouring.sure - 1.0, 0.0, 1.0)
    palette = palette_from_rgb(colouring.rgbs[0], colouring.rgbs[1:])
    return Cells(colouring.grid, palette, confidence, colouring.alternative)


def style_note(style: str, photo: bool, pixel_art: bool, colour: bool, transparent: bool) -> list[str]:
    """A sentence when the ``style`` asked for has no part in drawing this picture (an empty list otherwise).

    Which pipeline runs depends on the picture, not only on the options, so
    this cannot be refused when the options are made: photos are drawn from
    their tones and colours (:mod:`.photo`), and pixel art in colour or cut
    out by transparency keeps its cells as drawn.

    >>> style_note("outline", photo=True, pixel_art=False, colour=False, transparent=False)
    ["style 'outline' is not used for photos: a photo is drawn from its own tones and colours"]
    """
    if style == "auto":
        return []
    if photo:
        return [f"style {style!r} is not used for photos: a photo is drawn from its own tones and colours"]
    if pixel_art and (colour or transparent):
        return [f"style {style!r} is not used for this pixel art: its cells are kept as drawn"]
    return []


def _merged_note(asked: Optional[int], kept: int, distance: float) -> list[str]:
    if asked is None or kept >= asked:
        return []
    return [(f"{asked} colours asked for, {kept} kept: the others were within {distance:g} (CIEDE2000) "
             "of a kept colour or the background, or filled no cell")]


def colour_photo_cells(frame: Frame, options: ImageOptions, info: dict[str, Any], notes: list[str]) -> Cells:
    """Colours of a photo: superpixels and k-means (:mod:`.photo`); one colour left is black and white."""
    k = options.colors if options.colors is not None else PHOTO_COLORS
    distance = MERGE_DE if options.min_distance is None else options.min_distance
    cells = colour_photo(frame, k, distance, frame.background if options.background else None)
    info.update(mode="color", background=to_hex(cells.rgbs[0]), colors=len(cells.rgbs) - 1, **cells.info)
    notes += _merged_note(options.colors, len(cells.rgbs) - 1, distance)
    if len(cells.rgbs) == 2 and options.colors is None:  # one colour survived: plain black and white
        info["mode"] = "bw"
        return Cells(cells.grid, BW_PALETTE, cells.sure, cells.alternative)
    return Cells(cells.grid, palette_from_rgb(cells.rgbs[0], cells.rgbs[1:]), cells.sure, cells.alternative)


def bw_photo_cells(frame: Frame, reference: np.ndarray, options: ImageOptions, info: dict[str, Any]) -> Cells:
    """Black and white of a photo: the tone cut that reads best (:mod:`.photo`); a photo cut out to its subject
    is drawn as puzzle authors draw one (:func:`subject_drawing`)."""
    drawn = subject_inkings(frame) if frame.background is None else []
    if drawn:
        drawn.append(region_drawing(frame))
        chosen = subject_drawing(drawn, reference)
        info.update(mode="bw", method="subject drawing", drawing=chosen.name, compactness=chosen.info["compactness"])
        grid, sure = chosen.grid, chosen.sure
    else:
        cells = bw_photo(frame, reference)
        info.update(mode="bw", **cells.info)
        grid, sure = cells.grid, cells.sure
    grid = (1 - grid if options.invert else grid).astype(np.uint8)
    return Cells(grid, BW_PALETTE, sure, (1 - grid).astype(np.uint8))


def subject_drawing(drawn: list[Any], reference: np.ndarray) -> Any:
    """The drawing of a subject cut out of a photo: its colour drawing translated to ink (:func:`region_drawing`)
    when that has a light region to outline, else its solid silhouette or its outline with the dark features
    inside, whichever reads better (:func:`~.quality.reads`).

    Puzzle authors draw a subject from its parts: a sail's triangle beside a
    dark hull, a cup's rim around the coffee, a face's outline around its
    eyes. In blind labels the silhouette of such subjects was a pear or a
    disc, and tone cuts of the cut-out were blobs. The readability score is
    not asked first: fitted to whole-frame drawings, it prefers the solid
    silhouette of a light subject.
    """
    by_name = {inking.name: inking for inking in drawn}
    regions = by_name.get("regions")
    if regions is not None and regions.info.get("light_regions"):
        chosen = regions
    else:
        options = [by_name[name] for name in ("silhouette", "outline") if name in by_name]
        chosen = max(options, key=lambda inking: reads(inking.grid, reference, BW_PALETTE))
    chosen.info["compactness"] = round(compactness(by_name["silhouette"].grid), 3)
    return chosen


DARK_REGION = 55.0
"""CIELAB lightness under which a region of the subject's colour drawing is inked solid (else only its edge)."""


def region_drawing(frame: Frame) -> Inking:
    """The subject's colour drawing (:func:`~.photo.colour_photo`, :data:`PHOTO_COLORS` colours) in black and
    white: dark regions solid, light regions as their edge cells, so a white sail keeps its triangle beside a
    dark hull and a light face its outline around dark eyes, as authors translate a colour picture.

    A light region's edge is drawn only where it meets paper or another light
    region: where it meets a solid one, the solid region draws that edge
    already, and a band there would fill the light holes (a wheel's hub
    became part of a solid blob)."""
    colouring = colour_photo(frame, PHOTO_COLORS, MERGE_DE)
    grid = colouring.grid
    light = {c for c, rgb in enumerate(colouring.rgbs)
             if c and to_lab(np.array(rgb, dtype=np.float64))[0] >= DARK_REGION}
    dark = (grid > 0) & ~np.isin(grid, list(light))
    edge = np.zeros(grid.shape, dtype=bool)
    for step in range(1, OUTLINE_CELLS + 1):  # a band as thick as the outlines' (one-cell lines are specks)
        padded = np.pad(grid, step, constant_values=0)
        solid = np.pad(dark, step, constant_values=False)
        for dr, dc in ((-step, 0), (step, 0), (0, -step), (0, step)):
            rows, cols = slice(step + dr, grid.shape[0] + step + dr), slice(step + dc, grid.shape[1] + step + dc)
            edge |= (padded[rows, cols] != grid) & ~solid[rows, cols]  # a solid neighbour draws that edge already
    ink = dark | ((grid > 0) & edge)
    return Inking(ink.astype(np.uint8), colouring.sure, "regions", {"light_regions": len(light)})


def compactness(grid: np.ndarray) -> float:
    """4 pi area / perimeter squared of the filled cells (perimeter in cell edges): ~0.6-0.8 for a disc or a
    square, lower for a shape with limbs, holes or spikes.

    >>> round(compactness(np.ones((4, 4))), 3)
    0.785
    """
    filled = np.pad(np.asarray(grid).astype(bool), 1)
    perimeter = np.count_nonzero(filled[1:] != filled[:-1]) + np.count_nonzero(filled[:, 1:] != filled[:, :-1])
    return float(4 * np.pi * filled.sum() / max(perimeter, 1) ** 2)


def silhouette(frame: Frame, options: ImageOptions, info: dict[str, Any]) -> Cells:
    """Alpha coverage only: a cell is filled when its pixels are opaque enough on average."""
    alpha = frame.rgba[..., 3]
    if np.all(alpha >= 250):
        raise InputError("the picture has no transparency: silhouette mode needs an alpha channel")
    threshold = 128 if options.threshold is None else options.threshold
    coverage = cell_mean(alpha.astype(np.float64) / 255.0, frame.labels, frame.n_cells)
    filled = coverage * 255.0 >= threshold
    if options.invert:
        filled = ~filled
    info.update(mode="silhouette", threshold=threshold)
    grid = filled.reshape(frame.rows, frame.cols).astype(np.uint8)
    confidence = np.clip(np.abs(coverage * 255.0 - threshold) / 128.0, 0, 1).reshape(grid.shape)
    return Cells(grid, BW_PALETTE, confidence, (1 - grid).astype(np.uint8))
