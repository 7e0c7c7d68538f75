"""The counts text format of the project's first source document (``lambda.txt``).

Line 1 is the number of rows H, line 2 the number of columns W, then H row
clues and W column clues, numbers separated by spaces. ``#`` starts a comment;
comment-only and blank lines are skipped, so an empty line is written ``0``.
Black and white only.
"""
from __future__ import annotations

import re

from ..errors import FormatError
from ..model import Puzzle
from ._common import bw_clue_lines, bw_numbers, check_side, counts_only_dropped, parse_int, require_bw, split_lines

NAME = "counts"
SUFFIXES = (".txt",)


def _content(text: str) -> list[tuple[int, str]]:
    """``(line number, text)`` of lines that hold something once comments are cut."""
    out = []
    for i, raw in enumerate(split_lines(text)):
        s = raw.split("#", 1)[0].strip()
        if s:
            out.append((i + 1, s))
    return out


def looks_like(text: str) -> bool:
    """Two lone numbers first, then lines of numbers."""
    lines = _content(text[:5000])
    return len(lines) >= 3 and all(re.fullmatch(r"\d+", s) for _, s in lines[:2]) and all(
        re.fullmatch(r"[\d\s]+", s) for _, s in lines[2:]
    )


def loads(text: str) -> Puzzle:
    """Read one puzzle.

    >>> p = loads("2 # rows\\n1\\n1\\n0\\n1\\n")
    >>> p.height, p.width, p.rows
    (2, 1, (((1, 1),), ()))
    """
    lines = _content(text)
    if len(lines) < 2:
        raise FormatError("expected the number of rows and the number of columns on the first two lines", line=1)
    height = parse_int(lines[0][1], lines[0][0], "the number of rows")
    check_side(height, "the number of rows", lines[0][0])
    width = parse_int(lines[1][1], lines[1][0], "the number of columns")
    check_side(width, "the number of columns", lines[1][0])
    return bw_clue_lines(lines[2:], width, height, lines[1][0])


def dumps(puzzle: Puzzle) -> str:
    """The counts text of a black-and-white puzzle."""
    require_bw(puzzle, "the counts text format")
    out = [f"{puzzle.height} # rows", f"{puzzle.width} # columns"]
    out += [" ".join(map(str, bw_numbers(line))) or "0" for line in puzzle.rows + puzzle.cols]
    return "\n".join(out) + "\n"


def dropped(puzzle: Puzzle) -> list[str]:
    """Everything but the clues: colours, goal, givens, metadata."""
    return counts_only_dropped(puzzle)
