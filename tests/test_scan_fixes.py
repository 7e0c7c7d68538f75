"""The fewest-changes search in a colour puzzle: a misread number keeps its colour, each colour's rows and columns
must agree, and the fix the engine proves names the number and what it should read."""
from __future__ import annotations

from pathlib import Path

import nonogen
from nonogen.importers.scan.assign import Item
from nonogen.importers.scan.suspects import fewest_changes
from nonogen.scanning import _solvable, fixes_of, puzzle_of, suspects

ROOT = Path(__file__).resolve().parents[1]


def _rgb(colour: nonogen.Color) -> tuple[int, int, int]:
    return int(colour.rgb[1:3], 16), int(colour.rgb[3:5], 16), int(colour.rgb[5:7], 16)


def _items(puzzle: nonogen.Puzzle, clues, planted: dict) -> tuple:
    """Clues as read on a colour page (each number with its colour's RGB), but
    ``planted[(line, position)] = (read, sure, others)``."""
    out = []
    for k, clue in enumerate(clues):
        line = []
        for p, (n, c) in enumerate(clue):
            value, sure, others = planted.get((k, p), (n, 1.0, ()))
            line.append(Item(value, sure, (0, 0, 1, 1), str(value), 1.0, colour=_rgb(puzzle.palette[c]),
                             alternatives=others))
        out.append(tuple(line))
    return tuple(out)


class _Found:
    source = "pixels"

    def __init__(self, rows, cols):
        self.rows, self.cols = rows, cols


def _planted(puzzle: nonogen.Puzzle, wrong: int) -> tuple[int, int, int, int]:
    """A row's number to misread (2 or more, not ``wrong``): its line, position, value and colour."""
    for k, clue in enumerate(puzzle.rows):
        for p, (n, c) in enumerate(clue):
            if n >= 2 and n != wrong:
                return k, p, n, c
    raise AssertionError("no number to misread")


def test_a_misread_number_in_a_colour_puzzle_is_fixed_in_its_colour():
    puzzle = nonogen.load(ROOT / "samples" / "puzzles" / "mushroom.cnon")
    assert puzzle.n_colors > 1 and nonogen.verify(puzzle).status == "unique"
    row, position, truth, colour = _planted(puzzle, 8)
    found = _Found(_items(puzzle, puzzle.rows, {(row, position): (8, 0.3, (truth,))}), _items(puzzle, puzzle.cols, {}))
    read, row_conf, col_conf = puzzle_of(found)
    assert read.n_colors == puzzle.n_colors
    status = nonogen.verify(read).status
    fixes = fixes_of(found, read, status)
    assert fixes and fixes[0].status == "unique"
    (change,) = fixes[0].changes
    assert (change.kind, change.line, change.position, change.was, change.now) == ("row", row, position, 8, truth)
    named = suspects(read, row_conf, col_conf, status, tuple(fixes), found)
    assert named[0]["line"] == f"row {row + 1}" and named[0]["read_as"] == truth


def test_the_search_balances_each_colour_apart():
    """A row's number of one colour and a column's of another both read one too many: the totals agree but each
    colour's rows and columns do not. A third number, of the column's colour and least sure of all, could close
    the totals with the column's but not the colours: the engine is never asked about it."""
    puzzle = nonogen.load(ROOT / "samples" / "puzzles" / "mushroom.cnon")
    row, position, truth, colour = _planted(puzzle, 0)
    k, p, n = next((k, p, n) for k, clue in enumerate(puzzle.cols) for p, (n, c) in enumerate(clue)
                   if c != colour and n >= 2)
    other = puzzle.cols[k][p][1]
    r2, p2, n2 = next((r, q, m) for r, clue in enumerate(puzzle.rows) for q, (m, c) in enumerate(clue)
                      if c == other and m >= 2 and r != row)
    rows = _items(puzzle, puzzle.rows, {(row, position): (truth + 1, 0.3, (truth,)), (r2, p2): (n2, 0.1, (n2 - 1,))})
    cols = _items(puzzle, puzzle.cols, {(k, p): (n + 1, 0.3, (n,))})
    rgb = [_rgb(c) for c in puzzle.palette]
    asked = []

    def solvable(r, c):
        asked.append((r, c))
        return _solvable(r, c, palette=puzzle.palette)

    fixes = fewest_changes(rows, cols, solvable, colour_of=lambda item: rgb.index(item.colour))
    assert fixes and fixes[0].status == "unique"
    assert {(c.kind, c.line, c.now) for c in fixes[0].changes} == {("row", row, truth), ("column", k, n)}
    assert all(r[r2][p2] == (n2, other) for r, _ in asked), "a set that leaves a colour unbalanced reached the engine"
