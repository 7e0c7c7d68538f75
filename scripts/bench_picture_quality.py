"""Benchmark picture -> puzzle quality: the previous pipeline beside today's, per picture and per style, in one run.

The picture set is samples/images/ (credited in its SOURCES.md): public-domain
and CC0 photos (scikit-image's sample photos) and Tango icons, the project's
own drawn photos, icons and flat drawings, and pixel art. Photos are made 30
cells wide, icons and flat drawings 20x20, pixel art at its native size, each
with ``--line-solvable`` like the demo. Styles:

* photos: ``colour`` (the default of both) and ``bw`` (``--mode bw``); today's
  frames a photo on its subject, and its figures are measured on that frame;
* icons: ``bw`` (the default), ``outline`` and ``fill`` (``--style``; the
  previous pipeline had one black-and-white rendering) and ``colour`` (4);
* flat drawings and pixel art: the default.

The previous pipeline is ``git archive PREVIOUS`` unpacked in the temp folder;
each pipeline runs all its cases in one worker process. Every figure is
measured here on the returned solution against the same reference: the
picture laid on the grid as the puzzle lays it (padded, never stretched).

Printed per run and as medians per category and style: recognisability
(today's readability score, fitted to the labelled set), likeness (the figure
it replaced: (tone SSIM + Canny edge F) / 2), fidelity (tone SSIM, same
geometry), one-cell block share, fill share, mean CIEDE2000 to the picture's
colours, unique and line-solvable, givens + edits per cell, seconds. The
issue's targets are checked at the end; then a 24-megapixel JPEG at 40x30
(seconds and peak memory). A contact sheet goes to outputs/picture-quality.png.

Then the labelled readability sets (samples/readability: the older set and
the FIT half of round r1's real photographs, see
scripts/readability_labels.py): ROC AUC on its labels of the score, of the
first model and of likeness, in-sample and held out (5 folds by picture, each
scored by a model fitted without its labels; the AUC of each fold), the share
labelled readable per category, what the warning catches on the FIT photos
and the older set (counts, fitted and held out); the share of this run's puzzles
that score as readable, per category and style; and its contact sheet,
outputs/readability-labels.png.

Last, the blind batch: the 13 photos made again by both pipelines in colour and black and white, each grid
looked up among the labels of judges who never saw the photos: the share labelled readable.

Usage: .venv/bin/python scripts/bench_picture_quality.py [--quick] [--previous REV]
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
PREVIOUS = "07c0a63"  # main when issue 34 (pictures: subject first, an honest score) was taken up
PICTURES = ROOT / "samples" / "images"
SHEET = ROOT / "outputs" / "picture-quality.png"
LABEL_SHEET = ROOT / "outputs" / "readability-labels.png"
STYLES = {
    "photo": {"colour": ({}, {}), "bw": ({"mode": "bw"}, {"mode": "bw"})},
    "icon": {"bw": ({}, {}), "outline": ({}, {"style": "outline"}), "fill": ({}, {"style": "fill"}),
             "colour": ({"colors": 4}, {"colors": 4})},
    "flat": {"default": ({}, {})},
    "pixel": {"default": ({}, {})},
}
"""Per category and style: (options for the previous pipeline, options for today's)."""


def category(path: Path) -> str:
    name = path.name
    if name.startswith("photo-") or name == "landscape.jpg":
        return "photo"
    if name.startswith(("icon-", "tango_")) or name == "sphere-soft-alpha.png":
        return "icon"
    return "flat" if name.startswith("flat-") else "pixel"


def cases(quick: bool) -> list[dict]:
    """One spec per picture and style: the path, the size options and both pipelines' options."""
    out = []
    paths = sorted(p for p in PICTURES.iterdir() if p.suffix in (".png", ".jpg", ".gif"))
    for path in paths[::3] if quick else paths:
        kind = category(path)
        size: dict = {"width": 30} if kind == "photo" else {"size": [20, 20]} if kind in ("icon", "flat") else {}
        for style, (old, new) in STYLES[kind].items():
            out.append({"path": str(path), "name": path.name, "category": kind, "style": style, "size": size,
                        "old": {**size, **old}, "new": {**size, **new}})
    return out


# --- the worker: one process per pipeline -----------------------------------------------------------


def worker(specs: list[dict], which: str) -> list[dict]:
    """Make every case with whichever nonogen is on the path; return what the parent measures."""
    from nonogen.importers.image import ImageOptions
    from nonogen.make.picture import from_image

    out = []
    for spec in specs:
        options = {k: tuple(v) if k == "size" else v for k, v in spec[which].items()}
        start = time.perf_counter()
        try:
            made = from_image(spec["path"], options=ImageOptions(**options), line_solvable=True, timeout=60)
        except Exception as exc:  # a failing case is a row, not a crash
            out.append({"error": f"{type(exc).__name__}: {exc}"[:100]})
            continue
        rep = made.report
        subject = rep.get("import", {}).get("subject")
        # before subjects, "subject" named how binarize found one
        subject = subject if isinstance(subject, dict) else {}
        out.append({"box": subject.get("box") if subject.get("used", True) else None,
            "status": rep["status"], "line_solvable": rep["line_solvable"],
            "fixes": len(rep["givens"]) + len(rep["edits"]),
            "grid": np.asarray(made.solution).tolist(), "palette": [list(c.rgb_tuple) for c in made.puzzle.palette],
            "seconds": round(time.perf_counter() - start, 3), "warnings": rep.get("warnings", []),
            "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        })
    return out


def previous_tree(rev: str) -> Path:
    """The nonogen package as it was at ``rev``, unpacked once into the temp folder (C module copied when unchanged)."""
    where = Path(tempfile.gettempdir()) / f"nonogen-{rev}"
    if not (where / "nonogen").is_dir():
        where.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "nonogen"], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
        built = list((ROOT / "nonogen" / "solve").glob("_linelogic*.so"))
        if built and _c_sources(where / "nonogen" / "solve") == _c_sources(ROOT / "nonogen" / "solve"):
            (where / "nonogen" / "solve" / built[0].name).write_bytes(built[0].read_bytes())
    return where


def _c_sources(solve: Path) -> dict[str, bytes]:
    """The C module's source files in a solve/ folder (one .c before c-split, several and a header after)."""
    return {path.name: path.read_bytes() for path in sorted(solve.glob("*.[ch]"))}


def run_pipeline(which: str, specs: list[dict], rev: str) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(previous_tree(rev) if which == "old" else ROOT))
    done = subprocess.run([sys.executable, __file__, "--worker", which], input=json.dumps(specs), env=env,
                          capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise SystemExit(f"{which} pipeline failed: {done.stderr.strip()[-400:]}")
    return json.loads(done.stdout)


# --- measuring ----------------------------------------------------------------------------------------


def references(spec: dict, result: dict) -> tuple[np.ndarray, np.ndarray]:
    """The picture's luma and colour per cell, laid on the grid as the puzzle lays it (padded like it): the whole
    picture, or the box a photo was framed on (``box`` in the result, from its report)."""
    from nonogen.importers.image import ImageOptions, image_to_grid, load_image

    picture = load_image(spec["path"])
    if result.get("box"):
        picture = picture.crop(tuple(result["box"]))
    rows, cols = np.asarray(result["grid"]).shape
    imported = image_to_grid(picture, ImageOptions(size=(cols, rows), fit="pad", mode="bw"))
    return imported.reference, imported.reference_rgb


def measure(result: dict, ref: np.ndarray, ref_rgb: np.ndarray) -> dict:
    from nonogen.importers.quality import edge_f, fidelity, fill_share, likeness, mean_delta_e, readability, speck_share
    from nonogen.palette import Color, to_hex

    if "error" in result:
        return result
    grid = np.array(result["grid"])
    if grid.shape != ref.shape:
        return {**result, "error": f"grid {grid.shape} vs reference {ref.shape}"}
    palette = [Color(f"c{i}", to_hex(rgb), "x") for i, rgb in enumerate(result["palette"])]
    return {**result, "recog": readability(grid, ref, palette), "like": likeness(grid, ref),
            "fidelity": fidelity(grid, ref), "edge": edge_f(grid, ref),
            "speck": speck_share(grid), "fill": fill_share(grid), "de": mean_delta_e(grid, ref_rgb, palette),
            "ok": result["status"] == "unique", "fix_share": result["fixes"] / grid.size}


# --- printing -----------------------------------------------------------------------------------------

FIELDS = ("recog", "like", "fidelity", "speck", "fill", "de", "fix_share", "seconds")


def _fmt(res: dict) -> str:
    if "error" in res:
        return f"error: {res['error']}"[:58]
    status = ("U" if res["ok"] else res["status"][:4]) + ("L" if res["line_solvable"] else "-")
    return (f"{res['recog']:5.2f} {res['like']:5.2f} {res['fidelity']:5.2f} {res['speck']:5.2f} {res['fill']:5.2f} "
            f"{res['de']:5.1f} "
            f"{res['fixes']:4d} {status:>3} {res['seconds']:5.2f}")


def _median(rows: list[dict], which: str, field: str) -> float:
    values = [r[which][field] for r in rows if "error" not in r[which] and r[which][field] is not None]
    return statistics.median(values) if values else float("nan")


def _share(rows: list[dict], which: str, key: str) -> float:
    return sum(1 for r in rows if r[which].get(key)) / max(len(rows), 1)


def summary(rows: list[dict]) -> list[str]:
    lines = [f"{'medians':16} {'':4} " + " ".join(f"{f:>9}" for f in FIELDS) + "    unique  line-solv"]
    groups = sorted({(r["category"], r["style"]) for r in rows}, key=lambda g: (list(STYLES).index(g[0]), g[1]))
    for kind, style in groups:
        sel = [r for r in rows if (r["category"], r["style"]) == (kind, style)]
        for which in ("old", "new"):
            vals = " ".join(f"{_median(sel, which, f):9.3f}" for f in FIELDS)
            lines.append(f"{kind + ' ' + style:16} {which:4} {vals}    {_share(sel, which, 'ok'):6.0%} "
                         f"{_share(sel, which, 'line_solvable'):9.0%}")
    return lines


def targets(rows: list[dict]) -> list[str]:
    """Issue 34's targets, each with today's figure and whether it is met: specks as medians, fill and time per
    run (every default output inside 10-75 % fill; every photo of about 30x30 within 2 s)."""
    def med(kind: str, style: str, field: str) -> float:
        return _median([r for r in rows if r["category"] == kind and r["style"] == style], "new", field)

    made = [r["new"] for r in rows if "error" not in r["new"]]
    default_style = {"photo": "colour", "icon": "bw"}  # what `nonogen image` makes with no style asked
    defaults = [r["new"] for r in rows
                if "error" not in r["new"] and r["style"] == default_style.get(r["category"], "default")]
    photos = [r["new"] for r in rows if "error" not in r["new"] and r["category"] == "photo"
              and np.size(r["new"]["grid"]) <= 1000]  # about 30x30 (a tall subject 30 wide is 30x120)
    checks = [("colour photos: specks <= 0.12 (median)", med("photo", "colour", "speck"), lambda v: v <= 0.12),
              ("B&W photos: specks <= 0.05 (median)", med("photo", "bw", "speck"), lambda v: v <= 0.05),
              ("default outputs outside 10-75 % fill (count)",
               sum(not 0.10 <= r["fill"] <= 0.75 for r in defaults), lambda v: v == 0),
              ("slowest photo of <= 1000 cells, seconds (<= 2)", max((r["seconds"] for r in photos), default=0.0),
               lambda v: v <= 2.0),
              ("all unique", sum(1 for r in made if r.get("ok")) / max(len(made), 1), lambda v: v == 1.0),
              ("line-solvable >= 95 %", _share(rows, "new", "line_solvable"), lambda v: v >= 0.95),
              ("colour icons: specks <= 0.25 (median)", med("icon", "colour", "speck"), lambda v: v <= 0.25)]
    return [f"  {'met ' if ok(v) else 'MISS'} {name}: {v:.3f}" for name, v, ok in checks]


# --- the contact sheet --------------------------------------------------------------------------------


def grid_picture(result: dict, box: int) -> Image.Image:
    if "error" in result:
        return Image.new("RGB", (box, box), (255, 200, 200))
    grid = np.array(result["grid"])
    colours = np.array(result["palette"], dtype=np.uint8)
    cell = max(1, box // max(grid.shape))
    img = Image.fromarray(colours[grid], "RGB").resize((grid.shape[1] * cell, grid.shape[0] * cell),
                                                       Image.Resampling.NEAREST)
    ImageDraw.Draw(img).rectangle([0, 0, img.width - 1, img.height - 1], outline=(160, 160, 160))
    return img


def contact_sheet(rows: list[dict], out: Path) -> None:
    """One line per picture: the picture, then previous and today's solution for each of its styles."""
    box, head = 128, 14
    names = list(dict.fromkeys(r["name"] for r in rows))
    most = max(len(STYLES[r["category"]]) for r in rows)
    sheet = Image.new("RGB", (box * (1 + 2 * most) + 8, (box + 2 * head) * len(names)), "white")
    draw = ImageDraw.Draw(sheet)
    for i, name in enumerate(names):
        y = i * (box + 2 * head)
        mine = [r for r in rows if r["name"] == name]
        draw.text((4, y + 1), name[:16], fill=(0, 0, 90))
        with Image.open(PICTURES / name) as im:
            pic = im.convert("RGBA")
        pic.thumbnail((box - 8, box - 8))
        paper = Image.new("RGBA", pic.size, (255, 255, 255, 255))
        paper.alpha_composite(pic)
        sheet.paste(paper.convert("RGB"), (4, y + head))
        for k, row in enumerate(mine):
            for j, which in enumerate(("old", "new")):
                x = box * (1 + 2 * k + j)
                res = row[which]
                label = f"{which} {row['style']}"
                if "error" not in res:
                    label += f" R{res['recog']:.2f} s{res['speck']:.2f}"
                draw.text((x + 2, y + 1), label, fill=(0, 0, 0) if res.get("ok") else (200, 0, 0))
                sheet.paste(grid_picture(res, box - 8), (x + 2, y + head))
    out.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(out)


def big_photo_check(rev: str) -> list[str]:
    """A 24-megapixel JPEG at 40x30 (the default: colour today, black and white before): seconds and peak
    memory of a process that makes only that puzzle, previous and today."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from make_sample_images import landscape

    path = Path(tempfile.gettempdir()) / "nonogen-bench-24mp.jpg"
    if not path.is_file():
        big = Image.fromarray(landscape(320, 240), "RGB").resize((6000, 4000), Image.Resampling.BICUBIC)
        big.save(path, quality=85)
    spec = {"path": str(path), "old": {"size": [40, 30]}, "new": {"size": [40, 30]}}
    lines = []
    for which in ("old", "new"):
        res = run_pipeline(which, [spec], rev)[0]
        lines.append(f"24 MP JPEG -> 40x30, {'previous' if which == 'old' else 'today'}: "
                     + (res.get("error") or f"{res['seconds']:.2f} s, peak {res['peak_mb']:.0f} MB"))
    return lines


BLIND_PHOTOS = sorted(str(p.relative_to(ROOT)) for p in PICTURES.glob("photo-*.jpg")) + [
    "samples/images/landscape.jpg", "samples/readability/pictures/photo-coins.jpg"]
"""The photos of the blind batch (samples/readability/README.md): each made with the default and --mode bw."""
PHOTOGRAPHS = {"samples/images/photo-astronaut.jpg", "samples/images/photo-cameraman.jpg",
               "samples/images/photo-chelsea.jpg", "samples/images/photo-coffee.jpg",
               "samples/images/photo-falcon9.jpg",
               "samples/readability/pictures/photo-coins.jpg"}
"""The blind photos taken with a camera (samples/images/SOURCES.md); the other seven are drawn by the project to
look like photos (a subject on a blotched, noisy gradient). Counted apart because the two read very differently."""


def blind_worker() -> list[dict]:
    """The imported grid of every blind-batch photo in both modes, with whichever nonogen is on the path."""
    from nonogen.importers.image import ImageOptions, image_to_grid, load_image

    out = []
    for path in BLIND_PHOTOS:
        for mode in ("default", "bw"):
            options = ImageOptions(**({"mode": "bw"} if mode == "bw" else {}))
            result = image_to_grid(load_image(str(ROOT / path)), options)
            out.append({"picture": path, "mode": mode, "grid": ["".join(".abcdefghijklmnop"[v] for v in row)
                                                                for row in result.grid.tolist()]})
    return out


def blind_report(rev: str) -> list[str]:
    """Share of the blind-batch photos labelled readable, previous pipeline and today's, per mode: each made again
    and looked up by its grid among the labels (a grid no judge saw is counted as unlabelled)."""
    import csv

    labelled = {}
    puzzles = {p["id"]: p for p in json.loads((ROOT / "samples/readability/puzzles.json").read_text())}
    with open(ROOT / "samples/readability/labels.csv", newline="") as f:
        for row in csv.DictReader(f):
            p = puzzles[row["id"]]
            labelled[(p["picture"], tuple(p["grid"]))] = row["label"]
    lines = ["blind labels (judges who never saw the photos) of the photos as each pipeline makes them now:"]
    for which in ("old", "new"):
        env = dict(os.environ, PYTHONPATH=str(previous_tree(rev) if which == "old" else ROOT))
        done = subprocess.run([sys.executable, __file__, "--blind"], env=env, capture_output=True, text=True,
                              timeout=1800)
        if done.returncode != 0:
            lines.append(f"  {which}: failed: {done.stderr.strip()[-200:]}")
            continue
        for mode in ("default", "bw"):
            made = [r for r in json.loads(done.stdout) if r["mode"] == mode]
            got = [labelled.get((r["picture"], tuple(r["grid"]))) for r in made]
            readable, known = sum(g == "readable" for g in got), sum(g is not None for g in got)
            taken = [g for r, g in zip(made, got, strict=True) if r["picture"] in PHOTOGRAPHS]
            name = f"previous {rev}" if which == "old" else "today"
            lines.append(f"  {name:18} {mode:8} {readable:2} of {known} labelled readable "
                         f"({len(got) - known} unlabelled):"
                         f" photographs {taken.count('readable')} of {len(taken)},"
                         f" drawn photos {readable - taken.count('readable')} of {len(got) - len(taken)}")
            if which == "new":
                wanted = BLIND_TARGETS[mode]
                met = readable >= wanted * len(got)
                lines.append(f"  {'met ' if met else 'MISS'} {mode} >= {wanted:.0%} readable: "
                             f"{readable / max(len(got), 1):.0%}")
    return lines


BLIND_TARGETS = {"default": 0.8, "bw": 0.7}
"""Issue 34's targets for the blind batch: the share of photos labelled readable (colour default, black and white);
counted over all 13, the two scenes without a subject (landscape, coins) included."""


def main(argv: list[str]) -> int:
    if argv[:1] == ["--worker"]:
        print(json.dumps(worker(json.loads(sys.stdin.read()), argv[1])))
        return 0
    if argv[:1] == ["--blind"]:
        print(json.dumps(blind_worker()))
        return 0
    sys.path.insert(0, str(ROOT))
    rev = argv[argv.index("--previous") + 1] if "--previous" in argv else PREVIOUS
    specs = cases("--quick" in argv)
    old, new = run_pipeline("old", specs, rev), run_pipeline("new", specs, rev)
    rows = []
    columns = ": recog  like   fid speck  fill    dE  fix  ok     s"
    print(f"{'picture':26} {'style':8}| {'previous ' + rev + columns:58} | today")
    for spec, o, n in zip(specs, old, new, strict=True):
        row = {**spec, "old": o if "error" in o else measure(o, *references(spec, o)),
               "new": n if "error" in n else measure(n, *references(spec, n))}
        rows.append(row)
        print(f"{spec['name'][:26]:26} {spec['style']:8}| {_fmt(row['old']):58} | {_fmt(row['new'])}")
    print()
    print("\n".join(summary(rows)))
    print("\ntargets (today):")
    print("\n".join(targets(rows)))
    warned = [r for r in rows if "error" not in r["new"] and any("may not read" in w for w in r["new"]["warnings"])]
    specky = [r for r in rows if "error" not in r["new"] and any("single cells" in w for w in r["new"]["warnings"])]
    print(f"\nreadability warnings today: {len(warned)} of {len(rows)} runs "
          f"(median recognisability warned {_median(warned, 'new', 'recog'):.2f}, "
          f"not warned {_median([r for r in rows if r not in warned], 'new', 'recog'):.2f}); "
          f"one-cell block warnings: {len(specky)}")
    print()
    print("\n".join(big_photo_check(rev)))
    contact_sheet(rows, SHEET)
    print(f"contact sheet: {SHEET.relative_to(ROOT)}")
    print()
    print("\n".join(readability_report(rows)))
    print()
    print("\n".join(blind_report(rev)))
    return 0


def readability_report(rows: list[dict]) -> list[str]:
    """The labelled set's table, this run's share scoring as readable per category and style, the set's sheet."""
    from nonogen.importers.quality import READABLE

    sys.path.insert(0, str(ROOT / "scripts"))
    import readability_labels as labelled

    entries = labelled.labelled()
    lines = labelled.table(labelled.evaluate(entries))
    lines += ["", f"scoring as readable (recognisability >= {READABLE:.2f}), previous -> today:"]
    groups = sorted({(r["category"], r["style"]) for r in rows}, key=lambda g: (list(STYLES).index(g[0]), g[1]))
    for kind, style in groups:
        sel = [r for r in rows if (r["category"], r["style"]) == (kind, style)]
        shares = [sum(1 for r in sel if (r[w].get("recog") or 0) >= READABLE) / len(sel) for w in ("old", "new")]
        lines.append(f"  {kind + ' ' + style:16} {shares[0]:5.0%} -> {shares[1]:5.0%}   ({len(sel)} runs)")
    labelled.sheet(entries, LABEL_SHEET)
    lines.append(f"labelled set's contact sheet: {LABEL_SHEET.relative_to(ROOT)}")
    return lines


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
