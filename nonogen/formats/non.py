"""Steve Simpson's ``.non`` format, with the pbnsolve ``goal`` and nonogram-db ``color``/``license`` extensions.

A file is ``key value`` lines; ``rows``/``columns`` are followed by exactly
``height``/``width`` clue lines (``0`` or an empty line = no blocks). Colour
puzzles declare ``color a #ff0000`` and write items as ``3a``; a bare number
is the default colour ``1``. Bundles (``.nonpack``) separate puzzles with a
``====`` line. Unknown keys are ignored, as the spec asks.
"""
from __future__ import annotations

import re
from itertools import chain
from operator import itemgetter

from ..errors import FormatError, PuzzleError
from ..model import BW_PALETTE, Color, LineClue, Puzzle
from ..palette import WHITE
from ._common import (
    MAX_COLORS,
    MAX_PUZZLES,
    Memo,
    build,
    check_count,
    check_side,
    cut_members,
    expand_rgb,
    goal_from_chars,
    item,
    parse_clue_line,
    parse_int,
    shorten,
    split_lines,
)

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Optional

NAME = "non"
SUFFIXES = (".non", ".nonpack")
MULTI = True

# .non key -> Puzzle.meta key, in the order the writer emits them.
_META = {"catalogue": "catalogue", "title": "title", "by": "author", "copyright": "copyright",
         "license": "license", "description": "description", "source": "source"}
_ITEM = re.compile(r"(\d+)([A-Za-z]?)$")


def _code(letter: str) -> str:
    """A block's colour code as written (resolved against the palette later); no letter is colour 1."""
    return letter or "1"
_SPDX = re.compile(r"[A-Za-z0-9.+-]+$")
_GOAL_LINE = re.compile(r"[0-9A-Za-z\s]+$")
_DEFAULT_RGBS = ("#000000", "#ff0000", "#00a000", "#0000ff", "#ffa500", "#a020f0", "#00c0c0", "#a52a2a")
_KEYS = set(_META) | {"width", "height", "rows", "columns", "goal", "color"}
_ONCE = ("width", "height", "rows", "columns", "goal")


def looks_like(text: str) -> bool:
    """Whether ``text`` reads like a ``.non`` file (has ``width``/``height`` and ``rows`` keys)."""
    head = text[:20000]
    # [ \t], not \s: \s also matches newlines, and from every line start the search ran across all
    # the blank lines below it (20 KB of blank lines took 2.4 s)
    return bool(re.search(r"^[ \t]*(width|height)[ \t]+\d", head, re.M)
                and re.search(r"^[ \t]*(rows|columns)[ \t\r]*$", head, re.M))


def loads(text: str) -> Puzzle:
    """The one puzzle in ``text`` (a bundle of several is an error: use :func:`loads_all`)."""
    puzzles = loads_all(text)
    if len(puzzles) != 1:
        raise FormatError(f"holds {len(puzzles)} puzzles; read bundles with load_all", line=None)
    return puzzles[0]


def _member_kind(line: str) -> Optional[str]:
    """``====`` separates the puzzles of a bundle; a mangled one (``=====``) opens a member that reports it."""
    s = line.strip()
    return "separator" if s == "====" else "opener" if s.startswith("==") else None


def members(text: str) -> list[tuple[int, str]]:
    """The puzzles of a bundle as ``(lines before, text)``, each to be read on its own."""
    return cut_members(text, _member_kind)


def loads_all(text: str) -> list[Puzzle]:
    """Every puzzle of a file or ``====`` bundle, in order."""
    puzzles: list[Puzzle] = []
    for start, chunk in members(text):
        check_count(len(puzzles) + 1, MAX_PUZZLES, "puzzles in one file", start + 1)
        puzzles.append(_parse(split_lines(chunk), start))
    if not puzzles:
        raise FormatError("no puzzle found (expected width, height, rows and columns)", line=1)
    return puzzles


class _Reader:
    """State of one puzzle being read; methods per key keep each step short."""

    def __init__(self, lines: list[str], offset: int):
        self.lines, self.offset = lines, offset
        self.size: dict[str, int] = {}
        self.clues: dict[str, list[tuple[tuple[int, str], ...]]] = {}
        self.colors: dict[str, str] = {}
        self.meta: dict[str, str] = {}
        self.goal: Optional[tuple[str, int]] = None
        self.seen: dict[str, int] = {}
        self.tokens: dict = {}  # clue tokens parsed so far: "3" or "3a" -> (3, code), each parsed once

    def lineno(self, i: int) -> int:
        return self.offset + i + 1

    def read_block(self, i: int, key: str) -> int:
        dim = "height" if key == "rows" else "width"
        if dim not in self.size:
            raise FormatError(f"'{key}' must come after '{dim}'", line=self.lineno(i))
        need = self.size[dim]
        block = self.lines[i + 1 : i + 1 + need]
        what = "row" if key == "rows" else "column"
        if len(block) < need:
            raise FormatError(
                f"expected {need} {what} clue lines after '{key}', found {len(block)} before the end",
                line=self.lineno(i + len(block)),
            )
        self.clues[key] = [parse_clue_line(t, self.lineno(i + 1 + k), f"{what} {k + 1}", _ITEM.match, "3 or 3a",
                                           _code, known=self.tokens) for k, t in enumerate(block)]
        return i + 1 + need

    def read_goal(self, i: int, rest: str) -> int:
        start = i
        value = rest.strip()
        if value.startswith('"'):
            value = value[1:]
            while '"' not in value and i + 1 < len(self.lines):
                i += 1
                value += self.lines[i].strip()
            value = value.split('"', 1)[0]
        else:
            while i + 1 < len(self.lines) and self._goal_continues(self.lines[i + 1]):
                i += 1
                value += self.lines[i]
        self.goal = ("".join(value.split()), self.lineno(start))
        return i + 1

    def _goal_continues(self, text: str) -> bool:
        s = text.strip()
        return bool(s) and bool(_GOAL_LINE.match(s)) and s.split()[0].lower() not in _KEYS

    def read_color(self, i: int, rest: str) -> None:
        parts = rest.split()
        if len(parts) < 2 or len(parts[0]) != 1:
            raise FormatError(f"expected 'color <letter> #rrggbb', got {shorten(rest)}", line=self.lineno(i))
        self.colors[parts[0]] = expand_rgb(parts[1], self.lineno(i))

    def once(self, key: str, i: int) -> None:
        """Refuse a key given twice: two puzzles run together (a lost ``====``) must not merge into one."""
        if key in self.seen:
            raise FormatError(f"'{key}' given twice (line {self.seen[key]} and here); "
                              "puzzles in one file are separated by a '====' line", line=self.lineno(i))
        self.seen[key] = self.lineno(i)

    def run(self) -> Puzzle:
        i = 0
        while i < len(self.lines):
            s = self.lines[i].strip()
            key, _, rest = s.partition(" ") if " " in s else s.partition("\t")
            key = key.lower()
            if key.startswith("=="):
                raise FormatError(f"expected '====' between two puzzles, got {shorten(s)}", line=self.lineno(i))
            if key in _ONCE:
                self.once(key, i)
            if key in ("width", "height"):
                self.size[key] = parse_int(rest, self.lineno(i), f"the {key}")
                check_side(self.size[key], f"the {key}", self.lineno(i))
            elif key in ("rows", "columns") and not rest.strip():
                i = self.read_block(i, key)
                continue
            elif key == "goal":
                i = self.read_goal(i, rest)
                continue
            elif key == "color":
                self.read_color(i, rest)
            elif key in _META:
                self.meta[_META[key]] = _unquote(rest)
            i += 1
        return self.finish()

    def finish(self) -> Puzzle:
        end = self.lineno(len(self.lines) - 1)
        for key in ("width", "height", "rows", "columns"):
            if key not in self.size and key not in self.clues:
                raise FormatError(f"missing '{key}' (a .non file needs width, height, rows and columns)", line=end)
        palette, code_index = self.palette()
        index = Memo(lambda block: item(block[0], code_index[block[1]]))  # (length, code) -> shared item
        rows = [tuple(map(index.__getitem__, line)) for line in self.clues["rows"]]
        cols = [tuple(map(index.__getitem__, line)) for line in self.clues["columns"]]
        goal = None
        if self.goal is not None:
            chars, line = self.goal
            codes = {"0": 0, **code_index}
            goal = goal_from_chars(chars, self.size["width"], self.size["height"], codes, line)
        return build(rows, cols, palette, goal=goal, meta=self.meta, line=end)

    def palette(self) -> tuple[tuple[Color, ...], dict[str, int]]:
        used = set(map(itemgetter(1), chain.from_iterable((*self.clues["rows"], *self.clues["columns"]))))
        if self.goal is not None:
            used |= set(self.goal[0]) - {"0"}
        if not self.colors and used <= {"1"}:
            return BW_PALETTE, {"1": 1}
        codes = list(self.colors) + sorted(used - set(self.colors))
        check_count(len(codes), MAX_COLORS, "colours", self.goal[1] if self.goal else None)
        spare = iter(rgb for rgb in _DEFAULT_RGBS if rgb not in self.colors.values())
        colors = []
        for code in codes:
            rgb = self.colors.get(code) or next(spare, "#808080")
            name = "black" if code == "1" and rgb == "#000000" else code
            colors.append(Color(name, rgb, "#" if name == "black" else code))
        return (WHITE, *colors), {code: k + 1 for k, code in enumerate(codes)}


def _parse(lines: list[str], offset: int) -> Puzzle:
    try:
        return _Reader(lines, offset).run()
    except PuzzleError as exc:
        raise FormatError(str(exc), line=offset + 1) from None


def _unquote(value: str) -> str:
    """The text of a ``.non`` string value: outer quotes removed, HTML escapes decoded.

    >>> _unquote(' "&copy; 2004 &quot;x&quot;" ')
    '© 2004 "x"'
    """
    v = value.strip()
    if len(v) >= 2 and v[0] == '"' and v[-1] == '"':
        v = v[1:-1]
    if "&" not in v:
        return v
    import html  # here: most files have no escapes, and html loads a table of 2,000 entities

    return html.unescape(v)


def _quote(value: str) -> str:
    import html  # here: only writing needs it, and html loads a table of 2,000 entities

    escaped = html.escape(value, quote=True).replace("\n", "&#10;").replace("\r", "&#13;")
    return f'"{escaped}"'


# --- writing ----------------------------------------------------------------------------------


def _codes(puzzle: Puzzle) -> list[str]:
    """The letter each foreground colour gets in clues and goal (``1`` for plain black and white)."""
    if puzzle.palette == BW_PALETTE:
        return ["", "1"]
    used: set[str] = set()
    codes = [""]
    for color in puzzle.palette[1:]:
        c = color.char if color.char.isascii() and color.char.isalpha() and color.char not in used else None
        if c is None:
            c = next(ch for ch in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" if ch not in used)
        used.add(c)
        codes.append(c)
    return codes


def _clue_text(line: LineClue, codes: list[str], bw: bool) -> str:
    if not line:
        return "0"
    return ",".join(f"{n}" if bw else f"{n}{codes[c]}" for n, c in line)


def dumps(puzzle: Puzzle) -> str:
    """The strict ``.non`` text of one puzzle (``0`` for empty lines, quoted strings, goal on one line)."""
    out = []
    for key, mkey in _META.items():
        if mkey in puzzle.meta:
            value = puzzle.meta[mkey]
            plain = key == "license" and _SPDX.match(value)
            out.append(f"{key} {value if plain else _quote(value)}")
    out += [f"width {puzzle.width}", f"height {puzzle.height}"]
    bw = puzzle.palette == BW_PALETTE
    codes = _codes(puzzle)
    if not bw:
        out += [f"color {codes[k]} {c.rgb}" for k, c in enumerate(puzzle.palette) if k > 0]
    out += ["", "rows"] + [_clue_text(line, codes, bw) for line in puzzle.rows]
    out += ["", "columns"] + [_clue_text(line, codes, bw) for line in puzzle.cols]
    if puzzle.goal is not None:
        chars = ["0"] + codes[1:]
        out += ["", 'goal "' + "".join(chars[v] for v in puzzle.goal.ravel()) + '"']
    return "\n".join(out) + "\n"


def dumps_all(puzzles: list[Puzzle]) -> str:
    """A ``====`` bundle of puzzles."""
    return "====\n".join(dumps(p) for p in puzzles)


def dropped(puzzle: Puzzle) -> list[str]:
    """What ``.non`` cannot hold of ``puzzle``: givens, colour names, a non-white background, other metadata."""
    out = []
    if puzzle.givens:
        out.append(f"{len(puzzle.givens)} given cells")
    if puzzle.palette[0] != WHITE:
        out.append(f"background colour {puzzle.palette[0].name} {puzzle.palette[0].rgb} (becomes white)")
    if puzzle.palette != BW_PALETTE:
        codes = _codes(puzzle)
        fg = list(enumerate(puzzle.palette))[1:]
        names = [c.name for k, c in fg if c.name != codes[k]]
        chars = [f"{c.char}->{codes[k]}" for k, c in fg if c.char != codes[k]]
        if names:
            out.append("colour names " + ", ".join(names) + " (a colour is named by its letter)")
        if chars:
            out.append("colour codes " + ", ".join(chars) + " (codes must be letters)")
    extra = [k for k in puzzle.meta if k not in _META.values()]
    if extra:
        out.append("metadata " + ", ".join(extra))
    return out
