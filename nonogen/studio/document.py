"""The studio's document: the page's grid, palette, givens, title, author and licence, built into a Puzzle and back.

The page holds the document and sends all of it with every question, so the
server keeps no per-puzzle state and a question can never be answered about
a stale grid. The server checks it once (:mod:`.inputs`) and ships the
checked document to a worker, which builds the puzzle here: numpy and the
colour names load in the worker only. Everything here is pure: JSON-ready dicts in and out.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ..clues import puzzle_from_grid
from ..colorspace import color_name
from ..model import Puzzle
from ..palette import BW_PALETTE, Color, pick_char
from .inputs import META_FIELDS, checked

__all__ = ["puzzle_of", "puzzle_from", "clue_puzzle", "palette_of", "palette_json", "puzzle_json"]


def puzzle_of(doc: Any) -> tuple[Puzzle, np.ndarray]:
    """The puzzle and grid of a document as the page sends it, checked here (for scripts and tests: the studio
    checks a request's document in its server, and its worker calls :func:`puzzle_from`)."""
    return puzzle_from(checked(doc))


def puzzle_from(doc: dict[str, Any]) -> tuple[Puzzle, np.ndarray]:
    """The puzzle (clues derived from the grid, goal = the grid) and the grid of a document checked by
    :func:`.inputs.checked`."""
    grid = np.array(doc["grid"], dtype=np.uint8)
    givens = [(r, c, int(grid[r, c])) for r, c in doc["givens"]]
    meta = {key: doc[key] for key in META_FIELDS if doc[key]}
    return puzzle_from_grid(grid, palette_of(doc["palette"]), givens=givens, title=doc["title"], **meta), grid


def clue_puzzle(doc: dict[str, Any]) -> Puzzle:
    """The puzzle of a clue document (a scanned page's, as :func:`.scanroutes.checked_clues` checked it): its clues
    in their colours and its givens as the page holds them, no goal (the engine finds the solution, if it is one).
    """
    meta = {key: doc[key] for key in META_FIELDS if doc[key]}
    palette = BW_PALETTE if doc["palette"] is None else palette_of(doc["palette"])

    def clues(lines: list, colours: list) -> list:
        return [list(zip(line, tints, strict=True)) for line, tints in zip(lines, colours, strict=True)]

    return Puzzle(rows=clues(doc["rows"], doc["row_colours"]), cols=clues(doc["cols"], doc["col_colours"]),
                  palette=palette, givens=[tuple(g) for g in doc["givens"]], meta={"title": doc["title"], **meta})


def palette_of(entries: list[dict[str, str]]) -> tuple[Color, ...]:
    """The palette of a checked document (background first).

    Names and one-character codes are made distinct here: the page only
    edits colours, and a name the author did not choose follows the colour.
    """
    palette: list[Color] = []
    names: set[str] = set()
    chars = {"."}
    for i, entry in enumerate(entries):
        rgb = entry["rgb"]
        wanted = entry["name"] or color_name(Color("x", rgb, "x").rgb_tuple)
        name = wanted if wanted not in names else f"{wanted}-{i}"
        char = "." if i == 0 else pick_char(name, rgb, chars)
        names.add(name)
        chars.add(char)
        palette.append(Color(name, rgb, char))
    return tuple(palette)


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
