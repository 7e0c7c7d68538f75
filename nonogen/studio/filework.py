"""The studio's file work, run in a worker like the engine's: open a puzzle file, save a puzzle or a sheet (a level's:
:mod:`.levelwork`).

Reading a puzzle file can take long (a 16 MB file, then a search for its
solution) and so can drawing a solution sheet; in a worker the server keeps
answering meanwhile, and the job's time limit stops a file that never ends.
Paths arrive checked by :class:`.folder.Folder` (in the folder, a regular
file); writing goes through :mod:`nonogen.files` (atomic, never over a file
unasked, keeping a replaced file's mode).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, Optional, cast

import numpy as np

from .. import formats
from ..export.html import page_2d
from ..files import write_file
from ..make.repair2d import repair
from ..model import Puzzle
from ..output import answer, draw
from ..solve.deadline import Deadline
from ..solve.session import Session
from .document import clue_puzzle, puzzle_from, puzzle_json
from .inputs import SHEETS
from .limits import OPEN_SECONDS, SAVE_CHECK_SECONDS

__all__ = ["open_puzzle", "save_puzzle", "play_page", "not_unique", "proved_clues"]

Message = dict[str, Any]


def open_puzzle(job: dict[str, Any]) -> Iterator[Message]:
    """A puzzle file as a document: its solution grid (the stored goal, else a solved one), palette and givens; a
    Picross 3D level's as the 3D editor's document."""
    path = Path(job["path"])
    puzzle = formats.load(path)
    if not isinstance(puzzle, Puzzle):
        from .levelwork import opened_level  # a level's work loads the 3D engine, which a 2D file never needs

        yield opened_level(puzzle, path)
        return
    found = answer(puzzle, timeout=OPEN_SECONDS)
    doc = puzzle_json(puzzle, found.cells)
    doc["title"] = doc["title"] or path.stem
    yield {**doc, "warnings": [found.note] if found.note else []}


def save_puzzle(job: dict[str, Any]) -> Iterator[Message]:
    """The page's puzzle written as ``job["format"]``: a puzzle file, or a sheet or play page (:data:`SHEETS`).

    The puzzle is proved as the file will hold it (a format without givens
    loses them) before anything is written; one that is not unique is
    written only when the page says ``accept`` (the author confirmed), else
    the answer is a ``confirm`` naming the problem and the fix. A scanned
    puzzle comes as its clues (``job["clues"]``): no grid, so the fix to offer is the author's (a clue misread).
    """
    path, kind, force = Path(job["path"]), job["format"], bool(job.get("overwrite"))
    if "clues" in job:
        puzzle, problem = proved_clues(clue_puzzle(job["clues"]), kind)
        problem = None if job.get("accept") else problem
    else:
        puzzle, grid = puzzle_from(job["doc"])
        problem = None if job.get("accept") else not_unique(puzzle, grid, kind)
    if problem is not None:
        yield {"confirm": problem}
        return
    if kind in SHEETS:
        draw(puzzle, path, solution=kind == "pdf-solution", force=force)
        yield {"saved": path.name, "dropped": []}
        return
    write_file(path, formats.dumps(puzzle, kind), force=force)
    yield {"saved": path.name, "dropped": formats.dropped(puzzle, kind)}


def play_page(job: dict[str, Any]) -> Iterator[Message]:
    """The page's puzzle as the play page (``nonogen html``'s), to test-solve it in the studio."""
    puzzle, grid = puzzle_from(job["doc"])
    yield {"page": page_2d(puzzle, grid)}


def _as_written(puzzle: Puzzle, kind: str) -> Puzzle:
    """The puzzle as a file of ``kind`` gives it back (a sheet or play page keeps everything; a 2D format, a 2D one)."""
    return puzzle if kind in SHEETS else cast(Puzzle, formats.loads(formats.dumps(puzzle, kind), kind))


def not_unique(puzzle: Puzzle, grid: np.ndarray, kind: str) -> Optional[Message]:
    """Why the puzzle as written would not be unique, and the edit that makes it so (None: it is unique).

    A format that holds givens gets givens to add, as the page's "Givens to
    make it unique" finds them; one that cannot hold them (the givens the
    puzzle has are lost there too) gets cell changes, the only fix it can keep.
    """
    clock = Deadline(SAVE_CHECK_SECONDS)
    written = _as_written(puzzle, kind)
    session = Session(written)
    result = session.verify(grid, timeout=clock.left(), grade=False)
    if result.status == "unique":
        return None
    keeps = _keeps_givens(puzzle, grid, kind)
    ambiguous: list = []
    if result.status == "multiple":
        cells, _ = session.ambiguous_cells(grid, timeout=clock.left())
        ambiguous = [list(cell) for cell in cells]
    fixed = repair(written, grid, mode="givens" if keeps else "edit", timeout=clock.left(), grade=False)
    have = {(r, c) for r, c, _ in puzzle.givens}
    fix = {"status": fixed.report["status"],
           "givens": [[r, c] for r, c, _ in fixed.puzzle.givens if (r, c) not in have] if keeps else [],
           "edits": [] if keeps else [[e["row"], e["col"], e["to"]] for e in fixed.report["edits"]]}
    lost = 0 if keeps else len(puzzle.givens)
    return {"status": result.status, "ambiguous": ambiguous, "dropped_givens": lost, "format": kind,
            "message": _problem(result.status, len(ambiguous), lost, kind, keeps), "fix": fix}


def proved_clues(puzzle: Puzzle, kind: str) -> tuple[Puzzle, Optional[Message]]:
    """A puzzle of clues with its solution as its goal when it is unique as a file of ``kind`` gives it back (the
    formats that keep a goal, and a solution sheet, get it), else as it is and why it is not unique; no fix is
    offered (``fix`` None): the author corrects a clue, or saves it as it is."""
    result = Session(_as_written(puzzle, kind)).verify(timeout=SAVE_CHECK_SECONDS, grade=False)
    if result.status == "unique":
        return puzzle.replace(goal=result.solution), None
    what = {"multiple": "the puzzle has more than one solution", "unsolvable": "the puzzle has no solution"}
    return puzzle, {"status": result.status, "ambiguous": [], "dropped_givens": 0, "format": kind, "fix": None,
                    "message": what.get(result.status, f"the puzzle could not be proved unique ({result.status})")}


def _keeps_givens(puzzle: Puzzle, grid: np.ndarray, kind: str) -> bool:
    """Whether a file of ``kind`` holds givens (the format's own account of what it drops says)."""
    if kind in SHEETS:
        return True
    probe = puzzle.replace(givens=((0, 0, int(grid[0, 0])),))
    return not any("given" in piece for piece in formats.dropped(probe, kind))


def _problem(status: str, ambiguous: int, lost: int, kind: str, keeps: bool) -> str:
    """The confirmation's sentence: what is wrong with the file that would be written, and what can fix it."""
    why = (f"the {kind} format cannot hold givens, and without its {lost} given cell{'s' if lost > 1 else ''} "
           if lost else "")
    if status == "multiple":
        what = f"{why}the puzzle is not unique: {ambiguous} cell{'s' if ambiguous != 1 else ''} can go either way"
    else:
        what = f"{why}the puzzle could not be proved unique ({status})"
    return what + ("" if keeps or lost else f" (the {kind} format cannot hold givens: only changed cells can fix it)")
