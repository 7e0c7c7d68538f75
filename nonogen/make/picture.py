"""Picture -> verified, repaired nonogram with a report: the twin of :mod:`nonogen.make.level3d`.

Import (threshold or quantize, vote per cell), derive the clues, verify and
repair, then decide which puzzle files can carry the result: a format that
cannot hold givens is only as good as the puzzle without them, so each file
is labelled with the status it really has.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Optional, Union

import numpy as np
from PIL import Image

from .. import formats
from ..clues import puzzle_from_grid
from ..importers.binarize import halftone
from ..importers.image import ImageOptions, ImportResult, image_to_grid, pixels_wanted
from ..importers.picture_file import load_image
from ..importers.advice import refuse_unreadable
from ..importers.quality import measure
from ..errors import NonogenError, OptionError, SolverTimeout
from ..made import Made
from ..solve import verify
from ..solve.deadline import Deadline, OutOfTime, interrupt_at, read_limit
from .repair2d import MODES as REPAIR_MODES
from .repair2d import Repair2D, ease_to_grade, repair

__all__ = ["from_image", "check_making", "PUZZLE_FILES", "UNIQUE_MODES"]

UNIQUE_MODES = ("auto", *REPAIR_MODES)
"""How a picture's puzzle is made unique: ``auto`` reveals givens only when a few edits of uncertain cells cannot
do it (every file format holds an edited puzzle; most cannot hold givens), or one of the repair's own modes."""

PUZZLE_FILES = {False: ("puzzle.non", "puzzle.json"), True: ("puzzle.cnon", "puzzle.xml", "puzzle.json")}
"""The puzzle files written for a black-and-white (False) and a colour (True) puzzle, best first."""

Picture = Union[str, Path, bytes, Image.Image]


def from_image(
    source: Picture,
    *,
    options: Optional[ImageOptions] = None,
    unique: str = "auto",
    line_solvable: bool = False,
    grade: Optional[int] = None,
    max_edits: Optional[int] = None,
    timeout: float = 60.0,
    title: Optional[str] = None,
    min_readability: Optional[float] = None,
    **picture: Any,
) -> Made:
    """Turn a picture (a file, its bytes or a Pillow image; an SVG file or its bytes are rendered for the grid) into a
    verified puzzle, repaired as ``unique`` says.

    How the picture is read is ``options`` (an :class:`ImageOptions`) or its
    fields as keywords (``size=(30, 20)``, ``colors=3``, ``mode="bw"``...);
    keywords win over ``options``. ``unique`` is ``"auto"`` (edit a few
    uncertain cells when that makes it unique, else reveal cells), ``"givens"``
    (reveal cells), ``"edit"`` (change picture cells) or ``"off"`` (only report);
    a puzzle file whose format cannot hold the givens the puzzle needs is not
    written (``report["files_left_out"]`` says why);
    ``line_solvable`` keeps repairing until line logic alone solves the
    puzzle. ``grade`` (1-5) aims at that difficulty grade (see :func:`_aim`)
    instead. The default title is "Puzzle WxH": the file name would often
    give the answer away (it stays in the report). ``min_readability`` (0-1)
    refuses, with :class:`InputError`, a picture whose recognisability as
    imported is under it, before any repair (see :mod:`..importers.quality`).
    Options that would silently override each other (six colours in black
    and white, a grade with another repair) are refused with an
    :class:`OptionError` naming both.

    >>> made = from_image("samples/images/heart-pixelart-x10.png", colors=3)
    >>> made.report["status"], made.puzzle.width, made.puzzle.n_colors
    ('unique', 13, 2)
    """
    started = time.monotonic()
    options = replace(options or ImageOptions(), **picture) if picture else (options or ImageOptions())
    check_making(unique=unique, line_solvable=line_solvable, grade=grade, max_edits=max_edits,
                 min_readability=min_readability)
    clock = Deadline(timeout)
    name = str(source) if isinstance(source, (str, Path)) else None
    limit = read_limit(timeout)
    try:
        with interrupt_at(limit):  # decoding and importing a 40-megapixel picture takes seconds; they count too
            img = source if isinstance(source, Image.Image) else load_image(source, reduce_for=pixels_wanted(options))
            imported = image_to_grid(img, options)
    except OutOfTime:
        raise SolverTimeout(f"reading the picture took longer than {limit:g} s (half the time limit, "
                            "at least a second)") from None
    if min_readability is not None:  # refused before any repair: cheap, and nothing is written
        assert imported.reference is not None  # image_to_grid always measures it
        refuse_unreadable(imported.grid, imported.reference, imported.palette, least=min_readability,
                          info=imported.info, options=options,
                          remake=lambda other: image_to_grid(img, other, advise=False))

    def make(imported: ImportResult, mode: str, line: bool) -> Repair2D:
        """Repair the imported picture; mode "hard" reveals the givens that help the solver least."""
        label = title or f"Puzzle {imported.grid.shape[1]}x{imported.grid.shape[0]}"
        puzzle = puzzle_from_grid(imported.grid, imported.palette, title=label)
        return repair(puzzle, imported.grid, mode="givens" if mode == "hard" else mode, line_solvable=line,
                      confidence=imported.confidence, alternative=imported.alternative, timeout=clock.left(),
                      max_edits=max_edits, hard=mode == "hard", grade=True)

    notes: list[str] = []
    if grade is not None:
        result, imported = _aim(grade, img, imported, options, make, clock, notes)
    elif unique == "auto":
        result = _givens_only_if_needed(make(imported, "givens", line_solvable),
                                        lambda: make(imported, "edit", line_solvable), notes)
    else:
        result = make(imported, unique, line_solvable)
    file_status, left_out = _puzzle_files(result, clock)
    report = _report(name, result, imported, file_status, started)
    report["files_left_out"] = left_out
    report["grade_wanted"] = grade
    report["warnings"] += notes + [f"{name} not written: {why}" for name, why in left_out.items()]
    return Made(result.puzzle, result.grid, report)


def check_making(*, unique: str = "auto", line_solvable: bool = False, grade: Optional[int] = None,
                 max_edits: Optional[int] = None, min_readability: Optional[float] = None) -> None:
    """Refuse a bad value, or repair options that another one would silently override, before any picture is read.

    :func:`from_image` calls it, and so does a caller making many pictures
    with one set of options, which should fail once rather than once per
    picture (the picture's own options are checked by :class:`ImageOptions`).
    Aiming at a grade picks the repair itself (givens, line-solvable for
    grade 1); only edits have a budget; ``off`` repairs nothing.

    >>> check_making(grade=2, unique="edit")
    Traceback (most recent call last):
    ...
    nonogen.errors.OptionError: unique edit cannot go with grade 2: aiming at a grade chooses the repair itself
    """
    if unique not in UNIQUE_MODES:
        raise OptionError("unique", unique, " or ".join(UNIQUE_MODES))
    if grade is not None and not 1 <= grade <= 5:
        raise OptionError("grade", grade, "1 to 5")
    if min_readability is not None and not 0 <= min_readability <= 1:
        raise OptionError("min_readability", min_readability, "a recognisability from 0 to 1")
    if grade is not None:
        for name, value in (("unique", None if unique == "auto" else unique), ("line_solvable", line_solvable or None),
                            ("max_edits", max_edits)):
            if value is not None:
                raise OptionError(name, value, "aiming at a grade chooses the repair itself", against=("grade", grade))
    if max_edits is not None and unique in ("givens", "off"):
        raise OptionError("max_edits", max_edits, "only edits spend an edit budget", against=("unique", unique))
    if line_solvable and unique == "off":
        raise OptionError("line_solvable", True, "off repairs nothing", against=("unique", unique))


LAST_SHARE = 0.2
"""Share of the time limit kept back, when aiming at a grade, for the final verdict, grade and files."""


ALTERNATIVE_SIZES = (1.25, 1.5, 0.8, 2.0)
"""Size factors tried, in order, when a picture at its size gives a puzzle easier than the grade asked for."""
ALTERNATIVE_LONGEST = 60
"""The long side no alternative size goes beyond. Twice the 40-cell default made an icon aimed at grade 3 an 80x80
puzzle (6,400 cells); 60 is where the ladder stopped when the default was 30."""


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
    if grade == 1:
        result = ease_to_grade(make(imported, "givens", True), 1, clock)
        if result.report["grade"] not in (None, 1):
            notes.append(f"grade 1 not reached: line-solvable, but grade {result.report['grade']} "
                         "for its size and work")
        return result, imported
    tried = []
    reserve = LAST_SHARE * clock.remaining()
    best: Optional[tuple[int, Repair2D, ImportResult]] = None
    for candidate in _variants(img, imported, options):
        if clock.remaining() < reserve:
            break
        result = ease_to_grade(make(candidate, "hard", False), grade, clock)
        got = result.report["grade"] if result.report["status"] == "unique" else None
        label = "x".join(map(str, candidate.grid.shape[::-1])) + _variant_label(candidate.info)
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
        if best[0] < grade and len(imported.palette) > 2 and not _colour_left_free(options):
            notes.append(f"colour clues tell more than black and white: in black and white (mode bw) the picture "
                         f"may reach grade {grade}")
    if best[2].info.get("black_and_white"):
        notes.append(f"drawn in black and white to reach grade {best[0]}: colour clues tell more, and in colour "
                     f"this picture stays easier")
    if best[2].info.get("halftone"):
        notes.append(f"drawn as a halftone (tones as dot density) to reach grade {best[0]}")
    if best[2].info.get("redrawn"):
        notes.append(f"{best[2].info['redrawn']} cells on uncertain edges drawn the other way to reach grade {best[0]}")
    return best[1], best[2]


def _variant_label(info: dict) -> str:
    label = " bw" if info.get("black_and_white") else ""
    if info.get("halftone"):
        return label + " halftone"
    return label + (f" redrawn {info['redrawn']}" if info.get("redrawn") else "")


def _variants(img: Image.Image, imported: ImportResult, options: ImageOptions):
    """The picture as imported, near-identical renderings of it, other sizes, then halftones (black and white only).

    Each size comes with its near-identical renderings (:func:`_renderings`)
    before the next size. A picture drawn in colour because the mode was
    left to nonogen is then tried in black and white: colour clues tell
    more, so colour puzzles stay easier. Halftones come last: they reach
    harder grades, but tones drawn as dots look less like the picture.
    """
    sizes = []
    for candidate in itertools.chain([imported], _other_sizes(img, imported, options)):
        sizes.append(candidate)  # made one at a time: the aim often stops at the first
        yield candidate
        yield from _renderings(candidate)
    if _colour_left_free(options) and len(imported.palette) > 2:
        try:
            bw = image_to_grid(img, replace(options, mode="bw", min_distance=None))  # no palette in black and white
        except NonogenError:
            bw = None
        if bw is not None:
            bw = replace(bw, info={**bw.info, "black_and_white": True})
            sizes.append(bw)
            yield bw
            yield from _renderings(bw)
    for candidate in sizes:
        if len(candidate.palette) != 2 or candidate.reference is None:
            continue
        grid = halftone(candidate.reference, max(0.3, float(candidate.grid.mean())))
        if grid.any():
            yield replace(candidate, grid=grid, alternative=(1 - grid).astype(np.uint8),
                          confidence=np.full(grid.shape, 0.5), info={**candidate.info, "halftone": True})


def _colour_left_free(options: ImageOptions) -> bool:
    """Whether nonogen chose colour or black and white (the user set neither a mode nor a number of colours)."""
    return options.mode == "auto" and options.colors is None


UNCERTAIN = 0.75
"""Cells whose vote was closer than this (confidence below it) may be drawn the other way by :func:`_renderings`."""

REDRAWN = (4, 8, 16)
"""How many of the most uncertain cells each near-identical rendering draws the other way."""


def _renderings(imported: ImportResult):
    """The picture with its few most uncertain cells drawn as their runner-up: as close to it as the import allows.

    Such cells sit on edges, where the picture itself cannot say which
    colour wins; drawing them the other way changes the clues, and so the
    reasoning the puzzle needs, without changing what it shows. Exact pixel
    art has no uncertain cell and stays exact.
    """
    confidence = imported.confidence
    order = np.argsort(confidence, axis=None, kind="stable")
    uncertain = [int(i) for i in order
                 if confidence.flat[i] < UNCERTAIN and imported.alternative.flat[i] != imported.grid.flat[i]]
    for count in REDRAWN:
        if count > len(uncertain):
            break
        grid = imported.grid.copy()
        grid.flat[uncertain[:count]] = imported.alternative.flat[uncertain[:count]]
        yield replace(imported, grid=grid, info={**imported.info, "redrawn": count})


def _other_sizes(img: Image.Image, imported: ImportResult, options: ImageOptions):
    """The picture imported at the alternative sizes, when the user left the size free."""
    if options.size or options.width or options.height or imported.info.get("pixel_art"):
        return
    height, width = imported.grid.shape
    tried = {max(width, height)}
    for factor in ALTERNATIVE_SIZES:
        long_side = min(ALTERNATIVE_LONGEST, max(5, round(factor * max(width, height))))
        if long_side in tried:
            continue
        tried.add(long_side)
        sized = replace(options, width=long_side) if width >= height else replace(options, height=long_side)
        try:
            yield image_to_grid(img, sized)
        except NonogenError:
            continue


def _givens_only_if_needed(with_givens: Repair2D, edited: Callable[[], Repair2D], notes: list[str]) -> Repair2D:
    """The repair every puzzle file can hold: by edits when givens were needed and a few edits do as well.

    ``.non``, ``.cnon`` and webpbn XML cannot hold givens, and a puzzle that
    needs one is not unique in them; people share puzzles in those formats.
    Changing a few uncertain cells of the picture instead (the ``edit``
    repair) gives one puzzle that is unique in every file. When edits cannot
    do it within their budget, the givens stay and the files that cannot
    hold them are left out (:func:`_puzzle_files`).
    """
    if not with_givens.puzzle.givens:
        return with_givens
    other = edited()
    rep = other.report
    if rep["status"] != "unique" or other.puzzle.givens or (with_givens.report["line_solvable"]
                                                           and not rep["line_solvable"]):
        return with_givens
    n, k = len(rep["edits"]), len(with_givens.puzzle.givens)
    notes.append(f"{n} uncertain cell{'s' if n != 1 else ''} of the picture drawn the other way instead of "
                 f"revealing {k} given cell{'s' if k != 1 else ''}, so every puzzle file holds the unique puzzle")
    return other


def _puzzle_files(result: Repair2D, clock: Deadline) -> tuple[dict[str, dict], dict[str, str]]:
    """Each puzzle file's format and what it drops, and the files left out with the reason.

    A file whose format cannot hold the givens the puzzle needs would hold a
    puzzle with several solutions: it is not written.
    """
    final, status = result.puzzle, result.report["status"]
    written: dict[str, dict] = {}
    left_out: dict[str, str] = {}
    without_givens: Optional[str] = None
    for name in PUZZLE_FILES[final.is_color]:
        fmt = formats.format_for(name)
        drops = formats.dropped(final, fmt)
        if final.givens and any("given" in d for d in drops):
            if without_givens is None:
                without_givens = _status_without_givens(result, clock)
            if without_givens != status:
                n = len(final.givens)
                words = {"multiple": "has several solutions", "timeout": "was not proved unique in time"}
                left_out[name] = (f"without its {n} given cell{'s' if n != 1 else ''} the puzzle "
                                  f"{words.get(without_givens, without_givens)}, and .{name.rsplit('.', 1)[1]} "
                                  "cannot hold givens")
                continue
        written[name] = {"format": fmt, "drops": drops, "status": status}
    return written, left_out


def _status_without_givens(result: Repair2D, clock: Deadline) -> str:
    """What a solver that never sees the givens faces (the repair's session knows the clues)."""
    session = result.session
    if session is not None and not session.puzzle.givens:
        return session.verify(result.grid, timeout=clock.left(), grade=False).status
    return verify(result.puzzle.replace(givens=()), target=result.grid, timeout=clock.left(), grade=False).status


REPAIR_KEYS = ("givens", "edits", "ambiguous_cells", "ambiguous_count", "initial_status", "repair", "line_solvable",
               "difficulty", "work")
"""What the picture report takes from the repair's report, in the order it lists them."""


def _report(name: Optional[str], result: Repair2D, imported: ImportResult, files: dict[str, dict],
            started: float) -> dict[str, Any]:
    """The report of ``nonogen image``: puzzle, repair, likeness to the picture, files, seconds since ``started``."""
    final, rep = result.puzzle, result.report
    complete = [n for n, f in files.items() if f["status"] == rep["status"]]
    changed = rep["givens_added"] + len(rep["edits"])
    return {
        "image": name,
        "status": rep["status"],
        "puzzle_file": complete[0] if complete else "puzzle.json",
        "width": final.width,
        "height": final.height,
        "colors": final.n_colors,
        "palette": [{"name": c.name, "rgb": c.rgb, "char": c.char} for c in final.palette],
        **{key: rep[key] for key in REPAIR_KEYS},
        **measure(result.grid, imported.reference, final.palette, imported.reference_rgb),
        "repair_cells": changed,
        "repair_share": round(changed / result.grid.size, 4),
        "warnings": list(imported.warnings),
        "import": imported.info,
        "files": files,
        "timings": rep["timings"], "message": rep["message"], "seconds": round(time.monotonic() - started, 3),
        **{key: rep[key] for key in ("grade", "grade_name", "score")},
    }
