"""The text levels of ytakata69/processing-picross3d: three views of clues, then optionally the answer (read and
written).

What the file holds (facts read from that project's data files and loader):
sections of lines separated by blank lines or ``#`` comment lines, in this
order: FRONT (H rows of W clues), SIDE (H rows of D clues), TOP (D rows of
W clues), then optionally the answer as D sections of H rows of W cells
(``1`` a cube, ``.`` or ``0`` none). A clue is ``n`` (one group of n cubes),
``(n)`` (two groups), ``[n]`` (three or more) or ``.`` (hidden). A line
``# LABEL text`` names the level; files mark the sections with ``# FRONT``,
``# SIDE`` and ``# TOP`` comments, which is how nonogen recognises them.

In nonogen's axes (x right, y down from the top row, z back from the front
slice): FRONT row y, column x clues the line along z through ``(x, y)``;
SIDE row y, column z the line along x through ``(y, z)``; TOP row r, column
x the line along y through ``(x, D-1-r)`` (the top view has the back at its
top); answer section z is the slice ``z``.
"""
from __future__ import annotations

import re
from typing import Optional

import numpy as np

from ..errors import FileLimitError, FormatError, PuzzleError
from ..model3d import Clue3D, Puzzle3D
from ._common import one_line, split_lines
from .nonogen3d import MAX_CELLS_3D
from .sniff3d import ytakata as looks_like  # noqa: F401 - the format registry reads it

NAME = "picross3d-ytakata"
SUFFIXES = (".txt",)
_TOKEN = re.compile(r"\.|(\d{1,9})|\((\d{1,9})\)|\[(\d{1,9})\]")
Section = list[tuple[int, list[str]]]  # (line number, tokens) per line


def _sections(text: str) -> tuple[list[Section], str]:
    """Runs of lines that are neither blank nor comments, and the ``# LABEL``."""
    sections: list[Section] = []
    run: Section = []
    label = ""
    for number, line in enumerate(split_lines(text), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            if line.lstrip().startswith("# LABEL "):
                label = line.lstrip()[8:].strip()
            if run:
                sections.append(run)
                run = []
            continue
        run.append((number, line.split()))
    return sections + ([run] if run else []), label


def _clue(token: str, number: int, length: int) -> Optional[Clue3D]:
    """``3`` -> (3, 1), ``(3)`` -> (3, 2), ``[3]`` -> (3, 3), ``.`` -> hidden."""
    m = _TOKEN.fullmatch(token)
    if not m:
        raise FormatError(f"expected a clue like 3, (3), [3] or '.', got {token[:20]!r}", line=number)
    if token == ".":
        return None
    groups = next(g for g, value in enumerate(m.groups(), 1) if value is not None)
    count = int(m.group(groups))
    if count > length or 0 < count < groups or (count == 0 and groups > 1) or count + groups - 1 > length:
        raise FormatError(f"{token} cannot be the clue of a line of {length} cubes", line=number)
    return count, groups


def _grid(section: Section, rows: int, cols: int, what: str) -> list[list[str]]:
    if len(section) != rows or any(len(tokens) != cols for _, tokens in section):
        bad = next((n for n, tokens in section if len(tokens) != cols), section[0][0])
        raise FormatError(f"the {what} section must be {rows} lines of {cols} entries", line=bad)
    return [tokens for _, tokens in section]


def loads(text: str) -> Puzzle3D:
    """Read one level (with its answer as the goal when the file has one).

    >>> level = loads("# FRONT\\n1\\n\\n# SIDE\\n.\\n\\n# TOP\\n.\\n")
    >>> level.size, level.clues["z"]
    ((1, 1, 1), (((1, 1),),))
    """
    sections, label = _sections(text)
    if len(sections) < 3:
        raise FormatError("expected three sections of clues (FRONT, SIDE, TOP) separated by blank lines", line=1)
    front, side, top = sections[:3]
    H, W, D = len(front), len(front[0][1]), len(top)
    if W * H * D > MAX_CELLS_3D:
        raise FileLimitError(f"level is {W}x{H}x{D} cubes; nonogen reads at most {MAX_CELLS_3D:,}", line=front[0][0])
    f, s, t = _grid(front, H, W, "FRONT"), _grid(side, H, D, "SIDE"), _grid(top, D, W, "TOP")
    lines = {"front": [n for n, _ in front], "side": [n for n, _ in side], "top": [n for n, _ in top]}
    clues = {
        "x": [[_clue(s[y][z], lines["side"][y], W) for z in range(D)] for y in range(H)],
        "y": [[_clue(t[D - 1 - z][x], lines["top"][D - 1 - z], H) for z in range(D)] for x in range(W)],
        "z": [[_clue(f[y][x], lines["front"][y], D) for y in range(H)] for x in range(W)],
    }
    goal = _answer(sections[3:], W, H, D)
    try:
        return Puzzle3D((W, H, D), clues, goal=goal, meta={"title": label} if label else {})
    except PuzzleError as exc:
        raise FormatError(str(exc)) from None


def _answer(sections: list[Section], W: int, H: int, D: int) -> Optional[np.ndarray]:
    """The answer sections as a ``(W, H, D)`` goal, or ``None`` when the file has none."""
    if not sections:
        return None
    if len(sections) != D:
        raise FormatError(f"the answer must be {D} sections (one per slice, front first), found {len(sections)}",
                          line=sections[0][0][0])
    goal = np.zeros((W, H, D), dtype=bool)
    for z, section in enumerate(sections):
        for y, row in enumerate(_grid(section, H, W, f"answer slice {z + 1}")):
            for x, cell in enumerate(row):
                if cell not in ("1", "0", "."):
                    raise FormatError(f"answer cells are 1, 0 or '.', got {cell[:20]!r}", line=section[y][0])
                goal[x, y, z] = cell == "1"
    return goal


def _token(clue: Optional[Clue3D]) -> str:
    if clue is None:
        return "."
    count, groups = clue
    return str(count) if groups == 1 else f"({count})" if groups == 2 else f"[{count}]"


def _rows(table: list[list[str]]) -> str:
    width = max(len(t) for row in table for t in row)
    return "\n".join(" ".join(t.rjust(width) for t in row) for row in table) + "\n"


def dumps(puzzle: Puzzle3D) -> str:
    """The level as that project's text, with the answer when the level has a goal."""
    if not isinstance(puzzle, Puzzle3D):
        raise FormatError(f"{NAME} holds Picross 3D levels, not 2D puzzles")
    W, H, D = puzzle.size
    c = puzzle.clues
    title = one_line(puzzle.meta.get("title"))
    parts = [f"# LABEL {title}\n" if title else ""]
    parts.append("# FRONT\n" + _rows([[_token(c["z"][x][y]) for x in range(W)] for y in range(H)]))
    parts.append("# SIDE\n" + _rows([[_token(c["x"][y][z]) for z in range(D)] for y in range(H)]))
    parts.append("# TOP\n" + _rows([[_token(c["y"][x][D - 1 - r]) for x in range(W)] for r in range(D)]))
    if puzzle.goal is not None:
        goal = puzzle.goal
        parts.append("# ANSWER\n" + "\n".join(
            "\n".join(" ".join("1" if goal[x, y, z] else "." for x in range(W)) for y in range(H)) + "\n"
            for z in range(D)))
    return "\n".join(p for p in parts if p)


def dropped(puzzle: Puzzle3D) -> list[str]:
    """What the text cannot hold."""
    lost = ["givens"] if puzzle.givens else []
    if puzzle.colors is not None:
        lost.append("cube colours")
    return lost + [f"'{k}'" for k, v in puzzle.meta.items() if k != "title" or one_line(v) is None]
