"""The labelled readability set (samples/readability/) against the report's scores: AUC, the fit, a contact sheet.

Used by scripts/bench_picture_quality.py, and on its own:

* ``python scripts/readability_labels.py`` prints the table: ROC AUC of today's
  ``recognisability``, of the first model (four parts, fitted to the first 148
  labels: the picture pipeline still chooses drawings by it) and of the oldest
  figure (``likeness``: tone SSIM and edge F)
  on the labels, in-sample and held out (k-fold by picture), overall and per
  category, the AUC of each held-out fold, and what the warning threshold
  catches;
* ``--fit`` refits the logistic model over the five readability parts on every
  label and prints the coefficients for ``quality.READABILITY_MODEL``;
* ``--sheet OUT.png`` draws every labelled grid with its label and score;
* ``--nested`` chooses the parts too inside each fold (forward selection among
  CANDIDATES by the AUC of inner folds of the other pictures), so neither the
  parts nor their weights saw the fold's labels; it prints what each fold chose.

The fit is plain L2-regularised logistic regression on standardised parts
(numpy and scipy, both dependencies already). Held out: the pictures are dealt
into FOLDS folds (largest first, each to the fold with the fewest puzzles so
far, so every puzzle of a photo lands in the same fold); each fold is scored by
a model fitted to the other folds' labels only, so the held-out AUC says how the
formula does on pictures whose labels it never saw. (Which parts the model has
was chosen by looking at the whole set; the README of samples/readability says
how.)
"""
from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "samples" / "readability"
PARTS = ("lost_detail", "symmetry", "tone_order", "solid_mass", "frame_pieces")
L2 = 1.0
"""Ridge penalty on the standardised coefficients: keeps a five-number model from chasing single puzzles."""
FOLDS = 5
FIRST_MODEL = {"intercept": 2.655, "subject": 2.954, "lost_detail": -4.041, "frame_pieces": -0.293,
               "tone_order": 1.811}
"""The first readability model (logit), fitted to the first 148 labels: the baseline the table prints (it chose the
picture pipeline's drawings until 2026-11-27)."""
CANDIDATES = (*PARTS, "subject", "speck_share", "fill_share", "fidelity", "edge_f")
"""Figures of the made grid, picture and palette the nested check may choose from (the quality module's own)."""


def load() -> list[dict]:
    """Every labelled puzzle: its grid, reference, palette and label (1 readable, 0 not), in labels.csv's order."""
    from nonogen.palette import Color

    puzzles = {p["id"]: p for p in json.loads((SET / "puzzles.json").read_text())}
    out = []
    with open(SET / "labels.csv", newline="") as f:
        for row in csv.DictReader(f):
            p = puzzles[row["id"]]
            grid = np.array([[0 if ch == "." else ord(ch) - 96 for ch in line] for line in p["grid"]])
            ref = np.array([[int(line[i:i + 2], 16) for i in range(0, len(line), 2)] for line in p["reference"]], float)
            palette = [Color(f"c{i}", rgb, "x") for i, rgb in enumerate(p["palette"])]
            out.append({**row, "grid": grid, "reference": ref, "palette": palette, "mode": p["mode"],
                        "y": int(row["label"] == "readable")})
    return out


def auc(scores, labels) -> float:
    """ROC AUC: the chance a readable puzzle scores above an unreadable one (ties count half)."""
    s, y = np.asarray(scores, float), np.asarray(labels)
    pos, neg = s[y == 1], s[y == 0]
    if not len(pos) or not len(neg):
        return float("nan")
    return float(((pos[:, None] > neg).sum() + 0.5 * (pos[:, None] == neg).sum()) / (len(pos) * len(neg)))


def fit(x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """Intercept and coefficients (on the raw parts) of the L2-regularised logistic fit on standardised parts."""
    from scipy.optimize import minimize

    mu, sd = x.mean(0), x.std(0) + 1e-9
    z = (x - mu) / sd

    def loss(w):
        t = z @ w[1:] + w[0]
        return float(np.sum(np.logaddexp(0, t) - y * t) + 0.5 * L2 * np.sum(w[1:] ** 2))

    def grad(w):
        r = 1 / (1 + np.exp(-(z @ w[1:] + w[0]))) - y
        return np.concatenate([[r.sum()], z.T @ r + L2 * w[1:]])

    w = minimize(loss, np.zeros(x.shape[1] + 1), jac=grad, method="L-BFGS-B").x
    coef = w[1:] / sd
    return float(w[0] - coef @ mu), coef


def folds(pictures: np.ndarray, k: int = FOLDS) -> np.ndarray:
    """The fold (0..k-1) of every puzzle: pictures dealt largest first to the fold with the fewest puzzles so far."""
    names, counts = np.unique(pictures, return_counts=True)
    size, fold = [0] * k, {}
    for count, name in sorted(zip(-counts, names)):
        fold[name] = int(np.argmin(size))
        size[fold[name]] -= int(count)
    return np.array([fold[p] for p in pictures])


def held_out(x: np.ndarray, y: np.ndarray, fold: np.ndarray) -> np.ndarray:
    """Each puzzle's logit from a model fitted without its fold (so without any puzzle of its picture)."""
    out = np.zeros(len(y))
    for k in np.unique(fold):
        test = fold == k
        b, coef = fit(x[~test], y[~test])
        out[test] = b + x[test] @ coef
    return out


def fitted(entries: list[dict]) -> dict[str, float]:
    """The model fitted to every label, rounded as quality.READABILITY_MODEL holds it."""
    b, coef = fit(np.array([[e["parts"][k] for k in PARTS] for e in entries]), np.array([e["y"] for e in entries]))
    return {"intercept": round(b, 3), **{k: round(float(c), 3) for k, c in zip(PARTS, coef)}}


def nested(entries: list[dict]) -> list[str]:
    """Held out with the parts chosen inside each fold: the AUC per fold and overall, and what each fold chose."""
    from nonogen.importers.figure import subject_share
    from nonogen.importers.quality import edge_f, fidelity, fill_share, speck_share

    for e in entries:
        e["candidates"] = {**e["parts"], "subject": subject_share(e["grid"]), "speck_share": speck_share(e["grid"]),
                           "fill_share": fill_share(e["grid"]), "fidelity": fidelity(e["grid"], e["reference"]) or 0.0,
                           "edge_f": edge_f(e["grid"], e["reference"]) or 0.0}
    x = np.array([[e["candidates"][k] for k in CANDIDATES] for e in entries])
    y, pictures = np.array([e["y"] for e in entries]), np.array([e["picture"] for e in entries])
    fold, out, lines = folds(pictures), np.zeros(len(y)), []
    for k in np.unique(fold):
        train = fold != k
        chosen = _forward(x[train], y[train], folds(pictures[train], FOLDS - 1))
        b, coef = fit(x[train][:, chosen], y[train])
        out[~train] = b + x[~train][:, chosen] @ coef
        lines.append(f"  fold {k}: AUC {auc(out[~train], y[~train]):.3f}, chose {', '.join(CANDIDATES[i] for i in chosen)}")
    return [f"held out, parts chosen inside each fold too: AUC {auc(out, y):.3f}", *lines]


def _forward(x: np.ndarray, y: np.ndarray, fold: np.ndarray) -> list[int]:
    """Columns added one at a time while the inner held-out AUC gains more than 0.002."""
    chosen, best = [], 0.0
    while len(chosen) < x.shape[1]:
        score, column = max((auc(held_out(x[:, chosen + [c]], y, fold), y), c)
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


def evaluate(entries: list[dict]) -> dict:
    """AUCs of the new score and the old one, in-sample and held out, overall and per category."""
    from nonogen.importers.quality import READABLE

    y = np.array([e["y"] for e in entries])
    x = np.array([[e["parts"][k] for k in PARTS] for e in entries])
    fold = folds(np.array([e["picture"] for e in entries]))
    cv = held_out(x, y, fold)
    new, old = np.array([e["score"] for e in entries]), np.array([e["old"] for e in entries])
    first = np.array([e["first"] for e in entries])
    rows = {}
    for name in ["all", *sorted({e["category"] for e in entries})]:
        sel = np.array([name == "all" or e["category"] == name for e in entries])
        rows[name] = {"n": int(sel.sum()), "readable": int(y[sel].sum()), "new": auc(new[sel], y[sel]),
                      "cv": auc(cv[sel], y[sel]), "first": auc(first[sel], y[sel]), "old": auc(old[sel], y[sel]),
                      "caught": float(np.mean(new[sel & (y == 0)] < READABLE)) if (sel & (y == 0)).any() else float("nan"),
                      "false": float(np.mean(new[sel & (y == 1)] < READABLE)) if (sel & (y == 1)).any() else float("nan")}
    held = 1 / (1 + np.exp(-cv))
    rows["all"]["warned"] = {name: (int(((s < READABLE) & (y == 0)).sum()), int((y == 0).sum()),
                                    int(((s < READABLE) & (y == 1)).sum()), int((y == 1).sum()))
                             for name, s in (("fitted", new), ("held out", held))}
    rows["all"]["folds"] = [(int((fold == k).sum()), auc(cv[fold == k], y[fold == k])) for k in np.unique(fold)]
    return rows


def table(rows: dict) -> list[str]:
    from nonogen.importers.quality import READABLE

    head = (f"{'labelled set':12} {'puzzles':>7} {'readable':>9} {'AUC new':>8} {'held out':>9} {'1st model':>9} {'likeness':>8}"
            f"   warned (< {READABLE:.2f}): not-readable / readable")
    lines = [head]
    for name, r in rows.items():
        lines.append(f"{name:12} {r['n']:7d} {r['readable'] / r['n']:9.0%} {r['new']:8.3f} {r['cv']:9.3f} {r['first']:9.3f} {r['old']:8.3f}"
                     f"   {r['caught']:8.0%} / {r['false']:.0%}")
    lines.append(f"held out, {len(rows['all']['folds'])} folds by picture (puzzles: AUC): "
                 + ", ".join(f"{n}: {a:.3f}" for n, a in rows["all"]["folds"]))
    lines += [f"threshold {READABLE:.2f}, {name}: warns {a} of {b} not readable and {c} of {d} readable"
              for name, (a, b, c, d) in rows["all"]["warned"].items()]
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


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    entries = measured(load())
    if "--fit" in argv:
        print("READABILITY_MODEL = " + json.dumps(fitted(entries)))
        return 0
    print("\n".join(table(evaluate(entries))))
    if "--nested" in argv:
        print("\n".join(nested(entries)))
    if "--sheet" in argv:
        sheet(entries, Path(argv[argv.index("--sheet") + 1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
