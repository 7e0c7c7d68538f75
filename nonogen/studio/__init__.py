"""``nonogen studio``: a local web app to make a puzzle from a picture, with the engine proving it as you edit.

The page (``static/``) holds the document; the server (:mod:`.app`,
Starlette on uvicorn, run by :mod:`.server`) reads pictures and puzzle files
from one folder, runs the engine, the readers and the drawing in worker
processes that a newer edit stops (:mod:`.worker`, :mod:`.jobs`,
:mod:`.filework`, :mod:`.ambiguity`), keeps each page's state apart (:mod:`.tabs`) and writes
into that folder only (:mod:`.folder`). Only requests that carry the run's
secret token are served (:mod:`.guard`); :mod:`.limits` bounds the rest.
:func:`serve` runs it until interrupted.
"""
from __future__ import annotations

from .limits import Limits
from .server import open_socket, serve

__all__ = ["serve", "open_socket", "Limits"]
