"""nonogen's own 2D JSON (``"format": "nonogen-2d"``): holds every field of a :class:`Puzzle` exactly.

Layout (version 1)::

    {"format": "nonogen-2d", "version": 1, "width": 3, "height": 2,
     "palette": [{"name": "white", "rgb": "#ffffff", "char": "."},
                 {"name": "black", "rgb": "#000000", "char": "#"}],
     "rows": [[3], [1, 1]],                  # an int is a block of the first colour
     "cols": [[2], [1], [2]],                # colour puzzles: [[2, "red"], [1, "blue"]]
     "goal": ["###", "#.#"],                 # rows of palette chars, or null
     "givens": [[0, 1, "#"]],                # row, column, palette char
     "title": "...", "author": "...", "copyright": "...", "license": "...",
     "catalogue": "...", "source": "...", "description": "...",
     "meta": {"other": "keys"}}

Palette entry 0 is the background. Only ``format``, ``rows`` and ``cols``
are required; the palette defaults to black and white.
"""
from __future__ import annotations

import json
from typing import Any

from ..errors import FormatError, PuzzleError
from ..model import BW_PALETTE, Color, Puzzle
from ._common import build, goal_from_chars, item, json_meta, put_json_meta
from ._json import line_of, parse_json, validate

NAME = "nonogen"
SUFFIXES = (".json",)
TAG = "nonogen-2d"


def looks_like(text: str) -> bool:
    """A JSON object whose ``format`` is ``nonogen-2d``."""
    head = text[:4000]
    return head.lstrip("\ufeff \t\r\n").startswith("{") and f'"{TAG}"' in head


def _palette(data: dict, text: str) -> tuple[Color, ...]:
    raw = data.get("palette")
    if raw is None:
        return BW_PALETTE
    try:
        palette = tuple(Color(c["name"], c["rgb"], c["char"]) for c in raw)
    except PuzzleError as exc:
        raise FormatError(f"palette: {exc}", line=line_of(text, ["palette"])) from None
    if len({c.name for c in palette}) != len(palette) or len({c.char for c in palette}) != len(palette):
        raise FormatError("palette: colour names and chars must be distinct", line=line_of(text, ["palette"]))
    return palette


def _lines(raw: list, key: str, names: dict[str, int], text: str) -> list[tuple]:
    """Clue lines of already validated JSON: a block is a length or ``[length, colour name]``."""
    out = []
    for i, line in enumerate(raw):
        items = []
        for j, block in enumerate(line):
            if isinstance(block, int):
                items.append(item(block, 1))
            elif block[1] in names:
                items.append(item(block[0], names[block[1]]))
            else:
                raise FormatError(f"{key}[{i}][{j}]: colour {json.dumps(block[1][:40])} is not in the palette",
                                  line=line_of(text, [key, i, j]))
        out.append(tuple(items))
    return out


def _goal(data: dict, palette: tuple[Color, ...], width: int, height: int, text: str):
    rows = data.get("goal")
    if rows is None:
        return None
    bad = next((k for k, r in enumerate(rows) if len(r) != width), None)
    if len(rows) != height or bad is not None:
        where: list[Any] = ["goal"] if bad is None else ["goal", bad]
        raise FormatError(f"'goal' must be {height} strings of {width} palette chars", line=line_of(text, where))
    codes = {c.char: k for k, c in enumerate(palette)}
    try:
        return goal_from_chars("".join(rows), width, height, codes, None)
    except FormatError as exc:
        raise FormatError(f"goal: {exc.message}", line=line_of(text, ["goal"])) from None


def _givens(data: dict, palette: tuple[Color, ...], width: int, height: int, text: str) -> list[tuple[int, int, int]]:
    codes = {c.char: k for k, c in enumerate(palette)}
    out = []
    for k, (r, c, ch) in enumerate(data.get("givens") or ()):
        if ch not in codes or r >= height or c >= width:
            problem = f"{json.dumps(ch)} is not a palette char" if ch not in codes else \
                f"cell ({r}, {c}) is outside the {width}x{height} grid"
            raise FormatError(f"givens[{k}]: {problem}", line=line_of(text, ["givens", k]))
        out.append((r, c, codes[ch]))
    return out


def loads(text: str) -> Puzzle:
    """Read one puzzle (see the module docstring for the layout), checked against the JSON Schema first.

    >>> loads('{"format": "nonogen-2d", "rows": [[1]], "cols": [[1]]}').rows
    (((1, 1),),)
    >>> loads('{"format": "nonogen-2d", "rows": [[1], ["x"]], "cols": [[1]]}')
    Traceback (most recent call last):
    nonogen.errors.FormatError: line 1: rows[1][0]: expected a number or [length, colour], got "x"
    """
    data = parse_json(text)
    if not isinstance(data, dict) or data.get("format") != TAG:
        raise FormatError(f"expected a JSON object with \"format\": \"{TAG}\"", line=1)
    validate(data, TAG, text)
    palette = _palette(data, text)
    names = {c.name: k for k, c in enumerate(palette) if k}
    rows, cols = data["rows"], data["cols"]
    for key, n in (("width", len(cols)), ("height", len(rows))):
        if key in data and data[key] != n:
            raise FormatError(f"'{key}' is {data[key]} but there are {n} clue lines", line=line_of(text, [key]))
    rows, cols = _lines(rows, "rows", names, text), _lines(cols, "cols", names, text)
    goal = _goal(data, palette, len(cols), len(rows), text)
    givens = _givens(data, palette, len(cols), len(rows), text)
    meta = json_meta(data)
    return build(rows, cols, palette, goal=goal, givens=givens, meta=meta)


def to_dict(puzzle: Puzzle) -> dict:
    """The JSON-ready dict of a puzzle."""
    single = puzzle.n_colors == 1
    names = [c.name for c in puzzle.palette]

    def lines(ls):
        return [[n if single else [n, names[c]] for n, c in line] for line in ls]

    data: dict[str, Any] = {
        "format": TAG, "version": 1, "width": puzzle.width, "height": puzzle.height,
        "palette": [{"name": c.name, "rgb": c.rgb, "char": c.char} for c in puzzle.palette],
        "rows": lines(puzzle.rows), "cols": lines(puzzle.cols),
        "goal": None if puzzle.goal is None else puzzle.grid_to_text(puzzle.goal),
        "givens": [[r, c, puzzle.palette[v].char] for r, c, v in puzzle.givens],
    }
    return put_json_meta(data, puzzle.meta)


def dumps(puzzle: Puzzle) -> str:
    """The JSON text: one clue line per line so diffs stay readable."""
    data = to_dict(puzzle)
    parts = []
    for key, value in data.items():
        if key in ("rows", "cols", "goal") and value:
            inner = ",\n    ".join(json.dumps(v, ensure_ascii=False) for v in value)
            parts.append(f'  "{key}": [\n    {inner}\n  ]')
        else:
            parts.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def dropped(puzzle: Puzzle) -> list[str]:
    """Nothing: this format holds every field."""
    return []
