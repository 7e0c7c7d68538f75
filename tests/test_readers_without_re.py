"""The pieces of the readers a colour batch takes cut text with str methods, as the regular expressions they replaced.

Importing ``re`` (with ``enum``) cost 3 ms of a 40 ms batch of 36 colour puzzles, so the Olšák ``.g``
reader, the clue items and :func:`~nonogen.formats._common.clean_text` no longer use it. Each is
compared here with the expression it replaced, on text built to hit its edges (the webpbn XML
pieces: tests/test_webpbn_plain.py).
"""
from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from nonogen.formats import loads
from nonogen.formats._common import clean_text, parse_clue_line
from nonogen.formats.olsak import _declaration, _item

DECLARATION = re.compile(r"\s*(\S):(\S?)\s+(\S+)")
ITEM = re.compile(r"(\d+)(\D?)$")
UNWRITABLE = "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]"
BLANKS = ["", " ", "  ", "\t", "\u00a0", "\u2003", "\n"]
WORDS = st.text(st.sampled_from("r:&#0a1/\\\u0663x"), max_size=4)


def _groups(pattern: re.Pattern, text: str):
    found = pattern.match(text)
    return found.groups() if found else None


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.one_of(WORDS, st.sampled_from(BLANKS)), max_size=7).map("".join))
@example("  r:& red  # a comment")
@example("0: white")
@example("::: x")
def test_a_colour_declaration_is_cut_as_the_regular_expression_cut_it(line):
    assert _declaration(line) == _groups(DECLARATION, line)


@settings(max_examples=1000, deadline=None)
@given(st.text(st.sampled_from("0123456789ra:\u0663\u00b2"), min_size=1, max_size=5))
@example("\u00b23")  # a superscript two is a digit to str.isdigit, not to \d
def test_a_g_clue_item_is_cut_as_the_regular_expression_cut_it(token):
    mine = _item(token)
    assert (mine[1:] if mine else None) == _groups(ITEM, token)


@settings(max_examples=1000, deadline=None)
@given(st.text(max_size=12), st.sampled_from(["", "\r\n", "\x0c", "\ud800", "\uffff", "\x85"]))
def test_clean_text_replaces_what_the_regular_expression_replaced(text, odd):
    text = odd + text + odd
    expected = re.sub(UNWRITABLE, lambda m: " " if m.group() < "\ud800" else "\ufffd", text.replace("\r\n", "\n"))
    assert clean_text(text) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["3", "12r", ",", "0", "\u00a0", " ", "\t"]), max_size=8).map("".join))
def test_blanks_alone_split_a_g_line(text):
    """``commas=False`` splits where the ``\\s+`` expression the .g reader passed split."""
    expected = [t for t in re.split(r"\s+", text.strip()) if t]
    seen = []
    parse_clue_line(text, 1, "row 1", lambda tok: seen.append(tok) or (tok, "1", ""), "3", {"": 1}.get, False)
    assert seen == [t for t in dict.fromkeys(expected) if expected not in ([], ["0"])]


def test_a_g_file_reads_its_declarations_and_items():
    """The whole reader on the spellings above: codes, a bare number, a missing output character, a comment."""
    text = "Hat\n#d\n  r:& red\n  b: blue  the sky\n: rows\n1r 1b\n2r\n: columns\n2r\n1b 1r\n: end\n"
    puzzle = loads(text, "g")
    assert [(c.name, c.char) for c in puzzle.palette][1:] == [("red", "&"), ("blue", "b")]
    assert puzzle.rows == (((1, 1), (1, 2)), ((2, 1),))
    assert puzzle.cols[0] == ((2, 1),)
    assert puzzle.meta == {"title": "Hat"}


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["title", "author", "x\x0c"]),
                       st.one_of(st.text(max_size=8), st.sampled_from(["T" * 2000, "T" * 2001, "caf\u00e9", "a\nb"])),
                       max_size=3),
       st.sampled_from(["red", "r\u00e9d", "r" * 200, "r" * 201, "r\x07d"]))
def test_a_clean_puzzle_is_kept_as_it_is(meta, name):
    """clean_puzzle keeps exactly the puzzles whose every text clean_text keeps, now that clean_text translates."""
    from nonogen.formats._common import MAX_NAME_CHARS, clean_puzzle
    from nonogen.model import Color, Puzzle

    puzzle = Puzzle((((1, 1),),), (((1, 1),),), (Color("white", "#ffffff", "."), Color(name, "#ff0000", "a")),
                    meta=meta)
    clean = all(clean_text(t) == t for t in [*meta, *meta.values()]) and clean_text(name, MAX_NAME_CHARS) == name
    assert (clean_puzzle(puzzle) is puzzle) == clean
