"""The ambiguity map: for the cells near the ambiguity, how many ambiguous cells a given there, or a one-cell
change of the picture there, settles.

number-loom's disambiguator scores every cell by trial solving; here the
engine's own proof does it. A given is tried on each ambiguous cell (a given
anywhere else settles nothing: the cell is fixed already), with the one
engine session that proved the grid ambiguous, so each trial starts from its
line logic. A change is tried on the ambiguous cells and their neighbours:
the grid with that one cell recoloured is a new puzzle, proved from scratch.
The work is bounded twice: at most :data:`MAX_GIVENS` and :data:`MAX_CHANGES`
cells are tried, and the job stops at its deadline, saying so. Each cell's
score goes to the page as soon as it is known.

A map is complete only when the engine proved every number in it: a proof
that runs out of time (the grid's own, before any cell is tried) maps
nothing and says ``"timeout": true``, never "0 ambiguous cells".
"""
from __future__ import annotations

from typing import Any, Iterator, Optional

import numpy as np

from ..clues import puzzle_from_grid
from ..model import Puzzle
from ..solve.deadline import Deadline, Timeout
from ..solve.session import Session
from .document import puzzle_from
from .limits import MAP_SECONDS

__all__ = ["ambiguity_map", "MAX_GIVENS", "MAX_CHANGES"]

Message = dict[str, Any]

MAX_GIVENS = 200
"""Most ambiguous cells tried as a given (each trial reuses the session: a few ms on small grids)."""

MAX_CHANGES = 80
"""Most cells tried as a one-cell change (each trial is a new puzzle to prove)."""

MAX_COLOURS_TRIED = 4
"""Most colours a changed cell is tried in: the background and the colours around it come first."""


def ambiguity_map(job: dict[str, Any]) -> Iterator[Message]:
    """``{"verdict": ..., "before": n, "ambiguous": cells}``, then one ``{"cell": [r, c], "given"|"change": settled,
    ...}`` per cell tried, then ``{"done": True, "complete": ..., "timeout": ...}``.

    ``complete`` is False when the deadline or the bounds left cells untried, ``timeout`` True when the deadline
    did. A grid that is not proved ambiguous has no ``before``: unique, nothing is ambiguous (complete); any
    other verdict (``timeout``), nothing is known.
    """
    puzzle, grid = puzzle_from(job["doc"])
    clock = Deadline(float(job.get("timeout") or MAP_SECONDS))
    session = Session(puzzle)
    verdict = session.verify(grid, timeout=clock.left(), grade=False).status
    if verdict != "multiple":
        yield {"verdict": verdict, **({"before": 0, "ambiguous": []} if verdict == "unique" else {})}
        yield {"done": True, "complete": verdict == "unique", "timeout": verdict == "timeout"}
        return
    cells, found_all = session.ambiguous_cells(grid, timeout=clock.left())
    before = len(cells)
    yield {"verdict": verdict, "before": before, "ambiguous": [list(cell) for cell in cells]}
    timed_out = not found_all
    complete = found_all and len(cells) <= MAX_GIVENS
    try:
        for r, c in cells[:MAX_GIVENS]:
            after, done = session.ambiguous_cells(grid, givens=[(r, c, int(grid[r, c]))], timeout=clock.left())
            if not done:
                raise Timeout()
            yield {"cell": [r, c], "given": before - len(after)}
        near = _near(cells, grid.shape)
        complete = complete and len(near) <= MAX_CHANGES
        for r, c in near[:MAX_CHANGES]:
            best = _best_change(puzzle, grid, r, c, before, clock)
            if best is not None:
                yield {"cell": [r, c], "change": best[0], "to": best[1]}
    except Timeout:
        complete, timed_out = False, True
    yield {"done": True, "complete": complete, "timeout": timed_out}


def _near(cells: list[tuple[int, int]], shape: tuple[int, int]) -> list[tuple[int, int]]:
    """The ambiguous cells, then their row and column neighbours, each once, in that order."""
    seen = dict.fromkeys(cells)
    for r, c in cells:
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < shape[0] and 0 <= c + dc < shape[1]:
                seen.setdefault((r + dr, c + dc))
    return list(seen)


def _best_change(puzzle: Puzzle, grid: np.ndarray, r: int, c: int, before: int,
                 clock: Deadline) -> Optional[tuple[int, int]]:
    """(settled, colour) of the best colour to give cell (r, c), or None when no trial finished."""
    best = None
    for colour in _colours_to_try(grid, r, c, len(puzzle.palette)):
        changed = grid.copy()
        changed[r, c] = colour
        givens = [(gr, gc, int(changed[gr, gc])) for gr, gc, _ in puzzle.givens]
        session = Session(puzzle_from_grid(changed, puzzle.palette, givens=givens))
        result = session.verify(changed, timeout=clock.left(), grade=False)
        if result.status == "timeout":
            raise Timeout()
        if result.status == "unique":
            after = 0
        elif result.status != "multiple":
            continue
        else:
            found, done = session.ambiguous_cells(changed, timeout=clock.left())
            if not done:
                raise Timeout()
            after = len(found)
        if best is None or before - after > best[0]:
            best = (before - after, colour)
    return best


def _colours_to_try(grid: np.ndarray, r: int, c: int, n_colours: int) -> list[int]:
    """Other colours for cell (r, c): background first, then its neighbours' colours, then the rest."""
    around = [int(grid[rr, cc]) for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
              if 0 <= rr < grid.shape[0] and 0 <= cc < grid.shape[1]]
    order = dict.fromkeys([0, *around, *range(n_colours)])
    return [v for v in order if v != int(grid[r, c])][:MAX_COLOURS_TRIED]
