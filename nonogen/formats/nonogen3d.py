"""The ``nonogen-3d`` JSON of a Picross 3D level (fixed contract, FORMATS.md #10).

``clues.x[y][z]`` clues the line ``cells[:, y, z]``, ``clues.y[x][z]`` the line
``cells[x, :, z]``, ``clues.z[x][y]`` the line ``cells[x, y, :]``. A token is
``"n"`` (one group), ``"no"`` (two), ``"ns"`` (three or more) or ``null``
(hidden). ``goal`` is X*Y*Z chars in C order over (x, y, z). The optional
``palette`` (entry 0: no colour) and ``colors`` (X*Y*Z palette chars in the
goal's order) give the solved model its look; they never constrain it.
"""
from __future__ import annotations

import json
import re
from typing import Any, Optional

import numpy as np

from ..errors import FileLimitError, FormatError, PuzzleError
from ..model3d import AXES, Clue3D, Puzzle3D
from ..palette import Color
from ._common import json_meta, put_json_meta
from ._json import line_of, parse_json, validate
from .sniff3d import nonogen3d as looks_like  # noqa: F401 - the format registry reads it

NAME = "nonogen-3d"
SUFFIXES = (".json",)
TAG = "nonogen-3d"
MAX_CELLS_3D = 1_000_000
"""Most cubes in a level: 100x100x100; the verifier itself stops at 100 per side."""
_TOKEN = re.compile(r"(\d{1,9})([os]?)")
_GROUPS = {"": 1, "o": 2, "s": 3}
_MARK = {1: "", 2: "o", 3: "s"}


def parse_token(token: Any, where: str) -> Optional[Clue3D]:
    """``"3o"`` -> ``(3, 2)``; ``None`` stays hidden.

    >>> parse_token("3o", "x"), parse_token("0", "x"), parse_token(None, "x")
    ((3, 2), (0, 1), None)
    """
    if token is None:
        return None
    m = _TOKEN.fullmatch(token) if isinstance(token, str) else None
    if not m:
        got = json.dumps(token[:20]) if isinstance(token, str) else type(token).__name__
        raise FormatError(f"{where}: expected a clue like \"3\", \"3o\", \"3s\" or null, got {got}")
    return int(m.group(1)), _GROUPS[m.group(2)]


def format_token(clue: Optional[Clue3D]) -> Optional[str]:
    """Inverse of :func:`parse_token`."""
    return None if clue is None else f"{clue[0]}{_MARK[clue[1]]}"


def _check_box(data: dict, text: str) -> tuple[int, int, int]:
    """The size, with every clue table's shape checked against it before a single token is read."""
    size = tuple(data["size"])
    X, Y, Z = size
    if X * Y * Z > MAX_CELLS_3D:
        raise FileLimitError(f"level is {X}x{Y}x{Z} = {X * Y * Z:,} cubes; nonogen reads at most {MAX_CELLS_3D:,}",
                             line=line_of(text, ["size"]))
    shapes = {"x": (Y, Z), "y": (X, Z), "z": (X, Y)}
    for axis in AXES:
        table = data["clues"][axis]
        rows, cols = shapes[axis]
        bad = next((k for k, r in enumerate(table) if len(r) != cols), None)
        if len(table) != rows or bad is not None:
            where = ["clues", axis] + ([] if bad is None else [bad])
            raise FormatError(f"clues.{axis} must be {rows} lists of {cols} clues for a {X}x{Y}x{Z} box",
                              line=line_of(text, where))
    return size


def _clues(data: dict, size: tuple[int, int, int], text: str) -> dict[str, list]:
    lengths = dict(zip(AXES, size, strict=True))
    clues = {}
    for axis in AXES:
        table = []
        for i, row in enumerate(data["clues"][axis]):
            out = []
            for j, token in enumerate(row):
                try:
                    clue = parse_token(token, f"clues.{axis}[{i}][{j}]")
                except FormatError as exc:
                    raise FormatError(exc.message, line=line_of(text, ["clues", axis, i, j])) from None
                if clue is not None and (clue[0] > lengths[axis] or 0 < clue[0] < clue[1]
                                         or (clue[0] == 0 and clue[1] > 1)):
                    raise FormatError(f"clues.{axis}[{i}][{j}]: {json.dumps(token)} cannot be the clue of a line "
                                      f"of {lengths[axis]} cubes", line=line_of(text, ["clues", axis, i, j]))
                out.append(clue)
            table.append(out)
        clues[axis] = table
    return clues


def _goal(data: dict, size: tuple[int, int, int], text: str) -> Optional[np.ndarray]:
    g = data.get("goal")
    if g is None:
        return None
    n = size[0] * size[1] * size[2]
    if len(g) != n:
        raise FormatError(f"'goal' has {len(g):,} characters, expected {n:,} '0'/'1'", line=line_of(text, ["goal"]))
    return (np.frombuffer(g.encode("ascii"), dtype=np.uint8) == ord("1")).reshape(size)


def _givens(data: dict, size: tuple[int, int, int], text: str) -> list[tuple[int, int, int, int]]:
    givens = [tuple(g) for g in data.get("givens") or ()]
    for k, (x, y, z, _v) in enumerate(givens):
        if not (x < size[0] and y < size[1] and z < size[2]):
            raise FormatError(f"givens[{k}]: [{x}, {y}, {z}] is outside the {'x'.join(map(str, size))} box",
                              line=line_of(text, ["givens", k]))
    return givens


def _colors(data: dict, size: tuple[int, int, int], text: str) -> tuple[tuple[Color, ...], Optional[np.ndarray]]:
    """The optional look of the solved model: ``palette`` (entry 0: no colour) and ``colors``, X*Y*Z palette chars."""
    colors, entries = data.get("colors"), data.get("palette")
    if entries is None and colors is None:
        return (), None
    if entries is None:
        raise FormatError("'colors' needs a 'palette'", line=line_of(text, ["colors"]))
    try:
        palette = tuple(Color(e["name"], e["rgb"], e["char"]) for e in entries)
    except PuzzleError as exc:
        raise FormatError(f"palette: {exc}", line=line_of(text, ["palette"])) from None
    if len({c.char for c in palette}) != len(palette):
        raise FormatError("palette: every colour needs its own char", line=line_of(text, ["palette"]))
    if colors is None:
        return palette, None
    n = size[0] * size[1] * size[2]
    index = {c.char: i for i, c in enumerate(palette)}
    if len(colors) != n or not set(colors) <= set(index):
        raise FormatError(f"'colors' must be {n:,} palette chars", line=line_of(text, ["colors"]))
    return palette, np.array([index[ch] for ch in colors], dtype=np.uint8).reshape(size)


def loads(text: str) -> Puzzle3D:
    """Read one level, checked against the JSON Schema and the box's shape before any clue is built.

    >>> loads('{"format": "nonogen-3d", "size": [1, 1, 1], '
    ...       '"clues": {"x": [["1"]], "y": [["1"]], "z": [[null]]}}').n_clues
    2
    """
    data = parse_json(text)
    if not isinstance(data, dict) or data.get("format") != TAG:
        raise FormatError(f"expected a JSON object with \"format\": \"{TAG}\"", line=1)
    validate(data, TAG, text)
    size = _check_box(data, text)
    clues = _clues(data, size, text)
    goal = _goal(data, size, text)
    givens = _givens(data, size, text)
    palette, colors = _colors(data, size, text)
    meta = json_meta(data)
    try:
        return Puzzle3D(size, clues, goal=goal, givens=tuple(givens), meta=meta, palette=palette, colors=colors)
    except PuzzleError as exc:
        raise FormatError(str(exc)) from None


def to_dict(puzzle: Puzzle3D) -> dict:
    """The JSON-ready dict of a level (keys in the contract's order)."""
    data: dict[str, Any] = {
        "format": TAG, "version": 1, "size": list(puzzle.size),
        "clues": {a: [[format_token(c) for c in row] for row in puzzle.clues[a]] for a in AXES},
    }
    if puzzle.goal is not None:
        data["goal"] = "".join("1" if v else "0" for v in puzzle.goal.ravel())
    if puzzle.givens:
        data["givens"] = [list(g) for g in puzzle.givens]
    if puzzle.palette:
        data["palette"] = [{"name": c.name, "rgb": c.rgb, "char": c.char} for c in puzzle.palette]
    if puzzle.colors is not None:
        chars = [c.char for c in puzzle.palette]
        data["colors"] = "".join(chars[v] for v in puzzle.colors.ravel())
    return put_json_meta(data, puzzle.meta)


def dumps(puzzle: Puzzle3D) -> str:
    """The JSON text of a level."""
    if not isinstance(puzzle, Puzzle3D):
        raise FormatError("nonogen-3d holds Picross 3D levels, not 2D puzzles")
    return json.dumps(to_dict(puzzle), ensure_ascii=False) + "\n"


def dropped(puzzle: Any) -> list[str]:
    """Nothing for a 3D level (every field is kept)."""
    return []
