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
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from .level import Level, cells_by_char
from .pieces import Cell, canonical, orientations

__all__ = ["ExactProblem", "SearchOutcome", "compile_level", "search"]


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
            for ch, cells in zip(chars, sorted(regions[t])):
                placed[ch] = cells
        return self.level.rows(placed)

    def canonical_rows(self, rows: tuple[str, ...]) -> tuple[str, ...]:
        """The same tiling with congruent loose pieces relabelled the way :meth:`rows` does."""
        cells = cells_by_char(rows)
        placed = {ch: cells[ch] for ch in self.level.placed}
        for chars in self.types:
            for ch, where in zip(chars, sorted(sorted(cells.get(c, [])) for c in chars)):
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


def search(
    problem: ExactProblem,
    limit: Optional[int] = 2,
    keep: int = 2,
    deadline: Optional[float] = None,
    rng: Optional[random.Random] = None,
    on_progress: Optional[Callable[[int, int], None]] = None,
    exclude: Optional[tuple[str, ...]] = None,
    prune: bool = True,
) -> SearchOutcome:
    """Count completions up to ``limit`` (None: all), keeping the first ``keep`` as pictures.

    ``deadline`` is a ``time.monotonic()`` value; ``rng`` shuffles the candidate
    order (generators use it to find random tilings); ``on_progress(count, nodes)``
    is called about every 65,000 nodes; ``exclude`` is a picture not to count
    (the known target, when proving it is the only one); ``prune=False`` turns
    off the region-size pruning (for benchmarks).
    """
    stride = problem.stride
    goal = problem.goal
    by_cell = problem.by_cell
    if rng is not None:
        by_cell = {k: rng.sample(v, len(v)) for k, v in by_cell.items()}
    type_bits = []
    sizes = []
    for t, chars in enumerate(problem.types):
        first = len(sizes)
        sizes += [problem.type_sizes[t]] * len(chars)
        type_bits.append(((1 << len(chars)) - 1) << first)
    sums_cache: dict[int, int] = {}
    all_used = (1 << len(sizes)) - 1
    # The last loose piece fits iff the free cells are one of its placements: one set lookup.
    last_piece = {all_used ^ (1 << i): i for i in range(len(sizes))}
    instance_type = [t for t, chars in enumerate(problem.types) for _ in chars]
    masks_of: list[set[int]] = [set() for _ in problem.types]
    for t, mask in problem.placements:
        masks_of[t].add(mask)

    def reachable(used: int) -> int:
        sums = 1
        for i, s in enumerate(sizes):
            if not used >> i & 1:
                sums |= sums << s
        sums_cache[used] = sums
        return sums

    def dead(filled: int, used: int) -> bool:
        sums = sums_cache.get(used) or reachable(used)
        free = goal ^ filled
        while free:
            comp = free & -free
            while True:
                grow = (comp | comp << 1 | comp >> 1 | comp << stride | comp >> stride) & free
                if grow == comp:
                    break
                comp = grow
            if not sums >> comp.bit_count() & 1:
                return True
            free ^= comp
        return False

    if exclude is not None:
        exclude = problem.canonical_rows(tuple(exclude))
    found: list[tuple[str, ...]] = []
    stack: list[tuple[int, int]] = []
    state = {"count": 0, "nodes": 0, "timed_out": False}

    def record() -> None:
        rows = problem.rows(stack)
        if exclude is not None and rows == exclude:
            return
        state["count"] += 1
        if len(found) < keep:
            found.append(rows)
        if limit is not None and state["count"] >= limit:
            raise _Stop

    def tick() -> None:
        if deadline is not None and time.monotonic() > deadline:
            state["timed_out"] = True
            raise _Stop
        if on_progress is not None and state["nodes"] & 0xFFFF == 0:
            on_progress(state["count"], state["nodes"])

    def rec(filled: int, used: int) -> None:
        state["nodes"] += 1
        if state["nodes"] & 0x3FF == 0:
            tick()
        if filled == goal:
            record()
            return
        free = goal ^ filled
        if used in last_piece:
            t = instance_type[last_piece[used]]
            if free in masks_of[t]:
                stack.append((t, free))
                record()
                stack.pop()
            return
        low = (free & -free).bit_length() - 1
        for t, mask in by_cell.get(low, ()):
            if mask & filled:
                continue
            avail = type_bits[t] & ~used
            if not avail:
                continue
            nf = filled | mask
            nu = used | (avail & -avail)
            if prune and nf != goal and dead(nf, nu):
                continue
            stack.append((t, mask))
            rec(nf, nu)
            stack.pop()

    try:
        if problem.start == goal or not dead(problem.start, 0):
            rec(problem.start, 0)
        complete = True
    except _Stop:
        complete = False
    return SearchOutcome(found, state["count"], complete, state["timed_out"], state["nodes"])
