"""Box of cubes -> Picross 3D level: prove the full clue set unique (or repair it), then hide clues.

The twin of :mod:`nonogen.make.picture`: check, repair, hide, report. All
the solving goes through the engine (:mod:`nonogen.solve`); this module only
decides what to ask it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Union

import numpy as np

from ..clues import puzzle3d_from_cells
from ..errors import InputError, LimitError
from ..model import Puzzle3D
from ..solve.line3d import line_solve3d
from ..solve.verify3d import verify3d
from .hide3d import hide_clues, hide_to_grade
from .repair3d import repair_edit, repair_givens

__all__ = ["LevelResult", "make_level", "REPAIR_MODES", "MadeLevel", "from_mesh", "folder_files"]

REPAIR_MODES = ("givens", "edit", "off")


@dataclass
class LevelResult:
    """A finished level and the facts a report needs (what was checked, repaired and hidden)."""

    puzzle: Puzzle3D
    status: str
    full_clues_status: str
    line_solvable: bool
    """Whether line logic alone solves the finished level (after hiding)."""
    clues_total: int
    clues_hidden: int
    givens: list
    edits: list
    notes: list
    stats: dict
    grade: Optional[int] = None
    grade_name: Optional[str] = None
    score: Optional[float] = None


def make_level(
    cells: np.ndarray,
    unique: str = "givens",
    hide: Optional[float] = None,
    seed: int = 0,
    line_solvable: bool = False,
    timeout: float = 300.0,
    hide_clues_enabled: bool = True,
    grade: Optional[int] = None,
    on_progress: Optional[Callable[[int, int], None]] = None,
    **meta: str,
) -> LevelResult:
    """Turn a box of cubes into a level: check the FULL clue set, repair if asked, then hide clues.

    ``unique`` is ``'givens'`` (reveal a few cubes), ``'edit'`` (change a few
    cubes of the shape) or ``'off'`` (only report). ``hide`` is the target
    share of hidden clues (``None``: as many as possible). With
    ``line_solvable`` the level must stay solvable by line logic alone.
    ``grade`` (1, 2, 3 or 5) chooses how many clues to hide so that the
    level lands on that grade; grades 1-3 are line-solvable levels, so it
    implies ``line_solvable``; ``hide`` is then ignored. ``on_progress(done,
    total)`` follows the clues being hidden, the long part on big boxes.
    """
    if unique not in REPAIR_MODES:
        raise ValueError(f"unique must be givens, edit or off, not {unique!r}")
    if grade is not None:
        if grade not in (1, 2, 3, 5):
            raise InputError(
                f"grade {grade}: Picross 3D levels are graded 1-3 (line logic alone) or 5 (beyond line logic)"
            )
        line_solvable = grade <= 3
    end = time.monotonic() + timeout
    left = lambda: max(0.5, end - time.monotonic())  # noqa: E731
    cells = np.asarray(cells, dtype=bool)
    puzzle = puzzle3d_from_cells(cells, **meta)
    calls = 0
    full = verify3d(puzzle, cells, timeout=left())
    calls += full.stats.get("solver_calls", 0)
    notes = [f"every clue shown: {full.status}" + (f" ({full.difficulty} logic)" if full.difficulty else "")]
    status = full.status
    edits: list = []
    if full.status == "multiple" and unique == "edit":
        fixed = repair_edit(puzzle, timeout=left(), seed=seed)
        calls += fixed.stats.get("solver_calls", 0)
        edits = fixed.edits
        puzzle = fixed.puzzle
        status = "unique" if fixed.unique else ("timeout" if time.monotonic() >= end else "multiple")
        notes.append(f"edited {len(edits)} cube(s) to make the shape unique" if fixed.unique
                     else f"could not make the shape unique with {len(edits)} edit(s)")
    solvable_by_lines = status == "unique" and line_solve3d(puzzle)[1]
    needs_givens = full.status == "multiple" and unique == "givens"
    if unique != "off" and status in ("unique", "multiple") and (needs_givens or (line_solvable and not solvable_by_lines)):
        fixed = repair_givens(puzzle, timeout=left(), seed=seed, line_solvable=line_solvable)
        calls += fixed.stats.get("solver_calls", 0)
        if fixed.unique:
            puzzle, status = fixed.puzzle, "unique"
            why = "line logic solves it" if line_solvable else "it is unique"
            notes.append(f"revealed {len(fixed.givens)} cube(s) as givens so that {why}")
            solvable_by_lines = line_solvable or line_solve3d(puzzle)[1]
        else:
            status = "timeout"
    hidden = 0
    if status == "unique" and hide_clues_enabled and (not line_solvable or solvable_by_lines):
        result = hide_clues(puzzle, fraction=None if grade else hide, seed=seed, line_solvable=line_solvable,
                            timeout=left(), on_progress=on_progress)
        calls += result.stats["solver_calls"]
        if grade is not None:
            result = hide_to_grade(puzzle, result, grade, notes)
        puzzle, hidden = result.puzzle, result.hidden
        notes.append(f"hid {hidden} of {result.total} clues ({100 * result.share:.0f} %)")
        if time.monotonic() >= end:
            notes.append("hiding stopped at the time limit")
    elif status == "multiple":
        notes.append("not unique: no clues hidden")
    elif status == "unique" and hide_clues_enabled:
        notes.append("line logic does not solve the level: no clues hidden")
    rated = None
    if status == "unique":  # proved above; the grade needs only the line passes, no second SAT run
        from ..solve.deadline import Deadline
        from ..solve.grade import rate3d
        from ..solve.result import VerifyResult

        rated = rate3d(VerifyResult("unique"), puzzle, Deadline(left()))
    return LevelResult(
        grade=rated.grade if rated else None,
        grade_name=rated.grade_name if rated else None,
        score=rated.score if rated else None,
        puzzle=puzzle,
        status=status,
        full_clues_status=full.status,
        line_solvable=bool(status == "unique" and line_solve3d(puzzle)[1]),
        clues_total=puzzle.n_lines,
        clues_hidden=hidden,
        givens=[list(g) for g in puzzle.givens],
        edits=[list(e) for e in edits],
        notes=notes,
        stats={"solver_calls": calls},
    )


# --- a model file -> a level folder ----------------------------------------------------------


@dataclass
class MadeLevel:
    """A level made from a 3D model: the level, the model's cube colours, and the report."""

    level: LevelResult
    colors: Optional[np.ndarray]
    report: dict


def from_mesh(
    path: Union[str, Path],
    size: int = 10,
    up: Optional[str] = None,
    method: str = "center",
    unique: str = "givens",
    hide: Optional[float] = None,
    seed: int = 0,
    line_solvable: bool = False,
    timeout: float = 300.0,
    title: Optional[str] = None,
    grade: Optional[int] = None,
    on_progress: Optional[Callable[[int, int], None]] = None,
) -> MadeLevel:
    """Voxelize a model file (STL, OBJ, PLY, GLB/GLTF, OFF) and turn it into a unique level with hidden clues.

    ``size`` cubes on the longest axis; ``up`` is the model's up axis
    (default by file type); ``method`` keeps cubes whose centre is inside
    (``"center"``) or that the surface touches (``"surface"``). The rest as
    :func:`make_level` (``grade`` aims at a grade by the clues it hides;
    ``on_progress(done, total)`` follows the hiding).
    """
    from ..importers.mesh import MAX_SIZE, MIN_SIZE, default_up, mesh_to_voxels

    start = time.monotonic()
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise LimitError(f"size {size}: must be between {MIN_SIZE} and {MAX_SIZE} cubes")
    if hide is not None and not 0.0 <= hide <= 1.0:
        raise InputError(f"hide {hide}: the share must be between 0 and 1")
    path = Path(path)
    voxels = mesh_to_voxels(path, size, up, method)
    level = make_level(
        voxels.cells, unique=unique, hide=hide, seed=seed, line_solvable=line_solvable,
        timeout=max(0.5, timeout - (time.monotonic() - start)),  # reading and voxelizing count too
        grade=grade, on_progress=on_progress,
        title=title or f"Level {'x'.join(map(str, voxels.cells.shape))}", source=path.name,  # meta: in file order
    )
    if voxels.colors is not None:
        level.puzzle = _with_colors(level.puzzle, voxels.colors)
    report = {
        "status": level.status,
        "puzzle_file": "level.json",  # relative to the report, as in `nonogen image`
        "model": str(path),
        "size": list(level.puzzle.size),
        "voxels": int(level.puzzle.goal.sum()),
        "clues_total": level.clues_total,
        "clues_hidden": level.clues_hidden,
        "hidden_share": round(level.clues_hidden / level.clues_total, 4),
        "full_clues_status": level.full_clues_status,
        "line_solvable": level.line_solvable,
        "grade": level.grade,
        "grade_name": level.grade_name,
        "score": level.score,
        "givens": level.givens,
        "edits": level.edits,
        "notes": level.notes,
        "method": method,
        "up": up or default_up(path),
        "seed": seed,
        "solver_calls": level.stats["solver_calls"],
        "seconds": round(time.monotonic() - start, 3),
    }
    return MadeLevel(level, voxels.colors, report)


MAX_LEVEL_COLORS = 12
"""Colours a level keeps from its model: enough for a recognisable model, few enough to name."""


def _with_colors(puzzle: Puzzle3D, rgb: np.ndarray) -> Puzzle3D:
    """The level with the model's colours as a palette and an index per kept cube.

    Colours are reduced to at most :data:`MAX_LEVEL_COLORS` (median cut over
    the kept cubes), then named and coded as picture colours are; the
    background is "none", the empty space around the model.
    """
    from ..palette import Color, median_cut, palette_from_rgb

    goal = np.asarray(puzzle.goal, dtype=bool)
    index, found = median_cut(np.asarray(rgb, dtype=np.uint8)[goal], MAX_LEVEL_COLORS)
    named = palette_from_rgb((255, 255, 255), [tuple(int(v) for v in c) for c in found])
    colors = np.zeros(goal.shape, dtype=np.uint8)
    colors[goal] = index + 1
    return puzzle.replace(palette=(Color("none", "#ffffff", "."),) + named[1:], colors=colors)


SCREEN_DPI_3D = 192
"""Level pictures are drawn at twice the screen's 96 dpi: cube edges are diagonal and small."""


def folder_files(made: MadeLevel, colored: bool = True) -> dict[str, Union[str, bytes]]:
    """Everything ``nonogen mesh`` writes into its folder: level.json, pictures, a playable page, the model, report."""
    from .. import formats
    from ..files import json_text
    from ..render import encode
    from ..export.html import page_3d
    from ..export.model3d import model_bytes
    from ..render.book import caption
    from ..render.iso3d import sheet_picture, solution_picture

    puzzle = made.level.puzzle
    files: dict[str, Union[str, bytes]] = {"level.json": formats.dumps(puzzle, "nonogen-3d")}
    solution = solution_picture(puzzle.goal, puzzle.rgb() if colored else None)
    sheet = sheet_picture(puzzle, title=str(puzzle.meta.get("title", "")),
                          caption=caption(None, made.level.grade, made.level.grade_name))
    for stem, picture in (("solution", solution), ("puzzle", sheet)):
        files[f"{stem}.svg"] = encode(picture, ".svg")
        files[f"{stem}.png"] = encode(picture, ".png", dpi=SCREEN_DPI_3D)
    files["level.html"] = page_3d(puzzle, puzzle.goal, puzzle.rgb() if colored else None)
    files["level.glb"] = model_bytes(puzzle, ".glb") if colored else model_bytes(puzzle.replace(colors=None), ".glb")
    files["report.json"] = json_text(made.report)
    return files
