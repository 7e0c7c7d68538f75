"""nonogen/signals.py answers as the ``threading`` and ``signal`` modules it stands in for on the plain verify path."""
from __future__ import annotations

import subprocess
import sys
import threading

from nonogen.signals import alone, on_main_thread, signal


def test_the_main_thread_is_told_from_the_others():
    answers = []
    worker = threading.Thread(target=lambda: answers.append(on_main_thread()))
    worker.start()
    worker.join()
    assert on_main_thread() and answers == [False]


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
