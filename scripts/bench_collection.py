"""Making a collection: pictures per second on 1 and 2 local workers and a 2-worker Dask cluster, against a shell loop.

    python scripts/bench_collection.py            # 1,000 generated pictures and 50 models
    python scripts/bench_collection.py --quick    # 100 pictures and 10 models
    python scripts/bench_collection.py --only 1 --only 2    # some configurations only

The pictures are generated here from a fixed seed: icons (shapes on a
transparent background), sprites (symmetric pixel art, a few colours, 4
pixels a cell) and photo-like JPEGs (a gradient, blurred shapes, noise),
45/45/10. The models are the shipped samples, made at 6 to 14 cubes. Each
configuration runs in a fresh process that samples its own memory and its
workers' (peak resident set, /proc VmHWM) while :func:`nonogen.make_many`
works; the parent's resident memory is also noted at each tenth of the
pictures, to show it does not grow with the number of sources. The
baseline is what a user without collections does: a shell loop of single
``nonogen image`` calls, on an evenly spread subset of the same pictures,
in the same run. Targets (issue 35): >= 1.8x speed-up on 2 workers, the
parent's memory flat, >= 5x the shell loop's throughput.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

REPO = Path(__file__).resolve().parents[1]
MESHES = REPO / "samples" / "meshes"
MODEL_SIZES = (6, 8, 10, 12, 14)


# --- the inputs ------------------------------------------------------------------------------------------


def _icon(rng: np.random.Generator, path: Path) -> None:
    img = Image.new("RGBA", (32, 32), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    ink = (*(int(v) for v in rng.integers(0, 90, 3)), 255)
    for _ in range(int(rng.integers(2, 5))):
        x0, y0 = (int(v) for v in rng.integers(1, 20, 2))
        box = (x0, y0, x0 + int(rng.integers(6, 12)), y0 + int(rng.integers(6, 12)))
        (draw.ellipse if rng.random() < 0.5 else draw.rectangle)(box, fill=ink)
    img.save(path)


def _sprite(rng: np.random.Generator, path: Path) -> None:
    n = int(rng.integers(10, 15))
    half = (n + 1) // 2
    colours = np.array([[255, 255, 255]] + [rng.integers(0, 200, 3) for _ in range(int(rng.integers(1, 3)))], np.uint8)
    left = rng.integers(0, len(colours), (n, half)) * (rng.random((n, half)) < 0.55)
    grid = np.concatenate([left, left[:, : n - half][:, ::-1]], axis=1)
    Image.fromarray(colours[grid]).resize((4 * n, 4 * n), Image.NEAREST).save(path)


def _photo(rng: np.random.Generator, path: Path) -> None:
    h, w = 120, 160
    y = np.linspace(0, 1, h)[:, None, None]
    top, bottom = rng.integers(100, 255, 3), rng.integers(0, 150, 3)
    img = Image.fromarray((top * (1 - y) + bottom * y + np.zeros((h, w, 3))).astype(np.uint8))
    draw = ImageDraw.Draw(img)
    for _ in range(int(rng.integers(1, 4))):
        cx, cy, r = (int(v) for v in (rng.integers(30, 130), rng.integers(30, 100), rng.integers(15, 40)))
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=tuple(int(v) for v in rng.integers(0, 255, 3)))
    pixels = np.asarray(img.filter(ImageFilter.GaussianBlur(1.5))) + rng.normal(0, 6, (h, w, 3))
    Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8)).save(path, quality=85)


def make_pictures(folder: Path, count: int, seed: int = 35) -> list[Path]:
    """``count`` pictures, 45 % icons, 45 % sprites, 10 % photo-like, the kinds interleaved."""
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True)
    paths = []
    for i in range(count):
        kind = "photo" if i % 10 == 9 else ("icon", "sprite")[i % 2]
        path = folder / f"{i:04d}-{kind}.{'jpg' if kind == 'photo' else 'png'}"
        {"icon": _icon, "sprite": _sprite, "photo": _photo}[kind](rng, path)
        paths.append(path)
    return paths


def make_models(folder: Path, count: int) -> dict[int, Path]:
    """``count`` copies of the shipped models spread over :data:`MODEL_SIZES`: one folder per size."""
    samples = sorted(MESHES.iterdir())
    groups: dict[int, Path] = {}
    for i in range(count):
        size = MODEL_SIZES[i % len(MODEL_SIZES)]
        groups.setdefault(size, folder / f"size{size}").mkdir(parents=True, exist_ok=True)
        sample = samples[i % len(samples)]
        shutil.copy(sample, groups[size] / f"{sample.stem}-{i:02d}{sample.suffix}")
    return groups


# --- one configuration, in its own process -----------------------------------------------------------------


def _peak_mb(pid: int) -> float | None:
    """Peak resident memory of a process (VmHWM) in MB, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmRSS:"))


class Watcher:
    """The peak memory of every process below this one (the workers), sampled as records arrive.

    No sampling thread: a second thread would make the local pool start its
    workers from a fork server instead of forking this process, and change
    what is measured. A process's peak (VmHWM) only grows, so a sample after
    each record misses nothing but the very end.
    """

    def __init__(self):
        import psutil  # the bench's own need: not a dependency of nonogen

        self.me, self.error = psutil.Process(), psutil.Error
        self.peaks: dict[int, float] = {}

    def sample(self) -> None:
        for child in self.me.children(recursive=True):
            try:
                line = " ".join(child.cmdline())
            except self.error:
                continue
            peak = _peak_mb(child.pid)
            if peak is not None and "resource_tracker" not in line:
                self.peaks[child.pid] = peak


def child(config: dict) -> dict:
    """Run one configuration: every picture, then every model group; times, failures and memory."""
    from nonogen import make_many

    out = Path(config["out"])
    watcher = Watcher()
    rss: list[float] = []
    count = len(config["pictures"])
    marks = {max(1, round(count * k / 10)) for k in range(1, 11)}

    def note(done: int, total: int) -> None:
        watcher.sample()
        if done in marks and total == count:
            rss.append(round(_rss_mb(), 1))

    where: dict = {"jobs": config["jobs"], "executor": "local"}
    start = time.monotonic()
    cluster = None
    if config["executor"] == "dask":
        import logging

        from distributed import LocalCluster  # optional, like in nonogen.executors

        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                               silence_logs=logging.ERROR)
        where = {"scheduler": cluster.scheduler_address}
    cluster_start = time.monotonic() - start
    start = time.monotonic()
    failed = made = 0
    for rec in make_many(config["pictures"], out / "pictures", on_progress=note, **where):  # none kept: memory
        failed, made = failed + (rec["status"] == "failed"), made + 1
    pictures = time.monotonic() - start
    picture_workers, watcher.peaks = watcher.peaks, {}
    start = time.monotonic()
    for size, folder in sorted(config["models"].items()):
        for rec in make_many([folder], out / f"models{size}", kind="mesh", size=int(size), on_progress=note, **where):
            failed, made = failed + (rec["status"] == "failed"), made + 1
    models = time.monotonic() - start
    if cluster is not None:
        cluster.close()
    return {"pictures_seconds": pictures, "models_seconds": models, "parent_peak_mb": _peak_mb(os.getpid()),
            "parent_rss_by_tenth": rss, "worker_peaks_mb": sorted((round(p) for p in picture_workers.values()),
                                                                   reverse=True),
            "model_worker_peak_mb": round(max(watcher.peaks.values(), default=0)),
            "cluster_start": cluster_start, "failed": failed, "records": made}


def run_config(name: str, jobs: int, executor: str, pictures: list[Path], models: dict, work: Path) -> dict:
    config = {"jobs": jobs, "executor": executor, "pictures": [str(p) for p in pictures],
              "models": {str(k): str(v) for k, v in models.items()}, "out": str(work / name.replace(" ", "-"))}
    start = time.monotonic()
    done = subprocess.run([sys.executable, __file__, "--child", json.dumps(config)], cwd=REPO,
                          capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"{name}: the run failed:\n{done.stderr[-3000:]}")
    got = json.loads(done.stdout.splitlines()[-1])
    got["wall"] = time.monotonic() - start
    return got


def shell_loop(pictures: list[Path], work: Path) -> float:
    """Seconds for a shell loop of single ``nonogen image`` calls over ``pictures`` (what users do today)."""
    out = work / "shell"
    out.mkdir()
    script = ('out=$1; shift; for f in "$@"; do '
              '"$PY" -m nonogen image "$f" -o "$out/$(basename "$f")" >/dev/null 2>&1; done')
    start = time.monotonic()
    subprocess.run(["bash", "-c", script, "loop", str(out), *map(str, pictures)], cwd=REPO, check=True,
                   env={**os.environ, "PY": sys.executable})
    return time.monotonic() - start


def targets(runs: dict, count: int, loop_rate: float) -> None:
    """The issue's three targets, against what was measured in this run."""
    rate = {name: count / got["pictures_seconds"] for name, got in runs.items()}
    if "1 worker" in runs and "2 workers" in runs:
        two = rate["2 workers"] / rate["1 worker"]
        print(f"target: speed-up on 2 workers x{two:.2f} (>= 1.8: {'met' if two >= 1.8 else 'NOT met'})")
    for name, got in runs.items():
        rss = got["parent_rss_by_tenth"]
        print(f"target: {name}: parent RSS from the first to the last tenth of the pictures {rss[0]:.1f} -> "
              f"{rss[-1]:.1f} MB ({'flat' if rss[-1] - rss[0] < 5 else 'GROWS'}); throughput x"
              f"{rate[name] / loop_rate:.1f} the shell loop's "
              f"(>= 5: {'met' if rate[name] >= 5 * loop_rate else 'NOT met'})")


# --- the report ---------------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 pictures, 10 models, a loop of 10")
    parser.add_argument("--pictures", type=int, help="number of pictures (default 1000, 100 with --quick)")
    parser.add_argument("--models", type=int, help="number of models (default 50, 10 with --quick)")
    parser.add_argument("--loop", type=int, help="pictures in the shell loop (default 40, 10 with --quick)")
    parser.add_argument("--only", choices=("1", "2", "dask"), action="append",
                        help="run only these configurations (1 worker, 2 workers, Dask); repeatable")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return 0
    count = args.pictures or (100 if args.quick else 1000)
    n_models = args.models or (10 if args.quick else 50)
    n_loop = args.loop or (10 if args.quick else 40)
    work = Path(tempfile.mkdtemp(prefix="bench-collection-"))
    try:
        pictures = make_pictures(work / "in", count)
        models = make_models(work / "models", n_models)
        load = os.getloadavg()
        print(f"{count} pictures, {n_models} models ({len(models)} sizes); {os.cpu_count()} cores, "
              f"load average {load[0]:.1f} at the start")
        runs = {}
        for key, name, jobs, executor in (("1", "1 worker", 1, "local"), ("2", "2 workers", 2, "local"),
                                          ("dask", "Dask 2 workers", 2, "dask")):
            if args.only and key not in args.only:
                continue
            runs[name] = got = run_config(name, jobs, executor, pictures, models, work)
            speed = count / got["pictures_seconds"]
            up = next(iter(runs.values()))["pictures_seconds"] / got["pictures_seconds"]
            print(f"{name:<15} pictures {got['pictures_seconds']:7.1f} s = {speed:6.2f}/s (x{up:.2f}), "
                  f"models {got['models_seconds']:6.1f} s = {n_models / got['models_seconds']:5.2f}/s, "
                  f"process {got['wall']:6.1f} s, failed {got['failed']}/{got['records']}")
            started = f", the cluster started in {got['cluster_start']:.1f} s (apart)" if executor == "dask" else ""
            print(f"{'':<15} parent peak {got['parent_peak_mb']:.0f} MB, parent RSS at each tenth "
                  f"{got['parent_rss_by_tenth']} MB; pictures' worker peaks {got['worker_peaks_mb']} MB, "
                  f"models' largest worker {got['model_worker_peak_mb']} MB{started}")
        subset = pictures[:: max(1, count // n_loop)][:n_loop]
        loop = shell_loop(subset, work)
        loop_rate = len(subset) / loop
        print(f"shell loop      {len(subset)} single `nonogen image` calls {loop:6.1f} s = {loop_rate:.2f} pictures/s")
        targets(runs, count, loop_rate)
        load = os.getloadavg()
        print(f"load average {load[0]:.1f} at the end (the machine is shared: 2-worker numbers are disturbed "
              f"by whatever else runs)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
