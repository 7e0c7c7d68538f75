"""The fewest clue changes that make a misread puzzle whole: which numbers were most likely misread, and as what.

A misread number leaves traces: the rows and the columns no longer hold as many cells, a clue no longer fits its
line, or the puzzle has no solution. Every number read from pixels carries its confidence and its other readings
(:attr:`.assign.Item.alternatives`: its least sure digit swapped for the runner-up). Each line of the least sure
numbers gets its other readings (one or two of its numbers read otherwise, each keeping its colour); ``choose``
(the engine, given by the caller: :func:`nonogen.solve.readings.fewest_changed`) finds the choices of one reading a
line that give the puzzle a solution with the fewest numbers changed, however many lines they are on; ``solvable``
says what each choice leaves (unique or not). The choices, unique first, then least sure, name the suspects.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations
from typing import Callable, Optional, Protocol, Sequence

from ...clues import min_length
from .assign import Item

__all__ = ["Change", "Fix", "fewest_changes", "MOST_ITEMS", "MOST_READINGS"]

MOST_ITEMS = 40
"""The least sure numbers whose other readings are tried (with every number of a line whose clue cannot fit)."""
MOST_READINGS = 24
"""Readings of one line at most (its clue as read, then one number changed, then two, least sure first)."""
FREE = 2
"""What leaving a line's clue free costs, in numbers read otherwise: a number lost at the page's edge, two numbers
run together ("1 3" read as "13") or a number read wrong with no right runner-up cannot be fixed by a number's
other readings, and a free line finds them; any fix by one number is preferred."""
FIX_ORDER = {"unique": 0, "multiple": 1, "timeout": 2}


@dataclass(frozen=True)
class Change:
    """One number read otherwise: the ``position``-th number of a row's or column's clue, ``was`` read, ``now``."""

    kind: str  # "row" or "column"
    line: int
    position: int
    was: int
    now: int
    confidence: float
    sureness: float = 1.0  # the order of the search: confidence plus likeness (see _sureness)
    colour: int = 1  # the number's colour (an index into the puzzle's palette), which a change keeps
    clue: Optional[tuple[int, ...]] = None  # a line left free (position -1): the numbers its line has in the fix

    @property
    def delta(self) -> int:
        """How many more cells the change puts in the rows (a column's change: fewer)."""
        return (self.now - self.was) if self.kind == "row" else (self.was - self.now)


@dataclass(frozen=True)
class Fix:
    """A set of changes after which the puzzle is solvable, and the verdict then (``unique``, ``multiple``...)."""

    changes: tuple[Change, ...]
    status: str


Lines = Sequence[Sequence[Item]]
Clues = list[list[tuple[int, int]]]
"""Each line's numbers with their colours: ``(value, colour)``."""
ColourOf = Callable[[Item], int]


def _black(item: Item) -> int:
    return 1


def _fits(clue: list[tuple[int, int]], length: int) -> bool:
    return all(n >= 0 for n, _ in clue) and min_length(tuple((n, c) for n, c in clue if n)) <= length


def _candidates(rows: Lines, cols: Lines, colour_of: ColourOf) -> list[Change]:
    """Every other reading of the least sure numbers (and of every number of a line that cannot fit)."""
    width, height = len(cols), len(rows)
    items = []
    for kind, lines, length in (("row", rows, width), ("column", cols, height)):
        for k, line in enumerate(lines):
            broken = not _fits([(i.value, colour_of(i)) for i in line], length)
            for p, item in enumerate(line):
                if item.alternatives:
                    items.append((0.0 if broken else _sureness(item), kind, k, p, item, broken))
    items.sort(key=lambda t: t[0])
    out = []
    for rank, (_, kind, k, p, item, broken) in enumerate(items):
        if rank >= MOST_ITEMS and not broken:
            continue
        for now in dict.fromkeys(item.alternatives):
            if now != item.value and now > 0:
                out.append(Change(kind, k, p, item.value, now, item.confidence, _sureness(item), colour_of(item)))
    return out


def _sureness(item: Item) -> float:
    """How sure a reading is, to order the search: its confidence, and among the sure ones (a confidence of 1 is
    capped) how much the glyphs look like their digits: a blurred 5 read as a 6 with a clear lead still looks
    less like a 6 than most 6s do."""
    return item.confidence + item.likeness


Reading = tuple[Optional[tuple[tuple[int, int], ...]], int]
"""A clue a line may read (None: any clue), and how many of its numbers that reading changes."""


class Choice(Protocol):
    """The engine's choice: the reading chosen for each row and each column, and a grid they allow (colours)."""

    rows: list[int]
    cols: list[int]
    grid: list[list[int]]


Choose = Callable[[int, int, list[list[Reading]], list[list[Reading]], Optional[float]], Sequence[Choice]]


Made = list[tuple[Change, ...]]
"""The changes each of a line's readings makes (a free line's are made from the engine's grid: none here)."""


def _readings(line: Sequence[Item], changes: list[Change], colour_of: ColourOf) -> tuple[list[Reading], Made]:
    """A line's readings (its clue as read first, when it is well formed) and the changes each makes: the clue with
    one of ``changes``, or two at different numbers, at most :data:`MOST_READINGS` in all, least sure first."""
    read = [(i.value, colour_of(i)) for i in line]
    sets: list[tuple[Change, ...]] = [()] + [(c,) for c in changes]
    sets += [pair for pair in combinations(changes, 2) if pair[0].position != pair[1].position]
    readings: list[Reading] = []
    made: Made = []
    for chosen in sorted(sets, key=lambda cs: (len(cs), sum(c.sureness for c in cs)))[:MOST_READINGS]:
        clue = list(read)
        for c in chosen:
            clue[c.position] = (c.now, c.colour)
        if all(n >= 0 for n, _ in clue):
            readings.append((tuple((n, c) for n, c in clue if n), len(chosen)))
            made.append(chosen)
    readings.append((None, FREE))
    made.append(())
    return readings, made


def _freed(kind: str, k: int, line: Sequence[Item], cells: list[int]) -> tuple[Change, tuple[tuple[int, int], ...]]:
    """The change of a line left free, with the clue its ``cells`` spell in the fix."""
    from ...clues import line_clue

    clue = tuple(line_clue(cells))
    sureness = min((_sureness(i) for i in line), default=0.0)
    confidence = min((i.confidence for i in line), default=0.0)
    return Change(kind, k, -1, 0, 0, confidence, sureness, clue=tuple(n for n, _ in clue)), clue


def _all_readings(rows: Lines, cols: Lines, colour_of: ColourOf) -> tuple[dict[str, list[list[Reading]]],
                                                                          dict[str, list[Made]]]:
    """Every line's readings, and the changes each makes, by kind ("row", "column")."""
    by_line: dict[tuple[str, int], list[Change]] = {}
    for change in _candidates(rows, cols, colour_of):
        by_line.setdefault((change.kind, change.line), []).append(change)
    lines: dict[str, list[list[Reading]]] = {"row": [], "column": []}
    made: dict[str, list[Made]] = {"row": [], "column": []}
    for kind, items in (("row", rows), ("column", cols)):
        for k, line in enumerate(items):
            readings, changes = _readings(line, by_line.get((kind, k), []), colour_of)
            lines[kind].append(readings)
            made[kind].append(changes)
    return lines, made


def _fix_of(found: Choice, lines: dict[str, list[list[Reading]]], made: dict[str, list[Made]],
            items: dict[str, Lines]) -> tuple[list[Change], dict[str, Clues]]:
    """The changes of the engine's choice, and the clues of every line after them (a free line's from the grid)."""
    changes: list[Change] = []
    clues: dict[str, Clues] = {"row": [], "column": []}
    for kind, choice in (("row", found.rows), ("column", found.cols)):
        for k, i in enumerate(choice):
            clue = lines[kind][k][i][0]
            if clue is None:
                cells = found.grid[k] if kind == "row" else [r[k] for r in found.grid]
                change, clue = _freed(kind, k, items[kind][k], cells)
                changes.append(change)
            else:
                changes += made[kind][k][i]
            clues[kind].append(list(clue))
    return changes, clues


def fewest_changes(rows: Lines, cols: Lines, choose: Choose, solvable: Callable[[Clues, Clues], Optional[str]],
                   *, colour_of: ColourOf = _black, seconds: float = 10.0) -> list[Fix]:
    """The change sets with the fewest changes that leave a solvable puzzle, best first.

    ``choose(width, height, row_readings, col_readings, seconds)`` is the
    engine's choice of one reading a line (see the module's note);
    ``solvable(rows, cols)`` takes clues (a line's ``(number, colour)``
    pairs) and returns the verdict (``unique``, ``multiple``, ``timeout``)
    or None when there is no solution. ``colour_of(item)`` is a number's
    colour (default: all black).
    """
    start = time.monotonic()
    lines, made = _all_readings(rows, cols, colour_of)
    fixes = []
    for found in choose(len(cols), len(rows), lines["row"], lines["column"], seconds):
        if time.monotonic() - start >= 2 * seconds:
            break
        changes, clues = _fix_of(found, lines, made, {"row": rows, "column": cols})
        status = solvable(clues["row"], clues["column"])
        if status is not None:
            fixes.append(Fix(tuple(changes), status))
    return sorted(fixes, key=lambda f: (FIX_ORDER.get(f.status, 3), sum(c.sureness for c in f.changes)))
