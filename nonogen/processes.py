"""How worker processes start: forked, from a forkserver, or spawned; and the forkserver's socket kept short.

Its own module because two places start workers this way: the local pool (:mod:`nonogen.executors`) and the
studio's engine (:mod:`nonogen.studio.worker`). The pool imports this module at its top, but what starts workers
is imported only when one is wanted: multiprocessing only when a forkserver or spawn is chosen.
"""
from __future__ import annotations

import os

from .errors import InputError
from .signals import alone

__all__ = ["worker_context"]


def worker_context(preload: tuple[str, ...] = ("nonogen.batch",), fork: bool = True):
    """How workers start: forked (:mod:`nonogen.forked`, no multiprocessing) when allowed and this process has
    one thread (fast, and safe then), else a ``forkserver`` that imported ``preload`` once (every worker forked
    from it starts warm), else ``spawn``."""
    if fork and hasattr(os, "fork") and alone():
        from .forked import FORK  # here, not at the top: a one-process run never starts a worker

        return FORK
    import multiprocessing  # here: only a process with threads (the studio) or without fork needs it

    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        _short_socket_folder()
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(list(preload))
        return ctx
    return multiprocessing.get_context("spawn")


SOCKET_PATH = 107  # bytes a Unix socket's path may hold on Linux (108 with its terminating zero)
SOCKET_NAME = 32  # what multiprocessing adds to its folder's parent: "/pymp-xxxxxxxx/listener-xxxxxxxx"


def _short_socket_folder() -> None:
    """Give multiprocessing a folder whose forkserver socket path fits the kernel's limit.

    The forkserver listens on a Unix socket in a folder it makes under TMPDIR. A long TMPDIR (a test's
    ``tmp_path``, a deep home folder) makes that path longer than a socket's path may be, and then no worker
    starts at all ("AF_UNIX path too long"). Then the folder is made under the system's own short one instead, the
    way multiprocessing makes its own, and removed the same way at exit.
    """
    import tempfile
    from multiprocessing import process, util

    config = process.current_process()._config  # type: ignore[attr-defined]  # where multiprocessing keeps its folder
    if config.get("tempdir") is not None or len(tempfile.gettempdir()) + SOCKET_NAME <= SOCKET_PATH:
        return
    base = next((b for b in ("/tmp", "/var/tmp", "/dev/shm") if os.access(b, os.W_OK | os.X_OK)), None)
    if base is None:
        raise InputError(f"the temporary folder {tempfile.gettempdir()} is too long a path for a worker's socket "
                         f"(at most {SOCKET_PATH - SOCKET_NAME} characters)")
    import shutil

    folder = tempfile.mkdtemp(prefix="pymp-", dir=base)
    util.Finalize(None, shutil.rmtree, args=(folder, True), exitpriority=-100)
    config["tempdir"] = folder
