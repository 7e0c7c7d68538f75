"""Batch throughput: puzzles per second over a whole collection, on 1 and 2 local processes and a 2-worker Dask cluster.

    python scripts/bench_batch.py                 # every puzzle under ../shared/data/puzzles (~7,000)
    python scripts/bench_batch.py --limit 300     # the first 300 files only (a quick look)

Every run verifies the same puzzles with the same options (no ambiguity
scan, 20 s per puzzle) and must give the same records, apart from times.
The Dask overhead per puzzle is measured on 2,000 copies of a 2x2 puzzle,
where the work itself is nothing: (Dask wall time - local pool wall time) / puzzles,
with the cluster's start-up and shutdown measured apart.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from _bench import DATA

from nonogen.batch import Source, verify_paths
from nonogen.executors import DaskExecutor, LocalPool

TINY = "width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n"


def timed(paths: list, executor, timeout: float = 20.0) -> tuple[float, list[dict]]:
    start = time.monotonic()
    records = list(verify_paths(paths, executor=executor, timeout=timeout, ambiguity=False))
    return time.monotonic() - start, records


def differences(a: list[dict], b: list[dict]) -> list[str]:
    """Where two runs' records differ, whatever the order and the times: ``file: field, field``.

    A timeout near the limit may go either way, so records with one are left out.
    """
    strip = lambda recs: {r["file"]: {k: v for k, v in r.items() if k != "seconds"} for r in recs}  # noqa: E731
    x, y = strip(a), strip(b)
    out = [f"{k}: only in one run" for k in x.keys() ^ y.keys()]
    for k in x.keys() & y.keys():
        if x[k] != y[k] and "timeout" not in (x[k]["status"], y[k]["status"]):
            fields = sorted(f for f in x[k].keys() | y[k].keys() if x[k].get(f) != y[k].get(f))
            out.append(f"{k}: {', '.join(fields)}")
    return sorted(out)


def collection(limit: int | None) -> list[str]:
    from nonogen.batch import puzzle_files

    files = [str(p) for p, _ in puzzle_files([DATA])]
    return files[:limit] if limit else files


def full_runs(files: list[str]) -> list[tuple[str, float, int]]:
    runs = []
    baseline = None
    for name, executor in (("local, 1 process", LocalPool(1)), ("local, 2 processes", LocalPool(2)),
                           ("Dask LocalCluster, 2 workers", DaskExecutor(workers=2))):
        seconds, records = timed(files, executor)
        verified = sum(r["status"] != "skipped" for r in records)
        print(f"{name:<30} {verified:6d} puzzles {seconds:8.1f} s {verified / seconds:8.1f} puzzles/s", flush=True)
        if baseline is None:
            baseline = records
            counts: dict[str, int] = {}
            for r in records:
                counts[r["status"]] = counts.get(r["status"], 0) + 1
            print(f"{'':<30} {json.dumps(counts)}")
        else:
            diff = differences(baseline, records)
            print(f"{'':<30} records as in the first run, apart from {len(diff)}: {'; '.join(diff[:5])}", flush=True)
        runs.append((name, seconds, verified))
    return runs


def overhead(count: int = 2000) -> None:
    bundle = [Source("tiny.non", "====\n".join([TINY] * count))]
    start_stop, _ = timed([Source("one.non", TINY)], DaskExecutor(workers=2))
    local, _ = timed(bundle, LocalPool(2))
    dask, _ = timed(bundle, DaskExecutor(workers=2))
    work = dask - start_stop
    print(f"\n{count} trivial puzzles: local pool {local:.2f} s ({local / count * 1e3:.2f} ms each), "
          f"Dask {dask:.2f} s of which {start_stop:.2f} s cluster start-up and shutdown")
    print(f"Dask overhead per puzzle: {(work - local) / count * 1e3:.2f} ms over the local pool "
          f"({work / count * 1e3:.2f} ms per puzzle on Dask against {local / count * 1e3:.2f} ms)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="only the first N files")
    parser.add_argument("--overhead-only", action="store_true", help="skip the collection runs")
    args = parser.parse_args()
    if not args.overhead_only:
        if not DATA.is_dir():
            print(f"shared data not found ({DATA}): measuring the overhead only")
        else:
            files = collection(args.limit)
            print(f"{len(files)} files under {DATA}; no ambiguity scan, 20 s per puzzle\n")
            full_runs(files)
    overhead()
    return 0


if __name__ == "__main__":
    sys.exit(main())
