"""Benchmark: whether making a Picross 3D level from a model costs in proportion to its cubes, beside a previous engine.

For every model and size (20, 30 and 40 cubes on the longest axis), a fresh process makes the level as
`nonogen mesh --size N` does (`from_mesh`, hiding as many clues as stay unique) and reports the CPU seconds of
the whole making, of hiding its clues alone (the hiding run again until 0.3 s are spent, the least kept: at 20
cubes one hiding takes milliseconds), and a digest of the clues left shown. Both engines must show the same
clues. "per cube x" is the hiding's CPU a cube at 40 over that at 20: 1.0 is a cost in proportion to the cubes,
2.0 a cost growing as the square of the side more than the cubes do.

Models: the shared meshes (../shared/data/meshes: scans, a CAD part, a knot, a torus, a ball, a calibration cube),
the repository's own samples/meshes (made by make_sample_meshes.py), ../models-r1/models when present, and any
given with --models. A model the importer refuses at a size (too many samples, a full box) says so in its cell.

Usage: .venv/bin/python scripts/bench_scale3d.py [--previous REV|none] [--sizes 20,30,40] [--models PATH ...]
       [--only NAME,...]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import subprocess
import sys
import time
from pathlib import Path

from _bench import ROOT, SHARED, engine_copy, engine_on_path

engine_on_path()  # this checkout, or a previous engine's copy (--engine DIR): before nonogen is imported

PREVIOUS = "38e7557"  # before hiding's retraction was bounded by what the hidden clue touched (issue 50)
SHARED_MODELS = ("bunny.ply", "featuretype.STL", "torus.STL", "quadknot.obj", "teapot.stl", "monkey.glb", "ballA.off",
                 "20mm-xyz-cube.stl")
REPEAT_SECONDS = 0.3


def default_models() -> list[Path]:
    """The models measured when none are named: shared, samples, and the models-r1 set when it is beside us."""
    found = [SHARED / "meshes" / name for name in SHARED_MODELS]
    found += sorted((ROOT / "samples" / "meshes").glob("*.*"))
    found += sorted(p for p in (ROOT.parent / "models-r1" / "models").glob("*.*") if p.suffix in (".obj", ".glb"))
    return [p for p in found if p.is_file()]


def measure(model: str, size: int) -> dict:
    """One level made with the engine this process imported: CPU of the making, of the hiding, the shown clues."""
    import trimesh  # noqa: F401  (loaded before the clock starts)

    from nonogen.clues3d import all_lines, clue_at
    from nonogen.errors import NonogenError
    from nonogen.make import level3d

    calls: list[tuple] = []
    hide = level3d.hide_clues

    def spy(puzzle, **kwargs):
        calls.append((puzzle, {k: v for k, v in kwargs.items() if k not in ("lines", "on_progress", "timeout")}))
        return hide(puzzle, **kwargs)

    level3d.hide_clues = spy
    cpu = time.process_time()
    try:
        made = level3d.from_mesh(model, size=size, timeout=1800)
    except NonogenError as exc:
        return {"error": str(exc).split(": ")[-1][:60]}
    seconds = time.process_time() - cpu
    level3d.hide_clues = hide
    hiding = min_cpu(lambda: hide(calls[0][0], timeout=1800, **calls[0][1])) if calls else 0.0
    shown = json.dumps([[list(ln), clue_at(made.puzzle, ln)] for ln in all_lines(made.puzzle.size)])
    return {"seconds": seconds, "hiding": hiding, "box": list(made.puzzle.size),
            "hidden": made.report["clues_hidden"], "status": made.report["status"],
            "clues": hashlib.sha1(shown.encode()).hexdigest()[:12]}


def min_cpu(work) -> float:
    """The least CPU seconds of ``work()`` over repeats until :data:`REPEAT_SECONDS` are spent (at least one)."""
    best, spent = float("inf"), 0.0
    while spent < REPEAT_SECONDS:
        start = time.process_time()
        work()
        took = time.process_time() - start
        best, spent = min(best, took), spent + took
    return best


def run_engine(engine: Path, model: Path, size: int) -> dict:
    command = [sys.executable, __file__, "--measure", str(model), str(size), "--engine", str(engine)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1][:60] if done.stderr.strip() else "failed"}
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--previous", default=PREVIOUS, metavar="REV", help="the engine to compare with, or none")
    parser.add_argument("--sizes", default="20,30,40")
    parser.add_argument("--models", nargs="*", type=Path, default=[], help="more models to measure")
    parser.add_argument("--only", help="measure only these models (names, comma-separated)")
    parser.add_argument("--engine", help=argparse.SUPPRESS)
    parser.add_argument("--measure", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure[0], int(args.measure[1]))))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    models = default_models() + args.models
    if args.only:
        models = [m for m in models if m.name in args.only.split(",")]
    engines = {"nonogen": ROOT}
    if args.previous != "none":
        engines["previous"] = engine_copy(args.previous)
        print(f"previous engine: {args.previous} (built in {engines['previous'].relative_to(ROOT)})")
    print(f"{'model':<22} {'engine':<9} " + " ".join(f"{'at ' + str(s) + ' (box)':>24}" for s in sizes)
          + f" {'per cube x':>10} {'whole at ' + str(sizes[-1]):>12}   hiding CPU s (whole making)", flush=True)
    worst: dict[str, tuple[float, str]] = {}
    for model in models:
        rows = {who: [run_engine(path, model, s) for s in sizes] for who, path in engines.items()}
        for who, row in rows.items():
            growth = _growth(row)
            if growth is not None and growth > worst.get(who, (0.0, ""))[0]:
                worst[who] = (growth, model.name)
            print(f"{model.name:<22} {who:<9} " + " ".join(f"{_cell(r):>24}" for r in row)
                  + f" {'-' if growth is None else f'{growth:.2f}':>10} "
                  + f"{_whole(row[-1]):>12}", flush=True)
        if "previous" in rows:
            same = all(a.get("clues") == b.get("clues") for a, b in zip(rows["nonogen"], rows["previous"], strict=True))
            print(f"{'':<22} {'':<9} {'the same clues shown' if same else 'DIFFERENT clues shown'}", flush=True)
    for who, (growth, name) in worst.items():
        print(f"{who}: the hiding's CPU a cube grows at most {growth:.2f}x from {sizes[0]} to {sizes[-1]} ({name})")


def _cell(r: dict) -> str:
    if "error" in r:
        return r["error"][:24]
    return f"{r['hiding']:.3f} ({r['seconds']:.2f}) {'x'.join(map(str, r['box']))}"


def _whole(r: dict) -> str:
    return "-" if "error" in r else f"{r['seconds']:.2f}"


def _growth(row: list[dict]) -> float | None:
    """The hiding's CPU a cube at the last size over that at the first (None: a size is missing or too quick)."""
    first, last = row[0], row[-1]
    if "error" in first or "error" in last or first["hiding"] < 0.002:
        return None
    cubes = [math.prod(r["box"]) for r in (first, last)]
    return (last["hiding"] / cubes[1]) / (first["hiding"] / cubes[0])


if __name__ == "__main__":
    main()
