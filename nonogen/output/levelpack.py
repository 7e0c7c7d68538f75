"""``nonogen.level_pack``: a collection's Picross 3D levels as one folder a game loads, easiest first.

The pack is ``manifest.json`` (levels ordered by grade, each with its name,
title, grade, size and files; checked against
``formats/schema/levelpack.schema.json``) and, per level,
``levels/<name>/level.json`` (checked by the ``nonogen-3d`` schema as it is
read), ``level.glb``, ``preview.png`` and ``level.html``, the level's play
page. ``index.html`` is the pack's level menu (the index of
:func:`nonogen.site`, one home for both), so a pack can be played as shipped,
from the disk or any static host. The pack is built in a hidden
folder beside its target and renamed into place when complete, so a failed
run leaves no half pack, and an old pack is replaced only with ``force``.

A pack is made to be given away: every file copied into it is read as
:meth:`~nonogen.output.collection.Member.read` reads a collection's files
(a regular file inside the collection, never what a link leading out points
at, no larger than a limit), level by level, so a pack of many levels is
never held in memory at once; and the manifest names the collection by its
folder's name only, never where it lies.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Optional, Union

from ..errors import FormatError, InputError
from ..export.html import model_name
from ..export.site import SiteEntry, index_page, nav_bar
from ..files import json_text, write_file
from ..formats._json import validate
from ..formats import MAX_FILE_BYTES
from ..inside import MAX_MEMBER_BYTES
from ..model3d import Puzzle3D
from .collection import Member, by_grade, grade_text, in_grades, open_published, puzzle_from
from .site import INDEX, built_folder, check_target, entry_of, play_page, playable, relative

__all__ = ["level_pack", "MANIFEST", "SCHEMA"]

MANIFEST, SCHEMA = "manifest.json", "levelpack.schema.json"
FILES = {"level": ("level.json", "level.json"), "model": ("level.glb", "level.glb"),
         "preview": ("solution.png", "preview.png")}
"""Each level's files: manifest key -> (name in the collection's folder, name in the pack)."""
PAGE = "level.html"
"""Each level's play page, beside its files (the manifest's schema lists the files a game loads, not the page)."""


def _pack_name(name: str) -> str:
    """A level's folder name in the pack: the collection's, other characters made ``-``.

    >>> _pack_name("mug"), _pack_name("Café au lait")
    ('mug', 'Caf--au-lait')
    """
    safe = re.sub(r"[^A-Za-z0-9_.-]", "-", name)[:200]
    return "-" + safe[1:] if safe.startswith(".") else safe


def _level(member: Member, building: Path) -> dict[str, Any]:
    """Copy one level's files into ``building``; its manifest entry. A missing or bad file is an error naming it."""
    assert member.folder is not None and member.name is not None
    name = _pack_name(member.name)
    contents = {}
    for theirs, ours in FILES.values():
        if not member.has(theirs):
            raise InputError(f"{member.folder / theirs}: missing (a level's folder holds "
                             f"{', '.join(t for t, _ in FILES.values())})")
        contents[ours] = member.read(theirs, MAX_FILE_BYTES if theirs.endswith(".json") else MAX_MEMBER_BYTES)
    level = puzzle_from(contents["level.json"], member.folder / "level.json", True)  # the level schema checks it
    assert isinstance(level, Puzzle3D)  # read as nonogen-3d
    folder = building / "levels" / name
    if folder.exists():
        raise InputError(f"{member.folder}: two levels would share the folder levels/{name}")
    folder.mkdir(parents=True)
    for ours, data in contents.items():
        write_file(folder / ours, data, follow=False)
    return {"name": name, "title": model_name(level.meta) or str(level.meta.get("title") or name),
            "grade": member.grade, "grade_name": member.grade_name, "size": list(level.size),
            "files": {key: f"levels/{name}/{ours}" for key, (_, ours) in FILES.items()}}


def _page(member: Member, k: int, names: list[str], building: Path, title: str) -> SiteEntry:
    """Write the ``k``-th level's play page beside its files (its bar leads to the pack's index and the next level)."""
    path = f"levels/{names[k]}/{PAGE}"
    after = f"levels/{names[k + 1]}/{PAGE}" if k + 1 < len(names) else None
    nav = nav_bar(index=relative(INDEX, path), label=f"Level {k + 1} · {title}",
                  next_page=after and relative(after, path), next_label=f"Level {k + 2}")
    item = playable(member)
    page = play_page(item, title=f"Level {k + 1}", nav=nav)
    write_file(building / path, page, follow=False)
    return entry_of(item, page, path, f"Level {k + 1}")


def level_pack(
    source: Union[str, Path],
    out: Union[str, Path],
    *,
    grades: Optional[tuple[int, int]] = None,
    title: Optional[str] = None,
    force: bool = False,
) -> dict[str, Any]:
    """Write the levels of a collection folder or selection file ``source`` as a pack in ``out``.

    Levels go easiest first (ungraded last, ties by name); ``grades``
    (lowest, highest) keeps only those. A source with no level (or none in
    ``grades``) is an :class:`~nonogen.errors.InputError`. Returns the
    manifest with where it was written (the CLI's ``--json``).
    """
    out = Path(out)
    check_target(out, force, MANIFEST, "level pack")
    collection, members = open_published(source)
    levels = [m for m in members if m.is_level]
    if not levels:
        raise InputError(f"{source}: no Picross 3D levels in it (a level pack holds what nonogen mesh made)")
    chosen = by_grade(m for m in levels if in_grades(m.grade, grades))
    if not chosen:
        raise InputError(f"{source}: no level of grade {grade_text(grades)} among its {len(levels)}")
    with built_folder(out) as building:
        entries = [_level(member, building) for member in chosen]
        name = title or collection.folder.resolve().name
        tiles = [_page(member, k, [e["name"] for e in entries], building, name) for k, member in enumerate(chosen)]
        write_file(building / INDEX, index_page(tiles, title=name, installable=False), follow=False)
        manifest = {"format": "nonogen-levelpack", "version": 1, "title": title or collection.folder.resolve().name,
                    "collection": collection.folder.resolve().name, "levels": entries}
        text = json_text(manifest)
        try:
            validate(json.loads(text), "manifest", text, SCHEMA)
        except FormatError as exc:  # the pack we built breaks its own schema: a bug, not the input's fault
            raise AssertionError(f"level pack manifest does not meet {SCHEMA}: {exc}") from None
        write_file(building / MANIFEST, text, follow=False)
    return {"output": str(out), "manifest": str(out / MANIFEST), "index": str(out / INDEX),
            "levels": [e["name"] for e in entries],
            "grades": [e["grade"] for e in entries], "left_out": [m.name for m in levels if m not in chosen]}
