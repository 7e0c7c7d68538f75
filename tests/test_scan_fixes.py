"""The fewest clue changes that make a misread puzzle whole: the engine's choice of one reading a line
(:mod:`nonogen.solve.readings`) checked against every grid of small puzzles, and the scan's suspects found from it:
one misread, two that cancel in the totals, four on four lines, and colour puzzles, where a misread number keeps its
colour."""
from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import numpy as np
import pytest

import nonogen
from nonogen.clues import line_clue, puzzle_from_grid
from nonogen.importers.scan.assign import Item
from nonogen.importers.scan.lattice import Grid
from nonogen.scanning import (DOUBTFUL, ILLEGIBLE, MOST_SUSPECTS, UNSURE, fixes_of, puzzle_of, short_of_the_grid,
                              suspects)
from nonogen.solve.readings import fewest_changed

ROOT = Path(__file__).resolve().parents[1]


def _rgb(colour: nonogen.Color) -> tuple[int, int, int]:
    return int(colour.rgb[1:3], 16), int(colour.rgb[3:5], 16), int(colour.rgb[5:7], 16)


class _Found:
    """What the reader hands scanning: the numbers of each line, read from pixels."""

    source = "pixels"
    dropped: tuple = ()  # nothing dropped from over the columns
    legible = True  # its digits read as surely as a readable photo's

    def __init__(self, puzzle: nonogen.Puzzle, planted: dict):
        """``planted[(kind, line, position)] = (read, sure, others)``; every other number is read sure, alone."""
        self.rows = self._items(puzzle, "row", puzzle.rows, planted)
        self.cols = self._items(puzzle, "column", puzzle.cols, planted)
        self.grid = Grid(tuple(10.0 + 10 * k for k in range(puzzle.width + 1)),
                         tuple(10.0 + 10 * k for k in range(puzzle.height + 1)))  # every clue ends beside it

    @staticmethod
    def _items(puzzle: nonogen.Puzzle, kind: str, clues, planted: dict) -> tuple:
        out = []
        for k, clue in enumerate(clues):
            line = []
            for p, (n, c) in enumerate(clue):
                value, sure, others = planted.get((kind, k, p), (n, 1.0, ()))
                colour = _rgb(puzzle.palette[c]) if puzzle.is_color else None
                line.append(Item(value, sure, (0, 0, 1, 1), str(value), 1.0, colour=colour, alternatives=others))
            out.append(tuple(line))
        return tuple(out)


def _fixes(found: _Found):
    read, row_conf, col_conf = puzzle_of(found)
    status = nonogen.verify(read).status
    fixes = fixes_of(found, read, status)
    return fixes, suspects(read, row_conf, col_conf, status, tuple(fixes), found)


def _random(seed: int, size: int) -> nonogen.Puzzle:
    rng = np.random.default_rng(seed)
    return puzzle_from_grid((rng.random((size, size)) < 0.55).astype(np.uint8))


def _where(clues, value: int, skip=()) -> tuple[int, int]:
    return next((k, [n for n, _ in clue].index(value)) for k, clue in enumerate(clues)
                if k not in skip and any(n == value for n, _ in clue))


def test_a_planted_misread_is_found_and_named_first():
    """Row k's 3 read as 8 (runner-up 3): the puzzle has no solution as read; the one change is found, named first
    among the suspects, with the verdict it gives."""
    puzzle = nonogen.load(ROOT / "samples" / "puzzles" / "heart.non")
    row, position = _where(puzzle.rows, 3)
    fixes, named = _fixes(_Found(puzzle, {("row", row, position): (8, 0.3, (3,))}))
    assert fixes and fixes[0].status == "unique"
    (change,) = fixes[0].changes
    assert (change.kind, change.line, change.position, change.was, change.now) == ("row", row, position, 8, 3)
    assert named[0]["line"] == f"row {row + 1}" and named[0]["read_as"] == 3
    assert "makes the puzzle unique" in named[0]["why"]


def test_two_misreads_that_cancel_in_the_totals_are_found_together():
    """A row's 1 read as 2 and a column's 2 read as 1: rows and columns hold as many cells, but there is no
    solution; the pair is found."""
    puzzle = _random(11, 8)
    row, rpos = _where(puzzle.rows, 1)
    col, cpos = _where(puzzle.cols, 2)
    fixes, _ = _fixes(_Found(puzzle, {("row", row, rpos): (2, 0.2, (1,)), ("column", col, cpos): (1, 0.25, (2,))}))
    assert fixes and {(c.kind, c.line, c.now) for c in fixes[0].changes} == {("row", row, 1), ("column", col, 2)}


def test_four_misreads_on_four_lines_are_found_together():
    """A 30x30 page with two rows' and two columns' 1 read as 7, each with the truth as its runner-up, and thirty
    other numbers unsure with a wrong runner-up: the four changes are the fix, and every misread line is named."""
    puzzle = _random(1, 30)
    assert nonogen.verify(puzzle).status == "unique"
    rows = [_where(puzzle.rows, 1)]
    rows.append(_where(puzzle.rows, 1, skip={rows[0][0]}))
    cols = [_where(puzzle.cols, 1)]
    cols.append(_where(puzzle.cols, 1, skip={cols[0][0]}))
    planted = {("row", k, p): (7, 0.6, (1,)) for k, p in rows} | {("column", k, p): (7, 0.6, (1,)) for k, p in cols}
    rng = np.random.default_rng(3)
    for kind, clues in (("row", puzzle.rows), ("column", puzzle.cols)):
        for k in rng.choice(len(clues), 15, replace=False):
            key = (kind, int(k), 0)
            if key not in planted and clues[k]:
                n = clues[k][0][0]
                planted[key] = (n, 0.5, (n + 1,))
    fixes, named = _fixes(_Found(puzzle, planted))
    assert fixes and fixes[0].status == "unique"
    misread = {("row", k) for k, _ in rows} | {("column", k) for k, _ in cols}
    assert {(c.kind, c.line, c.now) for c in fixes[0].changes} == {(kind, k, 1) for kind, k in misread}
    lines = {s["line"] for s in named}
    assert {f"row {k + 1}" for k, _ in rows} | {f"column {k + 1}" for k, _ in cols} <= lines


def test_a_number_lost_at_the_edge_is_found_by_leaving_its_line_free():
    """A column's first number is not read at all (it touched the picture's edge): no other reading of any number
    can make up for it; leaving that column free can, and the fix names it with the clue the puzzle needs."""
    puzzle = _random(1, 30)
    col = next(k for k, clue in enumerate(puzzle.cols) if len(clue) >= 3 and clue[0][0] >= 4)
    found = _Found(puzzle, {})
    found.cols = found.cols[:col] + (found.cols[col][1:],) + found.cols[col + 1:]
    fixes, named = _fixes(found)
    assert fixes and fixes[0].status == "unique"
    (change,) = fixes[0].changes
    assert (change.kind, change.line, change.position) == ("column", col, -1)
    assert named[0]["line"] == f"column {col + 1}" and named[0]["read_as"] == [n for n, _ in puzzle.cols[col]]
    assert named[0]["why"].startswith("reading its clue as ")


def test_two_numbers_run_together_are_found_by_leaving_their_line_free():
    """A row's "1 3" read as "13" (the digits close together), sure: the free row gets its two numbers back."""
    puzzle = _random(8, 30)
    assert nonogen.verify(puzzle).status == "unique"
    row, position = next((k, p) for k, clue in enumerate(puzzle.rows) for p in range(len(clue) - 1)
                         if clue[p][0] == 1 and clue[p + 1][0] <= 9)
    joined = int(f"{puzzle.rows[row][position][0]}{puzzle.rows[row][position + 1][0]}")
    found = _Found(puzzle, {})
    line = found.rows[row]
    merged = line[:position] + (Item(joined, 0.9, (0, 0, 1, 1), str(joined)),) + line[position + 2:]
    found.rows = found.rows[:row] + (merged,) + found.rows[row + 1:]
    fixes, named = _fixes(found)
    assert fixes and fixes[0].status == "unique"
    assert named[0]["line"] == f"row {row + 1}" and named[0]["read_as"] == [n for n, _ in puzzle.rows[row]]


def test_a_misread_number_in_a_colour_puzzle_is_fixed_in_its_colour():
    puzzle = nonogen.load(ROOT / "samples" / "puzzles" / "mushroom.cnon")
    assert puzzle.is_color and nonogen.verify(puzzle).status == "unique"
    row, position = next((k, p) for k, clue in enumerate(puzzle.rows) for p, (n, _) in enumerate(clue) if n >= 2)
    truth = puzzle.rows[row][position][0]
    fixes, named = _fixes(_Found(puzzle, {("row", row, position): (8, 0.3, (truth,))}))
    assert fixes and fixes[0].status == "unique"
    (change,) = fixes[0].changes
    assert (change.line, change.position, change.now, change.colour) == (row, position, truth,
                                                                         puzzle.rows[row][position][1])
    assert named[0]["line"] == f"row {row + 1}" and named[0]["read_as"] == truth


def _brute_fewest(width: int, height: int, colours: int, rows, cols) -> int:
    """The fewest changes over every grid of the size (each line's clue must be one of its readings), or -1."""
    best = -1
    for cells in itertools.product(range(colours + 1), repeat=width * height):
        grid = np.array(cells).reshape(height, width)
        cost = 0
        lines = [(r, grid[k]) for k, r in enumerate(rows)] + [(c, grid[:, k]) for k, c in enumerate(cols)]
        for readings, line in lines:
            clue = tuple(line_clue(line))
            costs = [c for reading, c in readings if reading is None or tuple(reading) == clue]
            if not costs:
                break
            cost += min(costs)
        else:
            best = cost if best < 0 else min(best, cost)
    return best


def _changes(choice, rows, cols) -> int:
    picked = [(rows, choice.rows), (cols, choice.cols)]
    return sum(lines[k][i][1] for lines, picks in picked for k, i in enumerate(picks))


def _spells(choice, rows, cols) -> bool:
    """Whether the choice's grid spells the clue of every reading chosen."""
    grid = np.array(choice.grid)
    return all(rows[k][i][0] is None or tuple(line_clue(grid[k])) == tuple(rows[k][i][0])
               for k, i in enumerate(choice.rows)) and all(cols[k][i][0] is None or tuple(line_clue(grid[:, k])) ==
                                                          tuple(cols[k][i][0]) for k, i in enumerate(choice.cols))


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("colours", [1, 2])
def test_the_engine_finds_the_fewest_changes_every_grid_allows(seed, colours):
    """Small puzzles whose lines each have a few readings (the truth, a grid's other clues, random ones, some lines
    any clue): what the engine returns changes as few numbers as the best of all (colours + 1) ** cells grids, and
    each choice's grid spells the readings chosen."""
    rng = np.random.default_rng(seed)
    width, height = (4, 3) if colours == 1 else (3, 3)
    grid = rng.integers(0, colours + 1, (height, width))
    other = rng.integers(0, colours + 1, (height, width))
    rows, cols = [], []
    for lines, truth_lines, other_lines in ((rows, grid, other), (cols, grid.T, other.T)):
        for truth, alt in zip(truth_lines, other_lines, strict=True):
            read = tuple(line_clue(rng.permutation(truth) if rng.random() < 0.5 else truth))
            readings = {read: 0, tuple(line_clue(truth)): 1, tuple(line_clue(alt)): 2}
            line = [(clue, 0 if clue == read else cost) for clue, cost in readings.items()]
            lines.append(line + [(None, 2)] if rng.random() < 0.3 else line)
    found = fewest_changed(width, height, rows, cols, colours=colours, most=3)
    best = _brute_fewest(width, height, colours, rows, cols)
    if best <= 0:  # the reading itself has a solution, or nothing does
        assert found == []
        return
    assert found and all(_changes(choice, rows, cols) == best for choice in found)
    assert all(_spells(choice, rows, cols) for choice in found)
    assert len({tuple(choice.rows + choice.cols) for choice in found}) == len(found)


def test_a_clue_ending_short_of_the_grid_is_named_for_its_lost_number():
    """Clues are set against the grid, so a column whose last number stands a digit's height higher than its
    neighbours' has lost the number nearest the grid (a bench photo's column 25 lost its last 1, and the totals
    only told that some number was lost). A bent page's margin drifts smoothly and is not taken for it."""
    puzzle = _random(3, 8)
    found = _Found(puzzle, {})
    x0, y0 = found.grid.xs[0], found.grid.ys[0]

    def laid(lines, kind: str, lost: int) -> tuple:
        out = []
        for k, items in enumerate(lines):
            drift = 0.8 * k  # the redrawn margin drifts across the page
            end = (x0 if kind == "row" else y0) - 3 - drift - (20 if k == lost else 0)
            boxes = [(end - 12 * (len(items) - p), y0 + 10 * k + 2, end - 12 * (len(items) - p - 1), y0 + 10 * k + 18)
                     if kind == "row" else
                     (x0 + 10 * k + 2, end - 16 * (len(items) - p), x0 + 10 * k + 9, end - 16 * (len(items) - p - 1))
                     for p in range(len(items))]
            out.append(tuple(dataclasses.replace(i, box=b) for i, b in zip(items, boxes, strict=True)))
        return tuple(out)

    found.rows = laid(found.rows, "row", -1)
    found.cols = laid(found.cols, "column", 2)
    assert short_of_the_grid(found) == {("column", 2)}
    read, row_conf, col_conf = puzzle_of(found)
    named = suspects(read, row_conf, col_conf, nonogen.verify(read).status, (), found)
    assert named[0]["line"] == "column 3" and "short of the grid" in named[0]["why"]
    found.cols = laid(found.cols, "column", -1)
    assert short_of_the_grid(found) == set()


def test_a_misread_the_fix_search_cannot_fix_names_every_doubtful_line():
    """A page blurred on one side misreads many lines, some read fairly sure (0.6 to 0.8). When the fix search
    finds no fix, every line under DOUBTFUL is named; when the reading is whole, only the lines under UNSURE are,
    however many."""
    puzzle = _random(5, 12)
    rows = [list(clue) for clue in puzzle.rows]
    rows[0][0] = (rows[0][0][0] + 1, rows[0][0][1])  # the rows now hold a cell more than the columns
    misread = nonogen.Puzzle(rows=rows, cols=puzzle.cols)
    assert DOUBTFUL > 0.6 > UNSURE
    row_conf, col_conf = [0.6] * 6 + [1.0] * 6, [0.6] * 6 + [1.0] * 6
    named = suspects(misread, row_conf, col_conf, nonogen.verify(misread).status)
    assert {s["line"] for s in named} >= {f"{kind} {k}" for kind in ("row", "column") for k in range(1, 7)}
    assert len(named) > MOST_SUSPECTS
    named = suspects(puzzle, row_conf, col_conf, nonogen.verify(puzzle).status)
    assert named == []
    named = suspects(puzzle, [0.3] * 12, [0.3] * 12, nonogen.verify(puzzle).status)
    assert len(named) == 24


def test_a_page_read_unsurely_throughout_names_every_line_until_it_is_confirmed():
    """On a photo whose digits read unsurely throughout, a misread can look sure to the page's own measure: every
    line's confidence is kept under UNSURE, the puzzle solvable as read or not, and every line is named, however
    many; a line a person confirmed (confidence 1, as the studio sends it) is no longer named."""
    puzzle = _random(3, 12)
    found = _Found(puzzle, {})
    read, row_conf, col_conf = puzzle_of(found)
    assert suspects(read, row_conf, col_conf, nonogen.verify(read).status, (), found) == []
    found.legible = False
    read, row_conf, col_conf = puzzle_of(found)
    assert max(row_conf + col_conf) < UNSURE
    named = suspects(read, row_conf, col_conf, nonogen.verify(read).status, (), found, legible=False)
    assert len(named) == 24 > MOST_SUSPECTS and all(s["why"] == ILLEGIBLE for s in named)
    row_conf[0] = 1.0
    named = suspects(read, row_conf, col_conf, nonogen.verify(read).status, legible=False)
    assert len(named) == 23 and "row 1" not in {s["line"] for s in named}


def test_a_smudge_dropped_from_over_a_column_names_it_when_the_reading_is_misread():
    """A smudge over a column's clue is dropped as no column's number (read as "63", half over column 3, half over
    column 4); a clue number under it may be lost with it. When the totals show a lost number, both columns are
    named; when the puzzle reads whole, neither is."""
    puzzle = _random(7, 8)
    found = _Found(puzzle, {})
    xs = found.grid.xs
    found.dropped = (Item(63, 0.13, (xs[2] + 4, 0, xs[3] + 6, 8), "63", 0.9),)
    read, row_conf, col_conf = puzzle_of(found)
    named = suspects(read, row_conf, col_conf, nonogen.verify(read).status, (), found)
    assert not any("smudge" in s["why"] for s in named)
    found.cols = tuple(line[1:] if k == 2 else line for k, line in enumerate(found.cols))
    read, row_conf, col_conf = puzzle_of(found)
    named = suspects(read, row_conf, col_conf, nonogen.verify(read).status, (), found)
    assert {s["line"] for s in named if "smudge" in s["why"]} == {"column 3", "column 4"}
    assert named[0]["line"] in ("column 3", "column 4")


def test_a_side_read_without_any_clue_names_every_line():
    """A tiny screenshot whose column digits sit on the grid's top line lost them all (their feet went with the line,
    and the line was taken for a heading): every column is named, and every row too, as nothing checks the rows'
    clues then. A side that reads empty beside another that holds no cells either (a blank page) names nothing."""
    puzzle = _random(5, 10)
    found = _Found(puzzle, {})
    found.cols = tuple(() for _ in found.cols)
    read, row_conf, col_conf = puzzle_of(found)
    named = suspects(read, row_conf, col_conf, nonogen.verify(read).status, (), found)
    assert {s["line"] for s in named} == {f"{kind} {k}" for kind in ("row", "column") for k in range(1, 11)}
    assert all(s["why"].startswith("no column clue was read") for s in named if s["line"].startswith("column"))
    found.rows = tuple(() for _ in found.rows)
    read, row_conf, col_conf = puzzle_of(found)
    assert suspects(read, row_conf, col_conf, nonogen.verify(read).status, (), found) == []


def test_a_reading_with_a_number_longer_than_its_line_is_ruled_out_without_building_it():
    """A photo's junk read as a number of many digits (nonojure's nono10: the lattice's corners where the page curls
    read as "669696999") once made the engine build a pattern of that many cells, and a longer one runs out of
    memory; such a reading is now ruled out at once, and the line's other reading is chosen."""
    huge = ((969_699_996_696, 1), (1, 1))
    rows = [[(huge, 0), (((1, 1),), 1)], [(((1, 1),), 0)]]
    cols = [[(((1, 1),), 0)], [(((1, 1),), 0)]]
    (found,) = fewest_changed(2, 2, rows, cols, most=1)
    assert found.rows == [1, 0] and sorted(map(sum, found.grid)) == [1, 1]


def test_a_side_a_third_of_whose_lines_are_suspect_is_named_whole_on_a_misread_page():
    """Misreadings come together: a shadow along the grid's edge spoils the line of column clues next to it. On a
    misread page whose columns are named for reasons of their own on a third of them, every column is named, a sure
    misread among them too, but not one a person confirmed; under a third, only those; on a page read whole, none."""
    puzzle = _random(7, 12)
    cols = [list(clue) for clue in puzzle.cols]
    cols[11][-1] = (cols[11][-1][0] + 1, cols[11][-1][1])  # read surely wrong: the columns hold a cell more
    misread = nonogen.Puzzle(rows=puzzle.rows, cols=cols)
    status = nonogen.verify(misread).status
    rows_sure = [1.0] * 12
    for unsure, whole in ((4, True), (3, False)):
        col_conf = [0.3] * unsure + [1.0] * (12 - unsure)
        named = {s["line"] for s in suspects(misread, rows_sure, col_conf, status)}
        assert ("column 12" in named) == whole, unsure
        assert {f"column {k}" for k in range(1, unsure + 1)} <= named
    named = {s["line"] for s in suspects(puzzle, rows_sure, [0.3] * 4 + [1.0] * 8, nonogen.verify(puzzle).status)}
    assert named == {f"column {k}" for k in range(1, 5)}
    named = {s["line"] for s in suspects(misread, rows_sure, [0.3] * 4 + [1.0] * 8, status,
                                         confirmed=frozenset({"column 12"}))}  # the studio: a person confirmed it
    assert "column 12" not in named and "column 11" in named
