"""Level generator: cut a board into random polyominoes, then pre-place pieces until the completion is unique.

Everything random comes from one ``random.Random(seed)``, and every search
the choices depend on is bounded by counted work (search steps, SAT
conflicts), never by a clock: a seed gives the same level on every machine,
idle or loaded. The time limit only ends the whole run (:class:`SolverTimeout`).
Pre-placed pieces are chosen greedily (each time, among the pieces the current
counterexample moves, the one leaving the fewest completions) and then pruned:
every piece whose removal keeps the completion unique is taken off again, so
no pre-placed piece is superfluous.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from ..errors import InputError, LimitError, SolverTimeout
from ..solve.deadline import Deadline
from .exact import compile_level, search
from .level import Level, cells_by_char
from .pieces import CLASSIC_PIECES, PIECE_CHARS, Cell, Piece, canonical, normalize
from .solve import count_solutions, verify_level

__all__ = ["GenerateReport", "cut_board", "random_tiling", "choose_placed", "generate_level", "default_size_range",
           "CHECK_CONFLICTS", "GENERATE_TIMEOUT"]

MAX_PIECES = len(PIECE_CHARS)

CHECK_CONFLICTS = 20_000
"""SAT conflicts one uniqueness check may take while pre-placed pieces are chosen (a few seconds at most).

A check that runs out is "not proved unique", and one more piece is placed: the same on every machine."""

GENERATE_TIMEOUT = 600.0
"""Seconds a whole generation may take unless the caller says (the 10x10 board of 20 pieces takes about 8)."""


@dataclass
class GenerateReport:
    """What the generator did: attempts, verification calls and time per phase."""

    cut_attempts: int = 0
    checks: int = 0
    undecided: int = 0  # checks that ran out of conflicts: counted as not unique
    seconds: dict = field(default_factory=dict)


def default_size_range(area: int, n_pieces: int) -> tuple[int, int]:
    """Piece sizes around the average, one below to one above.

    >>> default_size_range(55, 12)
    (3, 6)
    """
    avg = area / n_pieces
    return max(1, math.floor(avg) - 1), math.ceil(avg) + 1


def cut_board(width: int, height: int, *, n_pieces: int, min_size: int, max_size: int, rng: random.Random,
              distinct: bool = False, attempts: int = 500) -> list[list[Cell]]:
    """Split a ``width`` x ``height`` board into ``n_pieces`` connected pieces of the given sizes.

    Pieces grow from the first empty cell in reading order, so no hole is left
    behind the scan; a cut that strands a region no piece count can fill is
    abandoned and restarted.
    """
    area = width * height
    if not 1 <= n_pieces <= MAX_PIECES:
        raise LimitError(f"{n_pieces} pieces: between 1 and {MAX_PIECES} pieces can be named")
    if not (1 <= min_size <= max_size and n_pieces * min_size <= area <= n_pieces * max_size):
        raise InputError(
            f"{n_pieces} pieces of {min_size} to {max_size} cells cannot cover {area} cells"
        )
    for _ in range(attempts):
        pieces = _try_cut(width, height, n_pieces, min_size, max_size, rng, distinct)
        if pieces is not None:
            return pieces
    raise InputError(f"could not cut the board into {n_pieces} pieces in {attempts} attempts; relax the sizes")


def _try_cut(width, height, n_pieces, min_size, max_size, rng, distinct) -> Optional[list[list[Cell]]]:
    """One randomized depth-first cut; gives up after a fixed number of grown pieces."""
    empty = {(r, c) for r in range(height) for c in range(width)}
    pieces: list[list[Cell]] = []
    shapes: list = []
    budget = [40 * n_pieces]

    def place(left: int) -> bool:
        if left == 0:
            return not empty
        rest = len(empty)
        sizes = [s for s in range(min_size, max_size + 1)
                 if (left - 1) * min_size <= rest - s <= (left - 1) * max_size]
        for _ in range(6 if sizes else 0):
            budget[0] -= 1
            if budget[0] < 0:
                return False
            piece = _grow(min(empty), rng.choice(sizes), empty, rng)
            if piece is None or (distinct and canonical(piece) in shapes):
                continue
            if not _regions_ok(empty - set(piece), min_size, max_size):
                continue
            empty.difference_update(piece)
            pieces.append(piece)
            shapes.append(canonical(piece))
            if place(left - 1):
                return True
            empty.update(piece)
            pieces.pop()
            shapes.pop()
        return False

    return pieces if place(n_pieces) else None


def _grow(seed: Cell, size: int, empty: set, rng: random.Random) -> Optional[list[Cell]]:
    piece = [seed]
    taken = {seed}
    while len(piece) < size:
        frontier = sorted({nb for r, c in piece for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
                           if nb in empty and nb not in taken})
        if not frontier:
            return None
        cell = rng.choice(frontier)
        piece.append(cell)
        taken.add(cell)
    return piece


def _regions_ok(empty: set, min_size: int, max_size: int) -> bool:
    """Every empty region must be fillable by some number of pieces of allowed sizes."""
    todo = set(empty)
    while todo:
        stack = [todo.pop()]
        n = 1
        while stack:
            r, c = stack.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in todo:
                    todo.remove(nb)
                    stack.append(nb)
                    n += 1
        if not any(j * min_size <= n <= j * max_size for j in range(1, n // min_size + 1)):
            return False
    return True


def random_tiling(level: Level, rng: random.Random, *, deadline: Optional[Deadline] = None) -> tuple[str, ...]:
    """A random completion of ``level`` (the search tries candidates in shuffled order).

    The search runs to its first completion, so the deadline can only end it (:class:`SolverTimeout`), never
    change which tiling a seed gives."""
    deadline = deadline or Deadline(GENERATE_TIMEOUT)
    outcome = search(compile_level(level), limit=1, keep=1, deadline=deadline, rng=rng)
    if not outcome.solutions:
        if not outcome.complete:
            raise SolverTimeout("no tiling found within the time limit")
        raise InputError("the pieces cannot tile the board")
    return outcome.solutions[0]


def choose_placed(level: Level, solution: Sequence[str], *, rng: random.Random, deadline: Optional[Deadline] = None,
                  report: Optional[GenerateReport] = None,
                  on_step: Optional[Callable[[str], None]] = None) -> Level:
    """Pre-place as few pieces of ``solution`` as the greedy search can so the completion is unique.

    Each check is bounded by :data:`CHECK_CONFLICTS`; ``deadline`` (default :data:`GENERATE_TIMEOUT` from now)
    bounds the whole choice and ends it with :class:`SolverTimeout` when it passes.
    """
    report = report or GenerateReport()
    deadline = deadline or Deadline(GENERATE_TIMEOUT)
    solution = tuple(solution)
    chars = [p.char for p in level.pieces]
    placed: list[str] = []

    def check(which: Sequence[str]):
        return _check(level.with_placed(which, solution).replace(solution=solution), deadline, report)

    while True:
        result = check(placed)
        if result.status == "unique":
            break
        moved = _moved(solution, result.second_solution, placed) if result.second_solution else []
        moved = moved or [ch for ch in chars if ch not in placed]
        placed.append(_best_addition(level, solution, placed, moved, rng))
        if on_step:
            on_step(f"pre-placed {len(placed)} piece(s)")
    for ch in rng.sample(placed, len(placed)):
        fewer = [c for c in placed if c != ch]
        if check(fewer).status == "unique":
            placed = fewer
    return level.with_placed(placed, solution).replace(solution=solution)


def _check(level: Level, deadline: Deadline, report: GenerateReport):
    """One uniqueness check of a candidate level, bounded in conflicts; a passed deadline ends the generation."""
    report.checks += 1
    result = verify_level(level, timeout=deadline.left(), max_conflicts=CHECK_CONFLICTS)
    if result.status == "timeout":
        if deadline.expired():
            raise SolverTimeout("no level within the time limit: checking the pre-placed pieces took too long")
        report.undecided += 1
    return result


def _moved(solution: Sequence[str], other: Sequence[str], placed: Sequence[str]) -> list[str]:
    """Pieces that lie differently in ``other`` than in ``solution``."""
    a, b = cells_by_char(solution), cells_by_char(other)
    return sorted(ch for ch in a if ch not in placed and ch not in ".#" and a[ch] != b.get(ch))


RANKING_NODES = 40_000
"""Search steps a candidate piece's completion count may take (about 0.1 s): past it the count is the cap."""


def _best_addition(level: Level, solution, placed, moved, rng: random.Random, cap: int = 12) -> str:
    """Of a few candidate pieces, the one whose placement leaves the fewest completions.

    Counts are capped and short (a count cut off by its step budget counts as
    the cap): they only rank candidates, and exact counts would cost more than
    the extra pre-placed piece a worse choice sometimes needs. The budget is
    counted in search steps, not seconds: a 0.15 s clock made ``--seed 1`` give
    other levels on a loaded machine.
    """
    rng.shuffle(moved)
    best, best_count = moved[0], None
    for ch in moved[:4]:
        trial = level.with_placed([*placed, ch], solution)
        result = count_solutions(trial, limit=cap, timeout=None, max_nodes=RANKING_NODES)
        n = cap if result.status == "timeout" else result.count
        if best_count is None or n < best_count:
            best, best_count = ch, n
    return best


def generate_level(width: int, height: int, n_pieces: int, *, seed: int = 0, min_size: Optional[int] = None,
                   max_size: Optional[int] = None, distinct: bool = False, classic: bool = False,
                   timeout: Optional[float] = GENERATE_TIMEOUT, on_step: Optional[Callable[[str], None]] = None,
                   ) -> tuple[Level, GenerateReport]:
    """A level with a unique completion: random pieces (or the classic set) and pre-placed pieces.

    ``classic`` uses the 12 IQ Puzzler Pro pieces on their 11 x 5 board and a
    random tiling of it; otherwise the board is cut into ``n_pieces`` random
    polyominoes of ``min_size`` to ``max_size`` cells (``distinct``: no two
    congruent). The same ``seed`` gives the same level on any machine; a run
    longer than ``timeout`` seconds (None: no limit) ends with :class:`SolverTimeout`.
    """
    rng = random.Random(seed)
    deadline = Deadline(timeout)
    report = GenerateReport()
    t0 = time.monotonic()
    if classic:
        base = Level(11, 5, CLASSIC_PIECES, meta={"title": f"IQ Puzzler Pro challenge (seed {seed})"})
        solution = random_tiling(base, rng, deadline=deadline)
    else:
        lo, hi = default_size_range(width * height, n_pieces)
        lo, hi = min_size or lo, max_size or hi
        cut = cut_board(width, height, n_pieces=n_pieces, min_size=lo, max_size=hi, rng=rng, distinct=distinct)
        pieces = tuple(Piece(PIECE_CHARS[i], f"{PIECE_CHARS[i]}{len(cells)}", normalize(cells))
                       for i, cells in enumerate(cut))
        title = f"Packing {width}x{height}, {n_pieces} pieces (seed {seed})"
        base = Level(width, height, pieces, meta={"title": title})
        solution = base.rows({p.char: cells for p, cells in zip(pieces, cut, strict=True)})
    report.seconds["tiling"] = time.monotonic() - t0
    t1 = time.monotonic()
    level = choose_placed(base, solution, rng=rng, deadline=deadline, report=report, on_step=on_step)
    report.seconds["placing"] = time.monotonic() - t1
    report.seconds["total"] = time.monotonic() - t0
    return level, report
