"""Glyphs on a page and the numbers they spell: ink blobs, grouped into words, each digit read with a confidence.

A glyph is a connected blob of ink (long straight strokes removed first, so a
digit that touches a grid line is still a glyph). Glyphs on one text line
whose gap is small next to their height are the digits of one number; a
blob far wider than a digit is digits that touch (small renders) and is cut
where its ink is thinnest.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .digits import INK_LEVEL, classify_ranked, glyph_features

__all__ = ["Glyph", "Word", "Ink", "page_ink", "words_of", "read_words"]

DIGIT_GAP, SLOT_GAP = 0.25, 0.8
"""Gaps between two glyphs, in digit heights: up to DIGIT_GAP they are digits of one number; up to SLOT_GAP too
when both sit in one clue slot (a cell-wide band from the grid's edge: small renders space digits widely, dense
ones space numbers narrowly); wider, two numbers."""


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


def page_ink(gray: np.ndarray, pitch: float) -> Ink:
    """The glyphs of ``gray`` once strokes longer than 1.5 cells of ``pitch`` (grid lines, boxes) are taken out.

    Shorter strokes stay: the "1" of a large render is a straight stroke too.
    """
    import cv2

    from .lattice import line_masks

    paper = float(np.percentile(gray, 90))
    dark = float(np.percentile(gray, 0.5))
    mask = (gray < paper - INK_LEVEL * (paper - dark)).astype(np.uint8)
    lines = (gray < paper - (paper - dark) / 3).astype(np.uint8)
    horizontal, vertical = line_masks(lines, max(12, round(1.5 * pitch)))
    mask[cv2.dilate(horizontal | vertical, np.ones((3, 3), np.uint8)) > 0] = 0
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    glyphs = tuple(Glyph(int(x), int(y), int(x + w), int(y + h), label)
                   for label, (x, y, w, h, area) in enumerate(stats) if label and area >= 2 and h >= 3)
    return Ink(gray, paper, dark, labels, glyphs)


def words_of(glyphs: list[Glyph], height: float, slot: Callable[[float], int]) -> list[list[Glyph]]:
    """Glyphs of one text line, left to right, split into words (see :data:`DIGIT_GAP`); ``slot`` of an x."""
    line = sorted(glyphs, key=lambda g: g.x0)
    words: list[list[Glyph]] = []
    for g in line:
        gap = g.x0 - max(o.x1 for o in words[-1]) if words else 0
        if words and (gap <= DIGIT_GAP * height or gap <= SLOT_GAP * height and slot(words[-1][-1].cx) == slot(g.cx)):
            words[-1].append(g)
        else:
            words.append([g])
    return words


def _pieces(ink: Ink, glyph: Glyph) -> list[tuple[Glyph, np.ndarray]]:
    """The glyph's ink crop, cut into as many digits as its width holds (touching digits)."""
    crop = ink.gray[glyph.y0:glyph.y1, glyph.x0:glyph.x1].astype(np.float32)
    own = ink.labels[glyph.y0:glyph.y1, glyph.x0:glyph.x1] == glyph.label
    import cv2

    own = cv2.dilate(own.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    level = np.clip((ink.paper - crop) / max(ink.paper - ink.dark, 1.0), 0, 1) * own
    parts = max(1, round(glyph.w / (0.62 * glyph.h))) if glyph.w > 0.95 * glyph.h else 1
    if parts == 1:
        return [(glyph, level)]
    profile = level.sum(axis=0)
    cuts = [0]
    for k in range(1, parts):
        centre = round(k * glyph.w / parts)
        lo, hi = max(cuts[-1] + 1, centre - glyph.w // (3 * parts)), min(glyph.w - 1, centre + glyph.w // (3 * parts))
        cuts.append(lo + int(np.argmin(profile[lo:hi + 1])) if hi >= lo else centre)
    cuts.append(glyph.w)
    out = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        piece = level[:, a:b]
        rows = np.nonzero(piece.max(axis=1) > INK_LEVEL)[0]
        if b > a and len(rows):
            out.append((Glyph(glyph.x0 + a, glyph.y0, glyph.x0 + b, glyph.y1, glyph.label),
                        piece[rows[0]:rows[-1] + 1]))
    return out


def read_words(ink: Ink, words: list[list[Glyph]]) -> list[Word]:
    """Each word read as a number, with the least confidence of its digits."""
    pieces = [[piece for g in word for piece in _pieces(ink, g)] for word in words]
    flat = [level for word in pieces for _, level in word]
    feats = np.asarray([glyph_features(level) for level in flat], np.float32) if flat else np.zeros((0, 1))
    digits, confidence, likeness, second = classify_ranked(feats)
    out, i = [], 0
    for word in pieces:
        n = len(word)
        text = "".join(str(int(d)) for d in digits[i:i + n])
        conf = float(confidence[i:i + n].min()) if n else 0.0
        like = float(likeness[i:i + n].min()) if n else 0.0
        others = [text[:k] + str(int(d)) + text[k + 1:] for k in np.argsort(confidence[i:i + n], kind="stable")
                  for d in second[i + k]]
        alternatives = tuple(dict.fromkeys(int(o) for o in others if o and o[0] != "0"))
        out.append(Word(tuple(g for g, _ in word), int(text) if text else -1, conf, text, like, alternatives))
        i += n
    return out
