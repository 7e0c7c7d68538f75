"""Printed and on-screen puzzle pages read back into puzzles: grids, sizes and clue numbers, each with a confidence.

The way of a page: :mod:`.pages` (a picture, or a PDF's pages and text layer)
→ :mod:`.lattice` (the grids) → :mod:`.textlayer` or :mod:`.raster` with
:mod:`.glyphs` and :mod:`.digits` (the numbers) → :mod:`.assign` (whose clue
each number is) → :mod:`.read` (one page's puzzles). No engine here: proving
what was read is :func:`nonogen.scan`'s (:mod:`nonogen.scanning`).
"""

from .. import BITMAP_SUFFIXES

__all__ = ["SCAN_SUFFIXES"]

SCAN_SUFFIXES = BITMAP_SUFFIXES + (".pdf",)
"""What is scanned: pictures and PDFs (here, where ``nonogen verify`` can ask without loading numpy)."""
