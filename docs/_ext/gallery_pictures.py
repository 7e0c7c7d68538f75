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
import time
from pathlib import Path

OUT = "out"
"""Where examples write, relative to their folder (docs/examples, git-ignored)."""

PLAY = "_play"
"""Folder of docs/ whose contents are copied into the built site (conf.py's ``html_extra_path``)."""

_since = {"time": 0.0}


def start_example(gallery_conf: dict, fname: object, when: str = "before") -> None:
    """Reset before each example: only files written from now on belong to it."""
    _since["time"] = time.time() - 0.001


def _written(folder: Path, suffix: str) -> list[Path]:
    """Files under ``folder`` with ``suffix`` written since the last look, oldest first (name breaks ties)."""
    if not folder.is_dir():
        return []
    found = [p for p in folder.rglob(f"*{suffix}") if p.stat().st_mtime >= _since["time"]]
    return sorted(found, key=lambda p: (p.parent.as_posix(), p.name))


def scrape(block: object, block_vars: dict, gallery_conf: dict, **kwargs: object) -> str:
    """reST showing the block's new PNG files (and a link to a new playable page): sphinx-gallery's scraper API."""
    out = Path(block_vars["src_file"]).parent / OUT
    pictures, pages = _written(out, ".png"), _written(out, ".html")
    _since["time"] = time.time()
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
