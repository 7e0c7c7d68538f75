"""nonogen/signals.py answers as the ``threading`` and ``signal`` modules it stands in for on the plain verify path,
and a command ends when told to stop, even when Python dropped the stop's exception."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from types import SimpleNamespace

import pytest

from nonogen.cli import run
from nonogen.cli.common import signals_held
from nonogen.signals import alone, on_main_thread, signal


def test_the_main_thread_is_told_from_the_others():
    answers = []
    worker = threading.Thread(target=lambda: answers.append(on_main_thread()))
    worker.start()
    worker.join()
    assert on_main_thread() and answers == [False]


@pytest.mark.alone  # forks its workers, or counts the threads
def test_a_running_thread_is_counted():
    release = threading.Event()
    worker = threading.Thread(target=release.wait)
    worker.start()
    try:
        assert not alone()
    finally:
        release.set()
        worker.join()
    assert alone() == (threading.active_count() == 1)  # pytest may run threads of its own


def test_without_threading_the_only_thread_is_the_main_one():
    """The answers a plain verify gets, in a process that never imported threading."""
    code = ("import sys; from nonogen.signals import alone, on_main_thread; "
            "print(alone(), on_main_thread(), 'threading' in sys.modules, 'enum' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True", "False", "False"]


def test_a_handler_set_here_is_the_one_signal_reports():
    """Handlers go in and come back as plain numbers and functions, which signal.signal takes back."""
    import signal as with_enums

    def handler(signum, frame):
        pass

    before = signal.signal(signal.SIGUSR1, handler)
    try:
        assert with_enums.getsignal(with_enums.SIGUSR1) is handler
    finally:
        signal.signal(signal.SIGUSR1, before)
    assert with_enums.getsignal(with_enums.SIGUSR1) == before


class _StopsWhenFreed:
    """An object that sends the process ``signum`` while it is freed: the handler's exception is raised in a
    ``__del__``, where Python prints and drops it (as it does in the weakref callback that ends an import)."""

    def __init__(self, signum, reached):
        self.signum, self.reached = signum, reached

    def __del__(self):
        os.kill(os.getpid(), self.signum)
        self.reached.append("after the signal")  # not reached when the handler raised here


def _a_command_whose_stop_is_dropped(signum, reached, then=lambda: 0):
    def command(args):
        _StopsWhenFreed(signum, reached)  # freed at once
        return then()
    return SimpleNamespace(run=command)


@pytest.mark.parametrize("sig,code", [(signal.SIGTERM, 143), (signal.SIGINT, 130), (signal.SIGHUP, 129)])
def test_a_stop_python_dropped_still_ends_the_command(sig, code, monkeypatch, hangup_heard):
    """The suite saw a batch told to stop with SIGTERM verify all its puzzles and exit 1: the exception had been
    raised in an import's weakref callback and dropped. The command's code is now the signal's."""
    reached, dropped = [], []
    monkeypatch.setattr(sys, "unraisablehook", lambda raised: dropped.append(type(raised.exc_value).__name__))
    assert run(_a_command_whose_stop_is_dropped(sig, reached)) == code
    assert reached == [] and dropped == ["KeyboardInterrupt" if sig == signal.SIGINT else "Terminated"]


def test_a_stop_python_dropped_stops_before_the_next_record(monkeypatch):
    """No record is written after a dropped stop: the next :func:`signals_held` raises it again."""
    reached, written = [], []
    monkeypatch.setattr(sys, "unraisablehook", lambda raised: None)

    def write_a_record():
        with signals_held():
            written.append("record")
        return 0

    assert run(_a_command_whose_stop_is_dropped(signal.SIGTERM, reached, write_a_record)) == 143
    assert reached == [] and written == []


def test_a_signal_the_process_ignores_stays_ignored():
    """Under ``nohup`` SIGHUP is ignored from the start: a command no longer ends when the terminal closes."""
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        reached = []
        assert run(_a_command_whose_stop_is_dropped(signal.SIGHUP, reached)) == 0
        assert reached == ["after the signal"]
    finally:
        signal.signal(signal.SIGHUP, before)
