"""The scan guide's photo example: a sample puzzle's sheet, printed with a stain over one clue, photographed (hard),
scanned; writes the photo, the page the scanner redrew flat, and prints the scan's report.

Deterministic: the sheet is nonogen's own PNG render of samples/puzzles/webpbn-00006.non (20x20) at 192 dpi on a
white page, the stain and the photo are seeded. Writes docs/_static/scan-photo.jpg and scan-photo-flat.jpg.

Usage: .venv/bin/python scripts/scan_photo_example.py [--out docs/_static]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import photo_sim  # noqa: E402

import nonogen  # noqa: E402
from nonogen.importers.scan.pages import read_pages  # noqa: E402
from nonogen.importers.scan.photo import flat_grids  # noqa: E402
from nonogen.importers.scan.read import read_page  # noqa: E402

PUZZLE = ROOT / "samples" / "puzzles" / "webpbn-00006.non"
SEED, SIDE = 3, 1700
STAINED = ("column", 7)
"""The clue a stain half covers: its first number."""


def printed(folder: Path) -> np.ndarray:
    """The sheet on a white page of A4's proportions, with a grey stain over the lower half of a clue's number."""
    from PIL import Image

    puzzle = nonogen.load(PUZZLE)
    nonogen.draw(puzzle, folder / "sheet.png", dpi=192, force=True)
    (found,) = read_page(read_pages(folder / "sheet.png")[0])
    kind, line = STAINED
    item = (found.cols if kind == "column" else found.rows)[line - 1][0]
    with Image.open(folder / "sheet.png") as img:
        sheet = np.asarray(img.convert("L")).copy()
    x0, y0, x1, y1 = (int(v) for v in item.box)
    yy, xx = np.mgrid[0:sheet.shape[0], 0:sheet.shape[1]]
    blot = ((xx - (x0 + x1) / 2) / (0.9 * (x1 - x0))) ** 2 + ((yy - y1) / (0.45 * (y1 - y0))) ** 2 <= 1
    sheet[blot] = np.minimum(sheet[blot], 185)
    return photo_sim.on_paper(sheet)


def main() -> None:
    from PIL import Image

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "_static"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        page = printed(Path(tmp))
    photo = photo_sim.save_photo(page, out / "scan-photo.jpg", "hard", SEED, side=SIDE)
    with Image.open(photo) as img:
        gray = np.asarray(img.convert("L"))
    (flat,) = flat_grids(gray)
    Image.fromarray(flat.gray).save(out / "scan-photo-flat.jpg", quality=85)
    (found,) = nonogen.scan(photo)
    truth = nonogen.load(PUZZLE)
    print(f"{photo}: {found.result.status}; rows exact: {found.puzzle.rows == truth.rows}, "
          f"columns exact: {found.puzzle.cols == truth.cols}")
    for s in found.suspects:
        print(f"  check {s['line']} {s['clue']} (confidence {s['confidence']:.2f}): {s['why']}")


if __name__ == "__main__":
    main()
