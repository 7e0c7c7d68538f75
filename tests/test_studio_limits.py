"""``nonogen studio`` under load it did not survive: idle connections, endless bodies, many uploads, a stop mid-job.

Each test starts a real studio (tests/studio_server.py), with short limits where a limit is what it tests,
and waits for the effect (a closed connection, an answer, an exit), never for a time.
"""
from __future__ import annotations

import resource
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

from nonogen.cli.common import EXIT_TERMINATED
from nonogen.studio import Limits
from studio_server import DOC, WAIT, Studio, alive

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def _request(studio: Studio, head: bytes, body: bytes = b"") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", studio.port), timeout=WAIT)
    sock.sendall(head.replace(b"TOKEN", studio.token.encode()) + body)
    return sock


def _answer(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    sock.close()
    return data


@pytest.fixture
def limited(tmp_path) -> Iterator[Studio]:
    server = Studio(tmp_path, Limits(body_seconds=2, header_seconds=2, connections=20, upload_bytes=200_000))
    try:
        yield server
    finally:
        code, errors = server.stop()
        assert "Traceback" not in errors and len(errors) < 2000, errors


def test_a_stalled_or_endless_body_ends_with_one_line_and_a_closed_connection(limited):
    """An upload body that never ended was read for ever; one that stalled held its connection for ever."""
    stalled = _request(limited, b"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Nonogen-Token: TOKEN\r\n"
                                b"Content-Length: 1000\r\n\r\n", b'{"doc": ')
    answer = _answer(stalled)
    assert answer.startswith(b"HTTP/1.1 408 ") and answer.endswith(b'{"error":"the request\'s body did not arrive within 2 s"}')
    endless = _request(limited, b"POST /api/picture HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Nonogen-Token: TOKEN\r\n"
                                b"X-File-Name: p.png\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b"10000\r\n" + bytes(65536) + b"\r\n"
    try:
        while True:  # as fast as the server reads, until it answers and closes
            endless.sendall(chunk)
    except (BrokenPipeError, ConnectionResetError):
        pass
    answer = _answer(endless) if endless.fileno() >= 0 else b""
    assert answer == b"" or b"413" in answer.split(b"\r\n")[0]
    assert limited.api("/api/check", b"[" * 3_000_000, raw=True)[0] == 413  # JSON has its own, smaller limit
    assert limited.api("/api/check", {"doc": DOC})[0] == 200


def test_idle_connections_are_closed_and_never_lock_others_out(tmp_path):
    """About 1,100 idle connections (no bytes sent) with 1,024 file handles made the studio unreachable and wrote
    tens of thousands of tracebacks; uvicorn only times out a connection between requests."""
    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    server = Studio(tmp_path, Limits(header_seconds=2, connections=20), preexec=few_files)
    try:
        idle = [socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) for _ in range(300)]
        status, answer = server.api("/api/files")  # more idle connections than file handles allow: still served
        assert status == 200 and answer["files"] == []
        for sock in idle:  # every idle one is closed by the server: made room for, or out of time
            assert sock.recv(1) == b""
            sock.close()
        trickle = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
        trickle.sendall(b"GET /api/files HTTP/1.1\r\n")  # headers that never end are out of time too
        assert trickle.recv(1) == b""
    finally:
        code, errors = server.stop()
    assert code == EXIT_TERMINATED and "Traceback" not in errors and len(errors) < 2000, errors


def test_concurrent_uploads_are_bounded_and_memory_comes_back(tmp_path):
    """100 concurrent 19.9 MB uploads took the server to 2 GB, it kept 1.9 GB, and some ended in a 500."""
    import psutil

    server = Studio(tmp_path, Limits())
    try:
        rss = lambda: psutil.Process(server.process.pid).memory_info().rss  # noqa: E731
        assert server.api("/api/files")[0] == 200
        idle = rss()
        data = b"\x89PNG\r\n\x1a\n" + np.random.default_rng(0).integers(0, 256, 10_000_000, dtype=np.uint8).tobytes()
        head = (b"POST /api/picture HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Nonogen-Token: TOKEN\r\nX-File-Name: a.png\r\n"
                b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(data))
        codes: list[bytes] = []
        peak = [idle]

        def upload(i: int) -> None:
            sock = _request(server, head.replace(b"a.png", b"a%d.png" % i), data)
            codes.append(_answer(sock)[9:12])
            peak.append(rss())

        threads = [threading.Thread(target=upload, args=(i,)) for i in range(40)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT * 4)
        # each is read, refused as no picture (422), replaced by a newer one of its tab (200, cancelled) or told
        # to come back (503); none is a 500
        assert len(codes) == 40 and set(codes) <= {b"200", b"422", b"503"} and b"422" in codes, codes
        after = rss()
        assert max(peak) - idle < 200e6 and after - idle < 100e6, (idle, max(peak), after)
    finally:
        server.stop()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_the_server_and_its_workers_while_a_job_runs(tmp_path, sig):
    """SIGTERM waited for a busy worker (and a FIFO read held the event loop for good): the server must stop now,
    and no worker may outlive it."""
    import psutil

    server = Studio(tmp_path, Limits(workers=1))
    rng = np.random.default_rng(1)
    hard = {"grid": rng.integers(0, 2, (60, 60)).tolist(), "palette": DOC["palette"], "givens": []}
    answers: list = []

    def ask() -> None:
        try:
            answers.append(server.api("/api/suggest", {"doc": hard, "goal": "edit"})[0])
        except OSError:  # the connection closed as the server stopped: an answer too
            answers.append("closed")

    thread = threading.Thread(target=ask)
    thread.start()
    deadline = time.monotonic() + WAIT

    def busy_worker() -> bool:
        """A worker (a child of the forkserver, not of the server) has been computing for half a second."""
        for pid in server.children():
            try:
                process = psutil.Process(pid)
                if process.ppid() != server.process.pid and sum(process.cpu_times()[:2]) > 0.5:
                    return True
            except psutil.NoSuchProcess:
                pass
        return False

    while not busy_worker():
        assert time.monotonic() < deadline, "no worker got busy"
        time.sleep(0.05)
    children = server.children()
    started = time.monotonic()
    code, errors = server.stop(sig)
    stopped = time.monotonic() - started
    thread.join(WAIT)
    assert code == (EXIT_TERMINATED if sig == signal.SIGTERM else 130) and "Traceback" not in errors, errors
    assert stopped < 10, stopped  # the job alone would run for its whole 30 s budget
    assert answers and answers[0] in (422, "closed")
    while alive(children):  # the worker died with the server; the forkserver follows as it sees the server gone
        assert time.monotonic() < started + WAIT, alive(children)
        time.sleep(0.05)
