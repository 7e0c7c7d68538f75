"""Stress a real ``nonogen studio`` the way a hostile tester did, before and after, and print one table.

Two studios run one after the other on the same machine: this checkout ("after") and the branch point
("before", ``--before REV``, default 7bded76, unpacked with ``git archive`` into a folder under /tmp, with
this checkout's compiled line solver copied in so both run the same C code). Each is measured for:

- a paint stroke: 100 edits at 60 Hz, each a new request that closes the one before (the page aborts it),
  on a 30x30 grid; the time from the last edit to its verdict, against a single edit: the same last grid
  sent alone once the server is idle again (medians of a few strokes; the ratio is the median of each
  stroke's ratio); also under load (four processes spinning on the CPU while the strokes and edits run);
- idle connections: the server started with 1,024 file handles, 1,100 connections that send nothing, then
  one real request: answered or not, how fast, and how many bytes the server wrote to stderr;
- memory: the server's RSS idle, at its peak during 100 concurrent 19.9 MB uploads, and once they finished;
  the uploads' HTTP statuses;
- two tabs: tab A makes a level of chair.off, tab B of snowman.obj, then tab A saves "its" level: which model
  the saved report names.

Usage: .venv/bin/python scripts/stress_studio.py [--before REV] [--strokes N] [--skip-before]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, Callable, Optional

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "stress-token-0123456789"
HEADERS = {"X-Nonogen-Token": TOKEN, "X-Nonogen-Studio": "1"}  # after, before
PALETTE = [{"rgb": "#ffffff"}, {"rgb": "#000000"}]


class Server:
    """One studio from ``source`` (a checkout) serving a fresh folder, optionally with few file handles."""

    def __init__(self, source: Path, files: Optional[int] = None):
        self.folder = Path(tempfile.mkdtemp(prefix="nonogen-stress-"))
        env = {**os.environ, "PYTHONPATH": str(source), "NONOGEN_STUDIO_TOKEN": TOKEN}
        limit = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))) if files else None
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "nonogen", "studio", str(self.folder), "--port", "0", "--no-browser"],
            stdout=subprocess.PIPE, stderr=self.stderr, text=True, env=env, cwd=source, preexec_fn=limit)
        line = self.process.stdout.readline()
        self.url = line.split()[2].partition("?")[0]
        self.port = int(self.url.rsplit(":", 1)[1].strip("/"))
        self.call("api/files")  # up and answering

    def call(self, path: str, body: Any = None, headers: Optional[dict] = None, timeout: float = 300) -> Any:
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, headers={**HEADERS, **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return json.loads(answer.read().decode().splitlines()[-1])
        except urllib.error.HTTPError as exc:
            return json.loads(exc.read() or b"{}")

    def rss(self) -> int:
        with open(f"/proc/{self.process.pid}/status") as status:
            return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS"))

    def stop(self) -> str:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.stderr.seek(0)
        errors = self.stderr.read().decode(errors="replace")
        shutil.rmtree(self.folder, ignore_errors=True)
        return errors


# --- edits ---------------------------------------------------------------------------------------------


def _send(server: Server, grid: list[list[int]]) -> socket.socket:
    body = json.dumps({"doc": {"grid": grid, "palette": PALETTE, "givens": []}}).encode()
    sock = socket.create_connection(("127.0.0.1", server.port))
    head = "".join(f"{k}: {v}\r\n" for k, v in {**HEADERS, "X-Nonogen-Tab": "stress"}.items())
    sock.sendall(b"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 + head.encode() + b"Content-Length: %d\r\n\r\n" % len(body) + body)
    return sock


def _verdict(sock: socket.socket, started: float) -> float:
    """Seconds from ``started`` to the verdict line (or an error) on ``sock``."""
    sock.settimeout(300)
    seen = b""
    while b'"verdict"' not in seen and b'"error"' not in seen:
        data = sock.recv(65536)
        if not data:
            break
        seen += data
    sock.close()
    return time.perf_counter() - started


def _grid(side: int) -> list[list[int]]:
    rnd = random.Random(7)
    return [[int(rnd.random() < 0.5) for _ in range(side)] for _ in range(side)]


def single_edit(server: Server, grid: list[list[int]]) -> float:
    """Seconds to the verdict of ``grid`` sent alone, once the server is idle (the check before has ended)."""
    time.sleep(1.0)
    started = time.perf_counter()
    return _verdict(_send(server, grid), started)


def stroke(server: Server, cells: int = 100, side: int = 30) -> tuple[float, list[list[int]]]:
    """Seconds from the last edit of a 60 Hz stroke to its verdict, and the last grid."""
    grid = _grid(side)
    previous = None
    for i in range(cells):
        grid[(i // side) % side][i % side] ^= 1
        sock = _send(server, grid)
        if previous is not None:
            previous.close()  # the page aborts the older request
        previous = sock
        if i < cells - 1:
            time.sleep(1 / 60)
    return _verdict(previous, time.perf_counter()), grid


class Load:
    """``n`` processes spinning on the CPU (the machine has two cores, and others' work: this is "under load")."""

    def __init__(self, n: int):
        self.n = n

    def __enter__(self) -> "Load":
        self.procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(self.n)]
        return self

    def __exit__(self, *exc: object) -> None:
        for proc in self.procs:
            proc.kill()
            proc.wait()


# --- connections, memory, tabs -------------------------------------------------------------------------


def idle_connections(source: Path, count: int = 1100) -> tuple[str, str]:
    server = Server(source, files=1024)
    idle = []
    try:
        for _ in range(count):
            try:
                idle.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
            except OSError:
                break
        started = time.perf_counter()
        try:
            server.call("api/files", timeout=10)
            answered = f"answered in {1000 * (time.perf_counter() - started):.0f} ms"
        except OSError as exc:
            answered = f"NOT answered ({type(exc).__name__})"
    finally:
        for sock in idle:
            sock.close()
        errors = server.stop()
    return answered, f"{len(errors.encode()):,} B, {errors.count('Traceback')} tracebacks"


def uploads(source: Path, count: int = 100, size: int = 19_900_000) -> dict[str, str]:
    server = Server(source)
    data = b"\x89PNG\r\n\x1a\n" + os.urandom(size)
    codes: list[str] = []
    try:
        idle = server.rss()
        peak = [idle]
        done = threading.Event()

        def watch() -> None:
            while not done.is_set():
                peak.append(server.rss())
                time.sleep(0.05)

        def upload(i: int) -> None:
            try:
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=300)
                head = "".join(f"{k}: {v}\r\n" for k, v in {**HEADERS, "X-Nonogen-Tab": f"t{i}"}.items())
                sock.sendall(b"POST /api/picture HTTP/1.1\r\nHost: 127.0.0.1\r\nX-File-Name: a.png\r\n" + head.encode()
                             + b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(data) + data)
                codes.append(sock.recv(12)[9:12].decode() or "closed")
                sock.close()
            except OSError as exc:
                codes.append(type(exc).__name__)

        watcher = threading.Thread(target=watch)
        watcher.start()
        threads = [threading.Thread(target=upload, args=(i,)) for i in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        time.sleep(3)  # what the server keeps once the uploads are over
        after = server.rss()
        done.set()
        watcher.join()
    finally:
        server.stop()
    statuses = ", ".join(f"{c}: {codes.count(c)}" for c in sorted(set(codes)))
    return {"idle": f"{idle / 1e6:.0f} MB", "peak": f"{max(peak) / 1e6:.0f} MB", "after": f"{after / 1e6:.0f} MB",
            "statuses": statuses}


def two_tabs(source: Path) -> str:
    server = Server(source)
    try:
        for tab, model in (("tab-a", "chair.off"), ("tab-b", "snowman.obj")):
            server.call("api/mesh?options=" + urllib.request.quote('{"size": 5}'),
                        (ROOT / "samples" / "meshes" / model).read_bytes(),
                        {"X-File-Name": model, "X-Nonogen-Tab": tab})
        saved = server.call("api/save", {"level": True, "name": "a-level"}, {"X-Nonogen-Tab": "tab-a"})
        report = json.loads((server.folder / "a-level" / "report.json").read_text()) if "saved" in saved else {}
        model = Path(str(report.get("model", "?"))).name
    finally:
        server.stop()
    return f"tab A saved {model} ({'right' if model == 'chair.off' else 'WRONG'})"


# --- the table -----------------------------------------------------------------------------------------


def strokes_and_singles(server: Server, count: int) -> tuple[list[float], list[float]]:
    lasts, singles = [], []
    for _ in range(count):
        last, grid = stroke(server)
        lasts.append(last)
        singles.append(single_edit(server, grid))
    return lasts, singles


def _ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):.0f} ms (max {1000 * max(values):.0f})"


def measure(source: Path, strokes: int, log: Callable[[str], None]) -> dict[str, str]:
    row: dict[str, str] = {}
    server = Server(source)
    try:
        strokes_and_singles(server, 1)  # warm
        for name, load in (("", 0), ("under load: ", 4)):
            with Load(load):
                lasts, singles = strokes_and_singles(server, strokes)
            ratio = statistics.median(last / one for last, one in zip(lasts, singles, strict=True))
            row[f"{name}single edit (the stroke's last grid): verdict"] = _ms(singles)
            row[f"{name}100-cell stroke: last verdict"] = f"{_ms(lasts)}, {ratio:.1f}x single"
            log(f"  {name or 'idle: '}strokes {[round(1000 * x) for x in lasts]}, singles "
                f"{[round(1000 * x) for x in singles]}")
    finally:
        server.stop()
    answered, errors = idle_connections(source)
    row["1,100 idle connections (1,024 files): a request"] = answered
    row["1,100 idle connections: server's stderr"] = errors
    log("  idle connections done")
    memory = uploads(source)
    row["RSS idle"] = memory["idle"]
    row["RSS peak, 100 concurrent 19.9 MB uploads"] = memory["peak"]
    row["RSS after the uploads"] = memory["after"]
    row["uploads' statuses"] = memory["statuses"]
    log("  uploads done")
    row["two tabs"] = two_tabs(source)
    return row


def unpack(rev: str) -> Path:
    """The checkout ``rev`` in a folder under /tmp (git archive: no worktree is registered), with this
    checkout's compiled line solver."""
    target = Path(tempfile.gettempdir()) / f"nonogen-stress-{rev}"
    if not target.is_dir():
        target.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    for built in (ROOT / "nonogen" / "solve").glob("_linelogic*.so"):
        shutil.copy(built, target / "nonogen" / "solve" / built.name)
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="7bded76", help="the revision to compare with (default 7bded76)")
    parser.add_argument("--strokes", type=int, default=5, help="strokes per measurement (default 5)")
    parser.add_argument("--skip-before", action="store_true", help="measure this checkout only")
    args = parser.parse_args()
    log = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    columns = {}
    if not args.skip_before:
        log(f"before ({args.before})...")
        columns[f"before ({args.before})"] = measure(unpack(args.before), args.strokes, log)
    log("after (this checkout)...")
    columns["after"] = measure(ROOT, args.strokes, log)
    names = list(next(iter(columns.values())))
    width = max(map(len, names))
    widths = [max(len(title), *(len(c[n]) for n in names)) for title, c in columns.items()]
    print(f"{'':{width}} | " + " | ".join(f"{t:{w}}" for t, w in zip(columns, widths, strict=True)))
    print("-" * width + "-+-" + "-+-".join("-" * w for w in widths))
    for name in names:
        print(f"{name:{width}} | "
              + " | ".join(f"{c[name]:{w}}" for c, w in zip(columns.values(), widths, strict=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
