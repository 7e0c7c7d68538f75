"""Exact cover for packing levels: Algorithm X over a board kept in one Python int.

Why bitmasks and not dancing links: in Python, one ``int`` AND per candidate
placement is far cheaper than unlinking and relinking list nodes, and the
"column" Algorithm X has to cover next is simply the lowest empty cell (scanned
along the board's short side, where it has the fewest candidates). Two prunings
keep the tree small: every empty region must have a size some subset of the
remaining pieces adds up to, and congruent pieces are placed in a fixed order
so swapping two identical pieces is not counted as a new solution.

Cells are bits ``r * (W + 1) + c``; the extra column is a permanently full
sentinel, so shifting a region by one never wraps into the next row.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..solve.deadline import Deadline
from .level import Level, cells_by_char
from .pieces import Cell, canonical, orientations

__all__ = ["ExactProblem", "SearchOutcome", "CountOutcome", "compile_level", "search", "count_memo"]


@dataclass
class ExactProblem:
    """A level compiled for the search; ``types`` groups congruent loose pieces."""

    level: Level
    transposed: bool
    width: int
    height: int
    start: int  # bits already full: blocked, pre-placed, sentinel column
    goal: int  # every bit set
    types: list[list[str]]  # piece characters of each shape type
    type_sizes: list[int]
    by_cell: dict[int, list[tuple[int, int]]]  # lowest bit -> [(type, mask)]
    placements: list[tuple[int, int]] = field(default_factory=list)  # every (type, mask)

    @property
    def stride(self) -> int:
        return self.width + 1

    def bit(self, cell: Cell) -> int:
        r, c = cell
        if self.transposed:
            r, c = c, r
        return r * self.stride + c

    def cell(self, bit: int) -> Cell:
        r, c = divmod(bit, self.stride)
        return (c, r) if self.transposed else (r, c)

    def mask_cells(self, mask: int) -> list[Cell]:
        cells = []
        while mask:
            low = mask & -mask
            cells.append(self.cell(low.bit_length() - 1))
            mask ^= low
        return cells

    def rows(self, chosen: list[tuple[int, int]]) -> tuple[str, ...]:
        """Board picture of a solution given as ``(type, mask)`` placements."""
        placed = {ch: list(cells) for ch, cells in self.level.placed.items()}
        regions: list[list[list[Cell]]] = [[] for _ in self.types]
        for t, mask in chosen:
            regions[t].append(sorted(self.mask_cells(mask)))
        for t, chars in enumerate(self.types):
            for ch, cells in zip(chars, sorted(regions[t]), strict=False):
                placed[ch] = cells
        return self.level.rows(placed)

    def canonical_rows(self, rows: tuple[str, ...]) -> tuple[str, ...]:
        """The same tiling with congruent loose pieces relabelled the way :meth:`rows` does."""
        cells = cells_by_char(rows)
        placed = {ch: cells[ch] for ch in self.level.placed}
        for chars in self.types:
            for ch, where in zip(chars, sorted(sorted(cells.get(c, [])) for c in chars), strict=True):
                placed[ch] = where
        return self.level.rows(placed)


def compile_level(level: Level) -> ExactProblem:
    """All placements of the loose pieces that fit around the pre-placed ones."""
    transposed = level.width > level.height
    w, h = (level.height, level.width) if transposed else (level.width, level.height)
    stride = w + 1
    goal = (1 << (stride * h)) - 1
    problem = ExactProblem(level, transposed, w, h, 0, goal, [], [], {})
    start = 0
    for r in range(h):
        start |= 1 << (r * stride + w)
    taken = set(level.blocked) | {cell for cells in level.placed.values() for cell in cells}
    for cell in taken:
        start |= 1 << problem.bit(cell)
    problem.start = start
    groups: dict[tuple, int] = {}
    for piece in level.loose_pieces:
        key = canonical(piece.shape)
        if key not in groups:
            groups[key] = len(problem.types)
            problem.types.append([])
            problem.type_sizes.append(piece.size)
            _add_placements(problem, groups[key], piece.shape)
        problem.types[groups[key]].append(piece.char)
    return problem


def _add_placements(problem: ExactProblem, t: int, shape) -> None:
    w, h, stride = problem.width, problem.height, problem.stride
    for orient in orientations(shape):
        if problem.transposed:
            orient = tuple((c, r) for r, c in orient)
        oh = 1 + max(r for r, _ in orient)
        ow = 1 + max(c for _, c in orient)
        base = sum(1 << (r * stride + c) for r, c in orient)
        for r0 in range(h - oh + 1):
            for c0 in range(w - ow + 1):
                mask = base << (r0 * stride + c0)
                if mask & problem.start:
                    continue
                low = (mask & -mask).bit_length() - 1
                problem.by_cell.setdefault(low, []).append((t, mask))
                problem.placements.append((t, mask))


@dataclass
class SearchOutcome:
    """What one search found: up to ``keep`` solutions, how many in all, whether it finished."""

    solutions: list[tuple[str, ...]]
    count: int
    complete: bool  # False: stopped at the limit or the deadline
    timed_out: bool
    nodes: int


class _Stop(Exception):
    pass


PRUNING = ("cells", "regions", "none")


def search(
    problem: ExactProblem,
    *,
    limit: Optional[int] = 2,
    keep: int = 2,
    deadline: Optional[Deadline] = None,
    rng: Optional[random.Random] = None,
    on_progress: Optional[Callable[[int, int], None]] = None,
    exclude: Optional[tuple[str, ...]] = None,
    prune: str = "cells",
    max_dead: int = 2_000_000,
    max_nodes: Optional[int] = None,
) -> SearchOutcome:
    """Count completions up to ``limit`` (None: all), keeping the first ``keep`` as pictures.

    ``deadline`` (:class:`~nonogen.solve.deadline.Deadline`) stops the search; ``rng`` shuffles the candidate
    order (generators use it to find random tilings); ``on_progress(count, nodes)``
    is called about every 65,000 nodes; ``exclude`` is a picture not to count
    (the known target, when proving it is the only one).

    ``prune`` chooses how dead ends are cut before recursing: ``"cells"``
    (default) rejects a placement that walls in a single free cell; ``"regions"``
    also flood-fills the small regions next to the new piece and rejects sizes no
    subset of the remaining pieces adds up to (fewer nodes, but in Python each
    node costs more than the nodes it saves); ``"none"`` for benchmarks.
    Partly filled boards that led to no completion are remembered (up to
    ``max_dead``) and not searched again when another move order reaches them.
    ``max_nodes`` stops the search (as ``timed_out``) after about that many steps (a multiple of 1,024):
    a budget counted in work gives the same answer on every machine, where a clock does not.
    """
    if prune not in PRUNING:
        raise ValueError(f"prune must be one of {PRUNING}")
    stride = problem.stride
    goal = problem.goal
    by_cell: dict[int, list[tuple[int, int, int]]] = {}
    for low, cands in problem.by_cell.items():
        if rng is not None:
            cands = rng.sample(cands, len(cands))
        # Each candidate carries its halo: the cells around it, where a placement can wall cells in.
        by_cell[low] = [(t, m, (m << 1 | m >> 1 | m << stride | m >> stride) & ~m & goal) for t, m in cands]
    type_bits: list[int] = []
    sizes: list[int] = []
    for t, chars in enumerate(problem.types):
        type_bits.append(((1 << len(chars)) - 1) << len(sizes))
        sizes += [problem.type_sizes[t]] * len(chars)
    all_used = (1 << len(sizes)) - 1
    # The last loose piece fits iff the free cells are one of its placements: one set lookup.
    instance_type = [t for t, chars in enumerate(problem.types) for _ in chars]
    last_piece = {all_used ^ (1 << i): instance_type[i] for i in range(len(sizes))}
    masks_of: list[set[int]] = [set() for _ in problem.types]
    for t, mask in problem.placements:
        masks_of[t].add(mask)
    sums_cache: dict[int, int] = {}

    def reachable(used: int) -> int:
        """Bit n set iff some subset of the unused pieces has n cells in all."""
        sums = 1
        for i, size in enumerate(sizes):
            if not used >> i & 1:
                sums |= sums << size
        sums_cache[used] = sums
        return sums

    def walls_in(free: int, halo: int, used: int) -> bool:
        sums = sums_cache.get(used) or reachable(used)
        border = halo & free
        if sums & 2:  # a monomino is left: single cells can still be filled
            return False
        if border & ~(free << 1 | free >> 1 | free << stride | free >> stride):
            return True
        if prune == "cells":
            return False
        while border:  # regions next to the new piece that close within a few steps
            comp = border & -border
            for _ in range(4):
                grow = (comp | comp << 1 | comp >> 1 | comp << stride | comp >> stride) & free
                if grow == comp:
                    if not sums >> comp.bit_count() & 1:
                        return True
                    break
                comp = grow
            border &= ~comp
        return False

    if exclude is not None:
        exclude = problem.canonical_rows(tuple(exclude))
    use_prune = prune != "none"
    found: list[tuple[str, ...]] = []
    stack: list[tuple[int, int]] = []
    count = nodes = leaves = 0
    timed_out = False
    # Partly filled boards (with the same pieces used) already shown to have no completion at all.
    dead: set[int] = set()
    shift = goal.bit_length()

    def record() -> None:
        nonlocal count, leaves
        leaves += 1
        rows = problem.rows(stack)
        if exclude is not None and rows == exclude:
            return
        count += 1
        if len(found) < keep:
            found.append(rows)
        if limit is not None and count >= limit:
            raise _Stop

    def tick() -> None:
        nonlocal timed_out
        if (deadline is not None and deadline.expired()) or (max_nodes is not None and nodes >= max_nodes):
            timed_out = True
            raise _Stop
        if on_progress is not None and nodes & 0xFFFF == 0:
            on_progress(count, nodes)

    def rec(filled: int, used: int) -> None:
        nonlocal nodes
        nodes += 1
        if not nodes & 0x3FF:
            tick()
        free = goal ^ filled
        if not free:
            record()
            return
        if used in last_piece:
            t = last_piece[used]
            if free in masks_of[t]:
                stack.append((t, free))
                record()
                stack.pop()
            return
        key = filled | used << shift
        if key in dead:
            return
        before = leaves
        for t, mask, halo in by_cell.get((free & -free).bit_length() - 1, ()):
            if mask & filled:
                continue
            avail = type_bits[t] & ~used
            if not avail:
                continue
            nu = used | (avail & -avail)
            if use_prune and walls_in(free ^ mask, halo, nu):
                continue
            stack.append((t, mask))
            rec(filled | mask, nu)
            stack.pop()
        if leaves == before and len(dead) < max_dead:
            dead.add(key)

    try:
        rec(problem.start, 0)
        complete = True
    except _Stop:
        complete = False
    return SearchOutcome(found, count, complete, timed_out, nodes)


@dataclass
class CountOutcome:
    """A memoised count: exact when ``complete``, otherwise a lower bound (or the cap)."""

    count: int
    complete: bool
    timed_out: bool
    nodes: int
    states: int


def count_memo(
    problem: ExactProblem,
    *,
    cap: Optional[int] = None,
    deadline: Optional[Deadline] = None,
    on_progress: Optional[Callable[[int, int], None]] = None,
    max_states: int = 2_000_000,
    max_nodes: Optional[int] = None,
) -> CountOutcome:
    """Count completions by the same search, remembering the count of every (board, pieces used) state.

    Filling the lowest empty cell first, many different move orders reach the
    same partly filled board with the same pieces left, and from there the
    number of completions is the same: counting each such state once turns the
    empty IQ Puzzler board's 4.3 million tilings into about a million states.
    Memory is bounded by ``max_states`` (beyond it, states are recomputed).
    Counts are capped at ``cap`` when given. When the deadline (or ``max_nodes``,
    a budget of search steps that, unlike a clock, gives the same answer on any
    machine) stops the count, the result is the number of completions in the
    branches already finished.
    """
    stride = problem.stride
    goal = problem.goal
    shift = goal.bit_length()
    by_cell = {low: [(t, m, (m << 1 | m >> 1 | m << stride | m >> stride) & ~m & goal) for t, m in cands]
               for low, cands in problem.by_cell.items()}
    type_bits, n = [], 0
    for chars in problem.types:
        type_bits.append(((1 << len(chars)) - 1) << n)
        n += len(chars)
    no_monomino = all(size > 1 for size in problem.type_sizes)
    memo: dict[int, int] = {}
    partial: list[int] = []  # partial[d]: completions in finished branches of the open frame at depth d
    nodes = stop_depth = 0

    def rec(filled: int, used: int, depth: int) -> int:
        nonlocal nodes, stop_depth
        nodes += 1
        if not nodes & 0x3FF:
            if (deadline is not None and deadline.expired()) or (max_nodes is not None and nodes >= max_nodes):
                stop_depth = depth
                raise _Stop
            if on_progress is not None and not nodes & 0xFFFF:
                on_progress(sum(partial[:depth]), nodes)
        free = goal ^ filled
        if not free:
            return 1
        key = filled | used << shift
        known = memo.get(key)
        if known is not None:
            return known
        if len(partial) <= depth:
            partial.append(0)
        partial[depth] = 0
        total = 0
        for t, mask, halo in by_cell.get((free & -free).bit_length() - 1, ()):
            if mask & filled:
                continue
            avail = type_bits[t] & ~used
            if not avail:
                continue
            rest = free ^ mask
            if no_monomino and halo & rest & ~(rest << 1 | rest >> 1 | rest << stride | rest >> stride):
                continue
            total += rec(filled | mask, used | (avail & -avail), depth + 1)
            partial[depth] = total
            if cap is not None and total >= cap:
                total = cap
                break
        if len(memo) < max_states:
            memo[key] = total
        return total

    try:
        count = rec(problem.start, 0, 0)
        return CountOutcome(count, cap is None or count < cap, False, nodes, len(memo))
    except _Stop:
        return CountOutcome(sum(partial[:stop_depth]), False, True, nodes, len(memo))
