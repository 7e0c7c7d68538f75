"""Signals and the main thread, for the paths every run takes, without the ``signal`` and ``threading`` modules.

``signal`` wraps the C module ``_signal`` only to turn numbers into enums, and importing it loads
``enum``; ``threading`` builds its own bookkeeping. Together with ``re`` (which also loads enum)
they were 5 ms of a 40 ms batch of 36 small colour puzzles. :data:`signal` here is the C module
itself: the same functions and constants, handlers and masks as plain numbers (``SIG_DFL`` is 0),
which every function here and ``signal.signal`` accept back.
"""
from __future__ import annotations

import _thread
import sys

try:  # CPython's C module: the functions of `signal`, without its enums
    import _signal as signal
except ImportError:  # pragma: no cover - other Pythons
    import signal

__all__ = ["signal", "on_main_thread", "alone"]


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
