"""What every request to the studio passes: the run's secret, and the limits on its body.

The studio listens on the loopback address, where every local user and every
web page the browser shows can reach it. So, as Jupyter does, each run has a
secret token: the URL the command prints carries it (``/?token=...``), the
page keeps it and sends it as ``X-Nonogen-Token`` with every API request,
and a request without it is refused (403) whoever sends it: another user of
the machine, or a page on another site (which also could not set the header
without a CORS preflight the studio never grants; and the ``Host`` must be
a loopback name, against DNS rebinding). The page itself, and the frames'
pages, are served for the token in their URL only; without it the answer is
a short note saying where the right URL is.

No cookie lets anything in, and none is set (the page expires one an earlier
studio set, :data:`OLD_COOKIE`). A cookie belongs to a host, not
to a port: the browser sends a cookie of 127.0.0.1 to every server on
127.0.0.1, so any other local user's web server that the author's browser
visits once (a link, a redirect, an image) receives it. A cookie holding the
token gave that server the token, to replay as ``X-Nonogen-Token``; a
separate session cookie that lets the page load would do no better, since
the page it loads carries the token. So the token lives in the page only:
the page takes it from its URL, takes the URL out of the address bar, and
keeps the token in its own history entry (``history.state``), which only
this origin (this port) can read and which a reload keeps. A reload asks
for ``/`` without the token and gets the note, whose script
(``static/unlock.js``) finds the token in that history entry and asks again
with it, once. A new visit without the printed URL has no history entry and
stays locked out.

Request bodies are read with a byte limit and a time limit, so an endless
or stalled upload ends with a one-line error and a closed connection.
"""
from __future__ import annotations

import asyncio
import hmac
import re
import secrets
from typing import Any, AsyncIterator, Awaitable, Callable
from urllib.parse import parse_qs

from starlette.requests import Request

from ..errors import InputError, LimitError

__all__ = ["Gate", "new_token", "check_token", "TOKEN_HEADER", "TAB_HEADER", "chunks", "TooLarge", "TooSlow",
           "OLD_COOKIE"]

TOKEN_HEADER = "X-Nonogen-Token"
TAB_HEADER = "X-Nonogen-Tab"

_TOKEN = re.compile(r"[A-Za-z0-9_.~-]{8,200}")

LOCKED = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>nonogen studio</title>
<script src="/static/unlock.js"></script></head>
<body style="font-family: system-ui, sans-serif; margin: 3em; max-width: 40em">
<h1>nonogen studio</h1>
<p>Open the URL printed by <code>nonogen studio</code> in its terminal: it carries this run's secret
(<code>/?token=...</code>), which keeps other users and other sites out of your folder.</p>
</body></html>
"""
REFUSED = b'{"error": "refused: this request lacks the studio\'s token (see X-Nonogen-Token)"}'


def new_token() -> str:
    """A fresh secret for one run (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def check_token(token: str) -> str:
    """``token`` when it can be a studio token (8 to 200 URL-safe characters), else an InputError.

    >>> check_token("s3cret-for-tests")
    's3cret-for-tests'
    """
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        raise InputError("token: expected 8 to 200 letters, digits or -._~")
    return token


OLD_COOKIE = re.compile(r"nonogen-studio-\d+")
"""The cookies earlier studios set, holding their token: the page expires any it is sent (see the module's notes)."""


class Gate:
    """ASGI middleware: ``/``, ``/level.html`` and ``/play.html`` need the token in the query (``?token=``);
    ``/static/...`` (the page's scripts and style, no secret in them) is public; anything else, the API first,
    needs it in :data:`TOKEN_HEADER`. Nothing else lets a request in: no cookie, no address."""

    def __init__(self, app: Callable[..., Awaitable[None]], token: str):
        self.app, self.token = app, token.encode()

    def _right(self, value: str) -> bool:
        return hmac.compare_digest(value.encode("utf-8", "replace"), self.token)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            path = scope["path"]
            if path in ("/", "/level.html", "/play.html"):
                if not self._right(_query(scope, "token")):
                    return await _refuse(send, b"text/html; charset=utf-8", LOCKED.encode())
            elif not path.startswith("/static/") and not self._right(_header(scope, TOKEN_HEADER.lower().encode())):
                return await _refuse(send, b"application/json", REFUSED)
        await self.app(scope, receive, send)


def _header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return ""


def _query(scope: dict[str, Any], name: str) -> str:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(name)
    return values[0] if values else ""


async def _refuse(send: Any, kind: bytes, body: bytes) -> None:
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store"), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


# --- request bodies ------------------------------------------------------------------------------


class TooLarge(LimitError):
    """A request body over its byte limit (413)."""

    status = 413

    def __init__(self, size: int, limit: int, whole: bool = True):
        super().__init__(f"the file is {size / 1e6:.1f} MB{'' if whole else ' or more'}; the studio takes files up to "
                         f"{limit / 1e6:g} MB")


class TooSlow(LimitError):
    """A request body that did not arrive within its time limit (408), or an upload that found no turn (503)."""

    def __init__(self, message: str, status: int = 408):
        super().__init__(message)
        self.status = status


DROP_FACTOR = 4
"""Past its limit, a body is read and dropped up to this many times the limit, so the page gets the reason (a
server that answers before an upload ends resets the connection, and the browser says "network error")."""


async def chunks(request: Request, limit: int, seconds: float) -> AsyncIterator[bytes]:
    """The request body in chunks as they arrive: at most ``limit`` bytes, all of them within ``seconds``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    stream = request.stream().__aiter__()
    size = 0
    while True:
        try:
            chunk = await asyncio.wait_for(stream.__anext__(), max(0.0, deadline - loop.time()))
        except StopAsyncIteration:
            break
        except asyncio.TimeoutError:
            if size > limit:
                raise TooLarge(size, limit, whole=False) from None
            raise TooSlow(f"the request's body did not arrive within {seconds:g} s") from None
        size += len(chunk)
        if size <= limit:
            yield chunk
        elif size > DROP_FACTOR * limit:
            raise TooLarge(size, limit, whole=False)
    if size > limit:
        raise TooLarge(size, limit)
