"""The studio's web app: Starlette routes between the page and the engine workers.

Routes are adapters: they parse the request, hand the work to a worker
(:class:`.worker.Engine`: the engine, the readers and the drawing never run
on the event loop, so one slow file never stalls the other requests) and
stream the answer. Documents and options are checked by :mod:`.inputs`
(once: a worker builds the puzzle from the checked document), names by
:class:`.folder.Folder`; each page's state lives in its :class:`.tabs.Tab`.
Every failure the author can cause is a JSON ``{"error": ...}`` with a 4xx
status; the server keeps running. Who may ask at all is :mod:`.guard`'s business.
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import secrets
from importlib import resources
from pathlib import Path
from typing import Any, AsyncIterator, Optional

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import LimitError, NonogenError, OutputExistsError
from . import routes3d, scanroutes
from .folder import MODEL_SUFFIXES, PICTURE_SUFFIXES, Folder
from .guard import OLD_COOKIE, Gate
from .inputs import check_save_kind, checked, mesh_options, picture_options, trace_request
from .limits import Limits, job_seconds
from .tabs import Picture, Tab, Tabs
from .web import (JSON, answer, error, file_name, made_play_page, play_frame_of, query_options, read_document,
                  read_json, streamed, studio_of, tab_of, uploaded)
from .worker import Engine

__all__ = ["create_app", "Studio"]

CHECK_KINDS = ("check", "level", "clues")
"""The jobs that answer an edit (a scanned puzzle's correction too): they may take
the worker kept free of every other kind (:class:`.worker.Engine`)."""


class Studio:
    """What the server holds: the folder, the tabs, the engine, the limits, and the run's token."""

    def __init__(self, folder: Folder, token: str, limits: Limits):
        self.folder, self.token, self.limits = folder, token, limits
        self.tabs = Tabs(limits.tabs)
        self.engine = Engine(size=limits.workers, reserve_for=CHECK_KINDS)
        self.uploads = asyncio.Semaphore(limits.uploads)

    def close(self) -> None:
        self.engine.close()
        self.tabs.close()


# --- routes ------------------------------------------------------------------------------------------


async def index(request: Request) -> Response:
    """The page, with the run's token in it (the page sends it back and keeps it for a reload: see :mod:`.guard`).

    No cookie is set; one an earlier studio set (it held that run's token, and went to every port) is expired.
    """
    token = studio_of(request).token
    page = _page().replace('<meta name="nonogen-token" content="">', f'<meta name="nonogen-token" content="{token}">')
    response = HTMLResponse(page, headers={"Cache-Control": "no-store",
                                           "Content-Security-Policy": "frame-ancestors 'self'"})
    for name in request.cookies:
        if OLD_COOKIE.fullmatch(name):
            response.delete_cookie(name)
    return response


async def files(request: Request) -> Response:
    studio = studio_of(request)
    return JSON({"folder": str(studio.folder.root), "files": await asyncio.to_thread(studio.folder.listing)})


async def picture(request: Request) -> Response:
    """An uploaded picture (the raw bytes), read into a puzzle with the options in the query."""
    async with uploaded(request, "import", "picture") as (tab, claim, path):
        options = picture_options(query_options(request))
        source = Picture(secrets.token_hex(8), path, file_name(request) or "the picture")
        return await _import(request, tab, source, options, claim)


async def reimport(request: Request) -> Response:
    """The tab's picture read again with other options (size, colours, threshold...)."""
    tab = tab_of(request)
    claim = studio_of(request).engine.claim(tab.lane("import"))
    body = await read_json(request)
    options = picture_options(body.get("options"))
    if tab.picture is None or tab.picture.id != body.get("picture_id"):
        return error("the picture is no longer on the server; drop it again")
    return await _import(request, tab, tab.picture, options, claim)


async def _import(request: Request, tab: Tab, source: Picture, options: Any, claim: int) -> Response:
    """``source`` read into a grid; it becomes the tab's picture (read again by the sliders) once it has been."""
    job = {"kind": "import", "picture_id": source.id, "path": str(source.path), "name": source.name, "options": options}
    message = await studio_of(request).engine.one(job, lane=tab.lane("import"), claim=claim,
                                                seconds=job_seconds("import"))
    if "grid" in message:
        tab.keep_picture(source)
        message["picture_id"] = source.id
    return answer(message)


async def trace(request: Request) -> Response:
    """A tracing tool's question about the tab's picture (the picture to show, a region, the threshold map) or about
    the page's grid (specks), answered by :mod:`.trace` in the tab's trace lane (the page asks one at a time)."""
    studio, tab = studio_of(request), tab_of(request)
    lane = tab.lane("trace")
    claim = studio.engine.claim(lane)
    body = await read_json(request)
    job: dict[str, Any] = {"kind": "trace", **trace_request(body)}
    if job["op"] != "specks":
        if tab.picture is None or tab.picture.id != body.get("picture_id"):
            return error("the picture is no longer on the server; drop it again")
        job.update(picture_id=tab.picture.id, path=str(tab.picture.path), name=tab.picture.name)
    return answer(await studio.engine.one(job, lane=lane, claim=claim, seconds=job_seconds("trace")))


async def check(request: Request) -> Response:
    """The verdict, ambiguous cells, grade and replay of the page's grid, one JSON line each as they come."""
    return await _stream(request, "check")


async def _stream(request: Request, kind: str) -> Response:
    """A job about the page's grid in the tab's check lane (a newer edit stops it), its messages as JSON lines."""
    engine, lane = studio_of(request).engine, tab_of(request).lane("check")
    claim = engine.claim(lane)  # the edit before this one is dropped now, not once this body is read
    body = await read_document(request)
    return streamed(engine, {"kind": kind, "doc": body["doc"]}, lane, claim)


async def ambiguity(request: Request) -> Response:
    """The ambiguity map of the page's grid (see :mod:`.ambiguity`), one JSON line per cell as it is scored."""
    return await _stream(request, "map")


async def suggest(request: Request) -> Response:
    engine, lane = studio_of(request).engine, tab_of(request).lane("check")
    claim = engine.claim(lane)
    body = await read_document(request)
    job = {"kind": "suggest", "doc": body["doc"], "goal": body.get("goal"), "grade": body.get("grade")}
    return answer(await engine.one(job, lane=lane, claim=claim, seconds=job_seconds("suggest")))


async def open_file(request: Request) -> Response:
    """A file of the folder: a puzzle opens as its solution grid, a picture is imported, a model made a level."""
    studio, tab = studio_of(request), tab_of(request)
    body = await read_json(request)
    name = body.get("name")
    suffix = Path(str(name)).suffix.lower()
    if suffix in MODEL_SUFFIXES:
        claim = studio.engine.claim(tab.lane("mesh"))
        options = mesh_options(body.get("options"))
        path = await asyncio.to_thread(studio.folder.file, name)
        return await routes3d.made_level(request, tab, path, options, claim)
    claim = studio.engine.claim(tab.lane("import"))
    if suffix in PICTURE_SUFFIXES:
        options = picture_options(body.get("options"))
        path = await asyncio.to_thread(studio.folder.file, name, studio.limits.upload_bytes)
        return await _import(request, tab, Picture(secrets.token_hex(8), path, path.name), options, claim)
    path = await asyncio.to_thread(studio.folder.file, name)
    return answer(await studio.engine.one({"kind": "open", "path": str(path)}, lane=tab.lane("import"), claim=claim,
                                           seconds=job_seconds("open")))


async def play(request: Request) -> Response:
    """The page's puzzle made into the play page, kept for the tab's test-solve frame (``/play.html``)."""
    body = await read_document(request)
    return await made_play_page(request, {"kind": "play", "doc": body["doc"]}, "puzzle")


async def play_frame(request: Request) -> Response:
    return play_frame_of(request, "puzzle")


async def save(request: Request) -> Response:
    """The page's puzzle saved in the folder: a puzzle file, a sheet or a play page (never over a file unasked); a
    scanned puzzle's clues (``clues`` instead of ``doc``) alike."""
    studio, tab = studio_of(request), tab_of(request)
    lane = tab.lane("save")
    claim = studio.engine.claim(lane)  # a newer save of this tab replaces this one, a level's or a puzzle's
    body = await read_json(request)
    kind, name, overwrite = str(body.get("format")), body.get("name"), bool(body.get("overwrite"))
    path = studio.folder.path(name)
    check_save_kind(kind, path)
    job: dict[str, Any] = {"kind": "save", "path": str(path), "format": kind, "overwrite": overwrite,
                           "accept": bool(body.get("accept"))}
    if "clues" in body:
        job["clues"] = scanroutes.checked_clues(body["clues"])
    else:
        job["doc"] = checked(body.get("doc"))
    return answer(await studio.engine.one(job, lane=lane, claim=claim, seconds=job_seconds("save")))


# --- the app -----------------------------------------------------------------------------------------


def _static() -> Path:
    return Path(str(resources.files(__package__).joinpath("static")))


@functools.lru_cache(maxsize=1)
def _page() -> str:
    return (_static() / "index.html").read_text(encoding="utf-8")


async def _failed(request: Request, exc: Exception) -> Response:
    """What the author caused, as a message for the page: too large or slow, exists (ask first), bad input."""
    if isinstance(exc, LimitError):  # the body may be unread: the connection closes after the answer
        response = error(str(exc), getattr(exc, "status", 400))
        response.headers["Connection"] = "close"
        return response
    if isinstance(exc, OutputExistsError):
        return error(str(exc), 409)
    if isinstance(exc, OSError):  # the studio's own files (a full disk, say)
        return error(f"{Path(exc.filename).name if exc.filename else ''}: {exc.strerror or exc}".lstrip(": "))
    return error(str(exc))


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    app.state.studio.engine.warm()
    yield
    app.state.studio.close()


def create_app(folder: Folder, token: str, hosts: Optional[list[str]] = None, limits: Limits = Limits()) -> Starlette:
    """The studio's ASGI app serving ``folder`` to requests that carry ``token``; ``hosts`` are the names the page
    may reach it by."""
    api = [
        Route("/api/files", files),
        Route("/api/picture", picture, methods=["POST"]),
        Route("/api/import", reimport, methods=["POST"]),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/suggest", suggest, methods=["POST"]),
        Route("/api/map", ambiguity, methods=["POST"]),
        Route("/api/play", play, methods=["POST"]),
        Route("/api/open", open_file, methods=["POST"]),
        Route("/api/save", save, methods=["POST"]),
        Route("/api/trace", trace, methods=["POST"]),
        *routes3d.ROUTES,
        *scanroutes.ROUTES,
    ]
    app = Starlette(
        routes=[Route("/", index), Route("/play.html", play_frame), *api,
                Mount("/static", StaticFiles(directory=_static()), name="static")],
        middleware=[
            Middleware(TrustedHostMiddleware, allowed_hosts=hosts or ["127.0.0.1", "localhost"]),
            Middleware(Gate, token=token),
        ],
        exception_handlers={NonogenError: _failed, OSError: _failed},
        lifespan=_lifespan,
    )
    app.state.studio = Studio(folder, token, limits)
    return app
