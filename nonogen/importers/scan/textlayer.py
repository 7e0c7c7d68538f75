"""Clue numbers from a PDF's text layer: exact, so every confidence is 1.

``pdftotext`` joins characters into a word when they are close; two clue
numbers in neighbouring slots of a dense sheet can come out as one word
("1112"). A word too wide for one clue slot is therefore cut by slot: its
characters (digits share one width in the fonts sheets use) are placed at
equal steps across its box, and the characters whose centres fall in the same
cell-wide slot, counted from the grid's edge, form one number.
"""
from __future__ import annotations

from .assign import Item
from .lattice import Grid
from .pages import TextWord

__all__ = ["text_items"]


def _split(word: TextWord, start: float, pitch: float, leftward: bool) -> list[Item]:
    """The word cut into slots of width ``pitch`` counted from ``start`` (to the left with ``leftward``)."""
    x0, y0, x1, y1 = word.box
    n = len(word.text)
    step = (x1 - x0) / n
    pieces: list[tuple[int, list[int]]] = []
    for k in range(n):
        centre = x0 + (k + 0.5) * step
        slot = int((start - centre) // pitch) if leftward else int((centre - start) // pitch)
        if pieces and pieces[-1][0] == slot:
            pieces[-1][1].append(k)
        else:
            pieces.append((slot, [k]))
    out = []
    for _, ks in pieces:
        text = "".join(word.text[k] for k in ks)
        out.append(Item(int(text), 1.0, (x0 + ks[0] * step, y0, x0 + (ks[-1] + 1) * step, y1), text))
    return out


def text_items(words: tuple[TextWord, ...], grid: Grid) -> list[Item]:
    """Every word of the page as an item: numbers with confidence 1, other words as -1 (headings)."""
    x0, y0, _, _ = grid.box
    pitch = grid.pitch
    items: list[Item] = []
    for word in words:
        if not word.text.isdigit():
            items.append(Item(-1, 1.0, word.box, word.text))
            continue
        bx0, by0, bx1, by1 = word.box
        wide = bx1 - bx0 > 1.05 * pitch and len(word.text) > 1
        if wide and (by0 + by1) / 2 > y0:  # beside the rows: slots counted leftwards from the grid's edge
            items.extend(_split(word, x0, pitch, True))
        elif wide or (len(word.text) > 1 and any(bx0 < x < bx1 for x in grid.xs)):
            items.extend(_split(word, x0, pitch, False))
        else:
            items.append(Item(int(word.text), 1.0, word.box, word.text))
    return items
