"""Benchmark ``nonogen scan``: random puzzles drawn by nonogen's own renderers, read back, % exact and s/page.

N random black-and-white puzzles (seeded; sizes 5x5 to 40x40, some with a title that holds a digit) are drawn
as: a PDF sheet with its text layer (``pdf-text``); PNG sheets at 96 dpi (``png-1x``, cell 20 px), 192 dpi
(``png-2x``) and a small cell of 14 px (``png-small``); and the PDF page rasterised by poppler at 150 dpi
(``pdf-raster``, no text layer). Printed pages in other paper sizes: ``paper-a5`` and ``book-letter`` (PDFs, a
book of one puzzle with its answer key), ``paper-letter-png`` (150 dpi). Other programs' pages
(``scripts/scan_styles.py``): ``tatham`` (Simon Tatham's Pattern's window under Xvfb, cells of 16 to 28 pixels),
``web-boxes``, ``web-tight`` and ``web-dark`` (HTML pages in Chromium). Colour puzzles (2 to 5 colours):
``colour-png`` and ``colour-pdf`` (nonogen's sheets, clues in coloured boxes), ``colour-png-150`` (the PNG at 150
dpi), ``colour-raster`` (the PDF rasterised in colour by poppler at 150 dpi) and ``web-colour`` (coloured digits).
Each is scanned without verifying (reading is what is timed) and counts as exact when its size and every row and
column clue equal the puzzle's (colours: the same clues up to the colours' order, each read colour within 40 of its
true RGB), and no given cell is read in its grid (it prints none). A kind whose program is missing is skipped with
one line. A table per kind and size band; first, nonogen's own kinds read by the previous reader (``--previous``,
a ``git archive`` copy): this run's baseline.

Usage: .venv/bin/python scripts/bench_scan.py [--puzzles N] [--seed S] [--kinds a,b] [--keep DIR]
       [--previous REV]
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import nonogen  # noqa: E402
import scan_styles  # noqa: E402
from nonogen.clues import puzzle_from_grid  # noqa: E402
from nonogen.errors import LimitError  # noqa: E402
from nonogen.model import Color  # noqa: E402

BANDS = ((5, 10), (11, 20), (21, 30), (31, 40))
KINDS = ("pdf-text", "png-1x", "png-2x", "png-small", "pdf-raster", "paper-a5", "paper-letter-png", "book-letter",
         "tatham", "web-boxes", "web-tight", "web-dark", "colour-png", "colour-pdf", "colour-png-150", "colour-raster",
         "web-colour")
PREVIOUS, PREVIOUS_KINDS = "38e7557", ("pdf-text", "png-1x", "png-2x", "png-small", "pdf-raster")
"""The reader before other programs' pages and colour (issue 51), and the kinds its bench knows."""
COLOURS = ("#d62728", "#1f5fd6", "#2ca02c", "#ff9f1c", "#8e44ad", "#111111", "#8c564b", "#17becf")


def random_puzzle(rng: np.random.Generator, k: int) -> nonogen.Puzzle:
    """A random grid and density; sizes cycle through the bands (the long side in the band, the other 5..40 but no
    longer); every third has a title with a digit in it, right over the column clues."""
    lo, hi = BANDS[k % len(BANDS)]
    long_side = int(rng.integers(lo, hi + 1))
    other = int(rng.integers(5, long_side + 1))
    h, w = (long_side, other) if rng.random() < 0.5 else (other, long_side)
    grid = (rng.random((h, w)) < rng.uniform(0.35, 0.65)).astype(np.uint8)
    puzzle = puzzle_from_grid(grid)
    if k % 3 == 0:
        puzzle = nonogen.Puzzle(puzzle.rows, puzzle.cols, goal=puzzle.goal, meta={"title": f"Puzzle {k}"})
    return puzzle


def colour_puzzle(puzzle: nonogen.Puzzle, rng: np.random.Generator) -> nonogen.Puzzle:
    """``puzzle``'s size and its black cells painted in 2 to 5 colours (patches, so blocks of one colour run)."""
    goal = np.asarray(puzzle.goal)
    n = int(rng.integers(2, 6))
    picks = rng.choice(len(COLOURS), n, replace=False)
    palette = [Color("white", "#ffffff", ".")] + [Color(f"c{i}", COLOURS[i], "abcdefgh"[i]) for i in picks]
    patches = rng.integers(1, n + 1, (goal.shape[0] // 3 + 1, goal.shape[1] // 3 + 1))
    paint = np.kron(patches, np.ones((3, 3), int))[:goal.shape[0], :goal.shape[1]]
    noise = rng.random(goal.shape) < 0.25
    paint = np.where(noise, rng.integers(1, n + 1, goal.shape), paint)
    coloured = puzzle_from_grid(goal * paint, palette=palette)
    return nonogen.Puzzle(coloured.rows, coloured.cols, coloured.palette, goal=coloured.goal, meta=dict(puzzle.meta))


def draw(puzzle: nonogen.Puzzle, kind: str, folder: Path, k: int, display: str = "") -> Path:
    """The puzzle drawn as ``kind`` into ``folder``; the file's path."""
    if kind == "tatham":
        tile = (16, 20, 24, 28)[k % 4]
        return scan_styles.pattern_screenshot(puzzle, folder / f"{k}-tatham.png", display, tile)
    if kind.startswith("web-"):
        style = kind[4:]
        return scan_styles.web_screenshot(puzzle, style, folder / f"{k}-{kind}.png")
    if kind in ("colour-png", "colour-pdf"):
        return Path(nonogen.draw(puzzle, folder / f"{k}-{kind}.{kind[7:]}", force=True)["output"])
    if kind == "colour-png-150":
        return Path(nonogen.draw(puzzle, folder / f"{k}-colour-150.png", dpi=150, force=True)["output"])
    if kind == "colour-raster":
        return _rasterised(Path(nonogen.draw(puzzle, folder / f"{k}-colour.pdf", force=True)["output"]), gray=False)
    if kind == "paper-a5":
        return Path(nonogen.draw(puzzle, folder / f"{k}-a5.pdf", paper="a5", margin=8, force=True)["output"])
    if kind == "paper-letter-png":
        return Path(nonogen.draw(puzzle, folder / f"{k}-letter.png", paper="letter", dpi=150, force=True)["output"])
    if kind == "book-letter":
        out = folder / f"{k}-book.pdf"
        nonogen.book([puzzle], out, paper="letter", force=True)
        return out
    if kind == "pdf-text":
        return Path(nonogen.draw(puzzle, folder / f"{k}.pdf", force=True)["output"])
    if kind == "png-1x":
        return Path(nonogen.draw(puzzle, folder / f"{k}-1x.png", force=True)["output"])
    if kind == "png-2x":
        return Path(nonogen.draw(puzzle, folder / f"{k}-2x.png", dpi=192, force=True)["output"])
    if kind == "png-small":
        return Path(nonogen.draw(puzzle, folder / f"{k}-small.png", cell=14, force=True)["output"])
    pdf = folder / f"{k}.pdf"
    if not pdf.exists():
        nonogen.draw(puzzle, pdf, force=True)
    return _rasterised(pdf, gray=True)


def _rasterised(pdf: Path, gray: bool) -> Path:
    """``pdf``'s page as poppler rasterises it at 150 dpi, in grey or in colour."""
    out = pdf.with_name(f"{pdf.stem}-raster-{'gray' if gray else 'colour'}")
    subprocess.run(["pdftoppm", "-r", "150", *(["-gray"] if gray else []), "-png", "-singlefile", str(pdf), str(out)],
                   check=True)
    return out.with_suffix(".png")


def exact(puzzle: nonogen.Puzzle, path: Path) -> tuple[bool, float, str]:
    """Whether the scan of ``path`` gives exactly ``puzzle``'s clues; the seconds it took; what went wrong."""
    start = time.perf_counter()
    try:
        found = nonogen.scan(path, verify=False)
    except nonogen.NonogenError as exc:
        return False, time.perf_counter() - start, str(exc)
    seconds = time.perf_counter() - start
    if len(found) != 1:
        return False, seconds, f"{len(found)} grids"
    got = found[0].puzzle
    if (got.width, got.height) != (puzzle.width, puzzle.height):
        return False, seconds, f"size {got.width}x{got.height}"
    bad = [f"row {i + 1}" for i, (a, b) in enumerate(zip(got.rows, puzzle.rows, strict=True))
           if _numbers(a) != _numbers(b)]
    bad += [f"col {i + 1}" for i, (a, b) in enumerate(zip(got.cols, puzzle.cols, strict=True))
            if _numbers(a) != _numbers(b)]
    if not bad and puzzle.is_color:
        bad = _colour_errors(got, puzzle)
    if not bad and len(got.givens) != len(puzzle.givens):
        bad = [f"{len(got.givens)} givens read, {len(puzzle.givens)} printed"]
    return not bad, seconds, ", ".join(bad[:4])


def _numbers(clue: tuple) -> list[int]:
    return [n for n, _ in clue]


def _colour_errors(got: nonogen.Puzzle, puzzle: nonogen.Puzzle) -> list[str]:
    """What is wrong with the colours read: each read colour must stand for one true colour, close to its RGB."""
    meaning: dict[int, int] = {}
    bad = []
    for name, mine, theirs in (("row", got.rows, puzzle.rows), ("col", got.cols, puzzle.cols)):
        for i, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            for (_, ca), (_, cb) in zip(a, b, strict=True):
                if meaning.setdefault(ca, cb) != cb:
                    bad.append(f"{name} {i + 1} colour")
    for ca, cb in meaning.items():
        x, y = np.array(got.palette[ca].rgb_tuple), np.array(puzzle.palette[cb].rgb_tuple)
        if np.abs(x - y).max() > 40:
            bad.append(f"colour {got.palette[ca].rgb} for {puzzle.palette[cb].rgb}")
    return bad


def band(puzzle: nonogen.Puzzle) -> str:
    side = max(puzzle.width, puzzle.height)
    lo, hi = next(b for b in BANDS if b[0] <= side <= b[1])
    return f"{lo}-{hi}"


def pattern_fit(puzzle: nonogen.Puzzle, k: int) -> nonogen.Puzzle:
    """A puzzle of ``puzzle``'s size whose clues Pattern shows whole: its window has room for a line's length / 5
    + 2 numbers (longer clues are cut at the window's edge), so random grids are drawn again until they fit."""
    rng = np.random.default_rng(1000 + k)
    while not all(len(c) <= len(line) // 5 + 2 for c, line in
                  [(c, range(puzzle.width)) for c in puzzle.rows] + [(c, range(puzzle.height)) for c in puzzle.cols]):
        grid = (rng.random((puzzle.height, puzzle.width)) < rng.uniform(0.55, 0.8)).astype(np.uint8)
        puzzle = puzzle_from_grid(grid)
    return puzzle


def _has_xvfb() -> bool:
    return shutil.which("Xvfb") is not None and scan_styles.pattern_binary() is not None


def run_kind(kind: str, puzzles: list, folder: Path, display: str, table: dict) -> None:
    """Every puzzle drawn as ``kind`` and scanned; its exactness and seconds added to ``table``."""
    if kind == "tatham" and not display:
        raise scan_styles.Unavailable("Pattern (sgt-puzzles) and Xvfb are not both installed")
    for k, puzzle in enumerate(puzzles):
        if kind == "tatham":
            puzzle = pattern_fit(puzzle, k)
        try:
            path = draw(puzzle, kind, folder, k, display)
        except LimitError as exc:  # a 40x40 sheet does not fit A5 with 6 pt digits: not a page to scan
            print(f"  {kind} {k}: not drawn, {exc}", flush=True)
            continue
        ok, seconds, why = exact(puzzle, path)
        table.setdefault((kind, band(puzzle)), []).append((ok, seconds))
        table.setdefault((kind, "all"), []).append((ok, seconds))
        if not ok:
            print(f"  {kind} {path.name} {puzzle.width}x{puzzle.height}: {why}", flush=True)


def previous(rev: str, kinds: list[str], args: argparse.Namespace) -> None:
    """The same puzzles read by the reader at ``rev`` (its own bench script, on a ``git archive`` copy): the
    baseline of this run. A commit that is not here is one line, and the run goes on."""
    from _bench import engine_copy

    if not kinds:
        return
    try:
        copy = engine_copy(rev)
    except (RuntimeError, subprocess.CalledProcessError) as exc:
        print(f"previous reader ({rev}) not measured: {exc}", flush=True)
        return
    print(f"previous reader ({rev}):", flush=True)
    subprocess.run([sys.executable, str(copy / "scripts" / "bench_scan.py"), "--puzzles", str(args.puzzles),
                    "--seed", str(args.seed), "--kinds", ",".join(kinds)], check=False)
    print("\nthis reader:", flush=True)


def first_page(args: argparse.Namespace) -> tuple[np.random.Generator, list[nonogen.Puzzle], Path, Path]:
    """The run's seeded generator and puzzles, the folder their pages go to (``--keep`` or a new one), and the first
    puzzle's page, already read once: the digit prototypes load on the first scan, kept out of every timing."""
    rng = np.random.default_rng(args.seed)
    puzzles = [random_puzzle(rng, k) for k in range(args.puzzles)]
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-scan-"))
    folder.mkdir(parents=True, exist_ok=True)
    warm = draw(puzzles[0], "png-1x", folder, 0)
    nonogen.scan(warm, verify=False)
    return rng, puzzles, folder, warm


def band_cells(table: dict, kind: str) -> list[str]:
    """A kind's row of the table: % of its pages read exactly in each size band and in all, with their counts."""
    cells = []
    for name in [f"{lo}-{hi}" for lo, hi in BANDS] + ["all"]:
        runs = table.get((kind, name), [])
        cells.append(f"{100 * sum(ok for ok, _ in runs) / len(runs):.0f} % of {len(runs)}" if runs else "—")
    return cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--keep", help="keep the drawn pages in this folder (failures are worth looking at)")
    parser.add_argument("--previous", default=PREVIOUS,
                        help=f"measure nonogen's own kinds with this commit's reader first (default {PREVIOUS}, "
                             "the reader before other programs' pages; 'none' to skip)")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    if args.previous != "none":
        previous(args.previous, [k for k in kinds if k in PREVIOUS_KINDS], args)
    if shutil.which("pdftoppm") is None:
        kinds = [k for k in kinds if k not in ("pdf-raster", "colour-raster")]
    rng, puzzles, folder, _ = first_page(args)
    colour = [colour_puzzle(p, rng) for p in puzzles]
    table: dict[tuple[str, str], list[tuple[bool, float]]] = {}
    with ExitStack() as stack:
        display = stack.enter_context(scan_styles.xvfb()) if "tatham" in kinds and _has_xvfb() else ""
        for kind in list(kinds):
            try:
                run_kind(kind, colour if "colour" in kind else puzzles, folder, display, table)
            except scan_styles.Unavailable as exc:
                print(f"  {kind}: skipped, {exc}", flush=True)
                kinds.remove(kind)
    print(f"\n{args.puzzles} puzzles, seed {args.seed}; exact = size and every clue right; s/page = reading only")
    print(f"| kind | {' | '.join(f'{lo}-{hi}' for lo, hi in BANDS)} | all | s/page (mean, max) |")
    print("|---|" + "---|" * (len(BANDS) + 2))
    for kind in kinds:
        cells = band_cells(table, kind)
        times = [s for _, s in table[(kind, "all")]]
        print(f"| {kind} | {' | '.join(cells)} | {np.mean(times):.2f}, {max(times):.2f} |")
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
