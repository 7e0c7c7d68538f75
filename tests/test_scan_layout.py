"""Layouts of other publishers' puzzles, read in parts: the paper's colour of a picture cut at its frame, a
magazine's clue cells cut off its lattice (not a stain's), and a photo's lattice carried out to a frame that runs
into a printed shadow."""
from __future__ import annotations

import numpy as np

from nonogen.importers.scan.assign import Item
from nonogen.importers.scan.colour import contrast_gray, paper_colour
from nonogen.importers.scan.edges import extended
from nonogen.importers.scan.lattice import Grid, find_grids, without_clue_cells

PITCH = 20


def _lattice(cells: int, at: int = 30, paper: int = 255, line: int = 120) -> np.ndarray:
    """A page with a square lattice of ``cells`` cells from ``at``: thin lines on paper."""
    side = 2 * at + cells * PITCH
    page = np.full((side, side), paper, np.uint8)
    for k in range(cells + 1):
        page[at + k * PITCH, at:at + cells * PITCH + 1] = line
        page[at:at + cells * PITCH + 1, at + k * PITCH] = line
    return page


def _digit(page: np.ndarray, x: int, y: int) -> None:
    """A mark like a digit in the cell whose top-left corner is (x, y): a dark bar and a cap."""
    page[y + 5:y + 15, x + 9:x + 12] = 0
    page[y + 5:y + 7, x + 7:x + 13] = 0


def test_a_picture_cut_at_its_black_frame_has_the_cells_grey_for_paper():
    """A screenshot cut at the grid's frame: the edge is black, the cells grey everywhere inside. The paper is the
    grey, so the lines and digits are dark on it, and the grid is found (with the edge's black, no grid was)."""
    page = _lattice(8, at=2, paper=204, line=153)
    page[:3], page[-3:], page[:, :3], page[:, -3:] = 0, 0, 0, 0
    assert paper_colour(page[..., None].astype(np.int16))[0] == 204
    contrast = contrast_gray(page, None)
    assert contrast[10, 10] == 255 and contrast[2 + PITCH, 10] < 255 - 40
    (grid,) = find_grids(contrast)
    assert (grid.width, grid.height) == (8, 8)


def test_a_page_with_a_paper_edge_keeps_its_edge_for_paper():
    """A white page with a grey grid on most of it: the edge's white covers enough to stay the paper."""
    page = np.full((100, 100), 255, np.uint8)
    page[15:85, 15:85] = 136
    assert paper_colour(page[..., None].astype(np.int16))[0] == 255


def test_clue_cells_inside_the_lattice_are_cut_off_but_a_stain_is_not():
    """A magazine's clue boxes are cells of the lattice: numbers in the last clue column beside every row and the
    last clue row above every column, and in the one before beside half of them (a clue of one number alone is
    rare). One mark inside the grid is a stain: the grid stays whole."""
    page = _lattice(10)
    grid = Grid(tuple(30.0 + PITCH * k for k in range(11)), tuple(30.0 + PITCH * k for k in range(11)))
    for k in range(2, 10):
        _digit(page, 30 + PITCH, 30 + k * PITCH)
        _digit(page, 30 + k * PITCH, 30 + PITCH)
        if k % 2:
            _digit(page, 30, 30 + k * PITCH)
            _digit(page, 30 + k * PITCH, 30)
    cut = without_clue_cells(page, grid, checked=True)
    assert cut is not None and (cut.width, cut.height) == (8, 8) and cut.xs[0] == grid.xs[2]
    stained = _lattice(10)
    _digit(stained, 30 + 4 * PITCH, 30 + 6 * PITCH)
    assert without_clue_cells(stained, grid, checked=True) == grid


def test_a_given_dot_in_a_sheets_grid_cuts_nothing_off():
    """A sheet prints a given empty cell as a dot a sixth of a cell across. On a clean sheet (no stray marks
    allowed) a dot taken for a number cut every row above it off as clue cells: a 30x30 page read as 30x19."""
    page = _lattice(10)
    grid = Grid(tuple(30.0 + PITCH * k for k in range(11)), tuple(30.0 + PITCH * k for k in range(11)))
    y, x = 30 + 4 * PITCH + 8, 30 + 8 * PITCH + 8
    page[y:y + 4, x:x + 4] = 40
    assert without_clue_cells(page, grid) == grid
    _digit(page, 30 + 8 * PITCH, 30 + PITCH)
    cut = without_clue_cells(page, grid)
    assert cut is not None and cut.height == 8  # a digit is a clue cell: its row and all above it go


def test_marks_low_in_a_photo_grids_corner_cut_off_no_clue_columns():
    """A page curling at the bottom right puts its bent lines in the cells there: marks in a block that would make the
    last rows' left cells look like clue columns; with the whole height checked they are not, and the grid stays
    whole (it was cut to its two last columns)."""
    page = _lattice(10)
    grid = Grid(tuple(30.0 + PITCH * k for k in range(11)), tuple(30.0 + PITCH * k for k in range(11)))
    for r in (6, 8, 9):
        for c in (6, 7, 8, 9):
            _digit(page, 30 + c * PITCH, 30 + r * PITCH)
    assert without_clue_cells(page, grid, checked=True) == grid


def _crossings(cells: int, at: int) -> np.ndarray:
    ys, xs = np.mgrid[0:cells + 1, 0:cells + 1].astype(np.float64)
    return np.stack([at + xs * PITCH, at + ys * PITCH], axis=-1)


def test_a_frame_run_into_a_shadow_gives_the_lattice_its_last_column():
    """The frame's right line merged with a printed shadow: one wide dark band, found as no line. The lattice found
    ends a cell short; the band is dark all along one cell further out, so the column is added (once: the shadow
    past it is dark too, but its middle is no paper)."""
    page = _lattice(10).astype(np.float32)
    page[30:231, 229:260] = 110  # the frame's right line and the shadow beyond it
    found = _crossings(10, 30)[:, :10]  # the last column of crossings lost
    out = extended(page, found)
    assert out.shape == (11, 11, 2)
    assert np.allclose(out[:, -1, 0], 230)


def test_clue_digits_past_the_grid_are_no_line():
    """A nonogen sheet: clue digits one cell outside the grid on every side read no line there."""
    page = _lattice(10, at=60).astype(np.float32)
    for k in range(10):
        _digit(page, 60 - PITCH, 60 + k * PITCH)
        _digit(page, 60 + k * PITCH, 60 - PITCH)
    found = _crossings(10, 60)
    assert extended(page, found).shape == found.shape


def test_digits_far_apart_next_to_numbers_far_wider_apart_are_one_number():
    """The page's own digit gap when numbers are set as text far apart (Pattern at 24 px cells: digits 2 to 4 px
    apart, a "21" 4 px, numbers 16 px apart, glyphs 14 px high): the split between the two groups is past the widest
    a digit gap may be, and is capped there rather than refused (refused, "21" was read as "2 1"); and a word wider
    than a cell whose gaps are all digit gaps is not cut (a bold "21" is 26 px beside cells of 24)."""
    from nonogen.importers.scan.glyphs import DIGIT_GAP, WIDE_DIGIT_GAP, Glyph, digit_gap
    from nonogen.importers.scan.raster import _split_wide

    def line(*xs: tuple[int, int]) -> list[Glyph]:
        return [Glyph(x0, 0, x1, 14, k) for k, (x0, x1) in enumerate(xs)]

    lines = [line((76, 87), (103, 114), (131, 143), (160, 171), (174, 185)),  # 1 2 9 11
             line((104, 115), (131, 143), (159, 170), (174, 185)),  # 1 3 21
             line((104, 115), (117, 128), (145, 157), (173, 185))]  # 12 4 8
    assert 4 / 14 > DIGIT_GAP
    assert digit_gap(lines) == WIDE_DIGIT_GAP
    twenty_one, slot_apart = line((159, 170), (174, 185)), line((0, 6), (13, 19))  # 26 px; 2 numbers 7 px apart
    assert _split_wide(twenty_one, 1.05 * 24, WIDE_DIGIT_GAP * 14) == [twenty_one]  # wider than a cell, one number
    assert len(_split_wide(slot_apart, 1.05 * 18, DIGIT_GAP * 9)) == 2  # joined as one clue slot's, too wide for it


def test_a_zero_beside_other_numbers_is_read_as_its_other_reading_and_a_lone_zero_stays():
    """A zero is a clue only alone in its line: beside other numbers it is the round blob of a blurred "12" whose
    digits touch, and takes its other reading (the blob cut in two), less sure; alone, or with no other reading,
    it stays as read."""
    from nonogen.importers.scan.assign import REREAD_ZERO, Item, clue_items

    grid = Grid(tuple(100.0 + PITCH * k for k in range(4)), tuple(100.0 + PITCH * k for k in range(4)))

    def left(value: int, x: float, row: int, alternatives: tuple[int, ...] = ()) -> Item:
        y = 100.0 + PITCH * row
        return Item(value, 1.0, (x, y + 4, x + 8, y + 16), str(value), alternatives=alternatives)

    items = [left(0, 60, 0, (12, 8)), left(2, 80, 0), left(0, 80, 1, (11,)), left(0, 60, 2), left(3, 80, 2)]
    rows, _ = clue_items(items, grid)
    assert [[i.value for i in row] for row in rows] == [[12, 2], [0], [0, 3]]
    assert rows[0][0].confidence == REREAD_ZERO and rows[0][0].alternatives == (8,)


def test_a_rows_numbers_set_at_a_pitch_of_their_own_stay_apart_in_one_clue_slot():
    """Kolyn090's Picture Cross sets a row's numbers 1.4 digit heights apart, centre to centre, finer than its
    cells: the narrow "1" of "2 1 3 1 2" sits 0.74 heights from the "3" in the same cell-wide slot, and the two were
    read as "13". A number's own digits follow at a digit's width; wide-set digits of a small render still join."""
    from nonogen.importers.scan.glyphs import SLOT_PITCH, Glyph, words_of

    def glyphs(lefts: list[tuple[int, int]]) -> list[Glyph]:
        return [Glyph(x, 0, x + width, 34, k) for k, (x, width) in enumerate(lefts)]

    def slot(x: float) -> int:
        return int((385 - x) // 65)

    row = glyphs([(132, 24), (185, 20), (230, 24), (283, 20), (328, 24)])  # 2 1 3 1 2
    assert [len(w) for w in words_of(row, 34, slot, apart=SLOT_PITCH)] == [1, 1, 1, 1, 1]
    assert [len(w) for w in words_of(row, 34, slot)] == [1, 2, 1, 1]  # without the pitch: "13"
    wide_twelve = glyphs([(262, 18), (297, 22)])  # "1" and "2" 0.5 heights apart, 1.1 apart centre to centre
    assert [len(w) for w in words_of(wide_twelve, 34, slot, apart=SLOT_PITCH)] == [2]


def _column_item(value: int, column: int, line: int, likeness: float = 0.9, x: float | None = None) -> Item:
    """A number in column ``column``'s clue, ``line`` lines above the grid (whose top is y 100, cells PITCH wide)."""
    y = 100.0 - PITCH * (line + 1)
    x0 = 100.0 + PITCH * column + 6 if x is None else x
    return Item(value, 1.0, (x0, y + 4, x0 + 8, y + 16), str(value), likeness=likeness)


def test_a_sure_digit_atop_a_columns_stack_is_a_clue_however_little_it_looks_like_a_digit():
    """nonojure's bitmap "6" atop the first column (likeness 0.78, under a title's bar) stands at the column clues'
    own pitch over a column with clues: it is a clue. A blob of a phone game's picture beside the columns on the
    same line is dropped instead of making the line a heading. Off the stack's pitch, the same "6" is a title; so
    is a line of sure digits each too long for its column (a title's letters read as "61 76")."""
    from nonogen.importers.scan.assign import DIGIT_LIKENESS, clue_items

    grid = Grid(tuple(100.0 + PITCH * k for k in range(4)), tuple(100.0 + PITCH * k for k in range(16)))
    stack = [_column_item(4, 0, 0), _column_item(1, 0, 1), _column_item(2, 1, 0), _column_item(3, 1, 1)]
    six = _column_item(6, 0, 2, likeness=DIGIT_LIKENESS - 0.02)
    _, cols = clue_items([*stack, six], grid)
    assert [i.value for i in cols[0]] == [6, 1, 4]
    picture = _column_item(9, 0, 2, likeness=0.3, x=40.0)  # left of the grid, on the 6's line
    _, cols = clue_items([*stack, six, picture], grid)
    assert [i.value for i in cols[0]] == [6, 1, 4]
    high = _column_item(6, 0, 3, likeness=DIGIT_LIKENESS - 0.02)  # a line skipped: no continuation of the stack
    _, cols = clue_items([*stack, high], grid)
    assert [i.value for i in cols[0]] == [1, 4]
    _, cols = clue_items([*stack, _column_item(61, 0, 2), _column_item(76, 1, 2)], grid)  # longer than 15 cells
    assert [i.value for i in cols[0]] == [1, 4] and [i.value for i in cols[1]] == [3, 2]


def test_a_blob_that_looks_like_no_digit_ends_a_rows_clue():
    """A phone game's picture behind the row clues read as "499" (likeness 0.29) at a row's start: it is no
    number, and the row's clue is what lies between it and the grid."""
    from nonogen.importers.scan.assign import NO_DIGIT, clue_items

    grid = Grid(tuple(100.0 + PITCH * k for k in range(4)), tuple(100.0 + PITCH * k for k in range(4)))

    def left(value: int, x: float, likeness: float = 0.9) -> Item:
        return Item(value, 1.0, (x, 104.0, x + 8, 116.0), str(value), likeness=likeness)

    rows, _ = clue_items([left(499, 40, NO_DIGIT - 0.1), left(2, 60), left(1, 80)], grid)
    assert [i.value for i in rows[0]] == [2, 1]
    rows, _ = clue_items([left(5, 40, NO_DIGIT + 0.1), left(2, 60), left(1, 80)], grid)
    assert [i.value for i in rows[0]] == [5, 2, 1]


def test_thick_lines_beside_small_cells_mark_no_cell_as_a_clue():
    """A program's window with 9-pixel cells, grey lines and a 3-pixel black line every five cells (nonojure's
    nono2): the thick line reaches into the inside of the cells beside it, which looked marked, and the 17x23 grid
    was cut to its last rows as if the rest were clue cells. A digit in a cell still marks it."""
    cells, at, pitch = 10, 20, 10
    side = 2 * at + cells * pitch
    page = np.full((side, side), 255, np.uint8)
    for k in range(cells + 1):
        p = at + k * pitch
        width = 3 if k % 5 == 0 else 1
        page[p - width // 2:p + width - width // 2, at:at + cells * pitch + 1] = 0 if width == 3 else 180
        page[at:at + cells * pitch + 1, p - width // 2:p + width - width // 2] = 0 if width == 3 else 180
    lines = tuple(at + pitch * k + 0.0 for k in range(cells + 1))
    grid = Grid(lines, lines)
    assert without_clue_cells(page, grid) == grid
    page[at + 3:at + 8, at + 4:at + 6] = 0  # a "1" in the top-left cell: a clue cell beside the grid
    page[at + 3:at + 8, at + pitch + 4:at + pitch + 6] = 0
    assert without_clue_cells(page, grid) == Grid(grid.xs, grid.ys[1:])
