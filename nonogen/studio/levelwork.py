"""The 3D editor's file work, run in a worker: a model made into a level to edit, a level saved, its play page.

A level made from a model reaches the page as a document like any edited
level (:func:`level_doc`): its cubes, colours, revealed cubes and hidden
clues, so editing it and saving it are the same work whatever its source. A
level is saved in any 3D format nonogen writes (:data:`.inputs.LEVEL_KINDS`),
and proved unique as the file will hold it first: a format that drops the
revealed cubes may leave it ambiguous. Then, unless the author accepts it, the
answer is a question with a fix: cubes to reveal (a format that keeps them),
hidden clues to show again (one that does not), or cubes to change (when no
clue can help). Writing goes through :mod:`nonogen.files` (atomic, never over a
file unasked); paths arrive checked by :class:`.folder.Folder`.
"""
from __future__ import annotations

import base64
from pathlib import Path
from typing import Any, Iterator, cast

import numpy as np

from .. import formats
from ..clues3d import all_lines, clue_at, valid_goal, with_clues
from ..export.html import page_3d
from ..files import write_file
from ..made import Made
from ..make.level3d import from_mesh
from ..make.repair3d import repair_edit, repair_givens
from ..model3d import Puzzle3D
from ..output import level_preview, save
from ..solve.deadline import Deadline
from ..solve.verify3d import verify3d
from .document import palette_json
from .edit3d import Proof, level_of, lines_json
from .inputs import CUBE_CODES
from .limits import MESH_SECONDS, SAVE_CHECK_SECONDS

__all__ = ["make_mesh", "level_doc", "cells_text", "opened_level", "save_level", "play_level", "DEFAULT_PALETTE"]

Message = dict[str, Any]

DEFAULT_PALETTE = ({"rgb": "#ffffff", "name": "none"}, {"rgb": "#e8913a", "name": ""})
"""A level without colours: "no colour", then the play page's own orange for every cube."""

KEEP_GIVENS = ("nonogen-3d", "html", "folder")
"""The kinds of file that hold revealed cubes (the two games' formats do not)."""


def make_mesh(job: dict[str, Any]) -> Iterator[Message]:
    """A model file made into a level (:func:`nonogen.from_mesh`, the options the page chose) as a document to edit,
    with its report (how it was turned and why, the warnings) and a picture of the solved shape."""
    options = job["options"]
    made = from_mesh(job["path"], size=options["size"], up=options["up"], turn=options["turn"], hide=options["hide"],
                     line_solvable=options["line_solvable"], timeout=MESH_SECONDS)
    made.report["model"] = job["name"]  # the model as the author knows it, not the server's copy
    yield {"report": made.report, "level": level_doc(cast(Puzzle3D, made.puzzle), job["name"]),
           "solution_png": "data:image/png;base64," + base64.b64encode(level_preview(made)).decode("ascii")}


def level_doc(level: Puzzle3D, source: str = "") -> dict[str, Any]:
    """The page's document of a level: its cubes as :data:`.inputs.CUBE_CODES`, palette, revealed cubes and the
    clues it hides (a level without colours gets :data:`DEFAULT_PALETTE`)."""
    goal = np.asarray(level.goal, dtype=bool)
    if level.colors is not None and len(level.palette) >= 2:
        index, palette = np.where(goal, np.maximum(level.colors, 1), 0), palette_json(level.palette)
    else:
        index, palette = goal.astype(np.uint8), [dict(c) for c in DEFAULT_PALETTE]
    hidden = [line for line in all_lines(level.size) if clue_at(level, line) is None]
    return {"size": list(level.size), "cells": cells_text(index), "palette": palette,
            "givens": [list(g[:3]) for g in level.givens], "hidden": lines_json(hidden),
            "title": str(level.meta.get("title", "")), "source": source or str(level.meta.get("source", ""))}


def opened_level(level: Puzzle3D, path: Path) -> Message:
    """A level file as the 3D editor's document: its stored goal, else the solution the engine finds (a file of the
    two games holds none); a level with no single solution cannot be edited as one."""
    goal = valid_goal(level)
    if goal is None:
        found = verify3d(level, timeout=SAVE_CHECK_SECONDS, grade=False)
        if found.status != "unique" or found.solution is None:
            return {"error": f"{path.name}: a Picross 3D level that is {found.status}: the 3D editor edits a level "
                             "by its one solution"}
        goal = found.solution
    colors = level.colors if goal is level.goal else None  # colours belong to the stored goal
    doc = level_doc(level.replace(goal=goal, colors=colors), str(level.meta.get("source", "")))
    return {"level": {**doc, "title": doc["title"] or path.stem}}


def _level(doc: dict[str, Any]) -> tuple[Puzzle3D, np.ndarray]:
    """The level as the page holds it: its hidden clues hidden."""
    full, goal = level_of(doc)
    hidden = {tuple(line) for line in doc["hidden"] or ()}
    return with_clues(full, lambda ln: ln not in hidden), goal


def play_level(job: dict[str, Any]) -> Iterator[Message]:
    """The level's play page (``nonogen mesh``'s ``level.html``), to test-play it in the studio."""
    level, goal = _level(job["doc"])
    yield {"page": page_3d(level, goal, level.rgb())}


def save_level(job: dict[str, Any]) -> Iterator[Message]:
    """The level written as ``job["format"]``, once proved unique as that file holds it (or the author accepts it)."""
    doc, kind, path, force = job["doc"], job["format"], Path(job["path"]), bool(job.get("overwrite"))
    level, goal = _level(doc)
    clock = Deadline(SAVE_CHECK_SECONDS)
    result = verify3d(_as_written(level, kind), target=goal, grade=True, timeout=clock.left())
    if result.status != "unique" and not job.get("accept"):
        yield {"confirm": _problem(doc, level, goal, kind, result.status, clock)}
        return
    if kind == "folder":
        save(Made(level, goal, _report(level, goal, result, doc)), path, force=force)
    elif kind == "html":
        write_file(path, page_3d(level, goal, level.rgb()), force=force)
    else:
        write_file(path, formats.dumps(level, kind), force=force)
    yield {"saved": path.name, "status": result.status,
           "dropped": formats.dropped(level, kind) if kind in formats.FORMATS else []}


def _as_written(level: Puzzle3D, kind: str) -> Puzzle3D:
    """The level as a file of ``kind`` gives it back (the play page and the folder's level.json keep everything)."""
    if kind in KEEP_GIVENS:
        return level
    return cast(Puzzle3D, formats.loads(formats.dumps(level, kind), kind))


def _problem(doc: dict[str, Any], level: Puzzle3D, goal: np.ndarray, kind: str, status: str,
             clock: Deadline) -> Message:
    """Why the file would not hold a unique level, and the fix: cubes to reveal where the file keeps them; else cubes
    to change (when the shape is ambiguous without them) and hidden clues to show again, as few as keep it unique."""
    keeps = kind in KEEP_GIVENS
    full, _ = level_of(doc)
    fix: Message = {"givens": [], "shown": [], "edits": [], "status": "unique"}
    if keeps:
        fixed = repair_givens(level, timeout=clock.left(0.5))
        fix["givens"] = Proof(level, goal, clock).new_givens(fixed.puzzle) if fixed.unique else []
        fix["status"] = "unique" if fixed.unique else "multiple"
    else:  # the file keeps no revealed cube: change cubes if the shape needs it, then show the clues it needs
        bare, edits = full.replace(givens=()), []
        if verify3d(bare, target=goal, grade=False, timeout=clock.left()).status != "unique":
            edited = repair_edit(bare, timeout=clock.left(0.5))
            bare, edits = edited.puzzle, [list(e) for e in edited.edits]
            fix["status"] = "unique" if edited.unique else "multiple"
        kept = [tuple(line) for line in doc["hidden"] or ()]
        proof = Proof(bare, np.asarray(bare.goal, dtype=bool), clock)
        found = proof.show_again(kept, proof.prove(kept)) if fix["status"] == "unique" else None
        fix["edits"] = edits
        fix["shown"] = lines_json(sorted(set(kept) - set(found[0]))) if found else lines_json(kept)
    lost = 0 if keeps else len(level.givens)
    what = "not unique" if status == "multiple" else f"not proved unique ({status})"
    message = (f"the {kind} format cannot hold revealed cubes: without its {lost}, the level is {what}" if lost
               else f"the level is {what}")
    return {"status": status, "format": kind, "message": message, "fix": fix}


def _report(level: Puzzle3D, goal: np.ndarray, result: Any, doc: dict[str, Any]) -> Message:
    """The folder's report.json of an edited level: the facts ``nonogen mesh`` lists, as the level now stands."""
    total, hidden = level.n_lines, level.n_lines - level.n_clues
    return {"status": result.status, "puzzle_file": "level.json", "model": doc["source"] or None,
            "size": list(level.size), "voxels": int(np.count_nonzero(goal)), "clues_total": total,
            "clues_hidden": hidden, "hidden_share": round(hidden / total, 4) if total else 0.0,
            "line_solvable": result.difficulty == "line", "grade": result.grade, "grade_name": result.grade_name,
            "score": result.score, "givens": [list(g) for g in level.givens], "edits": [],
            "notes": ["edited in nonogen studio"], "warnings": []}


def cells_text(colors: np.ndarray) -> str:
    """The page's ``cells`` text of an ``(X, Y, Z)`` box of palette indices (what :func:`.edit3d.colors_of` reads)."""
    codes = np.frombuffer(CUBE_CODES.encode("ascii"), dtype=np.uint8)
    return codes[np.asarray(colors, dtype=np.intp).ravel()].tobytes().decode("ascii")

