"""An engine session: one 2D puzzle's grid, line cache, fixpoints and encodings, asked many questions.

Making a puzzle asks the engine about the same clues again and again: is it
unique, which cells are ambiguous, how much would revealing this cell help,
is it unique with these givens. A :class:`Session` builds the line logic
(and its cache) once, keeps the line-logic fixpoint of the clues, and keeps
the probed state and SAT encoding of the last few sets of extra givens, so a
question costs only what is new about it.

Answers never depend on what was asked before: line logic reaches the same
fixpoint from any start above it, probing and encoding are deterministic
functions of the masks, and each question gets its own SAT solver. Only the
``work`` figure (line-solver runs, cache misses) is smaller when the cache is
warm.
"""
from __future__ import annotations

import os
import time
from collections import Counter, OrderedDict

from ..clues import clue_problems
from ..errors import PuzzleError
from ..grids import Rows, flat, rows_in, rows_of, split_rows, to_array
from ..model import Puzzle
from .check import checked, meets_clues
from .deadline import TIMEOUT, Deadline, Timeout, solve_limited
from .grade import rate
from .propagate import Contradiction, Grid, open_count as _open_count
from .result import VerifyResult

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from .cnf import Encoding
    from .result import Difficulty
    from typing import Any, MutableSequence, Optional, Sequence
    import numpy as np

__all__ = ["Session", "Given", "STRATEGIES"]

Given = tuple[int, int, int]
"""A revealed cell ``(row, col, colour)``."""

STRATEGIES = ("full", "line", "sat")

# Probing costs a full propagation per candidate value; it gets at most this
# share of the time left (and this many seconds). Cut short, SAT takes over
# from the facts found so far and stats["probing"] says "cut short".
PROBE_SHARE = 0.25
PROBE_MAX_SECONDS = 3.0

PROBE_CLAUSES = True  # give SAT probing's implications as binary clauses

_KEPT_STATES = 8  # probed states and encodings kept for the latest sets of givens


class _State:
    """What the engine knows under one set of extra givens."""

    __slots__ = ("masks", "open_after_line", "probed", "encoding", "implications")

    def __init__(self, masks: MutableSequence[int], open_after_line: int):
        self.masks = masks  # after line logic, then after probing once ``probed`` is set
        self.open_after_line = open_after_line
        self.probed: Optional[str] = None  # None (not yet), "complete" or "cut short"
        self.encoding: Optional[Encoding] = None  # of ``masks`` as they are now
        self.implications = b""  # what probing learned, as binary clauses for the encoding


class Session:
    """The engine state of one puzzle, kept across questions.

    ``counts`` says what the session has done: ``grids`` built, full
    ``propagations`` (every line queued), incremental ``propagations_from_givens``,
    ``probes`` and ``encodings``. Extra givens are ``(row, col, colour)``
    on top of the puzzle's own.
    """

    def __init__(self, puzzle: Puzzle, native: Optional[bool] = None):
        self.puzzle = puzzle
        self.grid = Grid(puzzle, native)
        self.counts: Counter = Counter(grids=1)
        self._base: Optional[MutableSequence[int]] = None
        self._base_error: Optional[Exception] = None
        self._states: OrderedDict[tuple[Given, ...], _State] = OrderedDict()
        self._fixpoints: OrderedDict[frozenset, MutableSequence[int]] = OrderedDict()  # line-logic masks by givens

    @property
    def n_lines(self) -> int:
        return self.puzzle.height + self.puzzle.width

    # -- line logic -------------------------------------------------------------------------

    def _base_masks(self, deadline: Deadline) -> MutableSequence[int]:
        """The line-logic fixpoint of the clues and the puzzle's own givens (computed once)."""
        if self._base_error is not None:
            raise self._base_error
        if self._base is None:
            masks = self.grid.masks[:]
            self.counts["propagations"] += 1
            try:
                self.grid.propagate(masks, range(self.n_lines), deadline)
            except Contradiction as exc:
                self._base_error = exc
                raise
            self._base = masks
        return self._base

    def line_masks(self, givens: Sequence[Given] = (), *,
                   deadline: Optional[Deadline] = None) -> MutableSequence[int]:
        """A copy of the line-logic fixpoint with ``givens`` revealed (Contradiction, Timeout).

        When the fixpoint without the last given is at hand (the greedy repair
        asks "and with one more?" over and over), only that given's row and
        column are run again: line logic is monotone, so the fixpoint is the
        same as from scratch.
        """
        deadline = deadline or Deadline(None)
        base = self._base_masks(deadline)
        if not givens:
            return base[:]
        key = frozenset(givens)
        if key in self._fixpoints:
            self._fixpoints.move_to_end(key)
            return self._fixpoints[key][:]
        start, new = base, list(givens)
        shorter = frozenset(givens[:-1])
        if shorter in self._fixpoints:  # a repair tries many next givens on one prefix: keep it cached
            self._fixpoints.move_to_end(shorter)
            start, new = self._fixpoints[shorter], [givens[-1]]
        masks = self._reveal(start[:], new, deadline)
        self._fixpoints[key] = masks
        while len(self._fixpoints) > _KEPT_STATES:
            self._fixpoints.popitem(last=False)
        return masks[:]

    def _reveal(self, masks: MutableSequence[int], givens: Sequence[Given],
                deadline: Deadline) -> MutableSequence[int]:
        W, H = self.puzzle.width, self.puzzle.height
        for r, c, v in givens:
            cell = r * W + c
            masks[cell] &= 1 << v
            if not masks[cell]:
                raise Contradiction()
        self.counts["propagations_from_givens"] += 1
        self.grid.propagate(masks, sorted({r for r, _, _ in givens} | {H + c for _, c, _ in givens}), deadline)
        return masks

    def decided(self, givens: Sequence[Given] = ()) -> "np.ndarray":
        """Cells line logic decides with ``givens`` revealed: colour indices, -1 where open."""
        return self.grid.to_array(self.line_masks(givens))

    def undecided_count(self, givens: Sequence[Given] = ()) -> int:
        """How many cells line logic leaves open with ``givens`` revealed: the greedy repair's score."""
        return _open_count(self.line_masks(givens))

    # -- the cached states ------------------------------------------------------------------

    def _state(self, givens: tuple[Given, ...], deadline: Deadline) -> _State:
        givens = tuple(sorted(givens))
        state = self._states.get(givens)
        if state is None:
            state = self._line_state(givens, deadline)
            self._states[givens] = state
            while len(self._states) > _KEPT_STATES:
                self._states.popitem(last=False)
        else:
            self._states.move_to_end(givens)
        return state

    def _line_state(self, givens: tuple[Given, ...], deadline: Deadline) -> _State:
        masks = self.line_masks(givens, deadline=deadline)
        return _State(masks, _open_count(masks))

    def _probe(self, state: _State, deadline: Deadline, stats: dict) -> bool:
        """Probe what line logic left open; True if that solves the puzzle (then it is unique).

        Probing only fixes cells that every solution shares, so whatever it
        fixes also shrinks the SAT problem. It gets at most a share of the
        time left; cut short, the facts found so far still stand, and the
        next question goes on from them.
        """
        if state.probed != "complete":
            budget = Deadline(min(PROBE_MAX_SECONDS, PROBE_SHARE * deadline.remaining())).earliest(deadline)
            start = time.monotonic()
            self.counts["probes"] += 1
            state.encoding = None  # probing narrows the masks the encoding was made of
            try:
                self.grid.probe(state.masks, budget)
                state.probed = "complete"
            except Timeout:
                state.probed = "cut short"
            finally:
                state.implications = self.grid.implications if PROBE_CLAUSES else b""
            stats["probe_seconds"] = round(time.monotonic() - start, 4)
        stats["probing"] = state.probed
        stats["undecided_after_probe"] = _open_count(state.masks)
        return not stats["undecided_after_probe"]

    def _encoding(self, state: _State, deadline: Deadline, stats: dict) -> Encoding:
        if state.encoding is None:
            _check_memory(self.grid, state.masks, len(state.implications) // 16)
            start = time.monotonic()
            self.counts["encodings"] += 1
            from .cnf import Encoding  # here: a puzzle line logic or a guess settles never needs SAT

            state.encoding = Encoding(self.grid, state.masks, deadline, state.implications)
            stats["encode_seconds"] = round(time.monotonic() - start, 4)
        stats["sat_vars"] = state.encoding.n_vars
        stats["sat_clauses"] = state.encoding.n_clauses
        return state.encoding

    # -- questions --------------------------------------------------------------------------

    def with_givens(self, givens: Sequence[Given]) -> Puzzle:
        """The puzzle with ``givens`` added to its own."""
        return self.puzzle.replace(givens=self.puzzle.givens + tuple(givens)) if givens else self.puzzle

    def verify(
        self,
        target: Any = None,
        *,
        givens: Sequence[Given] = (),
        timeout: Optional[float] = TIMEOUT,
        strategy: str = "full",
        grade: bool = True,
    ) -> VerifyResult:
        """Whether the puzzle with ``givens`` revealed has exactly one solution (see :func:`nonogen.solve.verify`).

        ``grade`` also rates how hard it is for a person, within what is left of ``timeout``.
        """
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}")
        start = time.monotonic()
        deadline = Deadline(timeout)
        runs_before = self.grid.line_runs
        result = self._verify(target, tuple(givens), deadline, strategy)
        runs = self.grid.line_runs - runs_before
        result.stats["line_runs"] = runs
        result.work = round(runs / self.n_lines, 2)
        if grade:
            rate(result, self.with_givens(givens), deadline=deadline, grid=self.grid)
        result.seconds = time.monotonic() - start
        return result

    def _verify(self, target, givens: tuple[Given, ...], deadline: Deadline, strategy: str) -> VerifyResult:
        # here, not in __init__: a repair's trial sessions never verify; the C module says at once when there are none
        problems = [] if self.grid.clues_fit() else clue_problems(self.puzzle)
        if problems:
            return VerifyResult("unsolvable", message="; ".join(problems))
        puzzle = self.with_givens(givens)
        reference = _reference(puzzle, target)
        stats: dict = {}
        if strategy == "sat":
            state = _State(_with_givens(self.grid, givens), -1)
        else:
            try:
                # "line" must not see what probing found for an earlier question: its own state
                state = self._state(givens, deadline) if strategy == "full" else self._line_state(givens, deadline)
            except Contradiction:
                return VerifyResult("unsolvable", difficulty="line",
                                    message="line logic finds no way to fill some line", stats=stats)
            except Timeout:
                return VerifyResult("timeout", message="gave up before line logic finished", stats=stats)
            if not state.open_after_line:  # not "no open cell now": an earlier question may have probed this state
                return self._solved(puzzle, state, "line", stats)
            stats["undecided_after_line"] = state.open_after_line
        if strategy == "full" and state.probed is None:  # a second solution cheaply, before probing
            from .shortcut import early_multiple  # here: line logic settles most puzzles first

            early, reference = early_multiple(puzzle, self.grid, state, reference, deadline, stats)
            if early is not None:
                return early
        if strategy == "full":
            try:
                if self._probe(state, deadline, stats):
                    return self._solved(puzzle, state, "probe", stats)
            except Contradiction:
                return VerifyResult("unsolvable", difficulty="probe", message="probing finds no way to fill some line",
                                    stats=stats)
        try:
            status, first, second = self._search(state, reference, deadline, stats)
        except Timeout:
            return VerifyResult("timeout", message="gave up during SAT search", stats=stats)
        except TooBig as exc:
            return VerifyResult("timeout", message=str(exc), stats=stats)
        except Contradiction:  # a line the encoder finds impossible: probing was cut short, or "sat" skipped line logic
            difficulty: Optional[Difficulty] = "probe" if strategy == "full" else None
            return VerifyResult("unsolvable", difficulty=difficulty, message="some line cannot be filled", stats=stats)
        first = None if first is None else checked(puzzle, first)
        second = None if second is None else checked(puzzle, second)
        # "sat" rates nothing; "line" does not probe, so a unique puzzle line logic leaves open stays unrated.
        difficulty = "search" if strategy == "full" or (strategy == "line" and status != "unique") else None
        return VerifyResult(status, solution=first, second_solution=second, difficulty=difficulty, stats=stats)

    def _solved(self, puzzle: Puzzle, state: _State, difficulty: Difficulty, stats: dict) -> VerifyResult:
        solution = checked(puzzle, self.grid.solved_rows(state.masks))
        return VerifyResult("unique", solution=solution, difficulty=difficulty, stats=stats)

    def _search(self, state: _State, reference, deadline: Deadline, stats: dict):
        """SAT on the residue: returns (status, first solution, second solution).

        A reference (a target, or a guessed solution) is blocked, and belief propagation leads the search for another.
        """
        from .search import first_solution  # here: see _encoding

        enc = self._encoding(state, deadline, stats)
        with enc.new_solver(deadline) as solver:
            if reference is not None:
                solver.add_clause(enc.blocking_clause(reference))
                if not first_solution(solver, enc, deadline, stats):
                    return "unique", reference, None
                return "multiple", reference, enc.decode(solver.get_model())
            if not first_solution(solver, enc, deadline, stats):
                return "unsolvable", None, None
            model = solver.get_model()
            first = enc.decode(model)
            solver.add_clause(enc.blocking_clause(first))
            solver.set_phases(model)  # a second solution is usually a few cells away from the first
            if not solve_limited(solver, deadline):
                return "unique", first, None
            return "multiple", first, enc.decode(solver.get_model())

    def ambiguity(
        self, reference: Any, *, givens: Sequence[Given] = (), timeout: Optional[float] = TIMEOUT
    ) -> tuple["np.ndarray", bool]:
        """The ambiguous cells found within ``timeout`` (a boolean grid), and whether that is all of them.

        See :meth:`ambiguous_cells`, which gives them as ``(row, col)`` pairs without numpy.
        """
        cells, complete = self.ambiguous_cells(reference, givens=givens, timeout=timeout)
        width = self.puzzle.width
        flags = bytearray(self.puzzle.height * width)
        for r, c in cells:
            flags[r * width + c] = 1
        return to_array(split_rows(flags, width)).astype(bool), complete

    def ambiguous_cells(
        self, reference: Any, *, givens: Sequence[Given] = (), timeout: Optional[float] = TIMEOUT
    ) -> tuple[list[tuple[int, int]], bool]:
        """The ambiguous cells found within ``timeout``, as ``(row, col)`` in reading order, and whether that is all.

        Line logic and probing fix most backbone cells for free (on TAAI 2011
        puzzle 100, all but 23 of the 588 that line logic leaves open). The rest
        are settled one at a time by one incremental solver: "is there a solution
        where this cell differs from ``reference``?" A solution marks every cell
        where it differs, and the next search starts from it (its phases), where
        another solution is usually close. A refusal proves the cell is in the
        backbone; it becomes a unit clause that every later search profits from.
        On the hardest TAAI puzzles this takes 7-21 s where asking "does any
        remaining cell differ?" took 17-32 s. On a timeout the cells found so
        far are returned with ``False``: each of them is certainly ambiguous.
        """
        givens = tuple(givens)
        reference = rows_of(reference)
        if not meets_clues(self.with_givens(givens), reference):
            raise PuzzleError("the reference grid does not meet the puzzle's clues")
        deadline = Deadline(timeout)
        values = flat(reference)
        ambiguous = bytearray(len(values))
        complete = True
        try:
            state = self._state(givens, deadline)
            if _open_count(state.masks):
                self._probe(state, deadline, {})
            candidates = self.grid.undecided(state.masks)
            if candidates:
                self._scan(self._encoding(state, deadline, {}), values, candidates, ambiguous, deadline)
        except (Timeout, TooBig):
            complete = False
        width = self.puzzle.width
        return [divmod(i, width) for i, flag in enumerate(ambiguous) if flag], complete

    def _scan(self, enc: Encoding, values: bytes, candidates: list[int], ambiguous: bytearray,
              deadline: Deadline) -> None:
        with enc.new_solver(deadline) as solver:
            solver.set_phases(enc.phases(values))
            while candidates:
                cell, candidates = candidates[0], candidates[1:]
                same = enc.lit(cell, values[cell])
                if solve_limited(solver, deadline, [-same]):
                    model = solver.get_model()
                    other = flat(enc.decode(model))
                    ambiguous[cell] = 1
                    for i in candidates:  # only open cells can differ: the rest are backbone
                        if other[i] != values[i]:
                            ambiguous[i] = 1
                    solver.set_phases(model)
                    candidates = [i for i in candidates if not ambiguous[i]]
                else:
                    solver.add_clause([same])


class TooBig(Exception):
    """The SAT encoding would not fit in the memory a puzzle may take: a verdict out of reach."""


MEMORY_SHARE = 0.25  # of the machine's memory (or of the address-space limit) one encoding may take


def memory_budget() -> float:
    """Bytes one puzzle's SAT encoding may take: a share of physical memory, or of RLIMIT_AS when set."""
    import resource  # here: only a puzzle bound for SAT asks

    total = float(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit != resource.RLIM_INFINITY:
        total = min(total, 2.0 * limit)  # the limit is for the whole process: half of it for the encoding
    return MEMORY_SHARE * total


def _check_memory(grid: Grid, masks, extra: int) -> None:
    """Refuse an encoding that would swap (or hit the worker's limit) before building any of it.

    ``extra`` clauses come on top of the lines' (probing's implications, one clause each at most).
    """
    from .cnf import BYTES_PER_CLAUSE, estimated_clauses  # here: see Session._encoding

    clauses = estimated_clauses(grid, masks) + extra
    need, budget = clauses * BYTES_PER_CLAUSE, memory_budget()
    if need > budget:
        raise TooBig(f"the SAT encoding would need about {need / 1e9:.1f} GB ({clauses:,} clauses), "
                     f"more than the {budget / 1e9:.1f} GB one puzzle may take")


def _with_givens(grid: Grid, givens: Sequence[Given]) -> MutableSequence[int]:
    """The grid's starting masks with ``givens`` fixed (no line logic: the SAT-only baseline)."""
    masks = grid.masks[:]  # the puzzle's own givens are in already
    for r, c, v in givens:
        masks[r * grid.width + c] &= 1 << v
    return masks


def _reference(puzzle: Puzzle, target: Any) -> Optional[Rows]:
    """The grid whose uniqueness is asked: the target, else the puzzle's goal when it meets the clues."""
    if target is not None:
        try:
            target = rows_of(target)
        except (ValueError, TypeError):
            raise PuzzleError("the target must be a 2D grid of colour indices") from None
        if not meets_clues(puzzle, target):
            raise PuzzleError("the target grid does not meet the puzzle's clues")
        return target
    goal = rows_in(puzzle, "goal")
    if goal is not None and meets_clues(puzzle, goal):
        return goal
    return None
