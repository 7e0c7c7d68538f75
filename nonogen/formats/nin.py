"""Jakub Wilk's ``.nin``: ``W H``, then H row lines and W column lines of space-separated numbers.

``0`` is an empty line; ``#`` comment lines are skipped. Black and white only.
"""
from __future__ import annotations

import re

from ..errors import FormatError
from ..model import Puzzle
from ._common import bw_clue_lines, bw_numbers, check_size, counts_only_dropped, parse_int, require_bw, split_lines

NAME = "nin"
SUFFIXES = (".nin",)


def _content(text: str) -> list[tuple[int, str]]:
    return [(i + 1, s.strip()) for i, s in enumerate(split_lines(text)) if s.strip() and not s.lstrip().startswith("#")]


def looks_like(text: str) -> bool:
    """First line two numbers, then lines of numbers."""
    lines = _content(text[:5000])
    return len(lines) >= 3 and bool(re.fullmatch(r"\d+\s+\d+", lines[0][1])) and all(
        re.fullmatch(r"[\d\s]+", s) for _, s in lines[1:]
    )


def loads(text: str) -> Puzzle:
    """Read one puzzle.

    >>> loads("2 1\\n1 \\n1\\n1\\n").cols
    (((1, 1),), ((1, 1),))
    """
    lines = _content(text)
    if not lines:
        raise FormatError("expected 'WIDTH HEIGHT' on the first line", line=1)
    first_no, first = lines[0]
    parts = first.split()
    if len(parts) != 2:
        raise FormatError(f"expected 'WIDTH HEIGHT' on the first line, got {first!r}"[:120], line=first_no)
    width = parse_int(parts[0], first_no, "the width")
    height = parse_int(parts[1], first_no, "the height")
    check_size(width, height, first_no)
    return bw_clue_lines(lines[1:], width, height, first_no)


def dumps(puzzle: Puzzle) -> str:
    """The ``.nin`` text of a black-and-white puzzle."""
    require_bw(puzzle, ".nin")
    out = [f"{puzzle.width} {puzzle.height}"]
    out += [" ".join(map(str, bw_numbers(line))) or "0" for line in puzzle.rows + puzzle.cols]
    return "\n".join(out) + "\n"


def dropped(puzzle: Puzzle) -> list[str]:
    """Everything but the clues: colours, goal, givens, metadata."""
    return counts_only_dropped(puzzle)
