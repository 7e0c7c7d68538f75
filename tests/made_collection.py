"""A collection folder made the way a user without a many-source run makes one, for the publishing tests.

One ``nonogen.save`` per source into OUT/<name> (what separate ``nonogen image`` / ``nonogen mesh`` calls
write) and, if asked, a hand-written ``collection.jsonl`` in the records of the collection contract, with
a failed and a duplicate source whose text is hostile HTML.
"""
from __future__ import annotations

import json
from pathlib import Path

import nonogen

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
HOSTILE = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'
PICTURES = ("icon-heart.png", "icon-gear.png", "heart-pixelart-x10.png", "flat-fish.png")
BLACK_AND_WHITE = {"icon-heart.png", "icon-gear.png"}
"""Made with ``mode="bw"`` (the default draws them in colour): two black-and-white puzzles of other grades than the
colour ones, one of which needs givens that ``puzzle.non`` cannot hold (a file left out, with its warning).
Drawings are made 20 cells wide, the default before round r5 (30 since), at which the heart needs those givens."""
WIDTH = {"icon-heart.png": 20, "icon-gear.png": 20, "flat-fish.png": 20}


def make_collection(out: Path, pictures=PICTURES, meshes=("mug.glb",), records: bool = True) -> Path:
    """OUT/<stem>/ per source through the Python API, and (with ``records``) a collection.jsonl over them."""
    lines = []
    for name in pictures:
        made = nonogen.from_image(SAMPLES / "images" / name, mode="bw" if name in BLACK_AND_WHITE else "auto",
                                  width=WIDTH.get(name))
        folder = nonogen.save(made, out / Path(name).stem)
        report = made.report
        lines.append({"source": str(SAMPLES / "images" / name), "name": folder.name, "kind": "image", "status": "made",
                      "width": report["width"], "height": report["height"], "grade": report["grade"],
                      "warnings": report["warnings"], "error": None, "error_kind": None, "duplicate_of": None})
    for mesh in meshes:
        level = nonogen.from_mesh(SAMPLES / "meshes" / mesh, size=10 if mesh in ("chair.off", "dog.stl") else 8)
        nonogen.save(level, out / Path(mesh).stem)
        lines.append({"source": str(SAMPLES / "meshes" / mesh), "name": Path(mesh).stem, "kind": "mesh",
                      "status": "made", "grade": level.report["grade"], "error": None})
    if records:
        lines += [
            {"source": f"/photos/{HOSTILE}.png", "name": None, "kind": "image", "status": "failed",
             "error": f"cannot read {HOSTILE}", "error_kind": "format", "duplicate_of": None},
            {"source": "/photos/again.png", "name": None, "kind": "image", "status": "duplicate",
             "error": None, "error_kind": None, "duplicate_of": Path(pictures[0]).stem},
        ]
        (out / "collection.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return out
