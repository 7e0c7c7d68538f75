"""The char-grid reader counts squares as people see them (grapheme clusters), not code points.

Each test is a regression of the hostile tester's reproducer (hostile-turn5/chargrid_wrong_puzzles.sh): the
same 5x5 emoji heart, written as phones and old files write it, was verified as another puzzle with exit 0.
"""
from __future__ import annotations

import random

import pytest

from nonogen import formats
from nonogen.cli import main
from nonogen.errors import FileLimitError, FormatError

HEART = ["⬜⬛⬜⬛⬜", "⬛⬛⬛⬛⬛", "⬛⬛⬛⬛⬛", "⬜⬛⬛⬛⬜", "⬜⬜⬛⬜⬜"]
PLAIN = "\n".join(HEART) + "\n"


def grid(text: str):
    return formats.loads(text, "char-grid")


def same_heart(text: str) -> bool:
    """``text`` reads as the plain heart: 5x5, the same clues."""
    puzzle, plain = grid(text), grid(PLAIN)
    return (puzzle.width, puzzle.height) == (5, 5) and puzzle.rows == plain.rows and puzzle.cols == plain.cols


def test_variation_selectors_belong_to_their_square():
    """⬛ + U+FE0F (as phones write it) was two cells: the 5x5 heart read as a unique 10x5 with a phantom colour."""
    text = "\n".join(r.replace("⬛", "⬛\ufe0f").replace("⬜", "⬜\ufe0f") for r in HEART) + "\n"
    assert same_heart(text) and grid(text).palette == grid(PLAIN).palette


def test_a_square_with_and_without_its_selector_is_one_colour():
    """Two cells are one colour when they are the same cluster once VS15/VS16 are dropped: 🟥 and 🟥 + U+FE0F."""
    puzzle = grid("🟥\ufe0f⬜🟥\n⬜🟥🟥\ufe0e\n")
    assert [c.name for c in puzzle.palette] == ["white", "red"] and puzzle.width == 3


def test_zero_width_joiners_between_squares_join_nothing():
    """A ZWJ between the squares of a row made each one cell more (9x5); two squares joined still show as two."""
    assert same_heart("\n".join("\u200d".join(r) for r in HEART) + "\n")


def test_a_zwj_emoji_sequence_is_one_cell():
    """🐈 ZWJ ⬛ (cat, joiner, black square: the black cat emoji) is one picture and one cell, not three."""
    puzzle = grid("🐈\u200d⬛⬜\n⬜🐈\u200d⬛\n")
    assert (puzzle.width, puzzle.height) == (2, 2) and [c.name for c in puzzle.palette] == ["white", "color-🐈\u200d⬛"]


def test_a_skin_tone_belongs_to_its_square_and_is_a_colour_of_its_own():
    """🟫🏽 was two cells (10x5); it is one cell, and not brown: a skin-toned square is not the plain one."""
    assert same_heart("\n".join(r.replace("⬛", "🟫\U0001F3FD") for r in HEART) + "\n")
    puzzle = grid("🟫\U0001F3FD🟫\n🟫🟫\U0001F3FD\n")
    names = [c.name for c in puzzle.palette]
    assert (puzzle.width, names) == (2, ["white", "color-🟫\U0001F3FD", "brown"])
    assert puzzle.palette[1].char not in "🟫#."  # a one-character code that does not read back as brown


def test_flags_keycaps_and_combining_marks_are_one_cell_each():
    """Two regional indicators are one flag, 1 + U+FE0F + U+20E3 one keycap (not black), e + U+0301 one é."""
    puzzle = grid("🇫🇷1\ufe0f\u20e3e\u0301\ne\u0301🇫🇷1\ufe0f\u20e3\n")
    assert (puzzle.width, puzzle.height, puzzle.n_colors) == (3, 2, 3)
    assert "black" not in [c.name for c in puzzle.palette]


def test_invisible_format_characters_draw_nothing():
    """A zero-width space or a stray joiner at a row's end is no cell: it showed as a colour nobody could see."""
    puzzle = grid("⬜⬛\u200b\n⬛⬜\u200d\n\u200b\n")
    assert (puzzle.width, puzzle.height, puzzle.n_colors) == (2, 2, 1)


def test_cr_alone_ends_a_line():
    """Old Mac files end lines with CR alone: the heart was one row of 29 cells."""
    assert same_heart("\r".join(HEART) + "\r")
    assert same_heart("\r\n".join(HEART) + "\r\n")


def test_a_stray_byte_is_one_error_naming_the_file_and_line(tmp_path):
    """A byte that is not UTF-8 made the file Windows-1252, every emoji three cells: a 15x6 puzzle, exit 0."""
    path = tmp_path / "stray-byte.txt"
    path.write_bytes(PLAIN.encode() + b"\xff\n")
    with pytest.raises(FormatError) as caught:
        formats.load(path, "char-grid")
    assert str(caught.value) == f"{path}:6: byte 0xff is not UTF-8; save the file as UTF-8"
    path.write_bytes("⬜⬛\r⬛⬜\r".encode() + b"\x81\r")  # CR line ends count too
    assert main(["verify", "--format", "char-grid", str(path)]) == 2
    with pytest.raises(FormatError, match=r":3: byte 0x81 is not UTF-8"):
        formats.load(path, "char-grid")


def test_a_stray_byte_on_standard_input_is_refused_too():
    """Standard input is decoded as a file is: the same refusal, named ``<stdin>``."""
    text = formats.decode_text(b"..##\n.#\xe9#\n", "<stdin>")
    with pytest.raises(FormatError, match=r"^line 2: byte 0xe9 is not UTF-8"):
        grid(text)
    with pytest.raises(FormatError, match=r"^<stdin>:2: byte 0xe9"):
        formats.grid.grid_from_text(text, "<stdin>")


def test_big_grids_are_sniffed():
    """Sniffing read 20,000 characters and cut the 141st row short: 141x141 squares were "unrecognised"."""
    r = random.Random(2)
    for side in (140, 141):  # 140 was read: the control
        text = "".join("".join(r.choice("⬜⬛") for _ in range(side)) + "\n" for _ in range(side))
        assert formats.sniff(text) == "char-grid"
        assert (grid(text).width, grid(text).height) == (side, side)


def test_a_drawing_as_wide_as_the_reader_allows_is_sniffed():
    """2000 squares a row, each with a skin tone and a selector: three rows of 6,000 code points."""
    row = "⬛\U0001F3FD\ufe0f⬜\ufe0f" * 1000 + "\n"
    assert formats.sniff(row * 3) == "char-grid" and grid(row * 3).width == 2000


def test_limit_errors_name_the_file_not_grid(tmp_path):
    """A grid over the limits said ``<grid>:1:`` in verify, not the file's name; it says how many cells too."""
    path = tmp_path / "wide.txt"
    path.write_text((".#" * 1001 + "\n") * 2)
    with pytest.raises(FileLimitError) as caught:
        formats.load(path)
    assert str(caught.value) == f"{path}:1: more than 2,000 cells in a row; nonogen reads at most 2,000"
