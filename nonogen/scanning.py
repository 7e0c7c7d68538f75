"""``nonogen.scan``: a picture or PDF of puzzles read back into puzzles, each proved at once, misreadings named.

Reading is :mod:`nonogen.importers.scan`'s (grids, numbers, confidences);
here each grid becomes a :class:`~nonogen.model.Puzzle`, is verified like any
puzzle file, and gets its *suspects*: the lines whose clue was most likely
misread. When the reading shows a misread (no solution, a clue longer than
its line, rows and columns holding different numbers of cells), the fewest
changes of numbers read, each to one of its other readings, that make the
puzzle solvable are found (:mod:`nonogen.importers.scan.suspects` offers
each line its readings, :mod:`nonogen.solve.readings` chooses one a line,
all lines at once) and their lines named first, with what they would read. A clue read with low
confidence is a suspect too, however many; so is every line whose clue cannot fit its
length, and when the totals differ, the least sure lines. When the reading shows a misread and no fix is found,
every doubtful line is named; on a photo whose digits read unsurely throughout (:attr:`Scan.legible` false), every
line is, and so when no clue at all was read on one side (the other side's lines are then checked by nothing). On a
misread page, a side a third of whose lines are named is named whole: misreadings come together.
"""
from __future__ import annotations

import collections
import functools
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, Union

from .clues import min_length
from .errors import InputError
from .model import Puzzle

__all__ = ["Scan", "scan", "scan_files", "scan_record", "UNSURE"]

UNSURE = 0.5
"""A clue read with less confidence than this is named as a suspect, whatever the verdict, however many: when the
list stopped at eight, a 36x38 photo's ninth such line was misread and not named (bench seed 29, page 23)."""
DOUBTFUL = 0.8
"""When the reading shows a misread and the fix search finds no fix, every clue read with less confidence than this
is named, however many: a page blurred or bent on one side misreads many lines, and naming eight left most of them
out."""
ILLEGIBLE_CONFIDENCE = 0.3
"""The most confidence a line of a photo whose digits read unsurely throughout (:attr:`Scan.legible` false) is
given: under :data:`UNSURE`, so each line is named until a person confirms it; the page's own measure of its
numbers' confidences cannot tell its misreads from the rest (:func:`.importers.scan.photoread.legible`)."""
ILLEGIBLE = "the whole page reads unsurely (blurred, or small in the photo)"
"""Why each line of a photo whose digits read unsurely throughout is named (:func:`.photoread.legible`), and what
the terminal says of such a page: every line's confidence is kept under :data:`ILLEGIBLE_CONFIDENCE`."""
EMPTY_CONFIDENCE = 0.8
"""Confidence in a line with nothing read beside it (taken as empty: some programs print no 0)."""
MOST_SUSPECTS = 8
"""Suspects the terminal shows in full (the others by name)."""
MOST_FIXES = 3
"""Fixes named as suspects (each with its changed lines), the likeliest first."""
FIX_TIMEOUT = 2.0
"""Seconds the engine may spend on one proposed fix (a random puzzle's second solution is usually quick)."""


@dataclass(frozen=True)
class Scan:
    """One puzzle read from a page: the puzzle, how sure each clue is, the verdict and the suspect lines.

    ``row_confidence[r]`` is the least confidence of row ``r``'s numbers
    (1 for a PDF's text layer); ``result`` is the
    :class:`~nonogen.solve.result.VerifyResult` (``None`` when not verified).
    With ``scan(..., layout=True)``, ``extra`` holds where the puzzle is on its page, for a person to compare
    with what was read (the studio's clue mode): ``page`` (the
    :class:`~nonogen.importers.scan.pages.Page`, its grey levels) and ``found`` (the
    :class:`~nonogen.importers.scan.read.Found`: the grid's lines and each number's box, in the page's pixels).
    """

    file: str
    page: int
    index: int
    puzzle: Puzzle
    row_confidence: tuple[float, ...]
    col_confidence: tuple[float, ...]
    source: str
    result: Any = None
    suspects: tuple[dict, ...] = ()
    seconds: float = 0.0
    pages: int = 1
    on_page: int = 1
    extra: dict = field(default_factory=dict)
    legible: bool = True
    """False for a photo whose digits read unsurely throughout: no clue's confidence can be trusted, every line is
    a suspect (a sharper photo, taken closer, reads better)."""

    @property
    def label(self) -> str:
        """The file, with ``#page`` when it has several pages and ``.grid`` when the page has several grids."""
        label = self.file if self.pages == 1 else f"{self.file}#{self.page}"
        return label if self.on_page == 1 else f"{label}.{self.index}"

    @property
    def confidence(self) -> float:
        """The least confidence of any clue."""
        return min(self.row_confidence + self.col_confidence)

    def scan_fields(self) -> dict:
        """What the scan adds to a verify record: where the puzzle was, how it was read, how sure, the suspects."""
        return {"page": self.page, "grid": self.index, "read_from": self.source,
                "confidence": round(self.confidence, 3),
                "row_confidence": [round(c, 3) for c in self.row_confidence],
                "col_confidence": [round(c, 3) for c in self.col_confidence],
                "legible": self.legible, "suspects": list(self.suspects), "scan_seconds": round(self.seconds, 3)}


def _line_confidence(items: tuple, source: str) -> float:
    if not items:
        return 1.0 if source == "text" else EMPTY_CONFIDENCE
    return min(i.confidence for i in items)


def _clue(items: tuple, colour: dict) -> tuple[list[tuple[int, int]], bool]:
    """The clue the numbers spell, and whether they are well formed (a 0 only alone, nothing below)."""
    values = [i.value for i in items]
    good = all(v >= 0 for v in values) and (values == [0] or 0 not in values)
    return [(i.value, colour.get(id(i), 1)) for i in items if i.value > 0], good


def _colours(found: Any) -> tuple[tuple, dict[int, int]]:
    """The palette of a found grid's numbers and each number's (by ``id``) colour index
    (:func:`~nonogen.importers.scan.colour.colour_palette`)."""
    from .importers.scan.colour import colour_palette

    return colour_palette([i for line in found.rows + found.cols for i in line if i.value > 0])


def puzzle_of(found: Any) -> tuple[Puzzle, list[float], list[float]]:
    """The puzzle a found grid's numbers spell, and each row's and column's confidence (a malformed clue: 0; on a
    page not legible, at most :data:`ILLEGIBLE_CONFIDENCE`).

    Numbers read with colours (a page in colour) make a colour puzzle of the distinct colours found
    (:func:`~nonogen.importers.scan.colour.colour_palette`); black alone stays black and white.
    """
    palette, colour = _colours(found)
    rows: list[list[tuple[int, int]]] = []
    cols: list[list[tuple[int, int]]] = []
    row_conf: list[float] = []
    col_conf: list[float] = []
    for lines, clues, confs in ((found.rows, rows, row_conf), (found.cols, cols, col_conf)):
        for items in lines:
            clue, good = _clue(items, colour)
            clues.append(clue)
            conf = _line_confidence(items, found.source) if good else 0.0
            confs.append(conf if found.legible else min(conf, ILLEGIBLE_CONFIDENCE))
    from .importers.scan.givens import puzzle_givens

    givens = puzzle_givens(getattr(found, "givens", ()), palette)
    return Puzzle(rows=rows, cols=cols, palette=palette, givens=givens), row_conf, col_conf


def _shown(clue: tuple) -> list[int]:
    return [n for n, _ in clue] or [0]


def _solvable(rows: list[list[tuple[int, int]]], cols: list[list[tuple[int, int]]], palette: tuple,
              timeout: float = FIX_TIMEOUT) -> Optional[str]:
    """The verdict on clues a fix proposes (None: no solution): line logic's contradiction first, it is quick."""
    from .errors import PuzzleError
    from .solve import line_solve, verify

    puzzle = Puzzle(rows=rows, cols=cols, palette=palette)
    try:
        _, solved = line_solve(puzzle)
    except PuzzleError:
        return None
    if solved:
        return "unique"
    status = verify(puzzle, timeout=timeout, grade=False).status
    return None if status == "unsolvable" else status


def traced(puzzle: Puzzle, status: Optional[str]) -> bool:
    """Whether a reading shows a misread: no solution, a clue longer than its line, or rows and columns that hold
    different numbers of cells (of some colour)."""
    if status == "unsolvable":
        return True
    if any(min_length(c) > puzzle.width for c in puzzle.rows) or any(min_length(c) > puzzle.height
                                                                    for c in puzzle.cols):
        return True
    return _cells_by_colour(puzzle.rows) != _cells_by_colour(puzzle.cols)


def _cells_by_colour(lines: Sequence) -> collections.Counter:
    counts: collections.Counter = collections.Counter()
    for clue in lines:
        for n, c in clue:
            counts[c] += n
    return counts


def fixes_of(found: Any, puzzle: Puzzle, status: Optional[str]) -> list:
    """The fewest changes of clues read that make the puzzle solvable, when the reading shows a misread (the search
    tries other numbers, each keeping its colour)."""
    if found.source != "pixels" or not traced(puzzle, status):
        return []
    from .importers.scan.suspects import fewest_changes
    from .solve.readings import fewest_changed

    _, colour = _colours(found)

    def choose(width: int, height: int, rows: list, cols: list, seconds: Optional[float]) -> list:
        return fewest_changed(width, height, rows, cols, colours=puzzle.n_colors, timeout=seconds)

    return fewest_changes(found.rows, found.cols, choose, functools.partial(_solvable, palette=puzzle.palette),
                          colour_of=lambda item: colour.get(id(item), 1))


def _read(change: Any, own: bool) -> str:
    """How a fix reads a number ("8 as 3" on the suspect's own line, else "row 3's 8 as 3") or a free line's whole
    clue ("its clue as 6 1 1 4", "column 1's clue as 6 1 1 4")."""
    whose = "its" if own else f"{change.kind} {change.line + 1}'s"
    if change.clue is None:
        return f"{change.was} as {change.now}" if own else f"{whose} {change.was} as {change.now}"
    return f"{whose} clue as {' '.join(map(str, change.clue)) or '0'}"


SHORT_OF_THE_GRID = 0.6
"""How much farther from the grid than its neighbours' (in its digits' heights) a line's clue may end before its
number nearest the grid is taken for lost (:func:`short_of_the_grid`)."""


def short_of_the_grid(found: Any) -> set[tuple[str, int]]:
    """The lines whose clue ends short of the grid: clues are set against the grid (a row's last number beside its
    first cell, a column's above its first), so when a line's last number stands a digit's height farther off than
    its neighbours' do, the number nearest the grid went unread (a stain on it, the grid's line through it). The
    neighbours' distance, not the page's: a bent page's redrawn margin drifts smoothly. The sums of rows and columns
    tell that a number is lost, not where; on a 25x25 photo the fix search then named three other lines."""
    x0, y0, _, _ = found.grid.box
    out = set()
    for kind, lines, edge, far in (("row", found.rows, x0, 2), ("column", found.cols, y0, 3)):
        gaps = {k: edge - max(i.box[far] for i in items) for k, items in enumerate(lines) if items}
        heights = {k: statistics.median(i.h for i in lines[k]) for k in gaps}
        ks = sorted(gaps)
        for n, k in enumerate(ks):
            near = [gaps[j] for j in ks[max(0, n - 3):n] + ks[n + 1:n + 4]]
            if len(near) >= 2 and gaps[k] - statistics.median(near) > SHORT_OF_THE_GRID * heights[k]:
                out.add((kind, k))
    return out


def _columns_under(box: tuple, grid: Any) -> range:
    """The columns a box over the ``grid`` reaches into (by more than a sixth of a cell)."""
    xs, margin = grid.xs, grid.pitch / 6
    first = next((c for c in range(len(xs) - 1) if xs[c + 1] - margin > box[0]), len(xs) - 1)
    last = next((c for c in reversed(range(len(xs) - 1)) if xs[c] + margin < box[2]), -1)
    return range(first, last + 1)


SUSPECT_SIDE = 1 / 3
"""Share of a side's lines (rows or columns) named for a reason of their own over which, on a misread page, every
line of that side is named (:func:`_whole_side`)."""


def _whole_side(named: dict, lines: list, add: Callable[..., None], confirmed: frozenset[str]) -> None:
    """On a misread page, every line of a side a third of whose lines are named already: misreadings come together
    (a shadow or a curl along the grid's edge spoils a whole line of numbers), and among many damaged columns a
    number read surely wrong goes unnoticed (two fresh bench pages: the line of column clues next to the grid read
    as "11" and "10" over a third of the columns; a sure "1" for a "2" among them was not named)."""
    for kind in ("row", "column"):
        side = [line for line in lines if line[0] == kind]
        already = sum((kind, i) in named for _, i, _, _, _ in side)
        if side and already >= SUSPECT_SIDE * len(side):
            for _, i, clue, conf, _ in side:
                if f"{kind} {i + 1}" not in confirmed:
                    add(kind, i, clue, conf, f"{already} of the {len(side)} {kind}s' clues are suspect: any of them "
                        "may be misread too")


def suspects(puzzle: Puzzle, row_conf: list[float], col_conf: list[float], status: Optional[str],
             fixes: tuple = (), found: Any = None, legible: bool = True,
             confirmed: frozenset[str] = frozenset()) -> list[dict]:
    """The lines whose clue was most likely misread, most likely first (see the module's note).

    ``fixes`` (:func:`fixes_of`) come first: each changed number's line,
    with the clue it would read and the verdict then. With the ``found``
    grid's items, lines equally sure are ordered by how much their glyphs
    look like their digits (a stain or a blur makes a digit look less so). On a page not ``legible`` (every
    line's confidence kept low by :func:`puzzle_of`) the reason given is the page's, not the line's. The lines a
    person ``confirmed`` ("row 3") are not named for their side's sake.
    """
    sureness: dict[tuple[str, int], float] = {}
    if found is not None:
        for kind, items_of in (("row", found.rows), ("column", found.cols)):
            for k, items in enumerate(items_of):
                sureness[kind, k] = min((i.likeness for i in items), default=1.0)
    sureness = collections.defaultdict(lambda: 1.0, sureness)
    lines = [("row", i, c, row_conf[i], puzzle.width) for i, c in enumerate(puzzle.rows)]
    lines += [("column", i, c, col_conf[i], puzzle.height) for i, c in enumerate(puzzle.cols)]
    named: dict[tuple[str, int], dict] = {}

    def add(kind: str, i: int, clue: tuple, conf: float, why: str, **more: Any) -> None:
        named.setdefault((kind, i), {"line": f"{kind} {i + 1}", "clue": _shown(clue), "confidence": round(conf, 3),
                                     "why": why, **more})

    for fix in fixes[:MOST_FIXES]:
        for change in fix.changes:
            clue = (puzzle.rows if change.kind == "row" else puzzle.cols)[change.line]
            others = "".join(f" with {_read(o, own=False)}" for o in fix.changes if o != change)
            add(change.kind, change.line, clue, change.confidence,
                f"reading {_read(change, own=True)}{others} makes the puzzle {fix.status}",
                read_as=list(change.clue) if change.clue is not None else change.now)

    for kind, i, clue, conf, length in lines:
        if min_length(clue) > length:
            add(kind, i, clue, conf, f"the clue needs {min_length(clue)} cells but the line has {length}")
    short = short_of_the_grid(found) if found is not None else set()
    for kind, i, clue, conf, _ in lines:
        if (kind, i) in short:
            add(kind, i, clue, conf, "its clue ends short of the grid: the number nearest the grid may be lost")
    misread = traced(puzzle, status)
    if found is not None and misread:
        for item in found.dropped:
            for c in _columns_under(item.box, found.grid):
                add("column", c, puzzle.cols[c], col_conf[c],
                    f"a smudge over its clue (read as {item.text}) was dropped: a number may be lost under it")
    unexplained = misread and not fixes  # a fix leaving several solutions explains it too
    for kind, i, clue, conf, _ in lines:
        if conf < (DOUBTFUL if unexplained else UNSURE):
            add(kind, i, clue, conf, "not a well-formed clue" if conf <= 0 else
                "read with low confidence" if legible else ILLEGIBLE)
    in_rows = sum(n for clue in puzzle.rows for n, _ in clue)
    in_cols = sum(n for clue in puzzle.cols for n, _ in clue)
    for kind, held, other in (("row", in_rows, in_cols), ("column", in_cols, in_rows)):
        if not held and other:  # a whole side unread (digits clipped by the grid's line, taken for a heading)
            for line_kind, i, clue, conf, _ in lines:
                add(line_kind, i, clue, conf, f"no {kind} clue was read at all: they were not found on the page"
                    if line_kind == kind else f"nothing checks it: no {kind} clue was read")
    if misread:
        _whole_side(named, lines, add, confirmed)
    if in_rows != in_cols or (status == "unsolvable" and not named):
        why = (f"rows hold {in_rows} cells, columns {in_cols}: a clue is misread" if in_rows != in_cols
               else "the puzzle has no solution: one of the least sure clues is likely misread")
        for kind, i, clue, conf, _ in sorted(lines, key=lambda line: (line[3], sureness[line[0], line[1]]))[:3]:
            add(kind, i, clue, conf, why)
    plain = ("the clue needs", "its clue ends short", "a smudge over")  # what the page shows, not a guess
    ordered = sorted(named.values(), key=lambda s: ("read_as" not in s, not s["why"].startswith(plain),
                                                    s["confidence"] if "read_as" not in s else 0))
    return ordered


def scan(path: Union[str, Path], *, verify: bool = True, timeout: Optional[float] = 60.0, strategy: str = "full",
         grade: bool = True, layout: bool = False) -> list[Scan]:
    """Every puzzle on the picture or PDF at ``path``, read, and (with ``verify``) proved: one :class:`Scan` each.

    Raises :class:`~nonogen.errors.InputError` when the file cannot be read
    or holds no puzzle grid (one line naming the file). ``layout`` keeps each
    puzzle's page and clue boxes in :attr:`Scan.extra`.

    >>> import nonogen, tempfile, pathlib
    >>> page = pathlib.Path(tempfile.mkdtemp()) / "heart.png"
    >>> _ = nonogen.draw(nonogen.load("samples/puzzles/heart.non"), page)
    >>> found = nonogen.scan(page)
    >>> found[0].puzzle.rows == nonogen.load("samples/puzzles/heart.non").rows, found[0].result.status
    (True, 'unique')
    """
    from .importers.scan.pages import read_pages
    from .importers.scan.read import read_page

    start = time.monotonic()
    pages = read_pages(path)
    found = [(page, f) for page in pages for f in read_page(page)]
    if not found:
        raise InputError(f"{path}: no puzzle grid found (a grid of lines with clue numbers beside it)")
    read_seconds = (time.monotonic() - start) / len(found)
    per_page: dict[int, int] = {}
    for page, _ in found:
        per_page[page.number] = per_page.get(page.number, 0) + 1
    out, seen = [], dict.fromkeys(per_page, 0)
    for page, grid in found:
        seen[page.number] += 1
        puzzle, row_conf, col_conf = puzzle_of(grid)
        result = None
        if verify:
            from .solve import verify as prove

            result = prove(puzzle, timeout=timeout, strategy=strategy, grade=grade)
        status = None if result is None else result.status
        named = suspects(puzzle, row_conf, col_conf, status, tuple(fixes_of(grid, puzzle, status)), grid,
                         grid.legible)
        out.append(Scan(str(path), page.number, seen[page.number], puzzle, tuple(row_conf), tuple(col_conf),
                        grid.source, result, tuple(named), read_seconds, len(pages), per_page[page.number],
                        {"page": page, "found": grid} if layout else {}, grid.legible))
    return out


def scan_record(found: Scan) -> dict:
    """The verify record of a scanned puzzle (``nonogen verify --json``'s fields) with the scan's fields added."""
    from .batch import record

    if found.result is None:
        out: dict[str, Any] = {"file": found.label, "status": "unverified", **found.puzzle.size_fields()}
    else:
        out = record(found.label, found.puzzle, found.result, fields={"format": "scan"})
    out.update(found.scan_fields())
    return out


def scan_files(paths: Any) -> list[Path]:
    """The pictures and PDFs ``paths`` name: files as given, folders and globs searched (sorted) for their suffixes."""
    from .collect import found_names
    from .importers.scan import SCAN_SUFFIXES

    return [Path(name) for name, _ in found_names(paths, SCAN_SUFFIXES)]
