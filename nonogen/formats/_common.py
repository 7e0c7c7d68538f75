"""Helpers every format reader shares: line handling, numbers, size limits, colours on a line.

Readers raise :class:`FormatError` with a line number and no path; the registry
adds the path. Keeping these checks in one place makes every reader reject
malformed input with the same kind of one-line message.
"""
from __future__ import annotations

from itertools import chain
from operator import itemgetter

from ..clues import derive_clues
from ..errors import FileLimitError, FormatError, PuzzleError
from ..grids import Rows, rows_in, split_rows
from ..model import BW_PALETTE, Color, LineClue, Puzzle
from ..palette import parse_hex, rgb_from_name

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Callable, Mapping, Optional, Sequence

MAX_SIDE = 2000
"""Largest width or height nonogen reads: 2000 x 2000 is 4 M cells, already far beyond real puzzles."""

MAX_DIGITS = 9
"""Longest digit string read as a number: every real value fits, and ``int()`` never sees 4300 digits."""

MAX_COLORS = 254
"""Most foreground colours a puzzle may have: goals are stored as bytes, one value kept for "unknown"."""

MAX_FILE_BYTES = 16 * 1024 * 1024
"""Largest puzzle file read: a 2000 x 2000 puzzle with its goal takes about 5 MB in any format."""

MAX_PUZZLES = 10_000
"""Most puzzles one file may hold (tournament files hold 1000); tiny puzzles repeated without end are refused."""

MAX_LINE_CHARS = 100_000
"""Longest clue line read: 2000 blocks of 4-digit numbers with separators take 10,000 characters."""

META_KEYS = ("title", "author", "copyright", "license", "catalogue", "source", "description")
"""The metadata keys nonogen knows; formats map their own fields onto these."""


def cut_members(text: str, kind: Callable[[str], Optional[str]]) -> list[tuple[int, str]]:
    """A bundle's members as ``(lines before the member, member text)``; blank members are left out.

    ``kind(line)`` says ``"separator"`` (a line between members, in none:
    ``====`` in .non bundles), ``"opener"`` (the first line of a member: a
    ``$n`` or ``GRID`` line, or a line that belongs to no member's body) or
    None. Text before the first opener is a member too, so junk there costs
    only itself, and a bad line where a puzzle should start opens a member of
    its own instead of ending the puzzle before it.

    >>> cut_members("a\\n==\\nb\\nc", lambda s: "separator" if s == "==" else None)
    [(0, 'a'), (2, 'b\\nc')]
    >>> cut_members("x\\n$1\\n1\\n$2\\n2", lambda s: "opener" if not s.isdigit() else None)
    [(0, 'x'), (1, '$1\\n1'), (3, '$2\\n2')]
    """
    lines = text.split("\n")
    pieces, start = [], 0
    for i, line in enumerate(lines):
        what = kind(line)
        if what == "separator" or (what == "opener" and i > start):
            pieces.append((start, lines[start:i]))
            start = i + 1 if what == "separator" else i
    pieces.append((start, lines[start:]))
    return [(a, "\n".join(piece)) for a, piece in pieces if "".join(piece).strip()]


def split_lines(text: str) -> list[str]:
    """Lines of ``text`` without their ends (``\\r\\n``, ``\\n``), a leading BOM removed.

    >>> split_lines("\\ufeffa\\r\\nb\\n")
    ['a', 'b']
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters for an error message, quoted with repr."""
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def parse_int(token: str, line: Optional[int], what: str) -> int:
    """A non-negative decimal integer, or a FormatError naming ``what`` was expected.

    >>> parse_int(" 12 ", 3, "the width")
    12
    """
    token = token.strip()
    if not token.isdigit() or not token.isascii():
        raise FormatError(f"expected {what} (a whole number), got {shorten(token)}", line=line)
    check_digits(token, line, what)
    return int(token)


def check_digits(token: str, line: Optional[int], what: str) -> None:
    """Refuse a digit string longer than :data:`MAX_DIGITS` before anything converts it.

    >>> check_digits("9" * 5000, 2, "the width")
    Traceback (most recent call last):
    nonogen.errors.FileLimitError: line 2: the width: a number of 5000 digits is too large (at most 9 digits)
    """
    if len(token) > MAX_DIGITS:
        raise FileLimitError(f"{what}: a number of {len(token)} digits is too large (at most {MAX_DIGITS} digits)",
                             line=line)


def check_side(value: int, what: str, line: Optional[int] = None) -> None:
    """Refuse one side (``the width``, ``the number of rows``) that is 0 or over :data:`MAX_SIDE`.

    Readers call it as soon as the side is read, so the message names that
    side and its line, not a size guessed from a side not read yet.
    """
    if value < 1:
        raise FormatError(f"{what} must be at least 1, got {value}", line=line)
    if value > MAX_SIDE:
        raise FileLimitError(f"{what} is {value}; nonogen reads puzzles up to {MAX_SIDE}x{MAX_SIDE}", line=line)


def check_size(width: int, height: int, line: Optional[int] = None) -> None:
    """Refuse empty grids (FormatError) and grids over :data:`MAX_SIDE` (FileLimitError, with the line)."""
    if width < 1 or height < 1:
        raise FormatError(f"width and height must be at least 1, got {width}x{height}", line=line)
    if width > MAX_SIDE or height > MAX_SIDE:
        raise FileLimitError(f"puzzle is {width}x{height}; nonogen reads puzzles up to {MAX_SIDE}x{MAX_SIDE}",
                             line=line)


def check_count(count: int, limit: int, what: str, line: Optional[int] = None) -> None:
    """Refuse more than ``limit`` of something (lines, colours, puzzles) as soon as the count passes it."""
    if count > limit:
        raise FileLimitError(f"more than {limit:,} {what}; nonogen reads at most {limit:,}", line=line)


def parse_bw_line(text: str, line: Optional[int], what: str, seps: str = "comma") -> LineClue:
    """One black-and-white clue line: numbers split by commas and/or spaces; ``0`` or empty = no blocks.

    >>> parse_bw_line("3, 1 2", 1, "row 1")
    ((3, 1), (1, 1), (2, 1))
    >>> parse_bw_line("0", 1, "row 1")
    ()
    """
    check_line_chars(text, line, what)
    tokens = text.replace(",", " ").split()
    joined = "".join(tokens)
    if not (joined.isdigit() and joined.isascii()):
        if not tokens:
            return ()
        for tok in tokens:
            parse_int(tok, line, f"block lengths for {what}")
    check_blocks(len(tokens), line, what)
    if len(joined) > MAX_DIGITS and max(map(len, tokens)) > MAX_DIGITS:
        for tok in tokens:
            check_digits(tok, line, f"a block length for {what}")
    numbers = list(map(int, tokens))
    if 0 in numbers:
        if numbers == [0]:
            return ()
        raise FormatError(f"{what}: a block length of 0 is only allowed alone (empty line)", line=line)
    return tuple(item(n, 1) for n in numbers)


def parse_clue_line(text: str, line: Optional[int], what: str, match: Callable[[str], Any],
                    example: str, colour: Callable[[str], Optional[object]], commas: bool = True,
                    known: Optional[dict] = None) -> tuple:
    r"""One coloured clue line: items split by blanks (and commas unless ``commas`` is false), each cut by
    ``match``: None for a token that is no item, else (as a regex match) ``[1]`` its digits, ``[2]`` its colour code.

    ``0`` alone, or nothing, is an empty line. ``colour(code)`` turns a code
    into the item's colour, ``None`` for one the file never declared. The
    formats differ only in the item's spelling (``3a``, ``3:R``, ``3r``), so
    the limits and the messages are the same for all of them. ``known`` (token -> item), shared by the
    lines of one file, lets each distinct token be parsed once per file instead of once per line.

    >>> import re
    >>> parse_clue_line("2:R 1:G", 1, "row 1", re.compile(r"(\d+):(\S+)$").match, "2:R", {"R": 1, "G": 2}.get)
    ((2, 1), (1, 2))
    """
    check_line_chars(text, line, what)
    tokens = (text.replace(",", " ") if commas else text).split()  # big files have millions of tokens
    if tokens in ([], ["0"]):
        return ()
    check_blocks(len(tokens), line, what)
    known = {} if known is None else known  # a file repeats few distinct tokens: each is parsed once
    for tok in tokens:
        if tok not in known:
            known[tok] = _clue_item(tok, line, what, match, example, colour)
    return tuple(map(known.__getitem__, tokens))


class Memo(dict):
    """``key -> make(key)``, made on first sight: big files repeat a few dozen distinct blocks millions of times.

    >>> squares = Memo(lambda n: n * n)
    >>> squares[3], len(squares)
    (9, 1)
    """

    def __init__(self, make: Callable):
        super().__init__()
        self.make = make

    def __missing__(self, key):
        self[key] = self.make(key)
        return self[key]


def _clue_item(tok: str, line: Optional[int], what: str, match: Callable[[str], Any],
               example: str, colour: Callable[[str], Optional[object]]) -> tuple[int, Any]:
    m = match(tok)
    if not m:
        raise FormatError(f"{what}: expected blocks like {example}, got {shorten(tok)}", line=line)
    digits, code = m[1], m[2]
    check_digits(digits, line, f"a block length in {what}")
    if int(digits) == 0:
        raise FormatError(f"{what}: a block length of 0 is only allowed alone (empty line)", line=line)
    value = colour(code)
    if value is None:
        raise FormatError(f"{what}: colour {code!r} is not declared", line=line)
    return item(int(digits), value)


def check_line_chars(text: str, line: Optional[int], what: str) -> None:
    """Refuse a clue line longer than :data:`MAX_LINE_CHARS` before splitting it into tokens."""
    if len(text) > MAX_LINE_CHARS:
        raise FileLimitError(f"{what}: the clue line is {len(text):,} characters long "
                             f"(at most {MAX_LINE_CHARS:,})", line=line)


def check_blocks(count: int, line: Optional[int], what: str) -> None:
    """Refuse a clue line of more than :data:`MAX_SIDE` blocks (no line is longer) before building it."""
    if count > MAX_SIDE:
        raise FileLimitError(f"{what} has {count:,} blocks; no line is longer than {MAX_SIDE} cells", line=line)


_ITEMS: dict[tuple[int, Any], tuple[int, Any]] = {}


def item(length: int, color: Any) -> tuple[int, Any]:  # colour: an index, or (.non) its code till the palette
    """The one shared ``(length, colour)`` tuple: big files repeat few distinct blocks, so memory stays small.

    >>> item(3, 1) is item(3, 1)
    True
    """
    key = (length, color)
    return _ITEMS.setdefault(key, key) if len(_ITEMS) < 100_000 else key


def expand_rgb(value: str, line: Optional[int] = None) -> str:
    """:func:`nonogen.palette.parse_hex` for a reader: a FormatError on the reader's line."""
    try:
        return parse_hex(value)
    except ValueError as exc:
        raise FormatError(str(exc), line=line) from None


def color_from_name(name: str, line: Optional[int]) -> str:
    """:func:`nonogen.palette.rgb_from_name` for a reader: a FormatError on the reader's line."""
    try:
        return rgb_from_name(name)
    except ValueError as exc:
        raise FormatError(str(exc), line=line) from None


def build(rows, cols, palette=BW_PALETTE, *, goal=None, givens=(), meta=None, line: Optional[int] = None,
          check_goal: bool = True) -> Puzzle:
    """A :class:`Puzzle`, turning model complaints into FormatErrors for the reader's line.

    A goal that breaks the clues is refused too: one of the two is corrupt,
    and a verifier given both would report nonsense. So is a line with more
    blocks than cells, before any solver sizes its tables by it.
    """
    check_size(len(cols), len(rows), line)
    check_fit(rows, len(cols), "row", line)
    check_fit(cols, len(rows), "column", line)
    longest = max(map(itemgetter(0), chain.from_iterable((*rows, *cols))), default=0)
    if longest > MAX_SIDE:  # it fits no line of any puzzle nonogen reads, and the JSON formats could not hold it
        raise FileLimitError(f"a block of {longest:,} cells; no line is longer than {MAX_SIDE}", line=line)
    try:
        puzzle = Puzzle(tuple(rows), tuple(cols), tuple(palette), goal=goal, givens=tuple(givens), meta=meta or {})
    except PuzzleError as exc:
        raise FormatError(str(exc), line=line) from None
    goal = rows_in(puzzle, "goal")
    if check_goal and goal is not None:
        g_rows, g_cols = derive_clues(goal)
        for what, have, want in (("row", g_rows, puzzle.rows), ("column", g_cols, puzzle.cols)):
            bad = next((i for i, (a, b) in enumerate(zip(have, want, strict=True)) if a != b), None)
            if bad is not None:
                raise FormatError(f"the goal does not match the clues ({what} {bad + 1} differs)", line=line)
    return puzzle


def check_fit(lines: Sequence[Sequence], length: int, what: str, line: Optional[int]) -> None:
    """Refuse a clue line with more blocks than its ``length`` cells can hold (one cell per block at best)."""
    if max(map(len, lines), default=0) <= length:  # the usual case, at C speed; else find the line to name
        return
    for k, clue in enumerate(lines):
        if len(clue) > length:
            raise FormatError(f"{what} {k + 1} has {len(clue)} blocks but only {length} cells", line=line)


def goal_from_chars(chars: str, width: int, height: int, codes: dict[str, int], line: Optional[int]) -> Rows:
    """A ``height x width`` grid from row-major goal characters, each mapped by ``codes``."""
    if len(chars) != width * height:
        raise FormatError(f"goal has {len(chars)} cells, expected {width}x{height} = {width * height}", line=line)
    if chars.isascii() and all(ord(c) < 128 for c in codes):
        table = bytearray(b"\xff" * 256)
        for ch, v in codes.items():
            table[ord(ch)] = v
        cells = chars.encode("ascii").translate(table)
    else:
        cells = bytes(codes.get(c, 255) for c in chars)
    bad = cells.find(255)
    if bad >= 0:
        raise FormatError(f"goal uses {chars[bad]!r}, which is not a colour code", line=line)
    return split_rows(cells, width)


_UNWRITABLE: dict[int, str] = {}  # filled on first use (2,100 entries): most texts are plain ASCII
"""What no written file may hold, and what :func:`clean_text` writes instead: control characters but tab and
newline (a space), lone surrogates and U+FFFE/U+FFFF (U+FFFD).

XML 1.0 forbids them (so .xml and .svg would not be well-formed), UTF-8
cannot encode a lone surrogate, and a form feed or NUL in a ``.non`` title
makes a file nonogen cannot read back."""


MAX_META_CHARS = 2000
"""Longest title, name or other metadata value kept (longer ones are cut, ending in an ellipsis): a
100,000-character title pushed a written file's clues past the part of it content sniffing looks at."""


MAX_NAME_CHARS = 200
"""Longest colour name kept (the JSON Schema's limit): a name is a word or two, not a paragraph."""


def clean_text(text: str, limit: int = MAX_META_CHARS) -> str:
    """``text`` with each control character made a space and each lone surrogate or non-character U+FFFD,
    cut to ``limit`` characters (:data:`MAX_META_CHARS`).

    Readers apply it to every title, name and colour name, so whatever is
    read can be written in every format and read back.

    >>> clean_text("T\\ud800it\\x0cle") == "T\\ufffdit le"
    True
    """
    if len(text) > limit:
        text = text[: limit - 1] + "\u2026"
    if text.isascii() and text.isprintable():
        return text
    if not _UNWRITABLE:
        _UNWRITABLE.update(dict.fromkeys(chain(range(0x09), range(0x0B, 0x20), range(0x7F, 0xA0)), " "))
        _UNWRITABLE.update(dict.fromkeys(chain(range(0xD800, 0xE000), (0xFFFE, 0xFFFF)), "\ufffd"))
    return text.replace("\r\n", "\n").translate(_UNWRITABLE)


def one_line(text: object) -> Optional[str]:
    """``text`` when a one-line field (a ``GRID`` or ``# LABEL`` line, a JSON name its reader strips) reads it
    back unchanged, else None: the writer then leaves it out and ``dropped`` names it.

    Any line break ends such a field, Unicode's own included (U+2028, U+2029, U+0085, ...), and
    readers strip the field: a title "Injected\\nROWS..." written as it is made a second puzzle.

    >>> one_line("Cat"), one_line("a\\nb"), one_line("l\\u2028m"), one_line(" pad"), one_line("")
    ('Cat', None, None, None, None)
    """
    if not isinstance(text, str) or not text or text != text.strip() or len(text.splitlines()) != 1:
        return None
    return text if text.splitlines()[0] == text else None


def clean_puzzle(puzzle):
    """``puzzle`` (2D or 3D) with :func:`clean_text` applied to its metadata and colour names; itself if clean."""
    texts = [*puzzle.meta, *puzzle.meta.values()]
    names = [c.name for c in puzzle.palette]
    if all(clean_text(t) == t for t in texts) and all(clean_text(n, MAX_NAME_CHARS) == n for n in names):
        return puzzle
    meta = {clean_text(k): clean_text(v) for k, v in puzzle.meta.items()}
    palette = tuple(Color(clean_text(c.name, MAX_NAME_CHARS), c.rgb, c.char) for c in puzzle.palette)
    try:
        return puzzle.replace(meta=meta, palette=palette)
    except PuzzleError as exc:  # two colour names that differed only in what was replaced
        raise FormatError(str(exc)) from None


def json_meta(data: dict) -> dict[str, str]:
    """Metadata of a JSON document: known keys at the top level, any others under ``"meta"``.

    >>> json_meta({"title": "Cup", "meta": {"pack": "A"}})
    {'title': 'Cup', 'pack': 'A'}
    """
    meta = {k: data[k] for k in META_KEYS if k in data}
    meta.update(data.get("meta") or {})
    if not all(isinstance(v, str) for v in meta.values()):
        raise FormatError("metadata values must be strings")
    return meta


def put_json_meta(data: dict, meta: Mapping[str, Any]) -> dict:
    """``data`` with ``meta`` laid out as :func:`json_meta` reads it back."""
    data.update({k: v for k, v in meta.items() if k in META_KEYS})
    other = {k: v for k, v in meta.items() if k not in META_KEYS}
    if other:
        data["meta"] = other
    return data


def bw_clue_lines(body: Sequence[tuple[int, str]], width: int, height: int, header_line: int) -> Puzzle:
    """A black-and-white puzzle from ``height`` row then ``width`` column lines of numbers, ``(line no, text)``."""
    if len(body) != height + width:
        last = body[-1][0] if body else header_line
        raise FormatError(f"expected {height} row and {width} column clue lines, found {len(body)}", line=last)
    clues = [parse_bw_line(s, ln, f"{'row' if k < height else 'column'} {k + 1 if k < height else k - height + 1}")
             for k, (ln, s) in enumerate(body)]
    return build(clues[:height], clues[height:], line=body[-1][0])


def counts_only_dropped(puzzle: Puzzle, keeps: Sequence[str] = ()) -> list[str]:
    """Dropped pieces for formats that hold only black-and-white clues (plus ``keeps``)."""
    out = []
    if puzzle.is_color:
        out.append(f"colours ({puzzle.n_colors} colours; this format is black and white only)")
    elif puzzle.palette != BW_PALETTE and "palette" not in keeps:
        out.append("colour names and codes of the palette")
    if puzzle.goal is not None and "goal" not in keeps:
        out.append("goal (solution image)")
    if puzzle.givens:
        out.append(f"{len(puzzle.givens)} given cells")
    kept_meta = [k for k in keeps if k in META_KEYS and one_line(puzzle.meta.get(k)) is not None]
    lost = [k for k in puzzle.meta if k not in kept_meta]
    if lost:
        out.append("metadata " + ", ".join(lost))
    return out


def require_bw(puzzle: Puzzle, fmt: str) -> None:
    """Writers of B&W-only formats refuse colour puzzles instead of silently merging colours."""
    if puzzle.is_color:
        raise PuzzleError(f"{fmt} holds only black-and-white puzzles; this one has {puzzle.n_colors} colours")


def bw_numbers(clue: LineClue) -> list[int]:
    """Block lengths of a one-colour clue line."""
    return [n for n, _ in clue]
