"""Benchmark: what `nonogen mesh MODEL` costs with its default size, against the previous default in the same run.

The default size went from 10 to 20 cubes so that the solved level can be named (samples/readability/models-r1:
at 16 a fire truck and a locomotive were boxes). This times the whole making (read, voxelize with colours, turn,
prove, hide as many clues as stay unique: `nonogen.from_mesh` with its defaults), in a fresh process per row
(CPU seconds of the making; importing nonogen and trimesh is before the clock), with:

- ``previous``: the previous commit (--previous REV, default 38e7557: exported and built once under
  build/engines/) at its default, 10 cubes;
- ``this @10``: this checkout at 10 cubes (what the new texture reading and orientation cost by themselves);
- ``this default``: this checkout at its default (20);
- ``this @24``: this checkout at 24, the next size considered.

Models: samples/meshes (in the repository) and, when there, ../shared/data's bunny and Suzanne, plus any given with
--models. Usage: .venv/bin/python scripts/bench_mesh_default.py [--previous REV|none] [--models FILE...]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from _bench import ROOT, SHARED, engine_copy, engine_on_path

engine_on_path()  # this checkout, or a previous engine's copy (--engine DIR): before nonogen is imported

PREVIOUS = "38e7557"
MODELS = sorted((ROOT / "samples" / "meshes").iterdir()) + [SHARED / "meshes" / "bunny.ply",
                                                            SHARED / "meshes" / "monkey.glb"]


def measure(model: str, size: int | None) -> dict:
    """One making with the engine this process imported; ``size`` None: its default."""
    import trimesh  # noqa: F401  (before the clock: both engines read models with it)

    from nonogen.make.level3d import from_mesh

    cpu, wall = time.process_time(), time.perf_counter()
    made = from_mesh(model) if size is None else from_mesh(model, size=size)
    report = made.report
    return {"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall, "size": report["size"],
            "status": report["status"], "hidden": report["hidden_share"]}


def run(engine: Path, model: Path, size: int | None) -> dict:
    """:func:`measure` in a fresh process of the engine in ``engine``."""
    command = [sys.executable, __file__, "--measure", str(model), "--engine", str(engine)]
    command += ["--size", str(size)] if size is not None else []
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{model.name} failed with {engine}: {done.stderr.strip()[-800:]}")
    return json.loads(done.stdout.splitlines()[-1])


def _cell(row: dict | None) -> str:
    if row is None:
        return "-"
    return f"{'x'.join(map(str, row['size']))} {row['cpu']:.2f}; {row['wall']:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--previous", default=PREVIOUS, metavar="REV", help="the commit to compare with, or none")
    parser.add_argument("--models", nargs="*", type=Path, default=[])
    parser.add_argument("--engine", help=argparse.SUPPRESS)
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.size)))
        return
    previous = engine_copy(args.previous) if args.previous != "none" else None
    models = [m for m in MODELS + args.models if m.is_file()]
    columns = ("previous (default 10)", "this @10", "this default (20)", "this @24")
    print(f"{'model':<22} " + " ".join(f"{c:>26}" for c in columns) + "   (box, CPU s; wall s)")
    totals, defaults = [0.0] * 4, []
    for model in models:
        rows = [run(previous, model, None) if previous else None, run(ROOT, model, 10), run(ROOT, model, None),
                run(ROOT, model, 24)]
        totals = [t + (r["cpu"] if r else 0.0) for t, r in zip(totals, rows, strict=True)]
        defaults.append((rows[2]["cpu"], model.name))
        print(f"{model.name:<22} " + " ".join(f"{_cell(r):>26}" for r in rows), flush=True)
    print(f"{'total CPU s':<22} " + " ".join(f"{t:>26.2f}" for t in totals))
    if defaults:
        seconds, name = max(defaults)
        print(f"slowest making at the default size: {name}, {seconds:.2f} CPU s")


if __name__ == "__main__":
    main()
