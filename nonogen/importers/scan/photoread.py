"""A photo's page read: each grid redrawn flat (:mod:`.photo`), then read as a clean sheet with mendings for a
photo's blur, its paper and its bend.

- The clue margins follow the grid's edges as drawn (:func:`.rectify.edges_followed`), then the light is evened
  again, cell by cell (:func:`_evened`): a shadow's small blotch makes a grey halo round its digits that the whole
  photo's evening leaves.
- Only dark strokes are grid lines: the paper's grain makes faint ridges a sheet's reader would take for grey lines
  (:func:`.glyphs.page_ink`). A blob far taller than a digit (a digit joined by a smear) is cut back to its dark
  cores (:func:`cored`); a digit that blur broke in two (a "2" losing its thin diagonal) is joined again
  (:func:`_joined`).
- Each digit is compared with prototypes drawn with the page's own blur alone, the one of
  :data:`.digits.MATCHED_BLURS` its glyphs look most like (:func:`matched`), and with the page's own surest readings
  too: those are in the page's font and its blur (:func:`_page_digits`, :func:`.digits.reading`); the digit model
  weighs in (:data:`.digits.MODEL_WEIGHT`). A rule that read a lone digit as narrow as the page's ones as a one
  (a blurred "1" the prototypes took for a "3") is gone with the model: on the bench's 120 hard photos of seeds 3, 5
  and 13 it made 13 narrow "7"s, "3"s and "2"s ones, misread 2 pages and mended none (111 read exactly without it,
  109 with it).
- Confidences are measured against the page's (:func:`_measured`), unless over a third of its numbers read
  unsurely: then the page is not :func:`legible` and no confidence on it is trusted. A blob unlike the page's
  digits in height, or far thinner than its ones (the page's edge, the table's grain), is no number
  (:func:`_plausible`). A number whose width does not fit its digits (one digit cut in two, two run together), or
  read as a digit a blurred other is often read as, is made unsure, so it is named (:func:`_misfit`,
  :func:`_confused`).
- A column clue line holding a number off its column's centre is a heading (a title whose letters read as digits);
  a row's clue is followed number by number out from the grid, as a bent page bows it (:func:`.assign.clue_items`).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

import numpy as np

from .colour import SAME_COLOUR
from .digits import MATCHED_BLURS, SIDE, blurred_at, classify_ranked, reading
from .glyphs import Glyph, Ink, page_ink
from .lattice import Grid
from .pages import Page
from .photo import STROKE, Flat, flat_grids, flatten
from .rectify import edges_followed

__all__ = ["read_photo", "read_flats", "sound", "matched", "cored", "legible", "LEGIBLE"]

PAGE_DIGITS_LEAST, PAGE_DIGITS_MOST = 3, 40
"""A digit read fewer times on a page gives it no prototypes of its own; the surest third, up to this many, do."""
CORE_LEVEL = 0.5
"""How far from paper towards ink a pixel of a blob far taller than a digit must be to stay in it (:func:`cored`)."""
MATCH_LEAST = 0.85
"""A glyph whose best likeness to a digit at every blur is under this does not vote on the page's blur."""
MATCH_VOTERS = 400
"""Glyphs that vote on a page's blur at most (every so many in the page's order): enough to tell it, few enough to
be quick."""
MATCH_STRIDE = 3
"""Every this many of a blur's prototypes are compared in the vote: each digit is drawn in many fonts and sizes,
and a third of them (every digit among them) tell the blur in a third of the time. On the bench's 40 hard photos
of seed 3, 32 chose the same blur as with all of them, the rest the next one, and every page read the same."""


EVEN_WINDOW = 1.25
"""Side, in cells, of the window a photo's paper is measured in around each pixel before its digits are cut out
(:func:`_evened`): wider than any number, so its brightest pixel is paper. At three quarters of a cell the window
sat inside a title's grey word and evened part of its letters away to paper; the crumbs that mark a line as text
went with them, and the title's number ("Puzzle 15") was read as a column's clue."""


def _evened(gray: np.ndarray, pitch: float) -> np.ndarray:
    """``gray`` divided by the paper's brightness within :data:`EVEN_WINDOW` cells of each pixel: a shadow's
    blotch a few cells across, too small for the whole photo's evening (:func:`.photo.flatten`), left a grey
    halo round a digit in it, darker than the page's ink level; the halo joined the digit's blob, and a "2"
    filled out to a box read as a sure "8"."""
    side = max(3, int(EVEN_WINDOW * pitch) | 1)
    return flatten(gray, side, side / 4, shrink=1).astype(gray.dtype)


def _joined(ink: Ink, pitch: float) -> Ink:
    """The ink with a digit that blur broke in two made one again: two blobs one over the other, overlapping
    across, that together are no taller than a digit (a blurred "2" loses its thin diagonal and falls apart).
    A digit's height is the page's (:func:`_digit_height`), not the median blob's: grain makes most blobs, and
    measured by them a 16-pixel "2" in two halves was taller than a digit and was read as "997"."""
    height = _digit_height(ink, pitch)
    if height is None:
        return ink
    glyphs = sorted(ink.glyphs, key=lambda g: (g.x0, g.y0))
    merged: dict[int, Glyph] = {}
    gone: set[int] = set()
    labels = ink.labels.copy()
    for i, a in enumerate(glyphs):
        if a.label in gone:
            continue
        a = merged.get(a.label, a)
        for b in glyphs[i + 1:]:
            if b.x0 > a.x1:
                break
            if b.label in gone or b.label == a.label:
                continue
            overlap = min(a.x1, b.x1) - max(a.x0, b.x0)
            top, bottom = (a, b) if a.cy < b.cy else (b, a)
            tall = max(a.y1, b.y1) - min(a.y0, b.y0)
            if (overlap >= 0.5 * min(a.w, b.w) and bottom.y0 - top.y1 <= 0.35 * height
                    and tall <= 1.2 * height and max(a.h, b.h) < 0.8 * height):
                box = labels[b.y0:b.y1, b.x0:b.x1]
                box[box == b.label] = a.label
                a = Glyph(min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1), a.label)
                merged[a.label] = a
                gone.add(b.label)
    if not gone:
        return ink
    kept = tuple(merged.get(g.label, g) for g in ink.glyphs if g.label not in gone)
    return Ink(ink.gray, ink.paper, ink.dark, labels, kept)


SPECK_SIDE = 0.25
"""A blob under this share of the page's digit height both ways is a speck of the paper's grain or a line's end,
not a digit nor a piece of one."""


SLIVER = 0.12
"""A blob narrower than this share of the page's digit height is a line's edge, not a digit's stroke: a pixel-wide
sliver of a clue cell's side beside the page's edge, 15 pixels high by 16-pixel digits, was read as a "1" and
joined the "4" beside it (a real photo, nono5, once the light is evened: :func:`_evened`)."""


def _digit_height(ink: Ink, pitch: float) -> Optional[float]:
    """A digit's height on the page: the median of the blobs from a third of a cell of ``pitch`` to a cell high
    (the paper's grain makes many smaller ones); None when there are none."""
    sizes = [g.h for g in ink.glyphs if 0.3 * pitch <= g.h <= pitch]
    return float(np.median(sizes)) if sizes else None


def _without_specks(ink: Ink, pitch: float) -> Ink:
    """The ink less its specks (:data:`SPECK_SIDE`) and slivers (:data:`SLIVER`), before broken digits are joined
    (:func:`_joined`): two 1x3-pixel ends of a clue box's line beside a "4", one over the other, were joined and read
    as a "1" of the same number ("41" for a 4)."""
    height = _digit_height(ink, pitch)
    if height is None:
        return ink
    least, thinnest = SPECK_SIDE * height, SLIVER * height
    return replace(ink, glyphs=tuple(g for g in ink.glyphs if (g.h >= least or g.w >= least) and g.w >= thinnest))


def _inside(ink: Ink, box: tuple[float, float, float, float], grid: Grid) -> Ink:
    """The ink less the glyphs whose middle is outside ``box``, or in its corner above and left of the ``grid``:
    beyond a magazine's frame is the photo's background (a tablecloth's pattern beside the page was read as a
    number left of a row's clue), and its corner holds the puzzle's picture (a diamond's edge, read as "475" beside
    the top clues, was taken for a heading over them and two lines of column clues were lost)."""
    x0, y0, x1, y1 = box
    return replace(ink, glyphs=tuple(g for g in ink.glyphs if x0 <= g.cx <= x1 and y0 <= g.cy <= y1
                                     and (g.cx >= grid.xs[0] or g.cy >= grid.ys[0])))


def cored(ink: Ink, pitch: float) -> Ink:
    """The ink with a blob far taller than the page's glyphs cut down to its dark cores: a digit joined by a faint
    smear (the paper's grain in a shadow, a JPEG block) is no digit-sized blob, and a clue line holding it read as a
    heading, so every clue above it was lost. Its pixels darker than half way to the ink are its cores; those of a
    digit's height are glyphs again, the rest is paper (a digit's height: :func:`_digit_height`)."""
    import cv2

    height = _digit_height(ink, pitch)
    if height is None:
        return ink
    labels = ink.labels.copy()
    glyphs, fresh = [], int(labels.max()) + 1
    strict = ink.gray < ink.paper - CORE_LEVEL * (ink.paper - ink.dark)
    for g in ink.glyphs:
        if not (1.5 * height < g.h <= 4 * height and g.w <= 4 * height):
            glyphs.append(g)
            continue
        box = labels[g.y0:g.y1, g.x0:g.x1]
        own = box == g.label
        count, parts, stats, _ = cv2.connectedComponentsWithStats((own & strict[g.y0:g.y1, g.x0:g.x1]).astype(np.uint8),
                                                                   connectivity=8)
        box[own] = 0
        for k in range(1, count):
            x, y, w, h, _ = stats[k]
            if 0.5 * height <= h <= 1.5 * height:
                box[parts == k] = fresh
                glyphs.append(Glyph(g.x0 + int(x), g.y0 + int(y), g.x0 + int(x + w), g.y0 + int(y + h), fresh))
                fresh += 1
    if len(glyphs) == len(ink.glyphs) and fresh == int(ink.labels.max()) + 1:
        return ink
    return Ink(ink.gray, ink.paper, ink.dark, labels, tuple(glyphs))


def legible(items: list) -> bool:
    """Whether a photo's digits read surely enough for each clue's confidence to mean something: at least
    :data:`LEGIBLE` of its numbers read sure (leading every other digit by :data:`.digits.SURE_GAP`). Confidences
    are measured against the page's own (:func:`_measured`), which a page read badly throughout defeats: its
    tenth-least sure reading is so unsure that misread digits score as sure (seed 67's page 11, digits 6 pixels
    high: 24 lines misread, two of them at 0.99 and 1). On such a page no reading can be trusted
    (:data:`nonogen.scanning.ILLEGIBLE_CONFIDENCE`)."""
    sure = [i.confidence >= 1.0 for i in items if i.value >= 0]
    return not sure or float(np.mean(sure)) >= LEGIBLE


def _measured(items: list) -> list:
    """The items with their confidence measured against the page's own: a photo's blurred digits all look more
    alike than a sheet's, so a lead that is small on a clean sheet is usual here. A reading as sure as the page's
    tenth-least sure scores 0.5 (on the bench's hard photos every misread digit ranked in the page's lowest 7 %)."""
    sure = [i.confidence for i in items if i.value >= 0]
    if not sure:
        return items
    scale = min(1.0, 2 * float(np.percentile(sure, 10)))
    if scale >= 1.0 or scale <= 0.0:
        return items
    return [replace(i, confidence=min(1.0, i.confidence / scale)) for i in items]


LEGIBLE = 0.65
"""The share of a photo's numbers read sure under which it is not :func:`legible`. Of the bench's 560 hard photos
(seeds 3 to 29 and 67 to 83), every page read exactly had at least 73 % of its numbers sure; the six read badly
throughout (14 to 40 lines misread; four of them had a misread line read with confidence, not named) had 21 to
56 %."""


SHORTEST = 0.6
"""Share of the height of the digits around it under which a blob is no number: two specks of grain 9 and 11 pixels
high beside 19-pixel digits (0.47 and 0.58) were read as "8" and "9" off their columns, and their line was taken for
a heading: four lines of column clues above them were lost (seed 53 page 3). A bent page's far digits shrink by a
third at most, and the digits around a blob are its neighbours, shrunk alike."""


THIN_ONE, THIN_OTHER = 0.4, 0.7
"""Widths, in the page's usual "1"'s, under which a "1" and any other digit are no number: a "1" is the narrowest
digit, and in a font whose "1" has a foot it is as wide as the rest. Two specks of grain joined into a blob 5
pixels wide beside 10-pixel ones read as a "3" above a column's clue (seed 17 page 23)."""


def _plausible(items: list) -> list:
    """The items with what cannot be a clue number made no number (value -1, where a clue's reading stops): a blob
    far taller or shorter than the digits around it, or far thinner than the page's ones (:data:`THIN_ONE`). A
    photo's margin may hold the page's edge (a thin dark line) and the table's grain beyond it, within a clue's reach
    of the last number. Around it, not the page's: a bent page's redrawn margin may still shrink its digits a third
    far out."""
    digits = [i for i in items if i.value >= 0]
    tall = [i for i in digits if i.text.strip("1")]  # a blurred one is shorter than the other digits
    if len(tall) < 5:
        return items
    where = np.array([(i.cx, i.cy) for i in tall])
    heights = np.array([i.h for i in tall])
    usual, mine = {}, {id(i) for i in tall}
    for i in digits:
        near = np.argsort(((where - (i.cx, i.cy)) ** 2).sum(axis=1))[int(id(i) in mine):9]
        usual[id(i)] = float(np.median(heights[near]))
    ones = [i.box[2] - i.box[0] for i in digits if i.text == "1"]
    one = float(np.median(ones)) if len(ones) >= 3 else 0.0

    def too_thin(i) -> bool:  # an Item
        return i.box[2] - i.box[0] < (THIN_OTHER if i.text.strip("1") else THIN_ONE) * one

    return [replace(i, value=-1, likeness=0.0) if id(i) in usual and (
        not SHORTEST * usual[id(i)] <= i.h <= 1.6 * usual[id(i)] or too_thin(i)) else i for i in items]


NARROW = 1.3
"""Width, in its widest digit's usual widths (the page's own), under which a number read as several digits is taken
for one digit cut in two: a blurred "1" read as a sure "11" was 1.1 wide, a blotted "2" read as "991" 1.0; on the
bench's hard photos every two-digit clue read right was at least 1.75 wide."""
WIDE = 1.6
"""Width, in its digit's usual widths (the page's own), over which a number read as one digit is taken for two
digits run together: a "10" whose "1" touched its "0" read as a sure "8" 1.7 and 1.8 wide (seed 29 page 23, twice,
neither named); on the bench's 560 hard photos every digit other than a "1" read right was at most 1.5 wide (a
"1" is too narrow for its width to say anything)."""
DOUBTED_CONFIDENCE = 0.3
"""Confidence in a number whose width does not fit its digits, or read as a digit a blurred other is often read as
(under :data:`~nonogen.scanning.UNSURE`: it is named)."""
RUN_TOGETHER = tuple(range(10, 20))
"""Other readings of a digit too wide for itself, after its own: clues of two digits are mostly tens, and a "1" is
the digit that touches its neighbour most."""


def _misfit(items: list) -> list:
    """The items with a number whose width does not fit its digits made unsure, so that it is named and the fix
    search tries its likely readings: a number too narrow for its digits (one digit cut in two) with its digits
    alone first, a digit too wide for itself (two run together) with the tens after its own."""
    digits = [i for i in items if i.value >= 0 and len(i.text) == 1]
    if len(digits) < 5:
        return items
    widths: dict[str, list[float]] = {}
    for i in digits:
        widths.setdefault(i.text, []).append(i.box[2] - i.box[0])
    usual_any = float(np.median([i.box[2] - i.box[0] for i in digits]))
    usual = {d: float(np.median(w)) if len(w) >= 3 else usual_any for d, w in widths.items()}
    out = []
    for i in items:
        width = i.box[2] - i.box[0]
        if i.value >= 10 and width < NARROW * max(usual.get(d, usual_any) for d in i.text):
            alone = tuple(dict.fromkeys(int(d) for d in i.text if d != "0"))
            i = replace(i, confidence=min(i.confidence, DOUBTED_CONFIDENCE),
                        alternatives=alone + tuple(a for a in i.alternatives if a not in alone))
        elif 0 <= i.value <= 9 and i.text != "1" and width > WIDE * usual.get(i.text, usual_any):
            # its own runners-up first: a "0" among numbers takes its first (assign), which was right ("12")
            i = replace(i, confidence=min(i.confidence, DOUBTED_CONFIDENCE),
                        alternatives=i.alternatives + tuple(a for a in RUN_TOGETHER if a not in i.alternatives))
        out.append(i)
    return out


CONFUSED = frozenset({("3", 1)})
"""Readings (a digit, its runner-up) that a photo's blur makes of another digit often enough that no lead makes
them sure: on the bench's 560 hard photos (seeds 3 to 29 and 67 to 83) a blurred "1" read as "3" was the reader's
most common misreading (42 of the 142 numbers misread alone); on the pages not read unsurely throughout, 10 of the
24 "3"s whose runner-up was "1" were ones, 3 of them read with confidence 0.5 or more, while every other digit read
that sure with "1" its runner-up (127) was right."""


def _confused(items: list) -> list:
    """The items read as one of :data:`CONFUSED` made unsure, so that they are named."""
    return [replace(i, confidence=min(i.confidence, DOUBTED_CONFIDENCE))
            if i.alternatives and (i.text, i.alternatives[0]) in CONFUSED else i for i in items]


def _page_digits(seen: list) -> Optional[tuple[np.ndarray, np.ndarray]]:
    """The page's surest readings of each digit as prototypes: the fonts' prototypes are sharp or evenly blurred,
    a photo's digits are blurred its own way, and its surest readings of a digit show that way best."""
    if not seen:
        return None
    features = np.concatenate([f for f, _, _ in seen])
    digits = np.concatenate([d for _, d, _ in seen])
    lead = np.concatenate([g for _, _, g in seen])
    vectors, labels = [], []
    for digit in range(10):
        mine = np.nonzero(digits == digit)[0]
        if len(mine) < PAGE_DIGITS_LEAST:
            continue
        sure = mine[np.argsort(-lead[mine])][:max(PAGE_DIGITS_LEAST, len(mine) // 3)][:PAGE_DIGITS_MOST]
        vectors.append(features[sure])
        labels.append(np.full(len(sure), digit, np.int8))
    if not vectors:
        return None
    return np.concatenate(vectors).astype(np.float32), np.concatenate(labels)


def sound(rows: tuple, cols: tuple) -> bool:
    """Whether a grid's clues as read (items per row and column) hold together: every number read, each clue fits
    its line, rows and columns fill as many cells. A clean sheet read right always does; a misread rarely does."""
    width, height = len(cols), len(rows)
    total = []
    for lines, length in ((rows, width), (cols, height)):
        cells = 0
        for items in lines:
            values = [i.value for i in items]
            if any(v < 0 for v in values) or (0 in values and values != [0]):
                return False
            if least_length(items) > length:
                return False
            cells += sum(values)
        total.append(cells)
    return total[0] == total[1] and total[0] > 0


def least_length(items: tuple) -> int:
    """The fewest cells a line's numbers as read fill: a gap between two only where they are one colour (a colour
    sheet's clue of 15 numbers can fill a 15-cell line, and a check for a black-and-white one's gaps made every
    colour page unsound, so read twice, a photo's way too: 1.1 s more a page)."""
    same = sum(1 for a, b in zip(items, items[1:], strict=False) if _one_colour(a.colour, b.colour))
    return sum(i.value for i in items) + same


def _one_colour(a: Optional[tuple], b: Optional[tuple]) -> bool:
    return a is None or b is None or max(abs(x - y) for x, y in zip(a, b, strict=True)) <= SAME_COLOUR


def matched(seen: list) -> tuple[np.ndarray, np.ndarray]:
    """The prototypes of the one blur (:data:`.digits.MATCHED_BLURS`) the page's digits look most like: the median
    likeness of its glyphs that look like a digit at some blur (:data:`MATCH_LEAST`; the paper's grain and the
    table's make blobs that do not, and they favour the blurriest); :data:`MATCH_VOTERS` of them at most."""
    features = np.concatenate([f for f, _, _ in seen]) if seen else np.zeros((0, SIDE * SIDE), np.float32)
    features = features[::max(1, -(-len(features) // MATCH_VOTERS))]
    banks = [blurred_at(b) for b in MATCHED_BLURS]
    if not len(features):
        return banks[len(banks) // 2]
    sims = np.stack([(features @ bank[0][::MATCH_STRIDE].T).max(axis=1) for bank in banks])
    digit_like = sims.max(axis=0) >= MATCH_LEAST
    if not digit_like.any():
        return banks[len(banks) // 2]
    return banks[int(np.argmax(np.median(sims[:, digit_like], axis=1)))]


def _reread(seen: list, bank: tuple[np.ndarray, np.ndarray]) -> list:
    """What was ``seen`` (features, digits, leads) read again with ``bank`` alone."""
    again: list = []
    if seen:
        with reading(page=bank, fonts=False, seen=again, model=True):
            classify_ranked(np.concatenate([f for f, _, _ in seen]))
    return again


def _with(bank: tuple[np.ndarray, np.ndarray],
          more: Optional[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    return bank if more is None else (np.concatenate([bank[0], more[0]]), np.concatenate([bank[1], more[1]]))


def read_photo(page: Page, stroke: int = STROKE) -> list:
    """The puzzles of a photographed page: each grid redrawn flat (:func:`flat_grids`, lines up to ``stroke``
    pixels wide) and read as a clean sheet."""
    return read_flats(flat_grids(page.gray, stroke), page.number)


def read_flats(flats: list[Flat], number: int = 1) -> list:
    """The puzzles of grids redrawn flat (page ``number``), each read as a clean sheet."""
    from .assign import BLURRED_SPREAD, CENTRED, STRAYS, clue_items
    from .raster import raster_items
    from .read import Found

    found = []
    for flat in flats:
        flat = edges_followed(flat)
        ink = cored(page_ink(_evened(flat.gray, flat.grid.pitch), flat.grid.pitch, ridges=False, blocks=True,
                             ground=flat.grid.box[1]), flat.grid.pitch)
        ink = _joined(_without_specks(ink, flat.grid.pitch), flat.grid.pitch)
        if flat.frame is not None:
            ink = _inside(ink, flat.frame, flat.grid)
        seen: list = []  # every glyph's features, and every way of cutting a blob's (the first reading is not kept)
        with reading(page=blurred_at(MATCHED_BLURS[len(MATCHED_BLURS) // 2]), fonts=False, seen=seen):
            raster_items(ink, flat.grid)
        bank = matched(seen)
        with reading(page=_with(bank, _page_digits(_reread(seen, bank))), fonts=False, model=True):
            items = raster_items(ink, flat.grid)
        dropped: list = []
        items = _plausible(items)
        rows, cols = clue_items(_confused(_misfit(_measured(items))), flat.grid, spread=BLURRED_SPREAD,
                                centred=CENTRED, strays=STRAYS, tracked=True, dropped=dropped)
        if any(rows) or any(cols):
            found.append(Found(number, flat.grid, tuple(map(tuple, rows)), tuple(map(tuple, cols)), "pixels",
                               tuple(dropped), legible(items)))
    return found
