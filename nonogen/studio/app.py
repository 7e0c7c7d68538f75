"""The studio's web app: Starlette routes between the page and the engine workers.

Routes only move bytes and JSON: documents are checked by
:mod:`.document`, files go through :class:`.folder.Folder`, engine work runs
in :mod:`.worker` channels. Every failure the author can cause is a JSON
``{"error": ...}`` with a 4xx status; the server keeps running.

A page on another site could send requests to this port; every ``/api``
request must carry the ``X-Nonogen-Studio`` header, which a cross-site page
cannot set without a CORS preflight the app never grants, and the ``Host``
must be the loopback name the server was opened on (no DNS rebinding).
"""
from __future__ import annotations

import contextlib
import json
import secrets
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any, AsyncIterator, Optional
from urllib.parse import unquote

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import formats
from ..errors import NonogenError, OutputExistsError
from ..model3d import Puzzle3D
from ..output import answer, draw
from ..output import save as save_made
from ..plain import to_jsonable
from .document import puzzle_json, puzzle_of
from .folder import MODEL_SUFFIXES, PICTURE_SUFFIXES, Folder
from .worker import CANCELLED, Channel

__all__ = ["create_app", "MAX_UPLOAD", "HEADER"]

MAX_UPLOAD = 20_000_000
"""Largest picture or model the studio takes (bytes); past it the rest of an upload is read and dropped, never kept."""

HEADER = "X-Nonogen-Studio"

SHEETS = {"pdf": ".pdf", "pdf-solution": ".pdf", "png": ".png", "svg": ".svg", "html": ".html"}
"""Save kinds that draw the puzzle (sheet, solution, play page) rather than write a puzzle file."""

_KEPT = 8  # uploaded pictures kept in memory


class Studio:
    """What the server holds: the folder, uploaded pictures, the last level made, the engine channels."""

    def __init__(self, folder: Folder):
        self.folder = folder
        self.pictures: dict[str, tuple[bytes, str]] = {}  # id -> (bytes, file name)
        self.channels = {name: Channel() for name in ("check", "import", "mesh")}
        self.models = tempfile.TemporaryDirectory(prefix="nonogen-studio-")
        self.level: Any = None  # the Made of the last level
        self.level_page = ""  # its play page, shown in the page's frame

    def keep_picture(self, data: bytes, name: str) -> str:
        key = secrets.token_hex(8)
        self.pictures[key] = (data, name[:200])
        while len(self.pictures) > _KEPT:
            self.pictures.pop(next(iter(self.pictures)))
        return key

    async def one(self, channel: str, job: dict[str, Any]) -> dict[str, Any]:
        """The last message of a single-answer job (an error or cancellation if that is what came)."""
        last: dict[str, Any] = CANCELLED
        async for message in self.channels[channel].run(job):  # read to the end: the worker is then free
            last = message
        return last

    def stop_engine(self) -> None:
        """Kill every worker: requests waiting on one answer at once (the server is shutting down)."""
        for channel in self.channels.values():
            channel.close()

    def close(self) -> None:
        self.stop_engine()
        self.models.cleanup()


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _answer(message: dict[str, Any]) -> JSONResponse:
    return JSONResponse(to_jsonable(message), status_code=422 if "error" in message else 200)


async def _body(request: Request) -> bytes:
    """The request body, refused past :data:`MAX_UPLOAD`.

    The rest of a refused body is read and dropped, not kept: a server that
    answers before the upload ends gets its connection reset, and the page
    would show "network error" instead of the reason.
    """
    data = bytearray()
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size <= MAX_UPLOAD:
            data += chunk
    if size > MAX_UPLOAD:
        raise _TooLarge(size)
    return bytes(data)


class _TooLarge(Exception):
    def __init__(self, size: int):
        super().__init__(f"the file is {size / 1e6:.1f} MB; the studio takes files up to {MAX_UPLOAD // 1_000_000} MB")


async def _json(request: Request) -> dict[str, Any]:
    try:
        value = json.loads(await _body(request))
    except (ValueError, UnicodeDecodeError):
        raise NonogenError("the request is not JSON") from None
    if not isinstance(value, dict):
        raise NonogenError("the request is not a JSON object")
    return value


def _options(request: Request) -> dict[str, Any]:
    """The options an upload carries in its query (``?options={...}``)."""
    try:
        value = json.loads(request.query_params.get("options") or "{}")
    except ValueError:
        raise NonogenError("options: expected a JSON object") from None
    if not isinstance(value, dict):
        raise NonogenError("options: expected a JSON object")
    return value


def _file_name(request: Request) -> str:
    """The uploaded file's own name (the page sends it URL-encoded: header values are ASCII), for messages."""
    return Path(unquote(request.headers.get("x-file-name", ""))).name[:200]


def _studio(request: Request) -> Studio:
    return request.app.state.studio


# --- routes ------------------------------------------------------------------------------------------


async def index(request: Request) -> Response:
    return FileResponse(_static() / "index.html", headers={"Cache-Control": "no-store"})


async def files(request: Request) -> Response:
    studio = _studio(request)
    return JSONResponse({"folder": str(studio.folder.root), "files": studio.folder.listing()})


async def picture(request: Request) -> Response:
    """An uploaded picture (the raw bytes), read into a puzzle with the options in the query."""
    studio = _studio(request)
    key = studio.keep_picture(await _body(request), _file_name(request) or "the picture")
    return await _import(studio, key, _options(request))


async def reimport(request: Request) -> Response:
    """The picture read again with other options (size, colours, threshold...)."""
    body = await _json(request)
    studio = _studio(request)
    key = str(body.get("picture_id"))
    if key not in studio.pictures:
        return _error("the picture is no longer on the server; drop it again")
    return await _import(studio, key, body.get("options") or {})


async def _import(studio: Studio, key: str, options: dict[str, Any]) -> Response:
    data, name = studio.pictures[key]
    job = {"kind": "import", "picture_id": key, "data": data, "name": name, "options": options}
    message = await studio.one("import", job)
    if "grid" in message:
        message["picture_id"] = key
    return _answer(message)


async def check(request: Request) -> Response:
    """The verdict, ambiguous cells, grade and replay of the page's grid, one JSON line each as they come."""
    body = await _json(request)
    puzzle_of(body.get("doc"))  # a bad document is refused here, before a worker is stopped for it
    studio = _studio(request)

    async def lines() -> AsyncIterator[bytes]:
        async for message in studio.channels["check"].run({"kind": "check", "doc": body["doc"]}):
            yield (json.dumps(to_jsonable(message)) + "\n").encode()

    return StreamingResponse(lines(), media_type="application/x-ndjson", headers={"Cache-Control": "no-store"})


async def suggest(request: Request) -> Response:
    body = await _json(request)
    puzzle_of(body.get("doc"))
    job = {"kind": "suggest", "doc": body["doc"], "goal": body.get("goal"), "grade": body.get("grade")}
    return _answer(await _studio(request).one("check", job))


async def open_file(request: Request) -> Response:
    """A file of the folder: a puzzle opens as its solution grid, a picture is imported, a model made a level."""
    body = await _json(request)
    studio = _studio(request)
    name = str(body.get("name"))
    suffix = Path(name).suffix.lower()
    if suffix in PICTURE_SUFFIXES:
        data = studio.folder.read(name, MAX_UPLOAD)
        return await _import(studio, studio.keep_picture(data, name), body.get("options") or {})
    if suffix in MODEL_SUFFIXES:
        return await _mesh(studio, studio.folder.path(name), body.get("options") or {})
    return _answer(_open_puzzle(studio.folder.path(name)))


def _open_puzzle(path: Path) -> dict[str, Any]:
    puzzle = formats.load(path)
    if isinstance(puzzle, Puzzle3D):
        return {"error": f"{path.name}: a Picross 3D level; the studio makes levels from models"}
    found = answer(puzzle, timeout=10)
    doc = puzzle_json(puzzle, found.cells)
    doc["title"] = doc["title"] or path.stem
    return {**doc, "warnings": [found.note] if found.note else []}


async def mesh(request: Request) -> Response:
    """An uploaded model (raw bytes; its name in ``X-File-Name``) made into a level with the query's options."""
    studio = _studio(request)
    name = _file_name(request)
    if Path(name).suffix.lower() not in MODEL_SUFFIXES or name.startswith("."):
        return _error(f"{name or 'the file'}: a model file is named *{', *'.join(MODEL_SUFFIXES)}")
    path = Path(studio.models.name) / name
    path.write_bytes(await _body(request))
    return await _mesh(studio, path, _options(request))


async def remesh(request: Request) -> Response:
    body = await _json(request)
    studio = _studio(request)
    if studio.level is None:
        return _error("no model loaded yet")
    return await _mesh(studio, Path(studio.level.report["model"]), body.get("options") or {})


async def _mesh(studio: Studio, path: Path, options: dict[str, Any]) -> Response:
    message = await studio.one("mesh", {"kind": "mesh", "path": str(path), "options": options})
    made = message.pop("made", None)
    if "error" in message:  # the model's name as the author knows it, not the server's copy
        message["error"] = message["error"].replace(str(path), path.name)
    if made is not None:
        studio.level, studio.level_page = made, message.pop("page")
        message["report"] = {k: v for k, v in message["report"].items() if k != "model"}
        message["report"]["model"] = path.name
    return _answer(message)


async def level_page(request: Request) -> Response:
    """The last level's play page (three.js, self-contained), for the frame: its own document keeps its own CSP."""
    page = _studio(request).level_page or "<!DOCTYPE html><title>no level</title><p>No level made yet.</p>"
    return HTMLResponse(page, headers={"Cache-Control": "no-store"})


async def save(request: Request) -> Response:
    """The page's puzzle written into the folder as a puzzle file, a sheet or a play page (never over a file unasked)."""
    body = await _json(request)
    studio = _studio(request)
    kind, name, overwrite = str(body.get("format")), str(body.get("name")), bool(body.get("overwrite"))
    if body.get("level"):
        return _save_level(studio, name, overwrite)
    puzzle, grid = puzzle_of(body.get("doc"))
    path = studio.folder.path(name)
    if kind in SHEETS:
        if path.suffix.lower() != SHEETS[kind]:
            return _error(f"{name}: a {kind} file is named *{SHEETS[kind]}")
        draw(puzzle, path, solution=kind == "pdf-solution", force=overwrite)
        return JSONResponse({"saved": name, "dropped": []})
    if kind not in formats.FORMATS or not formats.writable(kind) or kind == "nonogen-3d":
        return _error(f"unknown format {kind!r}")
    studio.folder.write(name, formats.dumps(puzzle, kind), overwrite)
    return JSONResponse({"saved": name, "dropped": formats.dropped(puzzle, kind)})


def _save_level(studio: Studio, name: str, overwrite: bool) -> Response:
    """The last level made: ``*.json`` is the level file, any other name a folder like ``nonogen mesh`` writes."""
    if studio.level is None:
        return _error("no level made yet")
    path = studio.folder.path(name)
    if path.suffix.lower() == ".json":
        studio.folder.write(name, formats.dumps(studio.level.puzzle, "nonogen-3d"), overwrite)
    else:
        save_made(studio.level, path, force=overwrite)
    return JSONResponse({"saved": name, "dropped": []})


# --- the app -----------------------------------------------------------------------------------------


def _static() -> Path:
    return Path(str(resources.files(__package__).joinpath("static")))


async def _guard(request: Request, call_next):
    """API requests must carry the studio's header (see the module docstring)."""
    if request.url.path.startswith("/api/") and request.headers.get(HEADER) != "1":
        return _error("requests to the studio's API come from the studio's page", 403)
    return await call_next(request)


async def _failed(request: Request, exc: Exception) -> Response:
    """What the author caused, as a message for the page: too large, exists (ask first), bad input, OS error."""
    if isinstance(exc, _TooLarge):
        return _error(str(exc), 413)
    if isinstance(exc, OutputExistsError):
        return _error(str(exc), 409)
    if isinstance(exc, OSError):
        return _error(f"{Path(exc.filename).name if exc.filename else ''}: {exc.strerror or exc}".lstrip(": "))
    return _error(str(exc))


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    yield
    app.state.studio.close()


def create_app(folder: Folder, hosts: Optional[list[str]] = None) -> Starlette:
    """The studio's ASGI app serving ``folder``; ``hosts`` are the names the page may reach it by."""
    from starlette.middleware.base import BaseHTTPMiddleware

    studio = Studio(folder)
    api = [
        Route("/api/files", files),
        Route("/api/picture", picture, methods=["POST"]),
        Route("/api/import", reimport, methods=["POST"]),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/suggest", suggest, methods=["POST"]),
        Route("/api/open", open_file, methods=["POST"]),
        Route("/api/mesh", mesh, methods=["POST"]),
        Route("/api/remesh", remesh, methods=["POST"]),
        Route("/api/save", save, methods=["POST"]),
    ]
    app = Starlette(
        routes=[Route("/", index), Route("/level.html", level_page), *api, Mount("/static", StaticFiles(directory=_static()), name="static")],
        middleware=[
            Middleware(TrustedHostMiddleware, allowed_hosts=hosts or ["127.0.0.1", "localhost"]),
            Middleware(BaseHTTPMiddleware, dispatch=_guard),
        ],
        exception_handlers={_TooLarge: _failed, NonogenError: _failed, OSError: _failed},
        lifespan=_lifespan,
    )
    app.state.studio = studio
    return app
