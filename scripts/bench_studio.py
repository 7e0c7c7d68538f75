"""Benchmark the studio's edit -> verdict latency through the real server, on 20x20, 30x30 and 45x45 grids.

Each case imports a sample photo at that size through the server, then makes edits the way a
person does (one cell flipped at a time, near the last) and times each ``/api/check`` from the
request to its verdict line, and to its last line (ambiguous cells, grade, replay).

Baseline, in the same run: the engine alone in this process (``Session(puzzle).verify`` on the
same grid, then ambiguity, grade and nothing else), which is the floor the server adds
process hops, JSON and HTTP to. A last case measures a newer edit arriving while a hard grid's
check is still running: the time to the newer verdict includes stopping the busy worker and
starting a fresh one.

Usage: .venv/bin/python scripts/bench_studio.py [--edits N]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nonogen.solve.grade import rate  # noqa: E402
from nonogen.solve.deadline import Deadline  # noqa: E402
from nonogen.solve.session import Session  # noqa: E402
from nonogen.studio.document import puzzle_of  # noqa: E402

PICTURES = [("photo-portrait.jpg", 20), ("photo-portrait.jpg", 30), ("photo-portrait.jpg", 45),
            ("photo-sailboat.jpg", 20), ("photo-sailboat.jpg", 30), ("photo-sailboat.jpg", 45)]


TOKEN = "bench-token-0123456789"


def start_server(folder: Path) -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen([sys.executable, "-m", "nonogen", "studio", str(folder), "--port", "0", "--no-browser"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env={**os.environ, "NONOGEN_STUDIO_TOKEN": TOKEN})
    return server, server.stdout.readline().split()[2].partition("?")[0]


def post(url: str, path: str, body, raw: bool = False) -> list[tuple[float, dict]]:
    """The answer's JSON lines, each with the seconds since the request went out."""
    data = body if raw else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, headers={"X-Nonogen-Token": TOKEN})
    start = time.perf_counter()
    lines = []
    with urllib.request.urlopen(request, timeout=300) as answer:
        for line in answer:
            lines.append((time.perf_counter() - start, json.loads(line)))
    return lines


def engine_alone(doc: dict) -> tuple[float, float]:
    """Seconds to the verdict and to verdict + ambiguity + grade, in this process (the baseline)."""
    start = time.perf_counter()
    puzzle, grid = puzzle_of(doc)
    session = Session(puzzle)
    result = session.verify(grid, timeout=30, grade=False)
    verdict = time.perf_counter() - start
    if result.status == "multiple":
        session.ambiguity(grid, timeout=30)
    rate(result, puzzle, deadline=Deadline(30), grid=session.grid)
    return verdict, time.perf_counter() - start


def edits(doc: dict, count: int, seed: int):
    """Documents after each of ``count`` single-cell flips, each near the one before (a person painting)."""
    rng = np.random.default_rng(seed)
    grid = np.array(doc["grid"])
    r, c = rng.integers(0, grid.shape[0]), rng.integers(0, grid.shape[1])
    for _ in range(count):
        r = int(np.clip(r + rng.integers(-2, 3), 0, grid.shape[0] - 1))
        c = int(np.clip(c + rng.integers(-2, 3), 0, grid.shape[1] - 1))
        grid[r, c] = 0 if grid[r, c] else 1
        yield {**doc, "grid": grid.tolist()}


def ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):7.1f} {1000 * np.percentile(values, 90):7.1f} {1000 * max(values):7.1f}"


def cancel_case(url: str, size: int) -> tuple[float, float]:
    """(seconds the hard grid's check took alone, seconds to a newer edit's verdict sent while it runs)."""
    rng = np.random.default_rng(3)
    hard = {"grid": rng.integers(0, 2, (size, size)).tolist(), "palette": [{"rgb": "#ffffff"}, {"rgb": "#000000"}],
            "givens": []}
    alone = post(url, "api/suggest", {"doc": hard, "goal": "edit"})[-1][0]
    thread = threading.Thread(target=post, args=(url, "api/suggest", {"doc": hard, "goal": "edit"}))
    thread.start()
    time.sleep(min(0.5, alone / 2))  # the hard job is running (a benchmark may wait for time; tests never do)
    small = {**hard, "grid": [[1, 0], [0, 1]], "givens": [[0, 0]]}
    newer = post(url, "api/check", {"doc": small})[0][0]
    thread.join()
    return alone, newer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=30, help="edits per case (default 30)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server, url = start_server(Path(folder))
        try:
            print(f"{'case':28} {'status':9} | {'verdict via server ms':23} | {'all lines via server':23} | "
                  f"{'engine alone: verdict':23} | {'engine alone: all':23}")
            print(f"{'':28} {'':9} | {'median     p90     max':>23} | {'median     p90     max':>23} | "
                  f"{'median     p90     max':>23} | {'median     p90     max':>23}")
            for name, size in PICTURES:
                data = (ROOT / "samples" / "images" / name).read_bytes()
                options = json.dumps({"width": size, "height": size, "mode": "bw"})
                doc = post(url, "api/picture?options=" + urllib.request.quote(options), data, raw=True)[-1][1]
                doc = {"grid": doc["grid"], "palette": doc["palette"], "givens": []}
                first, last, alone_v, alone_all, statuses = [], [], [], [], []
                for edited in edits(doc, args.edits, seed=size):
                    lines = post(url, "api/check", {"doc": edited})
                    first.append(lines[0][0])
                    last.append(lines[-1][0])
                    statuses.append(lines[0][1].get("verdict"))
                    v, a = engine_alone(edited)
                    alone_v.append(v)
                    alone_all.append(a)
                common = max(set(statuses), key=statuses.count)
                print(f"{name[:-4] + f' {size}x{size}':28} {common:9} | {ms(first)} | {ms(last)} | {ms(alone_v)} | {ms(alone_all)}")
            alone, newer = cancel_case(url, 60)
            print(f"\nnewer edit during a hard job (60x60 random grid, edit repair): the hard job alone {alone:.2f} s; "
                  f"the newer edit's verdict {1000 * newer:.0f} ms (the spare worker takes it; the busy one is stopped)")
        finally:
            server.terminate()
            server.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
