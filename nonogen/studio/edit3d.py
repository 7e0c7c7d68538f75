"""The 3D editor's proof, run in a worker: after every edit of a level, its verdict, hidden clues and grade.

A level is a box of cubes, its clues (one per line), the clues it hides and
the cubes it reveals. The page holds all of it and sends it whole with every
edit, as the 2D editor does, so any worker can answer and none answers about
a level that is gone; the hidden clues it sends are the ones the last proof
chose. The proof keeps that choice as long as it holds:

1. The level with the kept hidden clues is proved once: line logic, and
   when it leaves cubes open, one incremental solver (:class:`_Rivals`). A
   one-cube edit changes the clues of three lines only, and the choice
   usually still holds: that is the whole answer for most edits (a 20-cube
   level: about 8 ms in the engine).
2. When it does not hold, every clue is shown: several solutions there mean
   the shape itself is ambiguous ("multiple": the cubes that differ between
   solutions, and a one-cube edit that settles them, follow).
3. Otherwise hidden clues are shown again, one at a time, each on a line
   where the rival solution (or what line logic leaves open, for a level that
   must stay line-solvable) differs from the goal, until it holds, each
   question asked of the same solver; only when that takes too many does
   hiding start afresh (:func:`~nonogen.make.hide3d.hide_clues`, the making
   pipeline's own, as it is for a new level).

Before 1 to 3, when line logic solved the level this worker last answered for
the same hidden clues (the page's previous edit), line logic alone goes
first: hidden clues are shown again where it leaves cubes open, until it
solves the level (unique, still line-solvable) or that takes more than
:data:`SHOW_AGAIN`. Only then is a solver built: building one was nine tenths
of the edits that broke the choice (0.1 s on a 20-cube level, 0.4 s on a
40-cube one), where a round of line logic takes 2 ms and 17 ms.

Each worker also keeps a small :class:`_Session` per level (the page names it):
the clue tables of the cells it last read, so an edit re-derives the clues
of the lines through the cubes it changed only. Everything else is the
engine's, called, never copied: verification, hiding, repair.
"""
from __future__ import annotations

import collections
import functools
import time
from typing import Any, Iterator, Optional

import numpy as np

from ..clues3d import LineRef, all_lines, clue_at, derive_clues_3d, line_cells, line_clue_3d
from ..make.hide3d import check_share, hide_clues
from ..make.repair3d import repair_givens
from ..model3d import Puzzle3D
from ..solve.cnf3d import Encoder, encode
from ..solve.deadline import Clock, Deadline, Timeout
from ..solve.grade3d import rate_passes
from ..solve.line3d import LineIndex3D, LinePasses
from ..solve.result import VerifyResult
from ..solve.sat import new_solver
from ..solve.verify3d import verify3d
from .document import palette_of
from .inputs import CUBE_CODES
from .limits import CHECK_SECONDS

__all__ = ["check_level", "level_of", "Proof", "lines_json"]

Message = dict[str, Any]

SESSIONS = 4
"""Levels whose clue tables a worker keeps (a few tabs' levels; a 40-cube level's tables are 4,800 clues)."""
REDERIVE = 64
"""An edit of more cubes than this (a box filled, an undo of many strokes) derives every clue again."""
SHOW_AGAIN = 24
"""Hidden clues shown again, at most, to keep the last choice; past it hiding starts afresh."""
TRIES = 48
"""One-cube edits tried when the shape is ambiguous, each a verification of the edited level."""
SUGGEST_SECONDS = 5.0
"""How long the ambiguous cubes and the edit that settles them may take (the verdict came before them)."""

_CODE = np.zeros(128, dtype=np.uint8)
_CODE[[ord(c) for c in CUBE_CODES]] = np.arange(len(CUBE_CODES), dtype=np.uint8)


def level_of(doc: dict[str, Any], session: Optional[_Session] = None) -> tuple[Puzzle3D, np.ndarray]:
    """The level of a document checked by :func:`.inputs.checked_level`, every clue shown, and its goal (the clues
    of the lines ``session`` has not seen change since its last level are its own, not derived again)."""
    colors = colors_of(doc)
    goal = colors > 0
    clues = session.clues_for(goal) if session is not None else derive_clues_3d(goal)
    givens = [(x, y, z, int(goal[x, y, z])) for x, y, z in doc["givens"]]
    meta = {key: doc[key] for key in ("title", "source", "author", "license") if doc.get(key)}
    meta.setdefault("title", "Level " + "x".join(map(str, goal.shape)))
    puzzle = Puzzle3D(goal.shape, clues, goal=goal, givens=givens, meta=meta,
                      palette=palette_of(doc["palette"]), colors=colors)
    return puzzle, goal


def colors_of(doc: dict[str, Any]) -> np.ndarray:
    """The ``(X, Y, Z)`` palette index of every cell (0: no cube) of a document's ``cells`` text."""
    return _CODE[np.frombuffer(doc["cells"].encode("ascii"), dtype=np.uint8)].reshape(doc["size"])


def lines_json(lines: Any) -> list[list[Any]]:
    return [[axis, int(i), int(j)] for axis, i, j in lines]


class _Session:
    """The clue tables of the cells a level had at its last check: an edit re-derives only the lines through the
    cubes it changed (three per cube), not the box's 4,800 (40 cubes a side)."""

    def __init__(self) -> None:
        self.goal: Optional[np.ndarray] = None
        self.clues: dict[str, list] = {}
        self.line_solved: Optional[frozenset[LineRef]] = None  # the hidden clues of its last answer, if line-solved
        self.index: Optional[LineIndex3D] = None  # line logic's index of its last level

    def index_for(self, full: Puzzle3D) -> LineIndex3D:
        """Line logic's index of ``full`` (every clue shown), the last one's cells and lines shared when the box is
        the same (:meth:`LineIndex3D.with_clues`)."""
        self.index = LineIndex3D(full) if self.index is None else self.index.with_clues(full)
        return self.index

    def clues_for(self, goal: np.ndarray) -> dict[str, list]:
        changed = None if self.goal is None or self.goal.shape != goal.shape else np.argwhere(self.goal != goal)
        if changed is None or len(changed) > REDERIVE:
            self.clues = {axis: [list(row) for row in table] for axis, table in derive_clues_3d(goal).items()}
        else:
            for x, y, z in changed.tolist():
                self.clues["x"][y][z] = line_clue_3d(goal[:, y, z])
                self.clues["y"][x][z] = line_clue_3d(goal[x, :, z])
                self.clues["z"][x][y] = line_clue_3d(goal[x, y, :])
        self.goal = goal.copy()
        return self.clues


_sessions: collections.OrderedDict[str, _Session] = collections.OrderedDict()


def _session(key: Any) -> _Session:
    """The worker's session of the level the page calls ``key`` (a new one when it has none; the oldest goes)."""
    key = str(key or "")
    found = _sessions.pop(key, None) or _Session()
    _sessions[key] = found
    while len(_sessions) > SESSIONS:
        _sessions.popitem(last=False)
    return found


def check_level(job: dict[str, Any]) -> Iterator[Message]:
    """The level's verdict with its hidden clues and grade; for an ambiguous shape then the ambiguous cubes and the
    edit that settles them (see the module's notes for the order of the questions)."""
    started = time.monotonic()
    doc, options = job["doc"], job["options"]
    check_share(options["hide"])
    session = _session(job.get("session"))
    full, goal = level_of(doc, session)
    proof = Proof(full, goal, Deadline(float(job.get("timeout") or CHECK_SECONDS)), index=session.index_for(full),
                  **options)
    kept = None if doc["hidden"] is None else [(axis, i, j) for axis, i, j in doc["hidden"]]
    line_first = bool(kept) and session.line_solved == frozenset(kept or ())
    for message in _answers(proof, full, goal, kept, doc, started, line_first):
        if "verdict" in message:  # an ambiguous shape keeps the hidden clues: line logic goes first after it too
            solved = message["verdict"] == "unique" and message.get("line_solvable")
            session.line_solved = (frozenset(tuple(line) for line in message["hidden"] or ()) if solved
                                   else session.line_solved if line_first and message["verdict"] == "multiple"
                                   else None)
        yield message


def _answers(proof: Proof, full: Puzzle3D, goal: np.ndarray, kept: Optional[list[LineRef]], doc: dict[str, Any],
             started: float, line_first: bool) -> Iterator[Message]:
    """:func:`check_level`'s answers, in the order the module's notes give."""
    if line_first and kept:
        proof.line_only = True
        first = proof.prove(kept)
        # showing clues again ends, at worst, with every clue shown: no use when line logic does not solve that
        found = proof.show_again(kept, first) if proof.holds(first) or proof.lines_solve_all() else None
        proof.line_only = proof.line_solvable
        if found is not None:
            shown, proved, how = found
            yield proof.verdict(proved, shown, "hidden clues kept" if len(shown) == len(kept) else how, started)
            return
    result = proof.prove(kept) if kept else None
    if result is not None and proof.holds(result):
        yield proof.verdict(result, kept, "hidden clues kept", started)
        return
    whole = proof.whole(result)
    if whole.status == "multiple":
        ambiguous = proof.verdict(whole, kept, "every clue shown: more than one solution", started)
        yield {**ambiguous, "hidden": doc["hidden"]}  # kept for the edit that settles it
        yield from proof.settle(whole)
        return
    if whole.status != "unique":
        yield {"verdict": whole.status, "message": whole.message, "hidden": doc["hidden"], "grade": None,
               "seconds": round(time.monotonic() - started, 4)}
        return
    if proof.line_solvable and whole.difficulty != "line":
        yield {**proof.verdict(whole, [], "line logic does not solve it with every clue shown: no clue hidden",
                               started), "hidden": None}
        fixed = repair_givens(full, timeout=proof.clock.left(), line_solvable=True)
        yield {"suggestion": {"edits": [], "givens": proof.new_givens(fixed.puzzle), "status": "unique",
                              "message": "reveal these cubes and line logic solves it"}}
        return
    found = proof.show_again(kept, result) if kept and result is not None else None
    hidden, result, how = found or proof.hide_anew()
    yield proof.verdict(result, hidden, how, started)


class Proof:
    """The questions about one level, every clue of ``full`` shown: with which hidden clues it is unique (and
    line-solvable when ``line_solvable``), and what an ambiguous one needs, all within ``clock``; ``hide`` is the
    share of clues to hide afresh (None: as many as keep it so)."""

    def __init__(self, full: Puzzle3D, goal: np.ndarray, clock: Deadline, *, hide: Optional[float] = None,
                 line_solvable: bool = False, index: Optional[LineIndex3D] = None):
        self.full, self.goal, self.clock, self.share, self.line_solvable = full, goal, clock, hide, line_solvable
        self.line_only = line_solvable  # only line logic's word counts (a question no solver is built for)
        self.rivals: Optional[_Rivals] = None  # made at the first question line logic leaves open
        self.index = index or LineIndex3D(full)  # line logic's index of every clue: a question names the hidden ones

    @functools.cached_property
    def all_shown(self) -> LinePasses:
        """Line logic's passes over the level with every clue shown."""
        return self.index.passes(self.full.givens, deadline=self.clock)

    def lines_solve_all(self) -> bool:
        """Whether line logic solves the level with every clue shown (False when out of time)."""
        try:
            return self.all_shown.solved
        except Timeout:
            return False

    def whole(self, kept: Optional[VerifyResult]) -> VerifyResult:
        """The level with every clue shown: unique, or its rival. When the kept hidden clues left a rival, the
        solver that found it answers (every guard on) instead of a new one of the whole box: a new solver was
        half of the answer to an edit that made the shape ambiguous (60 of 110 ms at 20 cubes). Its "unique"
        carries no grade: it is only asked whether to show clues again."""
        if kept is not None and kept.status == "multiple" and self.rivals is not None:
            found = self.rivals.ask(set(), Clock(self.clock.left()))
            if found is not None and found is not False:
                return VerifyResult("multiple", solution=self.goal, second_solution=found,
                                    message="at least two solutions")
            if found is False and not self.line_solvable:
                return VerifyResult("unique", solution=self.goal, message="unique")
        return verify3d(self.full, target=self.goal, grade=True, timeout=self.clock.left(), lines=self.index)

    def prove(self, hidden: Any) -> VerifyResult:
        """The level with ``hidden`` clues hidden: unique when line logic solves it (graded by the same passes),
        else as the rivals' solver says (:class:`_Rivals`); with ``line_solvable``, line logic's word is the answer
        (what it leaves open, in ``stats["open"]``, says where it stuck)."""
        hiding = set(hidden)
        try:
            passes = self.index.passes(self.full.givens, hidden=hiding, deadline=self.clock)
        except Timeout:
            return VerifyResult("timeout", message="no answer within the time limit (still reading the lines)")
        if passes.solved:
            return rate_passes(VerifyResult("unique", solution=self.goal, difficulty="line",
                                            message="unique; line logic solves it"), self.full, passes)
        if self.line_only:  # not an answer to hold: the cubes it left open say where to show a clue again
            return VerifyResult("timeout", message="line logic leaves cubes open", stats={"open": passes.cells})
        if self.rivals is None or not hiding <= self.rivals.hidden:
            self.rivals = _Rivals(self.full, self.goal, hiding, passes.cells)
        found = self.rivals.ask(hiding, Clock(self.clock.left()))
        if found is None:
            return VerifyResult("timeout", message="no answer within the time limit")
        if found is not False:
            return VerifyResult("multiple", solution=self.goal, second_solution=found, message="at least two solutions")
        return rate_passes(VerifyResult("unique", solution=self.goal, difficulty="search",
                                        message="unique; needs search beyond line logic"), self.full, passes)

    def holds(self, result: VerifyResult) -> bool:
        return result.status == "unique" and (not self.line_only or result.difficulty == "line")

    def show_again(self, kept: list[LineRef],
                   result: VerifyResult) -> Optional[tuple[list[LineRef], VerifyResult, str]]:
        """The kept hidden clues but those that must be shown again, one at a time, for the level to hold (``result``:
        what :meth:`prove` said of the kept ones): each on the line through the most cubes where the rival
        solution (or, for line logic, what it leaves open) differs from the goal. None when that takes more than
        :data:`SHOW_AGAIN` clues or leaves nothing to show."""
        hidden = dict.fromkeys(kept)
        for shown in range(SHOW_AGAIN + 1):
            if shown:
                result = self.prove(hidden)
            if self.holds(result):
                return list(hidden), result, f"{shown} hidden clue{'s' if shown != 1 else ''} shown again"
            if result.status == "multiple" and result.second_solution is not None:
                cells = np.argwhere(result.second_solution != self.goal)
            elif "open" in result.stats:  # line logic must solve it: a clue where it stuck
                cells = np.argwhere(result.stats["open"] < 0)
            else:
                return None
            line = _covering(cells, hidden)
            if line is None or self.clock.expired():
                return None
            del hidden[line]
        return None

    def hide_anew(self) -> tuple[list[LineRef], VerifyResult, str]:
        """Clues hidden afresh, as many as keep the level unique (the making pipeline's greedy hiding, seed 0)."""
        done = hide_clues(self.full, fraction=self.share, seed=0, line_solvable=self.line_solvable,
                          timeout=self.clock.left(0.5), lines=self.index)
        hidden = list(done.sequence)
        result = self.prove(hidden)
        if not self.holds(result):  # cut off by the time limit: every clue shown is what holds for sure
            hidden, result = [], self.prove([])
        return hidden, result, "clues hidden anew"

    def verdict(self, result: VerifyResult, hidden: Optional[list], how: str, started: float) -> Message:
        unique = result.status == "unique"
        return {
            "verdict": result.status, "message": result.message, "how": how,
            "hidden": None if hidden is None else lines_json(hidden),
            "clues_total": self.full.n_lines, "clues_hidden": len(hidden or []) if unique else None,
            "line_solvable": unique and result.difficulty == "line", "difficulty": result.difficulty,
            "grade": result.grade if unique else None, "score": result.score if unique else None,
            "grade_name": result.grade_name if unique else "not unique" if result.status == "multiple" else None,
            "ambiguous": [], "seconds": round(time.monotonic() - started, 4),
        }

    def settle(self, whole: VerifyResult) -> Iterator[Message]:
        """For an ambiguous shape: the cubes that differ between its solutions, then the edit that settles them."""
        clock = Deadline(min(SUGGEST_SECONDS, self.clock.remaining()))
        ambiguous, complete = self.ambiguous(whole, clock)
        yield {"ambiguous": ambiguous.tolist(), "complete": complete}
        yield {"suggestion": self.settling_edit(ambiguous, clock)}

    def ambiguous(self, whole: VerifyResult, clock: Deadline) -> tuple[np.ndarray, bool]:
        """The cubes some solution sets otherwise than the goal (``[x, y, z]`` rows), and whether all were asked.

        The rival the verdict found gives the first ones; each cube line logic
        left open and no solution found so far flips is then asked of one
        incremental solver (the goal's value assumed otherwise): a solution
        adds every cube it flips, none proves that cube settled.
        """
        flipped = np.asarray(whole.second_solution, dtype=bool) != self.goal
        known = self.index.fixpoint(self.full.givens)[0]
        encoded = encode(self.full, known=known)
        ask = Clock(clock.left())
        complete = True
        with new_solver("box", encoded.clauses) as solver:
            for cell in np.flatnonzero(known.ravel() < 0).tolist():
                if flipped.flat[cell]:
                    continue
                found = ask.solve(solver, [-(cell + 1) if self.goal.flat[cell] else cell + 1])
                if found is None:
                    complete = False
                    break
                if found:
                    flipped |= encoded.decode(solver.get_model()) != self.goal
        return np.argwhere(flipped), complete

    def settling_edit(self, ambiguous: np.ndarray, clock: Deadline) -> Message:
        """The one-cube edit (a cube added or removed where the solutions differ) that makes the shape unique, else
        the one whose rival differs from it in the fewest cubes; and the cubes to reveal instead."""
        best: Optional[tuple[int, list[int]]] = None
        for x, y, z in ambiguous[:TRIES].tolist():
            if clock.expired():
                break
            trial = self.goal.copy()
            trial[x, y, z] = not trial[x, y, z]
            result = verify3d(self._edited(trial, (x, y, z)), target=trial, grade=False, timeout=clock.left())
            edit = [x, y, z, int(trial[x, y, z])]
            if result.status == "unique":
                best = (0, edit)
                break
            if result.status == "multiple" and result.second_solution is not None:
                left = int(np.count_nonzero(result.second_solution != trial))
                if best is None or left < best[0]:
                    best = (left, edit)
        fixed = repair_givens(self.full, timeout=clock.left(0.5))
        givens = self.new_givens(fixed.puzzle) if fixed.unique else []
        if best is None:
            return {"edits": [], "givens": givens, "status": "multiple", "message": "no one-cube edit was found"}
        status = "unique" if best[0] == 0 else "multiple"
        return {"edits": [best[1]], "givens": givens, "status": status,
                "message": "" if status == "unique" else f"it settles most; {best[0]} cubes still differ"}

    def _edited(self, trial: np.ndarray, cell: tuple[int, int, int]) -> Puzzle3D:
        """The full level of ``trial`` (the goal with ``cell`` flipped): three lines' clues derived again."""
        x, y, z = cell
        clues = {axis: [list(row) for row in table] for axis, table in self.full.clues.items()}
        clues["x"][y][z] = line_clue_3d(trial[:, y, z])
        clues["y"][x][z] = line_clue_3d(trial[x, :, z])
        clues["z"][x][y] = line_clue_3d(trial[x, y, :])
        givens = [(gx, gy, gz, int(trial[gx, gy, gz])) for gx, gy, gz, _ in self.full.givens]
        return Puzzle3D(trial.shape, clues, goal=trial, givens=givens)

    def new_givens(self, fixed: Puzzle3D) -> list[list[int]]:
        have = {tuple(g[:3]) for g in self.full.givens}
        return [list(g[:3]) for g in fixed.givens if tuple(g[:3]) not in have]


class _Rivals:
    """One incremental solver for every "is there another solution with these clues hidden?" of one check.

    Each line's clue is guarded by a literal of its own (the encoding hiding
    uses), so a question names the shown lines as assumptions and the solver
    keeps what it learned; the goal is blocked, so a solution is a rival. The
    cubes line logic decided with the clues of ``hidden`` hidden are unit
    clauses, and lines they decide whole need none: they hold for any question
    that hides no more (showing clues again only decides more). Building it
    once per check, not once per question, is what keeps showing clues again
    cheap on a 40-cube level (a solver of its whole box costs 0.1 s to build).
    """

    def __init__(self, full: Puzzle3D, goal: np.ndarray, hidden: set[LineRef], known: Any):
        self.hidden = hidden
        self.known = np.asarray(known).ravel()
        flat = self.known
        self.encoder = Encoder(full.size)
        self.guard: dict[LineRef, int] = {}
        touched = [np.zeros(0, dtype=np.int64)]
        for line in all_lines(full.size):
            clue, cells = clue_at(full, line), line_cells(full.size, line)
            if clue is not None and (flat[cells] < 0).any():
                self.guard[line] = self.encoder.new_var()
                self.encoder.add_line(line, clue, self.guard[line])
                touched.append(cells)
        # the known cubes only where a clause reads them, and "a cube differs from the goal" over the open ones: the
        # known are the goal's in every rival, and a unit and a literal for each cube of the box were a third of the
        # clauses a solver was built from (an edit that broke the hidden clues of a 20-cube level waited 60 ms for it)
        read = np.unique(np.concatenate(touched))
        fixed = read[flat[read] >= 0]
        self.encoder.add_units(np.where(flat[fixed] > 0, fixed + 1, -(fixed + 1)))
        opened = np.flatnonzero(flat < 0)
        self.encoder.add_clause(np.where(np.asarray(goal).ravel()[opened], -(opened + 1), opened + 1).tolist())
        self.solver = new_solver("hiding", self.encoder.clauses)

    def ask(self, hidden: set[LineRef], clock: Clock) -> Any:
        """A rival with the clues of ``hidden`` hidden (a box), False when there is none, None out of time."""
        found = clock.solve(self.solver, [-g if line in hidden else g for line, g in self.guard.items()])
        if not found:
            return found
        box = self.encoder.decode(self.solver.get_model())
        return np.where(self.known.reshape(box.shape) >= 0, self.known.reshape(box.shape) > 0, box)

    def __del__(self) -> None:
        solver = getattr(self, "solver", None)  # None: its making failed
        if solver is not None:
            solver.delete()


def _covering(cells: np.ndarray, hidden: dict[LineRef, None]) -> Optional[LineRef]:
    """The hidden line through the most of ``cells`` (``[x, y, z]`` rows), the first such in their order; or None."""
    counts: collections.Counter[LineRef] = collections.Counter()
    for x, y, z in cells.tolist():
        for line in (("x", y, z), ("y", x, z), ("z", x, y)):
            if line in hidden:
                counts[line] += 1
    return counts.most_common(1)[0][0] if counts else None
