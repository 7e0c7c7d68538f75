"""Glyphs on a page and the numbers they spell: ink blobs, grouped into words, each digit read with a confidence.

A glyph is a connected blob of ink (long straight strokes removed first, so a
digit that touches a grid line is still a glyph). Glyphs on one text line
whose gap is small next to their height are the digits of one number; a
blob far wider than a digit is digits that touch (small renders) and is cut
where its ink is thinnest.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, NamedTuple, Optional, Sequence

import numpy as np

from .digits import INK_LEVEL, classify_ranked, glyph_features, unseen

__all__ = ["Glyph", "Word", "Ink", "page_ink", "digit_gap", "words_of", "read_words"]

DIGIT_GAP, SLOT_GAP = 0.25, 0.8
"""Gaps between two glyphs, in digit heights: up to DIGIT_GAP they are digits of one number; up to SLOT_GAP too
when both sit in one clue slot (a cell-wide band from the grid's edge: small renders space digits widely, dense
ones space numbers narrowly); wider, two numbers."""
SLOT_PITCH = 1.2
"""The farthest apart, centre to centre in digit heights, two glyphs of one clue slot may be and still be digits of
one number: a number's digits follow at a digit's width. An app that sets its numbers at a pitch of its own, finer
than its cells (Kolyn090's Picture Cross: 1.4 heights), puts the narrow "1" of "1 3" a wide digit's gap from the 3."""
WIDE_DIGIT_GAP = 0.55
"""The widest a page's own gap between digits of one number may be (:func:`digit_gap`)."""
AMBIGUOUS_WIDTH = 1.3
"""A blob up to this many heights wide may be one bold digit or two touching ones: both are read."""
PAIR_WIDTH = 0.8
"""A blob from this many heights wide to a bold digit's width may be two narrow digits touching: it is read cut in
two as well. A magazine's condensed "37" whose digits touch is 0.91 heights wide and was read as a "9"; the widest
single digit of that page, a "4", is 0.75."""


@dataclass(frozen=True)
class Glyph:
    """One blob of ink: its box (``x0, y0`` inclusive, ``x1, y1`` exclusive) and its label in the page's labels."""

    x0: int
    y0: int
    x1: int
    y1: int
    label: int

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def h(self) -> int:
        return self.y1 - self.y0

    @property
    def w(self) -> int:
        return self.x1 - self.x0


@dataclass(frozen=True)
class Word:
    """Glyphs side by side on one line, read as one number (``value`` -1 until read)."""

    glyphs: tuple[Glyph, ...]
    value: int = -1
    confidence: float = 0.0
    text: str = ""
    likeness: float = 0.0  # the least similarity of a glyph to its digit: letters score low
    alternatives: tuple[int, ...] = ()  # other readings, most likely first: one digit changed, the least sure first

    @property
    def box(self) -> tuple[int, int, int, int]:
        return (min(g.x0 for g in self.glyphs), min(g.y0 for g in self.glyphs),
                max(g.x1 for g in self.glyphs), max(g.y1 for g in self.glyphs))

    @property
    def cx(self) -> float:
        x0, _, x1, _ = self.box
        return (x0 + x1) / 2

    @property
    def cy(self) -> float:
        _, y0, _, y1 = self.box
        return (y0 + y1) / 2


@dataclass(frozen=True)
class Ink:
    """A page's ink: the grey levels, paper and ink levels, the labelled blobs and their glyphs."""

    gray: np.ndarray
    paper: float
    dark: float
    labels: np.ndarray
    glyphs: tuple[Glyph, ...]


def page_ink(gray: np.ndarray, pitch: float, ridges: bool = True, blocks: bool = False,
             ground: Optional[float] = None) -> Ink:
    """The glyphs of ``gray`` once strokes longer than 0.9 of a cell of ``pitch`` (grid lines, the sides of clue
    cells drawn as table cells) are taken out.

    Shorter strokes stay: the "1" of a large render is a straight stroke too, but no digit is as high as its cell.
    A stroke is dark, or (``ridges``) a faint line darker than both its sides (grey lines on grey cells); a photo's
    page is read without ridges: its paper's grain and JPEG blocks make faint ridges too, which joined a column's
    stacked digits into a "stroke" and cut a "2" through its middle.

    With ``blocks``, a dark band (a magazine's printed shadow along its frame: at least a third of a cell thick
    and a cell long) stops the strokes across it: a digit standing on a band is no stroke's end. Without it, the
    bottom row's digits of a magazine photo stood on the shadow, their upright strokes ran on into it as strokes
    longer than a cell and were taken out: "3 6 4 5 8" read as "8 51 13 2 51 111". ``ground``, the grid's top line
    in a photo's canvas: the digits standing on it keep their uprights (:func:`_off_frame`).
    """
    import cv2

    from .lattice import line_ink, line_masks, paper_and_ink

    paper, dark = paper_and_ink(gray)
    mask = (gray < paper - INK_LEVEL * (paper - dark)).astype(np.uint8)
    lines = (gray < paper - (paper - dark) / 3).astype(np.uint8)
    if ridges:
        lines |= line_ink(gray)
    length = max(12, round(0.9 * pitch))
    if blocks:
        thick = max(5, round(pitch / 3))
        lying = cv2.morphologyEx(lines, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (length, thick)))
        standing = cv2.morphologyEx(lines, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (thick, length)))
        horizontal = line_masks(np.where(standing > 0, 0, lines).astype(np.uint8), length)[0] | lying
        vertical = line_masks(np.where(lying > 0, 0, lines).astype(np.uint8), length)[1] | standing
    else:
        horizontal, vertical = line_masks(lines, length)
    if ground is not None:
        vertical = _off_frame(vertical, horizontal, ground, length, round(STANDING_LEAST * pitch))
    mask[cv2.dilate(horizontal | vertical, np.ones((3, 3), np.uint8)) > 0] = 0
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    glyphs = tuple(Glyph(int(x), int(y), int(x + w), int(y + h), label)
                   for label, (x, y, w, h, area) in enumerate(stats) if label and area >= 2 and h >= 3)
    return Ink(gray, paper, dark, labels, glyphs)


STANDING_LEAST = 0.3
"""Length, in cells, from which an upright standing on the grid's frame is a digit's (:func:`_off_frame`); shorter,
it is a line's stub left past the frame."""


def _off_frame(strokes: np.ndarray, lying: np.ndarray, ground: float, length: int, least: int) -> np.ndarray:
    """The upright ``strokes`` (a mask) less the digits standing on the grid's top line at row ``ground``.

    A photo's blur joins the bottom line of column clues to the grid's frame: each "1" ran on into it as a stroke
    longer than 0.9 of a cell and its middle was taken out, so every "1" read as "11" or "10" and the line was a
    heading (fresh seed 193, page 3: all 39 columns' clues lost). Without the ``lying`` lines it meets, such an
    upright is shorter than ``length`` and ends on the frame, its top free: it is ink again. Only on the frame: a
    clue cell's side cut short by the canvas's edge ends free too (a newspaper's, read as "7" for "17")."""
    import cv2

    meets = cv2.dilate(lying, np.ones((3, 3), np.uint8))
    rest = (strokes > 0) & (meets == 0)
    count, pieces, stats, _ = cv2.connectedComponentsWithStats(rest.astype(np.uint8), connectivity=8)
    out = strokes.copy()
    reach = max(3, round(0.4 * length))
    for k in range(1, count):
        x, y, w, h, _ = stats[k]
        if not (least <= h < length and ground - reach <= y + h <= ground + 2):
            continue
        if meets[y + h:y + h + 2, x:x + w].any() and not meets[max(y - 2, 0):y, x:x + w].any():
            out[y:y + h, x:x + w][pieces[y:y + h, x:x + w] == k] = 0
    return out


def digit_gap(lines: list[list[Glyph]]) -> float:
    """The widest gap, in digit heights, between two digits of one number on this page: :data:`DIGIT_GAP`, or
    more when the gaps between neighbouring glyphs fall in two clear groups, the narrow one under
    :data:`WIDE_DIGIT_GAP` (clues set as text, not in cells: wide letter spacing, a space between numbers).

    The split between the groups is capped at :data:`WIDE_DIGIT_GAP`, not refused past it: a wide space between
    numbers is no reason to doubt the narrow group (Simon Tatham's Pattern at 24 px cells: digits 2 to 4 px apart,
    a "21" the widest at 0.29 of its height, numbers 16 px apart; refused, "21" read as "2 1")."""
    gaps: list[float] = []
    for line in lines:
        ordered = sorted(line, key=lambda g: g.x0)
        height = float(np.median([g.h for g in ordered])) if ordered else 1.0
        gaps += [(b.x0 - a.x1) / height for a, b in zip(ordered, ordered[1:], strict=False) if b.x0 > a.x1]
    ordered_gaps = np.sort(np.asarray(gaps))
    if len(ordered_gaps) < 4:
        return DIGIT_GAP
    ratios = ordered_gaps[1:] / np.maximum(ordered_gaps[:-1], 1e-3)
    k = int(np.argmax(ratios))
    split = float(np.sqrt(ordered_gaps[k] * ordered_gaps[k + 1]))
    if ratios[k] >= 1.8 and ordered_gaps[k] < WIDE_DIGIT_GAP:
        return max(DIGIT_GAP, min(split, WIDE_DIGIT_GAP))
    return DIGIT_GAP


def words_of(glyphs: list[Glyph], height: float, slot: Callable[[float], int],
             within: float = DIGIT_GAP, apart: float = float("inf")) -> list[list[Glyph]]:
    """Glyphs of one text line, left to right, split into words (see :data:`DIGIT_GAP`; ``within`` the page's own,
    :func:`digit_gap`); ``slot`` of an x; two glyphs of one slot are one word only up to ``apart`` digit heights
    apart, centre to centre (a row's numbers: :data:`SLOT_PITCH`; a column's slot holds one number)."""
    line = sorted(glyphs, key=lambda g: g.x0)
    words: list[list[Glyph]] = []
    for g in line:
        gap = g.x0 - max(o.x1 for o in words[-1]) if words else 0
        last = words[-1][-1] if words else None
        if last is not None and (gap <= within * height or gap <= SLOT_GAP * height and slot(last.cx) == slot(g.cx)
                                 and g.cx - last.cx <= apart * height):
            words[-1].append(g)
        else:
            words.append([g])
    return words


def _parts(glyph: Glyph) -> int:
    """How many digits a blob's width holds: one up to 0.95 of its height, else a digit per 0.62 heights."""
    return max(1, round(glyph.w / (0.62 * glyph.h))) if glyph.w > 0.95 * glyph.h else 1


def _pieces(ink: Ink, glyph: Glyph, parts: int, even: bool = False) -> list[tuple[Glyph, np.ndarray]]:
    """The glyph's ink crop, cut into ``parts`` digits (touching digits): where the ink is thinnest near each
    even share of its width, or (``even``) at the even shares themselves."""
    crop = ink.gray[glyph.y0:glyph.y1, glyph.x0:glyph.x1].astype(np.float32)
    own = ink.labels[glyph.y0:glyph.y1, glyph.x0:glyph.x1] == glyph.label
    import cv2

    own = cv2.dilate(own.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    level = np.clip((ink.paper - crop) / max(ink.paper - ink.dark, 1.0), 0, 1) * own
    if parts == 1:
        return [(glyph, level)]
    profile = level.sum(axis=0)
    cuts = [0]
    for k in range(1, parts):
        centre = round(k * glyph.w / parts)
        lo, hi = max(cuts[-1] + 1, centre - glyph.w // (3 * parts)), min(glyph.w - 1, centre + glyph.w // (3 * parts))
        cuts.append(lo + int(np.argmin(profile[lo:hi + 1])) if hi >= lo and not even else centre)
    cuts.append(glyph.w)
    out = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        piece = level[:, a:b]
        rows = np.nonzero(piece.max(axis=1) > INK_LEVEL)[0]
        if b > a and len(rows):
            out.append((Glyph(glyph.x0 + a, glyph.y0, glyph.x0 + b, glyph.y1, glyph.label),
                        piece[rows[0]:rows[-1] + 1]))
    return out


def _options(ink: Ink, glyph: Glyph) -> tuple[list[list[tuple[Glyph, np.ndarray]]], int]:
    """Ways to read a blob, and how many of them are the usual ones: as many digits as its width holds, one fewer
    (bold digits are wide: a bold "14" is as wide as three thin digits), and, when it is barely wider than one digit
    (a bold "4" or "0" is as wide as it is high), one digit. Then second looks: the blob cut at even widths (the
    thinnest ink of a touching "20" is inside the "0", whose middle holds only its top and bottom strokes, not where
    the 2's foot meets the 0's side: it was cut as "8" and "1"), and a blob nearly as wide as a bold digit cut in
    two (:data:`PAIR_WIDTH`). The reading whose digits look most like digits wins (:func:`read_words`)."""
    parts = _parts(glyph)
    ways = [_pieces(ink, glyph, parts)]
    if parts >= 3:
        ways.append(_pieces(ink, glyph, parts - 1))
    if parts == 2 and glyph.w < AMBIGUOUS_WIDTH * glyph.h:
        ways.append(_pieces(ink, glyph, 1))
    usual = len(ways)
    if parts >= 2:
        even = _pieces(ink, glyph, parts, even=True)
        if [g for g, _ in even] != [g for g, _ in ways[0]]:  # the thinnest ink is at the even widths: read once
            ways.append(even)
    elif glyph.w > PAIR_WIDTH * glyph.h:
        ways.append(_pieces(ink, glyph, 2))
    return ways, usual


def _classified(features: np.ndarray, aside: np.ndarray) -> tuple[np.ndarray, ...]:
    """:func:`.digits.classify_ranked` of every row of ``features``, those marked ``aside`` (second looks at a blob)
    out of the page's evidence (:func:`.digits.unseen`): a photo takes its own prototypes and its blur from what it
    reads, and pieces of a blob cut at the wrong place, read there as sure digits, made a page's "10" a "30"."""
    if not aside.any():
        return classify_ranked(features)
    usual = classify_ranked(features[~aside])
    with unseen():
        second = classify_ranked(features[aside])
    merged = []
    for a, b in zip(usual, second, strict=True):
        both = np.empty((len(features), *a.shape[1:]), a.dtype)
        both[~aside], both[aside] = a, b
        merged.append(both)
    return tuple(merged)


def read_words(ink: Ink, words: list[list[Glyph]]) -> list[Word]:
    """Each word read as a number, with the least confidence of its digits."""
    options = [_options(ink, g) for word in words for g in word]
    flat = [(level, n >= usual) for ways, usual in options for n, way in enumerate(ways) for _, level in way]
    feats = (np.asarray([glyph_features(level) for level, _ in flat], np.float32) if flat
             else np.zeros((0, 1), np.float32))
    digits, confidence, likeness, second = _classified(feats, np.asarray([a for _, a in flat], bool))
    chosen: list[_BlobRead] = []
    i = 0
    for ways, _ in options:
        best: Optional[tuple[float, _BlobRead]] = None
        texts = []
        for way in ways:
            n = len(way)
            score = float(likeness[i:i + n].min()) if n else -1.0
            texts.append(_spelled(digits[i:i + n]))
            if best is None or score > best[0] + 0.02:
                best = (score, _BlobRead([g for g, _ in way], digits[i:i + n], confidence[i:i + n],
                                         likeness[i:i + n], list(second[i:i + n]), []))
            i += n
        assert best is not None
        read = best[1]
        read.other_cuts.extend(t for t in texts if t and t != _spelled(read.digits))
        chosen.append(read)
    out, k = [], 0
    for word in words:
        parts = chosen[k:k + len(word)]
        k += len(word)
        out.append(_word([g for p in parts for g in p.glyphs],
                         np.concatenate([p.digits for p in parts]) if parts else [],
                         np.concatenate([p.confidence for p in parts]) if parts else np.zeros(0),
                         np.concatenate([p.likeness for p in parts]) if parts else np.zeros(0),
                         [d for p in parts for d in p.second], _cut_otherwise(parts)))
    return out


class _BlobRead(NamedTuple):
    """One blob of ink read the way that looked most like digits (as one digit, or cut into two or three)."""

    glyphs: list[Glyph]
    digits: np.ndarray
    confidence: np.ndarray
    likeness: np.ndarray
    second: list  # each digit's next choices
    other_cuts: list[str]  # the texts the blob's other cuts spell


def _spelled(digits: Iterable[int]) -> str:
    """The digits as the text they spell."""
    return "".join(str(int(d)) for d in digits)


def _cut_otherwise(parts: list[_BlobRead]) -> list[str]:
    """The word's text with one of its blobs read as cut another way."""
    texts = [_spelled(p.digits) for p in parts]
    return ["".join(texts[:j]) + other + "".join(texts[j + 1:]) for j, p in enumerate(parts) for other in p.other_cuts]


def _word(glyphs: list[Glyph], digits, confidence: np.ndarray, likeness: np.ndarray, second: list,
          cut_otherwise: Sequence[str] = ()) -> Word:
    """A number read from its digits, with its least confidence and likeness, and its other readings: one digit
    changed to that digit's second or third choice, the least sure digit first; then its blobs cut another way.

    A number read as 0 has its other cuts first: a zero stands only alone in its line, and a blurred "11" or "12"
    whose digits touch is one round blob that reads as a "0" as sure as any (six of the seven misread pages of the
    bench's hard photos, seed 3); :func:`.assign.clue_items` reads such a zero otherwise when the line has more."""
    text = _spelled(digits)
    changed = [text[:k] + str(int(d)) + text[k + 1:] for k in np.argsort(confidence, kind="stable") for d in second[k]]
    others = [*cut_otherwise, *changed] if text == "0" else [*changed, *cut_otherwise]
    alternatives = tuple(dict.fromkeys(int(o) for o in others if o and o[0] != "0"))
    return Word(tuple(glyphs), int(text) if text else -1, float(confidence.min()) if len(confidence) else 0.0, text,
                float(likeness.min()) if len(likeness) else 0.0, alternatives)
