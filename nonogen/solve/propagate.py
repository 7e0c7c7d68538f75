"""Line logic to a fixpoint, and probing, over a grid of per-cell colour masks.

The grid state is a flat sequence of bit masks (bit ``a`` set: colour ``a``
still possible). Lines are solved from a queue: only lines that lost a
possibility are solved again, and line results are cached by (clue, masks),
which hits often because probing asks the same line questions again and again.

The work is done by the C module ``_linelogic`` when it is built; this module
keeps the same algorithms in Python as the reference and the fallback.
"""
from __future__ import annotations

import os
import sys
from array import array
from collections import deque

from ..grids import Rows, split_rows, to_array
from ..model import Puzzle
from .deadline import Deadline, Timeout

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import MutableSequence, Optional, Sequence
    import numpy as np

try:  # the C version of this module's line logic; optional (see pyproject.toml)
    from . import _linelogic  # type: ignore[attr-defined]  # a C module: mypy reads no .so
except ImportError:  # pragma: no cover - built without a C compiler
    _linelogic = None

__all__ = ["Grid", "Contradiction", "NATIVE", "open_count"]

#: Whether grids use the C line logic by default. ``NONOGEN_PURE_PYTHON=1`` turns it off
#: (the benchmark's baseline; the tests compare both).
NATIVE = _linelogic is not None and not os.environ.get("NONOGEN_PURE_PYTHON")


class Contradiction(Exception):
    """Some line has no placement left: the current assumptions admit no solution."""


class Grid:
    """A puzzle's lines as automata over a flat list of cell masks, with the propagation state.

    Lines ``0..H-1`` are the rows, ``H..H+W-1`` the columns. ``line_runs``
    counts line-solver runs, the work figure of the difficulty rating.

    With ``native`` (the default when the C module is built and the palette
    has at most 32 colours) the masks are an ``array('I')`` and the C module
    does the line logic; otherwise a list and the Python automata. Copy masks
    with ``masks[:]``, which keeps the type.
    """

    def __init__(self, puzzle: Puzzle, native: Optional[bool] = None):
        self.puzzle = puzzle
        self.height, self.width = puzzle.height, puzzle.width
        self._slices: Optional[list[slice]] = None
        self._cells: Optional[list[range]] = None
        self.cache: dict = {}
        self._runs = 0
        #: What the last probe learned, for the encoder: "cell has colour a" rules out colour b of
        #: another cell (int32 quadruples; C module only, see record_implications in propagate.c).
        self.implications = b""
        self._native = self._native_lines(puzzle) if (NATIVE if native is None else native) else None
        automata: dict = {}  # the Python line logic's automata, shared by equal clues
        if self._native is None:
            from .line import LineAutomaton  # here: the C module reads the lines when it is built

            self.automata = [automata.setdefault(c, LineAutomaton(c)) for c in puzzle.rows + puzzle.cols]
        else:
            self.automata = []
        self.masks: MutableSequence[int] = self._initial_masks() if self._native is None else self._native_masks()

    @property
    def slices(self) -> list[slice]:
        """Each line's cells as a slice of the flat masks (made on first use: the C line logic never asks)."""
        if self._slices is None:
            H, W = self.height, self.width
            self._slices = [slice(r * W, (r + 1) * W) for r in range(H)] + [slice(c, H * W, W) for c in range(W)]
        return self._slices

    @property
    def cells(self) -> list[range]:
        """Each line's cell indices, in order (made on first use)."""
        if self._cells is None:
            self._cells = [range(self.height * self.width)[s] for s in self.slices]
        return self._cells

    @staticmethod
    def _native_lines(puzzle: Puzzle):
        """The C line logic for this puzzle, or ``None`` when it cannot take it."""
        lines = puzzle.rows + puzzle.cols
        if _linelogic is None or len(puzzle.palette) > 32:
            return None
        try:
            return _linelogic.Lines(puzzle.height, puzzle.width, lines)
        except ValueError:  # a clue with more blocks than cells: Python finds the contradiction
            return None

    @property
    def native(self) -> bool:
        return self._native is not None

    @property
    def c_lines(self):
        """The C module's line logic of this grid (``None`` without it), for a caller that drives it directly:
        the grade's replay runs whole passes there."""
        return self._native

    def clues_fit(self) -> bool:
        """True when :func:`nonogen.clues.clue_problems` is sure to find nothing (asked of the C module; without it,
        False: the caller asks clue_problems itself)."""
        return self._native is not None and self._native.clues_fit()

    @property
    def line_runs(self) -> int:
        return self._runs + (self._native.line_runs if self._native is not None else 0)

    def _initial_masks(self) -> list[int]:
        """Background plus the colours both the row and the column clue use; givens fixed."""
        p = self.puzzle
        row_colors = [sum(1 << c for c in {c for _, c in line}) for line in p.rows]
        col_colors = [sum(1 << c for c in {c for _, c in line}) for line in p.cols]
        rows_alike: dict[int, list[int]] = {}  # rows using the same colours start alike: built once per kind
        masks = []
        for colors in row_colors:
            if colors not in rows_alike:
                rows_alike[colors] = [1 | (colors & col) for col in col_colors]
            masks.extend(rows_alike[colors])
        for r, c, v in p.givens:
            masks[r * self.width + c] &= 1 << v
        return masks

    def _native_masks(self) -> array:
        """:meth:`_initial_masks` from the C module, as its ``array('I')``."""
        assert self._native is not None  # C module only
        masks = array("I")
        masks.frombytes(self._native.initial_masks())
        for r, c, v in self.puzzle.givens:
            masks[r * self.width + c] &= 1 << v
        return masks

    # -- line logic ---------------------------------------------------------------------------

    def solve_line(self, line: int, current: tuple[int, ...]) -> Optional[tuple[int, ...]]:
        """Narrowed masks of one line from its ``current`` masks, or ``None`` on contradiction.

        The C module's line solver when the grid uses it, else the Python automaton (cached).
        """
        if self._native is not None:
            puzzle = self.puzzle
            clue = puzzle.rows[line] if line < self.height else puzzle.cols[line - self.height]
            return _linelogic.solve_line(clue, current)
        auto = self.automata[line]
        key = (id(auto), current)
        try:
            return self.cache[key]
        except KeyError:
            pass
        self._runs += 1
        result = auto.live_states(current)
        narrowed = None if result is None else tuple(result[1])
        self.cache[key] = narrowed
        return narrowed

    def propagate(self, masks: MutableSequence[int], lines, deadline: Deadline) -> list[int]:
        """Run line logic from ``lines`` to a fixpoint, narrowing ``masks`` in place.

        Returns the cells that changed. Raises :class:`Contradiction` when a line
        has no placement, :class:`~nonogen.solve.deadline.Timeout` when the deadline passes.
        """
        if self._native is not None:
            return _native_call(self._native.propagate, masks, list(lines), _end(deadline))
        H, W = self.height, self.width
        queue = deque(lines)
        queued = set(queue)
        changed: list[int] = []
        steps = 0
        while queue:
            line = queue.popleft()
            queued.discard(line)
            steps += 1
            if steps & 63 == 0:
                deadline.check()
            current = tuple(masks[self.slices[line]])
            narrowed = self.solve_line(line, current)
            if narrowed is None:
                raise Contradiction()
            if narrowed == current:
                continue
            for cell, old, new in zip(self.cells[line], current, narrowed, strict=True):
                if old != new:
                    if not new:
                        raise Contradiction()
                    masks[cell] = new
                    changed.append(cell)
                    other = H + cell % W if line < H else cell // W
                    if other not in queued:
                        queued.add(other)
                        queue.append(other)
        return changed

    def undecided(self, masks: Sequence[int]) -> list[int]:
        return [i for i, m in enumerate(masks) if m & (m - 1)]

    def encode_native(self, masks, deadline: Optional[Deadline],
                      implications: bytes = b"") -> tuple[int, bytes, int, list[int], bytes]:
        """The C module's CNF of the residue: ``(n_vars, flat clauses, clause count, first variable of each cell,
        ladders)``.

        The flat clauses are int32 literals with a 0 after each clause; the ladders, int32
        ``(line, block, lo, hi, first variable)`` of each block's "starts at or after k" variables.

        ``implications`` (from :attr:`implications` after :meth:`probe`) become binary clauses.
        """
        assert self._native is not None
        return _native_call(self._native.encode, masks, _end(deadline), implications)

    def beliefs(self, masks, messages, colours: int, rounds: int, damping: float, deadline: Deadline) -> bytes:
        """Each cell's likeliest colour after ``rounds`` more rounds of belief propagation (C module only).

        ``messages`` (an ``array('d')`` of ``2 * cells * colours``, zeros at first) carries the
        state from one call to the next. See :mod:`nonogen.solve.search`.
        """
        assert self._native is not None
        return _native_call(self._native.bp, masks, messages, colours, rounds, damping, _end(deadline))

    def ladder_phases(self, masks, messages, colours: int, ladders: bytes) -> bytes:
        """Phases (int32 literals) of the encoding's block-start variables from the beliefs in ``messages``."""
        assert self._native is not None
        return self._native.ladder_phases(masks, messages, colours, ladders)

    def block_starts(self, masks: Sequence[int], line: int) -> list[list[int]]:
        """The cells where each block of ``line`` can still start, for the Python encoder (no C module)."""
        auto = self.automata[line]
        domain = [masks[i] for i in self.cells[line]]
        result = auto.live_states(domain)
        if result is None:
            raise Contradiction()
        live = result[0]
        # Block i starts at t when a run reads its colour at t going from its first state to the next.
        return [
            [
                t
                for t in range(len(domain))
                if (live[t] >> state) & 1 and (live[t + 1] >> (state + 1)) & 1 and (domain[t] >> color) & 1
            ]
            for state, (_, color) in zip(auto.starts, auto.clue, strict=True)
        ]

    # -- probing ------------------------------------------------------------------------------

    def probe(self, masks: MutableSequence[int], deadline: Deadline) -> bool:
        """Probe every undecided cell until nothing more follows; True if the grid got solved.

        For each value of a cell: assume it and propagate. A contradiction
        removes the value; what every surviving branch agrees on is kept too.
        Only the cells a branch changed can hold such agreements, so the
        branches are compared on those cells alone.
        """
        if self._native is not None:
            try:
                return _native_call(self._native.probe, masks, _end(deadline))
            finally:
                self.implications = self._native.implications()
        H, W = self.height, self.width
        progress = True
        while progress:
            progress = False
            for cell in self.undecided(masks):
                mask = masks[cell]
                if not mask & (mask - 1):
                    continue
                deadline.check()
                agreed: Optional[dict[int, int]] = None
                for value in _bits(mask):
                    trial = masks[:]
                    trial[cell] = value
                    try:
                        changed = self.propagate(trial, (cell // W, H + cell % W), deadline)
                    except Contradiction:
                        continue
                    branch = {i: trial[i] for i in changed}
                    branch[cell] = value
                    if agreed is None:
                        agreed = branch
                    else:
                        agreed = {i: m | branch[i] for i, m in agreed.items() if i in branch}
                if agreed is None:
                    raise Contradiction()
                narrowed = [i for i, m in agreed.items() if m != masks[i]]
                if narrowed:
                    for i in narrowed:
                        masks[i] = agreed[i]
                    lines = {i // W for i in narrowed} | {H + i % W for i in narrowed}
                    self.propagate(masks, lines, deadline)
                    progress = True
        return not self.undecided(masks)

    def refutations(self, masks, deadline: Deadline) -> dict[int, int]:
        """The values of open cells that line logic refutes on its own: ``{cell: values}``, in cell order.

        Each value of each open cell is assumed in turn and propagated from
        the cell's row and column; nothing is applied (the grade's lookahead
        sweep rules them all out at once). ``masks`` must be a line-logic
        fixpoint, as the sweep's are: the C module then skips values an
        earlier trial showed consistent, and when the masks lie below those
        of its last call (the next sweep's do) it starts each trial from
        where that call's left off (refute.c). Raises Timeout at the deadline.
        """
        if self._native is not None:
            found = array("i", _native_call(self._native.refutations, masks, _end(deadline)))
            return dict(zip(found[::2], found[1::2], strict=True))
        H, W = self.height, self.width
        ruled_out: dict[int, int] = {}
        for cell in self.undecided(masks):
            for value in _bits(masks[cell]):
                deadline.check()
                trial = masks[:]
                trial[cell] = value
                try:
                    self.propagate(trial, (cell // W, H + cell % W), deadline)
                except Contradiction:
                    ruled_out[cell] = ruled_out.get(cell, 0) | value
        return ruled_out

    def forget_refutations(self) -> None:
        """Drop what :meth:`refutations` keeps for the next sweep (megabytes on a big grid): the sweeps are over."""
        if self._native is not None:
            self._native.forget_sweeps()

    def two_solutions(self, masks, budget: int, steps: int, deadline: Deadline) -> tuple[list[bytes], bool, bool]:
        """Up to two solutions (colour bytes, row-major) by depth-first search with line logic, whether the
        search was exhaustive, and whether the second is the first with four cells swapped (C module only;
        see :mod:`nonogen.solve.shortcut`).

        ``masks`` must be a line-logic fixpoint; they are left as they were. The search stops after
        ``budget`` assumptions or ``steps`` of line work (a step per line, more for long lines of many
        blocks). Raises :class:`~nonogen.solve.deadline.Timeout` at the deadline.
        """
        assert self._native is not None
        joined, exhausted, swapped = _native_call(self._native.two_solutions, masks, budget, steps, _end(deadline))
        n = self.height * self.width
        return [joined[i:i + n] for i in range(0, len(joined), n)], exhausted, swapped

    def solved_rows(self, masks: Sequence[int]) -> Rows:
        """The colour of every cell of a solved state, row by row.

        The C module's masks of a palette of up to 8 colours are read a byte a cell and translated at C speed
        (a Python step per cell was a twentieth of a small colour puzzle's verdict).
        """
        if isinstance(masks, array) and len(self.puzzle.palette) <= 8 and _LITTLE_ENDIAN:
            return split_rows(masks.tobytes()[::4].translate(_COLOUR_OF_BIT), self.width)
        return split_rows(bytes(m.bit_length() - 1 for m in masks), self.width)

    def to_array(self, masks: Sequence[int]) -> "np.ndarray":
        """Decided cells as colour indices, undecided as -1 (255 on the way: no palette reaches it)."""
        values = bytes(m.bit_length() - 1 if m and not m & (m - 1) else 255 for m in masks)
        out = to_array(split_rows(values, self.width)).astype("int16")
        out[out == 255] = -1
        return out


_LITTLE_ENDIAN = sys.byteorder == "little"  # then a uint32 mask under 256 is its first byte
_COLOUR_OF_BIT = bytes(max(m.bit_length() - 1, 0) for m in range(256))
"""The colour of a one-bit mask (its highest bit for any other): what :meth:`Grid.solved_rows` reads."""


def open_count(masks: Sequence[int]) -> int:
    """How many cells still have two or more colours: the C module's masks (an ``array('I')``) in one C pass,
    a list as all but the cells with one bit, counted per distinct mask (a Python loop over the cells was a
    third of a photo's repair)."""
    if isinstance(masks, array) and _linelogic is not None:
        return _linelogic.open_count(masks)
    return len(masks) - sum(masks.count(m) for m in set(masks) if not m & (m - 1))


def _native_call(method, *args):
    """Call the C module; its ``TimeoutError`` becomes :class:`Timeout`, its ``None`` a :class:`Contradiction`."""
    try:
        result = method(*args)
    except TimeoutError:
        raise Timeout() from None
    if result is None:
        raise Contradiction()
    return result


def _end(deadline: Optional[Deadline]) -> float:
    """The deadline as the C module takes it: a ``time.monotonic()`` value, or -1 for none."""
    return -1.0 if deadline is None or deadline.end is None else deadline.end


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low
        mask ^= low
