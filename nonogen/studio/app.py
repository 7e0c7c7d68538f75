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
import json
import secrets
from importlib import resources
from pathlib import Path
from typing import Any, AsyncIterator, Optional
from urllib.parse import unquote

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import LimitError, NonogenError, OutputExistsError
from .folder import MODEL_SUFFIXES, PICTURE_SUFFIXES, Folder
from .guard import OLD_COOKIE, TAB_HEADER, Gate, TooSlow, chunks
from .inputs import check_save_kind, checked, mesh_options, picture_options, trace_request
from .limits import Limits, job_seconds
from .tabs import Picture, Tab, Tabs, forget_upload
from .worker import Engine

__all__ = ["create_app"]

_STATUS = {"OptionError": 400, "OSError": 400, "OutputExistsError": 409}
"""HTTP status of a worker's error by its kind; any other error the author caused (a picture that is not one) is 422."""


class Studio:
    """What the server holds: the folder, the tabs, the engine, the limits, and the run's token."""

    def __init__(self, folder: Folder, token: str, limits: Limits):
        self.folder, self.token, self.limits = folder, token, limits
        self.tabs = Tabs(limits.tabs)
        self.engine = Engine(size=limits.workers)
        self.uploads = asyncio.Semaphore(limits.uploads)

    def close(self) -> None:
        self.engine.close()
        self.tabs.close()


class _JSON(JSONResponse):
    """JSON in ASCII: a file name that is not UTF-8 (a lone surrogate) goes out as ``\\udcff`` and comes back alike."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


def _error(message: str, status: int = 400) -> Response:
    return _JSON({"error": message}, status_code=status, headers={"Cache-Control": "no-store"})


def _answer(message: dict[str, Any]) -> Response:
    kind = message.pop("error_kind", None)
    return _JSON(message, status_code=_STATUS.get(kind, 422) if "error" in message else 200)


async def _json(request: Request) -> dict[str, Any]:
    limits = _studio(request).limits
    data = b"".join([chunk async for chunk in chunks(request, limits.json_bytes, limits.body_seconds)])
    try:
        value = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise NonogenError("the request is not JSON") from None
    if not isinstance(value, dict):
        raise NonogenError("the request is not a JSON object")
    return value


async def _document(request: Request) -> dict[str, Any]:
    """The JSON request of a route about the page's document, its ``doc`` checked once, before any work is queued
    (:func:`.inputs.checked`: a bad one is a one-line 400); the worker builds the puzzle from it unchecked."""
    body = await _json(request)
    body["doc"] = checked(body.get("doc"))
    return body


async def _upload(request: Request, path: Path) -> None:
    """The request body streamed into ``path`` (never held in memory), one of at most ``limits.uploads`` at once.

    An upload that finds no turn, or no room on disk, is still read to its
    end (and dropped) before the answer: a server that answers before an
    upload ends resets the connection, and the page would say "network error".
    """
    studio = _studio(request)
    limits = studio.limits
    try:
        await asyncio.wait_for(studio.uploads.acquire(), limits.body_seconds)
    except asyncio.TimeoutError:
        await _drain(request)
        raise TooSlow("the studio is busy with other uploads; try again in a moment", 503) from None
    try:
        with open(path, "wb") as out:
            pending = bytearray()
            async for chunk in chunks(request, limits.upload_bytes, limits.body_seconds):
                pending += chunk
                if len(pending) >= 1 << 20:
                    await asyncio.to_thread(out.write, bytes(pending))
                    pending.clear()
            await asyncio.to_thread(out.write, bytes(pending))
    except OSError:
        forget_upload(path)
        await _drain(request)
        raise
    except BaseException:
        forget_upload(path)
        raise
    finally:
        studio.uploads.release()


async def _drain(request: Request) -> None:
    """Read what is left of the body and drop it (within the body's limits; RuntimeError: it was read already)."""
    limits = _studio(request).limits
    with contextlib.suppress(LimitError, ClientDisconnect, RuntimeError):
        async for _ in chunks(request, limits.upload_bytes, limits.body_seconds):
            pass


def _query_options(request: Request) -> Any:
    """The options an upload carries in its query (``?options={...}``)."""
    try:
        return json.loads(request.query_params.get("options") or "{}")
    except ValueError:
        raise NonogenError("options: expected a JSON object") from None


def _file_name(request: Request) -> str:
    """The uploaded file's own name (the page sends it URL-encoded: header values are ASCII), for messages."""
    return Path(unquote(request.headers.get("x-file-name", ""))).name[:200]


def _studio(request: Request) -> Studio:
    return request.app.state.studio


def _tab(request: Request) -> Tab:
    return _studio(request).tabs.get(request.headers.get(TAB_HEADER))


# --- routes ------------------------------------------------------------------------------------------


async def index(request: Request) -> Response:
    """The page, with the run's token in it (the page sends it back and keeps it for a reload: see :mod:`.guard`).

    No cookie is set; one an earlier studio set (it held that run's token, and went to every port) is expired.
    """
    token = _studio(request).token
    page = _page().replace('<meta name="nonogen-token" content="">', f'<meta name="nonogen-token" content="{token}">')
    response = HTMLResponse(page, headers={"Cache-Control": "no-store",
                                           "Content-Security-Policy": "frame-ancestors 'self'"})
    for name in request.cookies:
        if OLD_COOKIE.fullmatch(name):
            response.delete_cookie(name)
    return response


async def files(request: Request) -> Response:
    studio = _studio(request)
    return _JSON({"folder": str(studio.folder.root), "files": await asyncio.to_thread(studio.folder.listing)})


async def picture(request: Request) -> Response:
    """An uploaded picture (the raw bytes), read into a puzzle with the options in the query."""
    tab = _tab(request)
    claim = _studio(request).engine.claim(tab.lane("import"))
    path = tab.upload_path("picture")
    await _upload(request, path)
    try:
        options = picture_options(_query_options(request))
        upload = Picture(secrets.token_hex(8), path, _file_name(request) or "the picture")
        return await _import(request, tab, upload, options, claim)
    finally:
        tab.release(path)


async def reimport(request: Request) -> Response:
    """The tab's picture read again with other options (size, colours, threshold...)."""
    tab = _tab(request)
    claim = _studio(request).engine.claim(tab.lane("import"))
    body = await _json(request)
    options = picture_options(body.get("options"))
    if tab.picture is None or tab.picture.id != body.get("picture_id"):
        return _error("the picture is no longer on the server; drop it again")
    return await _import(request, tab, tab.picture, options, claim)


async def _import(request: Request, tab: Tab, source: Picture, options: Any, claim: int) -> Response:
    """``source`` read into a grid; it becomes the tab's picture (read again by the sliders) once it has been."""
    job = {"kind": "import", "picture_id": source.id, "path": str(source.path), "name": source.name, "options": options}
    message = await _studio(request).engine.one(job, lane=tab.lane("import"), claim=claim,
                                                seconds=job_seconds("import"))
    if "grid" in message:
        tab.keep_picture(source)
        message["picture_id"] = source.id
    return _answer(message)


async def trace(request: Request) -> Response:
    """A tracing tool's question about the tab's picture (the picture to show, a region, the threshold map) or about
    the page's grid (specks), answered by :mod:`.trace` in the tab's trace lane (the page asks one at a time)."""
    studio, tab = _studio(request), _tab(request)
    lane = tab.lane("trace")
    claim = studio.engine.claim(lane)
    body = await _json(request)
    job: dict[str, Any] = {"kind": "trace", **trace_request(body)}
    if job["op"] != "specks":
        if tab.picture is None or tab.picture.id != body.get("picture_id"):
            return _error("the picture is no longer on the server; drop it again")
        job.update(picture_id=tab.picture.id, path=str(tab.picture.path), name=tab.picture.name)
    return _answer(await studio.engine.one(job, lane=lane, claim=claim, seconds=job_seconds("trace")))


async def check(request: Request) -> Response:
    """The verdict, ambiguous cells, grade and replay of the page's grid, one JSON line each as they come."""
    return await _stream(request, "check")


async def _stream(request: Request, kind: str) -> Response:
    """A job about the page's grid in the tab's check lane (a newer edit stops it), its messages as JSON lines."""
    engine, lane = _studio(request).engine, _tab(request).lane("check")
    claim = engine.claim(lane)  # the edit before this one is dropped now, not once this body is read
    body = await _document(request)

    async def lines() -> AsyncIterator[bytes]:
        async for message in engine.run({"kind": kind, "doc": body["doc"]}, lane=lane, claim=claim,
                                        seconds=job_seconds(kind)):
            message.pop("error_kind", None)
            yield (json.dumps(message) + "\n").encode()

    return StreamingResponse(lines(), media_type="application/x-ndjson", headers={"Cache-Control": "no-store"})


async def ambiguity(request: Request) -> Response:
    """The ambiguity map of the page's grid (see :mod:`.ambiguity`), one JSON line per cell as it is scored."""
    return await _stream(request, "map")


async def suggest(request: Request) -> Response:
    engine, lane = _studio(request).engine, _tab(request).lane("check")
    claim = engine.claim(lane)
    body = await _document(request)
    job = {"kind": "suggest", "doc": body["doc"], "goal": body.get("goal"), "grade": body.get("grade")}
    return _answer(await engine.one(job, lane=lane, claim=claim, seconds=job_seconds("suggest")))


async def open_file(request: Request) -> Response:
    """A file of the folder: a puzzle opens as its solution grid, a picture is imported, a model made a level."""
    studio, tab = _studio(request), _tab(request)
    body = await _json(request)
    name = body.get("name")
    suffix = Path(str(name)).suffix.lower()
    if suffix in MODEL_SUFFIXES:
        claim = studio.engine.claim(tab.lane("mesh"))
        options = mesh_options(body.get("options"))
        return await _mesh(request, tab, await asyncio.to_thread(studio.folder.file, name), options, claim)
    claim = studio.engine.claim(tab.lane("import"))
    if suffix in PICTURE_SUFFIXES:
        options = picture_options(body.get("options"))
        path = await asyncio.to_thread(studio.folder.file, name, studio.limits.upload_bytes)
        return await _import(request, tab, Picture(secrets.token_hex(8), path, path.name), options, claim)
    path = await asyncio.to_thread(studio.folder.file, name)
    return _answer(await studio.engine.one({"kind": "open", "path": str(path)}, lane=tab.lane("import"), claim=claim,
                                           seconds=job_seconds("open")))


async def mesh(request: Request) -> Response:
    """An uploaded model (raw bytes; its name in ``X-File-Name``) made into a level with the query's options."""
    name = _file_name(request)
    suffix = Path(name).suffix.lower()
    if suffix not in MODEL_SUFFIXES or name.startswith("."):
        await _drain(request)
        return _error(f"{name or 'the file'}: a model file is named *{', *'.join(MODEL_SUFFIXES)}")
    tab = _tab(request)
    claim = _studio(request).engine.claim(tab.lane("mesh"))
    path = tab.upload_path(name)
    await _upload(request, path)
    try:
        return await _mesh(request, tab, path, mesh_options(_query_options(request)), claim)
    finally:
        tab.release(path)


async def remesh(request: Request) -> Response:
    tab = _tab(request)
    claim = _studio(request).engine.claim(tab.lane("mesh"))
    body = await _json(request)
    if tab.model is None or tab.level is None:
        return _error("no model loaded yet")
    return await _mesh(request, tab, tab.model, mesh_options(body.get("options")), claim)


async def _mesh(request: Request, tab: Tab, path: Path, options: dict[str, Any], claim: int) -> Response:
    """``path`` made into a level, kept by the tab as the worker's opaque bytes (see :func:`.jobs.make_mesh`)."""
    job = {"kind": "mesh", "path": str(path), "name": path.name, "options": options}
    message = await _studio(request).engine.one(job, lane=tab.lane("mesh"), claim=claim, seconds=job_seconds("mesh"))
    level = message.pop("level", None)
    if "error" in message:  # the model's name as the author knows it, not the server's copy
        message["error"] = message["error"].replace(str(path), path.name)
    if level is not None:
        tab.level, tab.level_page = level, message.pop("page")
        tab.keep_model(path)
    return _answer(message)


async def level_page(request: Request) -> Response:
    """The tab's level as a play page (three.js, self-contained), for the frame: its own document keeps its own CSP."""
    tab = _studio(request).tabs.peek(request.query_params.get("tab"))
    page = (tab and tab.level_page) or "<!DOCTYPE html><title>no level</title><p>No level made yet.</p>"
    return HTMLResponse(page, headers={"Cache-Control": "no-store"})


async def play(request: Request) -> Response:
    """The page's puzzle made into the play page, kept for the tab's test-solve frame (``/play.html``)."""
    engine, tab = _studio(request).engine, _tab(request)
    claim = engine.claim(tab.lane("play"))
    body = await _document(request)
    message = await engine.one({"kind": "play", "doc": body["doc"]}, lane=tab.lane("play"), claim=claim,
                               seconds=job_seconds("play"))
    if "page" in message:
        tab.play_page = message.pop("page")
        message["ready"] = True
    return _answer(message)


async def play_frame(request: Request) -> Response:
    """The tab's puzzle as the play page, for the test-solve frame (its own document keeps its own CSP)."""
    tab = _studio(request).tabs.peek(request.query_params.get("tab"))
    page = (tab and tab.play_page) or "<!DOCTYPE html><title>no puzzle</title><p>No puzzle to play yet.</p>"
    return HTMLResponse(page, headers={"Cache-Control": "no-store"})


async def save(request: Request) -> Response:
    """The page's puzzle saved in the folder: a puzzle file, a sheet or a play page (never over a file unasked)."""
    studio, tab = _studio(request), _tab(request)
    lane = tab.lane("save")
    claim = studio.engine.claim(lane)  # a newer save of this tab replaces this one, a level's or a puzzle's
    body = await _json(request)
    kind, name, overwrite = str(body.get("format")), body.get("name"), bool(body.get("overwrite"))
    path = studio.folder.path(name)
    if body.get("level"):
        if tab.level is None:
            return _error("no level made yet")
        job = {"kind": "save-level", "level": tab.level, "path": str(path), "overwrite": overwrite}
        return _answer(await studio.engine.one(job, lane=lane, claim=claim, seconds=job_seconds("save-level")))
    check_save_kind(kind, path)
    job = {"kind": "save", "doc": checked(body.get("doc")), "path": str(path), "format": kind, "overwrite": overwrite,
           "accept": bool(body.get("accept"))}
    return _answer(await studio.engine.one(job, lane=lane, claim=claim, seconds=job_seconds("save")))


# --- the app -----------------------------------------------------------------------------------------


def _static() -> Path:
    return Path(str(resources.files(__package__).joinpath("static")))


@functools.lru_cache(maxsize=1)
def _page() -> str:
    return (_static() / "index.html").read_text(encoding="utf-8")


async def _failed(request: Request, exc: Exception) -> Response:
    """What the author caused, as a message for the page: too large or slow, exists (ask first), bad input."""
    if isinstance(exc, LimitError):  # the body may be unread: the connection closes after the answer
        response = _error(str(exc), getattr(exc, "status", 400))
        response.headers["Connection"] = "close"
        return response
    if isinstance(exc, OutputExistsError):
        return _error(str(exc), 409)
    if isinstance(exc, OSError):  # the studio's own files (a full disk, say)
        return _error(f"{Path(exc.filename).name if exc.filename else ''}: {exc.strerror or exc}".lstrip(": "))
    return _error(str(exc))


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
        Route("/api/mesh", mesh, methods=["POST"]),
        Route("/api/remesh", remesh, methods=["POST"]),
        Route("/api/save", save, methods=["POST"]),
        Route("/api/trace", trace, methods=["POST"]),
    ]
    app = Starlette(
        routes=[Route("/", index), Route("/level.html", level_page), Route("/play.html", play_frame), *api,
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
