"""Engine work off the server's event loop, in worker processes that a newer question stops at once.

A thread cannot be stopped, and the engine's SAT search holds on until its
deadline; a process can be killed. The :class:`Engine` keeps a few worker
processes (the batch pool's kind: :func:`nonogen.executors.enter_worker`
caps their memory and kills them with the server) and gives each job to an
idle one. Jobs come in *lanes* (one tab's checks, its imports, its levels):
only the newest job of a lane is worth an answer, so a new request answers
the lane's queued job :data:`CANCELLED` without touching any process, and
stops the lane's running one, as soon as it arrives (:meth:`Engine.claim`);
an older request that overtakes it while its body is read is not run.

Every job of a page runs in a lane of its tab and kind (:meth:`.tabs.Tab.lane`),
so a tab holds at most one worker per kind of job, and pressing Save nine
times runs one save, not nine. That alone still lets a few tabs' saves,
levels and suggestions take every worker, and the next edit's check of a 5x5
grid wait a minute for them. So one worker is kept for checks: jobs of any
other kind run on at most ``size - 1`` workers at once, and a check only ever
waits for other checks (one per tab, each stopped by its tab's next edit).
The simplest rule that guarantees it: no priorities, no preemption, no
per-tab counting beyond the lanes.

Stopping is cheap: the worker is asked to stop, and does so at the job's
next message (a check sends its verdict, then the ambiguous cells, then the
grade), staying started for the next job; only a worker that has not
stopped within :data:`STOP_GRACE` seconds is killed and replaced. A spare
worker is kept started, so a new job rarely waits for a process; starting
one happens in a thread. A paint stroke of a hundred edits thus costs no new
process at all, where each edit used to kill one and fork the next.

Every job has a time limit; a worker past it is killed and its job answered
with a one-line error. Workers come from a ``forkserver`` that imported the
engine once (:mod:`._preload`): a fork of a clean, single-threaded process
that starts with everything loaded, not a copy of the server.
"""
from __future__ import annotations

import asyncio
import collections
import queue
import threading
from multiprocessing.connection import Connection
from typing import Any, AsyncIterator, Callable, Hashable, Optional

from ..executors import death_message, enter_worker
from ..processes import worker_context

__all__ = ["Engine", "CANCELLED", "STOP_GRACE"]

Message = dict[str, Any]

CANCELLED: Message = {"cancelled": True}
"""The last message of a job that a newer job of its lane replaced."""

STOP_GRACE = 0.25
"""Seconds a worker asked to stop may take to reach its job's next message before it is killed."""

_END = "end"
_READY = "ready"
_STOP = "stop"
_PRELOAD = ("nonogen.studio._preload",)


def _serve(conn: Connection) -> None:  # pragma: no cover - runs in the worker process
    """The worker's loop: hello, then one job at a time, each message sent as soon as it is made, then :data:`_END`.

    While a job runs, the server sends nothing but :data:`_STOP`: the job is
    closed at its next message. When the server goes away the worker ends quietly.
    """
    if not enter_worker():
        return
    from .jobs import run  # the engine, numpy and Pillow load in the worker only, never in the server

    try:
        conn.send(_READY)
        while True:
            job = conn.recv()
            if job == _STOP:  # for a job that had ended before it came
                continue
            messages = run(job)
            try:
                for message in messages:
                    conn.send(message)
                    if conn.poll():
                        conn.recv()  # a stop
                        break
            except (OSError, EOFError):
                raise
            except Exception as exc:  # a bug in a job: say so in the page, keep serving
                conn.send({"error": f"internal error: {type(exc).__name__}: {exc}"})
            finally:
                messages.close()
            conn.send(_END)
    except (OSError, EOFError):
        return


class _Job:
    """One job: its messages (read by the request that asked), its lane, and the worker it runs on."""

    def __init__(self, job: dict[str, Any], lane: Optional[Hashable], seconds: float):
        self.job, self.lane, self.seconds = job, lane, seconds
        self.messages: asyncio.Queue = asyncio.Queue()
        self.worker: Optional[_Worker] = None
        self.timer: Optional[asyncio.TimerHandle] = None
        self.done = False

    def end(self, last: Optional[Message] = None) -> None:
        """No more messages for the reader: ``last`` (if any), then the end."""
        if self.done:
            return
        self.done = True
        if self.timer is not None:
            self.timer.cancel()
        if last is not None:
            self.messages.put_nowait(last)
        self.messages.put_nowait(_END)


class _Worker:
    """One worker process, with a thread that writes to it in order and one that reads its messages onto the loop."""

    def __init__(self, ctx: Any, engine: "Engine", loop: asyncio.AbstractEventLoop):
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child,), daemon=True, name="nonogen-studio-worker")
        self.process.start()
        child.close()
        self.job: Optional[_Job] = None  # the job it runs (an ended one while it stops)
        self.stopping: Optional[asyncio.TimerHandle] = None  # asked to stop: killed when this fires
        self.ready = False  # said hello: it started, and its first job will not find it broken
        self.lane: Optional[Hashable] = None  # the lane of its last job: a picture read again finds it decoded here
        self.engine, self.loop = engine, loop
        self._outbox: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._read, daemon=True, name="nonogen-studio-reader").start()
        threading.Thread(target=self._write, daemon=True, name="nonogen-studio-writer").start()

    def post(self, message: Any) -> None:
        """Send ``message`` to the worker, after everything posted before it (None: no more, close the pipe)."""
        self._outbox.put(message)

    def _write(self) -> None:
        while (message := self._outbox.get()) is not None:
            try:
                self.conn.send(message)  # a job can be larger than a pipe holds: never on the loop
            except (OSError, EOFError):  # it died: its reader tells
                break
            except Exception as exc:  # noqa: BLE001 - a job that cannot be pickled: the loop ends it
                self._tell(self.engine._unsent, exc)
        self.conn.close()

    def _read(self) -> None:
        """Each message to the loop as it comes; when the pipe ends, the worker is reaped and its death told."""
        while True:
            try:
                message = self.conn.recv()
            except (EOFError, OSError, TypeError, ValueError):
                break
            if not self._tell(self.engine._received, message):
                return
        self.process.join(5)
        self._tell(self.engine._received, _Death(self.process.exitcode))

    def _tell(self, handler: Callable[["_Worker", Any], None], message: Any) -> bool:
        try:
            self.loop.call_soon_threadsafe(handler, self, message)
            return True
        except RuntimeError:  # the loop is closed: the server is gone
            return False

    def kill(self) -> None:
        """Stop the process now (SIGKILL; the reader thread reaps it). Safe in a signal handler."""
        try:
            self.process.kill()
        except (OSError, ValueError, AttributeError):
            pass


class _Death:
    def __init__(self, exitcode: Optional[int]):
        self.exitcode = exitcode


def _in_thread(loop: asyncio.AbstractEventLoop, fn: Callable[[], Any], done: Callable[[Any, Any], Any]) -> None:
    """``fn()`` in a daemon thread, then ``done(result, error)`` on ``loop``.

    Not the loop's executor: a process start waits for the forkserver's
    first import (a second), and the executor's threads are waited for when
    the server stops, which must take well under a second.
    """

    def work() -> None:
        try:
            result, error = fn(), None
        except Exception as exc:  # noqa: BLE001 - told to the loop
            result, error = None, exc
        try:
            loop.call_soon_threadsafe(done, result, error)
        except RuntimeError:  # the loop is closed: the server is gone
            pass

    threading.Thread(target=work, daemon=True, name="nonogen-studio-start").start()


class Engine:
    """Worker processes for the studio's jobs: at most ``size`` of them, ``spare`` kept started while idle.

    A worker asked to stop has ``stop_grace`` seconds to reach its job's next message before it is killed.

    Jobs whose ``kind`` is not in ``reserve_for`` run on at most ``size - 1`` workers (all of them when ``size``
    is 1): the last worker is kept for the kinds that must never wait behind them (the checks).

    :meth:`run` streams a job's messages. A job whose lane gets a newer job
    ends with :data:`CANCELLED`; one that runs past its ``seconds`` ends
    with an error; a job whose reader goes away (the page aborted) is
    stopped. :meth:`kill` stops every worker at once (Ctrl-C);
    :meth:`close` also answers every waiting job.
    """

    def __init__(self, size: int = 3, spare: int = 1, preload: tuple[str, ...] = _PRELOAD,
                 stop_grace: float = STOP_GRACE, reserve_for: tuple[str, ...] = ("check",)):
        self.size, self.spare, self.preload = max(1, size), max(0, min(spare, size - 1)), preload
        self.stop_grace, self.reserve_for = stop_grace, reserve_for
        self._ctx: Any = None
        self._workers: list[_Worker] = []
        self._waiting: collections.deque[_Job] = collections.deque()
        self._lanes: dict[Hashable, _Job] = {}  # the job of each lane, queued or running
        self._claims: dict[Hashable, int] = {}  # the newest claim on each lane
        self._claimed = 0
        self._starting = False
        self._broken = ""  # why the last worker died before it was ready: no spare is started until one is
        self._closed = False
        self._loop: Optional[asyncio.AbstractEventLoop] = None  # set by warm(): kill() reaches it from a signal
        self.started = 0  # workers started so far (the stress script and tests read it)

    def claim(self, lane: Hashable) -> int:
        """Take ``lane`` for a job about to come (call when its request arrives, before reading its body): the
        lane's job so far is dropped at once, and a job of an older claim that comes later is not run."""
        self._claimed += 1
        self._claims[lane] = self._claimed
        older = self._lanes.pop(lane, None)
        if older is not None:
            self._cancel(older, CANCELLED)
        return self._claimed

    async def run(self, job: dict[str, Any], *, lane: Optional[Hashable] = None, claim: Optional[int] = None,
                  seconds: float = 60.0) -> AsyncIterator[Message]:
        """The job's messages as they come, the last one an error or :data:`CANCELLED` when it did not finish.

        A job of a ``lane`` replaces the lane's job so far; with a ``claim`` (see :meth:`claim`) it runs only
        if no newer claim came since, so requests that overtake each other never run an older edit last.
        """
        task = _Job(job, lane, seconds)
        if lane is not None and claim is None:
            claim = self.claim(lane)
        if self._closed:
            task.end({"error": "the studio is stopping"})
        elif lane is not None and self._claims.get(lane) != claim:
            task.end(CANCELLED)
        else:
            if lane is not None:
                self._lanes[lane] = task
            self._waiting.append(task)
            self._dispatch()
        try:
            while True:
                message = await task.messages.get()
                if message is _END:
                    return
                yield message
        finally:
            if not task.done:  # nobody reads the rest (the page went away): its worker is free for others
                self._cancel(task, None)
            if lane is not None and self._lanes.get(lane) is task:
                del self._lanes[lane]
                if self._claims.get(lane) == claim:
                    del self._claims[lane]

    async def one(self, job: dict[str, Any], *, lane: Optional[Hashable] = None, claim: Optional[int] = None,
                  seconds: float = 60.0) -> Message:
        """The last message of a single-answer job (read to its end, so its worker is free again)."""
        last: Message = CANCELLED
        async for message in self.run(job, lane=lane, claim=claim, seconds=seconds):
            last = message
        return last

    def warm(self) -> None:
        """Start the spare workers now, so the first edit does not wait for a process (call on the loop)."""
        self._loop = asyncio.get_running_loop()
        self._dispatch()

    def kill(self) -> None:
        """Kill every worker now and end every job soon (the server is stopping; safe in a signal handler)."""
        self._closed = True
        for worker in list(self._workers):
            worker.kill()
        if self._loop is not None:
            try:
                self._loop.call_soon_threadsafe(self.close)  # requests waiting on a job end at once, not at a timeout
            except RuntimeError:  # the loop is closed already
                pass

    def close(self) -> None:
        """Kill every worker and end every job (on the loop)."""
        self._closed = True
        for worker in list(self._workers):
            worker.kill()
        for task in list(self._waiting):
            task.end({"error": "the studio is stopping"})
        self._waiting.clear()
        for worker in self._workers:
            if worker.job is not None:
                worker.job.end({"error": "the studio is stopping"})
            worker.post(None)
        self._workers.clear()

    # --- on the event loop -------------------------------------------------------------------

    def _cancel(self, task: _Job, last: Optional[Message]) -> None:
        """End ``task``: a queued one just leaves the queue; a running one's worker is asked to stop."""
        if task.worker is None:
            if task in self._waiting:
                self._waiting.remove(task)
        elif task.worker.job is task and task.worker.stopping is None:
            worker = task.worker
            worker.post(_STOP)
            worker.stopping = asyncio.get_running_loop().call_later(self.stop_grace, self._stopped_late, worker)
        task.end(last)
        self._dispatch()

    def _stopped_late(self, worker: _Worker) -> None:
        if worker.stopping is not None:
            self._drop(worker)
            self._dispatch()

    def _drop(self, worker: _Worker) -> None:
        """Kill ``worker`` and forget it (its reader reaps it)."""
        worker.kill()
        if worker in self._workers:
            self._workers.remove(worker)
        if worker.stopping is not None:
            worker.stopping.cancel()
            worker.stopping = None
        worker.job = None

    def _heavy(self, task: _Job) -> bool:
        """Whether ``task`` is of a kind that may not take the worker kept for checks."""
        return task.job.get("kind") not in self.reserve_for

    def _dispatch(self) -> None:
        """Give waiting jobs to idle workers, oldest first, heavy ones only while they hold fewer than ``size - 1``
        workers; start a worker when one is missing (one at a time, in a thread)."""
        if self._closed:
            return
        room = max(1, self.size - 1) - sum(1 for w in self._workers if w.job is not None and self._heavy(w.job))
        runnable = 0  # waiting jobs that a worker more would start now
        for task in list(self._waiting):
            heavy = self._heavy(task)
            if heavy and room <= 0:
                continue
            room -= heavy
            idle = [w for w in self._workers if w.job is None]
            if not idle:
                runnable += 1
                continue
            self._waiting.remove(task)
            self._assign(task, next((w for w in idle if task.lane is not None and w.lane == task.lane), idle[0]))
        soon_idle = sum(1 for w in self._workers if w.job is None or w.stopping is not None)
        wanted = runnable + (0 if self._broken else self.spare) - soon_idle
        if wanted > 0 and len(self._workers) < self.size and not self._starting:
            self._starting = True
            loop = asyncio.get_running_loop()
            _in_thread(loop, lambda: self._start(loop), self._started)

    def _start(self, loop: asyncio.AbstractEventLoop) -> _Worker:  # in a thread: a fork and a forkserver handshake
        if self._ctx is None:
            self._ctx = worker_context(self.preload, fork=False)
        return _Worker(self._ctx, self, loop)

    def _started(self, worker: Optional[_Worker], error: Optional[BaseException]) -> None:
        self._starting = False
        if worker is None:  # no process could be started (out of memory, process limit)
            while self._waiting:
                self._waiting.popleft().end({"error": f"the engine could not start: {error}"})
            return
        self.started += 1
        if self._closed:
            worker.kill()
            return
        self._workers.append(worker)
        self._dispatch()

    def _assign(self, task: _Job, worker: _Worker) -> None:
        task.worker, worker.job, worker.lane = worker, task, task.lane
        task.timer = asyncio.get_running_loop().call_later(task.seconds, self._overrun, task)
        worker.post(task.job)

    def _unsent(self, worker: _Worker, error: BaseException) -> None:
        task = worker.job
        if task is not None and worker in self._workers:
            self._drop(worker)
            task.end({"error": f"internal error: the job could not be sent: {type(error).__name__}: {error}"})
            self._dispatch()

    def _overrun(self, task: _Job) -> None:
        if task.worker is not None and task.worker.job is task:
            self._drop(task.worker)
            task.end({"error": f"no answer within {task.seconds:g} s; the engine's worker was stopped"})
            self._dispatch()

    def _received(self, worker: _Worker, message: Any) -> None:
        """A message from ``worker``'s reader thread, now on the loop."""
        task = worker.job
        if isinstance(message, _Death):
            worker.post(None)
            if worker in self._workers:  # died on its own (a crash, the out-of-memory killer), or the server stops
                self._drop(worker)
                if task is not None:
                    task.end({"error": "the studio is stopping" if self._closed else death_message(message.exitcode)})
                if not worker.ready:  # it could not even start: jobs waiting for it get that, not a restart loop
                    self._broken = f"the engine could not start: {death_message(message.exitcode)}"
                    while self._waiting:
                        self._waiting.popleft().end({"error": self._broken})
            self._dispatch()
        elif message == _READY:
            worker.ready, self._broken = True, ""
        elif task is None or worker not in self._workers:
            return  # a killed worker's last words
        elif message == _END:  # done, or stopped as asked: free for the next job
            if worker.stopping is not None:
                worker.stopping.cancel()
                worker.stopping = None
            worker.job = None
            task.end()
            self._dispatch()
        elif not task.done:
            task.messages.put_nowait(message)
