"""SAT encoding of Picross 3D clues: two unary counters per line, clue literals kept apart.

Every line clue ``(count, groups)`` becomes two unary counters over the line
(cubes kept, and group starts capped at 3) whose definitions hold for any
assignment; only the final "count is n" / "groups is g" literals are clue
constraints. That split lets a line be switched off by one activation literal
guarding a handful of clauses (``add_line``'s ``guard``). Hiding clues no longer
uses it: it asks a solver of the residue per question (``make/hide3d.py``).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterator, Optional, Sequence

import numpy as np

from ..clues3d import LineRef, all_lines, clue_at, line_cells
from ..model3d import Clue3D, Puzzle3D
from .deadline import Deadline

__all__ = ["Encoder", "encode"]


def _counter(lits: Sequence[int], cap: int, next_var: int) -> tuple[list[list[int]], list[int], int]:
    """Unary prefix counter: ``out[j-1]`` <=> at least ``j`` of ``lits`` are true, for ``j <= cap``.

    Full equivalences, so unit propagation works in both directions. Returns
    the clauses, the output literals (0 where the count cannot be reached:
    that output is false) and the next free variable.
    """
    clauses: list[list[int]] = []
    prev: list[int] = []  # prev[j-1]: at least j among the first i-1 literals
    for v in lits:
        cur = []
        for j in range(1, min(len(prev) + 1, cap) + 1):
            a = prev[j - 1] if j <= len(prev) else 0  # at least j before
            b = prev[j - 2] if j >= 2 else None  # at least j-1 before (None: always true)
            r = next_var
            next_var += 1
            if a:
                clauses.append([-a, r])
            if b is None:
                clauses.append([-v, r])
                clauses.append([-r, a, v] if a else [-r, v])
            else:
                clauses.append([-b, -v, r])
                clauses.append([-r, a, b] if a else [-r, b])
                clauses.append([-r, a, v] if a else [-r, v])
            cur.append(r)
        prev = cur
    return clauses, prev + [0] * (cap - len(prev)), next_var


@lru_cache(maxsize=4096)
def _template(length: int, count: int, groups: int) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...], int]:
    """CNF of clue ``(count, groups)`` on a line of ``length`` over variables ``1..length``.

    Returns ``(definitions, constraints, last_var)``, clauses in arrays by length (see
    :func:`_blocks`): definitions only name
    auxiliary counters (always satisfiable), constraints are the clue itself
    and get the line's activation guard. Cached per signature: a 20^3 box has
    only a few hundred distinct signatures among 1200 lines.
    """
    cells = list(range(1, length + 1))
    if count == 0:
        return (), _blocks([[-v] for v in cells]), length
    if count == length:
        return (), _blocks([[v] for v in cells]), length
    defs, outs, nxt = _counter(cells, count + 1, length + 1)
    cons: list[list[int]] = [[outs[count - 1]]]
    if outs[count]:
        cons.append([-outs[count]])
    starts = [1]
    for v in cells[1:]:
        s = nxt
        nxt += 1
        defs += [[-s, v], [-s, -(v - 1)], [s, -v, v - 1]]
        starts.append(s)
    gdefs, gouts, nxt = _counter(starts, 3, nxt)
    defs += gdefs
    if groups == 1:
        if gouts[1]:
            cons.append([-gouts[1]])
        # Plain clue: no two kept cubes are ``count`` or more apart. A prefix "some cube at or before i"
        # says it in O(length) clauses with the propagation of the O(length^2) pairwise ones.
        prefix = [1]
        for v in cells[1:]:
            p = nxt
            nxt += 1
            defs += [[-v, p], [-prefix[-1], p], [-p, prefix[-1], v]]
            prefix.append(p)
        cons += [[-b, -prefix[b - 1 - count]] for b in cells if b - count >= 1]
    elif groups == 2:
        cons.append([gouts[1]])
        if gouts[2]:
            cons.append([-gouts[2]])
    else:
        cons.append([gouts[2]])
    return _blocks(defs), _blocks(cons), nxt - 1


def _blocks(clauses: list[list[int]]) -> tuple[np.ndarray, ...]:
    """Clauses grouped into arrays of equal length, so a line maps its variables with one numpy lookup."""
    by_length: dict[int, list[list[int]]] = {}
    for clause in clauses:
        by_length.setdefault(len(clause), []).append(clause)
    return tuple(np.array(group, dtype=np.int64) for _, group in sorted(by_length.items()))


class Encoder:
    """Cell variables ``1..X*Y*Z`` (C order) plus per-line counters, fed into one solver.

    The clauses stay numpy arrays (one per line and clause length) until the
    solver reads them: a 40^3 box has millions of clauses, which as Python
    lists took gigabytes before the solver had seen one.
    """

    def __init__(self, size: Sequence[int]):
        self.size = tuple(int(s) for s in size)
        self.n_cells = int(np.prod(self.size))
        self.next_var = self.n_cells + 1
        self._blocks: list[np.ndarray] = []
        self._n_clauses = 0

    @property
    def clauses(self) -> Iterator[list[int]]:
        """Every clause as a list of literals, made one block at a time as the solver reads them."""
        for block in self._blocks:
            yield from block.tolist()

    def n_clauses(self) -> int:
        """How many clauses a solver made from these would read (what building it costs), counted as they are added."""
        return self._n_clauses

    def _add(self, block: np.ndarray) -> None:
        self._blocks.append(block)
        self._n_clauses += len(block)

    def add_clause(self, clause: Sequence[int]) -> None:
        self._add(np.array([clause], dtype=np.int64))

    def add_units(self, lits: np.ndarray) -> None:
        """One unit clause per literal of ``lits``."""
        self._add(np.asarray(lits, dtype=np.int64).reshape(-1, 1))

    def new_var(self) -> int:
        self.next_var += 1
        return self.next_var - 1

    def add_line(self, line: LineRef, clue: Clue3D, guard: Optional[int] = None) -> None:
        """Add the clauses of ``clue`` on ``line``; with ``guard``, constraints hold only if it is true."""
        cells = line_cells(self.size, line) + 1
        length = len(cells)
        defs, cons, last = _template(length, clue[0], clue[1])
        table = np.zeros(last + 1, dtype=np.int64)
        table[1 : length + 1] = cells
        n_aux = last - length
        table[length + 1 :] = np.arange(self.next_var, self.next_var + n_aux)
        self.next_var += n_aux
        small = np.int32 if self.next_var < 2**31 else np.int64
        for block in defs:
            self._add((np.sign(block) * table[np.abs(block)]).astype(small))
        for block in cons:
            mapped = np.sign(block) * table[np.abs(block)]
            if guard is not None:
                mapped = np.hstack([mapped, np.full((len(mapped), 1), -guard, dtype=np.int64)])
            self._add(mapped.astype(small))

    def cell_lit(self, x: int, y: int, z: int, value: int) -> int:
        X, Y, Z = self.size
        v = x * Y * Z + y * Z + z + 1
        return v if value else -v

    def block(self, cells: np.ndarray) -> list[int]:
        """The clause "some cell differs from ``cells``"."""
        flat = np.asarray(cells, dtype=bool).ravel()
        ids = np.arange(1, flat.size + 1)
        return np.where(flat, -ids, ids).tolist()

    def decode(self, model: Sequence[int]) -> np.ndarray:
        """The box a SAT model describes; a cell no clause mentions is not in the model and is empty.

        >>> Encoder((1, 1, 2)).decode([]).tolist()
        [[[False, False]]]
        """
        signed = np.asarray(model, dtype=np.int64)
        kept = signed[(signed > 0) & (signed <= self.n_cells)]
        cells = np.zeros(self.n_cells, dtype=bool)
        cells[kept - 1] = True
        return cells.reshape(self.size)


def encode(puzzle: Puzzle3D, *, deadline: Optional[Deadline] = None, known: Optional[np.ndarray] = None) -> Encoder:
    """Every shown clue of ``puzzle`` and its givens as unit clauses (Timeout at the deadline: a 40^3 box has 3,161
    lines).

    ``known`` (-1 undecided, 0 or 1 per cube) holds cubes every solution shares, as line logic finds them:
    they become unit clauses, and a line they decide completely needs no clauses (line logic read it last
    in that state and found it meets its clue), so only the residue is encoded.
    """
    enc = Encoder(puzzle.size)
    flat = None if known is None else np.asarray(known).ravel()
    for k, line in enumerate(all_lines(puzzle.size)):
        if deadline is not None and k % 64 == 0:
            deadline.check()
        clue = clue_at(puzzle, line)
        if clue is not None and (flat is None or (flat[line_cells(enc.size, line)] < 0).any()):
            enc.add_line(line, clue)
    for x, y, z, v in puzzle.givens:
        enc.add_clause([enc.cell_lit(x, y, z, v)])
    if flat is not None:
        ids = np.flatnonzero(flat >= 0)
        enc.add_units(np.where(flat[ids] > 0, ids + 1, -(ids + 1)))
    return enc
