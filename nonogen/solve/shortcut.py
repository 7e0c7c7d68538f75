"""A cheap road to ``multiple`` for black-and-white puzzles that line logic leaves wide open.

On a random 30x30 grid (each cell black with probability 1/2) line logic
decides only a sixth of the cells, and nearly every such puzzle has several
solutions. The full road there, probing every open cell and then SAT, spends
two thirds of its time probing. This one guesses a solution instead (a
depth-first search in C line logic, cells and colours in the order of belief
propagation's confidence) and looks for a second one next to it: blocks that
move by one cell along a closed cycle of rows and columns (the smallest is a
2x2 ``[[1, 0], [0, 1]]`` turned into ``[[0, 1], [1, 0]]``). A grid found so is
checked against every clue, so it proves ``multiple`` without any SAT call;
when nothing is found the caller goes the full road, with the guessed
solution in hand as its first.
"""
from __future__ import annotations

import time
from array import array

from ..clues import satisfies
from ..grids import Rows, split_rows
from ..model import Puzzle
from .deadline import Deadline, Timeout
from . import several
from .propagate import Contradiction, Grid
from .result import VerifyResult

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Optional

__all__ = ["early_multiple", "wide_open", "guess_two", "swap_neighbour"]

WIDE_OPEN = 0.5  # share of open cells after line logic from which a puzzle is guessed at first
BLACK_SHARE = 0.45  # share of black cells from which guessing pays: on sparser TAAI puzzles it mostly dead-ends
GUESS_ROUNDS = (20, 40)  # belief-propagation rounds before each try (fewer guess wrong more often)
GUESS_FAILURES = 30  # dead ends the search may meet before it gives the puzzle back to probing and SAT
FLIPS = 6  # least sure cells flipped, one at a time, when no cycle of block moves finds a second solution
CYCLE_ROWS = 3  # rows in the longest cycle of block moves tried (2: the 2x2 swap alone)


def early_multiple(puzzle: Puzzle, grid: Grid, state, reference: Optional[Rows], deadline: Deadline,
                   stats: dict) -> tuple[Optional[VerifyResult], Optional[Rows]]:
    """Before probing: ``multiple`` from the black-and-white guess (:func:`guess_two`) or the colour search
    (:mod:`.several`), else ``None``; and the reference the full road goes on with (the guessed solution when no
    second one turned up). ``state`` is the session's state after line logic."""
    if reference is None and wide_open(puzzle, grid, state.open_after_line):
        reference, second = guess_two(puzzle, grid, state.masks, deadline, stats)
        if second is not None:
            return VerifyResult("multiple", solution=reference, second_solution=second, difficulty="search",
                                stats=stats), reference
    if several.worth_trying(puzzle, grid, state.open_after_line):
        try:
            return several.multiple_early(puzzle, grid, state.masks, reference, deadline, stats), reference
        except Timeout:
            return VerifyResult("timeout", message="gave up during search", stats=stats), reference
    return None, reference


def wide_open(puzzle: Puzzle, grid: Grid, open_cells: int) -> bool:
    """Whether a black-and-white puzzle is worth guessing at first: about half black, and half open after line logic
    (``open_cells``: the session counted them when line logic finished).

    On the TAAI 2011 set the guess found two solutions for nearly every puzzle
    with at least 45 % black cells, and dead-ended on most sparser ones, where
    it only added its cost (a fifth more time) to the full road.
    """
    if not grid.native or len(puzzle.palette) != 2:
        return False
    cells = puzzle.height * puzzle.width
    black = sum(length for clue in puzzle.rows for length, _ in clue)
    return black >= BLACK_SHARE * cells and open_cells >= WIDE_OPEN * cells


def guess_two(puzzle: Puzzle, grid: Grid, masks, deadline: Deadline, stats: dict) -> tuple[Optional[Rows], Optional[Rows]]:
    """A guessed solution (or None), and another one near it (or None).

    The guess decides the cells belief propagation is surest of first, each
    to its likeliest colour. The second is a cycle of block moves away
    (:func:`swap_neighbour`), else a guess with one of the least sure cells
    flipped. Both are checked against every clue. Without a second one, the
    guess can stand in for SAT's first solution: the search then only has to
    block it. ``stats`` gets what happened (``guess``: none, one or two) and
    how long it took.
    """
    start = time.monotonic()
    first = second = None
    messages = array("d", bytes(32 * len(masks)))
    try:
        for more in _more_rounds():
            likeliest, order = _belief_order(grid, masks, messages, more, deadline)
            first = _search(grid, masks[:], order, likeliest, deadline)
            if first is not None:
                second = swap_neighbour(first) or _flipped(grid, masks, order, likeliest, first, deadline)
                break
    except Timeout:
        pass  # the full road meets the deadline too, and says so
    for grid_found in (first, second):
        if grid_found is not None and not satisfies(puzzle, grid_found):  # pragma: no cover - would be a bug
            raise AssertionError("the guess produced a grid that breaks the clues")
    stats["guess"] = "none" if first is None else "two" if second else "one"
    stats["guess_seconds"] = round(time.monotonic() - start, 4)
    return first, second


def _flipped(grid: Grid, masks, order: list[int], likeliest: bytes, first: Rows, deadline: Deadline) -> Optional[Rows]:
    """Another solution with one of the cells belief propagation is least sure of flipped, or None.

    When no cycle of block moves leads away from the guess, the cells where
    the beliefs were closest to even are the likeliest to differ in another
    solution: each of the last :data:`FLIPS` in ``order`` is given the other
    colour and the guessing runs again.
    """
    values = b"".join(first)
    for cell in order[: -FLIPS - 1 : -1]:
        trial = masks[:]
        trial[cell] = 1 << (1 - values[cell])
        try:
            grid.propagate(trial, (cell // grid.width, grid.height + cell % grid.width), deadline)
        except Contradiction:
            continue
        found = _search(grid, trial, order, likeliest, deadline)
        if found is not None:
            return found
    return None


def _more_rounds() -> list[int]:
    """The rounds of belief propagation to run before each try (:data:`GUESS_ROUNDS` are totals)."""
    return [b - a for a, b in zip((0,) + GUESS_ROUNDS, GUESS_ROUNDS)]


def _belief_order(grid: Grid, masks, messages, rounds: int, deadline: Deadline) -> tuple[bytes, list[int]]:
    """Each cell's likeliest colour after ``rounds`` more rounds, and the open cells from the surest belief to the least sure."""
    likeliest = grid.beliefs(masks, messages, 2, rounds, 0.5, deadline)
    cols = len(masks) * 2  # the column messages follow the row messages, two colours per cell
    sureness = []
    for cell, mask in enumerate(masks):
        if mask & (mask - 1):
            white = messages[2 * cell] * messages[cols + 2 * cell]
            black = messages[2 * cell + 1] * messages[cols + 2 * cell + 1]
            sureness.append((abs(white - black) / max(white + black, 1e-300), cell))
    sureness.sort(key=lambda pair: -pair[0])
    return likeliest, [cell for _, cell in sureness]


def _search(grid: Grid, masks, order: list[int], likeliest: bytes, deadline: Deadline) -> Optional[Rows]:
    """A solution from line-logic ``masks`` (changed in place), or ``None`` if the guessing gives up.

    Cells are decided in ``order``, each to its ``likeliest`` colour, and line
    logic runs after each decision; a dead end flips the latest decision that
    has another colour left (chronological backtracking). After
    :data:`GUESS_FAILURES` dead ends it gives up: the answer is only a
    shortcut, never a proof that no solution exists.
    """
    H, W = grid.height, grid.width
    stack: list[tuple] = []  # (masks before the decision, its place in order, the colours left to try)
    failures, place = 0, 0
    while True:
        while place < len(order) and not masks[order[place]] & (masks[order[place]] - 1):
            place += 1
        if place == len(order):
            return grid.solved_rows(masks)
        cell = order[place]
        tried = 1 << likeliest[cell]
        stack.append((masks[:], place, masks[cell] & ~tried))
        masks[cell] = tried
        while True:
            try:
                grid.propagate(masks, (cell // W, H + cell % W), deadline)
                break
            except Contradiction:
                failures += 1
                while stack and not stack[-1][2]:
                    stack.pop()
                if failures > GUESS_FAILURES or not stack:
                    return None
                before, place, left = stack.pop()
                stack.append((before, place, 0))
                cell = order[place]
                masks = before[:]
                masks[cell] = left


def swap_neighbour(rows: Rows) -> Optional[Rows]:
    """Another grid with the same clues as the 0/1 grid ``rows``, made by moving blocks by one cell.

    Each row of a cycle moves one block by one cell (emptying one cell, filling
    its neighbour's neighbour or its neighbour), and so does each column it
    crosses; the cycle closes when the last column move lands in the row it
    started from. Rows and columns are used once each, so every line's clue
    stays as it was. ``None`` when no cycle of up to :data:`CYCLE_ROWS` rows exists.
    """
    H, W = len(rows), len(rows[0])
    row_moves = [_moves(row) for row in rows]
    column_moves: list[dict[int, list[int]]] = []  # per column: the row filled -> the rows emptied
    for c in range(W):
        moves: dict[int, list[int]] = {}
        for emptied, filled in _moves(bytes(row[c] for row in rows)):
            moves.setdefault(filled, []).append(emptied)
        column_moves.append(moves)
    for r0 in range(H):
        for c0, c1 in row_moves[r0]:
            cells = _close(row_moves, column_moves, r0, c0, [(r0, c0), (r0, c1)], {r0}, {c0, c1})
            if cells:
                out = [bytearray(row) for row in rows]
                for r, c in cells:
                    out[r][c] ^= 1
                return split_rows(b"".join(out), W)
    return None


def _close(row_moves, column_moves, r0: int, c0: int, cells: list, rows: set, cols: set) -> Optional[list]:
    """The cells of a cycle that goes on from ``cells`` (ending at a filled cell) and closes at ``(r0, c0)``."""
    r, c = cells[-1]
    for r2 in column_moves[c].get(r, ()):
        if r2 in rows:
            continue
        for emptied, filled in row_moves[r2]:
            if emptied != c:
                continue
            if filled == c0:
                if r0 in column_moves[c0].get(r2, ()):
                    return cells + [(r2, c), (r2, filled)]
            elif filled not in cols and len(rows) + 1 < CYCLE_ROWS:
                found = _close(row_moves, column_moves, r0, c0, cells + [(r2, c), (r2, filled)],
                               rows | {r2}, cols | {filled})
                if found:
                    return found
    return None


def _moves(line: bytes) -> list[tuple[int, int]]:
    """``(emptied, filled)`` cells of every one-cell move of one block that keeps the line's clue."""
    n, out, i = len(line), [], 0
    while i < n:
        if not line[i]:
            i += 1
            continue
        start = i
        while i < n and line[i]:
            i += 1
        end = i - 1
        if end + 1 < n and (end + 2 >= n or not line[end + 2]):
            out.append((start, end + 1))
        if start >= 1 and (start < 2 or not line[start - 2]):
            out.append((end, start - 1))
    return out
