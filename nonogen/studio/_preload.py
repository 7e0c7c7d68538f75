"""Imported once by the studio's forkserver: load the engine and run it once, so every worker starts warm.

Workers are forked from the forkserver and killed when a newer edit comes, so
whatever a first check loads lazily (the SAT solver, scikit-image for the
picture score) would otherwise be loaded again in every new worker: 0.6 s
before the first verdict of each. The 3D editor's first check of a level
loaded its own (the proof, hiding, the 3D solver's encoding, the colour
names' table): 60 ms of the first answer's 130.
"""
from __future__ import annotations

from .inputs import checked, checked_level, level_options
from .jobs import run

_TINY = checked({"grid": [[1, 0], [0, 1]], "palette": [{"rgb": "#ffffff"}, {"rgb": "#000000"}], "givens": [],
                 "reference": [[0, 255], [255, 0]]})
_CORNER = checked_level({"size": [2, 2, 2], "cells": "10010110", "hidden": None,
                         "palette": [{"rgb": "#ffffff"}, {"rgb": "#e8913a"}]})
"""A 2x2x2 box of four cubes, no two in a line: ambiguous, so its check asks every question a level's does."""


def warm() -> None:
    """One tiny job of each kind a first edit asks, so that what they load lazily is loaded before the fork. A broken
    engine must not take the forkserver down: each job reports it."""
    try:
        for kind in ("check", "suggest"):
            for _ in run({"kind": kind, "doc": _TINY, "goal": "unique"}):
                pass
        for _ in run({"kind": "level", "doc": _CORNER, "options": level_options(None), "session": "preload"}):
            pass
        for _ in run({"kind": "level", "doc": {**_CORNER, "cells": "10010100", "hidden": []},
                      "options": level_options(None), "session": "preload"}):
            pass
    except Exception:  # noqa: BLE001
        pass


warm()
