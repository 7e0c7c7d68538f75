"""Imported once by the studio's forkserver: load the engine and run it once, so every worker starts warm.

Workers are forked from the forkserver and killed when a newer edit comes, so
whatever a first check loads lazily (the SAT solver, scikit-image for the
picture score) would otherwise be loaded again in every new worker: 0.6 s
before the first verdict of each.
"""
from __future__ import annotations

from .inputs import checked
from .jobs import run

_TINY = checked({"grid": [[1, 0], [0, 1]], "palette": [{"rgb": "#ffffff"}, {"rgb": "#000000"}], "givens": [],
                 "reference": [[0, 255], [255, 0]]})

try:
    for _kind in ("check", "suggest"):
        for _ in run({"kind": _kind, "doc": _TINY, "goal": "unique"}):
            pass
except Exception:  # noqa: BLE001 - a broken engine must not take the forkserver down: each job reports it
    pass
