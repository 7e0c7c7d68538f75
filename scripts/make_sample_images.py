"""Draw the sample pictures nonogen ships in samples/images/ (deterministic: same bytes every run).

Pixel-art sprites are drawn from text below and saved upscaled (the importer
must detect and undo the scale); the "photo" pictures are drawn with numpy
(a shaded sphere with a soft alpha edge, a JPEG landscape). Run:

    .venv/bin/python scripts/make_sample_images.py [OUT_DIR]
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PIL import Image

HEART = """
...oo...oo...
..orro.orro..
.orwrrorrrro.
.orwrrrrrrro.
.orrrrrrrrro.
..orrrrrrro..
...orrrrro...
....orrro....
.....oro.....
......o......
"""

CAT = """
................
.#..........#...
.##........##...
.###......###...
.############...
.##..####..##...
.##..####..##...
.############...
.#####..#####...
..####..####....
...########.....
...#########..#.
..###########.#.
..###########.#.
..############..
..##.##..##.##..
"""

ROCKET = """
.......ww.......
......wwww......
.....wwwwww.....
.....wwwwww.....
.....wwbbww.....
.....wbbbbw.....
.....wwbbww.....
.....wwwwww.....
.....wwwwww.....
....rwwwwwwr....
...rrwwwwwwrr...
..rrrwwwwwwrrr..
..rr.wwwwww.rr..
......ffff......
.......ff.......
.......ff.......
"""

COLORS = {
    "o": (60, 20, 30, 255),
    "r": (220, 40, 50, 255),
    "w": (250, 250, 250, 255),
    "#": (20, 20, 20, 255),
    "b": (40, 110, 230, 255),
    "f": (255, 160, 20, 255),
    ".": (0, 0, 0, 0),
}


def sprite(text: str, background: tuple[int, int, int, int] = (0, 0, 0, 0)) -> np.ndarray:
    """An RGBA array from text art (``.`` is ``background``)."""
    rows = [line for line in text.strip("\n").splitlines()]
    out = np.zeros((len(rows), len(rows[0]), 4), dtype=np.uint8)
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            out[r, c] = background if ch == "." else COLORS[ch]
    return out


def upscale(rgba: np.ndarray, factor: int) -> np.ndarray:
    """Exact NEAREST upscale, what pixel-art exports do."""
    return rgba.repeat(factor, axis=0).repeat(factor, axis=1)


def sphere(size: int = 256) -> np.ndarray:
    """A lit sphere with a soft, anti-aliased alpha edge and a translucent shadow: photo-like RGBA."""
    y, x = (np.mgrid[0:size, 0:size] + 0.5) / size * 2 - 1
    r = np.hypot(x, y + 0.05)
    ball_alpha = np.clip((0.78 - r) * size / 3, 0, 1)
    z = np.sqrt(np.clip(0.78**2 - r**2, 0, None)) / 0.78
    light = np.clip(0.25 + 0.75 * (-0.45 * x - 0.5 * (y + 0.05) + 0.75 * z), 0, 1)
    base = np.array([40, 120, 200], dtype=float)
    rgb = base[None, None, :] * light[..., None] + 255 * np.clip(light - 0.85, 0, 1)[..., None] * 4
    shadow = np.clip(1 - np.hypot(x * 1.1, (y - 0.88) * 4.5), 0, 1) * 0.6
    alpha = ball_alpha + shadow * (1 - ball_alpha)
    colour = (rgb * ball_alpha[..., None] + np.array([30, 30, 40]) * (shadow * (1 - ball_alpha))[..., None])
    colour = colour / np.maximum(alpha, 1e-6)[..., None]
    out = np.dstack([np.clip(colour, 0, 255), alpha * 255]).round().astype(np.uint8)
    return out


def landscape(width: int = 320, height: int = 240) -> np.ndarray:
    """Sky gradient, sun, two mountain ridges and a tree: a small RGB 'photo' for the JPEG sample."""
    y, x = np.mgrid[0:height, 0:width].astype(float)
    sky = np.dstack([150 + 80 * y / height, 190 + 40 * y / height, np.full_like(y, 245)])
    img = sky.copy()
    sun = np.hypot(x - 240, y - 60) < 26
    img[sun] = (255, 220, 90)
    far = y > 140 - 40 * np.sin(x / 45) - 20 * np.cos(x / 17)
    img[far] = (110, 120, 150)
    near = y > 185 - 30 * np.sin(x / 70 + 1.5)
    img[near] = (40, 90, 50)
    trunk = (abs(x - 70) < 5) & (y > 150) & (y < 200)
    crown = np.hypot(x - 70, (y - 130) * 1.2) < 30
    img[trunk] = (80, 50, 30)
    img[crown] = (20, 70, 30)
    return img.round().astype(np.uint8)


def make_all(out: Path) -> list[Path]:
    """Write every sample picture into ``out``; returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    heart = out / "heart-pixelart-x10.png"
    Image.fromarray(upscale(sprite(HEART), 10), "RGBA").save(heart, optimize=True)
    cat = out / "cat-x6.gif"
    cat_rgba = upscale(sprite(CAT), 6)
    index = np.where(cat_rgba[..., 3] > 0, 1, 0).astype(np.uint8)
    gif = Image.fromarray(index, "P")
    gif.putpalette([255, 255, 255, 20, 20, 20])
    gif.save(cat, transparency=0)
    rocket = out / "rocket-on-sky-x8.png"
    Image.fromarray(upscale(sprite(ROCKET, background=(20, 30, 80, 255)), 8)[..., :3], "RGB").save(rocket)
    ball = out / "sphere-soft-alpha.png"
    Image.fromarray(sphere(), "RGBA").save(ball)
    land = out / "landscape.jpg"
    Image.fromarray(landscape(), "RGB").save(land, quality=90)
    written += [heart, cat, rocket, ball, land]
    return written


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "samples" / "images"
    for path in make_all(out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
