"""The studio's engine work, run in a worker process: import a picture, check a grid, suggest repairs (and, from
:mod:`.filework`, :mod:`.ambiguity` and :mod:`.trace`: open, save, the play page, the ambiguity map, the tracing
tools; from :mod:`.edit3d` and :mod:`.levelwork`: a level made from a model, its proof after each edit, saving it;
from :mod:`.scanwork`: a puzzle page read, a scanned puzzle's proof after each correction).

Each job is a generator of JSON-ready messages, so the page sees the verdict
as soon as it is known and the grade and ambiguous cells when they follow.
Jobs only call the public API (:func:`nonogen.from_mesh`, the importer, the
engine :class:`~nonogen.solve.session.Session`, the repair); they print
nothing, and only the file jobs (:mod:`.filework`) write. Options and
documents arrive checked (:mod:`.inputs`); messages leave as plain JSON
types, so the server never loads numpy to read them.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Generator, Iterator, Optional

import numpy as np

from ..errors import NonogenError
from ..importers.image import image_to_grid, pixels_wanted
from ..importers.options import ImageOptions
from ..importers.quality import measure
from ..make.repair2d import ease_to_grade, repair
from ..model import Puzzle
from ..plain import to_jsonable
from ..solve.deadline import Deadline
from ..solve.grade import Measures, rate, replay
from ..solve.result import VerifyResult
from ..solve.session import Session
from .ambiguity import ambiguity_map
from .document import palette_json, puzzle_from
from .edit3d import check_level
from .filework import open_puzzle, play_page, save_puzzle
from .inputs import MAX_SIDE
from .levelwork import make_mesh, play_level, save_level
from .limits import CHECK_SECONDS, SUGGEST_SECONDS
from .scanwork import check_clues, scan_page
from .trace import frame_box, read_picture, trace

__all__ = ["run", "import_picture", "check", "suggest", "CHECK_SECONDS", "SUGGEST_SECONDS"]

Message = dict[str, Any]


def run(job: dict[str, Any]) -> Generator[Message, None, None]:
    """The messages of one job, as plain JSON types; a nonogen or OS error becomes an ``error`` message naming its
    kind (the worker lives on)."""
    try:
        for message in JOBS[job["kind"]](job):
            yield to_jsonable(message)
    except NonogenError as exc:
        yield {"error": str(exc), "error_kind": type(exc).__name__}
    except OSError as exc:  # a file of the folder: named as the author knows it
        name = Path(exc.filename).name if exc.filename else ""
        yield {"error": f"{name}: {exc.strerror or exc}".lstrip(": "), "error_kind": "OSError"}


# --- picture -> grid ---------------------------------------------------------------------------------


_last_picture: dict[str, Any] = {}  # the decoded picture of the last import: a slider moves, the picture stays


def import_picture(job: dict[str, Any]) -> Iterator[Message]:
    """The picture (the file at ``job["path"]``) read into cells with the page's options, and how much it still
    looks like the picture."""
    options = ImageOptions(**job["options"], max_side=MAX_SIDE)
    key = (job["picture_id"], pixels_wanted(options))
    if _last_picture.get("key") != key:
        _last_picture.clear()
        _last_picture.update(key=key, image=read_picture(job["path"], str(job.get("name") or "the picture"), key[1]))
    imported = image_to_grid(_last_picture["image"], options)
    rows, cols = imported.grid.shape
    quality = measure(imported.grid, imported.reference, imported.palette)
    yield {
        "grid": imported.grid.tolist(),
        "palette": palette_json(imported.palette),
        "givens": [],
        "quality": quality,
        "reference": None if imported.reference is None else np.rint(imported.reference).astype(int).tolist(),
        "warnings": list(imported.warnings),
        "import": {k: v for k, v in imported.info.items() if isinstance(v, (int, float, str, bool, list))},
        "frame": frame_box(_last_picture["image"], options, imported.info, rows, cols),
    }


# --- check -------------------------------------------------------------------------------------------


def check(job: dict[str, Any]) -> Iterator[Message]:
    """Verdict, then ambiguous cells, then grade and the line-logic replay of the page's grid."""
    started = time.monotonic()
    puzzle, grid = puzzle_from(job["doc"])
    clock = Deadline(float(job.get("timeout") or CHECK_SECONDS))
    session = Session(puzzle)
    result = session.verify(grid, timeout=clock.left(), grade=False)
    yield {"verdict": result.status, "difficulty": result.difficulty, "message": result.message,
           "seconds": round(time.monotonic() - started, 4)}
    if result.status == "multiple":
        ambiguous, complete = session.ambiguity(grid, timeout=clock.left())
        yield {"ambiguous": np.argwhere(ambiguous).tolist(), "complete": complete}
    else:
        yield {"ambiguous": [], "complete": result.status == "unique"}
    shown, reference = replay(puzzle, deadline=clock, grid=session.grid), job["doc"]["reference"]
    yield {**_grade(result, puzzle, shown.measures), "replay": shown.to_dict(),
           "quality": measure(grid, None if reference is None else np.array(reference, float), puzzle.palette),
           "seconds": round(time.monotonic() - started, 4)}


def _grade(result: VerifyResult, puzzle: Puzzle, measures: Optional[Measures]) -> Message:
    """The grid's grade from its one replayed solve (:func:`~nonogen.solve.grade.rate`'s rule); a replay cut off by
    the deadline is not rated, and not unique is "not unique": a grade 5 "needs search" would read as "hard"."""
    if result.status == "multiple":
        return {"grade": None, "grade_name": "not unique", "score": None}
    if measures is None and result.difficulty != "search":
        return {"grade": None, "grade_name": None, "score": None}
    rated = rate(result, puzzle, measures=measures)
    return {"grade": rated.grade, "grade_name": rated.grade_name, "score": rated.score}


# --- suggestions -------------------------------------------------------------------------------------


GOALS = ("unique", "line", "edit", "grade")


def suggest(job: dict[str, Any]) -> Iterator[Message]:
    """Givens (or cell changes) that make the grid unique, line-solvable, or bring it down to a grade.

    The page's own givens stay; what is suggested comes on top.
    """
    puzzle, grid = puzzle_from(job["doc"])
    goal = job.get("goal")
    timeout = float(job.get("timeout") or SUGGEST_SECONDS)
    if goal == "grade":
        yield _ease_to_grade(puzzle, grid, int(job.get("grade") or 1), Deadline(timeout))
        return
    if goal not in GOALS:
        raise NonogenError(f"goal: expected one of {', '.join(GOALS)}, got {goal!r}")
    fixed = repair(puzzle, grid, mode="edit" if goal == "edit" else "givens", line_solvable=goal == "line",
                   timeout=timeout, grade=True)
    new = [[r, c] for r, c, _ in fixed.puzzle.givens if (r, c, int(fixed.grid[r, c])) not in puzzle.givens]
    yield {"goal": goal, "status": fixed.report["status"], "line_solvable": fixed.report["line_solvable"],
           "grade": fixed.report["grade"], "givens": new,
           "edits": [[e["row"], e["col"], e["to"]] for e in fixed.report["edits"]],
           "message": fixed.report["message"]}


def _ease_to_grade(puzzle: Puzzle, grid: np.ndarray, grade: int, clock: Deadline) -> Message:
    """Givens that make the puzzle unique (when it is not), then more until the grade is at most ``grade``:
    the making pipeline's own loop (:func:`~nonogen.make.repair2d.ease_to_grade`)."""
    fixed = ease_to_grade(repair(puzzle, grid, mode="givens", timeout=clock.left(), grade=True), grade, clock)
    report = fixed.report
    reached = report["status"] == "unique" and report["grade"] is not None and report["grade"] <= grade
    added = [[r, c] for r, c, _ in fixed.puzzle.givens if (r, c, int(grid[r, c])) not in puzzle.givens]
    return {"goal": "grade", "status": report["status"], "grade": report["grade"], "givens": added,
            "edits": [], "message": "" if reached else f"grade {grade} not reached (grade {report['grade']})"}


JOBS = {"import": import_picture, "check": check, "suggest": suggest, "open": open_puzzle, "save": save_puzzle,
        "play": play_page, "map": ambiguity_map, "trace": trace, "mesh": make_mesh, "level": check_level,
        "level-save": save_level, "level-play": play_level, "scan": scan_page, "clues": check_clues}
