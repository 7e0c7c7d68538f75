"""The fewest clue changes that make a misread puzzle whole: which numbers were most likely misread, and as what.

A misread number leaves traces: the rows and the columns no longer hold as many cells, a clue no longer fits its
line, or the puzzle has no solution. Every number read from pixels carries its confidence and its other readings
(:attr:`.assign.Item.alternatives`: its least sure digit swapped for the runner-up). The search changes one
number, then two, the least sure first (by confidence, then by how much its glyphs look like their digits); keeps
the change sets after which every clue fits and rows and columns agree (in a colour puzzle: colour by colour, since a
number keeps its colour when it is read otherwise); and asks ``solvable`` (the engine, given by the caller: no engine
here) what each leaves. The sets with the fewest changes that leave a solvable puzzle, unique first, name the
suspects.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations
from typing import Callable, Iterator, Optional, Sequence

from ...clues import min_length
from .assign import Item

__all__ = ["Change", "Fix", "fewest_changes", "MOST_ITEMS", "MOST_CHECKS"]

MOST_ITEMS = 40
"""The least sure numbers whose other readings are tried (with every number of a line whose clue cannot fit)."""
MOST_CHECKS = 80
"""Most change sets handed to ``solvable``: the cheap tests (fits, totals) come first, so few reach it."""
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
"""Each line's numbers as read, each with its colour: ``(value, colour)``, value 0 or -1 included."""
ColourOf = Callable[[Item], int]


def _black(item: Item) -> int:
    return 1


def _clues(lines: Lines, colour_of: ColourOf) -> Clues:
    return [[(i.value, colour_of(i)) for i in items] for items in lines]


def _fits(clue: list[tuple[int, int]], length: int) -> bool:
    return all(n >= 0 for n, _ in clue) and min_length(tuple((n, c) for n, c in clue if n)) <= length


def _numbers(lines: Clues) -> Clues:
    """The clues a puzzle takes: a lone 0 (an empty line) left out."""
    return [[(n, c) for n, c in clue if n] for clue in lines]


def _gaps(rows: Clues, cols: Clues) -> dict[int, int]:
    """How many more cells of each colour the columns hold than the rows (all 0 when the reading agrees)."""
    gaps: dict[int, int] = {}
    for sign, lines in ((-1, rows), (1, cols)):
        for clue in lines:
            for n, c in clue:
                gaps[c] = gaps.get(c, 0) + sign * max(n, 0)
    return gaps


def _candidates(rows: Lines, cols: Lines, colour_of: ColourOf) -> list[Change]:
    """Every other reading of the least sure numbers (and of every number of a line that cannot fit)."""
    width, height = len(cols), len(rows)
    items = []
    for kind, lines, length in (("row", rows, width), ("column", cols, height)):
        for k, line in enumerate(lines):
            broken = not _fits(_clues([line], colour_of)[0], length)
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


def _closes(chosen: tuple[Change, ...], gaps: dict[int, int]) -> bool:
    """Whether the changes close every colour's gap between the rows' cells and the columns'."""
    left = dict(gaps)
    for c in chosen:
        left[c.colour] = left.get(c.colour, 0) - c.delta
    return not any(left.values())


def _sets(changes: list[Change], gaps: dict[int, int], most: int) -> Iterator[tuple[Change, ...]]:
    """Sets of 1..``most`` changes to different numbers whose deltas close the rows' and columns' ``gaps``,
    fewest first, then least sure."""
    for size in range(1, most + 1):
        found = []
        for chosen in combinations(changes, size):
            if not _closes(chosen, gaps):
                continue
            if len({(c.kind, c.line, c.position) for c in chosen}) < size:
                continue
            found.append(chosen)
        yield from sorted(found, key=lambda s: sum(c.sureness for c in s))


def _applied(clues: tuple[Clues, Clues], chosen: tuple[Change, ...]) -> tuple[Clues, Clues]:
    rows, cols = [list(v) for v in clues[0]], [list(v) for v in clues[1]]
    for c in chosen:
        (rows if c.kind == "row" else cols)[c.line][c.position] = (c.now, c.colour)
    return rows, cols


def fewest_changes(rows: Lines, cols: Lines, solvable: Callable[[Clues, Clues], Optional[str]],
                   *, colour_of: ColourOf = _black, most: int = 2, seconds: float = 10.0) -> list[Fix]:
    """The change sets with the fewest changes (at most ``most``) that leave a solvable puzzle, best first.

    ``solvable(rows, cols)`` takes clues (a line's ``(number, colour)``
    pairs, ``[]`` for an empty line) and returns the verdict (``unique``,
    ``multiple``, ``timeout``) or None when there is no solution.
    ``colour_of(item)`` is a number's colour (default: all black). The
    search stops at the first size that finds any, after
    :data:`MOST_CHECKS` calls, or after ``seconds``.
    """
    width, height = len(cols), len(rows)
    clues = (_clues(rows, colour_of), _clues(cols, colour_of))
    changes = _candidates(rows, cols, colour_of)
    end = time.monotonic() + seconds
    checks = 0
    fixes: list[Fix] = []
    size_found = None
    for chosen in _sets(changes, _gaps(*clues), most):
        if size_found is not None and len(chosen) > size_found:
            break
        if checks >= MOST_CHECKS or time.monotonic() > end:
            break
        new_rows, new_cols = _applied(clues, chosen)
        if not (all(_fits(v, width) for v in new_rows) and all(_fits(v, height) for v in new_cols)):
            continue
        checks += 1
        status = solvable(_numbers(new_rows), _numbers(new_cols))
        if status is not None:
            fixes.append(Fix(chosen, status))
            size_found = len(chosen)
    return sorted(fixes, key=lambda f: (FIX_ORDER.get(f.status, 3), sum(c.sureness for c in f.changes)))
