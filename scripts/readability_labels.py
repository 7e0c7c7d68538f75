"""The labelled readability sets against the report's score: AUC, the fit, the warning's threshold, a contact sheet.

Two labelled sets (samples/readability/): the older one (``labels.csv`` and ``puzzles.json``: 328 puzzles of 54
pictures, photos, icons, flat drawings and pixel art) and the FIT half of the blind round on 72 real photographs
(``photos-r1/``: the 36 photos of ``split.json``'s ``fit``, 144 grids, each named or not by two judges who never
saw the photos; a grid is readable when both named it). The JUDGE half is never read here except by
``--round-key``, which writes its scores without printing them: it is judged once, by
scripts/readability_round.py ``score``, never fitted or tuned on.

Used by scripts/bench_picture_quality.py, and on its own:

* ``python scripts/readability_labels.py`` prints the table: ROC AUC of today's
  ``recognisability``, of the first model (four parts, fitted to the first 148
  labels) and of the oldest figure (``likeness``: tone SSIM and edge F) on the
  labels, in-sample and held out (k-fold by picture), overall and per category
  (``photo r1`` is the round's FIT half), the AUC of each held-out fold, and
  what the warning catches on the FIT photos and on the older set;
* ``--fit`` refits the logistic model over the five readability parts on both
  sets and chooses the warning's threshold, and prints both for
  ``quality.READABILITY_MODEL`` and ``quality.READABLE``;
* ``--sheet OUT.png`` draws every labelled grid with its label and score;
* ``--nested`` chooses the parts too inside each fold (forward selection among
  CANDIDATES by the AUC of inner folds of the other pictures), so neither the
  parts nor their weights saw the fold's labels; it prints what each fold chose;
* ``--round-key DIR`` writes DIR/round.json: the round's key
  (photos-r1/judged/round-key.json) with every grid's recognisability and
  warning as today's code gives them (from the stored grid and reference), for
  ``readability_round.py score DIR judge-1.csv judge-2.csv``. Nothing is printed.

The fit is plain L2-regularised logistic regression on standardised parts
(numpy and scipy, both dependencies already), each puzzle weighted by one over
the number of puzzles of its picture: every picture counts once, so the 13
photos the older set drew fifteen ways each do not outvote the 36 of the round
(fitted flat, the older set's symmetry and tone order weigh twice what the
round's photos support). Held out: the pictures are dealt into FOLDS folds
(largest first, each to the fold with the fewest puzzles so far, so every
puzzle of a photo lands in the same fold); each fold is scored by a model
fitted to the other folds' labels only.

The threshold: the lowest recognisability (in hundredths) under which the
warning (with the always-warned near-empty and near-full grids,
:func:`nonogen.importers.quality.near_blank`) fires on at least WARN_HITS of
the FIT photos' unnamed grids, each scored held out; the false alarms on the
named ones are what they are, and printed.
"""
from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "samples" / "readability"
ROUND = SET / "photos-r1"
PARTS = ("lost_detail", "symmetry", "tone_order", "solid_mass", "frame_pieces")
L2 = 1.0
"""Ridge penalty on the standardised coefficients: keeps a five-number model from chasing single puzzles."""
FOLDS = 5
WARN_HITS = 0.8
"""Share of the FIT photos' unnamed grids the warning must catch (the photos issue: at least 80 %)."""
FIRST_MODEL = {"intercept": 2.655, "subject": 2.954, "lost_detail": -4.041, "frame_pieces": -0.293,
               "tone_order": 1.811}
"""The first readability model (logit), fitted to the first 148 labels: the baseline the table prints (it chose the
picture pipeline's drawings until 2026-11-27)."""
CANDIDATES = (*PARTS, "subject", "speck_share", "fill_share", "fidelity", "edge_f")
"""Figures of the made grid, picture and palette the nested check may choose from (the quality module's own)."""
PHOTOS = "photo r1"
"""The category of the round's FIT grids in the table."""


def _decoded(p: dict) -> dict:
    from nonogen.palette import Color

    return {"grid": np.array([[0 if ch == "." else ord(ch) - 96 for ch in line] for line in p["grid"]]),
            "reference": np.array([[int(line[i:i + 2], 16) for i in range(0, len(line), 2)] for line in p["reference"]],
                                  float),
            "palette": [Color(f"c{i}", rgb, "x") for i, rgb in enumerate(p["palette"])], "mode": p["mode"]}


def load() -> list[dict]:
    """Every puzzle of the older set: grid, reference, palette and label (1 readable, 0 not), in labels.csv's order."""
    puzzles = {p["id"]: p for p in json.loads((SET / "puzzles.json").read_text())}
    with open(SET / "labels.csv", newline="") as f:
        return [{**row, **_decoded(puzzles[row["id"]]), "y": int(row["label"] == "readable")}
                for row in csv.DictReader(f)]


def load_photos() -> list[dict]:
    """The FIT half of round r1 (never the JUDGE half): each grid labelled 1 when both judges named its subject.

    The halves are told apart before any grid or answer is read; a tile of the JUDGE half is skipped unread.
    """
    sys.path.insert(0, str(ROOT / "scripts"))
    from readability_round import named

    fit = set(json.loads((ROUND / "split.json").read_text())["fit"])
    key = json.loads((ROUND / "judged" / "round-key.json").read_text())
    tiles = {i: t for i, t in key["tiles"].items() if t.get("photo") in fit}
    answers = []
    for name in ("judge-1.csv", "judge-2.csv"):
        with open(ROUND / "judged" / name, newline="") as f:
            answers.append({row["id"].strip(): (row.get("name") or "").strip() for row in csv.DictReader(f)
                            if row["id"].strip() in tiles})
    label = {g: int(all(named(a[i], t["accepted"]) for a in answers)) for i, t in tiles.items() for g in t["grids"]}
    return [{"id": p["id"], "picture": p["picture"], "category": PHOTOS, "version": p["version"], **_decoded(p),
             "y": label[p["id"]]}
            for p in json.loads((ROUND / "puzzles.json").read_text()) if Path(p["picture"]).name in fit]


def everything() -> list[dict]:
    """Both labelled sets, the older first: what the model is fitted to."""
    return load() + load_photos()


def auc(scores, labels) -> float:
    """ROC AUC: the chance a readable puzzle scores above an unreadable one (ties count half)."""
    s, y = np.asarray(scores, float), np.asarray(labels)
    pos, neg = s[y == 1], s[y == 0]
    if not len(pos) or not len(neg):
        return float("nan")
    return float(((pos[:, None] > neg).sum() + 0.5 * (pos[:, None] == neg).sum()) / (len(pos) * len(neg)))


def weights(pictures: np.ndarray) -> np.ndarray:
    """One over the number of puzzles of each puzzle's picture, scaled to a mean of 1: every picture counts once."""
    _, inverse, counts = np.unique(pictures, return_inverse=True, return_counts=True)
    w = 1.0 / counts[inverse]
    return w * len(w) / w.sum()


def fit(x: np.ndarray, y: np.ndarray, w: np.ndarray | None = None) -> tuple[float, np.ndarray]:
    """Intercept and coefficients (on the raw parts) of the weighted L2-regularised logistic fit on standardised
    parts."""
    from scipy.optimize import minimize

    w = np.ones(len(y)) if w is None else w
    mu, sd = x.mean(0), x.std(0) + 1e-9
    z = (x - mu) / sd

    def loss(p):
        t = z @ p[1:] + p[0]
        return float(np.sum(w * (np.logaddexp(0, t) - y * t)) + 0.5 * L2 * np.sum(p[1:] ** 2))

    def grad(p):
        r = w * (1 / (1 + np.exp(-(z @ p[1:] + p[0]))) - y)
        return np.concatenate([[r.sum()], z.T @ r + L2 * p[1:]])

    p = minimize(loss, np.zeros(x.shape[1] + 1), jac=grad, method="L-BFGS-B").x
    coef = p[1:] / sd
    return float(p[0] - coef @ mu), coef


def folds(pictures: np.ndarray, k: int = FOLDS) -> np.ndarray:
    """The fold (0..k-1) of every puzzle: pictures dealt largest first to the fold with the fewest puzzles so far."""
    names, counts = np.unique(pictures, return_counts=True)
    size, fold = [0] * k, {}
    for count, name in sorted(zip(-counts, names, strict=True)):
        fold[name] = int(np.argmin(size))
        size[fold[name]] -= int(count)
    return np.array([fold[p] for p in pictures])


def held_out(x: np.ndarray, y: np.ndarray, fold: np.ndarray, pictures: np.ndarray) -> np.ndarray:
    """Each puzzle's logit from a model fitted without its fold (so without any puzzle of its picture)."""
    out, w = np.zeros(len(y)), weights(pictures)
    for k in np.unique(fold):
        test = fold == k
        b, coef = fit(x[~test], y[~test], w[~test])
        out[test] = b + x[test] @ coef
    return out


def _arrays(entries: list[dict], keys=PARTS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (np.array([[e["parts"][k] for k in keys] for e in entries]), np.array([e["y"] for e in entries]),
            np.array([e["picture"] for e in entries]))


def fitted(entries: list[dict]) -> dict[str, float]:
    """The model fitted to every label, rounded as quality.READABILITY_MODEL holds it."""
    x, y, pictures = _arrays(entries)
    b, coef = fit(x, y, weights(pictures))
    return {"intercept": round(b, 3), **{k: round(float(c), 3) for k, c in zip(PARTS, coef, strict=True)}}


def held_out_scores(entries: list[dict]) -> np.ndarray:
    """Every puzzle's recognisability from the model fitted without its fold (5 folds by picture)."""
    x, y, pictures = _arrays(entries)
    return 1 / (1 + np.exp(-held_out(x, y, folds(pictures), pictures)))


def warned(scores: np.ndarray, entries: list[dict], threshold: float) -> np.ndarray:
    """Whether the report warns: a score under the threshold, or a near-empty or near-full grid."""
    from nonogen.importers.quality import near_blank

    return (np.asarray(scores) < threshold) | np.array([near_blank(e["grid"]) is not None for e in entries])


def threshold(entries: list[dict], held: np.ndarray) -> float:
    """The lowest threshold (hundredths) that warns on WARN_HITS of the FIT photos' unnamed grids, scored held out."""
    photos = np.array([e["category"] == PHOTOS for e in entries])
    unnamed = photos & (np.array([e["y"] for e in entries]) == 0)
    for t in np.arange(1, 100) / 100:
        if warned(held, entries, float(t))[unnamed].mean() >= WARN_HITS:
            return float(t)
    return 1.0


def nested(entries: list[dict]) -> list[str]:
    """Held out with the parts chosen inside each fold: the AUC per fold and overall, and what each fold chose."""
    from nonogen.importers.figure import subject_share
    from nonogen.importers.quality import edge_f, fidelity, fill_share, speck_share

    for e in entries:
        e["candidates"] = {**e["parts"], "subject": subject_share(e["grid"]), "speck_share": speck_share(e["grid"]),
                           "fill_share": fill_share(e["grid"]), "fidelity": fidelity(e["grid"], e["reference"]) or 0.0,
                           "edge_f": edge_f(e["grid"], e["reference"]) or 0.0}
    x, y, pictures = _arrays([{**e, "parts": e["candidates"]} for e in entries], CANDIDATES)
    fold, out, lines = folds(pictures), np.zeros(len(y)), []
    for k in np.unique(fold):
        train = fold != k
        chosen = _forward(x[train], y[train], folds(pictures[train], FOLDS - 1), pictures[train])
        b, coef = fit(x[train][:, chosen], y[train], weights(pictures[train]))
        out[~train] = b + x[~train][:, chosen] @ coef
        chose = ", ".join(CANDIDATES[i] for i in chosen)
        lines.append(f"  fold {k}: AUC {auc(out[~train], y[~train]):.3f}, chose {chose}")
    photos = np.array([e["category"] == PHOTOS for e in entries])
    overall = (f"held out, parts chosen inside each fold too: AUC {auc(out, y):.3f} (FIT photos "
               f"{auc(out[photos], y[photos]):.3f}, older set {auc(out[~photos], y[~photos]):.3f})")
    return [overall, *lines]


def _forward(x: np.ndarray, y: np.ndarray, fold: np.ndarray, pictures: np.ndarray) -> list[int]:
    """Columns added one at a time while the inner held-out AUC gains more than 0.002."""
    chosen: list[int] = []
    best = 0.0
    while len(chosen) < x.shape[1]:
        score, column = max((auc(held_out(x[:, chosen + [c]], y, fold, pictures), y), c)
                            for c in range(x.shape[1]) if c not in chosen)
        if score <= best + 0.002:
            break
        chosen, best = chosen + [column], score
    return chosen


def measured(entries: list[dict]) -> list[dict]:
    """Today's score, its parts, the first model's score and the old likeness of every labelled puzzle."""
    from nonogen.importers.figure import frame_pieces, subject_share
    from nonogen.importers.quality import likeness, lost_detail, readability, readability_parts, tone_order

    for e in entries:
        grid, reference, palette = e["grid"], e["reference"], e["palette"]
        e["parts"] = readability_parts(grid, reference, palette)
        e["score"] = readability(grid, reference, palette)
        e["old"] = likeness(grid, reference)
        first = {"subject": subject_share(grid), "lost_detail": lost_detail(grid, reference),
                 "frame_pieces": frame_pieces(grid), "tone_order": tone_order(grid, reference, palette)}
        e["first"] = FIRST_MODEL["intercept"] + sum(FIRST_MODEL[k] * v for k, v in first.items())
    return entries


def labelled() -> list[dict]:
    """Both sets measured: what the fit, the tests and the benchmark use."""
    return measured(everything())


def evaluate(entries: list[dict]) -> dict:
    """AUCs of the new score and the old one, in-sample and held out, overall and per category; what the warning
    catches on the FIT photos and the older set, fitted and held out."""
    from nonogen.importers.quality import READABLE

    x, y, pictures = _arrays(entries)
    fold = folds(pictures)
    cv = held_out(x, y, fold, pictures)
    new, old = np.array([e["score"] for e in entries]), np.array([e["old"] for e in entries])
    first = np.array([e["first"] for e in entries])
    rows = {}
    for name in ["all", *sorted({e["category"] for e in entries}), f"{PHOTOS} today"]:
        sel = np.array([name in ("all", e["category"], f"{e['category']} {e.get('version')}") for e in entries])
        rows[name] = {"n": int(sel.sum()), "readable": int(y[sel].sum()), "new": auc(new[sel], y[sel]),
                      "cv": auc(cv[sel], y[sel]), "first": auc(first[sel], y[sel]), "old": auc(old[sel], y[sel])}
    held = 1 / (1 + np.exp(-cv))
    photos = np.array([e["category"] == PHOTOS for e in entries])
    today = photos & np.array([e.get("version") == "today" for e in entries])
    rows["all"]["warned"] = {}
    for name, s in (("fitted", new), ("held out", held)):
        w = warned(s, entries, READABLE)
        for part, sel in (("FIT photos", photos), ("FIT photos, today's grids", today), ("older set", ~photos)):
            rows["all"]["warned"][f"{part}, {name}"] = (int((w & sel & (y == 0)).sum()), int((sel & (y == 0)).sum()),
                                                         int((w & sel & (y == 1)).sum()), int((sel & (y == 1)).sum()))
    rows["all"]["folds"] = [(int((fold == k).sum()), auc(cv[fold == k], y[fold == k])) for k in np.unique(fold)]
    rows["all"]["threshold"] = threshold(entries, held)
    return rows


def table(rows: dict) -> list[str]:
    from nonogen.importers.quality import READABLE

    head = (f"{'labelled set':12} {'puzzles':>7} {'readable':>9} {'AUC new':>8} {'held out':>9} {'1st model':>9} "
            f"{'likeness':>8}")
    lines = [head]
    for name, r in rows.items():
        lines.append(f"{name:12} {r['n']:7d} {r['readable'] / r['n']:9.0%} {r['new']:8.3f} {r['cv']:9.3f} "
                     f"{r['first']:9.3f} {r['old']:8.3f}")
    lines.append(f"held out, {len(rows['all']['folds'])} folds by picture (puzzles: AUC): "
                 + ", ".join(f"{n}: {a:.3f}" for n, a in rows["all"]["folds"]))
    lines += [f"warning (under {READABLE:.2f}, or near-empty or near-full), {name}: warns {a} of {b} unnamed "
              f"({a / max(b, 1):.0%}) and {c} of {d} named ({c / max(d, 1):.0%})"
              for name, (a, b, c, d) in rows["all"]["warned"].items()]
    lines.append(f"threshold chosen on the FIT photos held out (>= {WARN_HITS:.0%} of the unnamed warned): "
                 f"{rows['all']['threshold']:.2f}")
    return lines


def sheet(entries: list[dict], out: Path, box: int = 96) -> None:
    """Every labelled grid in its palette, readable ones first, each captioned with its label and score."""
    from PIL import Image, ImageDraw

    order = sorted(entries, key=lambda e: (-e["y"], e["score"]))
    cols = 12
    img = Image.new("RGB", (cols * (box + 8) + 8, ((len(order) + cols - 1) // cols) * (box + 22) + 8), "white")
    draw = ImageDraw.Draw(img)
    for i, e in enumerate(order):
        x, y = 8 + (i % cols) * (box + 8), 8 + (i // cols) * (box + 22)
        colours = np.array([c.rgb_tuple for c in e["palette"]], dtype=np.uint8)
        cell = max(1, box // max(e["grid"].shape))
        tile = Image.fromarray(colours[e["grid"]], "RGB").resize((e["grid"].shape[1] * cell, e["grid"].shape[0] * cell),
                                                                 Image.Resampling.NEAREST)
        img.paste(tile, (x, y + 14))
        draw.text((x, y), f"{'R' if e['y'] else 'not'} {e['score']:.2f}", fill=(0, 110, 0) if e["y"] else (190, 0, 0))
    out.parent.mkdir(parents=True, exist_ok=True)
    img.save(out)


def round_key(out: Path) -> None:
    """OUT/round.json: round r1's key with every grid's score and warning as today's code gives them (both halves,
    for readability_round.py ``score``). Prints nothing: the JUDGE half is judged once, by the scorer."""
    from nonogen.importers.quality import readability, unreadable

    key = json.loads((ROUND / "judged" / "round-key.json").read_text())
    for p in json.loads((ROUND / "puzzles.json").read_text()):
        d = _decoded(p)
        score = readability(d["grid"], d["reference"], d["palette"])
        info = key["grids"][p["id"]]
        info["recognisability" if info["version"] == "today" else "recognisability_today"] = score
        info["warned"] = bool(unreadable(d["grid"], d["reference"], d["palette"]))
    out.mkdir(parents=True, exist_ok=True)
    (out / "round.json").write_text(json.dumps(key, indent=1) + "\n")


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    if "--round-key" in argv:
        round_key(Path(argv[argv.index("--round-key") + 1]))
        return 0
    entries = labelled()
    if "--fit" in argv:
        print("READABILITY_MODEL = " + json.dumps(fitted(entries)))
        print(f"READABLE = {threshold(entries, held_out_scores(entries))}")
        return 0
    print("\n".join(table(evaluate(entries))))
    if "--nested" in argv:
        print("\n".join(nested(entries)))
    if "--sheet" in argv:
        sheet(entries, Path(argv[argv.index("--sheet") + 1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
