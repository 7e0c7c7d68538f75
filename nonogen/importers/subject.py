"""The subject of a photo: which pixels are the thing the photo is of, found offline with OpenCV's GrabCut.

A photo puzzle reads when it draws its subject and leaves the rest out; a
tone cut of the whole frame draws every background shape too (a cat among
cushions became a field of blobs). GrabCut (OpenCV) separates foreground
from background by colour models refined with a graph cut; it only needs a
first guess of which is which, and two guesses are tried:

* a **frame**: everything but a margin along the border may be the subject
  (a photographer centres what the photo is of);
* **seeds**: a saliency map (OpenCV's fine-grained saliency, blurred, plus
  the colour distance to the border's own colours, weighted to the centre)
  marks likely subject pixels; the border is surely background.

A guess counts when its mask stands out from the rest of the picture in
that saliency (mean inside less mean outside) and covers a plausible share
of the picture; the importer frames the photo on the one standing out most
(and in colour also draws it whole, keeping what reads better: a landscape
is best drawn whole).
Everything runs on a copy of at most :data:`WORK_SIDE` pixels a side.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import cv2  # OpenCV: GrabCut and saliency, imported with the picture importer only
import numpy as np
from PIL import Image

__all__ = ["Subject", "find_subjects", "cut_out", "grab_cut"]

WORK_SIDE = 160
"""Longest side of the copy the subject is found on: GrabCut's cost grows with the pixels, its answer hardly."""
SHARE_RANGE = (0.04, 0.85)
"""Share of the picture a subject may cover: less is a speck, more leaves nothing to cut away."""
MARGIN = 0.05
"""Margin kept around the subject's box when the picture is framed on it, as a share of the box's side."""
MIN_CONTRAST = 0.08
"""Least saliency contrast (mean inside less mean outside, on a 0-1 map) for a mask to count as a subject."""
SAME_MASK = 0.9
"""Two guesses whose masks overlap this much (intersection over union) found the same subject."""
PART_SHARE = 0.1
"""Pieces of the mask smaller than this share of the largest piece are noise, not parts of the subject."""
@dataclass(frozen=True)
class Subject:
    """Where the subject is in the picture it was found in: a pixel mask, its box and how it was found."""

    mask: np.ndarray  # h x w bool
    box: tuple[int, int, int, int]  # left, top, right, bottom (exclusive), margin included
    share: float
    contrast: float
    how: str

    def report(self) -> dict:
        return {"box": list(self.box), "share": round(self.share, 3), "contrast": round(self.contrast, 3),
                "found_by": self.how}


def find_subjects(rgb: np.ndarray) -> list[Subject]:
    """The photo's (h x w x 3 uint8) plausible subjects, the one standing out most first; none when nothing
    stands out (see the module docstring). Guesses can find different subjects (a portrait's head or its head and
    shoulders); the one standing out most is the surer: the readability score, asked to choose, preferred a
    rocket's night sky to the rocket."""
    h, w = rgb.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    small = np.asarray(Image.fromarray(rgb).resize((max(8, round(w * scale)), max(8, round(h * scale))),
                                                   Image.Resampling.BOX)) if scale < 1 else rgb
    saliency = _saliency(small)
    found: list[tuple[float, np.ndarray, str]] = []
    guesses = (("frame", _grabcut_frame(small)), ("frame open below", _grabcut_frame(small, open_below=True)),
               ("saliency", _grabcut_seeded(small, saliency)))
    for how, mask in guesses:
        mask = _main_parts(mask)
        share = float(mask.mean())
        if not SHARE_RANGE[0] <= share <= SHARE_RANGE[1]:
            continue
        contrast = float(saliency[mask].mean() - saliency[~mask].mean())
        if contrast >= MIN_CONTRAST and not any(_overlap(mask, other) > SAME_MASK for _, other, _ in found):
            found.append((contrast, mask, how))
    subjects = []
    for contrast, mask, how in sorted(found, key=lambda f: -f[0]):
        full = np.asarray(Image.fromarray(mask.astype(np.uint8) * 255).resize((w, h), Image.Resampling.BILINEAR)) >= 128
        subjects.append(Subject(full, _box(full), float(full.mean()), contrast, how))
    return subjects


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two masks."""
    return float(np.count_nonzero(a & b)) / max(1, int(np.count_nonzero(a | b)))


def cut_out(rgba: np.ndarray, subject: Subject) -> np.ndarray:
    """The picture framed on the subject's box, everything but the subject transparent (paper)."""
    left, top, right, bottom = subject.box
    out = rgba[top:bottom, left:right].copy()
    out[..., 3] = np.where(subject.mask[top:bottom, left:right], out[..., 3], 0)
    return out


def _saliency(rgb: np.ndarray) -> np.ndarray:
    """How much each pixel stands out (0-1): fine-grained saliency, blurred, plus the distance to the border's
    colours weighted to the centre (a subject is rarely at the edge and rarely coloured like it)."""
    h, w = rgb.shape[:2]
    engine = cv2.saliency.StaticSaliencyFineGrained_create()  # type: ignore[attr-defined]  # opencv-contrib's
    ok, fine = engine.computeSaliency(np.ascontiguousarray(rgb[..., ::-1]))
    fine = cv2.GaussianBlur(fine.astype(np.float32), (0, 0), max(h, w) / 25) if ok else np.zeros((h, w), np.float32)
    lab = cv2.cvtColor(cv2.GaussianBlur(rgb, (7, 7), 0), cv2.COLOR_RGB2LAB).astype(np.float32)
    border = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(0)
    # OpenCV takes None for the labels it is not given; the stubs of 4.x do not say so, those of 5.x do
    _, _, centres = cv2.kmeans(border, 6, None, criteria, 3,  # type: ignore[call-overload, unused-ignore]
                               cv2.KMEANS_PP_CENTERS)
    distance = np.min(np.linalg.norm(lab[:, :, None, :] - centres[None, None], axis=3), axis=2)
    yy, xx = np.mgrid[0:h, 0:w]
    centre = np.exp(-(((yy - h / 2) / (0.6 * h)) ** 2 + ((xx - w / 2) / (0.6 * w)) ** 2))
    total = fine / (fine.max() or 1.0) + distance * centre / ((distance * centre).max() or 1.0)
    return total / (total.max() or 1.0)


def grab_cut(rgb: np.ndarray, mask: np.ndarray, rect: Optional[tuple[int, int, int, int]]) -> np.ndarray:
    """The foreground OpenCV's GrabCut finds in ``rgb`` (5 rounds, seeded: the same picture gives the same cut),
    started from ``rect`` (x, y, width, height: outside it is background) or, without one, from ``mask``."""
    cv2.setRNGSeed(0)
    models = (np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64))
    mode = cv2.GC_INIT_WITH_RECT if rect is not None else cv2.GC_INIT_WITH_MASK
    cv2.grabCut(np.ascontiguousarray(rgb[..., ::-1]), mask, rect, *models, 5, mode)  # type: ignore[arg-type]  # None: by mask
    return (mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD)


def _grabcut_frame(rgb: np.ndarray, open_below: bool = False) -> np.ndarray:
    h, w = rgb.shape[:2]
    rect = (int(0.08 * w), int(0.08 * h), max(1, int(0.84 * w)),
            h - int(0.08 * h) if open_below else max(1, int(0.84 * h)))
    return grab_cut(rgb, np.zeros((h, w), np.uint8), rect)


def _grabcut_seeded(rgb: np.ndarray, saliency: np.ndarray) -> np.ndarray:
    h, w = rgb.shape[:2]
    mask = np.full((h, w), cv2.GC_PR_BGD, np.uint8)
    mask[saliency >= np.quantile(saliency, 0.7)] = cv2.GC_PR_FGD
    mask[saliency >= np.quantile(saliency, 0.93)] = cv2.GC_FGD
    edge = max(2, min(h, w) // 40)
    mask[:edge], mask[-edge:], mask[:, :edge], mask[:, -edge:] = cv2.GC_BGD, cv2.GC_BGD, cv2.GC_BGD, cv2.GC_BGD
    return grab_cut(rgb, mask, None)


def _main_parts(mask: np.ndarray) -> np.ndarray:
    """The mask without pieces smaller than :data:`PART_SHARE` of its largest piece."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    if n <= 2:
        return mask.astype(bool)
    areas = stats[1:, cv2.CC_STAT_AREA]
    keep = 1 + np.flatnonzero(areas >= PART_SHARE * areas.max())
    return np.isin(labels, keep)


def _box(mask: np.ndarray) -> tuple[int, int, int, int]:
    """The mask's bounding box grown by :data:`MARGIN` on every side, inside the picture."""
    h, w = mask.shape
    ys, xs = np.nonzero(mask)
    top, bottom, left, right = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
    my, mx = int(round(MARGIN * (bottom - top))), int(round(MARGIN * (right - left)))
    return max(0, left - mx), max(0, top - my), min(w, right + mx), min(h, bottom + my)
