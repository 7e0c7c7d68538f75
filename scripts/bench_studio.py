"""Benchmark the studio's edit -> verdict latency through the real server: 2D grids and the 3D editor's levels.

Each case imports a sample photo at that size through the server, then makes edits the way a
person does (one cell flipped at a time, near the last) and times each ``/api/check`` from the
request to its verdict line, and to its last line (ambiguous cells, grade, replay).

Baseline, in the same run: the engine alone in this process (``Session(puzzle).verify`` on the
same grid, then ambiguity, grade and nothing else), which is the floor the server adds
process hops, JSON and HTTP to. A last case measures a newer edit arriving while a hard grid's
check is still running: the time to the newer verdict includes stopping the busy worker and
starting a fresh one.

The 3D editor's case: a one-cube edit of a level made from a model at 20 (and 40) cubes, each near the
last (a cube of the surface removed, or one added beside it), each sent with the hidden clues the answer to the
edit before chose, as the page sends them. Before: the edited level proved from nothing, in this process, as a
check of a 2D grid is (every clue derived, the level with its hidden clues verified and graded,
:func:`nonogen.solve.verify3d.verify3d`). After: the editor's proof of the same edit in this process
(:func:`nonogen.studio.edit3d.check_level` to its verdict, one session), and through the server from the request
to the verdict line (``/api/level/check``) and to its last line.

With ``--previous REV`` the 3D editor's rows are also measured with that engine's studio (its copy built under
build/engines/), each edit sent to both servers in turn, each server sent the hidden clues its own last answer chose.

Usage: .venv/bin/python scripts/bench_studio.py [--edits N] [--level-edits N] [--model FILE] [--only 2d|3d]
       [--previous REV] [--level-sizes 20,40]
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
from typing import Optional

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _bench import engine_copy  # noqa: E402

from nonogen.solve.grade import rate  # noqa: E402
from nonogen.solve.deadline import Deadline  # noqa: E402
from nonogen.solve.session import Session  # noqa: E402
from nonogen.studio.document import puzzle_of  # noqa: E402

PICTURES = [("photo-portrait.jpg", 20), ("photo-portrait.jpg", 30), ("photo-portrait.jpg", 45),
            ("photo-sailboat.jpg", 20), ("photo-sailboat.jpg", 30), ("photo-sailboat.jpg", 45)]


TOKEN = "bench-token-0123456789"


def start_server(folder: Path, engine: Path = ROOT) -> tuple[subprocess.Popen, str]:
    """A studio serving ``folder`` with the engine in ``engine`` (this checkout, or a previous one's copy)."""
    server = subprocess.Popen([sys.executable, "-m", "nonogen", "studio", str(folder), "--port", "0", "--no-browser"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=engine,
                              env={**os.environ, "NONOGEN_STUDIO_TOKEN": TOKEN, "PYTHONPATH": str(engine)})
    return server, server.stdout.readline().split()[2].partition("?")[0]


def post(url: str, path: str, body, raw: bool = False, headers: Optional[dict] = None) -> list[tuple[float, dict]]:
    """The answer's JSON lines, each with the seconds since the request went out."""
    data = body if raw else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, headers={"X-Nonogen-Token": TOKEN, **(headers or {})})
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


def level_edits(doc: dict, count: int, seed: int):
    """The level's document after each of ``count`` one-cube edits near the last (a surface cube removed, or a cube
    added beside one), each with the hidden clues the answer to the edit before chose, as the page sends them."""
    from nonogen.studio.edit3d import colors_of
    from nonogen.studio.levelwork import cells_text

    rng = np.random.default_rng(seed)
    colors = colors_of(doc)
    at = np.argwhere(colors > 0)[0]
    for k in range(count):
        cubes = np.argwhere(colors > 0)
        near = cubes[np.argsort(np.abs(cubes - at).sum(axis=1))[: 12]]
        at = near[rng.integers(len(near))]
        step = np.eye(3, dtype=int)[rng.integers(3)] * rng.choice([-1, 1])
        beside = at + step
        if k % 2 and all(0 <= v < s for v, s in zip(beside, colors.shape, strict=True)) and not colors[tuple(beside)]:
            colors[tuple(beside)] = colors[tuple(at)]
        else:
            colors[tuple(at)] = 0
        doc = {**doc, "cells": cells_text(colors)}
        doc["hidden"] = yield doc


def level_case(url: str, model: Path, size: int, count: int, previous: Optional[str]) -> list[str]:
    """The rows of the 3D editor's table for one level (see the module's notes): this engine's, and with
    ``previous`` (a server of the previous engine) that one's, each edit sent to both in turn."""
    from nonogen.clues3d import with_clues
    from nonogen.solve.verify3d import verify3d
    from nonogen.studio.edit3d import check_level, level_of
    from nonogen.studio.inputs import checked_level

    made = post(url, f"api/mesh?options={urllib.request.quote(json.dumps({'size': size}))}", model.read_bytes(),
                raw=True, headers={"X-File-Name": model.name})[-1][1]
    doc = made["level"]
    servers = {"nonogen": url, **({"previous": previous} if previous else {})}
    first: dict[str, list[float]] = {who: [] for who in servers}
    last: dict[str, list[float]] = {who: [] for who in servers}
    statuses: dict[str, list] = {who: [] for who in servers}
    incremental, before = [], []
    options = {"hide": None, "line_solvable": False}
    steps = {who: level_edits(doc, count, seed=size) for who in servers}
    edited = {who: next(step) for who, step in steps.items()}
    for _ in range(count):
        verdicts = {}
        for who, where in servers.items():
            lines = post(where, "api/level/check", {"doc": edited[who], "options": options, "session": "bench"})
            first[who].append(lines[0][0])
            last[who].append(lines[-1][0])
            verdicts[who] = lines[0][1]
            statuses[who].append(verdicts[who].get("verdict"))
        checked = checked_level(edited["nonogen"])
        start = time.perf_counter()  # before: the edited level proved from nothing, as a 2D check proves a grid
        full, goal = level_of(checked)
        hidden = {tuple(line) for line in checked["hidden"] or ()}
        verify3d(with_clues(full, lambda line, hidden=hidden: line not in hidden), target=goal, grade=True)
        before.append(time.perf_counter() - start)
        start = time.perf_counter()  # after: the editor's proof, its session warm from the edit before
        next(check_level({"doc": checked, "options": options, "session": "bench"}))
        incremental.append(time.perf_counter() - start)
        try:
            edited = {who: steps[who].send(verdicts[who].get("hidden")) for who in servers}
        except StopIteration:
            break
    shape = "x".join(map(str, doc["size"]))
    rows = []
    for who in servers:
        common = max(set(statuses[who]), key=statuses[who].count)
        alone = f"{ms(before)} | {ms(incremental)}" if who == "nonogen" else f"{'-':>23} | {'-':>23}"
        rows.append(f"{model.stem + ' ' + shape:20} {who:9} {common:8} | {alone} | {ms(first[who])} | "
                    f"{ms(last[who])}")
    return rows


def level_table(url: str, model: Path, count: int, previous: Optional[str], sizes: list[int]) -> None:
    print(f"\none-cube edit of a level: time to the verdict (ms; median, p90, max; {count} edits)")
    print(f"{'level':20} {'engine':9} {'status':8} | {'before: full re-verify':23} | {'after: editor proof':23} | "
          f"{'verdict via server':23} | {'all lines, server':23}")
    print(f"{'':39} |" + " |".join([f" {'median     p90     max':>23}"] * 4))
    for size in sizes:
        for row in level_case(url, model, size, count, previous):
            print(row, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=30, help="edits per 2D case (default 30)")
    parser.add_argument("--level-edits", type=int, default=30, help="one-cube edits per level (default 30)")
    bunny = ROOT.parent / "shared" / "data" / "meshes" / "bunny.ply"
    parser.add_argument("--model", type=Path,
                        default=bunny if bunny.is_file() else ROOT / "samples/meshes/mushroom.ply",
                        help="the model of the 3D editor's levels (default: the shared bunny, else samples' mushroom)")
    parser.add_argument("--only", choices=("2d", "3d"), help="only the 2D grids, or only the 3D editor")
    parser.add_argument("--previous", metavar="REV", help="the 3D editor's rows also with this engine's studio")
    parser.add_argument("--level-sizes", default="20,40", help="the sizes of the 3D editor's levels (default 20,40)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server, url = start_server(Path(folder))
        old = start_server(Path(folder), engine_copy(args.previous)) if args.previous else None
        try:
            if args.only != "2d":
                level_table(url, args.model, args.level_edits, old[1] if old else None,
                            [int(size) for size in args.level_sizes.split(",")])
            if args.only == "3d":
                return 0
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
                print(f"{name[:-4] + f' {size}x{size}':28} {common:9} | {ms(first)} | {ms(last)} | {ms(alone_v)} | "
                      f"{ms(alone_all)}")
            alone, newer = cancel_case(url, 60)
            print(f"\nnewer edit during a hard job (60x60 random grid, edit repair): the hard job alone {alone:.2f} s; "
                  f"the newer edit's verdict {1000 * newer:.0f} ms "
                  "(the spare worker takes it; the busy one is stopped)")
        finally:
            for running in (server, old[0] if old else None):
                if running is not None:
                    running.terminate()
                    running.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
