"""The studio's file work, run in a worker like the engine's: open a puzzle file, save a puzzle or a sheet, save a level.

Reading a puzzle file can take long (a 16 MB file, then a search for its
solution) and so can drawing a solution sheet; in a worker the server keeps
answering meanwhile, and the job's time limit stops a file that never ends.
Paths arrive checked by :class:`.folder.Folder` (in the folder, a regular
file); writing goes through :mod:`nonogen.files` (atomic, never over a file
unasked, keeping a replaced file's mode).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from .. import formats
from ..files import write_file
from ..output import answer, draw, save
from .document import puzzle_json, puzzle_of
from .limits import OPEN_SECONDS

__all__ = ["open_puzzle", "save_puzzle", "save_level", "SHEETS"]

Message = dict[str, Any]

SHEETS = {"pdf": ".pdf", "pdf-solution": ".pdf", "png": ".png", "svg": ".svg", "html": ".html"}
"""Save kinds that draw the puzzle (sheet, solution, play page) rather than write a puzzle file."""


def open_puzzle(job: dict[str, Any]) -> Iterator[Message]:
    """A puzzle file as a document: its solution grid (the stored goal, else a solved one), palette and givens."""
    path = Path(job["path"])
    puzzle = formats.load(path)
    if puzzle.dimensions == 3:
        yield {"error": f"{path.name}: a Picross 3D level; the studio makes levels from models"}
        return
    found = answer(puzzle, timeout=OPEN_SECONDS)
    doc = puzzle_json(puzzle, found.cells)
    doc["title"] = doc["title"] or path.stem
    yield {**doc, "warnings": [found.note] if found.note else []}


def save_puzzle(job: dict[str, Any]) -> Iterator[Message]:
    """The page's puzzle written as ``job["format"]``: a puzzle file, or a sheet or play page (:data:`SHEETS`)."""
    puzzle, _ = puzzle_of(job["doc"])
    path, kind, force = Path(job["path"]), job["format"], bool(job.get("overwrite"))
    if kind in SHEETS:
        draw(puzzle, path, solution=kind == "pdf-solution", force=force)
        yield {"saved": path.name, "dropped": []}
        return
    write_file(path, formats.dumps(puzzle, kind), force=force)
    yield {"saved": path.name, "dropped": formats.dropped(puzzle, kind)}


def save_level(job: dict[str, Any]) -> Iterator[Message]:
    """A level made from a model: ``*.json`` is the level file, any other name a folder like ``nonogen mesh`` writes."""
    made, path, force = job["made"], Path(job["path"]), bool(job.get("overwrite"))
    if path.suffix.lower() == ".json":
        write_file(path, formats.dumps(made.puzzle, "nonogen-3d"), force=force)
    else:
        save(made, path, force=force)
    yield {"saved": path.name, "dropped": []}
