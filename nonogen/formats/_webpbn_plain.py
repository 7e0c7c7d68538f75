"""webpbn XML read the fast way: the plain one-puzzle document, as webpbn exports it and nonogen writes it.

A 30x30 colour puzzle has 900 ``<count>`` elements; building them as a tree
took most of its reading. Here string methods cut the two clue blocks out of
the document, each distinct count's spelling is read once, and the small
rest (palette, title, goal) is parsed by expat into :class:`Node` objects,
which answer what the reader asks of ElementTree's elements without loading
ElementTree (2.5 ms of a start). Anything not plain, and any error, goes to
:mod:`nonogen.formats.webpbn`'s tree reading, which names the line.
"""
from __future__ import annotations

from itertools import repeat

from ..errors import FormatError
from ._common import MAX_DIGITS, MAX_SIDE, item

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Iterator, Optional, Union, overload
    from xml.etree.ElementTree import Element

__all__ = ["plain_clues", "plain_lines", "Node", "NodeBuilder"]



def plain_clues(text: str) -> Optional[tuple[str, dict[str, list[list[str]]]]]:
    """A plain one-puzzle document with its two clue blocks emptied, and what they held.

    For each block: each line's ``<count>`` elements as written, without their closing tags. Plain
    means no comments, CDATA, doctype or entity references, and clue blocks of only ``<line>`` and
    ``<count>`` elements with nothing but blanks between the tags (:func:`plain_lines` checks each
    distinct count's spelling). For anything else ``None``: the tree reads it.
    String methods cut the blocks at C speed, where the tree made Python
    objects and lookups for each of a 30x30 puzzle's 900 counts.
    """
    spans, found = [], {}
    for kind in ("rows", "columns"):
        start = text.find(f'<clues type="{kind}">')
        end = text.find("</clues>", start)
        lines = None if start < 0 or end < 0 else _plain_block(text[start + 15 + len(kind) : end])
        if lines is None:
            return None
        found[kind] = lines
        spans.append((start + 15 + len(kind), end))
    spans.sort()
    (a, b), (c, d) = spans
    rest = text[:a] + text[b:c] + text[d:]  # the checks read only this: _plain_block let no "<!", "&" or tag pass
    if ("!" in rest and "<!" in rest) or "&" in rest or rest.count("<clues") != 2 or not _one_puzzle(rest):
        return None  # ("!" first: memchr finds a rare byte at once, where "<!" is slow with "<" everywhere)
    return rest, found


def _one_puzzle(text: str) -> bool:
    """Whether ``text`` has one ``<puzzle>`` element and no other tag whose name starts with "puzzle" but the set's."""
    at = text.find("<puzzle")
    if text.count("<puzzle") != text.count("<puzzleset") + 1:
        return False
    while text.startswith("<puzzleset", at):
        at = text.find("<puzzle", at + 1)
    return text[at + 7 : at + 8] in (" ", "\t", "\n", "\r", "/", ">")


def _plain_block(body: str) -> Optional[list[list[str]]]:
    """The lines of one clue block as lists of ``<count ...>N`` strings, or None when it holds anything else.

    A plain block is ``<line>`` then ``<count ...>N</count>`` pieces then ``</line>``, over and over
    (``<line/>`` for an empty line), with blanks allowed between tags; whatever is cut out between
    the tags must be a count. Blanks before a count stay on its string (:func:`count_parts` reads
    past them, once per distinct spelling): taking them out of the whole block took a regular
    expression, and ``re`` with ``enum`` cost 3 ms of each start.
    """
    pieces = body.strip().replace("<line/>", "<line></line>").split("</line>")
    if pieces.pop():  # something after the last line
        return None
    pieces = list(map(str.lstrip, pieces))
    if not all(map(str.startswith, pieces, repeat("<line>"))):  # a piece that is not a line
        return None
    lines = [piece[6:].split("</count>") for piece in pieces]
    after = "".join([counts.pop() for counts in lines])
    return None if after and not after.isspace() else lines  # text after the counts of some line


def plain_lines(puzzle: Union[Node, Element], plain: dict, kind: str, index: dict[str, int],
                default: str) -> list[tuple]:
    """The clue lines :func:`plain_clues` read, as :func:`~nonogen.formats.webpbn._clues` reads them (a FormatError:
    read the tree).

    A puzzle spells a few dozen distinct counts: each is read once (once per process: :data:`_SPELLINGS`),
    and the rest is a dictionary lookup per count.
    """
    lines = plain[kind]
    if len([c for c in puzzle.findall("clues") if c.get("type") == kind]) != 1 or len(lines) > MAX_SIDE:
        raise FormatError(f'not one <clues type="{kind}"> element of at most {MAX_SIDE} lines')
    if max(map(len, lines), default=0) > MAX_SIDE:
        raise FormatError("too many blocks in a line")
    table: dict[str, tuple[int, int]] = {}
    for count in set().union(*lines):
        found = _SPELLINGS[count] if count in _SPELLINGS else _spelling(count)
        if found is None:
            raise FormatError("a count not written the usual way")
        colour = default if found[0] is None else found[0]
        if colour not in index:
            raise FormatError("an unknown colour")
        table[count] = item(found[1], index[colour])
    return list(map(tuple, map(map, repeat(table.__getitem__), lines)))  # each line's items, at C speed


_SPELLINGS: dict[str, Optional[tuple[Optional[str], int]]] = {}
"""Each count spelling read so far: its colour (None: none named) and length, or None when not the usual way.
Files of one collection share most of theirs; at most 4096 are kept."""


def _spelling(count: str) -> Optional[tuple[Optional[str], int]]:
    parts = count_parts(count.lstrip())
    found = None if parts is None else (parts[0], int(parts[1]))
    if len(_SPELLINGS) < 4096:
        _SPELLINGS[count] = found
    return found


def count_parts(count: str) -> Optional[tuple[Optional[str], str]]:
    """A ``<count>`` element written the usual way, up to its closing tag: its colour (None when it names
    none) and its length's digits; None for any other spelling (the tree reads it).

    >>> count_parts('<count color="red">12'), count_parts("<count>3"), count_parts("<count>03")
    (('red', '12'), (None, '3'), None)
    """
    if count.startswith('<count color="'):
        end = count.find('"', 14)
        colour, rest = count[14:end], count[end + 1 :]
        if end < 0 or "<" in colour or ">" in colour or "&" in colour:
            return None
    elif count.startswith("<count"):
        colour, rest = None, count[6:]
    else:
        return None
    digits = rest[1:]
    if rest[:1] != ">" or not digits.isdigit() or not digits.isascii() or digits[0] == "0" or len(digits) > MAX_DIGITS:
        return None
    return colour, digits


class Node:
    """An element of a small document: its tag, attributes, text before its first child, and children.

    Iterating gives the children; ``get``, ``find``, ``findall`` (children with a tag) and ``iter`` (itself
    and every descendant with a tag, in document order) answer as ElementTree's do.
    """

    __slots__ = ("tag", "attrib", "text", "children")

    def __init__(self, tag: str, attrib: dict) -> None:
        self.tag, self.attrib = tag, attrib
        self.text: Optional[str] = None
        self.children: list[Node] = []

    def __iter__(self) -> Iterator[Node]:
        return iter(self.children)

    if TYPE_CHECKING:  # as ElementTree's get: with a default, a missing attribute reads as it
        @overload
        def get(self, key: str) -> Optional[str]: ...
        @overload
        def get(self, key: str, default: str) -> str: ...

    def get(self, key: str, default: Optional[str] = None) -> Optional[str]:
        return self.attrib.get(key, default)

    def findall(self, tag: str) -> list[Node]:
        return [child for child in self.children if child.tag == tag]

    def find(self, tag: str) -> Optional[Node]:
        return next((child for child in self.children if child.tag == tag), None)

    def iter(self, tag: str) -> Iterator[Node]:
        stack = [self]
        while stack:
            node = stack.pop()
            if node.tag == tag:
                yield node
            stack.extend(reversed(node.children))


class NodeBuilder:
    """What :func:`~nonogen.formats.webpbn.parse_xml` feeds a tree builder, building :class:`Node` objects."""

    def __init__(self) -> None:
        self.open: list[Node] = []
        self.root: Optional[Node] = None

    def start(self, tag: str, attrs: dict) -> None:
        node = Node(tag, attrs)
        if self.open:
            self.open[-1].children.append(node)
        else:
            self.root = node
        self.open.append(node)

    def end(self, tag: str) -> None:
        self.open.pop()

    def data(self, text: str) -> None:
        node = self.open[-1] if self.open else None
        if node is not None and not node.children:  # text after a child is its tail, which the reader never reads
            node.text = text if node.text is None else node.text + text

    def close(self) -> Optional[Node]:
        return self.root
