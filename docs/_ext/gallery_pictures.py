"""The gallery's image scraper: the PNG files an example's code block wrote are the pictures shown under it.

nonogen's examples write real output folders (``nonogen.save``, ``nonogen.draw``), as a user's script
would, instead of drawing figures with matplotlib; so after each code block this finds the PNG files
written under the example's ``out/`` folder since the block before, copies them to the gallery's images
(sphinx-gallery's ``image_path_iterator`` names them, the first is the thumbnail) and shows them side by
side, each captioned with the file it is. A playable HTML page written beside them is published with the
site and linked, so a reader can play the example's puzzle.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

OUT = "out"
"""Where examples write, relative to their folder (docs/examples, git-ignored)."""

PLAY = "_play"
"""Folder of docs/ whose contents are copied into the built site (conf.py's ``html_extra_path``)."""

_seen: dict[Path, tuple[int, int, int]] = {}
"""Each file under ``out/`` as last looked at: (inode, modification time in ns, size). A file whose state
differs, or a new one, was written since. Comparing with the clock instead missed a picture written within a
few milliseconds of the look before: file times come from the kernel's coarser clock and can trail time.time()."""


def _state(path: Path) -> tuple[int, int, int]:
    stat = path.stat()
    return stat.st_ino, stat.st_mtime_ns, stat.st_size


def start_example(gallery_conf: dict, fname: object, when: str = "before") -> None:
    """Reset before each example: only files written from now on belong to it."""
    _seen.clear()
    folders = gallery_conf["examples_dirs"]  # ``fname`` is the example's bare name
    for folder in [folders] if isinstance(folders, str) else folders:
        out = (Path(gallery_conf["src_dir"]) / folder / OUT).resolve()
        if out.is_dir():
            _seen.update((p, _state(p)) for p in out.rglob("*") if p.is_file())


def _written(folder: Path, suffix: str) -> list[Path]:
    """Files under ``folder`` with ``suffix`` written since the last look, in path order."""
    if not folder.is_dir():
        return []
    found = [p for p in folder.rglob(f"*{suffix}") if _seen.get(p) != _state(p)]
    return sorted(found, key=lambda p: (p.parent.as_posix(), p.name))


def scrape(block: object, block_vars: dict, gallery_conf: dict, **kwargs: object) -> str:
    """reST showing the block's new PNG files (and a link to a new playable page): sphinx-gallery's scraper API."""
    out = (Path(block_vars["src_file"]).parent / OUT).resolve()
    pictures, pages = _written(out, ".png"), _written(out, ".html")
    _seen.update((p, _state(p)) for p in pictures + pages)
    paths = block_vars["image_path_iterator"]
    sources_dir = Path(gallery_conf["src_dir"])
    items = []
    for picture, target in zip(pictures, paths):
        shutil.copyfile(picture, target)
        shown = "/" + Path(os.path.relpath(target, sources_dir)).as_posix()
        label = picture.relative_to(out.parent).as_posix()
        items.append(f"   .. figure:: {shown}\n      :alt: {label}\n\n      ``{label}``\n")
    rst = ("\n.. container:: nonogen-pictures\n\n" + "\n".join(items)) if items else ""
    for page in pages:
        rst += _play_link(page, out, sources_dir, gallery_conf)
    return rst


def _play_link(page: Path, out: Path, sources_dir: Path, gallery_conf: dict) -> str:
    """Publish ``page`` with the site (docs/_play/play/ is copied to the site's play/ by html_extra_path)."""
    name = f"{Path(page).parent.name}-{page.name}"
    target = sources_dir / PLAY / "play" / name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(page, target)
    return f"\n\n`Play {page.relative_to(out.parent).as_posix()} in the browser <../play/{name}>`__ (one file, no network).\n"
