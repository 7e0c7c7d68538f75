"""The rows/cols JSON of the project's second source document: ``{"rows": [[3], [1, 1]], "cols": [...]}``.

Rows left to right, columns top to bottom; ``[]`` or ``[0]`` is an empty
line. ``columns`` is accepted for ``cols``. Black and white only.
"""
from __future__ import annotations

import json
from typing import Any

from ..errors import FormatError
from ..model import Puzzle
from ._common import build, bw_numbers, check_size, counts_only_dropped, require_bw

NAME = "rowscols"
SUFFIXES = (".json",)


def parse_json(text: str) -> Any:
    """JSON with errors as FormatErrors on the right line."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"invalid JSON: {exc.msg}", line=exc.lineno) from None
    except RecursionError:
        raise FormatError("invalid JSON: nested too deeply", line=1) from None


def looks_like(text: str) -> bool:
    """A JSON object with ``rows`` and no ``format`` key."""
    s = text.lstrip("\ufeff \t\r\n")
    return s.startswith("{") and '"rows"' in s and '"format"' not in s


def _line(value: Any, what: str) -> tuple:
    if not isinstance(value, list) or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in value):
        raise FormatError(f"{what}: expected a list of block lengths like [3, 1], got {json.dumps(value)[:40]}")
    if value == [0]:
        return ()
    if 0 in value:
        raise FormatError(f"{what}: a block length of 0 is only allowed alone ([0] = empty line)")
    return tuple((n, 1) for n in value)


def loads(text: str) -> Puzzle:
    """Read one puzzle.

    >>> loads('{"rows": [[1], [0]], "cols": [[1], []]}').cols
    (((1, 1),), ())
    """
    data = parse_json(text)
    if not isinstance(data, dict):
        raise FormatError("expected a JSON object with 'rows' and 'cols'", line=1)
    rows, cols = data.get("rows"), data.get("cols", data.get("columns"))
    if not isinstance(rows, list) or not isinstance(cols, list):
        raise FormatError("expected lists 'rows' and 'cols' (lists of block lengths)", line=1)
    check_size(len(cols), len(rows))
    return build([_line(r, f"row {i + 1}") for i, r in enumerate(rows)],
                 [_line(c, f"column {i + 1}") for i, c in enumerate(cols)])


def dumps(puzzle: Puzzle) -> str:
    """``{"rows": ..., "cols": ...}`` of a black-and-white puzzle, empty lines as ``[]``."""
    require_bw(puzzle, "rows/cols JSON")
    data = {"rows": [bw_numbers(r) for r in puzzle.rows], "cols": [bw_numbers(c) for c in puzzle.cols]}
    return json.dumps(data) + "\n"


def dropped(puzzle: Puzzle) -> list[str]:
    """Everything but the clues: colours, goal, givens, metadata."""
    return counts_only_dropped(puzzle)
