"""Benchmark grading (the human-style replay, nonogen/solve/grade.py and replay.c) against the previous engine.

The 6,746 scraped webpbn puzzles of issue 37 (blind copies: no `goal` line), verified as one batch
(`nonogen verify --json --no-ambiguity FOLDER`) by this checkout and by the previous engine (--previous REV,
default main) in the same run, with grading and without it (--no-grade): CPU of the whole process,
the share grading takes, and the puzzles whose grade or score differ between the two engines (must be 0).
The engines take turns, and each figure is the least of --repeat runs: on a loaded machine the CPU of
the same run varies by a fifth.

Usage: .venv/bin/python scripts/bench_replay.py [--scraped DIR] [--limit N] [--previous REV] [--repeat N]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from _bench import ROOT, SCRAPED_FOLDERS, blind_copies, children_cpu, engine_copy

SCRAPED = next((f for f in SCRAPED_FOLDERS if f.is_dir()), SCRAPED_FOLDERS[0])
"""Where bench_peers.py looks for the scraped puzzles: beside the shared data, else in ../peers/data/."""

def verify(engine: Path, folder: Path, grade: bool) -> tuple[float, dict[str, tuple]]:
    """One `verify` process over ``folder`` with ``engine``: its CPU seconds and each file's (status, grade, score)."""
    command = [sys.executable, "-m", "nonogen", "verify", "--json", "--no-ambiguity", str(folder)]
    before = children_cpu()
    done = subprocess.run(command + ([] if grade else ["--no-grade"]), cwd=engine, capture_output=True, text=True)
    cpu = children_cpu() - before
    records = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            records[Path(r["file"]).name] = (r.get("status"), r.get("grade"), r.get("score"))
    if not records:
        raise SystemExit(f"{engine}: no records: {done.stderr[-300:]}")
    return cpu, records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scraped", type=Path, default=SCRAPED, help="folder of the scraped .non puzzles")
    parser.add_argument("--limit", type=int, default=0, help="only the first N puzzles (by name)")
    parser.add_argument("--previous", default="main", help="the engine to compare with (a git revision)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each, the least CPU counts")
    args = parser.parse_args()
    paths = sorted(args.scraped.glob("*.non"))[: args.limit or None]
    if not paths:
        print(f"skipped: no .non puzzles in {args.scraped} (the scraped webpbn set of issue 37; --scraped DIR)")
        return 0
    folder = ROOT / "build" / "bench-replay" / f"blind-{len(paths)}"
    blind_copies(paths, folder)
    engines = {"nonogen": ROOT, "previous": engine_copy(args.previous)}
    print(f"{len(paths)} puzzles of {args.scraped}, one verify process each way; previous = {args.previous}")
    print(f"{'engine':10} {'graded s':>9} {'no-grade s':>11} {'grading s':>10}")
    cpu: dict[tuple[str, bool], float] = {}
    results = {}
    for _ in range(max(1, args.repeat)):
        for grade in (True, False):
            for name, root in engines.items():
                seconds, records = verify(root, folder, grade)
                cpu[name, grade] = min(seconds, cpu.get((name, grade), seconds))
                if grade:
                    results[name] = records
    for name in engines:
        graded, plain = cpu[name, True], cpu[name, False]
        print(f"{name:10} {graded:9.1f} {plain:11.1f} {graded - plain:10.1f}")
    ours, theirs = results["nonogen"], results["previous"]
    differ = sorted(f for f in set(ours) | set(theirs) if ours.get(f) != theirs.get(f))
    graded = sum(1 for r in ours.values() if r[1] is not None)
    print(f"{graded} graded; {len(differ)} puzzles whose status, grade or score differ from the previous engine")
    for f in differ[:10]:
        print(f"  {f}: {ours.get(f)} vs {theirs.get(f)}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
