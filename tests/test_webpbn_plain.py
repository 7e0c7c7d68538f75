"""webpbn XML's two ways of reading (formats/webpbn.py) give the same puzzles and the same errors.

A plain document has its clue blocks cut out by string methods and its small
rest parsed into nonogen's own nodes; anything else is read by ElementTree,
and any error is reported from a second reading that keeps line numbers. Whatever way a document takes, the answer
must be the one the line-numbered tree reading gives.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from nonogen import Color, formats, puzzle_from_grid
from nonogen.errors import NonogenError
from nonogen.formats import webpbn
from nonogen.formats._webpbn_plain import _plain_block, count_parts, plain_clues

PALETTE = (Color("white", "#ffffff", "."), Color("red", "#ff0000", "a"), Color("green", "#00ff00", "b"),
           Color("blue", "#0000ff", "c"))

# Each turns a document nonogen wrote into one a person or another program might have written.
MUTATIONS = [
    lambda t: t.replace("<line></line>", "<line/>"),
    lambda t: t.replace("<line>", "<line>\n  ").replace("</count>", "</count>\n"),
    lambda t: t.replace('<clues type="rows">', "<!-- the rows -->\n<clues type=\"rows\">"),
    lambda t: t.replace('color="green"', "color='green'"),
    lambda t: t.replace('color="green"', 'color="teal"'),  # an unknown colour: an error with its line
    lambda t: t.replace("<count>1</count>", "<count>0</count>", 1),
    lambda t: t.replace("<count>1</count>", "<count> 1 </count>", 1),
    lambda t: t.replace("<count>1</count>", "<count>01</count>", 1),
    lambda t: t.replace("<count>1</count>", "<count>1</count><note/>", 1),
    lambda t: t.replace("</clues>", "</clues>\n<clues type=\"rows\"></clues>", 1),
    lambda t: t.replace('<clues type="columns">', '<clues type="columns" note="x">'),
    lambda t: t.replace("<puzzle ", "<puzzle><clues type=\"rows\"/></puzzle><puzzle ", 1),
    lambda t: t.replace("</puzzleset>", t[t.find("<puzzle "):t.index("</puzzleset>")] + "</puzzleset>")
    if "<puzzle " in t else t,  # a second puzzle (not after the prefix mutation below renamed the first)
    lambda t: t.replace("<line>", "<line><count>999999999999</count>", 1),
    lambda t: t.replace("red", "r&amp;d"),
    lambda t: t.replace("</clues>", "", 1),
    lambda t: t.replace('<clues type="rows">', '<wrap><clues type="rows">').replace("</clues>", "</clues></wrap>", 1),
    # the string-method reading of the clue blocks (formats/webpbn.py: _plain_block) must see each of these
    lambda t: t.replace("\n", "\r\n"),
    lambda t: t.replace("</line>", "</line>\t \n  "),
    lambda t: t.replace("green", "dark green"),  # a blank inside a colour name is no blank between tags
    lambda t: t.replace("</count></line>", "</count>x</line>", 1),
    lambda t: t.replace("<line>", "x<line>", 1),
    lambda t: t.replace("</clues>", "x</clues>", 1),
    lambda t: t.replace("<line>", "<line><?pi?>", 1),
    lambda t: t.replace("<count>", '<count note="x">', 1),
    lambda t: t.replace("<count>", "<count >", 1),
    lambda t: t.replace("<count>1", "<count>1 ", 1),
    lambda t: t.replace("<line>", "<line><line>", 1).replace("</line>", "</line></line>", 1),
    lambda t: t.replace("<line></line>", "<line />"),
    lambda t: t.replace("<puzzle ", "<title>Hi!</title><puzzle ", 1),
    lambda t: t.replace("<puzzle ", '<puzzlex/><puzzle ', 1),
    lambda t: t.replace("</puzzleset>", "</puzzleset><puzzleset/>"),
    lambda t: t.replace('<clues type="rows">', '<clues type="columns">', 1),
    lambda t: t.replace('<clues type="rows">', '<clues  type="rows">', 1),
    # the small tree of the rest (formats/_webpbn_plain.py: Node) must read text, tails and children as ElementTree
    lambda t: t.replace("</title>", "<b>bold</b> tail</title>"),
    lambda t: t.replace("<title>", "<title>\n  "),
    lambda t: t.replace("<author>", "<note><author>x</author></note><author>"),
    lambda t: t.replace("|</image>", "|\n</image>").replace("<image>", "<image>\n"),
    lambda t: t.replace('<solution type="goal">', '<solution type="goal"><note/>'),
    lambda t: t.replace('<puzzle ', '<puzzle xmlns="urn:x" ', 1),
    lambda t: t.replace('<puzzle ', '<p:puzzle ', 1).replace("</puzzle>", "</p:puzzle>", 1),
    lambda t: t.replace('type="grid"', 'type="grid" x:y="z"', 1),
]


def reading(text: str):
    """The puzzles a document gives, or the error message it gets."""
    try:
        return formats.loads_all(text, "webpbn")
    except NonogenError as exc:
        return f"error: {exc}"


def tree_reading(text: str):
    """The same document read only by the line-numbered tree (the reference)."""
    try:
        return webpbn._read_tree(webpbn.parse_xml(text), None)
    except NonogenError as exc:
        return f"error: {exc}"


def document(seed: int, size: int) -> str:
    rng = random.Random(seed)
    grid = [[0 if rng.random() < 0.4 else rng.randint(1, 3) for _ in range(size)] for _ in range(size)]
    grid[0] = [0] * size  # an empty line
    puzzle = puzzle_from_grid(grid, PALETTE, title=f"Grid {seed}", author="A. N. Author")
    return formats.dumps(puzzle if seed % 2 else puzzle.replace(goal=None), "webpbn")  # half with their goal


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 12), st.lists(st.integers(0, len(MUTATIONS) - 1), max_size=3))
@example(0, 1, [12, 39])  # two puzzles, the first in a declared namespace: ElementTree named it {urn:x}puzzle
@example(0, 1, [40, 12])  # the first puzzle renamed p:puzzle, then a second wanted after it
def test_plain_and_tree_readings_agree(seed, size, mutations):
    text = document(seed, size)
    for m in mutations:
        text = MUTATIONS[m](text)
    assert reading(text) == tree_reading(text)


def test_a_plain_document_takes_the_regular_expressions():
    """The fast way is really taken for what nonogen writes: it empties the clue blocks it read."""
    plain = plain_clues(document(1, 10))
    assert plain is not None and '<clues type="rows"></clues>' in plain[0]
    assert plain_clues(MUTATIONS[2](document(1, 10))) is None  # a comment: the tree reads it
    for blanks in (lambda t: t.replace("\n", "\r\n"), lambda t: t.replace("</line>", "</line>\t \n  "),
                   lambda t: t.replace("green", "dark green"),
                   lambda t: t.replace("<puzzle ", "<title>!</title><puzzle ")):
        assert plain_clues(blanks(document(1, 10))) is not None  # what the mutations above compare


def test_the_shared_xml_puzzles_read_the_same(shared_data: Path):
    files = sorted((shared_data / "puzzles").rglob("*.xml"))
    if not files:
        pytest.skip("no shared XML puzzles")
    for path in files:
        text = path.read_text()
        assert reading(text) == tree_reading(text), path.name


def test_a_plain_document_is_read_without_elementtree(tmp_path):
    """ElementTree costs 2.5 ms to import: reading a plain document (formats/_webpbn_plain.py) must not load it."""
    import subprocess
    import sys

    path = tmp_path / "p.xml"
    path.write_text(document(2, 8))
    code = (f"import sys; from nonogen import formats; formats.load({str(path)!r}); "
            "print('xml.etree.ElementTree' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


COUNT = re.compile(r'<count(?: color="([^"<>&]*)")?>([1-9][0-9]{0,8})')
"""How a count's spelling was read before string methods read it (the reference)."""
COUNT_PIECES = ["<count", ">", ' color="', '"', "red", "dark red", "<", "&", " ", "\t", "\n", "0", "1", "12",
                "123456789", "x", "</count>", "<line>", "</line>", "<line/>", "\u00a0", "\u0663"]


def _old_plain_block(body: str):
    """The clue block read as before, blanks between tags taken out by a regular expression (the reference)."""
    pieces = re.sub(r">\s+<", "><", body.strip()).replace("<line/>", "<line></line>").split("</line>")
    if pieces.pop():
        return None
    lines = []
    for piece in pieces:
        counts = piece[6:].split("</count>")
        if not piece.startswith("<line>") or counts.pop():
            return None
        lines.append(counts)
    return lines


def _read_counts(lines, read):
    return None if lines is None else [[read(count) for count in line] for line in lines]


SPELLINGS = st.builds("{}{}{}{}".format,
                      st.sampled_from(["<count", '<count color="red"', '<count color=""', '<count color="a&b"',
                                       '<count color="x', "<count  ", "<counter", " <count", ""]),
                      st.sampled_from([">", "", " >", '">']), st.text("0123456789 x\u0663", max_size=11),
                      st.sampled_from(["", " ", "\n", "x"]))
"""Spellings near a count's usual one: each part right or wrong in a way the reading must notice."""


@settings(max_examples=1000, deadline=None)
@given(st.one_of(SPELLINGS, st.lists(st.sampled_from(COUNT_PIECES), max_size=8).map("".join), st.text(max_size=20)))
@example("<count>123456789")
@example('<count color="red">1234567890')
def test_a_count_is_read_as_the_regular_expression_read_it(spelling):
    found = COUNT.fullmatch(spelling)
    assert count_parts(spelling) == (found.groups() if found else None)


BLANKS = st.sampled_from(["", "", " ", "\n", "\t \r\n  ", "\u00a0", "x"])
"""What may stand between two tags: nothing, blanks (Unicode's among them), or text that makes the block not plain."""
SPELLED_COUNTS = st.sampled_from(['<count color="red">3</count>', "<count>12</count>", "<count>0</count>",
                                  '<count color="dark red">1</count>', "<count> 2</count>", "<count>2 </count>"])
LINES = st.lists(st.tuples(BLANKS, st.lists(st.tuples(SPELLED_COUNTS, BLANKS), max_size=3), BLANKS, st.booleans()),
                 max_size=4)


def _block(lines) -> str:
    """A clue block from (blanks, counts with the blanks after each, blanks, an empty line written <line/>)."""
    out = []
    for before, counts, after, short in lines:
        body = "".join(count + blank for count, blank in counts)
        out.append(before + ("<line/>" if short and not body else f"<line>{body}{after}</line>"))
    return "".join(out)


@settings(max_examples=500, deadline=None)
@given(LINES, st.lists(st.sampled_from(COUNT_PIECES), max_size=6).map("".join))
def test_a_clue_block_is_cut_as_the_regular_expression_cut_it(lines, junk):
    """Blanks before a count stay on its spelling (count_parts is given it stripped): the counts read the same."""
    def fullmatch(count):
        found = COUNT.fullmatch(count)
        return found.groups() if found else None

    for body in (_block(lines), _block(lines) + junk, junk + _block(lines)):
        old = _read_counts(_old_plain_block(body), fullmatch)
        assert _read_counts(_plain_block(body), lambda count: count_parts(count.lstrip())) == old
