"""Worker processes made with ``os.fork`` and two pipes: the local pool's workers whenever forking is safe.

Importing multiprocessing cost a batch 20 ms of CPU (it loads socket, pickle, tempfile and shutil,
and registers an exit handler), a third of verifying 39 colour puzzles; a batch's worker needs a
fork, two pipes and the C pickler. :data:`FORK` offers :class:`nonogen.executors.LocalPool` the
parts of multiprocessing's fork context it uses, behaving as they do: ``Pipe()`` gives two ends
with ``send``, ``recv``, ``poll``, ``fileno`` and ``close``; ``Process`` has ``start``,
``sentinel``, ``is_alive``, ``exitcode``, ``join``, ``terminate`` and ``kill``; :func:`wait` is
``multiprocessing.connection.wait`` for both kinds.
"""
from __future__ import annotations

import os
import select
import sys

try:  # the C pickler alone: the pickle module loads re and struct for its Python twin
    from _pickle import dumps, loads
except ImportError:  # pragma: no cover - Pythons without it
    from pickle import dumps, loads

from .signals import fork_worker, signal

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Callable, Optional

__all__ = ["FORK", "Process", "End", "wait"]

_HEADER = 8  # bytes of the length before each pickle
_CHUNK = 1 << 20


class End:
    """One end of a two-way channel between the batch and a worker: pickles, each after its length.

    A worker's end (``drains``) keeps reading what the batch sends while its own answer waits for
    room in the pipe, so a big task sent while a big result is on its way cannot leave both sides
    waiting for each other.
    """

    def __init__(self, read_fd: int, write_fd: int, drains: bool = False):
        self._read_fd, self._write_fd, self._drains = read_fd, write_fd, drains
        self._inbox = bytearray()
        self._ended = False  # the other side closed its end: nothing more to read

    def fileno(self) -> int:
        return self._read_fd

    def send(self, value: Any) -> None:
        data = dumps(value)
        message = memoryview(len(data).to_bytes(_HEADER, "little") + data)
        if not self._drains:
            while message:
                message = message[os.write(self._write_fd, message[:_CHUNK]):]
            return
        os.set_blocking(self._write_fd, False)
        while message:
            try:
                message = message[os.write(self._write_fd, message[:_CHUNK]):]
                continue
            except BlockingIOError:
                pass
            poller = select.poll()
            poller.register(self._write_fd, select.POLLOUT)
            if not self._ended:
                poller.register(self._read_fd, select.POLLIN)
            for fd, _ in poller.poll():
                if fd == self._read_fd:
                    self._take_in()

    def _take_in(self) -> None:
        chunk = os.read(self._read_fd, _CHUNK)
        self._inbox += chunk
        self._ended = not chunk

    def recv(self) -> Any:
        size = int.from_bytes(self._read(_HEADER), "little")
        return loads(self._read(size))

    def _read(self, size: int) -> bytes:
        while len(self._inbox) < size:
            if self._ended:
                raise EOFError
            self._take_in()
        taken = bytes(self._inbox[:size])
        del self._inbox[:size]
        return taken

    def poll(self, timeout: float = 0.0) -> bool:
        """Whether :meth:`recv` has something to read (or would find the other end gone) within ``timeout`` seconds."""
        return bool(self._inbox) or self._ended or bool(wait([self._read_fd], timeout))

    def close(self) -> None:
        for fd in (self._read_fd, self._write_fd):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._read_fd = self._write_fd = -1


def Pipe() -> tuple[End, End]:  # noqa: N802 - multiprocessing's name for it
    """The batch's end and the worker's end of a new channel."""
    to_worker, from_worker = os.pipe(), os.pipe()
    return End(from_worker[0], to_worker[1]), End(to_worker[0], from_worker[1], drains=True)


def wait(objects: list, timeout: Optional[float] = None) -> list:
    """Those of ``objects`` (ends, or file descriptors such as sentinels) ready to read within ``timeout`` seconds."""
    poller = select.poll()
    found: dict[int, list] = {}
    for each in objects:
        fd = each if isinstance(each, int) else each.fileno()
        found.setdefault(fd, []).append(each)
        poller.register(fd, select.POLLIN)
    ready = poller.poll(None if timeout is None else max(0, int(timeout * 1000)))
    return [each for fd, _ in ready for each in found[fd]]


class Process:
    """A child that runs ``target(*args)`` and leaves with ``os._exit``, as multiprocessing's forked children do.

    ``sentinel`` is the read end of a pipe that only the child holds open: it becomes readable
    when the child is gone, however it went. The child has a worker's signal handlers from its
    first instruction (:func:`~nonogen.signals.fork_worker`). (``daemon`` is accepted for
    multiprocessing's sake: the pool stops its workers itself.)
    """

    def __init__(self, target: Callable, args: tuple = (), daemon: bool = True):
        self._target, self._args = target, args
        self.pid: Optional[int] = None
        self.sentinel = -1
        self.exitcode: Optional[int] = None

    def start(self) -> None:
        for stream in (sys.stdout, sys.stderr):  # else the child would print what the parent had not yet
            if stream is not None:
                stream.flush()
        sentinel, held = os.pipe()
        pid = fork_worker()
        if pid == 0:
            os.close(sentinel)
            self._run()
        os.close(held)
        self.pid, self.sentinel = pid, sentinel

    def _run(self) -> None:
        code = 1
        try:
            self._target(*self._args)
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
        except BaseException:
            import traceback  # here: only a failing worker prints one

            traceback.print_exc()
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code)

    def _reap(self, flags: int) -> Optional[int]:
        if self.exitcode is None and self.pid is not None:
            try:
                pid, status = os.waitpid(self.pid, flags)
            except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored): gone, how is not known
                self.exitcode = 255
            else:
                if pid:
                    self.exitcode = os.waitstatus_to_exitcode(status)
        return self.exitcode

    def is_alive(self) -> bool:
        return self.pid is not None and self._reap(os.WNOHANG) is None

    def join(self, timeout: Optional[float] = None) -> None:
        if self.is_alive() and wait([self.sentinel], timeout):
            self._reap(0)

    def _signal(self, signum: int) -> None:
        if self.pid is not None and self.is_alive():
            try:
                os.kill(self.pid, signum)
            except ProcessLookupError:
                pass

    def terminate(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    def __del__(self) -> None:
        if self.sentinel >= 0:
            os.close(self.sentinel)
            self.sentinel = -1


class _ForkContext:
    """What :class:`nonogen.executors.LocalPool` asks of a multiprocessing context, for forked workers."""

    Process = Process

    @staticmethod
    def Pipe() -> tuple[End, End]:  # noqa: N802 - multiprocessing's name for it
        return Pipe()

    @staticmethod
    def get_start_method() -> str:
        return "fork"


FORK = _ForkContext()
"""The context of forked workers without multiprocessing."""
