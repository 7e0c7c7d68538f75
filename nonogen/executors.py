"""Where a batch's puzzles are verified: this process, a pool of local processes, or a Dask cluster.

Every executor has one method, ``run(fn, tasks, fail)``: it calls ``fn`` on
each task somewhere and yields the results as they finish. When a task's
worker dies (a crash in a C extension, the out-of-memory killer) or runs far
past its time limit, ``fail(task, message, status)`` makes the result
instead, and the batch goes on. Closing the generator (an interrupt, the
end of the batch) stops every worker it started before it returns.

The local pool is written here rather than taken from ``concurrent.futures``
because a crashed worker there breaks the whole pool without saying which
task killed it, and shutting it down waits for the running tasks.
"""
from __future__ import annotations

import os
import sys
import time
from collections import deque
from itertools import islice

from .errors import InputError
from .processes import worker_context
from .signals import become_worker, signal

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Callable, Iterable, Iterator, Optional, Protocol, overload

    Fn = Callable[[Any], Any]
    Fail = Callable[[Any, str, str], Any]
else:  # at run time nothing checks the protocol: Executor is a plain class to subclass or ignore
    Protocol = object

__all__ = ["Executor", "SerialExecutor", "LocalPool", "DaskExecutor", "make_executor", "hard_limit", "enter_worker",
           "in_worker", "death_message"]


class Executor(Protocol):
    """Runs ``fn`` over ``tasks`` and yields results in completion order."""

    def run(self, fn: Fn, tasks: Iterable[Any], fail: Fail) -> Iterator[Any]: ...


if TYPE_CHECKING:  # pragma: no cover - a limit for a timeout, none for none
    @overload
    def hard_limit(timeout: float) -> float: ...
    @overload
    def hard_limit(timeout: None) -> None: ...


def hard_limit(timeout: Optional[float]) -> Optional[float]:
    """Seconds after which a task that ignores its own deadline is stopped from outside.

    The engine honours its deadline at every stage, so this only catches a
    runaway (a stuck C call); it is generous so that it never decides a
    verdict the engine would have reached.

    >>> hard_limit(60), hard_limit(1), hard_limit(None)
    (130.0, 12.0, None)
    """
    return None if timeout is None else 2 * float(timeout) + 10.0


def make_executor(choice: object = None, *, jobs: int = 1, timeout: Optional[float] = None,
                  scheduler: Optional[str] = None):
    """The executor for ``choice``: ``None`` (this process for one job, else a local pool), ``"serial"``,
    ``"local"``, ``"dask"``, or an object with a ``run`` method, returned as it is."""
    if choice is not None and not isinstance(choice, str):
        return choice
    if choice == "dask" or scheduler:
        return DaskExecutor(scheduler, workers=jobs, limit=hard_limit(timeout))
    if choice == "serial" or (choice is None and jobs <= 1):
        return SerialExecutor()
    if choice in (None, "local"):
        return LocalPool(jobs, limit=hard_limit(timeout))
    raise ValueError(f"unknown executor {choice!r} (known: serial, local, dask)")


class SerialExecutor:
    """Each task in this process, in input order: no start-up cost, but no protection from crashes either."""

    def run(self, fn: Fn, tasks: Iterable[Any], fail: Fail) -> Iterator[Any]:
        for task in tasks:
            yield fn(task)


# --- the local process pool ----------------------------------------------------------------------


def _die_with_parent() -> None:
    """Ask Linux to kill this worker when its parent dies, however it dies (even SIGKILL)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes  # workers only: the batch process never asks

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not glibc
        pass


WORKER_MEMORY_SHARE = 0.5  # of physical memory a worker's address space may take


def _limit_memory() -> None:
    """Cap the worker's address space, so a runaway puzzle fails with MemoryError instead of swapping.

    The engine estimates an encoding's size before building it and refuses one over a share
    of this limit (:func:`nonogen.solve.session.memory_budget`); the cap catches what the
    estimate misses. A stricter limit already set is kept.
    """
    import resource  # workers only, like ctypes above

    try:
        cap = int(WORKER_MEMORY_SHARE * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        if soft == resource.RLIM_INFINITY or soft > cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ValueError, OSError):  # pragma: no cover - no such limit on this system
        pass


_entered = False
"""Whether :func:`enter_worker` ran in this process."""


def in_worker() -> bool:
    """Whether this process is a worker nonogen started: its parent stops it when it crashes or runs past its limit,
    so work that could crash or hang may run here directly (and a daemonic worker may not start children)."""
    return _entered


def enter_worker(parent: Optional[int] = None) -> bool:
    """Make this process a worker: deaf to the terminal's signals, dying with its parent, its memory capped.

    A worker dying of Ctrl-C would become an error record (:func:`~nonogen.signals.become_worker`).
    Every worker nonogen starts (a batch's, the studio's) begins here; one that
    :mod:`nonogen.forked` started is a worker from its first instruction. False when ``parent``
    (the pid that forked this process) died before the death signal was armed: the worker should return.
    """
    global _entered
    _entered = True
    become_worker()
    _die_with_parent()
    _limit_memory()
    return parent is None or os.getppid() == parent


def _worker(conn, fn: Fn, parent: Optional[int]) -> None:
    """A worker's life: take a task, send back its result, until told to stop or the batch goes away."""
    if not enter_worker(parent):
        return
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        ident, task = message
        result: tuple[Any, Any, Optional[str]]
        try:
            result = (ident, fn(task), None)
        except BaseException as exc:  # fn should not raise; if it does, say so instead of dying
            result = (ident, None, f"{type(exc).__name__}: {exc}")
        try:
            conn.send(result)
        except Exception as exc:  # an unpicklable result
            conn.send((ident, None, f"result could not be sent back: {type(exc).__name__}: {exc}"))


class _Slot:
    """One worker process, the tasks sent to it (oldest first) and when its current one started."""

    def __init__(self, ctx, fn: Fn):
        self.conn, child = ctx.Pipe()
        parent = os.getpid() if ctx.get_start_method() == "fork" else None  # else a forkserver is the parent
        self.process = ctx.Process(target=_worker, args=(child, fn, parent), daemon=True)
        self.process.start()
        child.close()
        self.queue: deque = deque()
        self.started = time.monotonic()

    def send(self, ident: int, task: Any) -> None:
        if not self.queue:
            self.started = time.monotonic()
        self.queue.append((ident, task))
        try:
            self.conn.send((ident, task))
        except OSError:  # the worker died since it was last looked at: collecting finds out and hands its tasks on
            pass

    def stop(self, at_once: bool) -> None:
        if not at_once and self.process.is_alive():
            try:
                self.conn.send(None)
            except OSError:
                pass
        else:
            self.process.terminate()
        self.conn.close()


class LocalPool:
    """``jobs`` worker processes on this machine, each given at most ``depth`` tasks at a time.

    A worker that dies takes only its current task with it: that task gets
    an ``error`` result naming the signal, the tasks queued behind it go to
    other workers, and a fresh worker takes its place. A task running past
    ``limit`` seconds is stopped the same way, as a ``timeout``.
    """

    def __init__(self, jobs: int = 2, *, limit: Optional[float] = None, depth: int = 2):
        self.jobs, self.limit, self.depth = max(1, int(jobs)), limit, max(1, depth)

    def run(self, fn: Fn, tasks: Iterable[Any], fail: Fail) -> Iterator[Any]:
        from .forked import wait  # see worker_context: a one-process run never starts a pool

        ctx = worker_context()
        slots: list[_Slot] = []
        source = iter(tasks)
        retry: deque = deque()
        counter, finished = 0, False
        try:
            while True:
                counter, more = self._fill(ctx, fn, slots, source, retry, counter)
                if not more and not retry and not any(s.queue for s in slots):
                    finished = True
                    return
                ready = wait([s.conn for s in slots] + [s.process.sentinel for s in slots], timeout=0.25)
                for slot in list(slots):
                    yield from self._collect(slot, ready, slots, retry, fail)
        finally:
            self._stop(slots, at_once=not finished)

    def _free(self, slots: list) -> object:
        """An idle worker, else room for a new one, else the least busy worker with room, else None."""
        idle = [s for s in slots if not s.queue]
        if idle:
            return idle[0]
        if len(slots) < self.jobs:
            return _NEW
        return min((s for s in slots if len(s.queue) < self.depth), key=lambda s: len(s.queue), default=None)

    def _fill(self, ctx, fn: Fn, slots: list, source: Iterator, retry: deque, counter: int) -> tuple[int, bool]:
        """Give workers work, starting workers (up to ``jobs``) only when a task is waiting; whether tasks may
        remain."""
        while True:
            slot = self._free(slots)
            if slot is None:
                return counter, True
            task = retry.popleft() if retry else next(source, _END)
            if task is _END:
                return counter, False
            if not isinstance(slot, _Slot):  # _NEW: room for one more worker
                slot = _Slot(ctx, fn)
                slots.append(slot)
            counter += 1
            slot.send(counter, task)

    def _collect(self, slot: _Slot, ready: list, slots: list, retry: deque, fail: Fail) -> Iterator[Any]:
        """Results of one worker; its death or a runaway task becomes a ``fail`` result and a fresh worker."""
        try:
            while slot.queue and slot.conn.poll():
                ident, result, error = slot.conn.recv()
                _, task = slot.queue.popleft()
                slot.started = time.monotonic()
                yield result if error is None else fail(task, f"internal error: {error}", "error")
        except (EOFError, OSError):
            pass
        if slot.process.sentinel in ready or not slot.process.is_alive():
            if slot.process.is_alive():
                return
            yield from self._replace(slot, slots, retry, fail, death_message(slot.process.exitcode), "error")
        elif self.limit is not None and slot.queue and time.monotonic() - slot.started > self.limit:
            message = f"no answer within {self.limit:g} s; its worker process was stopped"
            slot.process.kill()
            slot.process.join(1)
            yield from self._replace(slot, slots, retry, fail, message, "timeout")

    @staticmethod
    def _replace(slot: _Slot, slots: list, retry: deque, fail: Fail, message: str, status: str) -> Iterator[Any]:
        """Drop a dead worker: its current task fails, the ones queued behind it go back in line."""
        slots.remove(slot)
        slot.conn.close()
        if slot.queue:
            _, culprit = slot.queue.popleft()
            retry.extend(task for _, task in slot.queue)
            yield fail(culprit, message, status)

    @staticmethod
    def _stop(slots: list, at_once: bool) -> None:
        """Stop every worker: politely at the end of a batch, at once after an interrupt; none survives."""
        for slot in slots:
            slot.stop(at_once)
        deadline = time.monotonic() + (0.5 if at_once else 2.0)
        for slot in slots:
            slot.process.join(max(0.0, deadline - time.monotonic()))
        for slot in slots:
            if slot.process.is_alive():
                slot.process.kill()
                slot.process.join(1)


_END = object()
_NEW = object()


def death_message(exitcode: Optional[int]) -> str:
    """Why a worker died, in words: ``worker process died (SIGSEGV)``."""
    if exitcode is not None and exitcode < 0:
        from signal import Signals  # here: only a dead worker's signal is named (the enum module: 1 ms)

        try:
            name = Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"internal error: worker process died ({name})"
    return f"internal error: worker process exited (code {exitcode})"


# --- Dask --------------------------------------------------------------------------------------------


def _run_chunk(fn: Fn, tasks: list) -> tuple[list, float]:
    """Several tasks in one Dask task (the scheduler's round trip is paid once for all), and the seconds they took."""
    start = time.monotonic()
    results = [fn(task) for task in tasks]
    return results, time.monotonic() - start


class DaskExecutor:
    """Tasks on a Dask cluster: the one at ``scheduler`` (``tcp://host:port``), or a local one of ``workers`` processes.

    The workers need nonogen installed (``pip install nonogen[dask]``).
    Tasks travel in chunks sized to take about ``target`` seconds each
    (measured as the batch goes), so the scheduler's round trip, several
    milliseconds, is not paid per puzzle; ``per_thread`` chunks per worker
    thread are in flight. Results stream back chunk by chunk as they finish.
    A chunk whose worker dies (Dask's ``KilledWorker``) or that runs past
    the limit is split into single tasks and sent again, so that only the
    task at fault gets the ``error`` (or ``timeout``) result.
    """

    def __init__(self, scheduler: Optional[str] = None, *, workers: int = 2, limit: Optional[float] = None,
                 per_thread: int = 4, target: float = 0.25, max_chunk: int = 64):
        self.scheduler, self.workers, self.limit = scheduler, max(1, int(workers)), limit
        self.per_thread, self.target, self.max_chunk = max(1, per_thread), target, max(1, max_chunk)
        self.mean = 0.05  # seconds per task, until measured

    def _connect(self):
        import logging  # a Dask run only, like dask itself

        import dask  # optional (nonogen[dask]): only a Dask run needs it
        from distributed import Client, LocalCluster  # optional, like dask

        if self.scheduler:
            try:
                return Client(self.scheduler, timeout="20s"), None
            except (OSError, ValueError, TypeError) as exc:  # unreachable, refused, or not an address
                raise InputError(f"cannot reach the Dask scheduler at {self.scheduler}: {exc}") from None
        # The local cluster's own logs stay quiet up to CRITICAL: what a run must say comes back per task (its
        # error or timeout). At ERROR, a worker whose heartbeat met the scheduler already closing (a loaded
        # machine, at the end of a run) printed a traceback under the command's output.
        with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
            cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                   dashboard_address=":0", silence_logs=logging.CRITICAL)
            return Client(cluster), cluster

    def _chunk(self) -> int:
        return max(1, min(self.max_chunk, int(self.target / max(self.mean, 1e-4))))

    def run(self, fn: Fn, tasks: Iterable[Any], fail: Fail) -> Iterator[Any]:
        try:
            from distributed import wait as dask_wait  # optional: without it, the InputError below
        except ImportError:
            raise InputError("the Dask executor needs the 'distributed' package: pip install 'nonogen[dask]'") from None
        client, cluster = self._connect()
        running: dict = {}  # future -> [tasks, when it reached the head of the line (None: still queued)]
        retry: deque = deque()  # tasks of failed chunks, sent again one by one
        try:
            threads = max(1, sum(client.nthreads().values()))
            source, more = iter(tasks), True
            while True:
                while len(running) < self.per_thread * threads and (retry or more):
                    batch = [retry.popleft()] if retry else list(islice(source, self._chunk()))
                    if not batch:
                        more = False
                        break
                    running[client.submit(_run_chunk, fn, batch, pure=False)] = [batch, None]
                if not running:
                    return
                try:
                    done, _ = dask_wait(list(running), timeout=0.25, return_when="FIRST_COMPLETED")
                except TimeoutError:  # nothing finished yet: a chance to notice runaways and interrupts
                    done = set()
                for future in done:
                    yield from self._results(future, running.pop(future), retry, fail)
                yield from self._heads(running, threads, retry, fail)
        finally:
            for future in running:
                future.cancel()
            client.close(timeout=5)
            if cluster is not None:
                cluster.close(timeout=5)

    def _results(self, future, entry: list, retry: deque, fail: Fail) -> Iterator[Any]:
        batch = entry[0]
        if future.status == "finished":
            results, seconds = future.result()
            self.mean = 0.7 * self.mean + 0.3 * seconds / len(batch)
            yield from results
        elif len(batch) > 1:
            retry.extend(batch)
        else:
            error = future.exception() if future.status == "error" else future.status
            yield fail(batch[0], f"internal error: {type(error).__name__}: {error}", "error")

    def _heads(self, running: dict, threads: int, retry: deque, fail: Fail) -> Iterator[Any]:
        """Time the chunks at the head of the line, and stop those running past the limit.

        Dask starts tasks roughly in the order they were submitted, so the
        oldest ``threads`` unfinished chunks are the ones running; timing
        from submission would count the wait in the queue as work.
        """
        now = time.monotonic()
        for future, entry in list(running.items())[:threads]:
            entry[1] = entry[1] or now
            if self.limit is not None and now - entry[1] > self.limit * len(entry[0]):
                future.cancel()
                del running[future]
                if len(entry[0]) > 1:
                    retry.extend(entry[0])
                else:
                    yield fail(entry[0][0], f"no answer within {self.limit:g} s; the task was cancelled", "timeout")
