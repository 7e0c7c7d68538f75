"""Benchmark ``nonogen scan`` on photos of printed pages: random puzzles drawn by nonogen, printed and photographed
(simulated), read back: % exact, how many misreadings the suspects flag, s/page; beside the previous reader.

By default the photo kinds and the rasterised PDF they are made from; ``scripts/bench_scan.py`` measures the
other kinds (other programs' pages, colour). The kinds:

N random black-and-white puzzles (seeded; sizes 5x5 to 40x40, some with a title that holds a digit) are drawn
as: a PDF sheet with its text layer (``pdf-text``); PNG sheets at 96 dpi (``png-1x``, cell 20 px), 192 dpi
(``png-2x``) and a small cell of 14 px (``png-small``); and the PDF page rasterised by poppler at 150 dpi
(``pdf-raster``, no text layer); and the PDF rasterised at 300 dpi as a printed page, photographed by
``photo_sim.py`` (``photo-mild``, ``photo-hard``: perspective, a bent page, a shadow, blur, JPEG; seeded by the
puzzle's number). Each is scanned and verified; reading alone is timed. A page is exact when its size and every row
and column clue equal the puzzle's; of the pages that are not, "flagged" counts those whose every misread line is
among the scan's suspects. The baseline is the reader of ``--previous`` (a commit, exported and built once under
build/engines/), asked to read each page right after this one.

Usage: .venv/bin/python scripts/bench_scan_photo.py [--puzzles N] [--seed S] [--kinds a,b] [--keep DIR] [--previous REV]
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "scripts"))

import photo_sim  # noqa: E402

import nonogen  # noqa: E402
from bench_scan import BANDS, band, band_cells, first_page  # noqa: E402  (the same puzzles as the sheets' bench)
from bench_scan import draw as sheet  # noqa: E402
KINDS = ("pdf-text", "png-1x", "png-2x", "png-small", "pdf-raster", "photo-mild", "photo-hard")
VERIFY_SECONDS = 10.0
"""Each scan is verified (its suspects need the verdict) within this many seconds; reading alone is timed."""
PREVIOUS = "38e7557"
"""The commit before photos were read: its reader is the baseline, measured in the same run."""
PHOTO_DPI = 300
"""The printed page photographed: the PDF sheet drawn at this resolution, then warped and filtered (photo_sim)."""


def draw(puzzle: nonogen.Puzzle, kind: str, folder: Path, k: int) -> Path:
    """The puzzle drawn as ``kind`` into ``folder``; the file's path: a photo of its printed PDF sheet, or as
    ``bench_scan.py`` draws the sheet kinds."""
    if not kind.startswith("photo-"):
        return sheet(puzzle, kind, folder, k)
    pdf = folder / f"{k}.pdf"
    if not pdf.exists():
        nonogen.draw(puzzle, pdf, force=True)
    return photo(pdf, kind.split("-", 1)[1], folder, k)


def photo(pdf: Path, level: str, folder: Path, k: int) -> Path:
    """The PDF sheet printed and photographed (scripts/photo_sim.py), seeded by the puzzle's number: a JPEG."""
    from PIL import Image

    page = folder / f"{k}-print"
    if not page.with_suffix(".png").exists():
        subprocess.run(["pdftoppm", "-r", str(PHOTO_DPI), "-gray", "-png", "-singlefile", str(pdf), str(page)],
                       check=True)
    with Image.open(page.with_suffix(".png")) as img:
        gray = np.asarray(img.convert("L"))
    return photo_sim.save_photo(gray, folder / f"{k}-{level}.jpg", level, seed=1000 * (level == "hard") + k)


def exact(puzzle: nonogen.Puzzle, path: Path) -> tuple[bool, float, str, bool, tuple[int, int], bool]:
    """Whether the scan of ``path`` gives exactly ``puzzle``'s clues; the seconds reading took (the verdict and the
    suspects' search not counted); what went wrong; whether every misread line is among the suspects; how many
    lines the suspects name, and how far down their list the last misread one is (0: none misread or named);
    whether the page was found legible (not: every line named)."""
    start = time.perf_counter()
    try:
        found = nonogen.scan(path, timeout=VERIFY_SECONDS, grade=False)
    except nonogen.NonogenError as exc:
        return False, time.perf_counter() - start, str(exc), False, (0, 0), True
    if len(found) != 1:
        return False, found[0].seconds if found else 0.0, f"{len(found)} grids", False, (0, 0), True
    seconds = found[0].seconds
    got = found[0].puzzle
    if (got.width, got.height) != (puzzle.width, puzzle.height):
        return False, seconds, f"size {got.width}x{got.height}", False, (0, 0), found[0].legible
    bad = [f"row {i + 1}" for i, (a, b) in enumerate(zip(got.rows, puzzle.rows, strict=True)) if a != b]
    bad += [f"column {i + 1}" for i, (a, b) in enumerate(zip(got.cols, puzzle.cols, strict=True)) if a != b]
    order = [s["line"] for s in found[0].suspects]
    flagged = set(order)
    missed = [line for line in bad if line not in flagged]
    why = ", ".join(bad[:4]) + (f"; not flagged: {', '.join(missed[:4])}" if missed else "; all flagged")
    reach = max((order.index(line) + 1 for line in bad if line in flagged), default=0)
    if not found[0].legible:
        why += "; read unsurely throughout: every line named"
    return not bad, seconds, why, not missed, (len(order), reach), found[0].legible


PREVIOUS_READER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import nonogen
for line in sys.stdin:
    start = time.perf_counter()
    try:
        found = [[f.puzzle.width, f.puzzle.height, [[n for n, _ in c] for c in f.puzzle.rows],
                  [[n for n, _ in c] for c in f.puzzle.cols]] for f in nonogen.scan(line.strip(), verify=False)]
    except nonogen.NonogenError:
        found = []
    print(json.dumps([time.perf_counter() - start, found]), flush=True)
"""
"""The previous reader, in a process of its own on its own copy: reads each path it is given, says the seconds and
what it read."""


class Previous:
    """The reader of a previous commit (``--previous``), asked page by page right after this one: same pages, same
    moment, so the times compare on a shared machine."""

    def __init__(self, rev: str) -> None:
        import _bench

        self.copy = _bench.engine_copy(rev)
        self.process = subprocess.Popen([sys.executable, "-c", PREVIOUS_READER, str(self.copy)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)

    def read(self, puzzle: nonogen.Puzzle, path: Path) -> tuple[bool, float]:
        """Whether the previous reader gets ``puzzle`` exactly from ``path``, and its seconds."""
        import json

        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{path}\n")
        self.process.stdin.flush()
        seconds, found = json.loads(self.process.stdout.readline())
        want = [puzzle.width, puzzle.height, [[n for n, _ in c] for c in puzzle.rows],
                [[n for n, _ in c] for c in puzzle.cols]]
        return found == [want], seconds

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default="pdf-raster,photo-mild,photo-hard")
    parser.add_argument("--keep", help="keep the drawn pages in this folder (failures are worth looking at)")
    parser.add_argument("--previous", default=PREVIOUS,
                        help=f"the reader of this commit reads the same pages, for comparison (default {PREVIOUS}, "
                             "before photos were read; 'none': no comparison)")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    if shutil.which("pdftoppm") is None:
        kinds = [k for k in kinds if k != "pdf-raster" and not k.startswith("photo-")]
    _, puzzles, folder, warm = first_page(args)
    previous = None if args.previous == "none" else Previous(args.previous)
    if previous is not None:
        previous.read(puzzles[0], warm)
    table: dict[tuple[str, str], list[tuple[bool, float]]] = {}
    flags: dict[str, list[bool]] = {}
    named: dict[tuple[str, bool], list[tuple[int, int]]] = {}  # lines named, last misread's place; by exactness
    unsure: dict[tuple[str, bool], int] = {}  # pages not legible (every line named), by kind and exactness
    before: dict[str, list[tuple[bool, float, str]]] = {}
    for kind in kinds:
        for k, puzzle in enumerate(puzzles):
            path = draw(puzzle, kind, folder, k)
            ok, seconds, why, flagged, suspects, legible = exact(puzzle, path)
            named.setdefault((kind, ok), []).append(suspects)
            unsure[kind, ok] = unsure.get((kind, ok), 0) + (not legible)
            if previous is not None:
                before.setdefault(kind, []).append((*previous.read(puzzle, path), band(puzzle)))
            table.setdefault((kind, band(puzzle)), []).append((ok, seconds))
            table.setdefault((kind, "all"), []).append((ok, seconds))
            if not ok:
                flags.setdefault(kind, []).append(flagged)
                print(f"  {kind} {path.name} {puzzle.width}x{puzzle.height}: {why}", flush=True)
    print(f"\n{args.puzzles} puzzles, seed {args.seed}; exact = size and every clue right; flagged = of the pages not "
          "exact, those whose every misread line is among the suspects; s/page = reading only")
    print(f"| kind | {' | '.join(f'{lo}-{hi}' for lo, hi in BANDS)} | all | flagged | s/page (mean, max) |")
    print("|---|" + "---|" * (len(BANDS) + 3))
    for kind in kinds:
        cells = band_cells(table, kind)
        missed = flags.get(kind, [])
        cells.append(f"{sum(missed)} of {len(missed)}" if missed else "—")
        times = [s for _, s in table[(kind, "all")]]
        print(f"| {kind} | {' | '.join(cells)} | {np.mean(times):.2f}, {max(times):.2f} |")
    print("\nlines named as suspects per page (each is a line a person checks), and on a misread page how far down "
          "the list its last misread line is:")
    print("| kind | exact pages: mean, max | misread pages: median, max | last misread line: median, max | "
          "pages read unsurely throughout (every line named): exact, misread |")
    print("|---|---|---|---|---|")
    for kind in kinds:
        right = [n for n, _ in named.get((kind, True), [(0, 0)])]
        wrong = [n for n, _ in named.get((kind, False), [(0, 0)])]
        reach = [r for _, r in named.get((kind, False), [(0, 0)])]
        print(f"| {kind} | {np.mean(right):.2f}, {max(right)} | {np.median(wrong):.0f}, {max(wrong)} | "
              f"{np.median(reach):.0f}, {max(reach)} | {unsure.get((kind, True), 0)}, {unsure.get((kind, False), 0)} |")
    if previous is not None:
        previous.close()
        print(f"\nthe previous reader ({args.previous}) on the same pages, asked right after each:")
        print(f"| kind | {' | '.join(f'{lo}-{hi}' for lo, hi in BANDS)} | all | s/page (mean, max) |")
        print("|---|" + "---|" * (len(BANDS) + 2))
        for kind, runs in before.items():
            cells = []
            for name in [f"{lo}-{hi}" for lo, hi in BANDS]:
                mine = [ok for ok, _, b in runs if b == name]
                cells.append(f"{100 * sum(mine) / len(mine):.0f} %" if mine else "—")
            times = [s for _, s, _ in runs]
            print(f"| {kind} | {' | '.join(cells)} | {100 * sum(ok for ok, _, _ in runs) / len(runs):.0f} % of "
                  f"{len(runs)} | {np.mean(times):.2f}, {max(times):.2f} |")
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
