"""Running the studio: uvicorn with limits on connections, stopped within a second by Ctrl-C or SIGTERM.

uvicorn times out a connection only between requests: one that never sends
a request holds a file handle for ever, and about a thousand of them made
the studio unreachable. Here every connection must send its request's
headers within ``limits.header_seconds``, and past ``limits.connections``
the connection idle longest is closed to make room for a new one (past
twice that, new ones are closed at once); requests beyond the limit get 503.
Connections are accepted ``limits.connections`` at a time (uvicorn's 2,048
ran the process out of file handles before any could be closed), and should
the handles run out anyway, asyncio's complaint is printed once a minute,
not once per connection with a traceback.
"""
from __future__ import annotations

import asyncio
import logging
import socket
import time
from pathlib import Path
from typing import Any, Callable, Optional, Union

from .limits import Limits

__all__ = ["serve", "open_socket"]


def open_socket(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening socket (``port`` 0: any free one), bound before the server starts so its address is known."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    sock.set_inheritable(False)
    return sock


def _connection_class(limits: Limits) -> type:
    """uvicorn's HTTP/1.1 connection with a deadline for each request's headers and a cap on idle connections."""
    from uvicorn.protocols.http.h11_impl import H11Protocol  # uvicorn loads when a studio starts

    class Connection(H11Protocol):
        _timer: Optional[asyncio.TimerHandle] = None
        _since = 0.0

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._watch()
            if len(self.connections) > limits.connections:
                self._make_room()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._watch()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch()

        def connection_lost(self, exc: Optional[Exception]) -> None:
            if self._timer is not None:
                self._timer.cancel()
            super().connection_lost(exc)

        def idle(self) -> bool:
            """No request under way: none yet, or the last one answered."""
            return self.cycle is None or self.cycle.response_complete

        def _watch(self) -> None:
            """While idle, the next request's headers must come within the limit; a request under way has none."""
            if not self.idle():
                if self._timer is not None:
                    self._timer.cancel()
                    self._timer = None
            elif self._timer is None:
                self._since = self.loop.time()
                self._timer = self.loop.call_later(limits.header_seconds, self._expire)

        def _expire(self) -> None:
            self._timer = None
            if self.idle() and not self.transport.is_closing():
                self.transport.close()

        def _make_room(self) -> None:
            idle = [c for c in self.connections if c is not self and isinstance(c, Connection) and c.idle()
                    and not c.transport.is_closing()]
            if idle:
                min(idle, key=lambda c: c._since).transport.close()
            elif len(self.connections) > 2 * limits.connections:
                self.transport.close()

    return Connection


class _Quieter(logging.Filter):
    """asyncio's "socket.accept() out of system resource": once a minute and without its traceback."""

    def __init__(self) -> None:
        super().__init__()
        self.last = -60.0

    def filter(self, record: logging.LogRecord) -> bool:
        if "out of system resource" not in record.getMessage():
            return True
        now = time.monotonic()
        if now - self.last < 60:
            return False
        self.last = now
        record.exc_info = record.exc_text = None
        return True


def serve(folder: Union[str, Path], sock: socket.socket, on_ready: Optional[Callable[[str], None]] = None, *,
          token: Optional[str] = None, limits: Limits = Limits()) -> None:
    """Serve the studio for ``folder`` on ``sock`` until interrupted; ``on_ready(url)`` once it listens.

    ``url`` carries the run's ``token`` (a fresh secret when None): the page
    and every API request need it (see :mod:`.guard`).
    """
    import uvicorn  # uvicorn and Starlette load when a studio starts: importing nonogen.studio stays light

    from .app import create_app  # app and guard import Starlette
    from .folder import Folder  # noqa: I001 - with them
    from .guard import check_token, new_token  # guard, like app, imports Starlette

    token = new_token() if token is None else check_token(token)
    host, port = sock.getsockname()[:2]
    url = f"http://{f'[{host}]' if ':' in host else host}:{port}/?token={token}"
    hosts = ["127.0.0.1", "localhost", "[::1]", host] if host not in ("0.0.0.0", "::") else ["*"]
    app = create_app(Folder(folder), token, hosts, limits)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: object) -> None:
            """Ctrl-C, SIGTERM: kill the workers first, so requests waiting on one end now, not at a deadline."""
            app.state.studio.engine.kill()
            super().handle_exit(sig, frame)  # type: ignore[arg-type]

    # half a second to finish requests on Ctrl-C: uvicorn annotates a whole number but passes it to asyncio.wait_for
    config = uvicorn.Config(app, log_level="error", lifespan="on", http=_connection_class(limits),
                            timeout_keep_alive=limits.keep_alive_seconds, limit_concurrency=limits.connections + 1,
                            backlog=limits.connections, timeout_graceful_shutdown=0.5)  # type: ignore[arg-type]
    server = Server(config)

    async def run() -> None:
        task = asyncio.ensure_future(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.01)
        if server.started and on_ready is not None:
            on_ready(url)
        await task

    quieter = _Quieter()
    logging.getLogger("asyncio").addFilter(quieter)
    try:
        asyncio.run(run())
    finally:
        logging.getLogger("asyncio").removeFilter(quieter)
