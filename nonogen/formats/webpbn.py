"""webpbn's puzzle XML (``.xml``, ``.pbn``): ``<puzzleset><puzzle type="grid">`` with colours, clues and goal.

A ``<count>`` without ``color`` has the puzzle's ``defaultcolor`` (default
"black"); empty cells have ``backgroundcolor`` (default "white"). The goal is
``<solution type="goal"><image>|..X|...</image></solution>`` drawn with the
colour chars. Only ``grid`` puzzles are read (triddlers have triangular
cells). A file may hold several puzzles.

Security: documents that declare entities (``<!ENTITY``) are refused before
parsing -- that stops both entity-expansion bombs and external entities
(``file:///etc/passwd``); a plain ``<!DOCTYPE puzzleset SYSTEM "...">`` is
tolerated and never fetched.
"""
from __future__ import annotations

from ..errors import FormatError
from ..model import BW_PALETTE, Color, Puzzle
from ..palette import pick_char
from ._common import (
    MAX_COLORS,
    MAX_DIGITS,
    MAX_PUZZLES,
    MAX_SIDE,
    build,
    check_count,
    expand_rgb,
    goal_from_chars,
    item,
    parse_int,
    shorten,
)
from ._webpbn_plain import NodeBuilder, plain_clues, plain_lines

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import NoReturn, Optional, Sequence, Union
    from xml.etree.ElementTree import Element as _Element

    from ._webpbn_plain import Node

    Element = Union[_Element, Node]  # the reader asks the same of both

NAME = "webpbn"
SUFFIXES = (".xml", ".pbn")
MULTI = True
_LENGTHS = r"(?:[1-9][0-9]{0,%d}(?: |$))*" % (MAX_DIGITS - 1)
"""Block lengths joined by spaces, each one a whole number from 1 with at most MAX_DIGITS digits (a pattern ``re``
compiles on first use: only a document the plain reading leaves to the tree needs it, and only it imports re)."""
_LINE = "#line"  # attribute key no XML name can take: the element's source line
MAX_ELEMENTS = 1_000_000
"""Most XML elements read: a 512x512 puzzle has about 30,000; the tree is refused while it is being built."""
_META = {"source": "source", "id": "catalogue", "title": "title", "author": "author",
         "copyright": "copyright", "license": "license", "description": "description"}


def looks_like(text: str) -> bool:
    """An XML document mentioning ``puzzleset`` or ``puzzle``."""
    head = text[:2000].lstrip("\ufeff \t\r\n")
    return head.startswith("<") and ("<puzzleset" in text[:5000] or "<puzzle" in text[:5000])


def parse_xml(text: str, builder=None, numbered: bool = True) -> Element:
    """The element tree of ``text``, refusing entity declarations; elements carry their line in ``#line``.

    ``builder`` (default ElementTree's TreeBuilder) builds the tree from expat's events. ``numbered=False``
    leaves the lines and the element count out, for a caller that has counted the tags and reports any
    error from a numbered reading (the plain reading: a Python call less for each element).
    """
    at = text.find("<!ENTITY")
    if at >= 0:
        raise FormatError(
            "XML entity declarations are refused (they can expand without bound or read local files)",
            line=text.count("\n", 0, at) + 1,
        )
    import pyexpat as expat  # here: only XML needs it; the C module itself, without the xml packages (0.3 ms)

    if builder is None:
        from xml.etree.ElementTree import TreeBuilder  # here: the plain reading builds its small trees itself

        builder = TreeBuilder()
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def refuse(*_args: object) -> NoReturn:
        raise FormatError("XML entity declarations are refused", line=parser.CurrentLineNumber)

    count = 0

    def start(tag: str, attrs: dict) -> None:
        nonlocal count
        count += 1
        if count > MAX_ELEMENTS:
            check_count(count, MAX_ELEMENTS, "XML elements", parser.CurrentLineNumber)
        attrs[_LINE] = parser.CurrentLineNumber  # a fresh dict from expat: no copy needed
        builder.start(tag, attrs)

    parser.EntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse
    parser.StartElementHandler = start if numbered else builder.start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    parser.buffer_text = True
    try:
        parser.Parse(text.lstrip("\ufeff"), True)
    except expat.ExpatError as exc:
        raise FormatError(f"malformed XML: {expat.ErrorString(exc.code)}", line=exc.lineno) from None
    return builder.close()


def _line(el: Element) -> Optional[int]:
    return el.get(_LINE) or None  # type: ignore[return-value]  # parse_xml's start() put the line there, an int


def _palette(puzzle: Element) -> tuple[tuple[Color, ...], dict[str, int]]:
    declared = puzzle.findall("color")
    if len(declared) > MAX_COLORS + 1:
        check_count(len(declared), MAX_COLORS + 1, "colours", _line(declared[MAX_COLORS + 1]))
    bg_name = puzzle.get("backgroundcolor", "white")
    if not declared:
        return BW_PALETTE, {"black": 1}
    used: set[str] = set()
    entries = []
    for el in declared:
        name = el.get("name")
        if not name:
            raise FormatError("<color> needs a name attribute", line=_line(el))
        char = el.get("char")
        entries.append((name, expand_rgb(el.text or "", _line(el)), char, _line(el)))
        if char:
            used.add(char)
    names = [e[0] for e in entries]
    if bg_name not in names:
        if bg_name != "white":
            raise FormatError(f"background colour {bg_name!r} is not declared", line=_line(puzzle))
        entries.insert(0, ("white", "#ffffff", "." if "." not in used else None, None))
    else:
        entries.insert(0, entries.pop(names.index(bg_name)))
    colors = []
    for name, rgb, char, _where in entries:
        if char is None or len(char) != 1:
            used.discard(char)
            char = pick_char(name, rgb, used)
        colors.append(Color(name, rgb, char))
    return tuple(colors), {c.name: k for k, c in enumerate(colors) if k}


def _clues(puzzle: Element, kind: str, index: dict[str, int], default: str) -> list[tuple]:
    import re  # here: the plain reading (_webpbn_plain.py) needs no re, and re with enum cost 3 ms of each start

    blocks = [c for c in puzzle.findall("clues") if c.get("type") == kind]
    if len(blocks) != 1:
        raise FormatError(f"expected one <clues type=\"{kind}\"> element, found {len(blocks)}", line=_line(puzzle))
    lines = []
    found: Sequence[Element] = blocks[0].findall("line")
    if len(found) > MAX_SIDE:
        check_count(len(found), MAX_SIDE, f"{kind} clue lines", _line(found[MAX_SIDE]))
    for k, line in enumerate(found):
        counts = line.findall("count")
        if len(counts) > MAX_SIDE:
            check_count(len(counts), MAX_SIDE, f"blocks in {kind[:-1]} {k + 1}", _line(line))
        texts = [count.text or "" for count in counts]
        colours = [count.get("color", default) for count in counts]
        if re.fullmatch(_LENGTHS, " ".join(texts)) and index.keys() >= set(colours):  # the usual case, checked at once
            lines.append(tuple(map(item, map(int, texts), map(index.__getitem__, colours))))
        else:  # find the bad count and say why
            lines.append(tuple(_block(count, index, default, f"{kind[:-1]} {{}}", k) for count in counts))
    return lines


def _block(count: Element, index: dict[str, int], default: str, what: str, k: int) -> tuple[int, int]:
    """One ``<count>`` as ``(length, colour)``; the checks that name the line run only on a bad count.

    A 30x30 colour puzzle has about 900 of them, so the common case costs a few lookups.
    """
    text, color = count.text, count.get("color", default)
    if text and text.isdigit() and text.isascii() and len(text) <= MAX_DIGITS and text[0] != "0" and color in index:
        return item(int(text), index[color])
    what = what.format(k + 1)
    n = parse_int(text or "", _line(count), f"a block length in {what}")
    if color not in index:
        raise FormatError(f"{what}: unknown colour {color!r}", line=_line(count))
    if n == 0:
        raise FormatError(f"{what}: block length must be at least 1", line=_line(count))
    return item(n, index[color])


def _image_rows(text: str, width: int, line: Optional[int]) -> list[str]:
    """Goal rows from ``|..X|`` text; rows may share a line or run together."""
    parts = text.split("|")
    rows = []
    for seg in parts[1:-1]:
        if "\n" not in seg and len(seg) == width:
            rows.append(seg)
        elif seg.strip():
            raise FormatError(f"goal image row {shorten(seg)} is not {width} cells wide", line=line)
    return rows


def _goal(puzzle: Element, palette: tuple[Color, ...], width: int, height: int):
    for sol in puzzle.findall("solution"):
        if sol.get("type", "goal") != "goal":
            continue
        image = sol.find("image")
        if image is None:
            raise FormatError("<solution> without <image>", line=_line(sol))
        rows = _image_rows(image.text or "", width, _line(image))
        if len(rows) != height:
            raise FormatError(f"goal image has {len(rows)} rows, expected {height}", line=_line(image))
        codes = {c.char: k for k, c in enumerate(palette)}
        return goal_from_chars("".join(rows), width, height, codes, _line(image))
    return None


def _puzzle(el: Element, plain: Optional[dict] = None) -> Puzzle:
    kind = el.get("type", "grid")
    if kind != "grid":
        raise FormatError(f"puzzle type {kind!r} is not supported (only square-cell 'grid' puzzles)", line=_line(el))
    palette, index = _palette(el)
    default = el.get("defaultcolor", "black")
    if plain is None:
        rows, cols = _clues(el, "rows", index, default), _clues(el, "columns", index, default)
    else:
        rows, cols = (plain_lines(el, plain, kind, index, default) for kind in ("rows", "columns"))
    first: dict = {}  # the first child of each metadata tag, found in one pass (find() is one pass per tag)
    for child in el:
        if child.tag in _META:
            first.setdefault(child.tag, child)
    meta = {key: first[tag].text or "" for tag, key in _META.items() if tag in first}
    goal = _goal(el, palette, len(cols), len(rows))
    return build(rows, cols, palette, goal=goal, meta=meta, line=_line(el))


def members(text: str) -> list[tuple[int, str]]:
    """The ``<puzzle>`` elements of a set as ``(lines before, a one-puzzle set)``, found without parsing the XML.

    A file that declares entities is left whole: a member cut from it would
    lose the declarations it refers to.
    """
    if "<!ENTITY" in text:
        return []
    import re  # here: only a file that could not be read whole is cut into members

    return [(text.count("\n", 0, m.start()), f"<puzzleset>{m.group()}</puzzleset>")
            for m in re.finditer(r"<puzzle\b.*?</puzzle\s*>", text, re.S)]


def loads_all(text: str) -> list[Puzzle]:
    """Every puzzle of a ``<puzzleset>`` (or a lone ``<puzzle>``).

    A plain one-puzzle file has its clue blocks cut out by string methods and
    the small rest parsed into :class:`~nonogen.formats._webpbn_plain.Node`
    objects (:func:`~nonogen.formats._webpbn_plain.plain_clues`); any other
    well-formed file is read by ElementTree's C parser. Neither keeps line
    numbers, so when anything is wrong the file is read again with
    :func:`parse_xml`, and the error names its line.
    """
    entities = "!" in text and "<!ENTITY" in text  # "!" first: memchr finds a rare byte at once
    if not entities and (len(text) <= MAX_ELEMENTS or text.count("<") <= MAX_ELEMENTS):  # else parse_xml refuses it
        plain = plain_clues(text)
        try:
            if plain is not None:
                return _read_tree(parse_xml(plain[0], NodeBuilder(), numbered=False), plain[1])
            if "xmlns" not in text:  # ElementTree would name a tag in a declared namespace "{uri}tag"
                return _read_tree(_quick_tree(text), None)
        except FormatError:
            pass
    return _read_tree(parse_xml(text), None)


def _quick_tree(text: str) -> Element:
    """The element tree of ``text`` without line numbers (the caller has refused entity declarations);
    malformed XML is a FormatError without a line (the caller reads it again for the line)."""
    from xml.etree.ElementTree import ParseError, XMLParser  # here: a plain document never needs ElementTree

    parser = XMLParser()
    try:
        parser.feed(text.lstrip("\ufeff"))
        return parser.close()
    except ParseError:
        raise FormatError("malformed XML") from None


def _read_tree(root: Element, plain: Optional[dict]) -> list[Puzzle]:
    """The puzzles of a tree; ``plain``: the clues :func:`~nonogen.formats._webpbn_plain.plain_clues` read, for its one
    puzzle."""
    puzzles = [root] if root.tag == "puzzle" else root.findall("puzzle")
    if root.tag not in ("puzzle", "puzzleset") or not puzzles:
        raise FormatError(f"expected <puzzleset> with <puzzle> elements, found <{root.tag}>", line=_line(root))
    if len(puzzles) > MAX_PUZZLES:
        check_count(len(puzzles), MAX_PUZZLES, "puzzles in one file", _line(puzzles[MAX_PUZZLES]))
    if plain is not None and (len(puzzles) != 1 or len(list(root.iter("clues"))) != 2):
        raise FormatError("the clue blocks are not where the tree reads them")  # read the whole tree instead
    return [_puzzle(p, plain) for p in puzzles]


def loads(text: str) -> Puzzle:
    """The one puzzle of a document."""
    puzzles = loads_all(text)
    if len(puzzles) != 1:
        raise FormatError(f"holds {len(puzzles)} puzzles; read them with load_all")
    return puzzles[0]


def _puzzle_xml(p: Puzzle) -> list[str]:
    from xml.sax.saxutils import escape, quoteattr  # writing only; it pulls in urllib (35 ms per start)

    bg, default = p.palette[0].name, p.palette[1].name
    out = [f"<puzzle type=\"grid\" defaultcolor={quoteattr(default)} backgroundcolor={quoteattr(bg)}>"]
    out += [f"<{tag}>{escape(p.meta[key])}</{tag}>" for tag, key in _META.items() if key in p.meta]
    out += [f"<color name={quoteattr(c.name)} char={quoteattr(c.char)}>{c.rgb[1:]}</color>" for c in p.palette]
    for kind, lines in (("columns", p.cols), ("rows", p.rows)):
        out.append(f'<clues type="{kind}">')
        for line in lines:
            counts = "".join(
                f"<count>{n}</count>" if c == 1 else f"<count color={quoteattr(p.palette[c].name)}>{n}</count>"
                for n, c in line
            )
            out.append(f"<line>{counts}</line>")
        out.append("</clues>")
    if p.goal is not None:
        out.append('<solution type="goal"><image>')
        out += [f"|{escape(row)}|" for row in p.grid_to_text(p.goal)]
        out.append("</image></solution>")
    out.append("</puzzle>")
    return out


def dumps_all(puzzles: list[Puzzle]) -> str:
    """A ``<puzzleset>`` document."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<puzzleset>"]
    for p in puzzles:
        if any(c.char in "|\n\r" for c in p.palette):
            raise FormatError("webpbn XML goal images cannot use '|' or line breaks as colour chars")
        out += _puzzle_xml(p)
    out.append("</puzzleset>")
    return "\n".join(out) + "\n"


def dumps(puzzle: Puzzle) -> str:
    """A one-puzzle ``<puzzleset>`` document."""
    return dumps_all([puzzle])


def dropped(puzzle: Puzzle) -> list[str]:
    """Givens and metadata other than title/author/copyright/license/description/source/catalogue."""
    out = []
    if puzzle.givens:
        out.append(f"{len(puzzle.givens)} given cells")
    extra = [k for k in puzzle.meta if k not in _META.values()]
    if extra:
        out.append("metadata " + ", ".join(extra))
    return out
