"""picross-solver's bracket text (``GRID name`` / ``ROWS`` / ``[ 1 2 ]`` ... / ``COLUMNS``), many grids per file.

``#`` starts a comment line; ``[ ]`` is an empty line. Black and white only.
"""
from __future__ import annotations

import re
from typing import Optional

from ..errors import FormatError
from ..model import Puzzle
from ._common import (
    MAX_PUZZLES,
    MAX_SIDE,
    build,
    bw_numbers,
    check_count,
    counts_only_dropped,
    one_line,
    cut_members,
    parse_bw_line,
    require_bw,
    split_lines,
)

NAME = "bracket"
SUFFIXES = (".txt",)
MULTI = True
_LINE = re.compile(r"\[([^\]]*)\]$")


def looks_like(text: str) -> bool:
    """Has a ``GRID`` line and bracketed clue lines."""
    head = text[:4000]
    # [ \t], not \s, which crosses lines: quadratic on blank lines (see non.looks_like)
    return bool(re.search(r"^GRID\b", head, re.M)) and bool(re.search(r"^[ \t]*\[[\d \t]*\][ \t\r]*$", head, re.M))


def members(text: str) -> list[tuple[int, str]]:
    """The grids of a file as ``(lines before, text)``, each opening with its ``GRID`` line."""
    pieces = cut_members(text, _MemberKind())
    return [(a, piece) for a, piece in pieces if any(_is_content(line) for line in piece.split("\n"))]


def _is_content(line: str) -> bool:
    s = line.strip()
    return bool(s) and not s.startswith("#")


class _MemberKind:
    """Where grids start: at ``GRID`` lines, and at a bad line after a grid with rows and columns.

    A mangled ``GRID`` line then opens a member of its own, whose error
    names it, instead of ending (and costing) the grid before it.
    """

    def __init__(self) -> None:
        self.counts = {"ROWS": 0, "COLUMNS": 0}
        self.section = ""

    def __call__(self, line: str) -> Optional[str]:
        if not _is_content(line):
            return None
        s = line.strip()
        word = s.split()[0].upper()
        if word in self.counts:
            self.section = word
        elif _LINE.match(s) and self.section:
            self.counts[self.section] += 1
        elif word == "GRID" or all(self.counts.values()):
            self.counts, self.section = {"ROWS": 0, "COLUMNS": 0}, ""
            return "opener"
        return None


def loads_all(text: str) -> list[Puzzle]:
    """Every grid in the file."""
    grids: list[dict] = []
    section = None
    for i, raw in enumerate(split_lines(text)):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        word = s.split()[0].upper()
        if word == "GRID":
            check_count(len(grids) + 1, MAX_PUZZLES, "puzzles in one file", i + 1)
            grids.append({"title": s[4:].strip(), "ROWS": [], "COLUMNS": [], "line": i + 1})
            section = None
        elif word in ("ROWS", "COLUMNS") and grids:
            section = word
        elif section and (m := _LINE.match(s)):
            what = f"{section.lower()[:-1]} {len(grids[-1][section]) + 1}"
            check_count(len(grids[-1][section]) + 1, MAX_SIDE, f"{section.lower()} in one grid", i + 1)
            grids[-1][section].append(parse_bw_line(m.group(1), i + 1, what))
        else:
            raise FormatError(f"expected GRID, ROWS, COLUMNS or a clue like [ 1 2 ], got {s[:30]!r}", line=i + 1)
    if not grids:
        raise FormatError("no 'GRID' line found", line=1)
    out = []
    for g in grids:
        meta = {"title": g["title"]} if g["title"] else {}
        out.append(build(g["ROWS"], g["COLUMNS"], meta=meta, line=g["line"]))
    return out


def loads(text: str) -> Puzzle:
    """The one grid of a file."""
    puzzles = loads_all(text)
    if len(puzzles) != 1:
        raise FormatError(f"holds {len(puzzles)} grids; read them with load_all")
    return puzzles[0]


def dumps_all(puzzles: list[Puzzle]) -> str:
    """Grids in bracket text."""
    out = []
    for p in puzzles:
        require_bw(p, "the bracket format")
        out.append(f"GRID {one_line(p.meta.get('title')) or ''}".rstrip())
        out.append("ROWS")
        out += ["[ " + " ".join(map(str, bw_numbers(r))) + " ]" for r in p.rows]
        out.append("COLUMNS")
        out += ["[ " + " ".join(map(str, bw_numbers(c))) + " ]" for c in p.cols]
        out.append("")
    return "\n".join(out)


def dumps(puzzle: Puzzle) -> str:
    """One grid in bracket text."""
    return dumps_all([puzzle])


def dropped(puzzle: Puzzle) -> list[str]:
    """Everything but the clues and a one-line title."""
    return counts_only_dropped(puzzle, keeps=("title",))
