"""Olšák's ``.g`` input of the *grid* solver (black and white or multicolour), read only.

Free text may precede the puzzle. An optional colour block starts at a line
beginning with ``#`` and declares ``<in>:<out> <colour> [comment]`` lines:
``<in>`` is the letter used in clues, ``<out>`` the display character and
``<colour>`` an X11 name or ``#rrggbb``. ``0`` declares the background
(white if omitted) and ``1`` the default colour of bare numbers. Lines that
start with ``:`` separate sections: rows, then columns, then the end. Clue
items are ``3r`` or a bare ``3``; ``0`` is an empty line. Triangle colours
(``black/orange``) are refused: nonogen has no triangular cells; so are
triangular grids (``#t``, six clue sections).
"""
from __future__ import annotations

from ..errors import FormatError
from ..model import BW_PALETTE, Color, Puzzle
from ..palette import WHITE, pick_char
from ._common import (
    MAX_COLORS,
    MAX_SIDE,
    build,
    check_count,
    color_from_name,
    parse_clue_line,
    shorten,
    split_lines,
)

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Optional

NAME = "g"
SUFFIXES = (".g",)


def looks_like(text: str) -> bool:
    """At least two lines starting with ``:`` followed by clue lines."""
    import re  # here: only content sniffing asks; reading a .g file needs no re (re and enum: 3 ms)

    lines = split_lines(text[:20000])
    seps = [i for i, ln in enumerate(lines) if ln.startswith(":")]
    return len(seps) >= 2 and all(re.fullmatch(r"[\d\sA-Za-z]*", ln) for ln in lines[seps[0] + 1 : seps[1]])


def _declarations(lines: list[str], start: int, stop: int) -> list[tuple[str, str, str, int]]:
    out: list[tuple[str, str, str, int]] = []
    for i in range(start + 1, stop):
        if not lines[i].strip() or lines[i].lstrip().startswith("#"):
            continue
        m = _declaration(lines[i])
        if not m:
            raise FormatError(f"expected a colour declaration like 'r:& red', got {shorten(lines[i].strip())}",
                              line=i + 1)
        if "/" in m[2] or "\\" in m[2]:
            raise FormatError("triangle colours are not supported (nonogen has square cells only)", line=i + 1)
        check_count(len(out) + 1, MAX_COLORS + 1, "colour declarations", i + 1)
        out.append((*m, i + 1))
    return out


def _declaration(line: str) -> Optional[tuple[str, str, str]]:
    """``in:out colour`` (``out`` may be missing), then anything: the three words, or None.

    >>> _declaration("  r:& red  # a comment"), _declaration("0: white"), _declaration("r red")
    (('r', '&', 'red'), ('0', '', 'white'), None)
    """
    words = line.split(None, 2)
    if len(words) < 2 or len(words[0]) not in (2, 3) or words[0][1] != ":":
        return None
    return words[0][0], words[0][2:], words[1]


def _item(token: str) -> Optional[tuple[str, str, str]]:
    """A clue item's parts as :func:`~._common.parse_clue_line` takes them: digits, then one code or none.

    >>> _item("3r"), _item("12"), _item("r"), _item("1r2")
    (('3r', '3', 'r'), ('12', '12', ''), None, None)
    """
    code = "" if token[-1:].isdecimal() else token[-1:]
    digits = token[: len(token) - len(code)]
    return (token, digits, code) if digits.isdecimal() else None


def _palette(decls: list[tuple[str, str, str, int]]) -> tuple[tuple[Color, ...], dict[str, int]]:
    background = WHITE
    colors = []
    for inchar, outchar, word, line in decls:
        rgb = color_from_name(word, line)
        if inchar == "0":
            background = Color(word, rgb, ".")
        else:
            colors.append((inchar, outchar, word, rgb))
    if not colors:
        colors = [("1", "#", "black", "#000000")]
    if background == WHITE and [c[2:] for c in colors] == [("black", "#000000")]:
        return BW_PALETTE, {colors[0][0]: 1}
    used, names, palette = {background.char}, {background.name}, [background]
    for inchar, outchar, word, rgb in colors:
        name = word if word not in names else f"{word}-{inchar}"
        names.add(name)
        wanted = outchar if outchar not in ("", ".") else inchar
        palette.append(Color(name, rgb, pick_char(name, rgb, used, wanted)))
    return tuple(palette), {c[0]: k + 1 for k, c in enumerate(colors)}


def _refuse_other_grids(lines: list[str], seps: list[int]) -> None:
    """Refuse a grid that is not square cells in rows and columns, instead of reading two of its sections.

    ``#t`` before the clues declares a triangular grid (six sections of
    clues, one per direction); a fourth ``:`` line opens a section this
    reader does not know (free text after the end is a comment, as in Olšák's
    own examples).
    """
    for i in range(seps[0]):
        if lines[i][:2].lower() == "#t":
            raise FormatError("a triangular grid (#t); nonogen reads square grids only", line=i + 1)
    if len(seps) > 3:
        raise FormatError(f"a fourth ':' section; a .g file has rows (line {seps[0] + 1}), columns "
                          f"(line {seps[1] + 1}) and an end (line {seps[2] + 1}) only (a triangular grid has six)",
                          line=seps[3] + 1)


def _colour_of(codes: dict[str, int]):
    """A block's colour index from its code; no code is colour ``1``."""
    return lambda code: codes.get(code or "1")


def loads(text: str) -> Puzzle:
    """Read one puzzle.

    >>> loads("Tiny\\n: rows\\n1\\n0\\n: columns\\n1\\n: end\\n").meta
    {'title': 'Tiny'}
    """
    lines = split_lines(text)
    seps = [i for i, ln in enumerate(lines) if ln.startswith(":")]
    if len(seps) < 2:
        raise FormatError("expected ':' lines before the rows and before the columns", line=len(lines) or 1)
    _refuse_other_grids(lines, seps)
    decl_start = next((i for i in range(seps[0]) if lines[i].startswith("#")), None)
    decls = _declarations(lines, decl_start, seps[0]) if decl_start is not None else []
    palette, codes = _palette(decls)
    stop = seps[2] if len(seps) > 2 else len(lines)
    sections: list[list[tuple]] = []
    known: dict[str, tuple[int, int]] = {}  # the file's distinct clue items, each parsed once
    for what, (a, b) in (("row", (seps[0], seps[1])), ("column", (seps[1], stop))):
        body = [(i, lines[i]) for i in range(a + 1, b) if lines[i].strip()]
        if len(body) > MAX_SIDE:
            check_count(len(body), MAX_SIDE, f"{what} clue lines", body[MAX_SIDE][0] + 1)
        sections.append([parse_clue_line(t, i + 1, f"{what} {k + 1}", _item, "3 or 3r", _colour_of(codes), False,
                                         known)
                         for k, (i, t) in enumerate(body)])
    preamble = [ln.strip() for ln in lines[: decl_start if decl_start is not None else seps[0]] if ln.strip()]
    meta = {}
    if len(preamble) == 1:
        meta["title"] = preamble[0]
    elif preamble:
        meta["description"] = "\n".join(preamble)
    return build(sections[0], sections[1], palette, meta=meta, line=seps[1] + 1)


def dropped(puzzle: Puzzle) -> list[str]:  # pragma: no cover - read-only format
    return ["nonogen does not write .g files"]
