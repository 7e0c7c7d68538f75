"""The readability score (report key ``recognisability``) against the labelled sets, its warnings, what they
suggest (only options tried that scored higher) and the refusal."""
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
from types import SimpleNamespace

from nonogen.importers import advice
from nonogen.importers.quality import (
    READABILITY_MODEL,
    READABLE,
    likeness,
    near_blank,
    readability,
    readability_parts,
    unreadable,
)
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

    return readability_labels, readability_labels.labelled()


def test_the_score_separates_the_labelled_set(fitting):
    """ROC AUC over the 328 older labels and the 144 FIT grids of round r1 at least 0.88 (0.891 when fitted), held out
    at least 0.86 (0.868), the FIT photos alone held out at least 0.80 (0.803): each fold of pictures scored by a model
    fitted without its labels (issue 34: 0.82 and 0.79 before; the photos issue: 0.48 on round r1's JUDGE half for
    the model fitted to the older set alone)."""
    script, entries = fitting
    assert len(entries) >= 472 and len({e["picture"] for e in entries}) >= 90
    assert _auc(entries) >= 0.88
    rows = script.evaluate(entries)
    assert rows["all"]["cv"] >= 0.86 and rows[script.PHOTOS]["cv"] >= 0.80 and len(rows["all"]["folds"]) == script.FOLDS
    # no puzzle of one picture in two folds
    fold = script.folds(np.array([e["picture"] for e in entries]))
    assert all(len(set(fold[[e["picture"] == p for e in entries]])) == 1 for p in {e["picture"] for e in entries})


def test_the_constants_are_what_the_fitting_script_prints(fitting):
    """READABILITY_MODEL and the warning's threshold are the script's fit to the labels, not hand-tuned: refitting
    gives the same numbers."""
    script, entries = fitting
    assert list(script.PARTS) == list(readability_parts(*_first(entries)))
    fitted = script.fitted(entries)
    assert fitted.keys() == READABILITY_MODEL.keys()
    assert all(abs(fitted[k] - READABILITY_MODEL[k]) <= 0.002 for k in fitted), fitted
    assert script.threshold(entries, script.held_out_scores(entries)) == READABLE


def test_the_fit_never_reads_the_judge_half(fitting):
    """Round r1's JUDGE half is judged once, never fitted on: no grid of its photos is among the labels."""
    script, entries = fitting
    split = json.loads((LABELLED / "photos-r1" / "split.json").read_text())
    photos = {Path(e["picture"]).name for e in entries if e["category"] == script.PHOTOS}
    assert photos == set(split["fit"]) and not photos & set(split["judge"])


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


def test_a_busy_picture_is_warned_and_offered_only_what_read_better():
    """A noise field in black and white is warned; whatever it offers was tried and scored higher, else the studio."""
    noise = np.random.default_rng(3).integers(0, 256, size=(200, 200, 3)).astype(np.uint8)
    from scipy.ndimage import gaussian_filter

    busy = np.stack([gaussian_filter(noise[..., k], 3) for k in range(3)], axis=-1)
    busy = ((busy - busy.min()) * (255.0 / max(1, np.ptp(busy)))).astype(np.uint8)
    result = image_to_grid(Image.fromarray(busy, "RGB"), ImageOptions(size=(20, 20), mode="bw", fit="pad"))
    warned = [w for w in result.warnings if "may not read" in w]
    assert warned and ("reads better" in warned[0] or advice.STUDIO in warned[0]), result.warnings
    assert "--" not in warned[0] and "larger size" not in warned[0]  # no flag named, no size guessed
    clean = image_to_grid(load_image(SAMPLES / "photo-cat.jpg"), ImageOptions(size=(30, 30)))
    assert not any("read" in w or "single cells" in w for w in clean.warnings)


def test_a_black_and_white_scene_that_nothing_rescues_points_to_the_studio():
    """The cat-and-laptop photo in black and white, drawn whole: colour and swapped ink were tried and neither read
    better, so the warning says so and ends with the studio."""
    chelsea = image_to_grid(load_image(SAMPLES / "photo-chelsea.jpg"), ImageOptions(width=30, mode="bw", fit="pad"))
    warned = [w for w in chelsea.warnings if "may not read in black and white" in w]
    assert warned and warned[0].endswith(advice.STUDIO) and "in colour" in warned[0], chelsea.warnings


def _moon(radius: int = 40) -> Image.Image:
    """A moon photo: a small bright disc on a dark, slightly noisy sky (the issue's 13 of 900 cells)."""
    rng = np.random.default_rng(1)
    yy, xx = np.mgrid[:600, :600]
    sky = rng.normal(8, 3, (600, 600)) + 200.0 * ((yy - 300) ** 2 + (xx - 300) ** 2 < radius ** 2)
    return Image.fromarray(np.stack([np.clip(sky, 0, 255).astype(np.uint8)] * 3, axis=-1))


def test_a_near_empty_grid_is_warned_whatever_it_scores():
    """The moon: a few cells in a circle score as a balanced figure (0.89 in the issue) but show nothing to name."""
    disc = np.zeros((30, 30), dtype=int)
    disc[14:17, 13:18] = 1
    disc[13, 14:17] = disc[17, 14:17] = 1
    black_on_white = [Color("bg", "#ffffff", "."), Color("ink", "#000000", "#")]
    reference = 255.0 - 200.0 * disc
    assert near_blank(disc) == "empty" and unreadable(disc, reference, black_on_white)
    assert near_blank(1 - disc) == "full" and unreadable(1 - disc, 255 - reference, black_on_white)
    moon = image_to_grid(_moon(), ImageOptions(size=(30, 30), fit="pad"))
    assert near_blank(moon.grid) == "empty"
    warned = [w for w in moon.warnings if "may not read" in w]
    assert warned and f"only {int(np.count_nonzero(moon.grid))} of 900 cells are filled" in warned[0], moon.warnings


def test_the_cli_warning_points_to_the_studio(tmp_path, capsys):
    """The issue: the warning in the CLI points where a person can draw what no option rescues."""
    _moon().save(tmp_path / "moon.png")
    assert run_cli(["image", str(tmp_path / "moon.png"), "-o", str(tmp_path / "out"), "--size", "30x30",
                    "--fit", "pad"]) == 0
    err = capsys.readouterr().err
    assert "nonogen: warning: the picture may not read" in err and "trace it in the studio" in err, err


# --- suggestions: tried, never guessed ----------------------------------------------------------------------

BLOCK = np.zeros((10, 10), dtype=int)
BLOCK[3:7, 2:8] = 1
BW = [Color("bg", "#ffffff", "."), Color("ink", "#000000", "#")]


def _advice(monkeypatch, options, info, trial_scores, base=0.1):
    """The sentence for a warned grid scoring ``base`` whose trials score ``trial_scores[label]`` (every label
    if given as one number), and the labels tried: readability is stubbed by which grid it is asked about."""
    scores, tried = {}, []
    grid = BLOCK.copy()
    scores[id(grid)] = base

    def remake(other):
        label = next(lab for lab, opts in advice.alternatives(options, info) if opts == other)
        tried.append(label)
        made = SimpleNamespace(grid=BLOCK.copy(), reference=np.zeros((10, 10)), palette=BW)
        scores[id(made.grid)] = trial_scores if isinstance(trial_scores, float) else trial_scores[label]
        return made

    monkeypatch.setattr(advice, "readability", lambda g, r, p, model=None: scores[id(g)])
    _, sentence = advice.readability_advice(grid, np.zeros((10, 10)), BW, info=info, options=options, remake=remake)
    return sentence, tried


def _suggested(sentence: str) -> str:
    """The part of a warning that offers something (after the lead and what fails)."""
    return sentence.split(";", 1)[1]


@pytest.mark.parametrize("asked, info, never", [
    ({"mode": "bw"}, {"mode": "bw"}, "in black and white"),
    ({"colors": 4}, {"mode": "color"}, "in colour"),
    ({"invert": True}, {"mode": "bw"}, "swapped"),
    ({"fit": "subject"}, {"mode": "bw", "subject": {"box": [0, 0, 9, 9]}}, "framed on its subject"),
    ({"fit": "pad"}, {"mode": "color", "subject": {"used": False}}, "whole photo"),
    ({"height": 54}, {"mode": "color"}, "size"),
    ({"width": 45, "mode": "bw", "invert": True}, {"mode": "bw"}, "swapped"),
])
def test_a_suggestion_is_never_what_the_user_already_set(monkeypatch, asked, info, never):
    """The issue: after --fit subject the advice said "cropped to its subject", after --invert "with black and white
    swapped", after --height 54 "about 122 cells". Even when every trial scores higher, the user's own option is not
    offered back."""
    options = ImageOptions(**asked)
    sentence, tried = _advice(monkeypatch, options, info, 0.9)
    assert tried and "reads better" in sentence and never not in _suggested(sentence), sentence
    assert all(never not in label for label in tried) and len(tried) <= advice.MAX_TRIALS


def test_a_suggestion_appears_only_when_its_trial_scored_higher(monkeypatch):
    options, info = ImageOptions(mode="bw"), {"mode": "bw", "subject": {"used": False}}
    sentence, tried = _advice(monkeypatch, options, info, {"in colour": 0.05, "with black and white swapped": 0.1,
                                                           "framed on its subject": 0.5})
    assert tried == ["in colour", "framed on its subject", "with black and white swapped"]
    assert _suggested(sentence) == " it reads better framed on its subject (recognisability 0.50)"
    sentence, _ = _advice(monkeypatch, options, info, 0.1)  # no better than the picture: nothing offered
    assert "it reads" not in sentence and sentence.endswith(f"nothing tried reads better ({', '.join(tried)}): "
                                                                   f"{advice.STUDIO}")
    sentence, _ = _advice(monkeypatch, options, info, {"in colour": 0.15, "with black and white swapped": 0.0,
                                                       "framed on its subject": 0.0})
    assert _suggested(sentence) == (f" it reads a little better in colour (0.15), still under {READABLE:g}: "
                                    f"{advice.STUDIO}")


def test_nothing_is_tried_for_a_picture_that_reads(monkeypatch):
    """The trials cost an import each: a picture over the threshold is not made again."""
    def remake(_):
        raise AssertionError("a picture that reads was made again")

    monkeypatch.setattr(advice, "readability", lambda g, r, p, model=None: 0.9)
    assert advice.readability_warnings(BLOCK, np.zeros((10, 10)), BW, info={"mode": "bw"}, options=ImageOptions(),
                                       remake=remake) == []


def test_min_readability_refuses_with_one_line_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "out"
    code = run_cli(["image", str(SAMPLES / "photo-chelsea.jpg"), "-o", str(out), "--mode", "bw", "--fit", "pad",
                    "--min-readability", "0.5"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("nonogen: error: ")
    assert "under the 0.5 asked" in err[0] and ("reads better" in err[0] or advice.STUDIO in err[0])
    assert not out.exists()
    assert run_cli(["image", str(SAMPLES / "flat-fish.png"), "-o", str(out), "--min-readability", "0.5"]) == 0


def test_min_readability_in_python():
    with pytest.raises(InputError, match="under the 0.9 asked"):
        from_image(SAMPLES / "photo-chelsea.jpg", mode="bw", width=30, fit="pad", min_readability=0.9)
    with pytest.raises(OptionError, match="min_readability 1.5"):
        from_image(SAMPLES / "flat-fish.png", min_readability=1.5)
