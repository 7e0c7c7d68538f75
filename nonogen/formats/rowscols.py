"""The rows/cols JSON of the project's second source document: ``{"rows": [[3], [1, 1]], "cols": [...]}``.

Rows left to right, columns top to bottom; ``[]`` or ``[0]`` is an empty
line. ``columns`` is accepted for ``cols``. Black and white only.
"""
from __future__ import annotations

import json
from typing import Any

from ..errors import FormatError
from ..model import Puzzle
from ._common import MAX_SIDE, build, bw_numbers, check_blocks, check_count, counts_only_dropped, item, require_bw
from ._json import describe, line_of, parse_json

NAME = "rowscols"
SUFFIXES = (".json",)

__all__ = ["loads", "dumps", "dropped", "looks_like", "parse_json"]


def looks_like(text: str) -> bool:
    """A JSON object with ``rows`` and no ``format`` key."""
    s = text.lstrip("\ufeff \t\r\n")
    return s.startswith("{") and '"rows"' in s and '"format"' not in s


def _line(value: Any, what: str, where: list, text: str) -> tuple:
    """One clue line; every value is checked to be a plain whole number before anything is built."""
    if not isinstance(value, list):
        raise FormatError(f"{what}: expected a list of block lengths like [3, 1], got {describe(value)}",
                          line=line_of(text, where))
    check_blocks(len(value), line_of(text, where) if len(value) > MAX_SIDE else None, what)
    for k, n in enumerate(value):
        if type(n) is not int or not 0 <= n <= MAX_SIDE:
            raise FormatError(f"{what}: expected block lengths from 1 to {MAX_SIDE}, got {describe(n)}",
                              line=line_of(text, where + [k]))
    if value == [0]:
        return ()
    if 0 in value:
        raise FormatError(f"{what}: a block length of 0 is only allowed alone ([0] = empty line)",
                          line=line_of(text, where))
    return tuple(item(n, 1) for n in value)


def loads(text: str) -> Puzzle:
    """Read one puzzle.

    >>> loads('{"rows": [[1], [0]], "cols": [[1], []]}').cols
    (((1, 1),), ())
    """
    data = parse_json(text)
    if not isinstance(data, dict):
        raise FormatError("expected a JSON object with 'rows' and 'cols'", line=1)
    key = "cols" if "cols" in data else "columns"
    rows, cols = data.get("rows"), data.get(key)
    if not isinstance(rows, list) or not isinstance(cols, list):
        raise FormatError("expected lists 'rows' and 'cols' (lists of block lengths)", line=1)
    for name, lines in (("rows", rows), (key, cols)):
        if len(lines) > MAX_SIDE:
            check_count(len(lines), MAX_SIDE, f"{name} lines", line_of(text, [name]))
    return build([_line(r, f"row {i + 1}", ["rows", i], text) for i, r in enumerate(rows)],
                 [_line(c, f"column {i + 1}", [key, i], text) for i, c in enumerate(cols)], line=1)


def dumps(puzzle: Puzzle) -> str:
    """``{"rows": ..., "cols": ...}`` of a black-and-white puzzle, empty lines as ``[]``."""
    require_bw(puzzle, "rows/cols JSON")
    data = {"rows": [bw_numbers(r) for r in puzzle.rows], "cols": [bw_numbers(c) for c in puzzle.cols]}
    return json.dumps(data) + "\n"


def dropped(puzzle: Puzzle) -> list[str]:
    """Everything but the clues: colours, goal, givens, metadata."""
    return counts_only_dropped(puzzle)
