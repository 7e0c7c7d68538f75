"""The local pool's forked workers (nonogen/forked.py): what multiprocessing did for the pool, without loading it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from test_startup import SMALL, _imported

REPO = Path(__file__).resolve().parents[1]

BIG_BOTH_WAYS = """
import sys
from nonogen.executors import LocalPool

def echo(data):
    return data[::-1]

tasks = [bytes([k]) * (3 << 20) + b"x" for k in range(5)]
fail = lambda task, message, status: (status, message)
out = list(LocalPool(1, depth=2).run(echo, tasks, fail))
assert sorted(out) == sorted(t[::-1] for t in tasks), [o[:40] for o in out]
print("ok")
"""


def test_big_tasks_and_big_results_at_once_do_not_wait_for_each_other():
    """A 3 MB task sent while the worker sends a 3 MB result: over plain pipes both sides waited for room for ever."""
    done = subprocess.run([sys.executable, "-c", BIG_BOTH_WAYS], capture_output=True, text=True, timeout=90, cwd=REPO)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


STOPPED_AT_ONCE = """
import signal, time
from nonogen.cli.common import stop
from nonogen.forked import Process

signal.signal(signal.SIGTERM, stop)  # the command's handler, as a batch has it when it starts its workers
child = Process(target=time.sleep, args=(60,))  # a target that never sets handlers of its own
child.start()
child.terminate()
child.join()
print(child.exitcode)
"""


def test_a_worker_stopped_before_it_sets_its_handlers_dies_quietly():
    """A batch whose reader went away stops its workers at once; one that had not yet set its own handlers ran the
    command's, raised Terminated and printed a traceback after a clean run (seen once under load in CI)."""
    done = subprocess.run([sys.executable, "-c", STOPPED_AT_ONCE], capture_output=True, text=True, timeout=90, cwd=REPO)
    assert done.stdout.strip() == "-15" and "Traceback" not in done.stderr, done.stderr


@pytest.mark.alone  # forks its workers, or counts the threads
def test_a_worker_that_exits_or_is_killed_costs_its_task_only():
    """The pool hears of a worker's death through its sentinel: the task gets the exit code or the signal in words."""
    from nonogen.executors import LocalPool

    def work(task):
        if task == "exit":
            os._exit(7)
        if task == "kill":
            os.kill(os.getpid(), 9)
        return task * 2

    fail = lambda task, message, status: (task, status, message)  # noqa: E731
    out = list(LocalPool(2).run(work, ["a", "exit", "b", "kill", "c"], fail))
    assert sorted(o for o in out if isinstance(o, str)) == ["aa", "bb", "cc"]
    failed = {o[0]: o[1:] for o in out if isinstance(o, tuple)}
    assert failed == {"exit": ("error", "internal error: worker process exited (code 7)"),
                      "kill": ("error", "internal error: worker process died (SIGKILL)")}


def test_a_batch_with_workers_loads_no_multiprocessing(tmp_path):
    """A batch's puzzles go to a worker process (as several files do, or --jobs); starting it needs no
    multiprocessing, socket, tempfile or pickle module."""
    (tmp_path / "a.non").write_text(SMALL)
    modules = _imported(["-m", "nonogen", "verify", "--json", "--jobs", "1", "a.non"], tmp_path)
    assert "nonogen.forked" in modules
    loaded = {m.split(".")[0] for m in modules} & {"multiprocessing", "socket", "tempfile", "shutil", "pickle"}
    assert not loaded


FORKSERVER_UNDER_LONG_TMPDIR = """
import os, tempfile
from nonogen.processes import worker_context

ctx = worker_context(fork=False)
process = ctx.Process(target=os.getpid)
process.start()
process.join()
from multiprocessing import process as mp
print(process.exitcode, mp.current_process()._config["tempdir"])
"""


def test_workers_start_when_the_temporary_folder_is_a_long_path(tmp_path):
    """The studio's workers come from a forkserver whose socket lives under TMPDIR; under pytest's
    /tmp/pytest-of-root/pytest-100/popen-gw1/test_..._leav0/tmp the path passed the kernel's 108 bytes and no
    worker started ("the engine could not start: AF_UNIX path too long")."""
    long = tmp_path / ("t" * 60) / ("m" * 30)
    long.mkdir(parents=True)
    done = subprocess.run([sys.executable, "-c", FORKSERVER_UNDER_LONG_TMPDIR], capture_output=True, text=True,
                          cwd=REPO, env={**os.environ, "TMPDIR": str(long)}, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    exitcode, folder = done.stdout.split()
    assert exitcode == "0"
    assert not Path(folder).exists()  # removed at exit, as multiprocessing removes its own
