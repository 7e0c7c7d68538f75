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

from ..errors import FormatError
from ..model import BW_PALETTE, Color, Puzzle
from ._common import build, check_size, goal_from_chars, json_meta, put_json_meta
from .rowscols import parse_json

NAME = "nonogen"
SUFFIXES = (".json",)
TAG = "nonogen-2d"


def looks_like(text: str) -> bool:
    """A JSON object whose ``format`` is ``nonogen-2d``."""
    head = text[:4000]
    return head.lstrip("\ufeff \t\r\n").startswith("{") and f'"{TAG}"' in head


def _palette(data: dict) -> tuple[Color, ...]:
    raw = data.get("palette")
    if raw is None:
        return BW_PALETTE
    if not isinstance(raw, list) or len(raw) < 2:
        raise FormatError("'palette' must be a list of at least two colours (background first)")
    out = []
    for k, c in enumerate(raw):
        if not isinstance(c, dict) or not all(isinstance(c.get(f), str) for f in ("name", "rgb", "char")):
            raise FormatError(f"palette entry {k}: expected {{\"name\", \"rgb\", \"char\"}} strings")
        out.append(Color(c["name"], c["rgb"], c["char"]))
    return tuple(out)


def _lines(raw: Any, what: str, names: dict[str, int]) -> list[tuple]:
    if not isinstance(raw, list):
        raise FormatError(f"'{what}' must be a list of clue lines")
    out = []
    for i, line in enumerate(raw):
        label = f"{what[:-1] if what == 'rows' else 'column'} {i + 1}"
        if not isinstance(line, list):
            raise FormatError(f"{label}: expected a list of blocks")
        items = []
        for item in line:
            if isinstance(item, int) and not isinstance(item, bool):
                items.append((item, 1))
            elif isinstance(item, list) and len(item) == 2 and isinstance(item[0], int) and item[1] in names:
                items.append((item[0], names[item[1]]))
            else:
                raise FormatError(f"{label}: expected a length or [length, colour name], got {json.dumps(item)[:40]}")
        out.append(tuple(items))
    return out


def loads(text: str) -> Puzzle:
    """Read one puzzle (see the module docstring for the layout)."""
    data = parse_json(text)
    if not isinstance(data, dict) or data.get("format") != TAG:
        raise FormatError(f"expected a JSON object with \"format\": \"{TAG}\"", line=1)
    if data.get("version", 1) != 1:
        raise FormatError(f"unsupported {TAG} version {data.get('version')!r} (this nonogen reads version 1)")
    from ..errors import PuzzleError

    try:
        palette = _palette(data)
    except PuzzleError as exc:
        raise FormatError(str(exc)) from None
    names = {c.name: k for k, c in enumerate(palette) if k}
    rows, cols = _lines(data.get("rows"), "rows", names), _lines(data.get("cols"), "cols", names)
    check_size(len(cols), len(rows))
    for key, n in (("width", len(cols)), ("height", len(rows))):
        if key in data and data[key] != n:
            raise FormatError(f"'{key}' is {data[key]!r} but there are {n} clue lines")
    codes = {c.char: k for k, c in enumerate(palette)}
    goal = None
    if data.get("goal") is not None:
        g = data["goal"]
        if not isinstance(g, list) or len(g) != len(rows) or not all(isinstance(r, str) and len(r) == len(cols) for r in g):
            raise FormatError(f"'goal' must be {len(rows)} strings of {len(cols)} palette chars")
        goal = goal_from_chars("".join(g), len(cols), len(rows), codes, None)
    givens = []
    for g in data.get("givens") or []:
        if not (isinstance(g, list) and len(g) == 3 and all(isinstance(v, int) for v in g[:2]) and g[2] in codes):
            raise FormatError(f"givens: expected [row, column, palette char], got {json.dumps(g)[:40]}")
        givens.append((g[0], g[1], codes[g[2]]))
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
