"""Engine work off the server's event loop, in a process a newer question can stop at once.

A thread cannot be stopped, and the engine's SAT search holds on until its
deadline; a process can be killed. Each :class:`Channel` (checking a grid,
importing a picture, making a level) owns one worker process. A new job on a
busy channel kills the worker and starts a fresh one, so an edit never waits
for the check of the grid before it, and a hard grid never holds up the page.

Workers come from a ``forkserver`` that imported the engine once: a fresh
worker is a fork of a clean, single-threaded process (no copy of the
server's threads or sockets) that starts with everything loaded.
"""
from __future__ import annotations

import asyncio
import multiprocessing
from multiprocessing.connection import Connection
from typing import Any, AsyncIterator, Optional

__all__ = ["Channel", "CANCELLED"]

CANCELLED = {"cancelled": True}
"""The last message of a job that a newer job on its channel replaced."""

_END = "end"
_PRELOAD = ["nonogen.studio._preload"]


def _context() -> Any:
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(_PRELOAD)
    return ctx


def _serve(conn: Connection) -> None:  # pragma: no cover - runs in the worker process
    """The worker's loop: one job at a time, each message sent as soon as it is made."""
    from .jobs import run

    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            for message in run(job):
                conn.send(message)
        except Exception as exc:  # a bug in a job: say so in the page, keep serving
            conn.send({"error": f"internal error: {type(exc).__name__}: {exc}"})
        conn.send(_END)


class _Worker:
    def __init__(self, ctx: Any):
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child,), daemon=True, name="nonogen-studio-worker")
        self.process.start()
        child.close()

    def stop(self) -> None:
        self.process.kill()
        self.process.join(5)
        self.conn.close()


class Channel:
    """One kind of engine work: at most one job runs; a new one replaces it."""

    def __init__(self) -> None:
        self._ctx = _context()
        self._worker: Optional[_Worker] = None
        self._busy = False
        self._ticket = 0

    async def run(self, job: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
        """The job's messages; ends with :data:`CANCELLED` when a newer job replaced it."""
        self._ticket += 1
        ticket = self._ticket
        if self._worker is not None and (self._busy or not self._worker.process.is_alive()):
            self._worker.stop()  # the job before this one is still running: its answer is no longer wanted
            self._worker = None
        if self._worker is None:
            try:
                self._worker = await asyncio.to_thread(_Worker, self._ctx)
            except (OSError, EOFError) as exc:  # no process could be started (out of memory, process limit)
                yield {"error": f"the engine could not start: {exc}"}
                return
        if ticket != self._ticket:  # replaced while the worker started
            yield CANCELLED
            return
        worker, self._busy = self._worker, True
        finished = False
        try:
            try:  # a picture can be megabytes: off the event loop, which keeps serving meanwhile
                await asyncio.to_thread(worker.conn.send, job)
            except (OSError, ValueError):  # killed by a newer job while the bytes went over
                yield CANCELLED if ticket != self._ticket else {"error": "the engine stopped unexpectedly"}
                return
            while True:
                try:
                    message = await asyncio.to_thread(worker.conn.recv)
                except (EOFError, OSError):
                    yield CANCELLED if ticket != self._ticket else {"error": "the engine stopped unexpectedly"}
                    return
                if message == _END:
                    finished = True
                    return
                yield message
        finally:
            if ticket == self._ticket:
                self._busy = False
                if not finished and self._worker is worker:  # nobody reads the rest (the page went away)
                    self._worker.stop()
                    self._worker = None

    def close(self) -> None:
        if self._worker is not None:
            self._worker.stop()
            self._worker = None
