"""What the server keeps for each page: its picture, its model, its engine lanes. Two tabs never share any of it.

The page holds its document and sends it whole with every question (see
:mod:`.document`); what it cannot hold is kept here under the tab id the
page makes when it loads (``X-Nonogen-Tab``): the picture it imported (a
slider reads it again), the model its level was made from ("Make again"
reads it; the level itself is the page's document, like a grid), the play
pages of its test frames, and the lanes its jobs run in (a tab's newer edit
replaces only that tab's check, its newer save only its save). A request
without a tab id is the tab of scripts.

Uploads are streamed to files in a private temporary folder (each in a
folder of its own), never kept in memory. An upload becomes the tab's
picture or model once it has been read into a grid or a level, replacing
(deleting) the tab's upload before it, picture or model; one that does not
(no picture, no model, or a newer upload took its place) is deleted when its
request ends. So a tab holds at most its newest upload, and a failed upload
leaves nothing.
At most ``limit`` tabs are kept: the one unused longest is forgotten, its
uploads deleted (its page is told to drop the picture again).
"""
from __future__ import annotations

import collections
import re
import secrets
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..errors import InputError

__all__ = ["Tab", "Tabs", "Picture", "forget_upload"]

_TAB_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True)
class Picture:
    """A picture a tab imported: its id (sent back by the page to read it again), its file (an upload, or a file
    of the studio's folder), and the author's name for it."""

    id: str
    path: Path
    name: str


class Tab:
    """One page's state on the server."""

    def __init__(self, key: str, uploads: Path):
        self.key = key
        self.uploads = uploads  # where uploads go (each in a folder of its own)
        self.picture: Optional[Picture] = None
        self.play_pages: dict[str, str] = {}  # the puzzle's and the level's play pages, for the tab's frame
        self.model: Optional[Path] = None  # the model file the level was made from
        self.forgotten = False

    def lane(self, kind: str) -> tuple[str, str]:
        """The engine lane of this tab's jobs of ``kind``: a newer job replaces an older one of the same lane.

        The kinds: ``check`` (a check, a suggestion or the map, or a level's
        proof: each takes the last one's place), ``import``, ``mesh``, ``save``,
        ``play`` and ``trace`` (the tracing tools: the page asks one question at a time).
        """
        return (self.key, kind)

    def upload_path(self, name: str) -> Path:
        """Where an upload named ``name`` goes: a fresh folder of its own (the previous upload may still be read;
        a model keeps its name, which the level it makes records as its source)."""
        own = self.uploads / secrets.token_hex(8)
        own.mkdir(mode=0o700)
        return own / name

    def keep_picture(self, picture: Picture) -> None:
        """``picture`` is the tab's source now, read again as the sliders move (see :meth:`_keep`)."""
        self._keep(picture.path)
        self.picture, self.model = picture, None

    def keep_model(self, path: Path) -> None:
        """``path`` (an upload or a file of the folder) is the model of the tab's level now, its source."""
        self._keep(path)
        self.picture, self.model = None, path

    def _keep(self, path: Path) -> None:
        """Delete the tab's uploads but ``path``: a tab keeps its newest source only, a picture or a model (the page
        shows one or the other, and never reads the one before again)."""
        for old in (self.picture.path if self.picture else None, self.model):
            if old is not None and old != path:
                self._discard(old)
        if self.forgotten:  # it arrived after the tab was forgotten: nobody will read it
            self._discard(path)

    def release(self, path: Path) -> None:
        """Delete the upload ``path`` unless it became the tab's picture or model (call when its request ends)."""
        if path not in (self.picture.path if self.picture else None, self.model):
            self._discard(path)

    def forget(self) -> None:
        """Drop the tab's state and delete its uploads (one still arriving is deleted when it is kept)."""
        self.forgotten = True
        for path in (self.picture.path if self.picture else None, self.model):
            if path is not None:
                self._discard(path)
        self.picture, self.model, self.play_pages = None, None, {}

    def _discard(self, path: Path) -> None:
        """Delete ``path`` if it is an upload (a file of the studio's folder is the author's)."""
        if path.is_relative_to(self.uploads):
            forget_upload(path)


class Tabs:
    """The tabs the server knows, the most recently used last; at most ``limit`` of them."""

    def __init__(self, limit: int = 16):
        self.limit = max(1, limit)
        self._root = tempfile.TemporaryDirectory(prefix="nonogen-studio-")  # 0700: other users cannot look in
        self._tabs: collections.OrderedDict[str, Tab] = collections.OrderedDict()

    def get(self, key: Optional[str]) -> Tab:
        """The tab of ``key`` (the page's ``X-Nonogen-Tab``; None: the scripts' tab), made on first use."""
        key = key or ""
        if key and not _TAB_ID.fullmatch(key):
            raise InputError("X-Nonogen-Tab: expected 1 to 64 letters, digits, '-' or '_'")
        tab = self._tabs.get(key)
        if tab is None:
            tab = self._tabs[key] = Tab(key, Path(self._root.name))
            while len(self._tabs) > self.limit:
                self._tabs.popitem(last=False)[1].forget()
        self._tabs.move_to_end(key)
        return tab

    def peek(self, key: Optional[str]) -> Optional[Tab]:
        """The tab of ``key`` if the server has it (none is made, none forgotten: a frame's request, say)."""
        return self._tabs.get(key or "")

    def close(self) -> None:
        self._tabs.clear()
        self._root.cleanup()


def forget_upload(path: Path) -> None:
    """Delete an upload and the folder it was given."""
    shutil.rmtree(path.parent, ignore_errors=True)
