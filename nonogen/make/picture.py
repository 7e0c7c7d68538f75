"""Picture -> verified, repaired nonogram with a report: the twin of :mod:`nonogen.make.level3d`.

Import (threshold or quantize, vote per cell), derive the clues, verify and
repair, then decide which puzzle files can carry the result: a format that
cannot hold givens is only as good as the puzzle without them, so each file
is labelled with the status it really has.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np
from PIL import Image

from .. import formats
from ..clues import puzzle_from_grid
from ..importers.binarize import halftone
from ..importers.image import ImageOptions, ImportResult, image_to_grid, load_image, pixels_wanted
from ..importers.quality import measure
from ..errors import InputError, NonogenError
from ..model import Puzzle
from ..solve.deadline import Deadline
from ..solve.result import VerifyResult
from .repair2d import Repair2D, ease, repair

__all__ = ["MadePuzzle", "from_image", "PUZZLE_FILES"]

PUZZLE_FILES = {False: ("puzzle.non", "puzzle.json"), True: ("puzzle.cnon", "puzzle.xml", "puzzle.json")}
"""The puzzle files written for a black-and-white (False) and a colour (True) puzzle, best first."""


@dataclass
class MadePuzzle:
    """A puzzle made from a picture: the puzzle (goal = solution), its files' texts, and the report."""

    puzzle: Puzzle
    solution: np.ndarray
    files: dict[str, str]
    report: dict[str, Any] = field(default_factory=dict)


def from_image(
    source: Union[str, Path, Image.Image],
    options: ImageOptions = ImageOptions(),
    unique: str = "givens",
    line_solvable: bool = False,
    max_edits: Optional[int] = None,
    timeout: float = 60.0,
    title: Optional[str] = None,
    grade: Optional[int] = None,
) -> MadePuzzle:
    """Turn a picture (a file or a Pillow image) into a verified puzzle, repaired as ``unique`` says.

    ``unique`` is ``"givens"`` (reveal cells), ``"edit"`` (change picture
    cells) or ``"off"`` (only report); ``line_solvable`` keeps repairing
    until line logic alone solves the puzzle. The default title is "Puzzle WxH":
    the file name would often give the answer away (it stays in the report).
    ``grade`` (1-5) aims at that difficulty grade (see :func:`_aim`); it
    replaces ``unique`` and ``line_solvable``.
    """
    started = time.monotonic()
    clock = Deadline(timeout)
    name = str(source) if isinstance(source, (str, Path)) else None
    img = load_image(source, reduce_for=pixels_wanted(options)) if name is not None else source
    imported = image_to_grid(img, options)

    def make(imported: ImportResult, mode: str, line: bool) -> Repair2D:
        """Repair the imported picture; mode "hard" reveals the givens that help the solver least."""
        label = title or f"Puzzle {imported.grid.shape[1]}x{imported.grid.shape[0]}"
        puzzle = puzzle_from_grid(imported.grid, imported.palette, title=label)
        return repair(puzzle, imported.grid, mode="givens" if mode == "hard" else mode, line_solvable=line,
                      confidence=imported.confidence, alternative=imported.alternative, timeout=clock.left(),
                      max_edits=max_edits, hard=mode == "hard")

    notes: list[str] = []
    if grade is None:
        result = make(imported, unique, line_solvable)
    else:
        result, imported = _aim(grade, img, imported, options, make, clock, notes)
    rating = _rate(result, clock)
    files, file_status = _puzzle_files(result, clock)
    report = _report(name, result, imported, file_status)
    report.update(grade=rating.grade, grade_name=rating.grade_name, score=rating.score, grade_wanted=grade)
    report["warnings"] += notes + _lossy_files(file_status, report["status"])
    report["seconds"] = round(time.monotonic() - started, 3)
    return MadePuzzle(result.puzzle, result.grid, files, report)


LAST_SHARE = 0.2
"""Share of the time limit kept back, when aiming at a grade, for the final verdict, grade and files."""


def _rate(result: Repair2D, clock: Deadline) -> VerifyResult:
    """The finished puzzle's verdict with its grade, from the repair's session (its work is mostly cached)."""
    session = result.session
    if session is None:
        from ..solve import verify

        return verify(result.puzzle, result.grid, timeout=clock.left())
    added = tuple(g for g in result.puzzle.givens if g not in session.puzzle.givens)
    return session.verify(result.grid, added, timeout=clock.left(), grade=True)


ALTERNATIVE_SIZES = (1.25, 1.5, 0.8, 2.0)
"""Size factors tried, in order, when a picture at its size gives a puzzle easier than the grade asked for."""


def _aim(
    grade: int, img: Image.Image, imported: ImportResult, options: ImageOptions, make, clock: Deadline, notes: list[str]
) -> tuple[Repair2D, ImportResult]:
    """A puzzle of the asked grade: givens lower the grade, another size may raise it.

    Grade 1 is line-solvable (the line-solvable repair). Otherwise the
    puzzle is made unique with as few givens as possible; when that is
    harder than asked, givens are revealed one at a time (the cell that
    leaves line logic the least to do) until the grade comes down. When it
    is easier than asked and the size was not fixed, other sizes are tried.
    When nothing lands on the grade, the closest result is kept and a note
    says what was tried.
    """
    if not 1 <= grade <= 5:
        raise InputError(f"grade {grade}: expected 1 to 5")
    if grade == 1:
        return make(imported, "givens", True), imported
    tried = []
    reserve = LAST_SHARE * clock.remaining()
    best: Optional[tuple[int, Repair2D, ImportResult]] = None
    for candidate in _variants(img, imported, options):
        if clock.remaining() < reserve:
            break
        result = _ease_to(make(candidate, "hard", False), grade, clock)
        rating = _rate(result, clock)
        got = rating.grade if rating.status == "unique" else None
        label = "x".join(map(str, candidate.grid.shape[::-1])) + (" halftone" if candidate.info.get("halftone") else "")
        tried.append(f"{label}: {got}")
        if got is not None and (best is None or abs(got - grade) < abs(best[0] - grade)):
            best = (got, result, candidate)
        if got == grade:
            break
    if best is None:
        notes.append(f"grade {grade} not reached: no variant was graded within the time limit")
        return make(imported, "givens", False), imported
    if best[0] != grade:
        notes.append(f"grade {grade} not reached; closest is grade {best[0]} (tried {', '.join(tried)})")
    if best[2].info.get("halftone"):
        notes.append(f"drawn as a halftone (tones as dot density) to reach grade {best[0]}")
    return best[1], best[2]


def _variants(img: Image.Image, imported: ImportResult, options: ImageOptions):
    """The picture as imported, then at other sizes, then the same as halftones (black and white only).

    Halftones come last: they reach harder grades, but tones drawn as dots
    look less like the picture.
    """
    sizes = []
    for candidate in itertools.chain([imported], _other_sizes(img, imported, options)):
        sizes.append(candidate)  # made one at a time: the aim often stops at the first
        yield candidate
    for candidate in sizes:
        if len(candidate.palette) != 2 or candidate.reference is None:
            continue
        grid = halftone(candidate.reference, max(0.3, float(candidate.grid.mean())))
        if grid.any():
            yield replace(candidate, grid=grid, alternative=(1 - grid).astype(np.uint8),
                          confidence=np.full(grid.shape, 0.5), info={**candidate.info, "halftone": True})


def _other_sizes(img: Image.Image, imported: ImportResult, options: ImageOptions):
    """The picture imported at the alternative sizes, when the user left the size free."""
    if options.size or options.width or options.height or imported.info.get("pixel_art"):
        return
    height, width = imported.grid.shape
    for factor in ALTERNATIVE_SIZES:
        long_side = max(5, round(factor * max(width, height)))
        sized = replace(options, width=long_side) if width >= height else replace(options, height=long_side)
        try:
            yield image_to_grid(img, sized)
        except NonogenError:
            continue


def _ease_to(result: Repair2D, grade: int, clock: Deadline) -> Repair2D:
    """Reveal cells one at a time until the puzzle's grade is at most ``grade``."""
    session, grid = result.session, result.grid
    if session is None or result.report["status"] != "unique":
        return result
    added = tuple(g for g in result.puzzle.givens if g not in session.puzzle.givens)
    rating = session.verify(grid, added, timeout=clock.left(), grade=True)
    extra = 0
    while rating.grade is not None and rating.grade > grade and not clock.expired():
        given = ease(session, added, grid)
        if given is None:
            break
        added, extra = tuple(sorted(added + (given,))), extra + 1
        rating = session.verify(grid, added, timeout=clock.left(), grade=True)
    if not extra:
        return result
    puzzle = session.with_givens(added).replace(goal=grid)
    report = dict(result.report)
    report.update(givens=[list(g) for g in puzzle.givens], givens_added=report["givens_added"] + extra,
                  line_solvable=rating.difficulty == "line", difficulty=rating.difficulty)
    return Repair2D(puzzle, grid, report, session)


def _puzzle_files(result: Repair2D, clock: Deadline) -> tuple[dict[str, str], dict[str, dict]]:
    """Each puzzle file's text, and its format, what it drops and the status it really has."""
    final = result.puzzle
    texts: dict[str, str] = {}
    status_of: dict[str, dict] = {}
    without_givens: Optional[str] = None
    for name in PUZZLE_FILES[final.is_color]:
        fmt = formats.format_for(name)
        texts[name] = formats.dumps(final, fmt)
        drops = formats.dropped(final, fmt)
        status = result.report["status"]
        if final.givens and any("given" in d for d in drops):
            if without_givens is None:
                without_givens = _status_without_givens(result, clock)
            status = without_givens
        status_of[name] = {"format": fmt, "drops": drops, "status": status}
    return texts, status_of


def _lossy_files(file_status: dict[str, dict], status: str) -> list[str]:
    """A warning naming the files whose format cannot hold what makes the puzzle unique (its givens)."""
    lossy = {name: info["status"] for name, info in file_status.items() if info["status"] != status}
    if not lossy:
        return []
    keeps = [name for name in file_status if name not in lossy]
    words = {"multiple": "has several solutions", "timeout": "was not proved unique in time"}
    without = " / ".join(sorted({words.get(s, s) for s in lossy.values()}))
    return [f"{', '.join(lossy)} cannot hold the givens, and without them the puzzle {without}; "
            f"{', '.join(keeps) or 'no other file'} keeps them"]


def _status_without_givens(result: Repair2D, clock: Deadline) -> str:
    """What a solver that never sees the givens faces (the repair's session knows the clues)."""
    session = result.session
    if session is not None and not session.puzzle.givens:
        return session.verify(result.grid, timeout=clock.left()).status
    from ..solve import verify

    return verify(result.puzzle.replace(givens=()), result.grid, timeout=clock.left(), grade=False).status


def _report(name: Optional[str], result: Repair2D, imported: ImportResult, files: dict[str, dict]) -> dict[str, Any]:
    final, rep = result.puzzle, result.report
    complete = [n for n, f in files.items() if f["status"] == rep["status"]]
    quality = measure(result.grid, imported.reference, final.palette, imported.reference_rgb)
    changed = rep["givens_added"] + len(rep["edits"])
    return {
        "image": name,
        "status": rep["status"],
        "puzzle_file": complete[0] if complete else "puzzle.json",
        "width": final.width,
        "height": final.height,
        "colors": final.n_colors,
        "palette": [{"name": c.name, "rgb": c.rgb, "char": c.char} for c in final.palette],
        "givens": rep["givens"],
        "edits": rep["edits"],
        "ambiguous_cells": rep["ambiguous_cells"],
        "ambiguous_count": rep["ambiguous_count"],
        "initial_status": rep["initial_status"],
        "repair": rep["repair"],
        "line_solvable": rep["line_solvable"],
        "difficulty": rep["difficulty"],
        "work": rep["work"],
        **quality,
        "repair_cells": changed,
        "repair_share": round(changed / result.grid.size, 4),
        "warnings": list(imported.warnings),
        "import": imported.info,
        "files": files,
        "timings": rep["timings"],
        "message": rep["message"],
        "seconds": rep["seconds"],
    }


def folder_files(made: MadePuzzle, cell: int = 20) -> dict[str, Union[str, bytes]]:
    """Everything ``nonogen image`` writes into its folder: puzzle files, sheets, a playable page, report."""
    from ..export.html import page_2d
    from ..files import json_text
    from ..render import encode
    from ..render.book import caption as grade_caption
    from ..render.sheet2d import sheet_picture

    files: dict[str, Union[str, bytes]] = dict(made.files)
    caption = grade_caption(None, made.report.get("grade"), made.report.get("grade_name"))
    for stem, solution in (("puzzle", None), ("solution", made.solution)):
        picture = sheet_picture(made.puzzle, solution, cell, caption=caption, legend=made.puzzle.is_color)
        files[f"{stem}.svg"] = encode(picture, ".svg")
        files[f"{stem}.png"] = encode(picture, ".png")
    files["puzzle.html"] = page_2d(made.puzzle, made.solution)
    files["report.json"] = json_text(made.report)
    return files
