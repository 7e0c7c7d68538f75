"""The ``nonogen-3d`` JSON of a Picross 3D level (fixed contract, FORMATS.md #10).

``clues.x[y][z]`` clues the line ``cells[:, y, z]``, ``clues.y[x][z]`` the line
``cells[x, :, z]``, ``clues.z[x][y]`` the line ``cells[x, y, :]``. A token is
``"n"`` (one group), ``"no"`` (two), ``"ns"`` (three or more) or ``null``
(hidden). ``goal`` is X*Y*Z chars in C order over (x, y, z).
"""
from __future__ import annotations

import json
import re
from typing import Any, Optional

import numpy as np

from ..errors import FormatError, LimitError, PuzzleError
from ..model import AXES, Clue3D, Puzzle3D
from ._common import json_meta, put_json_meta
from .rowscols import parse_json

NAME = "nonogen-3d"
SUFFIXES = (".json",)
TAG = "nonogen-3d"
MAX_SIDE_3D = 500
_TOKEN = re.compile(r"(\d+)([os]?)$")
_GROUPS = {"": 1, "o": 2, "s": 3}
_MARK = {1: "", 2: "o", 3: "s"}


def looks_like(text: str) -> bool:
    """A JSON object whose ``format`` is ``nonogen-3d``."""
    head = text[:4000]
    return head.lstrip("\ufeff \t\r\n").startswith("{") and f'"{TAG}"' in head


def parse_token(token: Any, where: str) -> Optional[Clue3D]:
    """``"3o"`` -> ``(3, 2)``; ``None`` stays hidden.

    >>> parse_token("3o", "x"), parse_token("0", "x"), parse_token(None, "x")
    ((3, 2), (0, 1), None)
    """
    if token is None:
        return None
    m = _TOKEN.match(token) if isinstance(token, str) else None
    if not m:
        raise FormatError(f"{where}: expected a clue like \"3\", \"3o\", \"3s\" or null, got {json.dumps(token)[:20]}")
    return int(m.group(1)), _GROUPS[m.group(2)]


def format_token(clue: Optional[Clue3D]) -> Optional[str]:
    """Inverse of :func:`parse_token`."""
    return None if clue is None else f"{clue[0]}{_MARK[clue[1]]}"


def loads(text: str) -> Puzzle3D:
    """Read one level."""
    data = parse_json(text)
    if not isinstance(data, dict) or data.get("format") != TAG:
        raise FormatError(f"expected a JSON object with \"format\": \"{TAG}\"", line=1)
    size = data.get("size")
    if not (isinstance(size, list) and len(size) == 3 and all(isinstance(s, int) and s >= 1 for s in size)):
        raise FormatError("'size' must be [X, Y, Z], three positive whole numbers")
    if max(size) > MAX_SIDE_3D:
        raise LimitError(f"level is {size[0]}x{size[1]}x{size[2]}; nonogen reads sides up to {MAX_SIDE_3D}")
    clues_raw = data.get("clues")
    if not isinstance(clues_raw, dict):
        raise FormatError("'clues' must be an object with 'x', 'y' and 'z' tables")
    clues = {}
    for axis in AXES:
        table = clues_raw.get(axis)
        if not isinstance(table, list) or not all(isinstance(r, list) for r in table):
            raise FormatError(f"clues.{axis} must be a list of lists")
        clues[axis] = [[parse_token(t, f"clues.{axis}[{i}][{j}]") for j, t in enumerate(r)] for i, r in enumerate(table)]
    goal = None
    if data.get("goal") is not None:
        g = data["goal"]
        n = size[0] * size[1] * size[2]
        if not isinstance(g, str) or len(g) != n or set(g) - {"0", "1"}:
            raise FormatError(f"'goal' must be a string of {n} '0'/'1' characters")
        goal = (np.frombuffer(g.encode("ascii"), dtype=np.uint8) == ord("1")).reshape(size)
    givens = data.get("givens") or []
    if not all(isinstance(v, list) and len(v) == 4 and all(isinstance(k, int) for k in v) for v in givens):
        raise FormatError("'givens' must be a list of [x, y, z, 0 or 1]")
    for x, y, z, v in givens:
        if not (0 <= x < size[0] and 0 <= y < size[1] and 0 <= z < size[2] and v in (0, 1)):
            raise FormatError(f"given {[x, y, z, v]} is outside the box or not 0/1")
    meta = json_meta(data)
    try:
        return Puzzle3D(tuple(size), clues, goal=goal, givens=tuple(map(tuple, givens)), meta=meta)
    except PuzzleError as exc:
        raise FormatError(str(exc)) from None


def to_dict(puzzle: Puzzle3D) -> dict:
    """The JSON-ready dict of a level (keys in the contract's order)."""
    data: dict[str, Any] = {
        "format": TAG, "version": 1, "size": list(puzzle.size),
        "clues": {a: [[format_token(c) for c in row] for row in puzzle.clues[a]] for a in AXES},
    }
    if puzzle.goal is not None:
        data["goal"] = "".join("1" if v else "0" for v in np.asarray(puzzle.goal).ravel())
    if puzzle.givens:
        data["givens"] = [list(g) for g in puzzle.givens]
    return put_json_meta(data, puzzle.meta)


def dumps(puzzle: Puzzle3D) -> str:
    """The JSON text of a level."""
    if not isinstance(puzzle, Puzzle3D):
        raise FormatError("nonogen-3d holds Picross 3D levels, not 2D puzzles")
    return json.dumps(to_dict(puzzle), ensure_ascii=False) + "\n"


def dropped(puzzle: Any) -> list[str]:
    """Nothing for a 3D level (every field is kept)."""
    return []
