"""The studio's routes for scanned puzzle pages, and the clue document they take: adapters like :mod:`.app`'s.

A page (a picture or a PDF, uploaded or a file of the folder) is read in the
tab's import lane (a newer page or picture takes its place); the clue mode's
proof after each correction runs in the tab's check lane, the one an edit's
check takes, on the worker kept for checks. Saving a corrected puzzle is
:mod:`.app`'s save route, given the clue document instead of a grid.
The work is :mod:`.scanwork`'s, in a worker.
"""
from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..errors import InputError
from .inputs import MAX_SIDE, checked_palette, doc_texts
from .limits import job_seconds
from .tabs import Tab
from .web import answer, file_name, read_json, streamed, studio_of, tab_of, uploaded

__all__ = ["ROUTES", "checked_clues", "LARGEST_NUMBER"]

LARGEST_NUMBER = 9999
"""Largest number a clue may hold: a misreading (73 for a 10-cell line) is kept as read, for the proof to refute."""


def checked_clues(doc: Any) -> dict[str, Any]:
    """A clue document as the page sends it, checked and cleaned: ``rows`` and ``cols`` (each line a list of
    whole numbers; a 0 is dropped: ``[0]`` is an empty line), a colour puzzle's ``palette`` (background first, as the
    editor's) with ``row_colours`` and ``col_colours`` (each number's entry), ``givens`` (``[row, col, colour]``),
    ``row_confidence`` and ``col_confidence`` (0 to 1,
    one a line; absent: 1), ``legible`` (false for a photo read unsurely throughout: every line not yet confirmed
    stays a suspect; absent: true), ``confirmed`` (the lines a person typed or confirmed, as "row 3" or "column 12":
    no longer named for their neighbours' sake; anything else is left out), ``title`` and the
    :data:`~.inputs.META_FIELDS`.

    >>> checked_clues({"rows": [[1], [0]], "cols": [[1], []], "row_confidence": [0.2, 1]})["rows"]
    [[1], []]
    >>> [checked_clues({"rows": [[1]], "cols": [[1]], "legible": v})["legible"] for v in (False, None, "no")]
    [False, True, True]
    >>> checked_clues({"rows": [[1]], "cols": [[1]], "confirmed": ["column 1", "row 2", 3]})["confirmed"]
    ['column 1']
    """
    if not isinstance(doc, dict):
        raise InputError("expected clues: {rows, cols}")
    palette = checked_palette(doc["palette"]) if doc.get("palette") is not None else None
    inks = 1 if palette is None else len(palette) - 1
    rows, row_colours = _lines(doc.get("rows"), doc.get("row_colours"), inks, "rows")
    cols, col_colours = _lines(doc.get("cols"), doc.get("col_colours"), inks, "cols")
    return {"rows": rows, "cols": cols, "palette": palette, "row_colours": row_colours, "col_colours": col_colours,
            "givens": _givens(doc.get("givens"), len(rows), len(cols), inks),
            "row_confidence": _confidence(doc.get("row_confidence"), len(rows)),
            "col_confidence": _confidence(doc.get("col_confidence"), len(cols)),
            "legible": doc.get("legible") is not False,
            "confirmed": _confirmed(doc.get("confirmed"), len(rows), len(cols)), **doc_texts(doc, len(cols), len(rows))}


def _lines(value: Any, colours: Any, inks: int, what: str) -> tuple[list[list[int]], list[list[int]]]:
    """The clues of one side, and each number's colour (1 to ``inks``; absent or not one a number: 1)."""
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_SIDE:
        raise InputError(f"{what}: expected a list of 1 to {MAX_SIDE} clues")
    given = colours if isinstance(colours, list) and len(colours) == len(value) else [None] * len(value)
    lines, kept = [], []
    for line, tints in zip(value, given, strict=True):
        if not (isinstance(line, list) and len(line) <= MAX_SIDE
                and all(type(n) is int and 0 <= n <= LARGEST_NUMBER for n in line)):
            raise InputError(f"{what}: each clue is a list of at most {MAX_SIDE} whole numbers 0 to {LARGEST_NUMBER}")
        if not (isinstance(tints, list) and len(tints) == len(line)):
            tints = [1] * len(line)
        if not all(type(k) is int and 1 <= k <= inks for k in tints):
            raise InputError(f"{what}: a number's colour is a palette entry, 1 to {inks}")
        lines.append([n for n in line if n])
        kept.append([k for n, k in zip(line, tints, strict=True) if n])
    return lines, kept


def _givens(value: Any, height: int, width: int, inks: int) -> list[list[int]]:
    """Cells printed known on the page, ``[row, col, colour]`` (0: empty)."""
    if value is None:
        return []
    if not (isinstance(value, list) and all(isinstance(g, list) and len(g) == 3 and all(type(v) is int for v in g)
                                            for g in value)):
        raise InputError("givens: expected a list of [row, col, colour] cells")
    for r, c, k in value:
        if not (0 <= r < height and 0 <= c < width and 0 <= k <= inks):
            raise InputError(f"given ({r}, {c}, {k}) is outside the {width}x{height} grid or its palette")
    return [list(g) for g in value]


def _confirmed(value: Any, rows: int, cols: int) -> list[str]:
    """The lines named in ``value`` that the puzzle has ("row 3", "column 12"); anything else is left out."""
    lines = {f"row {k + 1}" for k in range(rows)} | {f"column {k + 1}" for k in range(cols)}
    return sorted({v for v in value if isinstance(v, str) and v in lines}) if isinstance(value, list) else []


def _confidence(value: Any, count: int) -> list[float]:
    """One confidence a line (0 to 1); anything else (absent, another puzzle's) is taken as sure."""
    fits = isinstance(value, list) and len(value) == count and all(
        type(v) in (int, float) and 0 <= v <= 1 for v in value)
    return [float(v) for v in value] if fits else [1.0] * count


async def scan_upload(request: Request) -> Response:
    """An uploaded page (the raw bytes: a picture or a PDF) read into its puzzles."""
    async with uploaded(request, "import", "page") as (tab, claim, path):
        return await _scanned(request, tab, str(path), file_name(request) or "the page", claim)


async def scan_open(request: Request) -> Response:
    """A page of the studio's folder (``{"name": ...}``) read into its puzzles."""
    studio, tab = studio_of(request), tab_of(request)
    claim = studio.engine.claim(tab.lane("import"))
    body = await read_json(request)
    path = await asyncio.to_thread(studio.folder.file, body.get("name"), studio.limits.upload_bytes)
    return await _scanned(request, tab, str(path), path.name, claim)


async def _scanned(request: Request, tab: Tab, path: str, name: str, claim: int) -> Response:
    job = {"kind": "scan", "path": path, "name": name}
    return answer(await studio_of(request).engine.one(job, lane=tab.lane("import"), claim=claim,
                                                       seconds=job_seconds("scan")))


async def scan_check(request: Request) -> Response:
    """The proof of the clue document ``{"clues": ...}`` (verdict and suspects, solution, grade) as JSON lines."""
    engine, lane = studio_of(request).engine, tab_of(request).lane("check")
    claim = engine.claim(lane)  # the correction before this one is dropped now
    body = await read_json(request)
    return streamed(engine, {"kind": "clues", "clues": checked_clues(body.get("clues"))}, lane, claim)


ROUTES = [
    Route("/api/scan", scan_upload, methods=["POST"]),
    Route("/api/scan/open", scan_open, methods=["POST"]),
    Route("/api/scan/check", scan_check, methods=["POST"]),
]
