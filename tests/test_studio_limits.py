"""``nonogen studio`` under load it did not survive: idle connections, endless bodies, many uploads, a stop mid-job.

Each test starts a real studio (tests/studio_server.py), with short limits where a limit is what it tests,
and waits for the effect (a closed connection, an answer, an exit), never for a time.
"""
from __future__ import annotations

import os
import re
import resource
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

import nonogen
from nonogen.cli.common import EXIT_TERMINATED
from nonogen.studio import Limits
from studio_server import DOC, WAIT, Studio, alive, photo_png

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
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert answer.endswith(b'{"error":"the request\'s body did not arrive within 2 s"}')
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


def _full_fifo(path: Path) -> int:
    """A FIFO at ``path`` with its buffer filled by the test, which holds the read end: a save into it opens at
    once, then waits in its write, holding its worker, until the test reads (:func:`_drain`)."""
    os.mkfifo(path)
    fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    for size in (4096, 1):
        try:
            while True:
                os.write(fd, b"x" * size)
        except BlockingIOError:
            pass
    return fd


def _drain(fd: int) -> bytes:
    """Everything in the FIFO now (a waiting writer's write goes through once there is room)."""
    data = b""
    try:
        while chunk := os.read(fd, 65536):
            data += chunk
    except BlockingIOError:
        pass
    return data


def _writers(studio: Studio, path: Path) -> int:
    """How many of the studio's processes have ``path`` open (a save writing into it)."""
    count = 0
    for pid in studio.children():
        try:
            links = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
        except OSError:  # gone meanwhile
            continue
        count += links.count(str(path))
    return count


def test_a_check_never_waits_behind_other_tabs_saves(tmp_path):
    """Saves (and test-solve pages) ran in no lane and took every worker: nine saves of one tab, or three tabs'
    saves, kept another tab's check of a 5x5 grid waiting about a minute. A tab's newer save now replaces its older
    one, and saves never take the worker kept for checks. Here a save cannot end until the test reads its FIFO."""
    folder = Path(os.path.realpath(tmp_path))
    server = Studio(folder, Limits(workers=3))
    fifos = {name: _full_fifo(folder / name) for name in ("a1.non", "a2.non", "b.non", "c.non")}
    answers: dict[str, tuple] = {}
    threads: dict[str, threading.Thread] = {}

    def save(tab: str, name: str) -> None:
        def call() -> None:
            answers[name] = server.api("/api/save", {"doc": DOC, "name": name, "format": "non"}, tab=tab)
        threads[name] = threading.Thread(target=call)
        threads[name].start()

    def until(condition, what: str) -> None:
        deadline = time.monotonic() + WAIT
        while not condition():
            assert time.monotonic() < deadline, what
            time.sleep(0.02)

    try:
        save("a", "a1.non")
        until(lambda: _writers(server, folder / "a1.non") == 1, "tab a's first save never started")
        save("a", "a2.non")  # tab a's newer save replaces the one still writing
        threads["a1.non"].join(WAIT)
        assert answers.get("a1.non") == (200, {"cancelled": True})
        until(lambda: _writers(server, folder / "a2.non") == 1 and _writers(server, folder / "a1.non") == 0,
              "tab a's newer save never took the older one's place")
        save("b", "b.non")
        until(lambda: _writers(server, folder / "b.non") == 1, "tab b's save never started")
        save("c", "c.non")  # a third tab's save: it waits, the last worker is the checks'
        assert server.api("/api/check", {"doc": DOC}, tab="edit")[1]["grade"] == 1
        held = {name: _writers(server, folder / name) for name in fifos}
        assert held == {"a1.non": 0, "a2.non": 1, "b.non": 1, "c.non": 0}, held
        for name in ("a2.non", "b.non", "c.non"):  # each read lets its save end, and the one waiting start
            written = _drain(fifos[name])
            threads[name].join(WAIT)
            assert answers[name][0] == 200 and answers[name][1]["saved"] == name, answers
            assert (written + _drain(fifos[name])).endswith(b'goal "1101"\n'), name  # the puzzle, after the filler
    finally:
        for fd in fifos.values():
            os.close(fd)
        for thread in threads.values():
            thread.join(WAIT)
        code, errors = server.stop()
        assert "Traceback" not in errors, errors


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


def test_the_server_never_loads_numpy_or_pillow(tmp_path):
    """worker.py said the engine, numpy and Pillow load in the workers only, but the server checked each document
    by building its puzzle (numpy, and Pillow for the colour names), imported the file work for a table of save
    kinds (the renderers: numpy, Pillow, svgwrite), and unpickled the workers' numpy answers and levels: 270 modules
    of numpy, Pillow, scipy and scikit-image after one check. After a check, a map, a suggestion, a play page, a
    puzzle file, two saves, a picture, its tracing tools, a level and the 3D editor's proof, play page and saves, a
    scanned page, its clues' proof and their save, none of them is mapped in the server's process; the workers have
    numpy mapped (so the look would see it)."""
    import psutil

    for sample in ("puzzles/heart.non", "meshes/chair.off"):
        (tmp_path / Path(sample).name).write_bytes((SAMPLES / sample).read_bytes())
    server = Studio(tmp_path)
    model = (tmp_path / "chair.off").read_bytes()
    try:
        for path, body in (("/api/check", {"doc": DOC}), ("/api/map", {"doc": DOC}), ("/api/play", {"doc": DOC}),
                           ("/api/suggest", {"doc": DOC, "goal": "unique"}), ("/api/open", {"name": "heart.non"}),
                           ("/api/save", {"doc": DOC, "name": "x.non", "format": "non"}),
                           ("/api/save", {"doc": DOC, "name": "x.svg", "format": "svg"})):
            assert server.api(path, body, tab="t")[0] == 200, path
        status, answer = server.api("/api/picture", photo_png(60, 40), {"X-File-Name": "p.png"}, raw=True, tab="t")
        assert status == 200 and answer["grid"], answer
        traced = {"picture_id": answer["picture_id"], "size": [len(answer["grid"]), len(answer["grid"][0])],
                  "box": answer["frame"]}
        for body in ({"op": "picture"}, {"op": "region", "point": [0.5, 0.5], "tolerance": 15},
                     {"op": "threshold", "offset": 8}, {"op": "specks", "doc": DOC, "min_part": 3}):
            assert server.api("/api/trace", {**traced, **body}, tab="t")[0] == 200, body
        status, made = server.api("/api/mesh?options={}", model, {"X-File-Name": "chair.off"}, raw=True, tab="t")
        assert status == 200, made
        level = made["level"]
        for path, body in (("/api/level/check", {"doc": level}), ("/api/level/play", {"doc": level}),
                           ("/api/level/save", {"doc": level, "format": "folder", "name": "chair-level"}),
                           ("/api/level/save", {"doc": level, "format": "picross3d-nathsou", "name": "chair.json"})):
            assert server.api(path, body, tab="t")[0] == 200, path
        nonogen.draw(nonogen.load(tmp_path / "heart.non"), tmp_path / "sheet.png")
        status, read = server.api("/api/scan/open", {"name": "sheet.png"}, tab="t")
        assert status == 200 and read["puzzles"][0]["rows"][1] == [7], read
        clues = {key: read["puzzles"][0][key] for key in ("rows", "cols")}
        for path, body in (("/api/scan/check", {"clues": clues}),
                           ("/api/save", {"clues": clues, "name": "scanned.non", "format": "non"})):
            assert server.api(path, body, tab="t")[0] == 200, path
        heavy = re.compile(r"/(numpy|PIL|pillow|scipy|skimage|scikit_image)(\.libs)?/")

        def mapped(pid: int) -> set[str]:
            return {m.group(1) for m in map(heavy.search, (m.path for m in psutil.Process(pid).memory_maps())) if m}

        assert mapped(server.process.pid) == set()
        assert any("numpy" in mapped(pid) for pid in server.children())
    finally:
        code, errors = server.stop()
        assert "Traceback" not in errors, errors
