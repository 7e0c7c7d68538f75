"""The studio's scanned puzzles, in a worker: a page read into puzzles (with where each clue is on the page), and a
puzzle of clues proved again after each correction a person makes.

Reading is :func:`nonogen.scan`'s, proving the engine's; here the page's
part that holds one puzzle (its grid and its clues) is cut out for the page
to show beside the clue lists, and every clue's numbers get their boxes on
that picture, so a suspect can be outlined where it was read and a click on
the picture finds the clue under it. The first read does not prove: the page
asks for the proof of the puzzle it shows (:func:`check_clues`, the proof lane
an edit uses), so a page of four puzzles is on screen as soon as it is read.
"""
from __future__ import annotations

import base64
import io
import time
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from ..errors import InputError, NonogenError
from ..scanning import Scan, scan, suspects
from ..solve.deadline import Deadline
from ..solve.grade import rate
from ..solve.session import Session
from .document import clue_puzzle, palette_json
from .limits import CHECK_SECONDS

__all__ = ["scan_page", "check_clues", "page_view", "MOST_PUZZLES", "LARGEST_VIEW"]

Message = dict[str, Any]

MOST_PUZZLES = 100
"""Most puzzles of one file sent to the page (a book's PDF): each comes with its part of a page to show."""

LARGEST_VIEW = 1200
"""Longest side, in pixels, of the part of a page shown beside a puzzle (a larger one is scaled down)."""


def scan_page(job: dict[str, Any]) -> Iterator[Message]:
    """The puzzles on the picture or PDF ``job["path"]`` (named ``job["name"]`` to the author), as read: clues,
    confidences, the suspects reading names, and each puzzle's part of its page with its clues' boxes."""
    path, name = Path(job["path"]), str(job["name"])
    try:
        found = scan(path, verify=False, layout=True)
    except NonogenError as exc:  # named as the author knows the file, never by the server's own path
        raise InputError(str(exc).replace(str(path), name)) from None
    yield {"file": name, "puzzles": [_puzzle(f, name) for f in found[:MOST_PUZZLES]],
           "left_out": max(0, len(found) - MOST_PUZZLES)}


def _numbers(clue: tuple) -> list[int]:
    return [n for n, _ in clue]


def _puzzle(found: Scan, name: str) -> Message:
    puzzle = found.puzzle
    where = found.label.replace(found.file, name, 1)
    return {"label": where, "page": found.page, "index": found.index, "read_from": found.source,
            "size": [puzzle.width, puzzle.height],
            "rows": [_numbers(c) for c in puzzle.rows], "cols": [_numbers(c) for c in puzzle.cols],
            "palette": palette_json(puzzle.palette) if puzzle.is_color else None,
            "row_colours": [[k for _, k in c] for c in puzzle.rows],
            "col_colours": [[k for _, k in c] for c in puzzle.cols],
            "givens": [list(g) for g in puzzle.givens],
            "row_confidence": [round(c, 3) for c in found.row_confidence],
            "col_confidence": [round(c, 3) for c in found.col_confidence],
            "legible": found.legible, "suspects": list(found.suspects), "view": page_view(found)}


def page_view(found: Scan) -> Message:
    """The part of ``found``'s page that holds its grid and clues, as a PNG data URL (in colour when the page has
    any: a colour puzzle's clues are told apart by their boxes' colours), with the grid's lines
    (``xs``, ``ys``) and each clue number's box (``rows[r]``, ``cols[c]``: ``[x0, y0, x1, y1]``) in its pixels.

    Needs a scan made with ``layout=True``.
    """
    from PIL import Image

    page, read = found.extra["page"], found.extra["found"]
    pixels = page.gray if page.rgb is None or page.rgb.shape[:2] != page.gray.shape else page.rgb
    lines = read.rows + read.cols
    x0, y0, x1, y1 = read.grid.box
    pitch = read.grid.pitch
    boxes = [item.box for line in lines for item in line]
    left = max(0, int(min([b[0] for b in boxes] + [x0 - pitch]) - pitch / 2))
    top = max(0, int(min([b[1] for b in boxes] + [y0 - pitch]) - pitch / 2))  # a title above is left out
    right = min(pixels.shape[1], int(x1 + pitch) + 1)
    bottom = min(pixels.shape[0], int(y1 + pitch) + 1)
    scale = min(1.0, LARGEST_VIEW / max(right - left, bottom - top))
    part = Image.fromarray(np.ascontiguousarray(pixels[top:bottom, left:right]))
    if scale < 1:
        size = (max(1, round(part.width * scale)), max(1, round(part.height * scale)))
        part = part.resize(size, Image.Resampling.LANCZOS)
    out = io.BytesIO()
    part.save(out, "PNG", optimize=True)

    def at(box: tuple) -> list[float]:
        return [round(float(box[0] - left) * scale, 1), round(float(box[1] - top) * scale, 1),
                round(float(box[2] - left) * scale, 1), round(float(box[3] - top) * scale, 1)]

    return {"image": "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii"),
            "width": part.width, "height": part.height,
            "xs": [round(float(x - left) * scale, 1) for x in read.grid.xs],
            "ys": [round(float(y - top) * scale, 1) for y in read.grid.ys],
            "rows": [[at(item.box) for item in line] for line in read.rows],
            "cols": [[at(item.box) for item in line] for line in read.cols]}


def check_clues(job: dict[str, Any]) -> Iterator[Message]:
    """The verdict of a puzzle of clues (a scan as corrected so far) with its suspects named again, then its
    solution (unique; for several, one of them and the cells a second one changes), then its grade."""
    started = time.monotonic()
    doc = job["clues"]
    puzzle = clue_puzzle(doc)
    clock = Deadline(float(job.get("timeout") or CHECK_SECONDS))
    result = Session(puzzle).verify(timeout=clock.left(), grade=False)
    yield {"verdict": result.status, "difficulty": result.difficulty, "message": result.message,
           "suspects": suspects(puzzle, doc["row_confidence"], doc["col_confidence"], result.status,
                                legible=doc["legible"], confirmed=frozenset(doc["confirmed"])),
           "seconds": round(time.monotonic() - started, 4)}
    if result.solution is None:
        return
    ambiguous = result.ambiguous
    yield {"solution": result.solution.tolist(),
           "ambiguous": [] if ambiguous is None else np.argwhere(ambiguous).tolist()}
    rated = rate(result, puzzle, deadline=clock)
    yield {"grade": rated.grade, "grade_name": rated.grade_name, "seconds": round(time.monotonic() - started, 4)}
