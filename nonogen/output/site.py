"""``nonogen.site``: a collection's puzzles and levels as a static web site, to play on a phone, offline too.

The site is one folder of relative links, so it works from ``file://`` and
from any static host, in any sub-folder::

    index.html              every puzzle and level, easiest first (nonogen.export.site.index_page)
    puzzles/01.html ...     a 2D puzzle's play page (nonogen.export.html.page_2d) with the site's navigation
    levels/01.html ...      a Picross 3D level's play page (page_3d)
    manifest.webmanifest    the web app manifest, for installing the site on a phone
    sw.js                   the service worker: every file above kept for offline play
    icons/*.png             the app's icons

Nothing in it gives an answer away before it is solved: the pages are
numbered ("Puzzle 3", "Level 1"), the index shows empty grids and plain
boxes, and no solution picture is copied; a puzzle's title is told on the
index once it is solved. Like every publisher (the gallery, the level pack),
the site reads the collection's files through
:meth:`~nonogen.output.collection.Member.read` (a regular file inside the
collection, never a link leading out, size-checked), names no path of the
maker's disk, and is built in a hidden folder beside its target and renamed
into place when complete: a failed run leaves no half site, and an old site
is replaced only with ``force``.
"""
from __future__ import annotations

import hashlib
import os
import posixpath
import re
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Union

import numpy as np

from ..clues3d import valid_goal
from ..errors import InputError, NonogenError, OutputExistsError
from ..export.html import model_name, page_2d, page_3d
from ..export.site import MANIFEST, WORKER, SiteEntry, icons, index_page, nav_bar, page_key, service_worker
from ..export.site import web_manifest
from ..files import _umask, write_file
from ..model import Puzzle
from ..model3d import Puzzle3D
from .collection import Collection, Member, by_grade, grade_text, in_grades, open_published, puzzle_from
from .gallery import private

__all__ = ["site", "Playable", "playable", "play_page", "entry_of", "relative", "check_target", "built_folder",
           "INDEX", "KINDS"]

INDEX = "index.html"
KINDS = {"all": ("2d", "3d"), "2d": ("2d",), "3d": ("3d",)}
"""What ``kind`` keeps: 2D puzzles, Picross 3D levels, or both."""
SOLVE_SECONDS = 30.0
"""Time to find an answer for a puzzle stored without one (a page needs it for Check and Reveal)."""
_FOLDERS = {"2d": ("puzzles", "Puzzle"), "3d": ("levels", "Level")}
_SIZE_TITLE = re.compile(r"(Puzzle|Nonogram|Level) \d+x\d+(x\d+)?")


@dataclass(frozen=True)
class Playable:
    """A member ready for a play page: its puzzle, an answer, a level's colours, and the title told once solved."""

    member: Member
    puzzle: Union[Puzzle, Puzzle3D]
    solution: np.ndarray
    colors: Optional[np.ndarray]
    title: str

    @property
    def kind(self) -> str:
        return "3d" if isinstance(self.puzzle, Puzzle3D) else "2d"


def _told(member: Member, puzzle: Union[Puzzle, Puzzle3D]) -> str:
    """What the puzzle shows, for the index once solved: its title, else its name in words ("Red mushroom")."""
    if isinstance(puzzle, Puzzle3D):
        named = model_name(puzzle.meta)
        if named:
            return private(named)
    title = str(puzzle.meta.get("title") or member.title or "").strip()
    if title and not _SIZE_TITLE.fullmatch(title):
        return private(title)
    words = re.sub(r"[-_]+", " ", member.name or "").strip()
    return words[:1].upper() + words[1:]


def playable(member: Member) -> Playable:
    """The member's puzzle and answer: the goal stored with it when it meets the clues, else the solver's.

    A 2D member is read from its ``puzzle.json`` (which keeps the goal), else from its puzzle file; a level from
    its ``level.json``. A file that cannot be read, or a puzzle with no answer found, is a NonogenError.
    """
    assert member.folder is not None
    if member.is_level:
        puzzle = puzzle_from(member.read("level.json"), member.folder / "level.json", True)
    elif member.has("puzzle.json"):
        puzzle = puzzle_from(member.read("puzzle.json"), member.folder / "puzzle.json", False)
    else:
        puzzle = member.puzzle()
    answer = valid_goal(puzzle)
    if answer is None:
        from ..solve import verify  # here: a made puzzle keeps its goal, and the engine is not needed

        answer = verify(puzzle, timeout=SOLVE_SECONDS, grade=False).solution
        if answer is None:
            raise InputError(f"{member.folder}: left out: no stored answer, and none found in {SOLVE_SECONDS:g} s")
    colors = puzzle.rgb() if isinstance(puzzle, Puzzle3D) else None
    return Playable(member, puzzle, np.asarray(answer), colors, _told(member, puzzle))


def play_page(item: Playable, *, title: str, nav: str = "") -> str:
    """The item's self-contained play page, headed ``title``, with the navigation bar ``nav``."""
    if isinstance(item.puzzle, Puzzle3D):
        return page_3d(item.puzzle, item.solution, item.colors, title=title, nav=nav)
    return page_2d(item.puzzle, item.solution, title=title, nav=nav)


def entry_of(item: Playable, page: str, href: str, label: str) -> SiteEntry:
    """The index's tile of ``item``, whose play ``page`` is at ``href`` (relative to the index)."""
    palette = () if isinstance(item.puzzle, Puzzle3D) else tuple(c.rgb for c in item.puzzle.palette)
    size = item.puzzle.size if isinstance(item.puzzle, Puzzle3D) else (item.puzzle.width, item.puzzle.height)
    return SiteEntry(href=href, key=page_key(page), kind=item.kind, label=label, title=item.title,
                     size=tuple(size), grade=item.member.grade, grade_name=item.member.grade_name, palette=palette)


def relative(target: str, page: str) -> str:
    """The link from the page at ``page`` to ``target``, both relative to the site's top folder.

    >>> relative("index.html", "puzzles/01.html"), relative("levels/02.html", "puzzles/01.html")
    ('../index.html', '../levels/02.html')
    """
    return posixpath.relpath(target, posixpath.dirname(page) or ".")


def check_target(out: Path, force: bool, marker: str, what: str) -> None:
    """Refuse before any work: an existing folder needs ``force``, and even then must be a ``what`` (``marker`` in it).

    A link in ``out``'s place counts as existing; with ``force`` the link itself is replaced, never what it points at.
    """
    if out.is_symlink() and not force:
        raise OutputExistsError(f"{out}: exists (a symbolic link)")
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: exists and is not a folder; name a folder for the {what}")
    if out.is_dir() and any(out.iterdir()):
        if not force:
            raise OutputExistsError(f"{out}: folder exists and is not empty")
        if not (out / marker).is_file():
            raise InputError(f"{out}: not a {what} (no {marker}); name a new folder rather than replace it")
    here = Path.cwd().resolve()
    if out.resolve() == here or out.resolve() in here.parents:
        raise InputError(f"{out}: refusing to write into the current folder or one above it; name a new folder")


@contextmanager
def built_folder(out: Path) -> Iterator[Path]:
    """A hidden folder beside ``out`` to fill; renamed into ``out``'s place when the block ends, removed if it fails."""
    out.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    old = None
    try:
        yield building
        os.chmod(building, 0o777 & ~_umask())
        if out.exists() or out.is_symlink():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
            os.rename(out, old / "old")  # a link is moved as the entry it is, never followed
        try:
            os.rename(building, out)
        except OSError:
            if old is not None:  # the old folder goes back where it was
                os.rename(old / "old", out)
            raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


class _Writer:
    """Files written into the folder being built, each listed and hashed: the worker's list and its version."""

    def __init__(self, folder: Path):
        self.folder, self.digest, self.size = folder, hashlib.sha256(), 0
        self.files: list[str] = []

    def put(self, path: str, content: Union[str, bytes]) -> None:
        data = content.encode("utf-8") if isinstance(content, str) else content
        (self.folder / path).parent.mkdir(parents=True, exist_ok=True)
        write_file(self.folder / path, data, follow=False)
        self.files.append(path)
        self.digest.update(path.encode("utf-8") + b"\0" + hashlib.sha256(data).digest())
        self.size += len(data)


def _chosen(source: Union[str, Path], kind: str,
            grades: Optional[tuple[int, int]]) -> tuple[Collection, list[Member], list[Optional[str]]]:
    """The collection, its members to publish (easiest first) and the names of those of another grade."""
    if kind not in KINDS:
        raise InputError(f"kind {kind!r}: expected one of {', '.join(KINDS)}")
    collection, members = open_published(source)
    wanted = [m for m in members if ("3d" if m.is_level else "2d") in KINDS[kind]]
    if not wanted:
        what = {"all": "puzzles or levels", "2d": "2D puzzles", "3d": "Picross 3D levels"}[kind]
        raise InputError(f"{source}: no {what} in it (a site shows what nonogen image and nonogen mesh made)")
    chosen = by_grade(m for m in wanted if in_grades(m.grade, grades))
    if not chosen:
        raise InputError(f"{source}: no puzzle of grade {grade_text(grades)} among its {len(wanted)}")
    return collection, chosen, [m.name for m in wanted if m not in chosen]


def site(
    source: Union[str, Path],
    out: Union[str, Path],
    *,
    title: Optional[str] = None,
    grades: Optional[tuple[int, int]] = None,
    kind: str = "all",
    force: bool = False,
    on_progress: Optional[Callable[[int, int], None]] = None,
) -> dict[str, Any]:
    """Write the puzzles and levels of a collection folder or selection file ``source`` as a web site in ``out``.

    Easiest first (ungraded last, ties by name); ``grades`` (lowest, highest)
    keeps only those, ``kind`` only ``"2d"`` puzzles or ``"3d"`` levels. A
    member that cannot be read is left out with a sentence under
    ``"warnings"``. Returns what was written (the CLI's ``--json``).
    """
    out = Path(out)
    check_target(out, force, WORKER, "site")
    collection, chosen, left_out = _chosen(source, kind, grades)
    items: list[Playable] = []
    warnings: list[str] = []
    for k, member in enumerate(chosen):
        if on_progress:
            on_progress(k, 2 * len(chosen))
        try:
            items.append(playable(member))
        except NonogenError as exc:
            warnings.append(private(f"{member.name}: left out ({exc})"))
            left_out.append(member.name)
    if not items:
        raise InputError(f"{source}: none of its {len(chosen)} puzzles could be read: {warnings[0]}")
    counts = {key: sum(item.kind == key for item in items) for key in _FOLDERS}
    numbers = dict.fromkeys(_FOLDERS, 0)
    places = []  # (path, label) of each item's page, in the index's order
    for item in items:
        numbers[item.kind] += 1
        folder, noun = _FOLDERS[item.kind]
        places.append((f"{folder}/{numbers[item.kind]:0{max(2, len(str(counts[item.kind])))}d}.html",
                       f"{noun} {numbers[item.kind]}"))
    name = private(title or collection.folder.resolve().name)
    with built_folder(out) as building:
        writer, entries = _Writer(building), []
        for k, (item, (path, label)) in enumerate(zip(items, places, strict=True)):
            if on_progress:
                on_progress(len(chosen) + k, 2 * len(chosen))
            after = places[k + 1] if k + 1 < len(places) else None
            nav = nav_bar(index=relative(INDEX, path), label=f"{label} · {name}",
                          next_page=after and relative(after[0], path), next_label=after[1] if after else "")
            page = play_page(item, title=label, nav=nav)
            writer.put(path, page)
            entries.append(entry_of(item, page, path, label))
        writer.put(INDEX, index_page(entries, title=name))
        writer.put(MANIFEST, web_manifest(name))
        for path, data in icons().items():
            writer.put(path, data)
        writer.put(WORKER, service_worker(writer.files, writer.digest.hexdigest()[:16]))
    if on_progress:
        on_progress(2 * len(chosen), 2 * len(chosen))
    pages = {item.member.name: path for item, (path, _) in zip(items, places, strict=True)}
    return {"output": str(out), "index": str(out / INDEX), "title": name,
            "puzzles": [i.member.name for i in items if i.kind == "2d"],
            "levels": [i.member.name for i in items if i.kind == "3d"], "pages": pages,
            "grades": [i.member.grade for i in items], "left_out": left_out, "files": len(writer.files),
            "bytes": writer.size, "warnings": warnings}
