"""``nonogen.gallery``: a collection folder's gallery page and contact sheet, to curate what was made.

Writes, inside the collection folder, ``gallery.html`` (the page of
:func:`nonogen.export.gallery.gallery_page`), ``contact-sheet.png`` (every
solution in one grid) and ``gallery.thumbs/`` (small copies of the source
pictures, so the page stays light and works when the sources move). The
puzzle and solution pictures are not copied: the page points into the
sub-folders. The folder's name holds a dot, which a puzzle folder's name
never does, so the two never meet.

The gallery is made to be shared, so it never tells where the collection
lies: no absolute path is written (a failed source shows its file name, an
error its text with the folders cut off), and the selection file the page
downloads names the collection ``"."``, the folder it is saved in. Nothing is
written through a link planted in the collection: the page and the sheet
replace a link in their place, and a link as ``gallery.thumbs`` is refused.
A picture that cannot be shown (a source too big for ``nonogen image`` or
unreadable, a member's file that is no regular file inside the collection)
costs that picture only: a placeholder on the page and a warning, returned
under ``"warnings"``.
"""
from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any, Callable, Optional, Union

from PIL import Image

from ..errors import NonogenError, OutputExistsError
from ..export.gallery import FailedRow, GalleryRow, gallery_page
from ..files import check_entry, refuse_link, write_file
from ..importers.picture_file import load_image
from ..render.contact import TILE_PX, Tile, contact_sheet
from ..inside import MAX_MEMBER_BYTES, check_inside
from .collection import Collection, Member, by_grade, read_collection, warning_kind

__all__ = ["gallery", "private", "PAGE", "SHEET", "THUMBS"]

PAGE, SHEET, THUMBS = "gallery.html", "contact-sheet.png", "gallery.thumbs"
THUMB_PX = 240
"""Longest side of a source thumbnail: twice the page's picture column, for sharp screens."""

_FOLDERS = re.compile(r"(?<![\w.~:/\\-])(?:/[^\s/'\"<>]+)+/|\b[A-Za-z]:\\(?:[^\s\\'\"<>]+\\)+")
"""The folders of an absolute path (POSIX or Windows), up to its last part."""


def private(text: str) -> str:
    """``text`` with the folders of every absolute path cut off: a page shows ``a.png``, not where it lay.

    >>> private("/home/me/src/a.png: not a readable picture ('/home/me/src/a.png'), "
    ...         "1/2 and/or C:\\\\Users\\\\me\\\\b.png")
    "a.png: not a readable picture ('a.png'), 1/2 and/or b.png"
    """
    return _FOLDERS.sub("", text)


def _source_file(member: Member, folder: Path) -> Optional[Path]:
    """The member's source picture when it is still there: as recorded, else beside the collection folder.

    A pipe or a broken link counts as there: trying it says why it cannot be shown.
    """
    if not member.source:
        return None
    path = Path(member.source)
    for candidate in ([path] if path.is_absolute() else [path, folder / path, folder.parent / path]):
        try:
            if candidate.is_symlink() or candidate.exists():
                return candidate
        except (OSError, ValueError):  # a name too long, or with a NUL in it: no file has it
            return None
    return None


def _shrunk(picture: Image.Image, px: int) -> Image.Image:
    picture.thumbnail((px, px), Image.Resampling.LANCZOS)
    return picture


def _visible(picture: Image.Image, px: int = THUMB_PX) -> Image.Image:
    """A picture under half of ``px`` a side (pixel art, an icon) made larger by whole pixels, each a square block.

    A 16-pixel sprite was shown 16 pixels wide; nearest-neighbour keeps its edges sharp, where smoothing would blur
    them, and a whole factor keeps every pixel the same size.

    >>> _visible(Image.new("RGB", (16, 8))).size, _visible(Image.new("RGB", (200, 90))).size
    ((240, 120), (200, 90))
    """
    factor = px // max(picture.size)
    if max(picture.size) * 2 > px or factor < 2:
        return picture
    return picture.resize((picture.width * factor, picture.height * factor), Image.Resampling.NEAREST)


def _thumbnail(path: Path) -> bytes:
    """A PNG of the picture at ``path`` shrunk to :data:`THUMB_PX` (a small one enlarged: :func:`_visible`), read as
    ``nonogen image`` reads it.

    The importer's :func:`~nonogen.importers.picture_file.load_image` is the one
    home of a picture's limits (its pixel count, read from the header before
    any pixel is decoded) and turns every decoder failure into one line; a
    pipe or device is refused before it is opened.
    """
    check_inside(path, None)
    picture = _visible(_shrunk(load_image(path, reduce_for=(THUMB_PX * 2, THUMB_PX * 2)), THUMB_PX))
    out = io.BytesIO()
    picture.convert("RGBA" if "A" in picture.getbands() or "transparency" in picture.info else "RGB").save(
        out, format="PNG", optimize=True)
    return out.getvalue()


def _picture(member: Member, stem: str, problems: list[str]) -> Optional[str]:
    """The page's path to the member's ``stem.png``: None when absent, or (with a warning) when it may not be shown."""
    assert member.folder is not None and member.name is not None
    name = f"{stem}.png"
    if not member.has(name):
        return None
    try:
        member.check(name)
    except NonogenError as exc:
        problems.append(str(exc))
        return None
    return f"{member.name}/{name}"


def _source(member: Member, folder: Path, problems: list[str]) -> tuple[Optional[str], Optional[str]]:
    """The page's picture of the member's source (a thumbnail written now) or, when it cannot be shown, why not."""
    if member.is_level:
        return _picture(member, "solution", problems), None  # a model has no picture: the level's preview stands for it
    path = _source_file(member, folder)
    if path is None:
        return None, None  # moved or deleted since: nothing to say
    try:
        data = _thumbnail(path)
    except (NonogenError, OSError, ValueError) as exc:
        problems.append(f"{member.name}: source picture not shown ({exc})")
        return None, private(str(exc))
    relative = f"{THUMBS}/{member.name}.png"
    (folder / THUMBS).mkdir(exist_ok=True)
    write_file(folder / relative, data, force=True, follow=False)  # our own folder, checked before any work
    return relative, None


def _row(member: Member, folder: Path, problems: list[str]) -> GalleryRow:
    source, note = _source(member, folder, problems)
    return GalleryRow(
        name=member.name or "", title=private(member.title), level=member.is_level, source_picture=source,
        puzzle_picture=_picture(member, "puzzle", problems), solution_picture=_picture(member, "solution", problems),
        size=member.size, record=member.record, source_note=note,
        warnings=tuple((warning_kind(w), private(w)) for w in member.warnings or ()))


def _failed(member: Member) -> FailedRow:
    if member.status == "duplicate":
        reason = f"same clues as {member.duplicate_of}" if member.duplicate_of else "same clues as another puzzle"
    else:
        reason = member.error or "no reason recorded"
    return FailedRow(private(member.source or member.name or "?"), member.status, private(reason), member.error_kind)


def _tile(member: Member, problems: list[str]) -> Tile:
    """The member's solution, shrunk now (a thousand full-size sheets would not fit in memory), on a tile."""
    assert member.folder is not None
    picture = None
    if member.has("solution.png"):
        try:
            picture = _shrunk(load_image(member.read("solution.png", MAX_MEMBER_BYTES)), TILE_PX)
        except NonogenError as exc:
            problems.append(str(exc).replace("<bytes>", str(member.folder / "solution.png"), 1))
    size = "x".join(map(str, member.size))
    grade = "no grade" if member.grade is None else f"grade {member.grade}"
    return Tile(picture, member.name or "", f"{grade} · {size}" if size else grade)


def _check_outputs(folder: Path, force: bool) -> None:
    """Refuse before any work when a gallery is there and ``force`` is not given, or ``gallery.thumbs`` is a link."""
    for name in (PAGE, SHEET):
        check_entry(folder / name, force)  # a link there is replaced itself (with force), never written through
    thumbs = refuse_link(folder / THUMBS)
    if thumbs.exists() and not thumbs.is_dir():
        raise OutputExistsError(f"{thumbs}: exists and is not a folder")
    if not force and thumbs.is_dir() and any(thumbs.iterdir()):
        raise OutputExistsError(f"{thumbs}: folder exists and is not empty")


def gallery(
    folder: Union[str, Path],
    *,
    title: Optional[str] = None,
    force: bool = False,
    on_progress: Optional[Callable[[int, int], None]] = None,
) -> dict[str, Any]:
    """Write the gallery of the collection in ``folder``; returns what was written (the CLI's ``--json``).

    An existing gallery is replaced only with ``force``. The page is written
    last, so a failed run never leaves a page pointing at missing pictures.
    ``"warnings"`` lists the pictures that could not be shown, one sentence each.
    """
    folder = Path(folder)
    collection: Collection = read_collection(folder)
    _check_outputs(folder, force)
    made = collection.made
    rows: list[GalleryRow] = []
    problems: list[str] = []
    for k, member in enumerate(made):
        if on_progress:
            on_progress(k, len(made))
        rows.append(_row(member, folder, problems))
    failed = [_failed(m) for m in collection.members if m.status != "made" or m.folder is None]
    name = title or collection.folder.resolve().name
    thumbs = sum(1 for r in rows if r.source_picture and r.source_picture.startswith(f"{THUMBS}/"))
    written = {"collection": str(folder), "gallery": str(folder / PAGE), "contact_sheet": None, "thumbnails": thumbs,
               "puzzles": len(rows), "not_made": len(failed)}
    if made:
        count = f"{len(made)} puzzle{'s' if len(made) != 1 else ''}"
        sheet = contact_sheet([_tile(m, problems) for m in by_grade(made)], title=f"{name} · {count}")
        write_file(folder / SHEET, sheet, force=force, follow=False)
        written["contact_sheet"] = str(folder / SHEET)
    write_file(folder / PAGE, gallery_page(rows, failed, title=name, collection="."), force=force, follow=False)
    if on_progress:
        on_progress(len(made), len(made))
    return dict(written, warnings=list(dict.fromkeys(problems)))
