"""Train the digit model a photo's clue numbers are read with (``nonogen/importers/scan/digit_model.npz``).

Why a model beside the prototypes: a photo's digits are small (8 to 10 pixels high in a phone's picture of a 40x40
puzzle), blurred, noisy and JPEG-blocked, then redrawn larger; matched against drawn prototypes one at a time, a
blurred "7" looked most like some prototype "1", a "6" like an "8", and a page's confusions repeated on every line.
A small network taught on thousands of such degraded digits learns what stays of each digit under blur and what
does not; its scores, added to the prototypes' likeness (:data:`nonogen.importers.scan.digits.MODEL_WEIGHT`), fix
most of what either gets wrong alone.

The training digits are drawn here, from the fonts the digit reader draws its prototypes in (those this machine
has, and Pillow's own), at random sizes, stroke weights, slants and sub-pixel places; most are degraded as a
camera does (blur, a little shake, sensor noise, JPEG) at 7 to 18 pixels high and drawn larger again as the
photo's redraw does, a fifth stay clean. Each is cut out and turned into features exactly as a page's glyph is
(:func:`nonogen.importers.scan.digits.glyph_features`). Nothing here reads a photo of the benchmark: the bench's
pages measure the model, they never teach it. Seeded: the same fonts give the same model.

The network: features -> :data:`HIDDEN` ReLU units -> ten digits, trained with Adam on the cross-entropy. Stored as
float16 (a few hundred kilobytes), with the settings it was made with.

Usage: .venv/bin/python scripts/train_digits.py [--samples N] [--epochs E] [--seed S] [--out FILE]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable, Optional

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nonogen.importers.scan.digits import INK_LEVEL, MODEL_FILE, MODEL_VERSION, glyph_features, font_paths  # noqa: E402

HIDDEN = 256
SAMPLES, EPOCHS, SEED = 120_000, 15, 1
CLEAN = 0.2
"""The share of training digits drawn clean and large (a sheet's), so the model knows undamaged digits too."""
SUPERSAMPLE = 4
"""Digits are drawn this many times larger, then shrunk: a random sub-pixel place, as a camera's pixels fall."""


def _fonts() -> list[Callable[[int], object]]:
    from PIL import ImageFont

    fonts: list[Callable[[int], object]] = [lambda size, p=p: ImageFont.truetype(p, size) for p in font_paths()]
    return fonts + [lambda size: ImageFont.load_default(size=size)]


def _drawn(font_of: Callable[[int], object], digit: str, height: float, rng: np.random.Generator) -> np.ndarray:
    """The digit's ink (0..1) about ``height`` pixels high: a random stroke weight, slant, width and turn."""
    import cv2
    from PIL import Image, ImageDraw

    size = max(6, round(height * 1.4))
    side = size * 3 * SUPERSAMPLE
    img = Image.new("L", (side, side), 0)
    dx, dy = rng.integers(0, SUPERSAMPLE, 2)
    ImageDraw.Draw(img).text((size * SUPERSAMPLE + int(dx), size * SUPERSAMPLE + int(dy)), digit, fill=255,
                             font=font_of(size * SUPERSAMPLE))
    ink = np.asarray(img, np.float32) / 255
    weight = int(rng.integers(-1, 3))
    if weight > 0:
        ink = cv2.dilate(ink, np.ones((2 * weight + 1, 2 * weight + 1), np.uint8))
    elif weight < 0:
        ink = cv2.erode(ink, np.ones((3, 3), np.uint8))
    centre = side / 2
    turn = np.vstack([cv2.getRotationMatrix2D((centre, centre), rng.uniform(-4, 4), 1.0), [0, 0, 1]])
    shape = np.array([[rng.uniform(0.85, 1.15), rng.uniform(-0.12, 0.12), 0], [0, 1, 0], [0, 0, 1]])
    move = turn @ shape
    move[:2, 2] += np.array([centre, centre]) - move[:2, :2] @ np.array([centre, centre])
    ink = cv2.warpAffine(ink, move[:2].astype(np.float32), (side, side), flags=cv2.INTER_LINEAR)
    return cv2.resize(ink, (side // SUPERSAMPLE, side // SUPERSAMPLE), interpolation=cv2.INTER_AREA)


def _photographed(ink: np.ndarray, height: float, rng: np.random.Generator) -> tuple[np.ndarray, float, float]:
    """The ink printed on paper and photographed: grey levels, and the paper's and the ink's levels."""
    import cv2

    paper = rng.uniform(170, 250)
    dark = rng.uniform(10, paper - 90)
    gray = cv2.GaussianBlur(paper - ink * (paper - dark), (0, 0), rng.uniform(0.2, min(1.9, 0.3 + 0.13 * height)))
    if rng.random() < 0.3:  # a little shake
        length = int(rng.integers(2, 4))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, turn, (length, length))
        gray = cv2.filter2D(gray, -1, kernel / max(float(kernel.sum()), 1e-6))
    gray = np.clip(gray + rng.normal(0, rng.uniform(0, 7), gray.shape), 0, 255).astype(np.uint8)
    _, jpeg = cv2.imencode(".jpg", gray, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 95))])
    return cv2.imdecode(jpeg, cv2.IMREAD_GRAYSCALE).astype(np.float32), paper, dark


def _features(gray: np.ndarray, larger: float, paper: float, dark: float) -> Optional[np.ndarray]:
    """The digit cut out as a page's glyph is (its largest blob of ink, a pixel around it), redrawn ``larger``."""
    import cv2

    gray = cv2.resize(gray, None, fx=larger, fy=larger, interpolation=cv2.INTER_LINEAR)
    level = np.clip((paper - gray) / max(paper - dark, 1.0), 0, 1)
    count, labels, stats, _ = cv2.connectedComponentsWithStats((level > INK_LEVEL).astype(np.uint8), connectivity=8)
    if count < 2:
        return None
    blob = 1 + int(np.argmax(stats[1:, 4]))
    x, y, w, h, _ = stats[blob]
    if h < 3:
        return None
    own = cv2.dilate((labels == blob).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    return glyph_features((level * own)[y:y + h, x:x + w])


def training_digits(samples: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``samples`` digits drawn and degraded (see the module's note), as features and their digits."""
    rng = np.random.default_rng(seed)
    fonts = _fonts()
    features, digits = [], []
    while len(features) < samples:
        digit = int(rng.integers(0, 10))
        font = fonts[int(rng.integers(len(fonts)))]
        if rng.random() < CLEAN:
            height = rng.uniform(10, 34)
            ink = _drawn(font, str(digit), height, rng)
            paper, dark = rng.uniform(170, 250), rng.uniform(10, 80)
            found = _features(paper - ink * (paper - dark), 1.0, paper, dark)
        else:
            height = rng.uniform(7, 18)
            gray, paper, dark = _photographed(_drawn(font, str(digit), height, rng), height, rng)
            found = _features(gray, rng.uniform(1.2, 3.0), paper, dark)
        if found is not None:
            features.append(found)
            digits.append(digit)
        if len(features) % 10_000 == 0 and found is not None:
            print(f"  {len(features)} of {samples} digits drawn", file=sys.stderr, flush=True)
    return np.asarray(features, np.float32), np.asarray(digits, np.int64)


def train(features: np.ndarray, digits: np.ndarray, epochs: int, seed: int) -> list[np.ndarray]:
    """A network features -> HIDDEN ReLU -> 10 trained on the digits (Adam, batches of 128, the rate halved every
    five epochs): its weights and biases ``[w1, b1, w2, b2]``."""
    rng = np.random.default_rng(seed)
    inputs = features.shape[1]
    params = [rng.normal(0, np.sqrt(2 / inputs), (inputs, HIDDEN)).astype(np.float32), np.zeros(HIDDEN, np.float32),
              rng.normal(0, np.sqrt(2 / HIDDEN), (HIDDEN, 10)).astype(np.float32), np.zeros(10, np.float32)]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    step = 0
    for epoch in range(epochs):
        rate = 1e-3 * 0.5 ** (epoch // 5)
        order = rng.permutation(len(features))
        loss = 0.0
        for start in range(0, len(order), 128):
            batch = order[start:start + 128]
            x, y = features[batch], digits[batch]
            hidden = np.maximum(x @ params[0] + params[1], 0)
            scores = hidden @ params[2] + params[3]
            scores -= scores.max(axis=1, keepdims=True)
            probs = np.exp(scores)
            probs /= probs.sum(axis=1, keepdims=True)
            loss -= float(np.log(probs[np.arange(len(y)), y] + 1e-9).sum())
            probs[np.arange(len(y)), y] -= 1
            probs /= len(y)
            back = (probs @ params[2].T) * (hidden > 0)
            grads = [x.T @ back, back.sum(axis=0), hidden.T @ probs, probs.sum(axis=0)]
            step += 1
            for k, (param, grad) in enumerate(zip(params, grads, strict=True)):
                first[k] = 0.9 * first[k] + 0.1 * grad
                second[k] = 0.999 * second[k] + 0.001 * grad * grad
                param -= rate * (first[k] / (1 - 0.9 ** step)) / (np.sqrt(second[k] / (1 - 0.999 ** step)) + 1e-8)
        print(f"  epoch {epoch + 1} of {epochs}: loss {loss / len(features):.4f}", file=sys.stderr, flush=True)
    return params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=MODEL_FILE)
    args = parser.parse_args()
    start = time.monotonic()
    features, digits = training_digits(args.samples, args.seed)
    w1, b1, w2, b2 = train(features, digits, args.epochs, args.seed)
    fonts = ", ".join(Path(p).name for p in font_paths()) + ", Pillow's own"
    about = (f"version {MODEL_VERSION}; {args.samples} digits, seed {args.seed}, {args.epochs} epochs, "
             f"{HIDDEN} hidden units; fonts: {fonts}")
    part = args.out.with_suffix(".part.npz")
    np.savez_compressed(part, w1=w1.astype(np.float16), b1=b1.astype(np.float16), w2=w2.astype(np.float16),
                        b2=b2.astype(np.float16), version=np.int64(MODEL_VERSION), about=np.str_(about))
    part.replace(args.out)
    print(f"{args.out}: {about} ({time.monotonic() - start:.0f} s)")


if __name__ == "__main__":
    main()
