"""``nonogen studio``: a local web app to make a puzzle from a picture, with the engine proving it as you edit.

The page (``static/``) holds the document; the server (:mod:`.app`,
Starlette on uvicorn) reads pictures and puzzle files from one folder,
runs the engine in worker processes that a newer edit stops
(:mod:`.worker`, :mod:`.jobs`) and writes into that folder only
(:mod:`.folder`). :func:`serve` runs it until interrupted.
"""
from __future__ import annotations

import socket
from pathlib import Path
from typing import Callable, Optional, Union

__all__ = ["serve", "open_socket"]


def open_socket(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening socket (``port`` 0: any free one), bound before the server starts so its address is known."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    sock.set_inheritable(False)
    return sock


def serve(folder: Union[str, Path], sock: socket.socket, on_ready: Optional[Callable[[str], None]] = None) -> None:
    """Serve the studio for ``folder`` on ``sock`` until interrupted; ``on_ready(url)`` once it listens."""
    import asyncio

    import uvicorn

    from .app import create_app
    from .folder import Folder

    host, port = sock.getsockname()[:2]
    url = f"http://{f'[{host}]' if ':' in host else host}:{port}/"
    hosts = ["127.0.0.1", "localhost", "[::1]", host] if host not in ("0.0.0.0", "::") else ["*"]
    app = create_app(Folder(folder), hosts)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: object) -> None:
            """Ctrl-C: stop the engine first, so a request waiting on a long check ends now, not at a timeout."""
            app.state.studio.stop_engine()
            super().handle_exit(sig, frame)  # type: ignore[arg-type]

    server = Server(uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=5))

    async def run() -> None:
        task = asyncio.ensure_future(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.01)
        if server.started and on_ready is not None:
            on_ready(url)
        await task

    asyncio.run(run())
