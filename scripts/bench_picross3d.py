"""Benchmark: the three Picross 3D targets of issue 37, against the previous engine in the same run.

Targets (this engine): a graded level from a model at 20 cubes (the bunny, 20x20x16) in <= 3 s; a
line-solvable maximal hiding of that bunny in <= 5 s; the proof that a solid ball filling a 40^3 box
is unique in <= 10 s and <= 1 GB (peak memory of the whole process). Each measurement runs in a
fresh process (so its peak memory is its own), once with this checkout and once with the previous engine
(--previous REV, default e490d9f: exported and built once under build/engines/). Both engines
also verify the shared Picross 3D levels and a seeded set of small random boxes; their verdicts
must agree, and the hidden clues of the bunny must be the same. Three more rows, with no goal: the ball
with half its clues hidden, which line logic does not finish (SAT on the residue); the bunny's maximal
hiding that only has to stay unique (what `nonogen mesh` does by default; same hidden clues required); and
the level `nonogen mesh --size 40` makes of the model, of the torus (which line logic cannot solve once
the solver has hidden a clue) and of the knot (same clues shown required). Times are CPU seconds of the
measuring process (the machine is shared: wall seconds, printed beside, grow with the load). The models and
levels are read from ../shared/data, which is not in the repository: without it the bench says so in one line.

Usage: .venv/bin/python scripts/bench_picross3d.py [--previous REV|none] [--model PATH] [--grade G] [--solid N]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from _bench import ROOT, SHARED, engine_copy, engine_on_path, no_shared, peak_mb, skip

engine_on_path()  # this checkout, or a previous engine's copy (--engine DIR): before nonogen is imported

import numpy as np  # noqa: E402

from nonogen import formats  # noqa: E402
from nonogen.clues3d import all_lines, clue_at, puzzle3d_from_cells, with_clues  # noqa: E402
from nonogen.make.hide3d import hide_clues  # noqa: E402
from nonogen.make.level3d import from_mesh  # noqa: E402
from nonogen.solve.line3d import line_solve3d  # noqa: E402
from nonogen.solve.verify3d import verify3d  # noqa: E402

DEFAULT_MODEL = SHARED / "meshes" / "bunny.ply"
TORUS = SHARED / "meshes" / "torus.STL"
KNOT = SHARED / "meshes" / "quadknot.obj"
PREVIOUS = "e490d9f"  # the engine when issue 37 was filed
TARGETS = {"graded": (3.0, None), "hiding": (5.0, None), "solid": (10.0, 1024.0)}
UNGOALED = ("half", "unique", "big", "torus", "knot")  # half: the ball with half its clues hidden, which SAT
# must finish; unique: the bunny's maximal hiding that only stays unique (what `nonogen mesh` does by default); big:
# `nonogen mesh --size 40`'s level from the model (line-solvable hiding of a 40-cube box); torus, knot: the same of
# the torus, which line logic cannot solve once the solver has hidden a clue, and of the knot, whose hiding undoes the
# most (the slowest makings)
MEASURED = (*TARGETS, *UNGOALED, "verdicts")


def measure(name: str, args: argparse.Namespace) -> dict:
    """One measurement with the engine this process imported."""
    if name == "graded":
        import trimesh  # noqa: F401  (loaded before the clock starts: both engines read models with it)

        start, cpu = time.perf_counter(), time.process_time()
        made = from_mesh(args.model, size=20, grade=args.grade, timeout=600)
        facts = {k: made.report[k] for k in ("status", "size", "grade", "clues_hidden", "line_solvable")}
        return {"wall": time.perf_counter() - start, "seconds": time.process_time() - cpu, "facts": facts}
    if name in ("big", "torus", "knot"):
        import trimesh  # noqa: F401

        start, cpu = time.perf_counter(), time.process_time()
        made = from_mesh({"big": args.model, "torus": TORUS, "knot": KNOT}[name], size=40, timeout=900)
        facts = {k: made.report[k] for k in ("status", "size", "grade", "clues_hidden", "line_solvable")}
        shown = [[list(ln), clue_at(made.puzzle, ln)] for ln in all_lines(made.puzzle.size)]
        return {"wall": time.perf_counter() - start, "seconds": time.process_time() - cpu, "mb": peak_mb(),
                "facts": {**facts, "sequence": shown}}
    if name in ("hiding", "unique"):
        from nonogen.importers.mesh import mesh_to_voxels  # the bench's input, read before the clock starts

        puzzle = puzzle3d_from_cells(mesh_to_voxels(args.model, 20).cells)
        start, cpu = time.perf_counter(), time.process_time()
        hiding = hide_clues(puzzle, line_solvable=name == "hiding", timeout=600)
        wall, seconds = time.perf_counter() - start, time.process_time() - cpu
        solved = bool(line_solve3d(hiding.puzzle)[1])
        facts = {"hidden": f"{hiding.hidden}/{hiding.total}", "line_solvable": solved,
                 "solver_calls": hiding.stats.get("solver_calls", 0), "sequence": [list(ln) for ln in hiding.sequence]}
        return {"wall": wall, "seconds": seconds, "facts": facts}
    if name == "solid":
        start, cpu = time.perf_counter(), time.process_time()
        result = verify3d(puzzle3d_from_cells(ball(args.solid)), timeout=600)
        return {"wall": time.perf_counter() - start, "seconds": time.process_time() - cpu, "mb": peak_mb(),
                "facts": {"status": result.status}}
    if name == "half":
        rng = np.random.default_rng(0)
        cells = ball(args.solid)
        hidden = {ln for ln in all_lines(cells.shape) if rng.random() < 0.5}
        level = with_clues(puzzle3d_from_cells(cells), lambda ln: ln not in hidden)
        start, cpu = time.perf_counter(), time.process_time()
        result = verify3d(level, timeout=900)
        return {"wall": time.perf_counter() - start, "seconds": time.process_time() - cpu, "mb": peak_mb(),
                "facts": {"status": result.status}}
    return {"verdicts": verdicts()}


def ball(side: int) -> np.ndarray:
    """The solid ball filling a box of ``side`` cubes: the shape whose proof took 3.9 GB and 78 s at 40 (issue 37)."""
    centre = np.indices((side,) * 3).transpose(1, 2, 3, 0) - (side - 1) / 2
    return np.linalg.norm(centre, axis=-1) <= side / 2


def verdicts() -> list[str]:
    """The verdict of every shared Picross 3D level, 60 seeded small random boxes with some clues hidden, ten 9^3
    ones."""
    shared = sorted((SHARED / "picross3d").glob("*.json"))
    found = [verify3d(formats.load(path), timeout=120).status for path in shared]
    rng = np.random.default_rng(37)
    for k in range(60):
        cells = rng.random(tuple(rng.integers(3, 8, 3))) < rng.uniform(0.3, 0.8)
        share = rng.uniform(0.0, 0.5)
        hidden = {ln for ln in all_lines(cells.shape) if rng.random() < share}
        level = with_clues(puzzle3d_from_cells(cells), lambda ln, gone=hidden: ln not in gone)
        if k % 4 == 0:  # a given against the goal: often no solution at all
            x, y, z = (int(rng.integers(0, s)) for s in cells.shape)
            level = level.replace(givens=[(x, y, z, int(not cells[x, y, z]))])
        found.append(verify3d(level, timeout=120).status)
    for _ in range(10):  # random 9^3 boxes with every clue: line logic leaves cubes open, SAT decides
        found.append(verify3d(puzzle3d_from_cells(rng.random((9, 9, 9)) < 0.5), timeout=120).status)
    return found


def run_engine(name: str, engine: Path, args: argparse.Namespace) -> dict:
    """``measure(name)`` in a fresh process of the engine in ``engine``."""
    command = [sys.executable, __file__, "--measure", name, "--engine", str(engine), "--model", str(args.model),
               "--grade", str(args.grade), "--solid", str(args.solid)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{name} failed with {engine}: {done.stderr.strip()[-800:]}")
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--previous", default=PREVIOUS, metavar="REV", help="the engine to compare with, or none")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--grade", type=int, default=2, help="the grade of the level made from the model")
    parser.add_argument("--solid", type=int, default=40, help="the side of the box the solid ball fills")
    parser.add_argument("--engine", help=argparse.SUPPRESS)
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args)))
        return
    absent = next((p for p in (args.model, TORUS, KNOT, SHARED / "picross3d") if not p.exists()), None)
    if absent:
        skip(no_shared(absent))
    engines = {"nonogen": ROOT}
    if args.previous != "none":
        engines["previous"] = engine_copy(args.previous)
        print(f"previous engine: {args.previous} (built in {engines['previous'].relative_to(ROOT)})")
    rows = {(name, who): run_engine(name, path, args) for name in MEASURED for who, path in engines.items()}
    print(f"\n{'target (CPU s; wall s)':<44} {'goal':>16} {'nonogen':>24} {'previous':>24} {'':>5}")
    labels = {"graded": f"graded level (grade {args.grade}) from {args.model.name} at 20",
              "hiding": f"line-solvable maximal hiding, {args.model.name}",
              "solid": f"proof of a solid ball, {args.solid}^3 box"}
    labels["half"] = "  the same ball, half its clues hidden"
    labels["unique"] = "maximal hiding, unique (nonogen mesh default)"
    labels["big"] = f"nonogen mesh --size 40 {args.model.name}"
    labels["torus"] = f"nonogen mesh --size 40 {TORUS.name}"
    labels["knot"] = f"nonogen mesh --size 40 {KNOT.name}"
    for name, (seconds, mb) in {**TARGETS, **dict.fromkeys(UNGOALED, (None, None))}.items():
        ours, before = rows[(name, "nonogen")], rows.get((name, "previous"))
        ok = seconds is None or (ours["seconds"] <= seconds and (mb is None or ours["mb"] <= mb))
        then = _cell(before["seconds"], before["wall"], before.get("mb")) if before else "-"
        goal = _cell(seconds, None, mb) if seconds else "-"
        verdict = "" if seconds is None else ("PASS" if ok else "MISS")
        print(f"{labels[name]:<44} {goal:>16} {_cell(ours['seconds'], ours['wall'], ours.get('mb')):>24} "
              f"{then:>24} {verdict:>5}")
    for name in (*TARGETS, *UNGOALED):
        facts = {k: v for k, v in rows[(name, "nonogen")]["facts"].items() if k != "sequence"}
        print(f"  {name}: {facts}")
    if "previous" in engines:
        _compare(rows)


def _cell(seconds: float, wall, mb) -> str:
    """CPU seconds, wall seconds and peak memory, those that are known."""
    text = f"{seconds:.2f}" + (f"; {wall:.2f}" if wall is not None else "") + " s"
    return text + (f", {mb:.0f} MB" if mb is not None else "")


def _compare(rows: dict) -> None:
    """What both engines must agree on: verdicts, the bunny's hidden clues, the solid ball's verdict."""
    ours, theirs = rows[("verdicts", "nonogen")]["verdicts"], rows[("verdicts", "previous")]["verdicts"]
    differ = sum(a != b for a, b in zip(ours, theirs, strict=True))
    print(f"verdicts: {len(ours)} levels, {differ} differ from the previous engine ({_counts(ours)})")
    for name, what in (("hiding", "bunny line-solvable hiding"), ("unique", "bunny unique hiding"),
                       ("big", "bunny level at 40"), ("torus", "torus level at 40"), ("knot", "knot level at 40")):
        same = rows[(name, "nonogen")]["facts"]["sequence"] == rows[(name, "previous")]["facts"]["sequence"]
        print(f"{what}: {'the same clues hidden' if same else 'DIFFERENT clues hidden'} as before"
              + (" (in the same order)" if same and name in ("hiding", "unique") else ""))
    for name in ("solid", "half"):
        now, then = rows[(name, "nonogen")]["facts"]["status"], rows[(name, "previous")]["facts"]["status"]
        print(f"{'solid ball' if name == 'solid' else 'half-hidden ball'}: {now} (previous: {then})")


def _counts(values: list[str]) -> dict:
    return dict(Counter(values))


if __name__ == "__main__":
    main()
