"""A blind labelling round for samples/readability: sheets for judges who never saw the photos, then their labels.

``make ROUND OUT``: the blind-batch photos (scripts/bench_picture_quality.py's
BLIND_PHOTOS) made by the nonogen on the path in colour (the default) and
black and white; every grid no judge has labelled yet goes on contact sheets
of 16 under a random id, drawn alone in its palette with no clues, name,
setting or score, mixed with CONTROLS grids judges already labelled. Writes
OUT/sheet-N.png, OUT/round.json (what each id is; not for the judge's eyes)
and OUT/README.txt (the rule, for the judge).

``add ROUND OUT``: reads OUT/labels.csv (``id,label,note`` from the judge),
reports how many controls got their earlier label, and appends the new grids
and labels to samples/readability (``batch`` blind, ids ROUND + 4 digits).

Usage: .venv/bin/python scripts/readability_blind.py make|add ROUND OUT
"""
from __future__ import annotations

import csv
import json
import random
import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "samples" / "readability"
CONTROLS = 8
BOX = 220
RULE = """Each tile is a solved black-and-white or colour nonogram (a picture made of square cells), under an id.
For each id answer: can someone who has not seen the source tell what the grid shows, at a glance (a few
seconds), from the grid alone? `readable` when you can name the subject ("a cat", "a sailboat", "a face",
"coins"); `not` when it is a blob field, a shape you cannot name, or only a guess among several things.
Be demanding: if you are not fairly sure, `not`. Write labels.csv with the header id,label,note and one
line per id (note: a few words of what you saw)."""


def _photos() -> list[str]:
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_picture_quality import BLIND_PHOTOS

    return BLIND_PHOTOS


def _made(path: str, bw: bool) -> dict:
    from nonogen.importers.image import ImageOptions, image_to_grid, load_image

    result = image_to_grid(load_image(str(ROOT / path)), ImageOptions(**({"mode": "bw"} if bw else {})))
    grid = ["".join(".abcdefghijklmnop"[v] for v in row) for row in result.grid.tolist()]
    reference = ["".join(f"{int(round(v)):02x}" for v in row) for row in result.reference.tolist()]
    return {"picture": path, "category": "photo", "settings": {"mode": "bw"} if bw else {},
            "width": len(grid[0]), "height": len(grid), "mode": "bw" if bw else result.info.get("mode", "color"),
            "palette": ["#%02x%02x%02x" % c.rgb_tuple for c in result.palette], "grid": grid,
            "reference": reference, "batch": "blind"}


def _draw(entry: dict) -> Image.Image:
    cell = max(2, BOX // max(entry["width"], entry["height"]))
    colours = [tuple(int(h[i:i + 2], 16) for i in (1, 3, 5)) for h in entry["palette"]]
    img = Image.new("RGB", (entry["width"] * cell, entry["height"] * cell), "white")
    draw = ImageDraw.Draw(img)
    for r, row in enumerate(entry["grid"]):
        for c, ch in enumerate(row):
            if ch != ".":
                draw.rectangle([c * cell, r * cell, (c + 1) * cell - 1, (r + 1) * cell - 1],
                               fill=colours[".abcdefghijklmnop".index(ch)])
    return img


def _sheets(tiles: list[tuple[str, Image.Image]], out: Path) -> None:
    for n in range(0, len(tiles), 16):
        sheet = Image.new("RGB", (4 * (BOX + 30), 4 * (BOX + 40)), (235, 235, 235))
        for k, (tile_id, img) in enumerate(tiles[n:n + 16]):
            x, y = (k % 4) * (BOX + 30) + 15, (k // 4) * (BOX + 40) + 25
            sheet.paste(img, (x, y))
            ImageDraw.Draw(sheet).text((x, y - 16), tile_id, fill="black")
        sheet.save(out / f"sheet-{n // 16 + 1}.png")


def make(prefix: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    puzzles = json.loads((SET / "puzzles.json").read_text())
    known = {(p["picture"], tuple(p["grid"])) for p in puzzles}
    fresh, seen = [], set()
    for path in _photos():
        for bw in (False, True):
            entry = _made(path, bw)
            key = (path, tuple(entry["grid"]))
            if key not in known and key not in seen:
                seen.add(key)
                fresh.append(entry)
    rng = random.Random(prefix)
    with open(SET / "labels.csv", newline="") as f:
        labels = {row["id"]: row["label"] for row in csv.DictReader(f)}
    blind = [p for p in puzzles if p.get("batch") == "blind"]
    controls = rng.sample(blind, min(CONTROLS, len(blind)))
    ids = rng.sample(range(1000, 10000), len(fresh) + len(controls))
    fresh_ids, control_ids = ids[:len(fresh)], ids[len(fresh):]
    round_ = [dict(e, id=f"{prefix}{i}") for e, i in zip(fresh, fresh_ids, strict=True)]
    round_ += [{"id": f"{prefix}{i}", "control": c["id"], "control_label": labels[c["id"]]}
               for c, i in zip(controls, control_ids, strict=True)]
    order = rng.sample(round_, len(round_))
    tiles = [(e["id"], _draw(e if "grid" in e else next(p for p in puzzles if p["id"] == e["control"]))) for e in order]
    _sheets(tiles, out)
    (out / "round.json").write_text(json.dumps(round_, indent=0))
    (out / "README.txt").write_text(RULE + "\n")
    print(f"{len(fresh)} new grids, {len(controls)} controls, {(len(tiles) + 15) // 16} sheets in {out}")


def add(prefix: str, out: Path) -> None:
    round_ = {e["id"]: e for e in json.loads((out / "round.json").read_text())}
    with open(out / "labels.csv", newline="") as f:
        judged = {row["id"].strip(): row for row in csv.DictReader(f)}
    missing = sorted(set(round_) - set(judged))
    if missing:
        raise SystemExit(f"labels.csv lacks {len(missing)} ids, e.g. {missing[:3]}")
    controls = [e for e in round_.values() if "control" in e]
    same = sum(judged[e["id"]]["label"].strip() == e["control_label"] for e in controls)
    print(f"controls: {same} of {len(controls)} got their earlier label")
    new = [e for e in round_.values() if "grid" in e]
    puzzles = json.loads((SET / "puzzles.json").read_text())
    puzzles += [dict(e, pipeline="this session") for e in new]
    lines = ",\n".join(json.dumps(p, separators=(",", ":")) for p in puzzles)
    (SET / "puzzles.json").write_text("[\n" + lines + "\n]\n")
    with open(SET / "labels.csv", "a", newline="") as f:
        writer = csv.writer(f)
        for e in new:
            row = judged[e["id"]]
            flags = "--mode bw" if e["settings"] else ""
            writer.writerow([e["id"], e["picture"], "photo", flags, "this session", f"puzzles.json#{e['id']}",
                             row["label"].strip(), row.get("note", "").strip()])
    readable = sum(judged[e["id"]]["label"].strip() == "readable" for e in new)
    print(f"{len(new)} grids added, {readable} labelled readable")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("make", "add"):
        raise SystemExit(__doc__)
    (make if sys.argv[1] == "make" else add)(sys.argv[2], Path(sys.argv[3]))
