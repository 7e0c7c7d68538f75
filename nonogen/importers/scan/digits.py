"""A small digit reader for clue numbers, trained on the fonts this machine has, with a confidence per digit.

Why not an OCR engine: Tesseract is not installed here and no OCR library with
its models in the wheel is a dependency; a clue sheet needs only ten shapes,
printed in a handful of sans fonts. So the reader is a nearest-neighbour
classifier over prototypes drawn at build (first) use: every digit in Pillow's
own font (what nonogen's PNG sheets use), DejaVu and Liberation (what PDF
viewers and browsers substitute for Helvetica and Arial), at several sizes,
sharp and blurred. Drawing them is deterministic, so the prototypes are cached
in the user's cache folder under a key of the fonts and settings
(:func:`prototypes`), and rebuilt when those change.

A glyph is compared as a :data:`SIDE` x :data:`SIDE` picture of its ink,
scaled to the glyph's height and centred (a "1" stays narrow: its width is
part of what it looks like). The confidence is the margin between the best
digit and the best other digit: two digits that look alike give a low one.

A photo's digits are small, blurred and noisy, and one prototype at a time
is a poor judge of them; a small network taught on such digits (drawn in the
same fonts and degraded, by ``scripts/train_digits.py``; it ships in the
package, :data:`MODEL_FILE`) scores each digit too, and its score is added to
the prototypes' (:data:`MODEL_WEIGHT`).
"""
from __future__ import annotations

import hashlib
import os
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Optional

import numpy as np

__all__ = ["SIDE", "INK_LEVEL", "glyph_features", "classify", "classify_ranked", "prototypes", "reading", "unseen",
           "FONT_FILES", "MATCHED_BLURS", "blurred_at", "font_paths", "model_scores", "MODEL_FILE", "MODEL_VERSION",
           "MODEL_WEIGHT"]

SIDE = 20
"""Side of the square a glyph is scaled into, in pixels."""

FONT_DIRS = ("/usr/share/fonts/truetype", "/usr/share/fonts/opentype", "/usr/share/fonts/TTF", "/usr/share/fonts",
             "/Library/Fonts")
FONT_FILES = (
    "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed.ttf", "DejaVuSansMono.ttf", "DejaVuSerif.ttf",
    "LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf", "LiberationSansNarrow-Regular.ttf",
    "LiberationMono-Regular.ttf", "LiberationSerif-Regular.ttf", "LiberationSerif-Bold.ttf",
    "NimbusSans-Regular.otf", "NimbusSans-Bold.otf",
)
"""Fonts drawn when found (besides Pillow's built-in one, always there): the ones sheets are printed in. Nimbus
Sans (URW's Helvetica, with Ghostscript) is what poppler draws a PDF's Helvetica in once it is installed: without
its digits a rasterised page's "3" read as "8"."""
SIZES = (7, 8, 9, 10, 11, 12, 13, 14, 16, 18, 20, 23, 26, 30, 34, 40)
"""Font sizes in pixels the prototypes are drawn at: small screenshots to 300 dpi pages."""
BLURS = (0.0, 0.8)
"""Gaussian blurs (sigma, pixels, for a 16-pixel font; scaled with the size) over each drawn digit: a sharp render,
and a soft one as resampling gives."""
MATCHED_BLURS = (0.5, 0.8, 1.1, 1.4, 1.7, 2.0, 2.4, 2.8)
"""Blurs (sigma for a 16-pixel font, as :data:`BLURS`) one of which a photo's page is read with, alone
(:func:`blurred_at`): the one its digits look most like. Read with the sheets' prototypes and two photo blurs
(1.6, 2.4) together, a blurred "3" looked more like a blurrier "8" than like a "3" as blurred as itself; with
the page's own blur alone the misread lines of the bench's 40 hard photos (seed 3) fell from 24 to 10, the digits
misread with confidence from 12 to 2."""
SURE_GAP = 0.08
"""A lead in similarity over every other digit that makes a reading sure (confidence 1); on nonogen's own renders
correct readings lead by 0.05 and more."""
SAME = 0.99999
"""A likeness this close to 1 is a glyph meeting itself among its page's own prototypes (:func:`reading`): no
witness of what it is. Counted, a "16" whose digits touch, made a prototype "8" as one blob, read as that "8" at
likeness 1."""
INK_LEVEL = 0.3
"""How far from paper towards ink a pixel must be to belong to a glyph, here and on the page alike: small renders
draw thin strokes in grey (at 0.5 the "2" of a 14-pixel cell's "12" vanished)."""
VERSION = 2
"""Raised whenever the drawing or the features change, so an old cache is not read."""
MODEL_FILE = Path(__file__).with_name("digit_model.npz")
"""The digit model a photo's digits are read with too (made by ``scripts/train_digits.py``, which says why)."""
MODEL_VERSION = 1
"""The features the model was taught on: raised with :data:`VERSION`'s changes, and the model trained again."""
MODEL_WEIGHT = 0.02
"""How much the model's log-probability of a digit adds to its likeness (a cosine similarity, 0..1) when a photo's
digits are read. The two err apart: of 21,654 single digits on the bench's hard photos (seeds 3, 5, 13 and 21,
labelled by where the truth's numbers were printed), the page's prototypes alone misread 64, the model alone 21
(mostly a blurred "1" with a foot read as a "4"), together 10 (at 0.01: 9, at 0.03: 12)."""


def glyph_features(ink: np.ndarray) -> np.ndarray:
    """The glyph ``ink`` (2D, 0 = paper, 1 = full ink, cropped to the glyph) as a unit vector of SIDE*SIDE values.

    Scaled so the height fills the square, the width by the same factor (at
    most the square's side), centred; then normalised, so faint and dark
    print compare alike.
    """
    import cv2  # here: numpy-only callers of this module (tests of features) do not pay for OpenCV

    h, w = ink.shape
    scale = SIDE / max(h, 1)
    new_w = int(min(SIDE, max(1, round(w * scale))))
    resized = cv2.resize(ink.astype(np.float32), (new_w, SIDE), interpolation=cv2.INTER_AREA)
    out = np.zeros((SIDE, SIDE), np.float32)
    left = (SIDE - new_w) // 2
    out[:, left:left + new_w] = resized
    out -= out.mean()
    norm = float(np.linalg.norm(out))
    return (out / norm if norm > 0 else out).ravel()


def font_paths() -> list[str]:
    found = []
    for name in FONT_FILES:
        for folder in FONT_DIRS:
            hits = sorted(Path(folder).rglob(name)) if os.path.isdir(folder) else []
            if hits:
                found.append(str(hits[0]))
                break
    return found


def _drawn(font, digit: str, blur: float) -> Optional[np.ndarray]:
    """One digit drawn black on white in ``font``, as ink cropped to its box (None if nothing was drawn)."""
    from PIL import Image, ImageDraw, ImageFilter

    size = int(getattr(font, "size", 20))
    img = Image.new("L", (size * 3, size * 3), 255)
    ImageDraw.Draw(img).text((size, size), digit, fill=0, font=font)
    if blur:
        img = img.filter(ImageFilter.GaussianBlur(blur))
    ink = 1.0 - np.asarray(img, np.float32) / 255.0
    mask = ink > INK_LEVEL
    if not mask.any():
        return None
    ys, xs = np.nonzero(mask)
    return ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _draw_prototypes(paths: list[str], blurs: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray]:
    from PIL import ImageFont

    vectors, labels = [], []
    for size in SIZES:
        fonts = [ImageFont.load_default(size=size)] + [ImageFont.truetype(p, size) for p in paths]
        for font in fonts:
            for digit in "0123456789":
                for blur in blurs:
                    ink = _drawn(font, digit, blur * size / 16)
                    if ink is not None:
                        vectors.append(glyph_features(ink))
                        labels.append(int(digit))
    return np.asarray(vectors, np.float32), np.asarray(labels, np.int8)


def _cache_file(paths: list[str], blurs: tuple[float, ...]) -> Optional[Path]:
    from importlib.metadata import version

    pillow = version("pillow")  # its built-in font, drawn among the prototypes, may change with it
    key = repr((VERSION, SIDE, SIZES, blurs, pillow, [(p, os.path.getsize(p)) for p in paths]))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not base or base.startswith("~"):
        return None
    return Path(base) / "nonogen" / f"digits-{hashlib.sha256(key.encode()).hexdigest()[:16]}.npz"


def prototypes() -> tuple[np.ndarray, np.ndarray]:
    """The prototype vectors (N x SIDE*SIDE) and their digits, read from the cache or drawn (then cached).

    A cache that cannot be written (a read-only home) only costs drawing them
    again next time (about a second).
    """
    return _prototypes(BLURS)


def blurred_at(blur: float) -> tuple[np.ndarray, np.ndarray]:
    """Prototypes drawn with this one blur (sigma for a 16-pixel font), cached alike."""
    return _prototypes((blur,))


@lru_cache(maxsize=len(MATCHED_BLURS) + 2)
def _prototypes(blurs: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray]:
    paths = font_paths()
    cache = _cache_file(paths, blurs)
    if cache is not None and cache.is_file():
        try:
            with np.load(cache) as data:
                return data["vectors"], data["labels"]
        except (OSError, ValueError, KeyError):
            pass  # a torn or foreign file: draw again
    vectors, labels = _draw_prototypes(paths, blurs)
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            part = cache.with_suffix(f".{os.getpid()}.tmp.npz")
            np.savez_compressed(part, vectors=vectors, labels=labels)
            os.replace(part, cache)
        except OSError:
            pass
    return vectors, labels


def classify(features: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The digit of each row of ``features`` (M x SIDE*SIDE), a confidence in 0..1, and the best similarity.

    The confidence is the gap in similarity between the best digit and the
    best other digit, scaled so a gap of :data:`SURE_GAP` or more counts as sure; a glyph
    unlike every prototype (best similarity under 0.6) is at most half sure.
    The best similarity itself (1: a prototype's very shape) tells a digit
    from a letter of a heading.
    """
    digits, confidence, top, _ = classify_ranked(features)
    return digits, confidence, top


def classify_ranked(features: np.ndarray, most: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`classify`, and the next-best digits of each row (M x ``most``, best first): what a misread digit most
    likely was (the suspects' search in :func:`nonogen.scan` tries them)."""
    if len(features) == 0:
        return np.zeros(0, np.int64), np.zeros(0), np.zeros(0), np.zeros((0, most), np.int64)
    vectors, labels, page = _bank()
    sims = features @ vectors.T  # cosine similarity: both sides are unit vectors
    own = sims[:, page:]
    own[own >= SAME] = -2.0  # a glyph among the page's prototypes does not vouch for itself
    like = np.full((len(features), 10), -2.0, np.float32)
    for digit in range(10):
        cols = labels == digit
        if cols.any():
            like[:, digit] = sims[:, cols].max(axis=1)
    best = like + MODEL_WEIGHT * model_scores(features) if _MODEL.get() else like
    order = np.argsort(-best, axis=1)
    rows = np.arange(len(best))
    top = like.max(axis=1)  # how much it looks like a digit, whichever the model prefers
    lead = best[rows, order[:, 0]] - best[rows, order[:, 1]]
    confidence = np.clip(lead / SURE_GAP, 0.0, 1.0)
    confidence = np.where(top < 0.6, np.minimum(confidence, 0.5), confidence)
    seen = _SEEN.get()
    if seen is not None:
        seen.append((features, order[:, 0].astype(np.int64), lead))
    return (order[:, 0].astype(np.int64), confidence.astype(float), top.astype(float),
            order[:, 1:1 + most].astype(np.int64))


_PAGE: ContextVar[Optional[tuple[np.ndarray, np.ndarray]]] = ContextVar("page_prototypes", default=None)
_SEEN: ContextVar[Optional[list]] = ContextVar("seen_digits", default=None)
_FONTS: ContextVar[bool] = ContextVar("font_prototypes", default=True)
_MODEL: ContextVar[bool] = ContextVar("digit_model", default=False)


@lru_cache(maxsize=1)
def _model() -> tuple[np.ndarray, ...]:
    """The model's weights and biases (w1, b1, w2, b2), read once."""
    with np.load(MODEL_FILE) as data:
        if int(data["version"]) != MODEL_VERSION:
            raise RuntimeError(f"{MODEL_FILE} was trained on other features: run scripts/train_digits.py")
        return tuple(data[name].astype(np.float32) for name in ("w1", "b1", "w2", "b2"))


def model_scores(features: np.ndarray) -> np.ndarray:
    """The model's log-probability of each digit for each row of ``features`` (M x 10)."""
    w1, b1, w2, b2 = _model()
    scores = np.maximum(features @ w1 + b1, 0) @ w2 + b2
    scores -= scores.max(axis=1, keepdims=True)
    return scores - np.log(np.exp(scores).sum(axis=1, keepdims=True))


def _bank() -> tuple[np.ndarray, np.ndarray, int]:
    """The prototypes :func:`classify` compares with: the fonts', and a page's own digits within :func:`reading`;
    and where the page's begin."""
    page = _PAGE.get()
    if page is not None and not _FONTS.get():
        return page[0], page[1], 0
    vectors, labels = prototypes()
    if page is None:
        return vectors, labels, len(vectors)
    return np.concatenate([vectors, page[0]]), np.concatenate([labels, page[1]]), len(vectors)


@contextmanager
def unseen() -> Iterator[None]:
    """Within: what :func:`classify_ranked` reads is not appended to the ``seen`` of :func:`reading` (a second look
    at a blob, cut another way, is no evidence of how the page's digits look)."""
    token = _SEEN.set(None)
    try:
        yield
    finally:
        _SEEN.reset(token)


@contextmanager
def reading(page: Optional[tuple[np.ndarray, np.ndarray]] = None, seen: Optional[list] = None,
            fonts: bool = True, model: bool = False) -> Iterator[None]:
    """Within: :func:`classify` compares with ``page`` prototypes too (vectors, digits: a photo's own surest digits,
    in its font and its blur), or with them alone (not ``fonts``), weighs in the digit model (``model``, see
    :data:`MODEL_WEIGHT`), and appends what it reads to ``seen`` (features, digits, lead over the runner-up)."""
    page_token, seen_token, fonts_token, model_token = _PAGE.set(page), _SEEN.set(seen), _FONTS.set(fonts), \
        _MODEL.set(model)
    try:
        yield
    finally:
        _PAGE.reset(page_token)
        _SEEN.reset(seen_token)
        _FONTS.reset(fonts_token)
        _MODEL.reset(model_token)
