"""Benchmark picture -> puzzle: import, clues, verify, ambiguity, repair and render seconds per case.

Baselines, computed in the same run:
  * ambiguity: the naive check (one solver call per cell and other value: "can this cell differ?")
    against ``ambiguous_cells`` (incremental: each found solution marks every cell it changes);
  * repair: unguided givens (reveal the first cell where the second solution differs, row-major, until
    unique; no line-logic scoring, no pruning) against ``repair(mode="givens")``.

Usage: .venv/bin/python scripts/bench_image.py [--quick]
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from _bench import SHARED  # noqa: E402
from make_sample_images import landscape, sphere  # noqa: E402

from nonogen.clues import puzzle_from_grid  # noqa: E402
from nonogen.importers.image import ImageOptions, image_to_grid, load_image  # noqa: E402
from nonogen.render import encode  # noqa: E402
from nonogen.render.sheet2d import sheet_picture  # noqa: E402
from nonogen.make.repair2d import repair  # noqa: E402
from nonogen.solve import ambiguous_cells, verify  # noqa: E402

ICONS = SHARED / "images"  # optional: the cases drawn from these icons are left out when ../shared is absent
NAIVE_CAP = 30.0


def blobs(size: int = 512, seed: int = 7) -> np.ndarray:
    """Smoothed random noise through a colour ramp: a busy 'photo' whose puzzles are often not unique."""
    from scipy.ndimage import gaussian_filter

    field = gaussian_filter(np.random.default_rng(seed).normal(size=(size, size)), sigma=size / 40)
    field = (field - field.min()) / (field.max() - field.min())
    ramp = np.array([[20, 30, 60], [60, 120, 200], [240, 200, 80], [250, 250, 240]], dtype=float)
    pos = field * (len(ramp) - 1)
    lo = np.floor(pos).astype(int).clip(0, len(ramp) - 2)
    frac = (pos - lo)[..., None]
    return (ramp[lo] * (1 - frac) + ramp[lo + 1] * frac).round().astype(np.uint8)


def cases(quick: bool) -> list[tuple[str, Image.Image, ImageOptions]]:
    photo = Image.fromarray(landscape(512, 512), "RGB")
    ball = Image.fromarray(sphere(512), "RGBA")
    busy = Image.fromarray(blobs(), "RGB")
    smile = ICONS / "tango_emotes-face-smile.png"
    out = [
        ("blobs 512px -> 32x32 B&W", busy, ImageOptions(size=(32, 32), mode="bw")),
        ("blobs 512px -> 64x64 4 colours", busy, ImageOptions(size=(64, 64), colors=4)),
        ("landscape 512px -> 32x32 B&W", photo, ImageOptions(size=(32, 32), mode="bw")),
        ("sphere 512px -> 32x32 B&W", ball, ImageOptions(size=(32, 32))),
        ("landscape 512px -> 64x64 4 colours", photo, ImageOptions(size=(64, 64), colors=4)),
        ("sphere 512px -> 64x64 4 colours", ball, ImageOptions(size=(64, 64), colors=4)),
    ]
    if smile.is_file():
        out.insert(1, ("smile upscaled 512px -> 32x32 B&W", load_image(smile).resize((512, 512)),
                       ImageOptions(size=(32, 32))))
    for name, opts in (("nikoichu_Boardgames_Card_Attack_Sword.png", ImageOptions()),
                       ("nikoichu_Food_Mushroom.png", ImageOptions(colors=2)),
                       ("tango_emotes-face-smile.png", ImageOptions(colors=3))):
        path = ICONS / name
        if path.is_file():
            out.append((f"{name.split('_')[-1]} {'B&W' if opts.colors is None else f'{opts.colors} colours'}",
                        load_image(path), opts))
    return out[:3] if quick else out


def naive_ambiguity(puzzle, target: np.ndarray, cap: float) -> tuple[int | None, float]:
    """One verify per (cell, other value): does a solution exist with that cell changed? None if over the cap."""
    start = time.monotonic()
    found = 0
    for (r, c), v in np.ndenumerate(target):
        for other in range(puzzle.n_colors + 1):
            if other == v:
                continue
            if time.monotonic() - start > cap:
                return None, time.monotonic() - start
            res = verify(puzzle.replace(givens=((r, c, other),)), timeout=cap)
            if res.status in ("unique", "multiple"):
                found += 1
                break
    return found, time.monotonic() - start


def unguided_givens(puzzle, target: np.ndarray) -> tuple[int, float]:
    start = time.monotonic()
    givens: list = []
    while True:
        res = verify(puzzle.replace(givens=tuple(givens)), target=target, timeout=60)
        if res.status != "multiple":
            return len(givens), time.monotonic() - start
        r, c = (int(v) for v in np.argwhere(res.second_solution != target)[0])
        givens.append((r, c, int(target[r, c])))


def run_case(name: str, img: Image.Image, opts: ImageOptions) -> dict:
    row: dict = {"case": name}
    t = time.perf_counter()
    imported = image_to_grid(img, opts)
    row["import"] = time.perf_counter() - t
    t = time.perf_counter()
    puzzle = puzzle_from_grid(imported.grid, imported.palette, title=name)
    row["clues"] = time.perf_counter() - t
    t = time.perf_counter()
    first = verify(puzzle, target=imported.grid, timeout=60)
    row["verify"] = time.perf_counter() - t
    row["status"] = first.status
    t = time.perf_counter()
    amb = ambiguous_cells(puzzle, imported.grid) if first.status == "multiple" else np.zeros(imported.grid.shape, bool)
    row["ambiguity"] = time.perf_counter() - t
    row["ambiguous"] = int(amb.sum())
    t = time.perf_counter()
    result = repair(puzzle, imported.grid, confidence=imported.confidence, alternative=imported.alternative)
    row["repair"] = time.perf_counter() - t
    row["givens"] = len(result.report["givens"])
    row["final"] = result.report["status"] + (" line" if result.report["line_solvable"] else "")
    t = time.perf_counter()
    for picture in (sheet_picture(result.puzzle), sheet_picture(result.puzzle, result.grid)):
        encode(picture, ".svg")
        encode(picture, ".png")
    row["render"] = time.perf_counter() - t
    # The pipeline a user runs: import + clues + repair (which verifies and computes ambiguity itself) + render.
    row["total"] = row["import"] + row["clues"] + row["repair"] + row["render"]
    row["size"] = f"{puzzle.width}x{puzzle.height}"
    naive_found, naive_s = naive_ambiguity(puzzle, imported.grid, NAIVE_CAP) if first.status == "multiple" else (0, 0.0)
    row["naive_amb"] = naive_s
    row["naive_ok"] = ("over cap" if naive_found is None
                       else "agrees" if naive_found == row["ambiguous"] else "DIFFERS")
    if first.status == "multiple":
        row["unguided_givens"], row["unguided_s"] = unguided_givens(puzzle, imported.grid)
    else:
        row["unguided_givens"], row["unguided_s"] = 0, 0.0
    return row


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    print(f"{'case':36} {'size':>6} {'import':>7} {'clues':>6} {'verify':>7} {'ambig':>7} {'repair':>7} "
          f"{'render':>7} {'total':>7}  status / ambiguous / givens / final")
    rows = []
    for name, img, opts in cases(quick):
        row = run_case(name, img, opts)
        rows.append(row)
        print(f"{row['case']:36} {row['size']:>6} {row['import']:7.3f} {row['clues']:6.3f} {row['verify']:7.3f} "
              f"{row['ambiguity']:7.3f} {row['repair']:7.3f} {row['render']:7.3f} {row['total']:7.3f}  "
              f"{row['status']} / {row['ambiguous']} / {row['givens']} / {row['final']}", flush=True)
    print()
    print("Baselines (same run)")
    print(f"{'case':36} {'ambiguity: incremental':>22} {'naive per cell':>15} {'':>9}   "
          f"{'givens: guided+pruned':>22} {'unguided':>14}")
    for row in rows:
        if row["status"] != "multiple":
            continue
        naive = f">{NAIVE_CAP:.0f}s" if row["naive_ok"] == "over cap" else f"{row['naive_amb']:.3f}s"
        print(f"{row['case']:36} {row['ambiguity']:21.3f}s {naive:>15} {row['naive_ok']:>9}   "
              f"{row['givens']:>5} in {row['repair']:7.3f}s {row['unguided_givens']:>5} in {row['unguided_s']:6.3f}s")
    targets = [("32x32", 2.0), ("64x64", 10.0)]
    print()
    for row in rows:
        for size, limit in targets:
            if row["size"] == size and "512" in row["case"]:
                verdict = "ok" if row["total"] < limit else "SLOW"
                print(f"target {size} under {limit:.0f} s: {row['case']}: {row['total']:.2f} s {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
