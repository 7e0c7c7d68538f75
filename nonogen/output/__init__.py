"""Puzzles and made things into files: sheets, pages, books, folders, puzzle files and models.

The one home below both front doors (the command line and the studio) for
"a puzzle or a :class:`~nonogen.made.Made` -> files". :mod:`nonogen.render`
draws shapes and :mod:`nonogen.export` makes page and model bytes; neither
asks the engine anything nor writes a file. What needs both (a solution to
draw, a grade to sort a book by) and every write lives here, always through
:mod:`nonogen.files` (atomic, never over a file unasked).
"""
from __future__ import annotations

from .books import book
from .sheets import answer, draw, save_picture
from .folders import folder_files, level_page, level_preview, save
from .models import write_model

__all__ = ["save", "folder_files", "level_preview", "level_page", "draw", "answer", "save_picture", "book",
           "write_model"]
