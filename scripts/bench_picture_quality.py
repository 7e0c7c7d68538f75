"""Benchmark picture -> puzzle quality: the pipeline as it was at commit 75e881d beside today's, per picture.

Every picture of samples/images/ (photos with a subject, icons with outlines
and soft shading, flat drawings, pixel art; see samples/images/SOURCES.md) is
made into a puzzle twice per pipeline, black and white and with ``--colors 4``,
both with ``--line-solvable``: photos 30 cells wide, icons and flat drawings at
20x20, pixel art at its native size. Each run is its own process (so peak memory
is that run's), and the old pipeline runs from ``git archive 75e881d``.

Measured per run: status and line-solvability, givens + edits, fidelity
(luminance SSIM of the solution painted in the picture's means against the
picture area-averaged to the grid), the smallest CIEDE2000 distance between
palette entries, the share of one-cell clue blocks, the fill share, seconds
(in the process, after imports) and peak memory. Then a 24-megapixel JPEG at
40x30, and the speed targets (32x32 B&W, 64x64 with 4 colours). A contact sheet
(picture, old and new solutions) goes to outputs/picture-quality.png.

Usage: .venv/bin/python scripts/bench_picture_quality.py [--quick]
"""
from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
if sys.argv[1:2] != ["--worker"]:  # a worker runs whichever nonogen PYTHONPATH names
    sys.path.insert(0, str(ROOT))
    from nonogen.importers.quality import fidelity, fill_share, speck_share
    from nonogen.palette import Color, min_palette_distance

OLD_COMMIT = "75e881d"
PICTURES = ROOT / "samples" / "images"
SHEET = ROOT / "outputs" / "picture-quality.png"


def cases(quick: bool) -> list[tuple[str, str, dict]]:
    """(category, file name, size options) for every benchmark picture."""
    out: list[tuple[str, str, dict]] = []
    for path in sorted(PICTURES.iterdir()):
        name = path.name
        if name.startswith("photo-") or name in ("landscape.jpg", "sphere-soft-alpha.png"):
            with Image.open(path) as im:
                square = im.width == im.height
            out.append(("photo", name, {"size": [30, 30]} if square else {"width": 30}))
        elif name.startswith("icon-") or name.startswith("tango_"):
            out.append(("icon", name, {"size": [20, 20]}))
        elif name.startswith("flat-"):
            out.append(("flat", name, {"size": [20, 20]}))
        elif path.suffix in (".png", ".gif"):
            out.append(("pixel", name, {}))
    return out[::4] if quick else out


# --- one run, in its own process ------------------------------------------------------------------


def worker(spec: dict) -> dict:
    """Run ``from_image`` of whichever nonogen is on the path; print what the parent measures."""
    from nonogen.importers.image import ImageOptions
    from nonogen.make.picture import from_image

    options = dict(spec["options"])
    for key in ("size",):
        if key in options:
            options[key] = tuple(options[key])
    warm = time.perf_counter()  # the first picture pays for the lazy imports (scipy, scikit-image)
    tiny = Image.new("RGB", (24, 24), "white")
    ImageDraw.Draw(tiny).ellipse([4, 4, 20, 20], fill="red")
    from_image(tiny, options=ImageOptions(size=(6, 6), **({"colors": 2} if "colors" in options else {})), timeout=10)
    imports = time.perf_counter() - warm
    start = time.perf_counter()
    made = from_image(spec["path"], options=ImageOptions(**options), line_solvable=True, timeout=60)
    seconds = time.perf_counter() - start
    rep = made.report
    return {
        "status": rep["status"],
        "line_solvable": rep["line_solvable"],
        "givens": len(rep["givens"]),
        "edits": len(rep["edits"]),
        "grid": np.asarray(made.solution).tolist(),
        "palette": [[c.name, c.rgb, c.char] for c in made.puzzle.palette],
        "seconds": round(seconds, 3),
        "import_seconds": round(imports, 3),
        "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "warnings": rep.get("warnings", []),
    }


def old_tree() -> Path:
    """The nonogen package as it was at :data:`OLD_COMMIT`, unpacked once into the temp folder."""
    where = Path(tempfile.gettempdir()) / f"nonogen-{OLD_COMMIT}"
    if not (where / "nonogen").is_dir():
        where.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", OLD_COMMIT, "nonogen"], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
        old_c = subprocess.run(["git", "-C", str(ROOT), "show", f"{OLD_COMMIT}:nonogen/solve/_linelogic.c"],
                               capture_output=True).stdout
        built = list((ROOT / "nonogen" / "solve").glob("_linelogic*.so"))
        if built and old_c == (ROOT / "nonogen" / "solve" / "_linelogic.c").read_bytes():
            (where / "nonogen" / "solve" / built[0].name).write_bytes(built[0].read_bytes())
    return where


def run(pipeline: str, path: Path, options: dict) -> dict:
    env = dict(os.environ, PYTHONPATH=str(old_tree() if pipeline == "old" else ROOT))
    spec = json.dumps({"path": str(path), "options": options})
    done = subprocess.run([sys.executable, __file__, "--worker", spec], env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["?"])[-1][:100]}
    return json.loads(done.stdout)


# --- measuring --------------------------------------------------------------------------------------


def reference(path: Path, rows: int, cols: int) -> np.ndarray:
    """The picture over white, area-averaged (BOX) to the grid, as luma."""
    with Image.open(path) as im:
        rgba = im.convert("RGBA")
    paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    paper.alpha_composite(rgba)
    return np.asarray(paper.convert("RGB").resize((cols, rows), Image.Resampling.BOX).convert("L"), dtype=np.float64)


def measure(result: dict, path: Path) -> dict:
    if "error" in result:
        return result
    grid = np.array(result["grid"])
    palette = [Color(n, rgb, ch) for n, rgb, ch in result["palette"]]
    dist = min_palette_distance(palette)
    result.update(
        fidelity=fidelity(grid, reference(path, *grid.shape)),
        min_distance=dist,
        bg_distance=_bg_distance(palette),
        speck=speck_share(grid),
        fill=fill_share(grid),
        fixes=result["givens"] + result["edits"],
        fix_share=(result["givens"] + result["edits"]) / grid.size,
        ok=result["status"] == "unique" and result["line_solvable"],
    )
    return result


def _bg_distance(palette: list[Color]) -> float:
    from nonogen.palette import distance_matrix

    return round(float(distance_matrix([c.rgb_tuple for c in palette])[0, 1:].min()), 2) if len(palette) > 1 else 100.0


# --- the contact sheet ------------------------------------------------------------------------------


def grid_picture(result: dict, cell: int) -> Image.Image:
    if "error" in result:
        return Image.new("RGB", (cell * 10, cell * 10), (255, 200, 200))
    grid = np.array(result["grid"])
    colours = np.array([Color(n, rgb, ch).rgb_tuple for n, rgb, ch in result["palette"]], dtype=np.uint8)
    if len(colours) == 2 and result["palette"][1][1] == "#000000":
        colours[0] = (255, 255, 255)
    img = Image.fromarray(colours[grid], "RGB").resize((grid.shape[1] * cell, grid.shape[0] * cell), Image.Resampling.NEAREST)
    ImageDraw.Draw(img).rectangle([0, 0, img.width - 1, img.height - 1], outline=(160, 160, 160))
    return img


def contact_sheet(rows: list[dict], out: Path) -> None:
    """One row per picture: the picture, then old and new solutions for B&W and for 4 colours."""
    box, cell, per_row = 120, 4, 2
    head = 16
    width = box * 5 + 20
    lines = (len(rows) + per_row - 1) // per_row
    sheet = Image.new("RGB", (width * per_row, head + (box + head) * lines), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    for c in range(per_row):
        for i, title in enumerate(["picture", "old B&W", "new B&W", "old 4 colours", "new 4 colours"]):
            draw.text((c * width + i * box + 6, 2), title, fill=(0, 0, 0))
    for r, row in enumerate(rows):
        x0, y = (r % per_row) * width, head + (r // per_row) * (box + head)
        draw.text((x0 + 6, y + 2), row["name"][:22], fill=(0, 0, 90))
        with Image.open(row["path"]) as im:
            pic = im.convert("RGBA")
        pic.thumbnail((box - 12, box - 12))
        paper = Image.new("RGBA", pic.size, (255, 255, 255, 255))
        paper.alpha_composite(pic)
        sheet.paste(paper.convert("RGB"), (x0 + 6, y + head))
        for k, key in enumerate(["old bw", "new bw", "old colour", "new colour"]):
            res = row[key]
            if "error" not in res:
                draw.text((x0 + (k + 1) * box + 6, y + 2), f"F{res['fidelity']:.2f} s{res['speck']:.2f} d{res['min_distance']:.0f}",
                          fill=(0, 0, 0) if res["ok"] else (200, 0, 0))
            picture = grid_picture(res, cell)
            picture.thumbnail((box - 12, box - 12), Image.Resampling.NEAREST)
            sheet.paste(picture, (x0 + (k + 1) * box + 6, y + head))
    out.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(out)


# --- the report ---------------------------------------------------------------------------------------


def _fmt(res: dict) -> str:
    if "error" in res:
        return f"error: {res['error']}"[:58]
    status = ("U" if res["status"] == "unique" else res["status"][:4]) + ("L" if res["line_solvable"] else "-")
    return (f"{status:>5} {res['fixes']:>3} {res['fidelity'] if res['fidelity'] is not None else float('nan'):5.2f} "
            f"{res['min_distance']:5.1f} {res['speck']:5.2f} {res['fill']:5.2f} {res['seconds']:5.2f} {res['peak_mb']:5.0f}")


def _median(rows: list[dict], key: str, field: str, category: str | None = None) -> float:
    values = [r[key][field] for r in rows if "error" not in r[key] and (category is None or r["category"] == category)
              and r[key][field] is not None]
    return statistics.median(values) if values else float("nan")


def big_photo_check() -> list[str]:
    """A 24-megapixel JPEG at 40x30: seconds and peak memory, old and new."""
    from make_sample_images import landscape

    path = Path(tempfile.gettempdir()) / "nonogen-bench-24mp.jpg"
    if not path.is_file():
        Image.fromarray(landscape(320, 240), "RGB").resize((6000, 4000), Image.Resampling.BICUBIC).save(path, quality=85)
    lines = []
    for pipeline in ("old", "new"):
        res = run(pipeline, path, {"size": [40, 30]})
        lines.append(f"24 MP JPEG -> 40x30, {pipeline}: " + (res.get("error") or f"{res['seconds']:.2f} s, peak {res['peak_mb']:.0f} MB"))
    return lines


def main(argv: list[str]) -> int:
    if argv[:1] == ["--worker"]:
        print(json.dumps(worker(json.loads(argv[1]))))
        return 0
    sys.path.insert(0, str(ROOT / "scripts"))
    quick = "--quick" in argv
    rows = []
    print(f"{'picture':28} {'run':7} | {'old: stat fix  fid   dE2k speck  fill    s    MB':58} | new")
    for category, name, size in cases(quick):
        path = PICTURES / name
        row = {"name": name, "category": category, "path": path}
        for run_name, extra_old, extra_new in (("bw", {}, {"mode": "bw"}), ("colour", {"colors": 4}, {"colors": 4})):
            row[f"old {run_name}"] = measure(run("old", path, {**size, **extra_old}), path)
            row[f"new {run_name}"] = measure(run("new", path, {**size, **extra_new}), path)
            print(f"{name[:28]:28} {run_name:7} | {_fmt(row[f'old {run_name}']):58} | {_fmt(row[f'new {run_name}'])}", flush=True)
        rows.append(row)
    print()
    fields = ("ok", "fix_share", "fidelity", "min_distance", "speck", "fill", "seconds", "peak_mb")
    print(f"medians {'':22} " + " ".join(f"{f:>12}" for f in fields))
    for category in (None, "photo", "icon", "flat", "pixel"):
        for run_name in ("bw", "colour"):
            for pipe in ("old", "new"):
                key = f"{pipe} {run_name}"
                vals = []
                for f in fields:
                    if f == "ok":
                        sel = [r[key] for r in rows if category in (None, r["category"])]
                        vals.append(f"{sum(1 for x in sel if x.get('ok')) / max(len(sel), 1):12.0%}")
                    else:
                        vals.append(f"{_median(rows, key, f, category):12.3f}")
                print(f"{(category or 'all'):6} {key:22} " + " ".join(vals))
    print()
    for line in big_photo_check():
        print(line)
    contact_sheet(rows, SHEET)
    print(f"contact sheet: {SHEET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
