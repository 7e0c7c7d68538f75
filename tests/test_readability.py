"""The readability score (report key ``recognisability``) against the labelled set, its warnings and the refusal."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from nonogen.cli import main as run_cli
from nonogen.errors import InputError, OptionError
from nonogen.importers.image import ImageOptions, image_to_grid, load_image
from nonogen.importers.quality import READABLE, likeness, readability
from nonogen.make.picture import from_image
from nonogen.palette import Color

ROOT = Path(__file__).resolve().parents[1]
LABELLED = ROOT / "samples" / "readability"
SAMPLES = ROOT / "samples" / "images"


def labelled() -> dict[str, dict]:
    """Every labelled puzzle by id: grid, reference, palette, label (1 readable), picture."""
    puzzles = {p["id"]: p for p in json.loads((LABELLED / "puzzles.json").read_text())}
    out = {}
    with open(LABELLED / "labels.csv", newline="") as f:
        for row in csv.DictReader(f):
            p = puzzles[row["id"]]
            out[row["id"]] = {
                "grid": np.array([[0 if ch == "." else ord(ch) - 96 for ch in line] for line in p["grid"]]),
                "reference": np.array([[int(line[i:i + 2], 16) for i in range(0, len(line), 2)]
                                       for line in p["reference"]], dtype=float),
                "palette": [Color(f"c{i}", rgb, "x") for i, rgb in enumerate(p["palette"])],
                "y": int(row["label"] == "readable"), "picture": row["picture"]}
    return out


def score(entry: dict) -> float:
    return readability(entry["grid"], entry["reference"], entry["palette"])


def test_the_score_orders_pinned_labelled_puzzles_as_people_did():
    """The old figure gave blob fields 0.77-0.83, above pictures people named (issue: readability score)."""
    sets = labelled()
    readable = ["p1950", "p1976", "p5717", "p7909", "p3702"]  # horse, apple, motorcycle, sailboat, portrait
    blobs = ["p3945", "p3961", "p4374", "p5070", "q9320"]  # cat bw, landscape bw, astronaut, cat colour, grey scene
    assert all(sets[k]["y"] for k in readable) and not any(sets[k]["y"] for k in blobs)
    assert min(score(sets[k]) for k in readable) > READABLE > max(score(sets[k]) for k in blobs)
    # the old figure could not: some blob field scores above some readable picture
    assert max(likeness(sets[k]["grid"], sets[k]["reference"]) for k in blobs) > \
        min(likeness(sets[k]["grid"], sets[k]["reference"]) for k in readable)


def _auc(entries) -> float:
    s = np.array([score(e) for e in entries])
    y = np.array([e["y"] for e in entries])
    pos, neg = s[y == 1], s[y == 0]
    return ((pos[:, None] > neg).sum() + 0.5 * (pos[:, None] == neg).sum()) / (len(pos) * len(neg))


def test_the_score_separates_the_labelled_set():
    """ROC AUC over the 148 puzzles the model was fitted to stays at least 0.85 (0.88 when fitted); over the blind
    batch (photos labelled by judges who never saw the photos, never fitted) at least 0.65 (0.69 today)."""
    batch = {p["id"]: p.get("batch") for p in json.loads((LABELLED / "puzzles.json").read_text())}
    entries = labelled()
    fitted = [e for key, e in entries.items() if batch[key] != "blind"]
    blind = [e for key, e in entries.items() if batch[key] == "blind"]
    assert len(fitted) == 148 and len(blind) >= 70
    assert _auc(fitted) >= 0.85 and _auc(blind) >= 0.65


def test_warnings_below_the_threshold_name_what_would_read_better():
    """A busy picture in black and white is warned, naming colour and a larger size; a clean one is not."""
    noise = np.random.default_rng(3).integers(0, 256, size=(200, 200, 3)).astype(np.uint8)
    from scipy.ndimage import gaussian_filter

    busy = np.stack([gaussian_filter(noise[..., k], 3) for k in range(3)], axis=-1)
    busy = ((busy - busy.min()) * (255.0 / max(1, np.ptp(busy)))).astype(np.uint8)
    result = image_to_grid(Image.fromarray(busy, "RGB"), ImageOptions(size=(20, 20), mode="bw", fit="pad"))
    warned = [w for w in result.warnings if "may not read" in w]
    assert warned and "in colour" in warned[0] and "larger size" in warned[0], result.warnings
    assert "--" not in warned[0]  # library sentences name no command-line flag
    clean = image_to_grid(load_image(SAMPLES / "photo-cat.jpg"), ImageOptions(size=(30, 30)))
    assert not any("read" in w or "single cells" in w for w in clean.warnings)


def test_a_black_and_white_scene_is_told_to_try_colour():
    chelsea = image_to_grid(load_image(SAMPLES / "photo-chelsea.jpg"), ImageOptions(width=30, mode="bw", fit="pad"))
    assert any("may not read in black and white" in w and "in colour" in w for w in chelsea.warnings)


def test_min_readability_refuses_with_one_line_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "out"
    code = run_cli(["image", str(SAMPLES / "photo-chelsea.jpg"), "-o", str(out), "--mode", "bw", "--fit", "pad",
                    "--min-readability", "0.5"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("nonogen: error: ")
    assert "under the 0.5 asked" in err[0] and "in colour" in err[0]
    assert not out.exists()
    assert run_cli(["image", str(SAMPLES / "flat-fish.png"), "-o", str(out), "--min-readability", "0.5"]) == 0


def test_min_readability_in_python():
    with pytest.raises(InputError, match="under the 0.9 asked"):
        from_image(SAMPLES / "photo-chelsea.jpg", mode="bw", width=30, fit="pad", min_readability=0.9)
    with pytest.raises(OptionError, match="min_readability 1.5"):
        from_image(SAMPLES / "flat-fish.png", min_readability=1.5)
