"""The studio's limits in one place: how long each job may run, how big and how slow a request may be, how many at once.

A local server still meets hostile input: a page left open for days, a
script that opens a thousand connections and sends nothing, an upload that
never ends. Each limit below turns one of them into a one-line answer and a
server that keeps serving.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..executors import hard_limit

__all__ = ["Limits", "CHECK_SECONDS", "SUGGEST_SECONDS", "MESH_SECONDS", "OPEN_SECONDS", "SAVE_CHECK_SECONDS",
           "MAP_SECONDS", "SCAN_SECONDS", "job_seconds"]

CHECK_SECONDS = 30.0
"""How long one check may take: a hard grid keeps its worker busy at most this long (a new edit stops it sooner)."""

SUGGEST_SECONDS = 30.0
"""How long a suggestion may search."""

MESH_SECONDS = 120.0
"""How long making a level from a model may take."""

OPEN_SECONDS = 10.0
"""How long opening a puzzle file may search for its solution."""

SAVE_CHECK_SECONDS = 20.0
"""How long saving may spend proving the file unique and finding the fix it offers when not."""

MAP_SECONDS = 20.0
"""How long the ambiguity map may search (it sends what it has found so far as it goes)."""

SCAN_SECONDS = 60.0
"""How long reading a puzzle page (a picture, or every page of a PDF) may take."""

_OWN_SECONDS = {"check": CHECK_SECONDS, "suggest": SUGGEST_SECONDS, "mesh": MESH_SECONDS, "open": OPEN_SECONDS,
                "import": 20.0, "save": SAVE_CHECK_SECONDS + OPEN_SECONDS, "play": OPEN_SECONDS,
                "map": MAP_SECONDS, "trace": 20.0, "level": CHECK_SECONDS, "level-save": SAVE_CHECK_SECONDS + 20.0,
                "level-play": OPEN_SECONDS, "scan": SCAN_SECONDS, "clues": CHECK_SECONDS}
"""Each job's own deadline (reading a picture or writing a file has none of its own: these bound them)."""


def job_seconds(kind: str) -> float:
    """How long a job of ``kind`` may run before its worker is killed: well past the job's own deadline.

    >>> job_seconds("check")
    70.0
    """
    return hard_limit(_OWN_SECONDS[kind])


@dataclass(frozen=True)
class Limits:
    """What one request, connection or page may take from the server."""

    upload_bytes: int = 20_000_000
    """Largest picture or model (bytes); the rest of a bigger upload is read and dropped, never kept."""
    json_bytes: int = 2_000_000
    """Largest JSON request (a 100x100 document with its picture's reference is about 60 kB)."""
    body_seconds: float = 30.0
    """How long a request body may take to arrive, and how long an upload may wait for its turn."""
    header_seconds: float = 10.0
    """How long a connection may stay open without a complete request (headers) before it is closed."""
    keep_alive_seconds: int = 5
    """How long an idle connection is kept between requests."""
    connections: int = 100
    """Most connections at once; past it the oldest idle one is closed to make room, then requests get 503."""
    uploads: int = 2
    """Most uploads received at once (each streams to a file; the others wait their turn)."""
    tabs: int = 16
    """Most pages whose pictures and levels are kept; the one unused longest is forgotten first."""
    workers: int = 3
    """Most engine worker processes (one of them kept started as a spare); every job but a check takes at most all
    but one of them, so an edit's check never waits behind saves, levels or suggestions (:mod:`.worker`)."""
