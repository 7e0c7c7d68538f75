"""The studio's document as the page sends it: a grid, a palette, givens, a title, author and licence, checked into a Puzzle.

The page holds the document and sends all of it with every question, so the
server keeps no per-puzzle state and a question can never be answered about
a stale grid. Titles and colour names are cleaned as the readers clean them
(a lone surrogate becomes U+FFFD), so whatever the page sends can be written
in every format. Everything here is pure: JSON-ready dicts in and out.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ..clues import puzzle_from_grid
from ..errors import InputError
from ..formats._common import clean_text
from ..model import Puzzle
from ..colorspace import color_name
from ..palette import Color, parse_hex, pick_char

__all__ = ["MAX_SIDE", "META_FIELDS", "MAX_COLORS", "puzzle_of", "palette_of", "palette_json", "puzzle_json"]

MAX_SIDE = 100
"""Largest side the studio edits: a page of 10,000 cells is still drawn at once, and far past what people solve."""

META_FIELDS = ("author", "license")
"""Metadata the page edits besides the title (formats that hold them write them; the rest say they drop them)."""

MAX_COLORS = 20
"""Most foreground colours in the palette editor (the picture importer's own limit)."""


def palette_of(entries: Any) -> tuple[Color, ...]:
    """A palette from the page's ``[{"rgb": "#rrggbb", "name"?: ...}, ...]`` (background first).

    Names and one-character codes are made distinct here: the page only
    edits colours, and a name the author did not choose follows the colour.
    """
    if not isinstance(entries, list) or not 2 <= len(entries) <= MAX_COLORS + 1:
        raise InputError(f"palette: expected a background and 1 to {MAX_COLORS} colours")
    palette: list[Color] = []
    names: set[str] = set()
    chars = {"."}
    for i, entry in enumerate(entries):
        try:
            rgb = parse_hex(str(entry["rgb"]))
        except (TypeError, KeyError, ValueError):
            raise InputError(f"palette entry {i}: expected a colour as #rrggbb") from None
        wanted = clean_text(str(entry.get("name") or "")[:40]) or color_name(Color("x", rgb, "x").rgb_tuple)
        name = wanted if wanted not in names else f"{wanted}-{i}"
        char = "." if i == 0 else pick_char(name, rgb, chars)
        names.add(name)
        chars.add(char)
        palette.append(Color(name, rgb, char))
    return tuple(palette)


def puzzle_of(doc: Any) -> tuple[Puzzle, np.ndarray]:
    """The puzzle (clues derived from the grid, goal = the grid) and the grid of a document from the page."""
    if not isinstance(doc, dict):
        raise InputError("expected a document: {grid, palette, givens}")
    palette = palette_of(doc.get("palette"))
    grid = _grid_of(doc.get("grid"), len(palette) - 1)
    givens = _givens_of(doc.get("givens") or [], grid)
    title = clean_text(str(doc.get("title") or f"Puzzle {grid.shape[1]}x{grid.shape[0]}")[:200])
    meta = {key: clean_text(str(doc.get(key) or "")[:200]).strip() for key in META_FIELDS}
    return puzzle_from_grid(grid, palette, givens=givens, title=title, **{k: v for k, v in meta.items() if v}), grid


def _grid_of(rows: Any, n_colors: int) -> np.ndarray:
    """The grid of colour indices; anything else is a one-line InputError here, never a failure further on.

    Every cell must be a JSON whole number: numpy would read a row of lists
    as a third dimension (the clues then fail with a traceback), ``true`` as
    1 and ``1.5`` as 1.
    """
    if not isinstance(rows, list) or not rows or not all(isinstance(r, list) for r in rows):
        raise InputError("grid: expected a list of rows of colour indices")
    height, width = len(rows), len(rows[0])
    if not (1 <= height <= MAX_SIDE and 1 <= width <= MAX_SIDE) or any(len(r) != width for r in rows):
        raise InputError(f"grid: expected equal rows, 1 to {MAX_SIDE} cells a side")
    if not all(type(v) is int for row in rows for v in row):  # bool is an int subclass: `type`, not isinstance
        raise InputError("grid: expected rows of whole numbers (colour indices)")
    if not all(0 <= v <= n_colors for row in rows for v in row):
        raise InputError(f"grid: colour indices must be 0 to {n_colors} (the palette's size)")
    return np.array(rows, dtype=np.uint8)


def _givens_of(items: Any, grid: np.ndarray) -> list[tuple[int, int, int]]:
    """Givens as ``[row, col]`` cells; their colour is the grid's (a given reveals the picture)."""
    if not isinstance(items, list):
        raise InputError("givens: expected a list of [row, col] cells")
    givens = []
    for item in items:
        if not (isinstance(item, list) and len(item) >= 2 and all(isinstance(v, int) for v in item[:2])):
            raise InputError("givens: expected a list of [row, col] cells")
        r, c = item[0], item[1]
        if not (0 <= r < grid.shape[0] and 0 <= c < grid.shape[1]):
            raise InputError(f"given ({r}, {c}) is outside the {grid.shape[1]}x{grid.shape[0]} grid")
        givens.append((r, c, int(grid[r, c])))
    return givens


def palette_json(palette: tuple[Color, ...]) -> list[dict[str, str]]:
    return [{"name": c.name, "rgb": c.rgb, "char": c.char} for c in palette]


def puzzle_json(puzzle: Puzzle, grid: Optional[np.ndarray] = None) -> dict[str, Any]:
    """What the page draws: grid, palette, clues and givens (``[row, col]``)."""
    goal = puzzle.goal if grid is None else grid
    return {
        "grid": np.asarray(goal).tolist(),
        "palette": palette_json(puzzle.palette),
        "givens": [[r, c] for r, c, _ in puzzle.givens],
        "title": str(puzzle.meta.get("title", "")),
        **{key: str(puzzle.meta.get(key, "")) for key in META_FIELDS},
    }
