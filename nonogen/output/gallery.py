"""``nonogen.gallery``: a collection folder's gallery page and contact sheet, to curate what was made.

Writes, inside the collection folder, ``gallery.html`` (the page of
:func:`nonogen.export.gallery.gallery_page`), ``contact-sheet.png`` (every
solution in one grid) and ``gallery.thumbs/`` (small copies of the source
pictures, so the page stays light and works when the sources move). The
puzzle and solution pictures are not copied: the page points into the
sub-folders. The folder's name holds a dot, which a puzzle folder's name
never does, so the two never meet.
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Callable, Optional, Union

from PIL import Image

from ..errors import OutputExistsError
from ..export.gallery import FailedRow, GalleryRow, gallery_page
from ..files import check_file, write_file
from ..render.contact import TILE_PX, Tile, contact_sheet
from .collection import Collection, Member, by_grade, read_collection, warning_kind

__all__ = ["gallery", "PAGE", "SHEET", "THUMBS"]

PAGE, SHEET, THUMBS = "gallery.html", "contact-sheet.png", "gallery.thumbs"
THUMB_PX = 240
"""Longest side of a source thumbnail: twice the page's picture column, for sharp screens."""


def _source_file(member: Member, folder: Path) -> Optional[Path]:
    """The member's source picture when it is still there: as recorded, else beside the collection folder."""
    if not member.source:
        return None
    path = Path(member.source)
    for candidate in ([path] if path.is_absolute() else [path, folder / path, folder.parent / path]):
        if candidate.is_file():
            return candidate
    return None


def _thumbnail(path: Path) -> Optional[bytes]:
    """A PNG of the picture at ``path`` shrunk to :data:`THUMB_PX`, or None when Pillow cannot read it."""
    try:
        with Image.open(path) as picture:
            picture.draft("RGB", (THUMB_PX * 2, THUMB_PX * 2))  # JPEG: decode at a fraction of full size
            picture.thumbnail((THUMB_PX, THUMB_PX), Image.Resampling.LANCZOS)
            out = io.BytesIO()
            picture.convert("RGBA" if "A" in picture.getbands() or "transparency" in picture.info else "RGB").save(
                out, format="PNG", optimize=True)
            return out.getvalue()
    except (OSError, ValueError, Image.DecompressionBombError, SyntaxError):
        return None


def _picture(member: Member, stem: str) -> Optional[str]:
    assert member.folder is not None and member.name is not None
    return f"{member.name}/{stem}.png" if (member.folder / f"{stem}.png").is_file() else None


def _row(member: Member, source_picture: Optional[str]) -> GalleryRow:
    return GalleryRow(
        name=member.name or "", title=member.title, level=member.is_level, source_picture=source_picture,
        puzzle_picture=_picture(member, "puzzle"), solution_picture=_picture(member, "solution"),
        grade=member.grade, grade_name=member.grade_name, size=member.size, colors=member.colors,
        recognisability=member.recognisability, speck_share=member.speck_share, fill_share=member.fill_share,
        line_solvable=member.line_solvable, warnings=tuple((warning_kind(w), w) for w in member.warnings))


def _failed(member: Member) -> FailedRow:
    if member.status == "duplicate":
        reason = f"same clues as {member.duplicate_of}" if member.duplicate_of else "same clues as another puzzle"
    else:
        reason = member.error or "no reason recorded"
    return FailedRow(member.source or member.name or "?", member.status, reason, member.error_kind)


def _tile(member: Member) -> Tile:
    assert member.folder is not None
    path = member.folder / "solution.png"
    picture = None
    if path.is_file():
        try:
            with Image.open(path) as opened:  # shrunk now: a thousand full-size sheets would not fit in memory
                opened.thumbnail((TILE_PX, TILE_PX), Image.Resampling.LANCZOS)
                picture = opened.copy()
        except (OSError, ValueError, Image.DecompressionBombError):
            picture = None
    size = "x".join(map(str, member.size))
    grade = "no grade" if member.grade is None else f"grade {member.grade}"
    return Tile(picture, member.name or "", f"{grade} · {size}" if size else grade)


def _check_outputs(folder: Path, force: bool) -> None:
    """Refuse before any work when a gallery is there and ``force`` is not given."""
    for name in (PAGE, SHEET):
        check_file(folder / name, force)
    thumbs = folder / THUMBS
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
    The selection file the page writes names the collection by its absolute path.
    """
    folder = Path(folder)
    collection: Collection = read_collection(folder)
    _check_outputs(folder, force)
    made = collection.made
    rows, thumbs = [], 0
    for k, member in enumerate(made):
        if on_progress:
            on_progress(k, len(made))
        source = None
        if member.is_level:
            source = _picture(member, "solution")  # a model has no picture: the level's preview stands for it
        else:
            path = _source_file(member, folder)
            data = _thumbnail(path) if path else None
            if data is not None:
                source = f"{THUMBS}/{member.name}.png"
                write_file(folder / source, data, force=True)  # our own folder, checked above
                thumbs += 1
        rows.append(_row(member, source))
    failed = [_failed(m) for m in collection.members if m.status != "made" or m.folder is None]
    name = title or collection.folder.resolve().name
    written = {"collection": str(folder), "gallery": str(folder / PAGE), "contact_sheet": None, "thumbnails": thumbs,
               "puzzles": len(rows), "not_made": len(failed)}
    if made:
        count = f"{len(made)} puzzle{'s' if len(made) != 1 else ''}"
        write_file(folder / SHEET, contact_sheet([_tile(m) for m in by_grade(made)], title=f"{name} · {count}"), force=force)
        written["contact_sheet"] = str(folder / SHEET)
    page = gallery_page(rows, failed, title=name, collection=str(folder.resolve()))
    write_file(folder / PAGE, page, force=force)
    if on_progress:
        on_progress(len(made), len(made))
    return written
