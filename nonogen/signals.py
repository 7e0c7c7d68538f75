"""Signals and the main thread, for the paths every run takes, without the ``signal`` and ``threading`` modules.

``signal`` wraps the C module ``_signal`` only to turn numbers into enums, and importing it loads
``enum``; ``threading`` builds its own bookkeeping. Together with ``re`` (which also loads enum)
they were 5 ms of a 40 ms batch of 36 small colour puzzles. :data:`signal` here is the C module
itself: the same functions and constants, handlers and masks as plain numbers (``SIG_DFL`` is 0),
which every function here and ``signal.signal`` accept back.
"""
from __future__ import annotations

import _thread
import os
import sys

try:  # CPython's C module: the functions of `signal`, without its enums
    import _signal as signal
except ImportError:  # pragma: no cover - other Pythons
    import signal

__all__ = ["signal", "on_main_thread", "alone", "become_worker", "fork_worker"]


def on_main_thread() -> bool:
    """Whether the calling thread is the main one (the only one that may set signal handlers).

    No thread has been started while ``threading`` is not loaded and ``_thread`` counts none, so
    the caller is the main thread; otherwise ``threading`` answers as it always did.
    """
    if sys.modules.get("threading") is None and _thread._count() == 0:
        return True
    import threading  # here: some thread exists, and only threading tells which one is the main thread

    return threading.current_thread() is threading.main_thread()


def alone() -> bool:
    """Whether no thread but the main one is running (``threading.active_count() == 1``; stricter: it
    also counts threads started with ``_thread`` directly, and one still finishing)."""
    return _thread._count() == 0


_STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def become_worker() -> None:
    """A worker's stop signals: deaf to the terminal's Ctrl-C and hang-up, killed outright by SIGTERM.

    Ctrl-C, and SIGHUP when the terminal closes, reach every process of the terminal's group; the
    process that started the workers alone decides what to do about them. SIGTERM is how it stops
    one at once, and the worker has nothing of its own to save.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def fork_worker() -> int:
    """``os.fork``, the child already a worker (:func:`become_worker`) before any stop signal reaches it.

    A child inherits the command's handlers, which raise :class:`~nonogen.cli.common.Terminated`.
    A batch whose reader went away stops its workers at once; under load one of them had not yet
    set its own handlers, raised, and printed a traceback after a clean run. The stop signals are
    held across the fork, so the child sees them only with a worker's handlers in place.
    """
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        pid = os.fork()
        if pid == 0:
            become_worker()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return pid
