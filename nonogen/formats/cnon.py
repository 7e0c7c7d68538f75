"""The ``.cnon`` colour format of the project's colour source document.

Line 1 ``C W H``; then C lines ``NAME #RRGGBB``; then H row lines and W
column lines of ``LEN:NAME`` items separated by commas (spaces accepted).
The background is implicitly white. The original tool cannot express an
empty line; nonogen reads an empty line or ``0`` and writes ``0``.
"""
from __future__ import annotations

import re

from ..errors import FormatError
from ..model import Color, Puzzle
from ..palette import WHITE, pick_char
from ._common import (
    MAX_COLORS,
    build,
    check_count,
    check_size,
    expand_rgb,
    parse_clue_line,
    parse_int,
    shorten,
    split_lines,
)

NAME = "cnon"
SUFFIXES = (".cnon",)

_HEADER = re.compile(r"\s*(\S+)\s+(\S+)\s+(\S+)\s*$")
_ITEM = re.compile(r"(\d+):(\S+)$")
_SAFE_NAME = re.compile(r"[^\s:,]+$")


def looks_like(text: str) -> bool:
    """``C W H`` then a ``NAME #RRGGBB`` line."""
    lines = split_lines(text[:2000])
    return len(lines) >= 2 and bool(re.fullmatch(r"\s*\d+ +\d+ +\d+\s*", lines[0])) and bool(
        re.fullmatch(r"\s*\S+\s+#?[0-9A-Fa-f]{6}\s*", lines[1])
    )


def _palette(lines: list[str], n: int) -> tuple[tuple[Color, ...], dict[str, int]]:
    used = {WHITE.char}
    colors, index = [], {}
    for k in range(n):
        if k + 1 >= len(lines):
            raise FormatError(f"expected {n} colour lines 'NAME #RRGGBB', found {k}", line=k + 1)
        parts = lines[k + 1].split()
        if len(parts) != 2:
            raise FormatError(f"expected a colour line 'NAME #RRGGBB', got {shorten(lines[k + 1])}", line=k + 2)
        name, rgb = parts[0], expand_rgb(parts[1], k + 2)
        if name in index:
            raise FormatError(f"colour {name!r} is declared twice", line=k + 2)
        colors.append(Color(name, rgb, pick_char(name, rgb, used, name if len(name) == 1 else None)))
        index[name] = k + 1
    return (WHITE, *colors), index


def loads(text: str) -> Puzzle:
    """Read one puzzle.

    >>> p = loads("1 2 1\\nR #ff0000\\n1:R\\n0\\n1:R\\n")
    >>> p.rows, p.cols, p.palette[1].name
    ((((1, 1),),), ((), ((1, 1),)), 'R')
    """
    lines = split_lines(text)
    m = _HEADER.match(lines[0]) if lines else None
    if not m:
        raise FormatError("expected 'COLOURS WIDTH HEIGHT' on the first line", line=1)
    n, width, height = (parse_int(v, 1, what)
                        for v, what in zip(m.groups(), ("the colour count", "the width", "the height"), strict=True))
    check_size(width, height, 1)
    if n < 1:
        raise FormatError("a .cnon puzzle needs at least one colour", line=1)
    check_count(n, MAX_COLORS, "colours", 1)
    palette, index = _palette(lines, n)
    start = 1 + n
    body = lines[start : start + height + width]
    if len(body) < height + width:
        raise FormatError(f"expected {height} row and {width} column clue lines, found {len(body)}", line=len(lines))
    extra = [i for i in range(start + height + width, len(lines)) if lines[i].strip()]
    if extra:
        raise FormatError(f"unexpected text after the last column clue: {shorten(lines[extra[0]])}", line=extra[0] + 1)
    clues = [
        parse_clue_line(t, start + k + 1, f"row {k + 1}" if k < height else f"column {k - height + 1}", _ITEM.match,
                        "2:A", index.get)
        for k, t in enumerate(body)
    ]
    return build(clues[:height], clues[height:], palette, line=len(lines))


def _names(puzzle: Puzzle) -> list[str]:
    """The name each colour gets in the file: its own when the format can hold it."""
    names, seen = [], set()
    for k, c in enumerate(puzzle.palette):
        name = c.name if _SAFE_NAME.match(c.name) and c.name != "0" and c.name not in seen else f"c{k}"
        seen.add(name)
        names.append(name)
    return names


def dumps(puzzle: Puzzle) -> str:
    """The ``.cnon`` text of a puzzle (``0`` for empty lines)."""
    names = _names(puzzle)
    out = [f"{puzzle.n_colors} {puzzle.width} {puzzle.height}"]
    out += [f"{names[k]} {c.rgb.upper()}" for k, c in enumerate(puzzle.palette) if k > 0]
    out += [",".join(f"{n}:{names[c]}" for n, c in line) or "0" for line in puzzle.rows + puzzle.cols]
    return "\n".join(out) + "\n"


def dropped(puzzle: Puzzle) -> list[str]:
    """Goal, givens, metadata, a non-white background, colour codes (and names with spaces)."""
    out = []
    if puzzle.palette[0] != WHITE:
        out.append(f"background colour {puzzle.palette[0].name} {puzzle.palette[0].rgb} (becomes white)")
    names = _names(puzzle)
    renamed = [c.name for k, c in enumerate(puzzle.palette) if k and names[k] != c.name]
    if renamed:
        out.append("colour names " + ", ".join(renamed) + " (renamed)")
    if puzzle.goal is not None:
        out.append("goal (solution image)")
    if puzzle.givens:
        out.append(f"{len(puzzle.givens)} given cells")
    if puzzle.meta:
        out.append("metadata " + ", ".join(puzzle.meta))
    return out
