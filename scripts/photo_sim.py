"""Photo-like pictures of printed puzzle pages, made from nonogen's own clean sheets: seeded and deterministic.

A clean page (grey, 0 ink .. 255 paper, e.g. a PDF sheet rasterised at 300 dpi) is printed on textured paper,
bent near a book's spine (the page curls as a cylinder), looked at by a pinhole camera from an angle (perspective,
roll), lit unevenly (a gradient, a soft shadow's edge, vignetting, a warm tint), blurred (focus and a little
shake), given sensor noise and saved as a JPEG. Two levels:

- ``mild``: a careful phone photo: a few degrees of roll, up to 12 degrees of tilt, a slight bend, soft light,
  a little blur, JPEG quality 85; the page's long side about 2,200 pixels.
- ``hard``: a quick one: up to 7 degrees of roll and 24 of tilt, a page curling 18-30 degrees into the spine, a
  shadow taking half the light over part of the page, more blur and noise, JPEG quality 60-70; about 2,000 pixels.

Used by ``bench_scan_photo.py`` (kinds ``photo-mild`` and ``photo-hard``), the scan tests and the guide's picture.
Usage: .venv/bin/python scripts/photo_sim.py SHEET.png OUT.jpg [--level mild|hard] [--seed S]
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Optional, Union

import numpy as np

LEVELS = {
    "mild": {"roll": 3.0, "tilt": 12.0, "bend": (0.0, 10.0), "side": 2200, "gradient": 0.25, "shadow": (0.0, 0.2),
             "blur": (0.5, 0.9), "shake": 0, "noise": 2.0, "quality": (85, 85), "texture": 0.02},
    "hard": {"roll": 7.0, "tilt": 24.0, "bend": (18.0, 30.0), "side": 2000, "gradient": 0.4, "shadow": (0.35, 0.5),
             "blur": (0.8, 1.2), "shake": 1, "noise": 4.0, "quality": (60, 70), "texture": 0.04},
}
"""Each level's ranges: degrees of roll and of tilt (either way), of the page's bend at the spine; the photo's long
side in pixels; how much the light falls across the page; how much light a shadow takes; Gaussian blur (sigma,
pixels); a shake (motion blur: up to this many pixels either way); sensor noise (grey levels); JPEG quality; paper
texture (fraction)."""


def _rotation(roll: float, yaw: float, pitch: float) -> np.ndarray:
    r, y, p = np.radians([roll, yaw, pitch])
    rz = np.array([[np.cos(r), -np.sin(r), 0], [np.sin(r), np.cos(r), 0], [0, 0, 1]])
    ry = np.array([[np.cos(y), 0, np.sin(y)], [0, 1, 0], [-np.sin(y), 0, np.cos(y)]])
    rx = np.array([[1, 0, 0], [0, np.cos(p), -np.sin(p)], [0, np.sin(p), np.cos(p)]])
    return rz @ ry @ rx


def _surface(s: np.ndarray, bend: float, spine_left: bool) -> tuple[np.ndarray, np.ndarray]:
    """The page's cross-section: across-page position ``s`` (0..1, arc length) to (X, Z), curling into the spine.

    The surface's angle grows as the square of the distance into the last 40 % before the spine, up to ``bend``
    degrees there; arc length is kept, so cells near the spine come out narrower, as on a real page.
    """
    fine = np.linspace(0.0, 1.0, 2001)
    into = np.clip(((0.4 - fine) if spine_left else (fine - 0.6)) / 0.4, 0.0, 1.0)
    angle = np.radians(bend) * into ** 2 * (-1 if spine_left else 1)
    step = fine[1] - fine[0]
    x = np.concatenate([[0.0], np.cumsum(np.cos(angle[:-1]) * step)])
    z = np.concatenate([[0.0], np.cumsum(np.abs(np.sin(angle[:-1])) * step)])
    return np.interp(s, fine, x), np.interp(s, fine, z)


def _camera(shape: tuple[int, int], level: dict, rng: np.random.Generator, side: Optional[int]):
    """Where each page point lands in the photo: a function of page (s, t) in page widths, and the photo's size."""
    h, w = shape
    aspect = h / w
    roll = rng.uniform(-level["roll"], level["roll"])
    yaw, pitch = rng.uniform(-level["tilt"], level["tilt"], 2) * np.array([0.6, 1.0])
    bend = rng.uniform(*level["bend"])
    spine_left = bool(rng.random() < 0.5)
    rot = _rotation(roll, yaw, pitch)
    distance = 1.7

    def project(s: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x, z = _surface(s, bend, spine_left)
        points = np.stack([x - 0.5, t - aspect / 2, z], axis=-1) @ rot.T
        depth = points[..., 2] + distance
        return points[..., 0] / depth, points[..., 1] / depth

    edge = np.linspace(0, 1, 50)
    xs, ys = project(np.concatenate([edge, edge, np.zeros(50), np.ones(50)]),
                     np.concatenate([np.zeros(50), np.full(50, aspect), edge * aspect, edge * aspect]))
    long_side = (side or level["side"]) * rng.uniform(0.95, 1.05)
    span = max(xs.max() - xs.min(), (ys.max() - ys.min()) / (4 / 3))
    fill = rng.uniform(0.82, 0.92)
    scale = fill * long_side / (4 / 3) / span
    out_w, out_h = round(long_side * 3 / 4), round(long_side)
    cx = out_w / 2 - scale * (xs.max() + xs.min()) / 2 + rng.uniform(-0.03, 0.03) * out_w
    cy = out_h / 2 - scale * (ys.max() + ys.min()) / 2 + rng.uniform(-0.03, 0.03) * out_h

    def to_photo(s: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        px, py = project(s, t)
        return cx + scale * px, cy + scale * py

    return to_photo, (out_h, out_w), scale


def _inverse_maps(to_photo, page_shape: tuple[int, int], out_shape: tuple[int, int]):
    """For each photo pixel, the page pixel seen there (NaN off the page): page points projected, interpolated back."""
    import cv2
    from scipy.interpolate import griddata

    h, w = page_shape
    s, t = np.meshgrid(np.linspace(0, 1, 161), np.linspace(0, h / w, round(160 * h / w) + 1))
    px, py = to_photo(s.ravel(), t.ravel())
    step = 4
    oh, ow = out_shape
    gy, gx = np.mgrid[0:oh + step:step, 0:ow + step:step]
    found = griddata(np.stack([px, py], 1), np.stack([s.ravel(), t.ravel()], 1), (gx, gy), method="linear")
    maps = []
    for k in range(2):
        coarse = (found[..., k] * w).astype(np.float32)
        coarse = np.where(np.isnan(coarse), -10.0 * w, coarse).astype(np.float32)
        fine = cv2.resize(coarse, (gx.shape[1] * step, gx.shape[0] * step), interpolation=cv2.INTER_LINEAR)
        maps.append(fine[:oh, :ow])
    return maps[0], maps[1]


def _smooth_noise(shape: tuple[int, int], sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Gaussian noise blurred by ``sigma`` pixels, scaled to unit spread."""
    import cv2

    noise = cv2.GaussianBlur(rng.standard_normal(shape).astype(np.float32), (0, 0), sigma)
    return noise / max(float(noise.std()), 1e-6)


def _light(shape: tuple[int, int], level: dict, rng: np.random.Generator) -> np.ndarray:
    """The light over the photo: a falling gradient, a shadow with a soft edge, vignetting (1: full light)."""
    import cv2

    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = xx / w - 0.5, yy / h - 0.5
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(angle) * u + np.sin(angle) * v) + 0.5
    light = 1.0 - level["gradient"] * np.clip(ramp, 0, 1)
    strength = rng.uniform(*level["shadow"])
    if strength > 0:
        angle = rng.uniform(0, 2 * np.pi)
        side = np.cos(angle) * u + np.sin(angle) * v - rng.uniform(0.0, 0.25)
        shadow = (side > 0).astype(np.float32)
        shadow = cv2.GaussianBlur(shadow, (0, 0), 0.03 * max(h, w))
        light *= 1.0 - strength * shadow
    light *= 1.0 - 0.25 * (u ** 2 + v ** 2)
    return light


def on_paper(sheet: np.ndarray) -> np.ndarray:
    """A grey sheet laid on a white page of A4's proportions, a third of the way down and centred across: the
    paper a sheet is printed on, before it is photographed."""
    h, w = sheet.shape
    width = int(max(w * 1.3, h * 1.3 / 1.414))
    page = np.full((int(width * 1.414), width), 255, np.uint8)
    top, left = (page.shape[0] - h) // 3, (width - w) // 2
    page[top:top + h, left:left + w] = sheet
    return page


def photograph(page: np.ndarray, level: str = "mild", seed: int = 0,
               side: Optional[int] = None) -> tuple[np.ndarray, int]:
    """A photo (RGB, uint8) of the clean grey ``page`` printed and photographed at ``level``; its JPEG quality.

    ``side`` sets the photo's long side in pixels instead of the level's (tests use small photos of small pages).
    """
    import cv2

    spec = LEVELS[level]
    rng = np.random.default_rng(seed)
    to_photo, out_shape, scale = _camera(page.shape, spec, rng, side)
    map_x, map_y = _inverse_maps(to_photo, page.shape, out_shape)
    shrink = page.shape[1] / scale  # page pixels per photo pixel, about
    source = page.astype(np.float32) / 255.0
    if shrink > 1.2:
        source = cv2.GaussianBlur(source, (0, 0), 0.45 * shrink / 1.0)
    printed = cv2.remap(source, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=-1.0)
    on_page = printed >= -0.5
    printed = np.where(on_page, printed, 1.0)
    ink = rng.uniform(0.08, 0.16)
    paper = 0.9 * (1 + spec["texture"] * _smooth_noise(out_shape, 20, rng)
                   + 0.5 * spec["texture"] * _smooth_noise(out_shape, 0.8, rng))
    table = rng.uniform(0.2, 0.45) * (1 + 0.1 * _smooth_noise(out_shape, 6, rng))
    seen = np.where(on_page, paper * (ink + (1 - ink) * printed), table) * _light(out_shape, spec, rng)
    tint = np.array([1.0, rng.uniform(0.92, 0.97), rng.uniform(0.8, 0.9)], np.float32)
    rgb = seen[..., None] * tint * 255.0
    rgb = cv2.GaussianBlur(rgb, (0, 0), rng.uniform(*spec["blur"]))
    if spec["shake"]:
        length = int(rng.integers(1, spec["shake"] + 1))
        kernel = np.zeros((2 * length + 1, 2 * length + 1), np.float32)
        angle = rng.uniform(0, np.pi)
        for k in range(-length, length + 1):
            kernel[length + round(k * np.sin(angle)), length + round(k * np.cos(angle))] = 1
        rgb = cv2.filter2D(rgb, -1, kernel / kernel.sum())
    rgb += rng.normal(0, spec["noise"], rgb.shape).astype(np.float32)
    quality = int(rng.integers(spec["quality"][0], spec["quality"][1] + 1))
    return np.clip(rgb, 0, 255).astype(np.uint8), quality


def save_photo(page: np.ndarray, out: Union[str, Path], level: str = "mild", seed: int = 0,
               side: Optional[int] = None) -> Path:
    """:func:`photograph` ``page`` and write it as a JPEG to ``out``."""
    from PIL import Image

    rgb, quality = photograph(page, level, seed, side)
    Image.fromarray(rgb).save(out, quality=quality)
    return Path(out)


def main() -> None:
    from PIL import Image

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sheet")
    parser.add_argument("out")
    parser.add_argument("--level", choices=sorted(LEVELS), default="mild")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with Image.open(args.sheet) as img:
        page = np.asarray(img.convert("L"))
    print(save_photo(page, args.out, args.level, args.seed))


if __name__ == "__main__":
    main()
