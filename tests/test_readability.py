"""The readability score (report key ``recognisability``) against the labelled set, its warnings and the refusal."""
from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from nonogen.cli import main as run_cli
from nonogen.errors import InputError, OptionError
from nonogen.importers.image import ImageOptions, image_to_grid, load_image
from nonogen.importers.quality import READABILITY_MODEL, READABLE, likeness, readability, readability_parts
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


@pytest.fixture(scope="module")
def fitting():
    """scripts/readability_labels.py (the offline fit) with its labelled set measured once."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import readability_labels

    return readability_labels, readability_labels.measured(readability_labels.load())


def test_the_score_separates_the_labelled_set(fitting):
    """ROC AUC over all 328 labels at least 0.88 (0.89 when fitted), held out at least 0.85 (0.86): each fold of
    pictures scored by a model fitted without its labels (issue 34: 0.82 and 0.79 before, the blind batch unfitted)."""
    script, entries = fitting
    assert len(entries) >= 328 and len({e["picture"] for e in entries}) >= 54
    assert _auc(entries) >= 0.88
    rows = script.evaluate(entries)
    assert rows["all"]["cv"] >= 0.85 and len(rows["all"]["folds"]) == script.FOLDS
    # no puzzle of one picture in two folds
    fold = script.folds(np.array([e["picture"] for e in entries]))
    assert all(len(set(fold[[e["picture"] == p for e in entries]])) == 1 for p in {e["picture"] for e in entries})


def test_the_constants_are_what_the_fitting_script_prints(fitting):
    """READABILITY_MODEL is the script's fit to the labels, not hand-tuned: refitting gives the same numbers."""
    script, entries = fitting
    assert list(script.PARTS) == list(readability_parts(*_first(entries)))
    fitted = script.fitted(entries)
    assert fitted.keys() == READABILITY_MODEL.keys()
    assert all(abs(fitted[k] - READABILITY_MODEL[k]) <= 0.002 for k in fitted), fitted


def _first(entries):
    return entries[0]["grid"], entries[0]["reference"], entries[0]["palette"]


def test_a_readable_icon_scores_above_blobs():
    """A heart icon made today reads; a noise field and the black lump black and white made of a mug seen from above
    (labelled: "solid black round disc") do not, though the lump is as round and symmetric as the heart."""
    heart = image_to_grid(load_image(SAMPLES / "icon-heart.png"), ImageOptions(size=(20, 20)))
    noise = np.random.default_rng(5).integers(0, 256, size=(20, 20)).astype(float)
    bw = [Color("bg", "#ffffff", "."), Color("ink", "#000000", "#")]
    lump = labelled()["d9699"]
    assert not lump["y"] and lump["picture"].endswith("photo-coffee.jpg")
    icon = readability(heart.grid, heart.reference, heart.palette)
    blobs = [readability((noise > 128).astype(int), 255 - noise, bw), score(lump)]
    assert icon >= 0.5 > READABLE > max(blobs), (icon, blobs)


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
