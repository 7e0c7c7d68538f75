"""Benchmark of the packing solvers and generator; prints tables with a baseline measured in the same run.

Baselines: the SAT solver (python-sat, CaDiCaL) on the same levels, and plain
Algorithm X (the same bitmask search with no wall-in pruning and no memory of
dead partial boards).

    .venv/bin/python scripts/bench_pack.py [--quick] [--count-seconds S]
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from nonogen.pack import classic_level, count_solutions, solve_level, verify_level
from nonogen.pack.exact import compile_level, search
from nonogen.pack.generate import generate_level, random_tiling
from nonogen.solve.deadline import Deadline


def _timed(fn, *args, **kwargs):
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - start


def classic_levels(n_tilings: int, seed: int = 0):
    """(k, level) for k = 0..12 pre-placed pieces of random tilings of the classic board."""
    rng = random.Random(seed)
    base = classic_level()
    for _ in range(n_tilings):
        tiling = random_tiling(base, rng)
        order = rng.sample([p.char for p in base.pieces], 12)
        for k in range(13):
            yield k, base.with_placed(order[:k], tiling)


def table(title: str, header: list[str], rows: list[list]) -> None:
    print(f"\n## {title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---:" if i else "---" for i in range(len(header))) + "|")
    for row in rows:
        print("| " + " | ".join(f"{x:.4f}" if isinstance(x, float) else str(x) for x in row) + " |")


def bench_classic(n_tilings: int) -> None:
    by_k: dict[int, list] = {}
    for k, level in classic_levels(n_tilings):
        solve, t_solve = _timed(solve_level, level, timeout=60)
        dlx, t_dlx = _timed(verify_level, level, timeout=60, use_solution=False, method="dlx")
        sat, t_sat = _timed(verify_level, level, timeout=60, method="sat", use_solution=False)
        assert dlx.status == sat.status, (k, dlx.status, sat.status)
        nopr, t_nopr = _timed(lambda level=level: search(compile_level(level), limit=2, prune="none", max_dead=0))
        by_k.setdefault(k, []).append((t_solve, t_dlx, t_sat, t_nopr, dlx.status))
    rows = []
    for k, runs in sorted(by_k.items()):
        col = list(zip(*runs, strict=True))
        statuses = {s: col[4].count(s) for s in set(col[4])}
        rows.append([k, len(runs), max(col[0]), statistics.median(col[1]), max(col[1]), max(col[3]),
                     statistics.median(col[2]), max(col[2]),
                     f"{statistics.median(col[2]) / max(statistics.median(col[1]), 1e-9):.0f}x",
                     ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))])
    table(f"IQ Puzzler Pro 11x5, k pieces pre-placed from {n_tilings} random tilings (seconds)",
          ["k", "levels", "solve max", "unique? DLX median", "DLX max", "plain X max",
           "SAT median", "SAT max", "SAT/DLX", "verdicts"], rows)


def random_position_levels(n: int, k: int, rng: random.Random):
    """Classic levels with k pieces dropped at random free positions: often no completion at all."""
    base = classic_level()
    problem = compile_level(base)
    for _ in range(n):
        placed, filled = {}, 0
        for ch in rng.sample([p.char for p in base.pieces], k):
            t = next(i for i, chars in enumerate(problem.types) if ch in chars)
            mask = rng.choice([m for tt, m in problem.placements if tt == t and not m & filled])
            filled |= mask
            placed[ch] = problem.mask_cells(mask)
        yield base.replace(placed=placed)


def bench_random_positions(n: int) -> None:
    rng = random.Random(5)
    rows = []
    for k in range(1, 7):
        times: dict[str, list[float]] = {"auto": [], "dlx": [], "sat": []}
        verdicts: dict[str, int] = {}
        for level in random_position_levels(n, k, rng):
            statuses = set()
            for method in times:
                result, t = _timed(verify_level, level, timeout=60, method=method)
                times[method].append(t)
                statuses.add(result.status)
            assert len(statuses) == 1, statuses
            verdicts[result.status] = verdicts.get(result.status, 0) + 1
        rows.append([k, n, max(times["auto"]), max(times["dlx"]), max(times["sat"]),
                     statistics.median(times["auto"]), statistics.median(times["sat"]),
                     ", ".join(f"{c} {s}" for s, c in sorted(verdicts.items()))])
    table("IQ Puzzler Pro 11x5, k pieces at random positions (uniqueness check, seconds)",
          ["k", "levels", "auto max", "DLX only max", "SAT only max", "auto median", "SAT median", "verdicts"], rows)


def bench_challenges(seeds: range) -> None:
    rows = []
    for seed in seeds:
        (level, report), t_gen = _timed(generate_level, 11, 5, 12, seed=seed, classic=True)
        level = level.replace(solution=None)
        dlx, t_dlx = _timed(verify_level, level, timeout=60, method="dlx")
        sat, t_sat = _timed(verify_level, level, timeout=60, method="sat")
        nopr, t_nopr = _timed(lambda level=level: search(compile_level(level), limit=2, prune="none", max_dead=0))
        assert dlx.status == sat.status == "unique" and nopr.count == 1
        rows.append([seed, len(level.placed), t_gen, t_dlx, t_nopr, t_sat])
    table("Generated classic challenges (unique; fewest pre-placed pieces the generator found)",
          ["seed", "placed", "generate s", "verify DLX s", "plain X s", "verify SAT s"], rows)


def bench_empty_count(seconds: float) -> None:
    level = classic_level()
    result, elapsed = _timed(count_solutions, level, timeout=seconds)
    rows = [["memoised count (nonogen pack count)", result.count, result.complete, elapsed]]
    for name, kwargs in [("enumerating search", {}), ("plain Algorithm X", {"prune": "none", "max_dead": 0})]:
        out, t = _timed(search, compile_level(level), limit=None, keep=0,
                        deadline=Deadline(seconds), **kwargs)
        rows.append([name, out.count, out.complete, t])
    sat, t = _timed(count_solutions, level, timeout=seconds, method="sat")
    rows.append(["SAT with blocking clauses", sat.count, sat.complete, t])
    table(f"Empty 11x5 board: completions counted, time limit {seconds:g} s (true total 4,331,140)",
          ["counter", "counted", "complete", "seconds"], rows)


def bench_generator(seeds: range) -> None:
    rows = []
    for size, pieces, distinct in [((10, 10), 20, False), ((10, 10), 20, True), ((11, 5), 12, True)]:
        for seed in seeds:
            (level, report), t_gen = _timed(generate_level, *size, pieces, seed=seed, distinct=distinct)
            check = level.replace(solution=None)
            auto, t_auto = _timed(verify_level, check, timeout=60)
            dlx, t_dlx = _timed(verify_level, check, timeout=60, method="dlx")
            sat, t_sat = _timed(verify_level, check, timeout=60, method="sat")
            assert auto.status == dlx.status == sat.status == "unique"
            rows.append([f"{size[0]}x{size[1]}", pieces, "yes" if distinct else "no", seed, len(level.placed),
                         report.checks, t_gen, t_auto, t_dlx, t_sat])
    table("Generator (random cut, pre-placed pieces chosen for a unique completion)",
          ["board", "pieces", "distinct", "seed", "placed", "checks", "generate s", "verify auto s",
           "verify DLX s", "verify SAT s"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer levels (about a minute)")
    parser.add_argument("--count-seconds", type=float, default=30.0)
    args = parser.parse_args()
    bench_classic(3 if args.quick else 10)
    bench_random_positions(8 if args.quick else 30)
    bench_challenges(range(1, 4 if args.quick else 9))
    bench_empty_count(args.count_seconds)
    bench_generator(range(1, 3 if args.quick else 4))


if __name__ == "__main__":
    main()
