"""What every route of the studio does with a request: read its JSON or its upload, find its tab, answer in JSON.

The routes (:mod:`.app` for puzzles and pictures, :mod:`.routes3d` for levels)
are adapters that parse, hand the work to a worker and answer; the parsing and
answering they share lives here, once, so both halves read a body within the
same limits and answer an error the same way.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Hashable
from urllib.parse import unquote

from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse

from ..errors import LimitError, NonogenError
from .guard import TAB_HEADER, TooSlow, chunks
from .inputs import checked
from .limits import job_seconds
from .tabs import Tab, forget_upload

if TYPE_CHECKING:  # pragma: no cover
    from .app import Studio
    from .worker import Engine

__all__ = ["JSON", "error", "answer", "made_play_page", "play_frame_of", "read_json", "read_document", "upload",
           "uploaded", "drain", "query_options", "file_name", "studio_of", "tab_of", "streamed"]

_STATUS = {"OptionError": 400, "OSError": 400, "OutputExistsError": 409}
"""HTTP status of a worker's error by its kind; any other error the author caused (a picture that is not one) is 422."""


class JSON(JSONResponse):
    """JSON in ASCII: a file name that is not UTF-8 (a lone surrogate) goes out as ``\\udcff`` and comes back alike."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


def error(message: str, status: int = 400) -> Response:
    return JSON({"error": message}, status_code=status, headers={"Cache-Control": "no-store"})


def answer(message: dict[str, Any]) -> Response:
    """A worker's last message as the answer: 200, or the status its error's kind calls for."""
    kind = message.pop("error_kind", None)
    return JSON(message, status_code=_STATUS.get(kind, 422) if "error" in message else 200)


def streamed(engine: Engine, job: dict[str, Any], lane: Hashable, claim: int) -> Response:
    """A job in ``lane`` (a newer one of the lane stops it) answered as it goes: each message one JSON line."""

    async def lines() -> AsyncIterator[bytes]:
        async for message in engine.run(job, lane=lane, claim=claim, seconds=job_seconds(job["kind"])):
            message.pop("error_kind", None)
            yield (json.dumps(message) + "\n").encode()

    return StreamingResponse(lines(), media_type="application/x-ndjson", headers={"Cache-Control": "no-store"})


def studio_of(request: Request) -> Studio:
    return request.app.state.studio


def tab_of(request: Request) -> Tab:
    return studio_of(request).tabs.get(request.headers.get(TAB_HEADER))


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object, read within the limits on a JSON body."""
    limits = studio_of(request).limits
    data = b"".join([chunk async for chunk in chunks(request, limits.json_bytes, limits.body_seconds)])
    try:
        value = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise NonogenError("the request is not JSON") from None
    if not isinstance(value, dict):
        raise NonogenError("the request is not a JSON object")
    return value


async def read_document(request: Request) -> dict[str, Any]:
    """The JSON request of a route about the page's document, its ``doc`` checked once, before any work is queued
    (:func:`.inputs.checked`: a bad one is a one-line 400); the worker builds the puzzle from it unchecked."""
    body = await read_json(request)
    body["doc"] = checked(body.get("doc"))
    return body


async def upload(request: Request, path: Path) -> None:
    """The request body streamed into ``path`` (never held in memory), one of at most ``limits.uploads`` at once.

    An upload that finds no turn, or no room on disk, is still read to its
    end (and dropped) before the answer: a server that answers before an
    upload ends resets the connection, and the page would say "network error".
    """
    studio = studio_of(request)
    limits = studio.limits
    try:
        await asyncio.wait_for(studio.uploads.acquire(), limits.body_seconds)
    except asyncio.TimeoutError:
        await drain(request)
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
        await drain(request)
        raise
    except BaseException:
        forget_upload(path)
        raise
    finally:
        studio.uploads.release()


@contextlib.asynccontextmanager
async def uploaded(request: Request, lane: str, name: str) -> AsyncIterator[tuple[Tab, int, Path]]:
    """The request's upload in a file ``name`` of its own, with the tab and a claim on its ``lane`` (taken before
    the body is read); the file is deleted at the end unless the job made it the tab's picture or model."""
    tab = tab_of(request)
    claim = studio_of(request).engine.claim(tab.lane(lane))
    path = tab.upload_path(name)
    await upload(request, path)
    try:
        yield tab, claim, path
    finally:
        tab.release(path)


async def drain(request: Request) -> None:
    """Read what is left of the body and drop it (within the body's limits; RuntimeError: it was read already)."""
    limits = studio_of(request).limits
    with contextlib.suppress(LimitError, ClientDisconnect, RuntimeError):
        async for _ in chunks(request, limits.upload_bytes, limits.body_seconds):
            pass


def query_options(request: Request) -> Any:
    """The options an upload carries in its query (``?options={...}``)."""
    try:
        return json.loads(request.query_params.get("options") or "{}")
    except ValueError:
        raise NonogenError("options: expected a JSON object") from None


def file_name(request: Request) -> str:
    """The uploaded file's own name (the page sends it URL-encoded: header values are ASCII), for messages."""
    return Path(unquote(request.headers.get("x-file-name", ""))).name[:200]


async def made_play_page(request: Request, job: dict[str, Any], what: str) -> Response:
    """The page's puzzle or level (``what``) made into its play page by ``job`` and kept for the tab's frame.

    The page stays on the server, not in the answer: the frame loads it as a
    document of its own, so it keeps its own CSP."""
    engine, tab = studio_of(request).engine, tab_of(request)
    claim = engine.claim(tab.lane("play"))
    message = await engine.one(job, lane=tab.lane("play"), claim=claim, seconds=job_seconds(job["kind"]))
    if "page" in message:
        tab.play_pages[what] = message.pop("page")
        message["ready"] = True
    return answer(message)


def play_frame_of(request: Request, what: str) -> Response:
    """The tab's play page of its ``what`` (``puzzle`` or ``level``), for the test-play frame."""
    tab = studio_of(request).tabs.peek(request.query_params.get("tab"))
    page = (tab and tab.play_pages.get(what)) or f"<!DOCTYPE html><title>no {what}</title><p>No {what} to play yet.</p>"
    return HTMLResponse(page, headers={"Cache-Control": "no-store"})
