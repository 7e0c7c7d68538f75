"""Benchmark: real meshes -> Picross 3D levels at 10, 15 and 20 cubes, with maximal clue hiding.

For each size it voxelizes a model, verifies the FULL clue set, then hides
clues greedily (line logic, a search for a second solution, a solver on the residue).
The baseline, in the same run, repeats the hiding with a fresh solver built
for every check (same seed, so the same decisions), which is what a
non-incremental tool does. Targets (issue 5): 10^3 under 5 s, 15^3 under
30 s, 20^3 under 120 s for voxelize + verify + hiding.

Usage: python scripts/bench_mesh.py [--sizes 10,15,20] [--model PATH] [--baseline-max 15]
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from _bench import SHARED, no_shared, skip

from nonogen.clues3d import puzzle3d_from_cells
from nonogen.importers.mesh import mesh_to_voxels
from nonogen.make.hide3d import hide_clues
from nonogen.solve.verify3d import verify3d

DEFAULT_MODEL = SHARED / "meshes" / "bunny.ply"
TARGETS = {10: 5.0, 15: 30.0, 20: 120.0}


def bench(model: Path, size: int, baseline: bool, seed: int) -> list[dict]:
    t0 = time.perf_counter()
    voxels = mesh_to_voxels(model, size)
    t_vox = time.perf_counter() - t0
    puzzle = puzzle3d_from_cells(voxels.cells)
    t0 = time.perf_counter()
    full = verify3d(puzzle, target=voxels.cells, timeout=120)
    t_full = time.perf_counter() - t0
    rows = []
    modes = [("incremental", True)] + ([("fresh solver (baseline)", False)] if baseline else [])
    for name, incremental in modes:
        result = hide_clues(puzzle, seed=seed, incremental=incremental, timeout=900)
        check = verify3d(result.puzzle, target=voxels.cells)
        rows.append({
            "size": "x".join(map(str, voxels.cells.shape)), "mode": name, "voxels": int(voxels.cells.sum()),
            "full": full.status, "t_vox": t_vox, "t_full": t_full, "t_hide": result.stats["seconds"],
            "calls": result.stats["solver_calls"], "ms_call": result.stats["ms_per_call"],
            "hidden": f"{result.hidden}/{result.total}", "share": result.share,
            "total": t_vox + t_full + result.stats["seconds"], "recheck": check.status,
            "target": TARGETS.get(size),
        })
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,15,20")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--baseline-max", type=int, default=10, help="largest size to run the slow baseline at")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not args.model.is_file():
        if args.model == DEFAULT_MODEL:
            skip(no_shared(args.model))
        parser.error(f"no model at {args.model}")
    print(f"model: {args.model.name}")
    head = (f"{'box':>9} {'mode':<24} {'voxels':>6} {'full':>7} {'vox s':>6} {'full s':>6} {'hide s':>7} "
            f"{'calls':>5} {'ms/call':>8} {'hidden':>9} {'share':>6} {'total s':>7} {'target':>6} {'recheck':>7}")
    print(head)
    print("-" * len(head))
    for size in (int(s) for s in args.sizes.split(",")):
        for r in bench(args.model, size, size <= args.baseline_max, args.seed):
            ok = "" if r["target"] is None else (f"<{r['target']:.0f}" if r["total"] < r["target"] else "MISS")
            print(f"{r['size']:>9} {r['mode']:<24} {r['voxels']:>6} {r['full']:>7} {r['t_vox']:>6.2f} "
                  f"{r['t_full']:>6.2f} {r['t_hide']:>7.2f} {r['calls']:>5} {r['ms_call']:>8.2f} "
                  f"{r['hidden']:>9} {r['share']:>6.1%} {r['total']:>7.2f} {ok:>6} {r['recheck']:>7}", flush=True)


if __name__ == "__main__":
    main()
