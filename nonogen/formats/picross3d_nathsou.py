"""The level JSON of the nathsou/Picross3D web game: ``{"name", "dims", "hints"}`` (read and written).

What the file holds (facts read from that project's levels and loader):

- ``dims`` is ``[I, J, K]``: cubes along i (left to right), j (upwards:
  ``j = 0`` is the bottom layer) and k (towards the viewer: the front face
  of a cube looks at ``k + 1``).
- ``hints[0][j][k]`` clues the line along i through ``(j, k)``,
  ``hints[1][i][k]`` the line along j, ``hints[2][i][j]`` the line along k.
  A hint is ``{"num": n, "type": t}`` with ``t`` 0 for one group of cubes,
  1 for two (a circle in the game), 2 for three or more (a square); ``null``
  is a hidden clue. The game treats a missing outer entry as hidden too.
- ``name`` is the level's title. There is no solution in the file.

In nonogen's axes (``nonogen-3d``: y down from the top, z back from the
front) the cube ``(i, j, k)`` is ``(i, J-1-j, K-1-k)``.
"""
from __future__ import annotations

import json
from typing import Any, Optional

from ..errors import FileLimitError, FormatError, PuzzleError
from ..model3d import Clue3D, Puzzle3D
from ._common import one_line
from ._json import line_of, parse_json
from .nonogen3d import MAX_CELLS_3D
from .sniff3d import nathsou as looks_like  # noqa: F401 - the format registry reads it

NAME = "picross3d-nathsou"
SUFFIXES = (".json",)
_TYPES = {0: 1, 1: 2, 2: 3}  # hint type -> groups in nonogen's clue
_TYPE_OF = {groups: t for t, groups in _TYPES.items()}


def _dims(data: dict, text: str) -> tuple[int, int, int]:
    dims = data.get("dims")
    if not (isinstance(dims, list) and len(dims) == 3 and all(type(d) is int and d >= 1 for d in dims)):
        raise FormatError("'dims' must be three positive whole numbers [width, height, depth]",
                          line=line_of(text, ["dims"]) if "dims" in data else 1)
    if dims[0] * dims[1] * dims[2] > MAX_CELLS_3D:
        raise FileLimitError(f"level is {dims[0]}x{dims[1]}x{dims[2]} cubes; nonogen reads at most "
                             f"{MAX_CELLS_3D:,}", line=line_of(text, ["dims"]))
    return dims[0], dims[1], dims[2]


def _hint(value: Any, length: int, where: list, text: str) -> Optional[Clue3D]:
    """``{"num": 3, "type": 1}`` -> ``(3, 2)``; ``null`` -> hidden; anything else a one-line error."""
    if value is None:
        return None
    num = value.get("num") if isinstance(value, dict) else None
    kind = value.get("type") if isinstance(value, dict) else None
    name = "hints" + "".join(f"[{p}]" for p in where)
    if type(num) is not int or type(kind) is not int or kind not in _TYPES:
        raise FormatError(f"{name}: expected null or {{\"num\": n, \"type\": 0, 1 or 2}}, got "
                          f"{json.dumps(value)[:40]}", line=line_of(text, ["hints", *where]))
    groups = _TYPES[kind]
    if not 0 <= num <= length or 0 < num < groups or (num == 0 and groups > 1) or num + groups - 1 > length:
        raise FormatError(f"{name}: {num} cubes in {groups if groups < 3 else '3 or more'} group(s) cannot be "
                          f"the clue of a line of {length} cubes", line=line_of(text, ["hints", *where]))
    return num, groups


def _table(data: dict, d: int, rows: int, cols: int, length: int, text: str) -> list[list[Optional[Clue3D]]]:
    """``hints[d]`` as ``rows`` lists of ``cols`` clues (missing outer entries: hidden lines)."""
    table = data["hints"][d]
    if not isinstance(table, list) or len(table) > rows:
        raise FormatError(f"hints[{d}] must be a list of at most {rows} lists", line=line_of(text, ["hints", d]))
    out = []
    for r in range(rows):
        row = table[r] if r < len(table) else [None] * cols
        if not isinstance(row, list) or len(row) != cols:
            raise FormatError(f"hints[{d}][{r}] must be a list of {cols} hints", line=line_of(text, ["hints", d, r]))
        out.append([_hint(v, length, [d, r, c], text) for c, v in enumerate(row)])
    return out


def loads(text: str) -> Puzzle3D:
    """Read one level.

    >>> level = loads('{"name": "Dot", "dims": [1, 1, 1], "hints": [[[{"num": 1, "type": 0}]], [[null]], [[null]]]}')
    >>> level.size, level.clues["x"], level.meta["title"]
    ((1, 1, 1), (((1, 1),),), 'Dot')
    """
    data = parse_json(text)
    if not isinstance(data, dict) or "hints" not in data:
        raise FormatError('expected a JSON object with "dims" and "hints" (a nathsou/Picross3D level)', line=1)
    I, J, K = _dims(data, text)  # noqa: E741 - the level's three sides, as in its dims
    if not isinstance(data["hints"], list) or len(data["hints"]) != 3:
        raise FormatError("'hints' must hold three tables (along width, height, depth)",
                          line=line_of(text, ["hints"]))
    along_i = _table(data, 0, J, K, I, text)  # [j][k]
    along_j = _table(data, 1, I, K, J, text)  # [i][k]
    along_k = _table(data, 2, I, J, K, text)  # [i][j]
    clues = {
        "x": [[along_i[J - 1 - y][K - 1 - z] for z in range(K)] for y in range(J)],
        "y": [[along_j[x][K - 1 - z] for z in range(K)] for x in range(I)],
        "z": [[along_k[x][J - 1 - y] for y in range(J)] for x in range(I)],
    }
    name = data.get("name")
    meta = {"title": name.strip()} if isinstance(name, str) and name.strip() else {}
    try:
        return Puzzle3D((I, J, K), clues, meta=meta)
    except PuzzleError as exc:
        raise FormatError(str(exc)) from None


def _out(clue: Optional[Clue3D]) -> Optional[dict]:
    return None if clue is None else {"num": clue[0], "type": _TYPE_OF[min(clue[1], 3)]}


def dumps(puzzle: Puzzle3D) -> str:
    """The level as that game's JSON (clues and title; the goal, givens and colours have no place there)."""
    if not isinstance(puzzle, Puzzle3D):
        raise FormatError(f"{NAME} holds Picross 3D levels, not 2D puzzles")
    I, J, K = puzzle.size  # noqa: E741 - the level's three sides, as in its dims
    c = puzzle.clues
    hints = [
        [[_out(c["x"][J - 1 - j][K - 1 - k]) for k in range(K)] for j in range(J)],
        [[_out(c["y"][i][K - 1 - k]) for k in range(K)] for i in range(I)],
        [[_out(c["z"][i][J - 1 - j]) for j in range(J)] for i in range(I)],
    ]
    name = one_line(puzzle.meta.get("title")) or "Untitled Puzzle"
    return json.dumps({"name": name, "dims": [I, J, K], "hints": hints}) + "\n"


def dropped(puzzle: Puzzle3D) -> list[str]:
    """What the game's JSON cannot hold."""
    lost = []
    if puzzle.goal is not None:
        lost.append("the solution (goal)")
    if puzzle.givens:
        lost.append("givens")
    if puzzle.colors is not None:
        lost.append("cube colours")
    lost += [f"'{k}'" for k, v in puzzle.meta.items() if k != "title" or one_line(v) is None]
    return lost

