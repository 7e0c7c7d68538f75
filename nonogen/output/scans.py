"""Scanned puzzles written to files: one file, or a folder of one file each, in a format that holds what the page
prints."""
from __future__ import annotations

from pathlib import Path
from typing import Optional, Union

from ..errors import InputError
from ..scanning import Scan

__all__ = ["save_scans"]


def _suffix(format: str) -> str:
    from ..formats import SUFFIXES

    if format == "nonogen":
        return ".json"
    return next((suffix for suffix, name in SUFFIXES.items() if name == format), ".txt")


def save_scans(found: list[Scan], out: Union[str, Path], *, format: Optional[str] = None,
               force: bool = False) -> list[Path]:
    """Write the scanned puzzles: to the file ``out`` when there is one puzzle, else one file each in the folder.

    ``out`` with a suffix is one file (its format from ``format``, else the
    suffix); more than one puzzle for it is an InputError. Otherwise ``out``
    is a folder and each puzzle is ``<picture>[-p<page>][-<grid>]`` with the
    format's suffix (default nonogen JSON).
    """
    from .. import formats

    out = Path(out)
    if out.suffix and not out.is_dir():
        if len(found) != 1:
            where = ", ".join(sorted({f.file for f in found}))
            raise InputError(f"{where}: {len(found)} puzzle grids found where one was asked ({out} is one file); "
                             "write them to a folder")
        _holds_givens(found[0], out, format or formats.format_for(out))
        return [formats.dump(found[0].puzzle, out, format, force=force)]
    fmt = format or "nonogen"
    for f in found:
        _holds_givens(f, out, fmt)
    written = []
    for f in found:
        name = Path(f.file).stem + (f"-p{f.page}" if f.pages > 1 else "") + (f"-{f.index}" if f.on_page > 1 else "")
        out.mkdir(parents=True, exist_ok=True)
        written.append(formats.dump(f.puzzle, out / (name + _suffix(fmt)), fmt, force=force))
    return written


def _holds_givens(found: Scan, out: Path, fmt: str) -> None:
    """Refuse a format that would drop the given cells the page prints: the puzzle written would not be the one
    on the page (without them a sheet's puzzle often has several solutions)."""
    from .. import formats

    if found.puzzle.givens and any("given" in d for d in formats.dropped(found.puzzle, fmt)):
        n = len(found.puzzle.givens)
        raise InputError(f"{found.file}: the page prints {n} given cell{'s' if n != 1 else ''} and {out} would be "
                         f"written as {fmt}, which cannot hold givens; nonogen JSON (.json) holds them")
