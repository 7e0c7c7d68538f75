"""Box of cubes -> Picross 3D level: prove the full clue set unique (or repair it), then hide clues.

The twin of :mod:`nonogen.make.picture`: import, check, repair, hide, grade,
report, and the same result (:class:`~nonogen.made.Made`). All the solving
goes through the engine (:mod:`nonogen.solve`); this module only decides what
to ask it. Line logic's questions about one shape share one
:class:`~nonogen.solve.line3d.LineIndex3D`.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from ..clues3d import puzzle3d_from_cells
from ..errors import OptionError
from ..made import Made
from ..model3d import Puzzle3D
from ..palette import Color
from ..solve.deadline import Deadline
from ..solve.grade3d import rate3d
from ..solve.line3d import LineIndex3D
from ..solve.result import VerifyResult
from ..solve.verify3d import verify3d
from .hide3d import check_share, hide_clues, hide_to_grade
from .repair3d import repair_edit, repair_givens

__all__ = ["make_level", "from_mesh", "REPAIR_MODES", "GRADES_3D"]

REPAIR_MODES = ("givens", "edit", "off")
GRADES_3D = (1, 2, 3, 5)
"""Grades a level can aim at: 1-3 are line-solvable levels by the length of their chains, 5 needs more."""

Progress = Optional[Callable[[int, int], None]]


def make_level(
    cells: np.ndarray,
    *,
    palette: Optional[Sequence[Color]] = None,
    colors: Optional[np.ndarray] = None,
    unique: str = "givens",
    hide: Optional[float] = None,
    seed: int = 0,
    line_solvable: bool = False,
    grade: Optional[int] = None,
    timeout: float = 300.0,
    on_progress: Progress = None,
    title: Optional[str] = None,
    source: Optional[str] = None,
) -> Made:
    """Turn a box of cubes into a level: check the FULL clue set, repair if asked, then hide clues.

    ``palette`` and ``colors`` (a colour index per cube) paint the cubes.
    ``unique`` is ``'givens'`` (reveal a few cubes), ``'edit'`` (change a few
    cubes of the shape) or ``'off'`` (only report). ``hide`` is the target
    share of hidden clues (``None``: as many as possible). With
    ``line_solvable`` the level must stay solvable by line logic alone.
    ``grade`` (1, 2, 3 or 5) chooses how many clues to hide so that the
    level lands on that grade; grades 1-3 are line-solvable levels, so it
    implies ``line_solvable``; ``hide`` is then ignored. ``on_progress(done,
    total)`` follows the clues being hidden, the long part on big boxes.

    >>> cells = np.zeros((3, 3, 2), dtype=bool); cells[:, 2, :] = True; cells[0, :, 0] = True
    >>> made = make_level(cells, title="Step")
    >>> made.report["status"], made.report["clues_hidden"] > 0
    ('unique', True)
    """
    if unique not in REPAIR_MODES:
        raise OptionError("unique", unique, " or ".join(REPAIR_MODES))
    if grade is not None and grade not in GRADES_3D:
        raise OptionError("grade", grade, "1-3 (line logic alone) or 5 (beyond line logic) for Picross 3D levels")
    check_share(hide)
    clock = Deadline(timeout)
    meta = {k: v for k, v in (("title", title or f"Level {'x'.join(map(str, np.shape(cells)))}"), ("source", source))
            if v is not None}
    puzzle = puzzle3d_from_cells(cells, **meta)
    if palette is not None:
        puzzle = puzzle.replace(palette=tuple(palette), colors=colors)
    line_solvable = line_solvable or (grade is not None and grade <= 3)  # grades 1-3 are line-solvable levels
    level = _Level(puzzle, clock, seed)
    level.check_and_repair(unique, line_solvable)
    level.hide(hide, grade, line_solvable, on_progress)
    return Made(level.puzzle, np.asarray(level.puzzle.goal, dtype=bool), level.report())


class _Level:
    """One level being made: the puzzle so far, its line index, and what was done to it."""

    def __init__(self, puzzle: Puzzle3D, clock: Deadline, seed: int):
        self.puzzle, self.clock, self.seed = puzzle, clock, seed
        self.lines = LineIndex3D(puzzle)
        self.calls, self.total = 0, puzzle.n_lines
        self.hidden: list = []  # the hidden lines, in the order they were hidden
        self.edits: list = []
        self.notes: list[str] = []
        self.status = self.full_status = "timeout"

    def solved_by_lines(self) -> bool:
        return self.lines.fixpoint(self.puzzle.givens)[1]

    def check_and_repair(self, unique: str, line_solvable: bool) -> None:
        """Prove the full clue set; repair the shape or reveal cubes as ``unique`` says."""
        full = verify3d(self.puzzle, target=self.puzzle.goal, timeout=self.clock.left(0.5), grade=False,
                        lines=self.lines)
        self.calls += full.stats.get("solver_calls", 0)
        self.status = self.full_status = full.status
        self.notes.append(f"every clue shown: {full.status}"
                          + (f" ({full.difficulty} logic)" if full.difficulty else ""))
        if full.status == "multiple" and unique == "edit":
            self._edit()
        by_lines = self.status == "unique" and (self.solved_by_lines() if self.edits else full.difficulty == "line")
        needs_givens = full.status == "multiple" and unique == "givens"
        if (unique != "off" and self.status in ("unique", "multiple")
                and (needs_givens or (line_solvable and not by_lines))):
            self._reveal(line_solvable)

    def _edit(self) -> None:
        fixed = repair_edit(self.puzzle, timeout=self.clock.left(0.5), seed=self.seed)
        self.calls += fixed.stats.get("solver_calls", 0)
        self.edits, self.puzzle = fixed.edits, fixed.puzzle
        self.lines = LineIndex3D(fixed.puzzle)  # a new shape has new clues
        self.status = "unique" if fixed.unique else ("timeout" if self.clock.expired() else "multiple")
        self.notes.append(f"edited {len(self.edits)} cube(s) to make the shape unique" if fixed.unique
                          else f"could not make the shape unique with {len(self.edits)} edit(s)")

    def _reveal(self, line_solvable: bool) -> None:
        fixed = repair_givens(self.puzzle, timeout=self.clock.left(0.5), seed=self.seed, line_solvable=line_solvable,
                              lines=self.lines)
        self.calls += fixed.stats.get("solver_calls", 0)
        if fixed.unique:
            self.puzzle, self.status = fixed.puzzle, "unique"
            why = "line logic solves it" if line_solvable else "it is unique"
            self.notes.append(f"revealed {len(fixed.givens)} cube(s) as givens so that {why}")
        else:
            self.status = "timeout"

    def hide(self, share: Optional[float], grade: Optional[int], line_solvable: bool, on_progress: Progress) -> None:
        """Hide clues while the level stays unique (and line-solvable when asked), or say why none were."""
        if self.status == "multiple":
            self.notes.append("not unique: no clues hidden")
            return
        if self.status != "unique":
            return
        if line_solvable and not self.solved_by_lines():
            self.notes.append("line logic does not solve the level: no clues hidden")
            return
        result = hide_clues(self.puzzle, fraction=None if grade else share, seed=self.seed, line_solvable=line_solvable,
                            timeout=self.clock.left(0.5), on_progress=on_progress, lines=self.lines)
        self.calls += result.stats["solver_calls"]
        if grade is not None:
            result = hide_to_grade(self.puzzle, result, grade=grade, notes=self.notes, lines=self.lines)
        self.puzzle, self.hidden = result.puzzle, result.sequence
        self.notes.append(f"hid {result.hidden} of {result.total} clues ({100 * result.share:.0f} %)")
        if self.clock.expired():
            self.notes.append("hiding stopped at the time limit")

    def report(self) -> dict[str, Any]:
        """The level's facts, in the order ``report.json`` lists them."""
        assert self.puzzle.goal is not None  # a made level keeps its goal
        unique = self.status == "unique"
        rated, by_lines = None, False
        if unique:  # proved above; the grade needs only the line passes, no second SAT run
            rated = rate3d(VerifyResult("unique"), self.puzzle, deadline=Deadline(self.clock.left(0.5)),
                           lines=self.lines, hidden=self.hidden)
            measures = rated.stats.get("grade_measures")  # the passes also say whether line logic solves it
            by_lines = measures["line_solvable"] if measures else self.lines.fixpoint(
                self.puzzle.givens, hidden=set(self.hidden))[1]
        return {
            "status": self.status,
            "size": list(self.puzzle.size),
            "voxels": int(np.count_nonzero(self.puzzle.goal)),
            "clues_total": self.total,
            "clues_hidden": len(self.hidden),
            "hidden_share": round(len(self.hidden) / self.total, 4) if self.total else 0.0,
            "full_clues_status": self.full_status,
            "line_solvable": bool(by_lines),
            "grade": rated.grade if rated else None,
            "grade_name": rated.grade_name if rated else None,
            "score": rated.score if rated else None,
            "givens": [list(g) for g in self.puzzle.givens],
            "edits": [list(e) for e in self.edits],
            "notes": self.notes,
            "solver_calls": self.calls,
        }


# --- a model -> a level ----------------------------------------------------------------------------


def from_mesh(
    source: Union[str, Path, Any],
    *,
    size: Optional[int] = None,
    up: Optional[str] = None,
    turn: Union[int, str, None] = None,
    method: str = "center",
    unique: str = "givens",
    hide: Optional[float] = None,
    seed: int = 0,
    line_solvable: bool = False,
    grade: Optional[int] = None,
    timeout: float = 300.0,
    title: Optional[str] = None,
    on_progress: Progress = None,
    texture: Union[str, Path, None] = None,
) -> Made:
    """Voxelize a model (a file: STL, OBJ, PLY, GLB/GLTF, OFF; or a ``trimesh.Trimesh``) into a unique level.

    ``size`` cubes on the longest axis (``None``: 20, the importer's
    ``DEFAULT_SIZE``); ``up`` is the model's up axis (``x``, ``y`` or ``z``)
    and ``turn`` a quarter turn about it (0, 90, 180 or 270 degrees,
    counter-clockwise seen from above); left out (or ``"auto"``)
    they are chosen so that the level faces its default view, and the report
    says which and why (:mod:`nonogen.importers.orient`). ``method`` keeps
    cubes whose centre is inside (``"center"``) or that the surface touches
    (``"surface"``). The rest as :func:`make_level`. Reading and voxelizing
    count against ``timeout``. The report's ``warnings`` say when the level
    is a slab and what the model names but lacks. ``texture`` is an image
    that paints a model through its texture coordinates when its file does
    not name it (an OBJ without its material file).

    >>> made = from_mesh("samples/meshes/chair.off", size=6)
    >>> made.report["status"], made.puzzle.size
    ('unique', (4, 6, 4))
    """
    start = time.monotonic()  # loading trimesh counts: report["seconds"] is the whole making, and only this writes it
    from ..importers.mesh import DEFAULT_SIZE, mesh_to_voxels  # trimesh (0.5 s to load): cubes never read a model

    voxels = mesh_to_voxels(source, DEFAULT_SIZE if size is None else size, up=up, turn=turn, method=method,
                            texture=texture)
    named = isinstance(source, (str, Path))
    made = make_level(
        voxels.cells, palette=voxels.palette, colors=voxels.index, unique=unique, hide=hide, seed=seed,
        line_solvable=line_solvable, grade=grade, timeout=max(0.5, timeout - (time.monotonic() - start)),
        on_progress=on_progress, title=title, source=Path(source).name if named else None,
    )
    level = dict(made.report)
    status, calls = level.pop("status"), level.pop("solver_calls")
    report = {
        "status": status,
        "puzzle_file": "level.json",  # relative to the report, as in `nonogen image`
        "model": str(source) if named else None,
        **level,
        "method": method,
        "up": voxels.up,
        "orientation": voxels.orientation.report() if voxels.orientation else None,
        "warnings": list(voxels.warnings),
        "seed": seed,
        "solver_calls": calls,
        "seconds": round(time.monotonic() - start, 3),
    }
    return Made(made.puzzle, made.solution, report)
